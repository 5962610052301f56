"""Run the real Codex CLI 0.171 through `codexdoctor watch` against the simulator, and print what Codex said next to
what the recorder diagnosed (issue 41).

Usage (inside a network namespace with only loopback, since Codex also tries outside hosts):
    ../shared/tools/in-netns env CODEX_CLI_CACHE=$CODEX_CLI_CACHE python scripts/crosscheck_watch.py [CODEX_BINARY]
Each case gets a throw-away CODEX_HOME and state folder. The growing session is `codex exec` then `codex exec resume
--last` turn by turn, each turn watched. The TUI case runs Codex's interactive TUI through `watch --log` in a tmux
pane 80 columns wide, sends two prompts and captures the pane (`tmux capture-pane -p`, scrollback included) while
Codex runs: no line of the recorder may appear on Codex's screen. Results are recorded in docs/watch.md.
CROSSCHECK_ONLY=part-of-a-name runs the matching cases only (`TUI` for the TUI alone); CROSSCHECK_PANE=FILE keeps the
TUI's last capture.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crosscheck_config_semantics import CODEX, KEY, TABLE, last_line

from codexdoctor import sim

ROOT = Path(__file__).resolve().parents[1]
OPENAI_TABLE = 'model = "sim-model"\nopenai_base_url = "{base}"\n'


@dataclass
class Case:
    name: str
    sim: dict = field(default_factory=dict)
    config: str = TABLE
    env: dict = field(default_factory=dict)
    watch_args: tuple[str, ...] = ()
    prompt: str = "say hi"
    turns: int = 1  # >1: `codex exec resume --last` for each later turn, each watched
    interrupt_after: float | None = None  # send SIGINT to codexdoctor after this many seconds
    tool: bool = False  # let Codex run the tool call the simulator asks for


PASTE = "Please remember this list for later. " + " ".join(f"item-{n}" for n in range(700))
CASES = [
    Case("healthy, custom provider"),
    Case("healthy, built-in openai (openai_base_url)", config=OPENAI_TABLE, env={"CODEX_API_KEY": KEY}),
    Case("429 with a body Codex never shows", {"rate_limited_posts": 100}, env={}),
    Case("stalling provider", {"stall_after_tokens": 3, "stall_seconds": 3.0}, watch_args=("--stall-seconds", "2")),
    Case("failure after a tool call", {"ask_tool_call": "echo hi", "turn_two_fault": "reject_fco"}, tool=True),
    Case("session grows into a 16K window", {"context_window": 16_000}, prompt=PASTE, turns=6),
    Case("Ctrl-C while the provider hangs", {"hang": True, "hang_seconds": 60}, interrupt_after=6.0),
]


def run_watch(case: Case, home: Path, env: dict[str, str], argv: list[str]) -> tuple[int, str, dict, float]:
    report = home / f"report-{time.monotonic_ns()}.json"
    cmd = [sys.executable, "-m", "codexdoctor", "watch", "--format", "json", "-o", str(report), *case.watch_args, "--"]
    started = time.monotonic()
    proc = subprocess.Popen(cmd + argv, env=env, cwd=home, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if case.interrupt_after:
        time.sleep(case.interrupt_after)
        proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    took = time.monotonic() - started
    err = "\n".join(x for x in err.splitlines() if not x.startswith("codexdoctor watch: report written"))
    data = json.loads(report.read_text()) if report.exists() else {}
    return proc.returncode, err, data, took


TUI_PROMPTS = ("say hi", "and once more")


def case_env(home: Path, extra: dict[str, str]) -> dict[str, str]:
    return {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "CODEX_HOME": str(home / ".codex"),
        "SIM_API_KEY": KEY,
        "XDG_STATE_HOME": str(home / "state"),
        "PYTHONPATH": str(ROOT),
        "LANG": "C.UTF-8",
        "CODEX_CLI_CACHE": os.environ.get(
            "CODEX_CLI_CACHE", str(Path.home() / ".cache" / "codexdoctor-dev" / "codex-cli")
        ),
        **extra,
    }


def tui_case() -> None:
    """The interactive TUI through `watch --log` in tmux at 80 columns: two prompts, the pane captured after each
    answer, then /quit. Prints one line per turn and what the pane showed of the recorder (it must be nothing)."""
    with sim.start(api_key=KEY, prefix_cache=True) as server:
        home = Path(tempfile.mkdtemp(prefix="cdx-watch-tui-"))
        work = home / "work"
        work.mkdir()
        (home / ".codex").mkdir()
        trusted = f'[projects."{work}"]\ntrust_level = "trusted"\n'  # no folder-trust screen
        (home / ".codex" / "config.toml").write_text(TABLE.replace("{base}", server.base_url) + trusted)
        env = case_env(home, {"TERM": "xterm-256color"})
        log, report = home / "watch.log", home / "report.json"
        tmux = ["tmux", "-L", f"cdx-watch-{os.getpid()}", "-f", "/dev/null"]
        watch = [sys.executable, "-m", "codexdoctor", "watch", "--log", str(log), "--format", "json", "-o", str(report)]
        started = time.monotonic()
        subprocess.run(
            [
                *tmux,
                "new-session",
                "-d",
                "-x",
                "80",
                "-y",
                "24",
                "-s",
                "w",
                "-c",
                str(work),
                " ".join([*watch, "--", CODEX]),
            ],
            env=env,
            check=True,
        )
        subprocess.run([*tmux, "set-option", "-t", "w", "remain-on-exit", "on"], env=env, check=True)

        def tmux_out(*args: str) -> str:
            return subprocess.run([*tmux, *args], env=env, capture_output=True, text=True).stdout

        def pane() -> str:
            return tmux_out("capture-pane", "-p", "-t", "w", "-S", "-")  # the scrollback too

        def wait_for(pred, seconds: float = 60.0) -> bool:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                if pred():
                    return True
                time.sleep(0.3)
            return False

        def typed(text: str) -> None:
            tmux_out("send-keys", "-t", "w", "-l", text)
            time.sleep(0.5)  # typed, then Enter on its own: a fast Enter reads as part of a paste
            tmux_out("send-keys", "-t", "w", "Enter")

        stray: list[str] = []
        try:
            wait_for(lambda: "Ask Codex" in pane())
            for turn, prompt in enumerate(TUI_PROMPTS, 1):
                answers = pane().count("The simulator answers")
                typed(prompt)
                answered = wait_for(lambda n=answers: pane().count("The simulator answers") > n)
                time.sleep(1.0)  # whatever the recorder might write would be on the screen by now
                shown = pane()
                stray += [x for x in shown.splitlines() if "codexdoctor" in x or "Traceback" in x]
                lines = log.read_text().splitlines() if log.exists() else []
                print(
                    f"{'TUI under tmux, 80 columns':46} {turn:>4} {'-':>4} {time.monotonic() - started:5.1f}  "
                    f"{'-':12} {'-':22} {len(lines)} in --log; answered: {answered}; stray on screen: {len(stray)}"
                )
            typed("/quit")
            wait_for(lambda: tmux_out("display-message", "-p", "-t", "w", "#{pane_dead}").strip() == "1", 30)
            status = tmux_out("display-message", "-p", "-t", "w", "#{pane_dead_status}").strip()
            if os.environ.get("CROSSCHECK_PANE"):
                Path(os.environ["CROSSCHECK_PANE"]).write_text(shown)
        finally:
            tmux_out("kill-server")
        data = json.loads(report.read_text()) if report.exists() else {}
        codes = ",".join(sorted({f["code"] for f in data.get("findings", [])})) or "-"
        check = next((c for c in data.get("checks", []) if c["id"] == "ctx.watch"), {})
        calls = check.get("facts", {}).get("calls", [])
        shares = "; ".join(
            f"{c['input_tokens'] or '-'} in, {c['cached_tokens'] if c['cached_tokens'] is not None else '-'} cached"
            for c in calls
        )
        leaked = any(KEY in p.read_text() for p in [log, *(home / "state").rglob("*.jsonl")] if p.exists())
        print(
            f"{'TUI under tmux, 80 columns (after /quit)':46} {'-':>4} {status or '?':>4} "
            f"{time.monotonic() - started:5.1f}  {data.get('verdict', '-'):12} {codes:22} {len(calls)}: {shares[:120]}"
            + ("  KEY LEAKED" if leaked else "")
        )
        for x in stray:
            print(f"    stray: {x[:100]}")


def main() -> int:
    print(f"{'case':46} {'turn':>4} {'exit':>4} {'s':>5}  {'verdict':12} {'codes':22} requests / codex's last line")
    only = os.environ.get("CROSSCHECK_ONLY")
    if not only or only in "TUI under tmux":
        tui_case()
    for case in CASES:
        if only and only not in case.name:
            continue
        with sim.start(**{"api_key": KEY, **case.sim}) as server:
            home = Path(tempfile.mkdtemp(prefix="cdx-watch-"))
            codex_home = home / ".codex"
            codex_home.mkdir()
            (codex_home / "config.toml").write_text(case.config.replace("{base}", server.base_url))
            env = case_env(home, case.env)
            for turn in range(1, case.turns + 1):
                base = [CODEX, "exec", "--skip-git-repo-check"]
                if case.tool:
                    base += ["-s", "danger-full-access"]
                argv = base + (["resume", "--last"] if turn > 1 else []) + [case.prompt]
                code, err, data, took = run_watch(case, home, env, argv)
                codes = ",".join(sorted({f["code"] for f in data.get("findings", [])})) or "-"
                check = next((c for c in data.get("checks", []) if c["id"] == "ctx.watch"), {})
                calls = check.get("facts", {}).get("calls", [])
                shown = "; ".join(f"{c['status']} {c['ending']} {c['input_tokens'] or '-'}" for c in calls[-3:])
                leaked = KEY in err or any(KEY in p.read_text() for p in (home / "state").rglob("*.jsonl"))
                print(
                    f"{case.name[:46]:46} {turn:>4} {code:>4} {took:5.1f}  {data.get('verdict', '-'):12} {codes:22} "
                    f"{len(calls)}: {shown[:60]} | {last_line(err)[:90]}" + ("  KEY LEAKED" if leaked else "")
                )
                if code != 0:
                    break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
