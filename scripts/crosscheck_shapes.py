"""Compare codexdoctor's verdict with what the real Codex CLI does when a provider's JSON has the wrong shape or depth
(issue 36, item 4): a response.completed event Codex cannot read, an event or a body nested past serde_json's limit.

Usage (inside a network namespace with only loopback, since Codex also tries outside hosts):
    ../shared/tools/in-netns python scripts/crosscheck_shapes.py [CODEX_BINARY]
Each case is served byte for byte from a loopback server (the simulator only writes well-formed JSON): an answer
streamed as Codex's canary expects it, ending in the case's event. `codexdoctor check` runs first, then
`codex exec "say hi"` with the same files and no retries (stream_max_retries = 0). A case agrees when both say the
setup works, or both say it does not. Results are recorded in docs/codex-behaviour.md.
CROSSCHECK_ONLY=part-of-a-name runs the matching cases only.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crosscheck_config_semantics import CODEX, KEY, last_line

from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions

USAGE = {"input_tokens": 12, "output_tokens": 1, "total_tokens": 13}
MESSAGE = {"type": "message", "role": "assistant", "id": "m1", "content": [{"type": "output_text", "text": "ok"}]}
DEEP = "[" * 100_000 + "]" * 100_000


def nested(levels: int) -> object:
    return json.loads("[" * levels + "]" * levels)


def completed(response: object) -> str:
    return json.dumps({"type": "response.completed", "response": response})


# (name, the last event's data, or a whole (status, body) answer to the POST)
CASES: list[tuple[str, str | tuple[int, str]]] = [
    ("healthy", completed({"id": "r1", "usage": USAGE})),
    ("usage absent", completed({"id": "r1"})),
    ("usage null, details null", completed({"id": "r1", "usage": {**USAGE, "input_tokens_details": None}})),
    ("extra fields of any type", completed({"id": "r1", "status": 5, "output": "x", "usage": {**USAGE, "x": "y"}})),
    ("`response` a string", completed("ok")),
    ("`usage` a string", completed({"id": "r1", "usage": "n/a"})),
    ("`input_tokens` a string", completed({"id": "r1", "usage": {**USAGE, "input_tokens": "12"}})),
    ("`input_tokens` 12.0", completed({"id": "r1", "usage": {**USAGE, "input_tokens": 12.0}})),
    ("`input_tokens` true", completed({"id": "r1", "usage": {**USAGE, "input_tokens": True}})),
    ("`input_tokens` 2**63", completed({"id": "r1", "usage": {**USAGE, "input_tokens": 2**63}})),
    ("`id` missing", completed({"usage": USAGE})),
    ("`id` a number", completed({"id": 5, "usage": USAGE})),
    ("`total_tokens` missing", completed({"id": "r1", "usage": {"input_tokens": 12, "output_tokens": 1}})),
    ("`cached_tokens` missing", completed({"id": "r1", "usage": {**USAGE, "input_tokens_details": {}}})),
    ("`response` null", completed(None)),
    ("event 127 levels deep", completed({"id": "r1", "x": nested(125), "usage": USAGE})),
    ("event 128 levels deep", completed({"id": "r1", "x": nested(126), "usage": USAGE})),
    ("event 100,000 levels deep", DEEP),
    ("400 body 100,000 levels deep", (400, DEEP)),
]


def serve(case: str | tuple[int, str]) -> ThreadingHTTPServer:
    def event(data: str) -> str:
        return f"data: {data}\n\n"

    stream = "".join(
        event(json.dumps(e))
        for e in (
            {"type": "response.created", "response": {"id": "r1"}},
            {"type": "response.output_item.added", "output_index": 0, "item": MESSAGE},
            {"type": "response.output_text.delta", "delta": "ok", "output_index": 0, "content_index": 0},
            {"type": "response.output_item.done", "output_index": 0, "item": MESSAGE},
        )
    )
    status, ctype, body = (
        (case[0], "application/json", case[1])
        if isinstance(case, tuple)
        else (200, "text/event-stream", stream + event(case))
    )

    class Handler(BaseHTTPRequestHandler):
        def _answer(self, code: int, kind: str, text: str) -> None:
            data = text.encode()
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._answer(200, "application/json", '{"object": "list", "data": [{"id": "sim-model"}]}')

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length") or 0))
            self._answer(status, ctype, body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> int:
    print(f"{'case':32} {'codexdoctor':12} {'codes':14}  codex: exit, last line")
    only = os.environ.get("CROSSCHECK_ONLY")
    disagree = 0
    for name, case in CASES:
        if only and only not in name:
            continue
        server = serve(case)
        home = Path(tempfile.mkdtemp(prefix="cdx-shapes-"))
        (home / "config.toml").write_text(
            'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
            f'base_url = "http://127.0.0.1:{server.server_address[1]}/v1"\nenv_key = "SIM_API_KEY"\n'
            "stream_max_retries = 0\nrequest_max_retries = 0\n"
        )
        env = {
            "PATH": os.environ["PATH"],
            "HOME": str(home.parent),
            "CODEX_HOME": str(home),
            "SIM_API_KEY": KEY,
            "CODEX_CLI_CACHE": os.environ.get(
                "CODEX_CLI_CACHE", str(Path.home() / ".cache" / "codexdoctor-dev" / "codex-cli")
            ),
        }
        report, _ = run_check(
            CheckOptions(env=env, home=home.parent, cwd=home, system_config=None, codex_version=(0, 171, 0))
        )
        try:
            proc = subprocess.run(
                [CODEX, "exec", "--skip-git-repo-check", "say hi"],
                env=env,
                cwd=home,
                capture_output=True,
                text=True,
                timeout=60,
                stdin=subprocess.DEVNULL,
            )
            code, out = proc.returncode, proc.stdout + proc.stderr
        except subprocess.TimeoutExpired as exc:
            code, out = "timeout", (exc.stdout or b"").decode() + (exc.stderr or b"").decode()
        server.shutdown()
        shutil.rmtree(home, ignore_errors=True)
        crashed = [c.id for c in report.checks if c.status.value == "crash"]
        agree = (code == 0) == (report.verdict.value == "ok") and not crashed
        disagree += not agree
        codes = ",".join(f.code for f in report.findings if f.severity.value != "info") or "-"
        shown = "[" * 8 + "…" if last_line(out).endswith("[" * 20) else last_line(out)[:110]
        print(
            f"{name:32} {report.verdict.value:12} {codes:14}  {code}, {shown}"
            + ("" if agree else f"   <-- DISAGREE {crashed or ''}")
        )
    print(f"{disagree} disagreement(s)")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
