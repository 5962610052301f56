"""Live `check` time against a provider with 200 ms per request: close to the slowest probe chain, not the sum.

Run: python bench/bench_check.py   (prints one table; numbers go to docs/performance.md)
"""

from __future__ import annotations

import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from codexdoctor import sim
from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions

LATENCY_MS = 200
KEY = "sk-bench-0123456789abcdef"
RUNS = 5


def configure(home: Path, base_url: str) -> None:
    (home / ".codex").mkdir(parents=True, exist_ok=True)
    (home / ".codex" / "config.toml").write_text(
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{base_url}"\nenv_key = "SIM_API_KEY"\n'
    )


def timed_check(home: Path) -> tuple[float, int]:
    started = time.perf_counter()
    report, _ = run_check(
        CheckOptions(
            env={"HOME": str(home), "SIM_API_KEY": KEY},
            home=home,
            cwd=home,
            system_config=None,
            codex_version=(0, 171, 0),
            timeout=30,
        )
    )
    return time.perf_counter() - started, len(report.findings)


def sequential_sum(server: sim.RunningSim, before: int, only_posts: int | None = None) -> float:
    """Replay the requests the check made, one after another, on a warm client.

    All of them: what a sequential tool would take. Only the first `only_posts` POSTs: the slowest
    probe chain (the canary, then one variant when the configured path 404s).
    """
    total = 0.0
    records = [r for r in list(server.records)[before:] if only_posts is None or r.method == "POST"]
    if only_posts is not None:
        records = records[:only_posts]
    with httpx.Client(timeout=30) as client:
        client.get(server.url + "/warm-up")
        for rec in records:
            started = time.perf_counter()
            url = server.url + rec.path
            if rec.method == "POST":
                body = {"model": "sim-model", "input": "Reply with: ok", "stream": True, "max_output_tokens": 16}
                client.post(url, json=body, headers={"Authorization": f"Bearer {KEY}"})
            else:
                client.get(url, headers={"Authorization": f"Bearer {KEY}"})
            total += time.perf_counter() - started
    return total


def scenario(name: str, prefix: str, configured_suffix: str) -> dict:
    server = sim.start(api_key=KEY, request_latency_ms=LATENCY_MS, latency_ms=0, prefix=prefix)
    home = Path(tempfile.mkdtemp(prefix="cdx-bench-"))
    configure(home, server.url + configured_suffix)
    timed_check(home)  # warm-up: imports, tokenizer
    checks, sums, chains, requests = [], [], [], []
    # The healthy chain is the canary, then turn two: turn two waits for the provider to accept the canary (its
    # status line), as Codex only ever sends it after turn one was accepted; here the simulator's whole latency is
    # before the status line, so nothing of the two overlaps (issue 40). A 404 chain: the canary, then one variant.
    chain_posts = 2
    for _ in range(RUNS):
        before = len(server.records)
        elapsed, _ = timed_check(home)
        after = len(server.records)
        requests.append(after - before)
        checks.append(elapsed)
        sums.append(sequential_sum(server, before))
        chains.append(sequential_sum(server, before, only_posts=chain_posts))
        del server.records[after:]
    server.stop()
    return {
        "scenario": name,
        "requests": requests[0],
        "check_s": statistics.median(checks),
        "chain_s": statistics.median(chains),
        "sum_s": statistics.median(sums),
    }


def main() -> int:
    rows = [scenario("healthy", "/v1", "/v1"), scenario("wrong prefix (404 then variants)", "/api", "/api/v1")]
    print(
        f"machine: {platform.machine()} {platform.system()} Python {platform.python_version()}; "
        f"provider latency {LATENCY_MS} ms per request; median of {RUNS} runs"
    )
    print(f"{'scenario':34} {'requests':>8} {'check':>8} {'chain':>8} {'sum':>8} {'check/chain':>12} {'check/sum':>10}")
    for r in rows:
        print(
            f"{r['scenario']:34} {r['requests']:>8} {r['check_s']:>7.2f}s {r['chain_s']:>7.2f}s {r['sum_s']:>7.2f}s "
            f"{r['check_s'] / r['chain_s']:>12.2f} {r['check_s'] / r['sum_s']:>10.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
