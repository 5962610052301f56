"""How close `codexdoctor sessions` can get to 25x ccusage at all: the floor under any Python reader, in one run.

Run: python bench/bench_sessions_floor.py [CORPORA_DIR [SHAPE ...]]   (default: the `real` shape)
Interleaved rounds of: `python -c pass`; `python -c "import click"`; bench/floor_reader.py with --no-parse
(start-up, click, listing, reading and scanning every file in two processes) and without it (the same, plus
orjson on every line the report needs); `codexdoctor sessions` on an empty CODEX_HOME (the command's fixed
cost) and on the corpus; and ccusage. Medians, each as a share of
ccusage's time divided by 25 (the target of issue 18): a floor above 1.00 means that no reader built from these
parts reaches 25x on that corpus, whatever it does on top. The corpora come from bench/make_corpora.py.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_sessions import ccusage, timed  # noqa: E402

ROUNDS = 5
TARGET = 25


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.gettempdir()) / "codexdoctor-corpora"
    shapes = sys.argv[2:] or ["real"]
    subprocess.run(
        [sys.executable, str(HERE / "make_corpora.py"), str(root), "300"], check=True, stdout=subprocess.DEVNULL
    )
    peer = ccusage()
    if not peer:
        print("ccusage-codex not available (no npm): nothing to compare with")
        return 1
    home = tempfile.mkdtemp(prefix="cdx-bench-home-")
    empty = tempfile.mkdtemp(prefix="cdx-bench-empty-codex-home-")
    py = sys.executable
    for shape in shapes:
        sessions = root / shape / "sessions"
        env = {"PATH": os.environ["PATH"], "HOME": home, "CODEX_HOME": str(root / shape)}
        ours = [py, "-m", "codexdoctor", "sessions", "--format", "json", "-o", os.devnull]
        runs = {
            "python -c pass": ([py, "-c", "pass"], env),
            "python -c 'import click'": ([py, "-c", "import click"], env),
            "floor: read + scan": ([py, str(HERE / "floor_reader.py"), str(sessions), "--no-parse"], env),
            "floor: read + scan + parse": ([py, str(HERE / "floor_reader.py"), str(sessions)], env),
            # the command's fixed cost: its imports, config resolution and an empty report, no log to read
            "codexdoctor sessions, no logs": (ours, {**env, "CODEX_HOME": empty}),
            "codexdoctor sessions": (ours, env),
        }
        for cmd, cmd_env in runs.values():
            timed(cmd, cmd_env)  # page cache and bytecode cache warm
        times: dict[str, list[float]] = {name: [] for name in runs}
        theirs = []
        for _ in range(ROUNDS):
            for name, (cmd, cmd_env) in runs.items():
                times[name] += [timed(cmd, cmd_env) for _ in range(3)]
            theirs.append(timed([peer, "session", "--json", "--offline"], env))
        c = statistics.median(theirs)
        budget = c / TARGET
        files = sum(1 for _ in sessions.rglob("*.jsonl"))
        print(f"{shape}: {files} files; ccusage {c:.2f} s (median of {ROUNDS}); {TARGET}x means {budget:.3f} s")
        print(f"  {'run':30} {'s':>6} {'x budget':>8} {'x ccusage':>9}")
        for name in runs:
            t = statistics.median(times[name])
            print(f"  {name:30} {t:6.3f} {t / budget:8.2f} {c / t:8.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
