"""Compare the proxy codexdoctor decides Codex uses with the proxy the real Codex CLI uses, for every spelling of every
proxy variable Codex 0.171 reads (issue 38, item 2).

Usage (inside a network namespace with only loopback, since Codex also tries outside hosts):
    ../shared/tools/in-netns python scripts/crosscheck_proxies.py [CODEX_BINARY]
Four small proxies listen on 127.0.0.1 and log every connection: `http` (an HTTP forward proxy: absolute-form
requests and CONNECT), `socks` (SOCKS5 only: anything else is logged and the connection closed, as Dante or ssh -D
do), `mixed` (SOCKS5 and HTTP on one port, as Clash's and V2Ray's mixed port), `dead` (a port nobody listens on).
Each case sets proxy variables (`{http}`, `{socks}`, `{mixed}`, `{dead}` stand for host:port) and runs
`codexdoctor check` (as Codex 0.171.0) and then `codex exec "say hi"` with the same files and variables, each against
the project's simulator. Printed per case: which proxy Codex's requests to the simulator went through (from the
proxies' logs, or `direct` from the simulator's) and whether Codex answered; which proxy codexdoctor decided
(net.proxy.decide), which one its own requests went through, its verdict and codes. A case agrees when both went the
same way and both say the setup works, or both say it does not. Results are recorded in docs/codex-behaviour.md
("Proxies"). CROSSCHECK_ONLY=part-of-a-name runs the matching cases only.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crosscheck_config_semantics import CODEX, KEY, TABLE, last_line
from crosscheck_streams import environment

from codexdoctor import sim
from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.net.proxy import decide

# Codex retries a dead proxy for ever ("Reconnecting... waiting for network"): a run that has not ended by then failed.
CODEX_TIMEOUT = 25.0


@dataclass
class Hit:
    """One connection a proxy accepted: what the client spoke and where it wanted to go."""

    proxy: str
    spoke: str  # "http" (absolute-form request), "connect", "socks5", or "refused <first bytes>" (a SOCKS-only port)
    target: str  # host:port, or "" when the proxy could not tell
    auth: bool = False  # a Proxy-Authorization header came with it


class Proxy(socketserver.ThreadingTCPServer):
    """A loopback proxy of one kind that logs each connection (Hit) and relays it when it can."""

    daemon_threads = True
    allow_reuse_address = True
    block_on_close = False

    def __init__(self, name: str, kind: str, hits: list[Hit]) -> None:
        self.name, self.kind, self.hits = name, kind, hits
        super().__init__(("127.0.0.1", 0), ProxyHandler)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.server_address[1]}"


class ProxyHandler(socketserver.BaseRequestHandler):
    server: Proxy

    def handle(self) -> None:
        conn = self.request
        conn.settimeout(20)
        try:
            first = conn.recv(1, socket.MSG_PEEK)
        except OSError:
            return
        if not first:
            return
        if first == b"\x05" and self.server.kind in ("socks", "mixed"):
            self.socks5(conn)
        elif self.server.kind in ("http", "mixed"):
            self.http(conn)
        else:
            data = conn.recv(16)
            self.server.hits.append(Hit(self.server.name, f"refused {data[:8]!r}", ""))
            conn.close()

    def http(self, conn: socket.socket) -> None:
        head = b""
        while b"\r\n\r\n" not in head and len(head) < 65536:
            chunk = conn.recv(4096)
            if not chunk:
                return
            head += chunk
        line = head.split(b"\r\n", 1)[0].decode("latin-1")
        auth = b"\r\nproxy-authorization:" in head.lower()
        method, target = (line.split(" ") + ["", ""])[:2]
        if method == "CONNECT":
            self.server.hits.append(Hit(self.server.name, "connect", target, auth))
            upstream = dial(target)
            if upstream is None:
                conn.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
                return
            conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            relay(conn, upstream, head.split(b"\r\n\r\n", 1)[1])
            return
        parts = urlsplit(target)
        where = f"{parts.hostname}:{parts.port or 80}" if parts.hostname else ""
        self.server.hits.append(Hit(self.server.name, "http", where, auth))
        upstream = dial(where) if where else None
        if upstream is None:
            conn.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        relay(conn, upstream, head)  # the simulator serves absolute-form requests itself

    def socks5(self, conn: socket.socket) -> None:
        greeting = conn.recv(2)
        conn.recv(greeting[1] if len(greeting) == 2 else 0)
        conn.sendall(b"\x05\x00")
        req = conn.recv(4)
        if len(req) < 4:
            return
        if req[3] == 1:
            host = socket.inet_ntoa(conn.recv(4))
        elif req[3] == 3:
            host = conn.recv(conn.recv(1)[0]).decode()
        else:
            host = socket.inet_ntop(socket.AF_INET6, conn.recv(16))
        port = int.from_bytes(conn.recv(2), "big")
        self.server.hits.append(Hit(self.server.name, "socks5", f"{host}:{port}"))
        upstream = dial(f"{host}:{port}")
        conn.sendall(b"\x05\x00\x00\x01\x00\x00\x00\x00\x00\x00" if upstream else b"\x05\x05\x00\x01" + bytes(6))
        if upstream is not None:
            relay(conn, upstream, b"")


def dial(target: str) -> socket.socket | None:
    host, _, port = target.rpartition(":")
    host = host.strip("[]")
    if host == "localhost" or host.endswith(".localhost"):
        host = "127.0.0.1"
    try:
        return socket.create_connection((host, int(port)), timeout=5)
    except (OSError, ValueError):
        return None


def relay(client: socket.socket, upstream: socket.socket, pending: bytes) -> None:
    """Bytes both ways until either side closes."""
    if pending:
        upstream.sendall(pending)

    def pump(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    upstream.settimeout(None)
    client.settimeout(None)
    back = threading.Thread(target=pump, args=(upstream, client), daemon=True)
    back.start()
    pump(client, upstream)
    back.join(timeout=30)
    upstream.close()


def run_codex(home: Path, env: dict[str, str], timeout: float) -> tuple[int | str, str]:
    """`codex exec "say hi"` in its own process group, all of which is killed at the timeout: the npm launcher's
    native child would otherwise go on retrying through the next case's proxies."""
    proc = subprocess.Popen(
        [CODEX, "exec", "--skip-git-repo-check", "say hi"],
        env=env,
        cwd=home,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return "timeout", out


def dead_port() -> str:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"127.0.0.1:{port}"


@dataclass
class Case:
    name: str
    env: dict[str, str]  # {http} {socks} {mixed} {dead}: a proxy's host:port; {sim}: the simulator's host:port
    host: str = "127.0.0.1"  # base_url's host: 127.0.0.1, localhost or ::1
    tls: bool = False  # an https:// base_url (the simulator with a CA:FALSE certificate SSL_CERT_FILE names)


CASES = [
    Case("HTTP_PROXY", {"HTTP_PROXY": "http://{http}"}),
    Case("http_proxy", {"http_proxy": "http://{http}"}),
    Case("HTTP_PROXY wins over http_proxy", {"HTTP_PROXY": "http://{http}", "http_proxy": "http://{dead}"}),
    Case("HTTP_PROXY empty hides http_proxy", {"HTTP_PROXY": "", "http_proxy": "http://{dead}"}),
    Case("HTTP_PROXY without a scheme", {"HTTP_PROXY": "{http}"}),
    Case("HTTP_PROXY with user:pass", {"HTTP_PROXY": "http://user:secret@{http}"}),
    Case("HTTP_PROXY with a leading space", {"HTTP_PROXY": " http://{dead}", "ALL_PROXY": "http://{http}"}),
    Case("HTTPS_PROXY (http base_url)", {"HTTPS_PROXY": "http://{dead}"}),
    Case("https_proxy (http base_url)", {"https_proxy": "http://{dead}"}),
    Case("ALL_PROXY", {"ALL_PROXY": "http://{http}"}),
    Case("all_proxy", {"all_proxy": "http://{http}"}),
    Case("ALL_PROXY wins over all_proxy", {"ALL_PROXY": "http://{http}", "all_proxy": "http://{dead}"}),
    Case("HTTP_PROXY wins over ALL_PROXY", {"HTTP_PROXY": "http://{http}", "ALL_PROXY": "http://{dead}"}),
    Case("dead HTTP_PROXY", {"HTTP_PROXY": "http://{dead}"}),
    Case("dead all_proxy", {"all_proxy": "http://{dead}"}),
    Case("all_proxy socks5:// SOCKS-only", {"all_proxy": "socks5://{socks}"}),
    Case("all_proxy socks5h:// SOCKS-only", {"all_proxy": "socks5h://{socks}"}),
    Case("ALL_PROXY socks5:// SOCKS-only", {"ALL_PROXY": "socks5://{socks}"}),
    Case("all_proxy socks5:// mixed port", {"all_proxy": "socks5://{mixed}"}),
    Case("all_proxy socks5h:// mixed port", {"all_proxy": "socks5h://{mixed}"}),
    Case("ALL_PROXY socks5h://u:p@ mixed port", {"ALL_PROXY": "socks5h://user:secret@{mixed}"}),
    Case("HTTP_PROXY socks5:// SOCKS-only", {"HTTP_PROXY": "socks5://{socks}"}),
    Case("all_proxy socks5:// dead", {"all_proxy": "socks5://{dead}"}),
    Case("NO_PROXY=127.0.0.1", {"HTTP_PROXY": "http://{dead}", "NO_PROXY": "127.0.0.1"}),
    Case("no_proxy=127.0.0.1", {"HTTP_PROXY": "http://{dead}", "no_proxy": "127.0.0.1"}),
    Case("NO_PROXY empty hides no_proxy", {"HTTP_PROXY": "http://{http}", "NO_PROXY": "", "no_proxy": "127.0.0.1"}),
    Case("NO_PROXY=localhost, host 127.0.0.1", {"HTTP_PROXY": "http://{http}", "NO_PROXY": "localhost"}),
    Case("NO_PROXY=localhost, host localhost", {"HTTP_PROXY": "http://{dead}", "NO_PROXY": "localhost"}, "localhost"),
    Case("NO_PROXY=.localhost (suffix)", {"HTTP_PROXY": "http://{dead}", "NO_PROXY": ".localhost"}, "localhost"),
    Case("NO_PROXY=calhost (not at a dot)", {"HTTP_PROXY": "http://{http}", "NO_PROXY": "calhost"}, "localhost"),
    Case("NO_PROXY=* host 127.0.0.1", {"HTTP_PROXY": "http://{http}", "NO_PROXY": "*"}),
    Case("NO_PROXY=* host localhost", {"HTTP_PROXY": "http://{dead}", "NO_PROXY": "*"}, "localhost"),
    Case("NO_PROXY=127.0.0.0/8 (CIDR)", {"HTTP_PROXY": "http://{dead}", "NO_PROXY": "127.0.0.0/8"}),
    Case("no_proxy=10.0.0.0/8 (CIDR, other)", {"HTTP_PROXY": "http://{http}", "no_proxy": "10.0.0.0/8"}),
    Case("NO_PROXY=127.0.0.0/255.0.0.0 (netmask)", {"HTTP_PROXY": "http://{http}", "NO_PROXY": "127.0.0.0/255.0.0.0"}),
    Case("NO_PROXY=..localhost (two dots)", {"HTTP_PROXY": "http://{http}", "NO_PROXY": "..localhost"}, "localhost"),
    Case("NO_PROXY=::1, host 127.0.0.1", {"HTTP_PROXY": "http://{http}", "NO_PROXY": "::1"}),
    Case("NO_PROXY=::1,127.0.0.1", {"HTTP_PROXY": "http://{dead}", "NO_PROXY": "::1,127.0.0.1"}),
    Case("NO_PROXY=::1, host [::1]", {"HTTP_PROXY": "http://{dead}", "NO_PROXY": "::1"}, "::1"),
    Case("NO_PROXY=[::1], host [::1]", {"HTTP_PROXY": "http://{http}", "NO_PROXY": "[::1]"}, "::1"),
    Case("NO_PROXY=127.0.0.1:port", {"HTTP_PROXY": "http://{http}", "NO_PROXY": "{sim}"}),
    Case("NO_PROXY=localhost:port, host localhost", {"HTTP_PROXY": "http://{http}", "NO_PROXY": "{sim}"}, "localhost"),
    Case("REQUEST_METHOD set (CGI)", {"HTTP_PROXY": "http://{dead}", "REQUEST_METHOD": "GET"}),
    # An https:// base_url: the proxy is sent CONNECT.
    Case("https: HTTPS_PROXY", {"HTTPS_PROXY": "http://{http}"}, tls=True),
    Case("https: https_proxy", {"https_proxy": "http://{http}"}, tls=True),
    Case("https: dead HTTP_PROXY (not for https)", {"HTTP_PROXY": "http://{dead}"}, tls=True),
    Case("https: ALL_PROXY", {"ALL_PROXY": "http://{http}"}, tls=True),
    Case(
        "https: HTTPS_PROXY wins over ALL_PROXY",
        {"HTTPS_PROXY": "http://{http}", "ALL_PROXY": "http://{dead}"},
        tls=True,
    ),
    Case("https: all_proxy socks5:// SOCKS-only", {"all_proxy": "socks5://{socks}"}, tls=True),
    Case("https: all_proxy socks5h:// mixed port", {"all_proxy": "socks5h://{mixed}"}, tls=True),
    Case(
        "https: NO_PROXY=localhost, host localhost",
        {"HTTPS_PROXY": "http://{dead}", "NO_PROXY": "localhost"},
        "localhost",
        tls=True,
    ),
]
FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
TLS_LEAF = {"tls_certfile": str(FIXTURES / "selfsigned-leaf.pem"), "tls_keyfile": str(FIXTURES / "selfsigned-leaf.key")}


@contextmanager
def simulator(host: str, tls: bool) -> Iterator[tuple[Any, str]]:
    """The simulator on 127.0.0.1 (or ::1), and the base_url a config names it by (host as the case writes it)."""
    family = ThreadingHTTPServer.address_family
    if host == "::1":
        ThreadingHTTPServer.address_family = socket.AF_INET6
    try:
        server = sim.start(api_key=KEY, host="::1" if host == "::1" else "127.0.0.1", **(TLS_LEAF if tls else {}))
    finally:
        ThreadingHTTPServer.address_family = family
    port = server.server.server_address[1]
    shown = "[::1]" if host == "::1" else host
    try:
        yield server, f"{shown}:{port}"
    finally:
        server.stop()


def via(hits: list[Hit], sim_port: str, records: list[Any]) -> str:
    """Which way the requests went: the proxy that logged one (its kind, and what the client spoke), else `direct`
    when the simulator saw a POST, else `-`."""
    port = sim_port.rsplit(":", 1)[1]
    mine = [h for h in hits if h.target.endswith(":" + port) or (h.proxy == "socks" and h.spoke.startswith("refused"))]
    if mine:
        h = mine[0]
        return f"{h.proxy}({h.spoke.split(' ')[0]}{',auth' if h.auth else ''})"
    if any(r.method == "POST" and not r.via_proxy for r in records):
        return "direct"
    return "-"


@dataclass
class Row:
    case: str
    codex_via: str
    codex_ok: bool
    codex_code: int | str
    codex_line: str
    decided: str
    cd_via: str
    verdict: str
    codes: str
    findings: list[str] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        """The same way, the same outcome; and when Codex fails through a proxy, codexdoctor blames the proxy
        (NET007), not the provider."""
        blames_proxy = self.codex_ok or self.codex_via == "direct" or "NET007" in self.codes.split(",")
        return self.codex_via == self.cd_via and self.codex_ok == (self.verdict == "ok") and blames_proxy


def run_case(case: Case, proxies: dict[str, str], hits: list[Hit]) -> Row:
    with simulator(case.host, case.tls) as (server, sim_addr):
        home = Path(tempfile.mkdtemp(prefix="cdx-proxies-"))
        try:
            base = f"{'https' if case.tls else 'http'}://{sim_addr}/v1"
            (home / "config.toml").write_text(TABLE.replace("{base}", base), encoding="utf-8")
            values = {**proxies, "sim": sim_addr}
            extra = {k: v.format(**values) for k, v in case.env.items()}
            env = environment(home, extra)
            if case.tls:
                env["SSL_CERT_FILE"] = TLS_LEAF["tls_certfile"]
            decision = decide(base + "/responses", env)
            decided = "direct"
            if decision.proxy is not None:
                name = next((n for n, a in proxies.items() if a in decision.proxy.url), decision.proxy.url)
                socks = " (socks: nothing sent)" if case.tls else " (socks as http)"
                decided = f"{name} via {decision.proxy.variable}" + (socks if decision.proxy.socks else "")
            elif decision.bypassed_by:
                decided = f"direct ({decision.no_proxy_variable}={decision.bypassed_by})"
            hits.clear()
            options = CheckOptions(env=env, home=home.parent, cwd=home, system_config=None, codex_version=(0, 171, 0))
            report, _ = run_check(options)
            cd_via = via(hits, sim_addr, server.records)
            hits.clear()
            server.records.clear()
            code, out = run_codex(home, env, CODEX_TIMEOUT)
            codex_via = via(hits, sim_addr, server.records)
            codes = ",".join(f.code for f in report.findings if f.severity.value != "info") or "-"
            return Row(
                case.name,
                codex_via,
                code == 0,
                code,
                last_line(out),
                decided,
                cd_via,
                report.verdict.value,
                codes,
                [f"{f.code}: {f.title} | {' '.join(f.remedy)}" for f in report.findings if f.severity.value != "info"],
            )
        finally:
            shutil.rmtree(home, ignore_errors=True)


def main() -> int:
    hits: list[Hit] = []
    servers = {name: Proxy(name, name, hits) for name in ("http", "socks", "mixed")}
    for s in servers.values():
        threading.Thread(target=s.serve_forever, daemon=True).start()
    proxies = {name: s.address for name, s in servers.items()}
    proxies["dead"] = dead_port()
    only = os.environ.get("CROSSCHECK_ONLY")
    verbose = bool(os.environ.get("CROSSCHECK_VERBOSE"))
    print(f"{'case':40} {'codex via':14} {'codex':8} | {'codexdoctor decided':30} {'its via':14} verdict, codes")
    disagree = 0
    for case in CASES:
        if only and only not in case.name:
            continue
        row = run_case(case, proxies, hits)
        disagree += not row.agree
        codex = f"{'ok' if row.codex_ok else 'fails'}"
        print(
            f"{row.case:40} {row.codex_via:14} {codex:8} | {row.decided:30} {row.cd_via:14} {row.verdict} {row.codes}"
            + ("" if row.agree else "   <-- DISAGREE")
        )
        if verbose or not row.agree:
            print(f"      codex {row.codex_code}: {row.codex_line}")
            for f in row.findings:
                print(f"      {f[:230]}")
    print(f"{disagree} disagreement(s)")
    for s in servers.values():
        s.shutdown()
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
