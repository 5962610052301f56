"""Compare codexdoctor's verdict with what the real Codex CLI does, for the wire cases of issue 27: slow providers,
stream grammar, rate limits, timeouts as Codex counts them, body limits and the config keys that change the first
request.

Usage (inside a network namespace with only loopback, since Codex also tries outside hosts):
    ../shared/tools/in-netns python scripts/crosscheck_wire.py [CODEX_BINARY]
Each case gets a throw-away CODEX_HOME and the project's simulator with the case's knobs; `codexdoctor check` runs
first (as Codex 0.171.0, default deadline), then `codex exec "say hi"` with the same files. A case agrees when both
say the setup works, or both say it does not. Results are recorded in docs/codex-behaviour.md.
CROSSCHECK_ONLY=part-of-a-name runs the matching cases only.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crosscheck_config_semantics import CODEX, KEY, TABLE, last_line

from codexdoctor import sim
from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions


@dataclass
class Case:
    name: str
    config: str = TABLE
    sim: dict = field(default_factory=dict)
    env: dict = field(default_factory=dict)
    codex_timeout: float = 60.0  # Codex loops on some failures: after this the case's Codex result is "timeout"


FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
TLS_CA_TRUE = {"tls_certfile": str(FIXTURES / "selfsigned.pem"), "tls_keyfile": str(FIXTURES / "selfsigned.key")}
TLS_LEAF = {"tls_certfile": str(FIXTURES / "selfsigned-leaf.pem"), "tls_keyfile": str(FIXTURES / "selfsigned-leaf.key")}
LONG = "Always answer in English. " * 1700  # ~44 KB of instructions, ~8,500 tokens
CASES = [
    Case("healthy"),
    Case("slow headers 15 s", sim={"latency_ms": 15000}),
    Case("slow headers 3 s, idle 1 s", TABLE + "stream_idle_timeout_ms = 1000\n", sim={"latency_ms": 3000}),
    Case(
        "silent 3 s after headers, idle 1 s",
        TABLE + "stream_idle_timeout_ms = 1000\n",
        sim={"stall_after_tokens": 0, "stall_seconds": 3},
    ),
    Case("JSON body to stream: true", sim={"stream_fault": "json_body"}),
    Case("chat chunks on /responses", sim={"stream_fault": "chat_chunks"}),
    Case("429 that never lifts", sim={"rate_limited_posts": 10_000, "retry_after_s": 1}),
    Case("429 once", sim={"rate_limited_posts": 1, "retry_after_s": 1}),
    Case(
        "429 never lifts, no retries",
        TABLE + "request_max_retries = 0\nstream_max_retries = 0\n",
        sim={"rate_limited_posts": 10_000, "retry_after_s": 1},
    ),
    Case(
        "429 never lifts, request_max_retries = 0",
        TABLE + "request_max_retries = 0\n",
        sim={"rate_limited_posts": 10_000, "retry_after_s": 1},
    ),
    Case(
        "429 never lifts, stream_max_retries = 0",
        TABLE + "stream_max_retries = 0\n",
        sim={"rate_limited_posts": 10_000, "retry_after_s": 1},
    ),
    Case("429 never lifts, Retry-After 7", sim={"rate_limited_posts": 10_000, "retry_after_s": 7}),
    Case("413 body limit 20 KB", sim={"max_body_bytes": 20_000}),
    Case("instructions 44 KB, 12K window", f'instructions = """{LONG}"""\n' + TABLE, sim={"context_window": 12000}),
    Case(
        "developer_instructions 44 KB, 12K window",
        f'developer_instructions = """{LONG}"""\n' + TABLE,
        sim={"context_window": 12000},
    ),
    Case("model_context_window below the first request", "model_context_window = 4000\n" + TABLE),
    # TLS: what Codex (rustls) trusts. {fixtures} is tests/fixtures.
    Case(
        "TLS: self-signed CA:TRUE, SSL_CERT_FILE names it",
        sim=TLS_CA_TRUE,
        env={"SSL_CERT_FILE": "{fixtures}/selfsigned.pem"},
        codex_timeout=30,
    ),
    Case(
        "TLS: self-signed CA:FALSE, SSL_CERT_FILE names it",
        sim=TLS_LEAF,
        env={"SSL_CERT_FILE": "{fixtures}/selfsigned-leaf.pem"},
        codex_timeout=30,
    ),
    Case(
        "TLS: CA:FALSE, CODEX_CA_CERTIFICATE names it",
        sim=TLS_LEAF,
        env={"CODEX_CA_CERTIFICATE": "{fixtures}/selfsigned-leaf.pem"},
        codex_timeout=30,
    ),
    Case(
        "TLS: CA:FALSE, NODE_EXTRA_CA_CERTS names it",
        sim=TLS_LEAF,
        env={"NODE_EXTRA_CA_CERTS": "{fixtures}/selfsigned-leaf.pem"},
        codex_timeout=30,
    ),
    Case(
        "TLS: CA:FALSE, REQUESTS_CA_BUNDLE names it",
        sim=TLS_LEAF,
        env={"REQUESTS_CA_BUNDLE": "{fixtures}/selfsigned-leaf.pem"},
        codex_timeout=30,
    ),
    # Proxies: {proxy} is a port where nothing listens, {proxy407} a proxy that answers 407 to everything.
    Case("proxy: dead HTTP_PROXY, http base_url", env={"HTTP_PROXY": "http://127.0.0.1:{dead}"}, codex_timeout=30),
    Case("proxy: dead HTTPS_PROXY, http base_url", env={"HTTPS_PROXY": "http://127.0.0.1:{dead}"}, codex_timeout=30),
    Case("proxy: dead ALL_PROXY, http base_url", env={"ALL_PROXY": "http://127.0.0.1:{dead}"}, codex_timeout=30),
    Case(
        "proxy: dead HTTP_PROXY, NO_PROXY=localhost",
        env={"HTTP_PROXY": "http://127.0.0.1:{dead}", "NO_PROXY": "localhost"},
        codex_timeout=30,
    ),
    Case(
        "proxy: dead HTTP_PROXY, NO_PROXY=127.0.0.1",
        env={"HTTP_PROXY": "http://127.0.0.1:{dead}", "NO_PROXY": "127.0.0.1"},
        codex_timeout=30,
    ),
    Case("proxy: 407 HTTP_PROXY", env={"HTTP_PROXY": "http://127.0.0.1:{p407}"}, codex_timeout=30),
]


def _free_port() -> int:
    import socket

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return port


def _proxy_407():
    """A proxy that wants credentials: 407 to every request (plain http) and every CONNECT."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        def _refuse(self) -> None:
            body = b"<html><body><h1>407 Proxy Authentication Required</h1></body></html>"
            self.send_response(407)
            self.send_header("Proxy-Authenticate", 'Basic realm="corp"')
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_CONNECT = do_HEAD = _refuse

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


DEAD_PORT = _free_port()
PROXY_407 = _proxy_407()


def main() -> int:
    print(f"{'case':44} {'codexdoctor':12} {'codes':24} {'s':>5}  codex: exit, POSTs, last line")
    only = os.environ.get("CROSSCHECK_ONLY")
    disagree = 0
    for case in CASES:
        if only and only not in case.name:
            continue
        with sim.start(**{"api_key": KEY, **case.sim}) as server:
            home = Path(tempfile.mkdtemp(prefix="cdx-wire-"))
            (home / "config.toml").write_text(case.config.replace("{base}", server.base_url))
            env = {
                "PATH": os.environ["PATH"],
                "HOME": str(home.parent),
                "CODEX_HOME": str(home),
                "SIM_API_KEY": KEY,
                "CODEX_CLI_CACHE": os.environ.get(
                    "CODEX_CLI_CACHE", str(Path.home() / ".cache" / "codexdoctor-dev" / "codex-cli")
                ),
                **{
                    k: v.replace("{fixtures}", str(FIXTURES))
                    .replace("{dead}", str(DEAD_PORT))
                    .replace("{p407}", str(PROXY_407.server_address[1]))
                    for k, v in case.env.items()
                },
            }
            started = time.monotonic()
            report, _ = run_check(
                CheckOptions(env=env, home=home.parent, cwd=home, system_config=None, codex_version=(0, 171, 0))
            )
            took = time.monotonic() - started
            server.records.clear()
            server.server.limited = 0
            try:
                proc = subprocess.run(
                    [CODEX, "exec", "--skip-git-repo-check", "say hi"],
                    env=env,
                    cwd=home,
                    capture_output=True,
                    text=True,
                    timeout=case.codex_timeout,
                    stdin=subprocess.DEVNULL,
                )
                code, out = proc.returncode, proc.stdout + proc.stderr
            except subprocess.TimeoutExpired as exc:
                code, out = "timeout", (exc.stdout or b"").decode() + (exc.stderr or b"").decode()
            posted = [r.at for r in server.records if r.method == "POST"]
            posts = len(posted)
            if os.environ.get("CROSSCHECK_TIMING") and len(posted) > 1:
                print("   gaps between POSTs:", ", ".join(f"{b - a:.1f}" for a, b in itertools.pairwise(posted)))
            shutil.rmtree(home, ignore_errors=True)
        codex_works = code == 0 and "simulator answers" in out
        doctor_works = report.verdict.value == "ok"
        agree = codex_works == doctor_works
        disagree += not agree
        codes = ",".join(f.code for f in report.findings if f.severity.value != "info") or "-"
        print(
            f"{case.name:44} {report.verdict.value:12} {codes:24} {took:5.1f}  {code}, {posts}, {last_line(out)}"
            + ("" if agree else "   <-- DISAGREE")
        )
    print(f"{disagree} disagreement(s)")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
