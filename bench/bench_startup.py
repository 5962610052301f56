"""Start-up cost of the commands people run most, as ratios to a bare interpreter, plus the hung-provider overrun.

Run: python bench/bench_startup.py
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 30


def timed(args: list[str], env: dict[str, str], runs: int = RUNS) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def hung_overrun(env: dict[str, str], timeout: float = 2.0) -> float:
    """How far past --timeout `check` runs against a provider that accepts and never answers."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from codexdoctor import sim

    with sim.start(hang=True, hang_seconds=60) as server:
        home = Path(env["HOME"])
        (home / ".codex").mkdir(exist_ok=True)
        (home / ".codex" / "config.toml").write_text(
            f'model = "m"\nmodel_provider = "h"\n[model_providers.h]\nname = "h"\nbase_url = "{server.base_url}"\n'
            'env_key = "H_KEY"\n'
        )
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "codexdoctor", "check", "--timeout", str(timeout)],
            env={**env, "H_KEY": "sk-bench-000000000000"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return time.perf_counter() - started - timeout


def main() -> int:
    home = tempfile.mkdtemp(prefix="cdx-startup-")
    env = {"PATH": os.environ["PATH"], "HOME": home, "CODEXDOCTOR_NO_CODEX_PROBE": "1"}
    py = sys.executable
    base = timed([py, "-c", "pass"], env)
    rows = [("python -c pass", base)]
    zh = {**env, "LANG": "zh_CN.UTF-8"}  # Chinese runs load the translations and the line breaker (issue 40)
    for label, args, run_env in (
        ("codexdoctor --version", ["--version"], env),
        ("codexdoctor --help", ["--help"], env),
        ("codexdoctor --help (zh)", ["--help"], zh),
        ("codexdoctor check --help (zh)", ["check", "--help"], zh),
        ("codexdoctor explain ENV001", ["explain", "ENV001"], env),
        ("codexdoctor rules", ["rules"], env),
        ("codexdoctor check --offline", ["check", "--offline", "--codex-version", "0.171.0"], env),
    ):
        rows.append((label, timed([py, "-m", "codexdoctor", *args], run_env)))
    print(
        f"machine: {platform.machine()} {platform.system()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"median of {RUNS} runs each"
    )
    print(f"{'command':32} {'ms':>8} {'x python -c pass':>18}")
    for label, secs in rows:
        print(f"{label:32} {secs * 1000:>8.1f} {secs / base:>18.1f}")
    overrun = hung_overrun(env)
    print(f"hung provider: check --timeout 2 returned {overrun:+.2f} s after its deadline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
