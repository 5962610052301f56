"""AUTH: each code from the facts of its check, firing with its parameters or staying silent."""

import pytest

from tests.rules.cases import check, fires, silent

ANSWER = {"status": 401, "message": "Incorrect API key provided", "url": "https://gw.example/v1/responses"}

CASES = [
    fires(
        "AUTH001",
        {**ANSWER, "kind": "auth_rejected"},
        "POST https://gw.example/v1/responses answered 401: Incorrect API key provided.",
        "(the command below prints fbbb0b78)",
        "Check that env_key (~/.codex/config.toml:7)",
    ),
    fires(
        "AUTH001",
        {**ANSWER, "kind": "auth_rejected", "key_fp8": None},
        "Check the key this terminal has;",
        why="no-key-sent",
    ),
    fires(
        "AUTH001",
        {**ANSWER, "kind": "auth_rejected", "env_key": None, "key_fp8": None},
        "Copy the key again, whole",
        why="no-env-key",  # no variable to fingerprint (a paste with no env_key): no step that ends in {fp_cmd}
    ),
    silent("AUTH001", {**ANSWER, "kind": "auth_missing"}),
    fires(
        "AUTH002",
        {**ANSWER, "kind": "auth_missing", "message": "no API key provided"},
        "answered 401: no API key provided",
        "export GW_API_KEY=",
    ),
    silent("AUTH002", {**ANSWER, "kind": "auth_rejected"}),
    fires(
        "AUTH003",
        {**ANSWER, "kind": "forbidden", "status": 403, "message": "model not allowed for this project"},
        "answered 403: model not allowed for this project",
        "may use model `gw-coder`",
    ),
    silent("AUTH003", {**ANSWER, "kind": "blocked", "status": 403}),
    fires(
        "AUTH004",
        {**ANSWER, "kind": "blocked", "status": 403, "message": "Access denied (Cloudflare)"},
        "was blocked (403): Access denied (Cloudflare)",
    ),
    silent("AUTH004", {**ANSWER, "kind": "forbidden", "status": 403}),
    fires(
        "AUTH005",
        {"open_without_key": True, "canary_ran": False},
        "GET http://127.0.0.1:8080/v1/models answers without any key",
    ),
    silent("AUTH005", {"open_without_key": True, "canary_ran": True}),
    fires(
        "AUTH006",
        {"kind": "auth_rejected", "status": 401, "message": "invalid key", "canary_ran": False},
        "GET http://127.0.0.1:8080/v1/models answered 401: invalid key.",
    ),
    fires(
        "AUTH006",
        {"kind": "auth_missing", "status": 401, "message": "no key", "canary_ran": False},
        "401: no key",
        why="missing",
    ),
    silent("AUTH006", {"kind": "auth_rejected", "status": 401, "message": "invalid key"}, why="AUTH001-says-it"),
    fires(
        "AUTH007",
        {"kind": "key_quota", "status": 401, "message": "该令牌额度已用尽 TokenStatusExhausted[sk-abc***xyz]"},
        "answered 401: 该令牌额度已用尽 TokenStatusExhausted[sk-abc***xyz]",
        "its balance or quota is exhausted",
        "Do not copy the key again: it is accepted.",
    ),
    silent("AUTH007", {"kind": "auth_rejected", "status": 401, "message": "invalid key"}),
    silent("AUTH001", {"kind": "key_quota", "status": 401, "message": "quota used up"}, why="AUTH007-says-it"),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_auth(case):
    check(case)
