"""Start-up of the same commands from two checkouts, interleaved run by run, so machine noise hits both alike.

Run: python bench/bench_layout_startup.py OLD_CHECKOUT [NEW_CHECKOUT]
(used for issue 19: the package layout must not make `codexdoctor --version` slower).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 40
COMMANDS = (["--version"], ["--help"], ["explain", "ENV001"], ["rules"], ["check", "--offline"])


def once(tree: str, args: list[str], env: dict[str, str]) -> float:
    # Run from a neutral folder: `python -m` puts the working directory first on sys.path, so run from a checkout
    # it would import that checkout's package whatever PYTHONPATH says.
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "codexdoctor", *args],
        env={**env, "PYTHONPATH": tree},
        cwd=env["HOME"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - started


def main() -> int:
    old = str(Path(sys.argv[1]).resolve())
    new = str(Path(sys.argv[2] if len(sys.argv) > 2 else Path(__file__).parent.parent).resolve())
    home = tempfile.mkdtemp()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(HOME=home, CODEX_HOME=home, CODEXDOCTOR_NO_CODEX_PROBE="1", NO_COLOR="1")
    for tree in (old, new):  # bytecode cached, as after an install
        subprocess.run([sys.executable, "-m", "compileall", "-q", tree + "/codexdoctor"], env=env, check=False)
    for tree in (old, new):  # each run must import the checkout it names
        where = subprocess.run(
            [sys.executable, "-c", "import codexdoctor; print(codexdoctor.__file__)"],
            cwd=home,
            env={**env, "PYTHONPATH": tree},
            capture_output=True,
            text=True,
        ).stdout.strip()
        assert where.startswith(tree), f"{tree} imports {where}"
    print(f"median of {RUNS} interleaved runs each; old = {old}, new = {new}")
    print(f"{'command':28} {'old ms':>8} {'new ms':>8} {'new/old':>8}")
    for args in COMMANDS:
        a, b = [], []
        for _ in range(RUNS):
            a.append(once(old, args, env))
            b.append(once(new, args, env))
        ma, mb = statistics.median(a) * 1000, statistics.median(b) * 1000
        print(f"{'codexdoctor ' + ' '.join(args):28} {ma:8.1f} {mb:8.1f} {mb / ma:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
