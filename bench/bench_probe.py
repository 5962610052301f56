"""Tokens the probe spends to locate a window vs what turn-by-turn growth spends for the same precision.

Both are measured against the simulator: the probe (geometric growth + bisection, without the stability
repeats, which both methods would need equally) and a session that grows by one step of the probe's final
precision per request until it breaks (the manual method, done as cheaply as it can be).

Run: python bench/bench_probe.py
"""

from __future__ import annotations

import platform
import sys
import tempfile
from pathlib import Path

import httpx

from codexdoctor import sim
from codexdoctor.checks.filler import INSTRUCTIONS, Conversation
from codexdoctor.checks.probe import ProbeSettings
from codexdoctor.commands.options import CheckOptions
from codexdoctor.commands.probe import run_probe
from codexdoctor.common import tokens

KEY = "sk-bench-0123456789abcdef"
WINDOWS = (8192, 32768, 131072)


def probe_spend(window: int) -> tuple[int, int, int]:
    server = sim.start(api_key=KEY, context_window=window, token_interval_ms=0, output_tokens=4)
    home = Path(tempfile.mkdtemp(prefix="cdx-bench-"))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{server.base_url}"\nenv_key = "SIM_API_KEY"\n'
    )
    settings = ProbeSettings(max_context=int(window * 1.5), repeat=1, budget=10**9)
    report, _ = run_probe(
        CheckOptions(
            env={"HOME": str(home), "SIM_API_KEY": KEY},
            home=home,
            cwd=home,
            system_config=None,
            codex_version=(0, 171, 0),
        ),
        settings,
        lambda plan: True,
        lambda line: None,
    )
    server.stop()
    facts = next(c for c in report.checks if c.id == "ctx.probe").facts
    steps = next(s for s in report.sections if s.id == "probe.steps").rows
    locate = sum(int(str(r[2]).replace(",", "")) for r in steps if r[1] in ("single", "grow", "bisect"))
    return locate, facts["first_fail"] - facts["last_ok"], facts["last_ok"]


def turn_by_turn_spend(window: int, step: int) -> tuple[int, int]:
    server = sim.start(api_key=KEY, context_window=window, token_interval_ms=0, output_tokens=4)
    conv = Conversation(tokens.load())
    spent, size, requests = 0, step, 0
    with httpx.Client(timeout=60) as client:
        while True:
            items, sent = conv.build(size)
            r = client.post(
                server.base_url + "/responses",
                headers={"Authorization": f"Bearer {KEY}"},
                json={"model": "sim-model", "instructions": INSTRUCTIONS, "input": items, "max_output_tokens": 4},
            )
            spent += sent
            requests += 1
            if r.status_code != 200:
                break
            size += step
    server.stop()
    return spent, requests


def main() -> int:
    print(f"machine: {platform.machine()} {platform.system()} Python {platform.python_version()}")
    print(f"{'window':>8} {'precision':>10} {'probe tokens':>13} {'turn-by-turn':>13} {'requests':>9} {'ratio':>7}")
    for window in WINDOWS:
        locate, precision, _ = probe_spend(window)
        manual, requests = turn_by_turn_spend(window, max(1, precision))
        print(f"{window:>8,} {precision:>10,} {locate:>13,} {manual:>13,} {requests:>9} {manual / locate:>6.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
