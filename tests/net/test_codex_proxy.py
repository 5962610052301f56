"""Which proxy Codex 0.171 uses, by its own rules (hyper-util's Matcher::from_system), and hosts as it normalises
them. Every row was seen with the real client (scripts/crosscheck_proxies.py; docs/codex-behaviour.md)."""

from __future__ import annotations

import pytest

from codexdoctor.common.hosts import is_loopback, normalize_host
from codexdoctor.net.proxy import decide

URL = "http://127.0.0.1:18090/v1/responses"
P1, P2 = "http://127.0.0.1:18081", "http://127.0.0.1:18082"

# (environment, URL, the proxy Codex sent the request to (None: direct))
OBSERVED = [
    ({"HTTP_PROXY": P1, "http_proxy": P2}, URL, P1),  # upper case wins
    ({"http_proxy": P2}, URL, P2),
    ({"HTTP_PROXY": "", "http_proxy": P2}, URL, None),  # an empty upper-case variable hides the lower-case one
    ({"ALL_PROXY": P1, "all_proxy": P2}, URL, P1),
    ({"HTTP_PROXY": P1, "ALL_PROXY": P2}, URL, P1),  # the scheme's own variable beats ALL_PROXY
    ({"HTTPS_PROXY": P1}, URL, None),  # only for https:// URLs
    ({"HTTPS_PROXY": P1}, "https://api.example.test/v1/responses", P1),
    ({"ALL_PROXY": P1}, "https://api.example.test/v1/responses", P1),
    ({"REQUEST_METHOD": "GET", "HTTP_PROXY": P1}, URL, None),  # CGI: no environment proxy at all
    ({"REQUEST_METHOD": "GET", "ALL_PROXY": P1}, URL, None),
    ({"HTTP_PROXY": "127.0.0.1:18081"}, URL, P1),  # no scheme: http
    ({"HTTP_PROXY": "ftp://127.0.0.1:18081"}, URL, None),  # another scheme: ignored
    ({"all_proxy": "socks5://127.0.0.1:18081"}, URL, P1),  # no SOCKS in Codex: used as an HTTP proxy
    ({"ALL_PROXY": "socks4://127.0.0.1:18081"}, URL, P1),
    ({"ALL_PROXY": "socks5h://u:p@127.0.0.1:18081"}, URL, P1),  # and its credentials dropped
    ({"HTTP_PROXY": P1, "NO_PROXY": "127.0.0.1"}, URL, None),
    ({"HTTP_PROXY": P1, "NO_PROXY": "127.0.0.0/8"}, URL, None),  # CIDR counts
    ({"HTTP_PROXY": P1, "NO_PROXY": "127.0.0.1:18090"}, URL, P1),  # an entry with a port never matches
    ({"HTTP_PROXY": P1, "NO_PROXY": "*"}, URL, P1),  # `*` does not cover an IP literal
    ({"HTTP_PROXY": P1, "NO_PROXY": "*"}, "http://localhost:18090/v1", None),
    ({"HTTP_PROXY": P1, "NO_PROXY": "localhost"}, URL, P1),  # localhost is not 127.0.0.1
    ({"HTTP_PROXY": P1, "NO_PROXY": "LOCALHOST"}, "http://localhost:18090/v1", None),
    ({"HTTP_PROXY": P1, "NO_PROXY": ".localhost"}, "http://localhost:18090/v1", None),
    ({"HTTP_PROXY": P1, "NO_PROXY": "calhost"}, "http://localhost:18090/v1", P1),  # only at a dot
    ({"HTTP_PROXY": P1, "NO_PROXY": "foo.example , 127.0.0.1 "}, URL, None),  # trimmed
    ({"HTTP_PROXY": P1, "NO_PROXY": "foo.example", "no_proxy": "127.0.0.1"}, URL, P1),  # upper case wins
    ({"HTTP_PROXY": P1, "no_proxy": "127.0.0.1"}, URL, None),
    ({"HTTP_PROXY": P1, "NO_PROXY": "", "no_proxy": "127.0.0.1"}, URL, P1),  # empty hides lower case
    ({"HTTP_PROXY": P1, "NO_PROXY": "::1"}, "http://[::1]:18090/v1", None),
    ({"HTTP_PROXY": P1, "NO_PROXY": "::1/128"}, "http://[::1]:18090/v1", None),
    ({"HTTP_PROXY": P1, "NO_PROXY": "[::1]"}, "http://[::1]:18090/v1", P1),  # brackets never match
    ({"HTTP_PROXY": P1, "NO_PROXY": "::1"}, URL, P1),
    ({"HTTP_PROXY": P1, "NO_PROXY": "example.test"}, "http://api.example.test/v1", None),
    ({"HTTP_PROXY": P1, "NO_PROXY": "ample.test"}, "http://api.example.test/v1", P1),
    ({"HTTP_PROXY": P1, "NO_PROXY": "127.0.0.1"}, "http://127。0。0。1:18090/v1", None),  # the normalised host
    ({"HTTP_PROXY": " " + P2, "ALL_PROXY": P1}, URL, P1),  # a space: http::Uri refuses it, ALL_PROXY instead
    ({"HTTP_PROXY": P2 + " "}, URL, None),
    ({"HTTP_PROXY": P1, "NO_PROXY": "127.0.0.0/255.0.0.0"}, URL, P1),  # a netmask is no network to Rust's IpNet
    ({"HTTP_PROXY": P1, "NO_PROXY": "..localhost"}, "http://localhost:18090/v1", P1),  # one leading dot only
]


@pytest.mark.parametrize("env, url, via", OBSERVED)
def test_codex_proxy_rules(env, url, via):
    decision = decide(url, env)
    assert (decision.proxy.url if decision.proxy else None) == via


def test_proxy_credentials_become_basic_auth_only_for_http_proxies():
    d = decide(URL, {"HTTP_PROXY": "http://user:pa%40ss@127.0.0.1:18081"})
    assert d.proxy is not None and d.proxy.url == "http://user:pa%40ss@127.0.0.1:18081" and not d.proxy.socks
    s = decide(URL, {"ALL_PROXY": "socks5://u:p@127.0.0.1:1080"})
    assert s.proxy is not None and s.proxy.socks and "@" not in s.proxy.url


def test_the_decision_names_what_it_ignored():
    d = decide(URL, {"HTTPS_PROXY": P1, "HTTP_PROXY": P2, "http_proxy": P1})
    assert d.proxy is not None and d.proxy.variable == "HTTP_PROXY"
    assert any(i.startswith("HTTPS_PROXY") for i in d.ignored) and any(i.startswith("http_proxy") for i in d.ignored)
    assert decide(URL, {"HTTP_PROXY": P1, "NO_PROXY": "127.0.0.0/8"}).bypassed_by == "127.0.0.0/8"


@pytest.mark.parametrize(
    "value",
    ["", " ", "::1", "[::1]", "http://[::1", "http://h:99999", "socks5://", "http://:80", "\x00", "%zz", "a,b", "*"],
)
def test_no_value_can_crash_the_decision(value):
    for name in ("HTTP_PROXY", "ALL_PROXY", "NO_PROXY", "no_proxy"):
        decide(URL, {"HTTP_PROXY": P1, name: value})
        decide("http://[::1]:1/v1", {"HTTP_PROXY": P1, name: value})


@pytest.mark.parametrize(
    "host, normal",
    [
        ("127。0。0。1", "127.0.0.1"),
        ("127．0．0．1", "127.0.0.1"),
        ("127｡0｡0｡1", "127.0.0.1"),
        ("LOCALHOST", "localhost"),
        ("ｌｏｃａｌｈｏｓｔ", "localhost"),
        ("127.0.0.1.", "127.0.0.1"),
        ("0x7f.1", "127.0.0.1"),
        ("2130706433", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("localhost.", "localhost."),  # a name keeps its trailing dot
        ("[::1]", "::1"),
        ("gw.example", "gw.example"),
    ],
)
def test_hosts_as_codex_normalises_them(host, normal):
    assert normalize_host(host) == normal


def test_loopback_in_any_spelling():
    assert all(is_loopback(h) for h in ("127。0。0。1", "0x7f.1", "LOCALHOST", "::1", "[::1]", "127.5.6.7"))
    assert not any(is_loopback(h) for h in ("gw.example", "10.0.0.1", "localhost.example"))


def test_a_value_codex_cannot_read_is_named_with_why():
    d = decide(URL, {"HTTP_PROXY": " " + P2, "ALL_PROXY": P1})
    assert d.proxy is not None and d.proxy.variable == "ALL_PROXY"
    assert "HTTP_PROXY (a space around the value: Codex cannot read it)" in d.ignored
