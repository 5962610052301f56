"""Run each `codexdoctor demo` scenario against the real Codex CLI and print what Codex did.

Usage (inside a network namespace with only loopback, since Codex also tries outside hosts):
    ../shared/tools/in-netns python scripts/crosscheck_real_codex.py [CODEX_BINARY]
The Codex binary defaults to ../shared/tools/real-codex. Results are recorded in docs/codex-behaviour.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from codexdoctor import sim
from codexdoctor.commands import demo

CODEX = (
    sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parents[2] / "shared" / "tools" / "real-codex")
)


def last_error(text: str) -> str:
    lines = [x.strip() for x in text.splitlines() if x.strip()]
    for line in reversed(lines):
        if line.startswith(("ERROR", "Error", "error")) or "stream disconnected" in line or "ran out of room" in line:
            return line[:160]
    return (lines[-1] if lines else "")[:160]


def main() -> int:
    print(f"{'scenario':20} {'codexdoctor':12} {'top':9} codex exit, seconds, requests, last line")
    for s in demo.SCENARIOS:
        outcome = demo.run_scenario(s)
        top = outcome.report.findings[0].code if outcome.report.findings else "-"
        with sim.start(api_key=demo.DEMO_KEY, **s.sim_options) as server:
            home = Path(tempfile.mkdtemp(prefix="cdx-real-"))
            (home / "config.toml").write_text(demo.config_text(s, server))
            env = {
                "PATH": os.environ["PATH"],
                "HOME": str(home),
                "CODEX_HOME": str(home),
                **s.env,
                "CODEX_CLI_CACHE": os.environ.get(
                    "CODEX_CLI_CACHE", str(Path.home() / ".cache" / "codexdoctor-dev" / "codex-cli")
                ),
            }
            started = time.monotonic()
            try:
                proc = subprocess.run(
                    [CODEX, "exec", "--skip-git-repo-check", "say hi"],
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=90,
                    stdin=subprocess.DEVNULL,
                )
                code, out = proc.returncode, proc.stdout + proc.stderr
            except subprocess.TimeoutExpired as exc:
                code, out = "timeout", (exc.stdout or b"").decode() + (exc.stderr or b"").decode()
            elapsed = time.monotonic() - started
            posts = len([r for r in server.records if r.method == "POST"])
            shutil.rmtree(home, ignore_errors=True)
        print(f"{s.name:20} {outcome.got:12} {top:9} {code}, {elapsed:.1f}s, {posts} POSTs, {last_error(out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
