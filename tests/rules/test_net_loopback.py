"""Issue 40 (review): NET004 advised a firewall or VPN for a server on this machine, and NET002 did not name the
port nothing listens on. On loopback, both name the port and say what to do there; another host keeps the advice."""

from __future__ import annotations

import pytest

from codexdoctor.rules import RULES_BY_CODE
from tests.rules.cases import check, fires, run, text

LOCAL = {"url": "http://127.0.0.1:8080/v1/responses", "base_url": "http://127.0.0.1:8080/v1"}
REMOTE = {"host": "gw.example", "url": "https://gw.example/v1/responses", "base_url": "https://gw.example/v1"}

CASES = [
    fires("NET004", {**LOCAL, "failure": "timeout", "detail": "x"}, "program on port 8080 did not answer", why="lo"),
    fires(
        "NET004",
        {**LOCAL, "url": "http://localhost/v1/responses", "failure": "timeout", "detail": "x"},
        "lsof -i :80",
        why="localhost-default-port",
    ),
    fires("NET004", {**REMOTE, "failure": "timeout", "detail": "x"}, "(firewall, VPN, proxy)", why="remote"),
    fires("NET002", {**LOCAL, "failure": "refused", "detail": "x"}, "Nothing listens on port 8080", why="lo"),
    fires("NET002", {**REMOTE, "failure": "refused", "detail": "x"}, "Check the host and port", why="remote"),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_loopback_and_remote_hosts(case):
    check(case)


@pytest.mark.parametrize("case", CASES[:2] + CASES[3:4], ids=str)
def test_no_firewall_advice_for_this_machine(case):
    for lang in ("en", "zh"):
        said = "\n".join(text(f) for f in run(case, lang))
        assert "firewall, VPN, proxy" not in said and "防火墙、VPN、代理）" not in said, said
    assert ("本机" in "\n".join(text(f) for f in run(case, "zh"))) and RULES_BY_CODE[case.code]
