"""URL: each code from the facts of its check, firing with its parameters or staying silent."""

import pytest

from tests.rules.cases import check, fires, silent

VERIFIED = {"api.variants": {"working": {"base_url": "http://127.0.0.1:8080/api", "kind": "ok", "status": 200}}}

CASES = [
    fires(
        "URL001",
        {"malformed": "has no http:// or https://", "shown": "127.0.0.1:8080/v1"},
        'base_url = "127.0.0.1:8080/v1" (~/.codex/config.toml:6) has no http:// or https://.',
    ),
    silent("URL001", {"malformed": None}),
    fires(
        "URL002",
        {
            "whitespace": True,
            "suggested": "http://127.0.0.1:8080/v1",
            "request_url": "http://127.0.0.1:8080/v1%20/responses",
        },
        "the request goes to http://127.0.0.1:8080/v1%20/responses",
        'base_url = "http://127.0.0.1:8080/v1"',
    ),
    silent("URL002", {"whitespace": True}, others=VERIFIED, why="a-live-variant-worked"),
    silent("URL002", {"whitespace": True, "malformed": "has no host"}),
    fires(
        "URL003",
        {"offline": True},
        'base_url = "http://127.0.0.1:8080/v1" ends in /v1',
        "Codex calls http://127.0.0.1:8080/v1/responses",
        "without --offline",
    ),
    fires(
        "URL003",
        {},
        "could not settle it",
        others={"api.canary": {"kind": "timeout"}},
        why="the-canary-got-no-answer",
    ),
    silent("URL003", {}, others={"api.canary": {}}, why="the-canary-answered"),
    silent("URL003", {"ends_v1": True, "doubled_path": "/v1"}, why="URL005-says-it"),
    silent("URL003", {"builtin": True}),
    fires(
        "URL004",
        {"query": True, "shown": "https://gw.example/v1?utm_source=docs", "suggested": "https://gw.example/v1"},
        'base_url = "https://gw.example/v1?utm_source=docs" (~/.codex/config.toml:6) carries `?…`',
        'set base_url = "https://gw.example/v1"',
    ),
    fires("URL004", {"fragment": True, "suggested": "https://gw.example/v1"}, "carries `?…` or `#…`", why="fragment"),
    silent("URL004", {"query": True}, others=VERIFIED),
    fires(
        "URL005",
        {
            "doubled_path": "/responses",
            "suggested": "http://127.0.0.1:8080/v1",
            "request_url": "http://127.0.0.1:8080/v1/responses/responses",
        },
        "base_url ends in /responses; Codex appends the path again and calls http://127.0.0.1:8080/v1/responses/responses",
        'set base_url = "http://127.0.0.1:8080/v1" (the part before /responses)',
    ),
    silent("URL005", {"doubled_path": "/responses"}, others=VERIFIED),
    fires(
        "URL006",
        {"userinfo": True, "suggested": "https://gw.example/v1"},
        "has `user:password@` before the host",
        'base_url = "https://gw.example/v1"',
    ),
    silent("URL006", {"userinfo": True, "malformed": "has no host"}),
    fires("URL007", {"plain_http_remote": True, "host": "gw.example", "scheme": "http"}, "http:// to gw.example"),
    silent("URL007", {"plain_http_remote": False}),
    fires("URL008", {"trailing_slash": True}, "drop the trailing slash in ~/.codex/config.toml:6"),
    silent("URL008", {"trailing_slash": True, "query": True}, why="URL004-says-it"),
    fires(
        "URL009",
        {"kind": "html", "status": 200, "url": "https://gw.example/responses"},
        "POST https://gw.example/responses returned a web page (200)",
    ),
    silent("URL009", {"kind": "not_json"}),
    fires(
        "URL011",
        {"query": True, "query_secrets": ["api_key", "token"]},
        "has `api_key=…`, `token=…` in its query string",
        "in ~/.codex/config.toml:6",
    ),
    silent("URL011", {"query_secrets": ["api_key"], "malformed": "has no host"}),
    fires(
        "URL010",
        {
            "ignored_openai_base_url": "https://gw.example/v1",
            "builtin": True,
            "request_url": "https://api.openai.com/v1/responses",
        },
        "$OPENAI_BASE_URL is set (https://gw.example/v1)",
        "the built-in provider calls https://api.openai.com/v1/responses",
        'openai_base_url = "https://gw.example/v1"',
    ),
    silent("URL010", {"ignored_openai_base_url": None}),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_url(case):
    check(case)
