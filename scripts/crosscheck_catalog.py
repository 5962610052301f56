"""Compare the window codexdoctor says Codex assumes with the window the real Codex CLI 0.171 logs (issue 38, item 1).

Usage (inside a network namespace with only loopback, since Codex also tries outside hosts):
    ../shared/tools/in-netns python scripts/crosscheck_catalog.py [CODEX_BINARY]
Each case is a model name (in Codex's embedded catalog, not in it, dated, namespaced, in other capitals) and
optionally model_context_window / model_auto_compact_token_limit. `codexdoctor check` runs first (its ctx.window
facts: the effective window Codex assumes and where it compacts), then `codex exec "say hi"` with the same files;
Codex's session log (rollout) holds the window it used (`model_context_window` of task_started / token_count), and
its stderr the fallback warning. `codexdoctor sessions` then reads the same log. A case agrees when all three give
the same window and codexdoctor names the fallback exactly when Codex warns. Results: docs/codex-behaviour.md.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crosscheck_config_semantics import CODEX, KEY

from codexdoctor import sim
from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions

# (model as written, extra top-level config)
CASES = [
    ("gpt-5.5", ""),
    ("gpt-6.1-sol", ""),
    ("gpt-6.2-sol-2026-01-01", ""),
    ("openrouter/gpt-6.2-sol", ""),
    ("GPT-6.2-SOL", ""),
    ("gpt-4o", ""),
    ("gpt-4.1", ""),
    ("o3", ""),
    ("deepseek-chat", ""),
    ("gpt-4o", "model_context_window = 1000000\n"),
    ("gpt-5.5", "model_context_window = 400000\n"),
    ("gpt-4o", "model_context_window = 32000\n"),
    ("gpt-6.2-sol", "model_context_window = 1000000\n"),
]


def rollout_window(codex_home: Path) -> int | None:
    for path in sorted(codex_home.glob("sessions/**/rollout-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                payload = json.loads(line).get("payload") or {}
            except ValueError:
                continue
            if payload.get("type") == "task_started" and isinstance(payload.get("model_context_window"), int):
                return int(payload["model_context_window"])
            info = payload.get("info") if payload.get("type") == "token_count" else None
            if isinstance(info, dict) and isinstance(info.get("model_context_window"), int):
                return int(info["model_context_window"])
    return None


def sessions_window(env: dict[str, str]) -> int | None:
    done = subprocess.run(
        [sys.executable, "-m", "codexdoctor", "sessions", "--format", "json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    try:
        report = json.loads(done.stdout)
    except ValueError:
        return None
    for check in report.get("checks", []):
        for s in (check.get("facts") or {}).get("sessions") or []:
            if isinstance(s.get("window"), int):
                return int(s["window"])
    return None


def main() -> int:
    print(f"{'model':26} {'extra':32} {'codexdoctor':>12} {'codex log':>10} {'sessions':>9} fallback(cd/codex) agree")
    disagree = 0
    for model, extra in CASES:
        with sim.start(api_key=KEY, models=(model,)) as server:
            home = Path(tempfile.mkdtemp(prefix="cdx-catalog-"))
            (home / "config.toml").write_text(
                f'model = {json.dumps(model)}\nmodel_provider = "sim"\n{extra}'
                f'[model_providers.sim]\nname = "sim"\nbase_url = "{server.base_url}"\nenv_key = "SIM_API_KEY"\n'
            )
            env = {
                "PATH": os.environ["PATH"],
                "HOME": str(home.parent),
                "CODEX_HOME": str(home),
                "SIM_API_KEY": KEY,
                "CODEXDOCTOR_NO_CODEX_PROBE": "1",
                "CODEX_CLI_CACHE": os.environ.get(
                    "CODEX_CLI_CACHE", str(Path.home() / ".cache" / "codexdoctor-dev" / "codex-cli")
                ),
            }
            report, _ = run_check(
                CheckOptions(
                    env=env, home=home.parent, cwd=home, system_config=None, codex_version=(0, 171, 0), timeout=10
                )
            )
            window = next((c.facts for c in report.checks if c.id == "ctx.window"), {})
            ours = window.get("effective")
            ours_fallback = bool(window.get("fallback_metadata"))
            proc = subprocess.run(
                [CODEX, "exec", "--skip-git-repo-check", "say hi"],
                env=env,
                cwd=home,
                capture_output=True,
                text=True,
                timeout=90,
                stdin=subprocess.DEVNULL,
            )
            logged = rollout_window(home)
            warned = "Model metadata for" in proc.stderr
            shown = sessions_window(env)
            shutil.rmtree(home, ignore_errors=True)
        agree = ours == logged == shown and ours_fallback == warned
        disagree += not agree
        print(
            f"{model:26} {extra.strip():32} {ours!s:>12} {logged!s:>10} {shown!s:>9} "
            f"{ours_fallback!s:>5}/{warned!s:<5}      {'yes' if agree else 'NO'}"
        )
    print(f"{len(CASES) - disagree} of {len(CASES)} agree")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
