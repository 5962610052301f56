"""NET: each code from the facts of its check, firing with its parameters or staying silent."""

import pytest

from tests.rules.cases import check, fires, silent

GW = {"host": "gw.example", "url": "https://gw.example/v1/responses", "base_url": "https://gw.example/v1"}

SLOW_FIRST_TOKEN = {
    "kind": "timeout",
    "status": None,
    "total_ms": 3696.0,
    "first_token_timeout_s": 4.0,
    "ttft_ms": None,
}

CASES = [
    fires(
        "NET001",
        {**GW, "failure": "dns", "detail": "Name or service not known"},
        "gw.example does not resolve (https://gw.example/v1/responses): Name or service not known.",
        "nslookup gw.example",
    ),
    silent("NET001", {**GW, "failure": "refused"}),
    fires(
        "NET002",
        {"failure": "refused", "detail": "Connection refused"},
        "Nothing accepts connections at http://127.0.0.1:8080/v1: Connection refused.",
        "No proxy is in the way",
    ),
    silent("NET002", {"failure": "dns"}),
    fires(
        "NET003",
        {
            **GW,
            "failure": "tls",
            "detail": "certificate verify failed",
            "ignored_ca_variable": "REQUESTS_CA_BUNDLE",
            "ignored_ca_file": "/etc/corp-ca.pem",
        },
        "Connecting to gw.example over TLS failed: certificate verify failed.",
        "$REQUESTS_CA_BUNDLE is set, but Codex ignores it",
        "export CODEX_CA_CERTIFICATE=/etc/corp-ca.pem",
    ),
    fires(
        "NET003",
        {**GW, "failure": "tls", "detail": "self-signed", "cert_ca": True},
        "CA:FALSE",
        "-subj /CN=gw.example",
        "subjectAltName=DNS:gw.example",
        why="a-ca-certificate-as-the-server's",
    ),
    fires(
        "NET003",
        {**GW, "failure": "tls", "detail": "unknown CA", "platform": "windows", "shell": "powershell"},
        "If the provider uses a private or corporate CA",
        '$env:CODEX_CA_CERTIFICATE = "/path/to/ca.pem"',
        why="powershell",
    ),
    silent("NET003", {**GW, "failure": "reset"}),
    fires(
        "NET004",
        {"failure": "timeout", "detail": "no answer in 5.0 s"},
        "http://127.0.0.1:8080/v1/responses did not answer in time (no answer in 5.0 s).",
        "codexdoctor check --timeout 30",
    ),
    fires(
        "NET004",
        {"failure": "deadline", "detail": "first token after 120 s", "waited_for_alive": "GET /v1/models answered 200"},
        "codexdoctor check --first-token-timeout 300",
        why="alive-but-slow",
    ),
    silent("NET004", {"failure": None}),
    fires(
        "NET005",
        {**GW, "failure": "reset", "detail": "Connection reset by peer"},
        "The connection to gw.example was dropped",
    ),
    silent("NET005", {**GW, "failure": "protocol"}),
    fires(
        "NET006",
        {"failure": "redirect", "redirect": "https://gw.example/v1/responses"},
        "redirects to https://gw.example/v1/responses",
    ),
    silent("NET006", {"failure": None, "redirect": "https://gw.example/v1/responses"}),
    fires(
        "NET007",
        {"failure": "proxy", "detail": "proxy refused the connection", "proxy": True, "proxy_var": "HTTP_PROXY"},
        "The proxy from this environment failed: proxy refused the connection.",
        "keeps printing `Reconnecting... waiting for network`",
        "Fix or start the proxy that $HTTP_PROXY names",
        "Codex uses it even for 127.0.0.1",
        "export NO_PROXY=127.0.0.1",
    ),
    fires(
        "NET007",
        {"failure": "proxy", "detail": "407", "proxy_status": 407, "proxy_var": "https_proxy"},
        "407 Proxy Authentication Required",
        "https:// URLs use it",
        why="407",
    ),
    fires(
        "NET007",
        {"failure": "proxy", "detail": "bad gateway"},
        "Check HTTPS_PROXY / HTTP_PROXY / ALL_PROXY.",
        why="no-var",
    ),
    fires(
        "NET007",
        {"failure": "proxy", "detail": "refuses connections", "proxy_var": "ALL_PROXY", "proxy_socks": True},
        "Codex does not speak SOCKS: it sends plain HTTP to the socks5:// address in $ALL_PROXY (and, for an https:// base_url, nothing at all)",
        "export HTTPS_PROXY=http://127.0.0.1:7890",
        why="socks",
    ),
    silent("NET007", {"failure": "refused", "proxy": True, "proxy_var": "HTTP_PROXY"}),
    fires(
        "NET008",
        {**GW, "failure": "protocol", "detail": "invalid HTTP response"},
        "The answer from gw.example could not be read: invalid HTTP response.",
    ),
    silent("NET008", {**GW, "failure": "tls"}),
    fires(
        "NET009",
        {"ttft_ms": 48200.0, "deadline_s": 5.0, "waited_for_alive": "GET /v1/models answered 200 in 14 ms"},
        "(8,504 tokens as the provider counts it) got its first token after 48.2 s",
        "--timeout of 5 s",
        "(now 120 s)",
    ),
    fires(
        "NET009",
        {"ttft_ms": 30000.0, "reported_input": None, "waited_for_alive": "alive"},
        "Codex's first request (8,501 tokens)",
        why="the-provider-counted-nothing",
    ),
    fires(
        "NET009",
        {"ttft_ms": 30000.0, "reported_input": None, "first_request": None, "waited_for_alive": "alive"},
        "(a minimal request)",
        why="no-first-request",
    ),
    silent("NET009", {"ttft_ms": 48200.0, "waited_for_alive": None}),
    silent("NET009", {"kind": "stream_idle", "ttft_ms": 48200.0, "waited_for_alive": "alive"}),
    # Issue 40 review: alive (its /models answered) but no headers by --first-token-timeout: not NET004's "no answer"
    fires(
        "NET010",
        {
            **SLOW_FIRST_TOKEN,
            "url": "http://127.0.0.1:8787/v1/responses",
            "waited_for_alive": "GET /v1/models answered 200 in 72 ms",
        },
        "POST http://127.0.0.1:8787/v1/responses had sent no first token of its answer to Codex's first request "
        "after 3,696 ms, when --first-token-timeout (4 s, counted from codexdoctor's start) ended the wait",
        "(GET /v1/models answered 200 in 72 ms), so it was reached and is alive",
        "codexdoctor check --first-token-timeout 300",
        "read the log of the program on port 8787 (`lsof -i :8787`)",
    ),
    fires(
        "NET010",
        {**SLOW_FIRST_TOKEN, "url": GW["url"], "waited_for_alive": "alive", "first_token_timeout_s": 200.0},
        "--first-token-timeout 400",
        "ask the provider or gateway operator",
        why="another-host",
    ),
    silent("NET010", {**SLOW_FIRST_TOKEN, "waited_for_alive": None}),  # nothing else answered either: NET004
    fires(
        "NET010",
        {**SLOW_FIRST_TOKEN, "kind": "deadline", "waited_for_alive": "it accepted the request", "status": 200},
        "(it accepted the request)",
        why="headers-then-only-keep-alives",
    ),
    silent("NET010", {**SLOW_FIRST_TOKEN, "waited_for_alive": "alive", "ttft_ms": 900.0}),  # a token came, then a stall
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_net(case):
    check(case)
