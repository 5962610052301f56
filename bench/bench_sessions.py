"""`codexdoctor sessions` throughput and peak memory on >= 300 MB of rollouts, against ccusage in the same run.

Run: python bench/bench_sessions.py [CORPORA_DIR [MEGABYTES [SHAPE ...]]]
The corpora (four shapes, bench/make_corpora.py) are generated when missing; naming shapes runs only those.
BENCH_BASELINE=/path/to/another/checkout times that checkout too, interleaved with this one and grep in the same rounds
(a before/after on one machine at one load), and prints its row as "baseline".
The checkout this script is in is measured (PYTHONPATH), whatever codexdoctor is installed. The peer is ccusage
(`npm install @ccusage/codex`, command `ccusage-codex session --json --offline`), looked up on PATH or in
~/.cache/codexdoctor-dev/ccusage (installed there on first use when npm is available).
Peak memory is the largest sum of PSS (proportional set size: pages shared between a process and its forked
workers count once) over the process and all its children, sampled every 5 ms; RSS sums are printed too.
"""

from __future__ import annotations

import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 3  # rounds; ccusage runs once a round (seconds a run)
SHORT_REPEATS = 3  # codexdoctor and grep run this many times a round (a fraction of a second each)
CCUSAGE_VERSION = "18.0.11"
HERE = Path(__file__).resolve().parent


def tree_memory_kb(pid: int) -> tuple[int, int]:
    pss = rss = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith("Pss:"):
                        pss += int(line.split()[1])
                    elif line.startswith("Rss:"):
                        rss += int(line.split()[1])
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    stack += [int(c) for c in fh.read().split()]
        except (OSError, ValueError):
            continue
    return pss, rss


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system of the process and every child it waited for: sessions' forked reader
    too). Without sampling: sampling /proc during a timed run slows a process with a large heap (ccusage) more than a
    small one, so time and memory are measured in separate runs. The machine is shared: CPU time moves less than
    wall time when other work competes for the cores."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 1):  # 1: findings; anything else measured an error, not a run (issue 40)
        raise SystemExit(f"{cmd[0]} failed ({result.returncode}): {result.stderr.decode(errors='replace')[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(cmd: list[str], env: dict[str, str]) -> tuple[float, int, int]:
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak_pss = peak_rss = 0
    while proc.poll() is None:
        pss, rss = tree_memory_kb(proc.pid)
        peak_pss, peak_rss = max(peak_pss, pss), max(peak_rss, rss)
        time.sleep(0.005)
    elapsed = time.perf_counter() - started
    return elapsed, peak_pss, peak_rss


def ccusage() -> str | None:
    found = shutil.which("ccusage-codex")
    if found:
        return found
    cache = Path.home() / ".cache" / "codexdoctor-dev" / "ccusage"
    binary = cache / "node_modules" / ".bin" / "ccusage-codex"
    if not binary.exists() and shutil.which("npm"):
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--silent", "--prefix", str(cache), f"@ccusage/codex@{CCUSAGE_VERSION}"],
            capture_output=True,
            timeout=300,
        )
    return str(binary) if binary.exists() else None


def grep_baseline(sessions: Path) -> list[str]:
    """`grep -rc '"token_count"'`: one pass over every byte, the floor any reader is compared with. Its output goes
    to a file: GNU grep stops at the first match when stdout is /dev/null."""
    return ["sh", "-c", f"grep -rc '\"token_count\"' {sessions} > {tempfile.gettempdir()}/cdx-bench-grep.txt"]


def main() -> int:
    root = (Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.gettempdir()) / "codexdoctor-corpora").resolve()
    megabytes = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    shapes = sys.argv[3:] or ["typical", "real", "few-huge", "short-lines"]
    subprocess.run(
        [sys.executable, str(HERE / "make_corpora.py"), str(root), str(megabytes)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    peer = ccusage()
    home = tempfile.mkdtemp(prefix="cdx-bench-home-")
    # A file, not os.devnull: `-o` refuses a device (issue 36), and a refused run is a usage error in 0.1 s, which
    # this bench once measured as the reader's time (issue 40).
    report = os.path.join(home, "report.json")
    # Every run starts in that empty folder: `python -m` puts its working folder first on sys.path, so a run started
    # inside a checkout imports that checkout whatever PYTHONPATH says (BENCH_BASELINE measured this tree twice).
    os.chdir(home)
    print(
        f"machine: {platform.machine()} {platform.system()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"{RUNS} interleaved rounds per shape (codexdoctor and grep {SHORT_REPEATS}x a round, ccusage once): medians; "
        f"peak PSS from one more sampled run; all in this run"
    )
    print(
        f"{'shape':12} {'files':>6} {'MB':>5} | {'codexdoctor s':>13} {'cpu s':>6} {'MB/s':>6} {'PSS MB':>6} | "
        f"{'ccusage s':>9} {'MB/s':>5} {'PSS MB':>6} | {'grep s':>6} {'cpu s':>6} | {'x ccusage':>9} {'x grep':>6} "
        f"{'cpu x grep':>10}"
    )
    for shape in shapes:
        corpus = root / shape
        files = list((corpus / "sessions").rglob("*.jsonl"))
        size_mb = sum(f.stat().st_size for f in files) / 1e6
        env = {"PATH": os.environ["PATH"], "HOME": home, "CODEX_HOME": str(corpus), "PYTHONPATH": str(HERE.parent)}
        our_cmd = [sys.executable, "-m", "codexdoctor", "sessions", "--format", "json", "-o", report]
        their_cmd = [peer, "session", "--json", "--offline"] if peer else None
        timed(our_cmd, env)  # warm the page cache and the bytecode cache once
        # Interleaved rounds, so that all three see the same machine (it is shared: a busy minute slows a short,
        # start-up-bound run more than a long one); the short runs are repeated within a round to steady them.
        baseline = os.environ.get("BENCH_BASELINE")
        base_env = {**env, "PYTHONPATH": baseline} if baseline else None
        if base_env:
            timed(our_cmd, base_env)
        ours, greps, theirs, bases = [], [], [], []
        for _ in range(RUNS):
            ours += [timed(our_cmd, env) for _ in range(SHORT_REPEATS)]
            if base_env:
                bases += [timed(our_cmd, base_env) for _ in range(SHORT_REPEATS)]
            greps += [timed(grep_baseline(corpus / "sessions"), env) for _ in range(SHORT_REPEATS)]
            if their_cmd:
                theirs.append(timed(their_cmd, env))
        o, g = statistics.median(w for w, _ in ours), statistics.median(w for w, _ in greps)
        o_cpu, g_cpu = statistics.median(c for _, c in ours), statistics.median(c for _, c in greps)
        o_pss = measure(our_cmd, env)[1] / 1024
        if their_cmd:
            c = statistics.median(w for w, _ in theirs)
            c_pss = measure(their_cmd, env)[1] / 1024
            peer_cols = f"{c:>9.2f} {size_mb / c:>5.0f} {c_pss:>6.0f} | {g:>6.2f} {g_cpu:>6.2f} | {c / o:>8.1f}x"
        else:
            peer_cols = f"{'-':>9} {'-':>5} {'-':>6} | {g:>6.2f} {g_cpu:>6.2f} | {'-':>9}"
        print(
            f"{shape:12} {len(files):>6} {size_mb:>5.0f} | {o:>13.2f} {o_cpu:>6.2f} {size_mb / o:>6.0f} {o_pss:>6.0f} | "
            f"{peer_cols} {o / g:>5.1f}x {o_cpu / g_cpu:>9.1f}x",
            flush=True,
        )
        if bases:
            b, b_cpu = statistics.median(w for w, _ in bases), statistics.median(c for _, c in bases)
            print(
                f"{'  baseline':12} {'':>6} {'':>5} | {b:>13.2f} {b_cpu:>6.2f} {size_mb / b:>6.0f} {'':>6} | "
                f"{'':>9} {'':>5} {'':>6} | {'':>6} {'':>6} | {'':>9} {b / g:>5.1f}x {b_cpu / g_cpu:>9.1f}x",
                flush=True,
            )
    if not peer:
        print("ccusage-codex not available (no npm); ratio not measured")
    return 0


if __name__ == "__main__":
    sys.exit(main())
