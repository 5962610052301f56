"""Run every benchmark in one go on this machine, so docs/performance.md can quote one run.

Run: python bench/run_all.py [CORPUS_DIR]
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    corpus = sys.argv[1:] or []
    for script, args in (
        ("bench_startup.py", []),
        ("bench_check.py", []),
        ("bench_probe.py", []),
        ("bench_sessions.py", corpus),
        ("bench_sessions_floor.py", corpus),
        ("bench_watch.py", []),
        ("bench_render.py", []),
    ):
        print(f"\n=== {script}", flush=True)
        result = subprocess.run([sys.executable, str(HERE / script), *args])
        if result.returncode:
            return result.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
