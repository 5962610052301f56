"""Drive the real Codex CLI through a tool call against gateways that break on turn two (issue 31), and compare with
codexdoctor's verdict.

Usage (inside a network namespace with only loopback, since Codex also tries outside hosts):
    ../shared/tools/in-netns python scripts/crosscheck_turn_two.py [CODEX_BINARY]
The simulator asks for one `exec_command` call (`ask_tool_call`), so Codex runs it (`-s danger-full-access`) and
sends its second request, where the case's fault is. `codexdoctor check` runs first with the same files (its canary
is Codex's first request, then its own made-up turn two). Results are recorded in docs/codex-behaviour.md.
CROSSCHECK_ONLY=part-of-a-name runs the matching cases only.
"""

from __future__ import annotations

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
    sim: dict = field(default_factory=dict)
    command: str = "echo hi"  # what the simulated model asks Codex to run


CASES = [
    Case("healthy tool round"),
    Case("healthy, with a reasoning item", {"reasoning_item": True}),
    Case("function_call_output refused", {"turn_two_fault": "reject_fco"}),
    Case("bridge drops the tool output", {"turn_two_fault": "no_tool_output"}),
    Case("chat template refuses the tool role (500)", {"turn_two_fault": "tool_role_template"}),
    Case("reasoning item cannot be verified", {"turn_two_fault": "bad_reasoning", "reasoning_item": True}),
    Case("HTML 502 on the second request", {"turn_two_fault": "html_502"}),
    Case("bridge streams an empty call_id", {"call_id": ""}),
    Case("bridge streams no call_id", {"call_id": None}),
    Case("10K window, large tool output", {"context_window": 10_000, "error_style": "vllm"}, command="seq 1 4000"),
]


def main() -> int:
    print(f"{'case':44} {'codexdoctor':12} {'codes':20} {'s':>5}  codex: exit, POSTs (statuses), last line")
    only = os.environ.get("CROSSCHECK_ONLY")
    for case in CASES:
        if only and only not in case.name:
            continue
        with sim.start(**{"api_key": KEY, "ask_tool_call": case.command, **case.sim}) as server:
            home = Path(tempfile.mkdtemp(prefix="cdx-turn2-"))
            (home / "config.toml").write_text(TABLE.replace("{base}", server.base_url))
            env = {
                "PATH": os.environ["PATH"],
                "HOME": str(home.parent),
                "CODEX_HOME": str(home),
                "SIM_API_KEY": KEY,
                "CODEX_CLI_CACHE": os.environ.get(
                    "CODEX_CLI_CACHE", str(Path.home() / ".cache" / "codexdoctor-dev" / "codex-cli")
                ),
            }
            started = time.monotonic()
            report, _ = run_check(
                CheckOptions(env=env, home=home.parent, cwd=home, system_config=None, codex_version=(0, 171, 0))
            )
            took = time.monotonic() - started
            server.records.clear()
            try:
                proc = subprocess.run(
                    [CODEX, "exec", "--skip-git-repo-check", "-s", "danger-full-access", f"run {case.command}"],
                    env=env,
                    cwd=home,
                    capture_output=True,
                    text=True,
                    timeout=120,
                    stdin=subprocess.DEVNULL,
                )
                code, out = proc.returncode, proc.stdout + proc.stderr
            except subprocess.TimeoutExpired as exc:
                code, out = "timeout", (exc.stdout or b"").decode() + (exc.stderr or b"").decode()
            statuses = [r.status for r in server.records if r.method == "POST"]
            shutil.rmtree(home, ignore_errors=True)
        shown = f"{statuses[:3]}{'…' if len(statuses) > 3 else ''}"
        codes = ",".join(f.code for f in report.findings if f.severity.value != "info") or "-"
        print(
            f"{case.name:44} {report.verdict.value:12} {codes:20} {took:5.1f}  {code}, {len(statuses)} {shown}, "
            f"{last_line(out)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
