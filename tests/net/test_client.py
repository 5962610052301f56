"""net/client.py: the client sends each request through the proxy Codex 0.171 would use for its URL, by Codex's
rules (net/proxy.py), with httpx's own environment handling off; no proxy or NO_PROXY value can crash a run. The
simulator stands behind a tiny loopback forward proxy."""

from __future__ import annotations

import http.client
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.model import Verdict
from codexdoctor.net.client import make_client, proxy_for, proxy_variable, shown_proxy
from codexdoctor.net.deadline import Deadline
from codexdoctor.net.send import send
from tests.conftest import write_config

KEY = "sk-sim-0123456789abcdef"
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "proxy-authorization", "proxy-connection"}


class ForwardProxy:
    """A plain HTTP forward proxy on loopback: absolute-form requests in, forwarded to their origin, the answer back
    whole. `seen` lists the URLs it forwarded."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def _forward(self) -> None:
                target = urlsplit(self.path)
                proxy.seen.append(self.path)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=10)
                upstream.request(
                    self.command, target.path + (f"?{target.query}" if target.query else ""), body, headers
                )
                answer = upstream.getresponse()
                data = answer.read()
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in HOP_BY_HOP | {"content-length"}:
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                upstream.close()

            do_GET = do_POST = do_HEAD = _forward

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()  # shutdown() waits a poll

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def forward_proxy():
    proxy = ForwardProxy()
    yield proxy
    proxy.close()


def free_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


def get(env: dict[str, str], url: str):
    with make_client(env, tls=False) as client:
        return send(client, "GET", url, headers={}, deadline=Deadline(5), redact=lambda s: s)


@pytest.mark.simulator
@pytest.mark.parametrize("scheme", ["http", "socks5", "socks5h"])
@pytest.mark.parametrize("variable", ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"])
def test_the_request_goes_through_the_proxy_codex_would_use(sim_server, forward_proxy, scheme, variable):
    """A socks5:// or socks5h:// proxy is spoken to as an HTTP proxy, as Codex does: a mixed port (Clash's) works."""
    s = sim_server(api_key=None)
    ex = get({variable: f"{scheme}://127.0.0.1:{forward_proxy.port}"}, s.base_url + "/models")
    assert ex.status == 200 and forward_proxy.seen == [s.base_url + "/models"]
    assert (ex.proxy_variable, ex.proxy_url, ex.proxy_socks_as_http) == (
        variable,
        f"{scheme}://127.0.0.1:{forward_proxy.port}",
        scheme != "http",
    )


@pytest.mark.simulator
def test_httpx_reads_no_proxy_from_the_process_environment(sim_server, forward_proxy, monkeypatch):
    s = sim_server(api_key=None)
    monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{forward_proxy.port}")
    monkeypatch.setenv("ALL_PROXY", f"socks5://127.0.0.1:{forward_proxy.port}")
    ex = get({}, s.base_url + "/models")
    assert ex.status == 200 and forward_proxy.seen == [] and ex.proxy_variable is None


@pytest.mark.simulator
@pytest.mark.parametrize("no_proxy", ["127.0.0.1", "127.0.0.0/8", " 10.0.0.0/8 , 127.0.0.1/32", "::1,127.0.0.1"])
def test_no_proxy_by_ip_or_cidr_goes_direct(sim_server, no_proxy):
    s = sim_server(api_key=None)
    ex = get({"HTTP_PROXY": f"http://127.0.0.1:{free_port()}", "NO_PROXY": no_proxy}, s.base_url + "/models")
    assert ex.status == 200 and ex.proxy_variable is None


@pytest.mark.parametrize(
    "no_proxy",
    ["::1", "[::1]", "::1/128", "[::1]:8080", "localhost", "*", "localhost:8080", ",,", "999.1.1.1/99", "%zz", "a b"],
)
def test_no_no_proxy_value_can_crash_a_request(no_proxy):
    """`::1` once crashed httpx's mount table (InvalidURL: Invalid port: ':1'); now none of these reaches httpx."""
    ex = get(
        {"HTTP_PROXY": f"http://127.0.0.1:{free_port()}", "NO_PROXY": no_proxy}, f"http://127.0.0.1:{free_port()}/v1"
    )
    assert ex.status is None and ex.failure in (
        "refused",
        "proxy",
    )  # through the dead proxy, or straight to the dead port


@pytest.mark.parametrize(
    "value",
    [
        "socks4://127.0.0.1:1",
        "ftp://127.0.0.1:1",
        "http://[::1",
        "http://127.0.0.1:99999",
        "",
        "   ",
        "http://h\x00st:1",
        "127.0.0.1:1",
        "socks5h://user:pw@127.0.0.1:1",
        "http://user:p%zz@127.0.0.1:1",
    ],
)
@pytest.mark.parametrize("variable", ["HTTP_PROXY", "ALL_PROXY"])
def test_no_proxy_value_can_crash_a_request(variable, value):
    ex = get({variable: value}, f"http://127.0.0.1:{free_port()}/v1")
    assert ex.status is None and ex.failure is not None


def test_what_the_exchange_says_about_a_proxy_holds_no_credentials():
    assert shown_proxy("http://alice:s3cret@10.0.0.1:3128") == "http://***@10.0.0.1:3128"
    assert shown_proxy("alice:s3cret@10.0.0.1:3128") == "***@10.0.0.1:3128"
    ex = get({"HTTP_PROXY": f"http://alice:s3cret@127.0.0.1:{free_port()}"}, f"http://127.0.0.1:{free_port()}/v1")
    assert ex.proxy_variable == "HTTP_PROXY" and "s3cret" not in (ex.proxy_url or "") and "s3cret" not in str(ex.line())


def test_the_reported_proxy_follows_codexs_rules():
    url = "http://127.0.0.1:8080/v1"
    assert (
        proxy_variable(url, {"HTTP_PROXY": "", "http_proxy": "http://p:1"}) is None
    )  # the upper-case one, empty, wins
    assert (
        proxy_variable(url, {"HTTP_PROXY": "", "http_proxy": "http://p:1", "ALL_PROXY": "socks5h://p:2"}) == "ALL_PROXY"
    )
    assert proxy_for(url, {"ALL_PROXY": "socks5h://p:2", "NO_PROXY": "127.0.0.0/8"}) is None
    assert proxy_for(url, {"ALL_PROXY": "socks5h://p:2", "NO_PROXY": "*"}) == "socks5h://p:2"  # `*` covers no IP
    assert proxy_for(url, {"HTTPS_PROXY": "http://p:1"}) is None
    assert proxy_for(url, {"HTTP_PROXY": "http://p:1", "REQUEST_METHOD": "GET"}) is None


# ---- a whole check behind each kind of proxy port ------------------------------------------------------------------
def check(home: Path, base_url: str, env: dict[str, str]):
    write_config(
        home,
        'model = "sim-model"\nmodel_provider = "sim"\n\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{base_url}"\nenv_key = "SIM_API_KEY"\nwire_api = "responses"\n',
    )
    report, _ = run_check(
        CheckOptions(
            env={"HOME": str(home), "SIM_API_KEY": KEY, **env},
            home=home,
            cwd=Path.cwd(),
            offline=False,
            system_config=None,
            codex_version=(0, 171, 0),
            timeout=5.0,
        )
    )
    return report


@pytest.mark.simulator
def test_a_mixed_port_in_all_proxy_works_as_it_does_for_codex(home, sim_server, forward_proxy):
    s = sim_server(api_key=KEY)
    report = check(home, s.base_url, {"ALL_PROXY": f"socks5h://127.0.0.1:{forward_proxy.port}"})
    assert report.verdict is Verdict.OK, report.findings
    assert forward_proxy.seen and all(url.startswith(s.url + "/") for url in forward_proxy.seen)
    assert not [c for c in report.checks if c.status.value == "crash"]


@pytest.mark.simulator
def test_a_socks_only_or_dead_port_is_a_channel_failure_never_a_crash(home, sim_server):
    """Codex fails at once behind a SOCKS-only port (it speaks HTTP to it) and loops behind a dead one."""

    def socks_only(server: socket.socket) -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.recv(65536)
            conn.sendall(b"\x05\xff")  # SOCKS5: no acceptable authentication method
            conn.close()

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    threading.Thread(target=socks_only, args=(listener,), daemon=True).start()
    s = sim_server(api_key=KEY)
    try:
        for port in (listener.getsockname()[1], free_port()):
            report = check(home, s.base_url, {"all_proxy": f"socks5://127.0.0.1:{port}"})
            assert report.verdict is Verdict.CHANNEL, report.findings
            assert not [c for c in report.checks if c.status.value == "crash"]
            assert s.records == []
    finally:
        listener.close()


@pytest.mark.simulator
def test_an_ipv6_host_keeps_its_brackets_in_a_forward_proxy_request_line():
    """Codex writes `GET http://[::1]:8080/…` to an HTTP proxy; httpcore alone wrote `http://::1:8080/…`, which no
    proxy can parse (scripts/crosscheck_proxies.py, case `NO_PROXY=[::1], host [::1]`)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    seen: list[bytes] = []

    def answer() -> None:
        conn, _ = listener.accept()
        with conn:
            seen.append(conn.recv(200))
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        proxy = f"http://127.0.0.1:{listener.getsockname()[1]}"
        with make_client({"HTTP_PROXY": proxy}, tls=False) as client:
            response = client.get("http://[::1]:8080/v1/models", timeout=5)
        thread.join(timeout=5)
    finally:
        listener.close()
    assert response.status_code == 200 and response.text == "ok"
    assert seen and seen[0].startswith(b"GET http://[::1]:8080/v1/models HTTP/1.1\r\n"), seen


def test_httpcore_is_loaded_when_the_client_is_made_not_on_the_first_requests_clock():
    """httpx imports httpcore when the first transport is made, inside the first send, after that request's read
    timeout was computed: the import ran on the request's clock and a hung provider's requests came back ~0.1 s
    after the deadline (bench_startup's hung provider)."""
    import subprocess
    import sys

    code = (
        "import sys; from codexdoctor.net.client import make_client; assert 'httpcore' not in sys.modules; "
        "make_client({}, tls=False); print('httpcore' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True"
