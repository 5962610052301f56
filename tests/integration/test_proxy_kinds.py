"""The proxies users run, on loopback, judged as Codex 0.171 meets them (issue 38 item 2; scripts/crosscheck_proxies.py
ran the real Codex through the same three kinds): a SOCKS-only port (Codex speaks HTTP to it, the port closes the
connection, Codex loops "Reconnecting…"), a mixed port that also speaks HTTP (Codex works through it), an HTTP proxy."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest

from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.model import Verdict
from tests.conftest import write_config

KEY = "sk-proxy-0123456789abcdef"
pytestmark = pytest.mark.simulator


class SocksOnly:
    """A port that speaks only SOCKS5: anything else (an HTTP request line) is logged and the connection closed."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.seen: list[bytes] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.sock.getsockname()[1]}"

    def serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    self.seen.append(conn.recv(16))
                except OSError:
                    pass

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=2)
        self.sock.close()


@pytest.fixture
def socks_only():
    server = SocksOnly()
    yield server
    server.close()


def check(home, base_url, env):
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    report, _ = run_check(
        CheckOptions(
            env={"HOME": str(home), "SIM_API_KEY": KEY, **env},
            home=home,
            cwd=Path.cwd(),
            system_config=None,
            codex_version=(0, 171, 0),
            timeout=4.0,
        )
    )
    return report


@pytest.mark.parametrize("name,scheme", [("all_proxy", "socks5"), ("ALL_PROXY", "socks5h"), ("HTTP_PROXY", "socks5")])
def test_a_socks_only_port_is_the_proxy_s_fault_with_the_socks_remedy(home, sim_server, socks_only, name, scheme):
    s = sim_server(api_key=KEY)
    report = check(home, s.base_url, {name: f"{scheme}://{socks_only.address}"})
    assert any(b.startswith(b"POST http://") for b in socks_only.seen)  # plain HTTP, as Codex sends it
    codes = {f.code: f for f in report.findings}
    assert report.verdict is Verdict.CHANNEL and "NET007" in codes and "NET005" not in codes, report.findings
    net007 = codes["NET007"]
    assert "closes the connection when spoken to in HTTP" in net007.diagnosis
    assert any("Codex does not speak SOCKS" in step and f"${name}" in step for step in net007.remedy)
    assert not [r for r in s.records if r.method == "POST"]


def test_a_socks_url_on_a_port_that_also_speaks_http_works(home, sim_server):
    s = sim_server(api_key=KEY)  # the simulator serves absolute-form requests: it stands in for a mixed port
    report = check(home, s.base_url, {"all_proxy": f"socks5h://user:pw@{s.url.split('//')[1]}"})
    assert report.verdict is Verdict.OK, report.findings
    posts = [r for r in s.records if r.method == "POST"]
    assert posts and all(r.via_proxy for r in posts)
    assert not any("proxy-authorization" in r.headers for r in posts)  # a SOCKS URL's credentials are dropped


def test_a_reset_through_an_http_proxy_is_not_blamed_on_socks(home, sim_server):
    s = sim_server(api_key=KEY, stream_fault="reset_mid_stream")
    report = check(home, s.base_url, {"HTTP_PROXY": s.url})
    assert "NET007" not in {f.code for f in report.findings}


FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def test_a_socks_url_for_an_https_base_url_connects_nowhere(home, sim_server):
    """Codex 0.171 cannot reach an https:// base_url through a socks5:// proxy at all, even a mixed port: it sends
    no byte and loops "Reconnecting…" (scripts/crosscheck_proxies.py, the `https:` cases)."""
    leaf = str(FIXTURES / "selfsigned-leaf.pem")
    s = sim_server(api_key=KEY, tls_certfile=leaf, tls_keyfile=str(FIXTURES / "selfsigned-leaf.key"))
    report = check(home, s.base_url, {"all_proxy": f"socks5h://{s.url.split('//')[1]}", "SSL_CERT_FILE": leaf})
    assert not s.records  # nothing reached the port, though it would have answered HTTP
    codes = {f.code: f for f in report.findings}
    assert report.verdict is Verdict.CHANNEL and "NET007" in codes, report.findings
    assert "cannot carry an https:// request" in codes["NET007"].diagnosis
    assert any("nothing at all" in step and "$all_proxy" in step for step in codes["NET007"].remedy)


def test_https_through_an_http_proxy_is_tunnelled(home, sim_server):
    leaf = str(FIXTURES / "selfsigned-leaf.pem")
    s = sim_server(api_key=KEY, tls_certfile=leaf, tls_keyfile=str(FIXTURES / "selfsigned-leaf.key"))
    report = check(home, s.base_url, {"HTTP_PROXY": "http://127.0.0.1:9", "SSL_CERT_FILE": leaf})
    assert report.verdict is Verdict.OK, report.findings  # HTTP_PROXY is for http:// URLs only
