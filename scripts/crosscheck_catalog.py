"""Compare the window codexdoctor says Codex assumes with the window the real Codex CLI 0.171 logs (issue 38, item 1).

Usage (inside a network namespace with only loopback, since Codex also tries outside hosts):
    ../shared/tools/in-netns env PYTHONPATH=$PWD python scripts/crosscheck_catalog.py [--check] [CODEX_BINARY]
CODEX_BINARY defaults to the binary ../shared/tools/real-codex installed (scripts/regen_codex_catalog.py finds it).

Each case is a model name (in Codex's embedded catalog, not in it, dated, namespaced, in other capitals), optionally
with model_context_window / model_auto_compact_token_limit, a `model_catalog_json` file, or a provider that gets its
key from an `auth` command and serves a /models (Codex-format or OpenAI-format). `codex exec "say hi"` runs against
the simulator; its session log (rollout) holds the window it used (`model_context_window` of task_started and
token_count) and its stderr the fallback warning. codexdoctor's answer is codex.models.assumed_window() on the same
inputs, and `codexdoctor sessions` reads the same log. A case agrees when the three give the same window and
codexdoctor names the fallback exactly when Codex warns; a case where Codex refuses to start agrees when codexdoctor
refuses the same input. `--check` also runs `codexdoctor check` and compares its ctx.window `effective` fact (it
agrees once checks/live.py calls assumed_window()). Results: docs/codex-behaviour.md, "Model metadata".
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from regen_codex_catalog import CACHE, embedded_catalog, find_binary

from codexdoctor import sim
from codexdoctor.codex.model_catalog import parse_catalog, read_catalog_file, reads_provider_models
from codexdoctor.codex.models import assumed_window, setting_problem
from codexdoctor.sim.catalog import CatalogRoutes

KEY = "sk-crosscheck-0123456789abcdef"
ENV_KEY = 'env_key = "SIM_API_KEY"\n'
AUTH_COMMAND = f'[model_providers.sim.auth]\ncommand = "printf"\nargs = ["%s", "{KEY}"]\n'
OPENAI_LIST = "openai-list"  # the simulator's own /models: {"object": "list", "data": [{"id": ...}]}


@dataclass
class Case:
    model: str
    extra: str = ""  # top-level config lines
    provider: str = ENV_KEY  # how the provider gets its key
    catalog_file: list[dict[str, Any]] | None = None  # entries of a model_catalog_json
    served: list[dict[str, Any]] | str = field(default_factory=list)  # the provider's /models (Codex format)
    label: str = ""


def entry(template: dict[str, Any], slug: str, **fields: Any) -> dict[str, Any]:
    """A full Codex catalog entry (the embedded gpt-5.5's fields) with another slug and window."""
    out = {**template, "slug": slug, "display_name": slug}
    for k, v in fields.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out


def cases(template: dict[str, Any]) -> list[Case]:
    mine = entry(template, "my-model", context_window=64000, max_context_window=64000)
    return [
        Case("gpt-5.5", label="in the catalog"),
        Case("gpt-6.1-sol", label="in the catalog"),
        Case("gpt-5.5-2026-01-15", label="dated variant"),
        Case("gpt-6.2-sol-2026-01-01", label="dated variant"),
        Case("GPT-5.5", label="other capitals"),
        Case(" gpt-5.5", label="leading space"),
        Case("openrouter/gpt-6.2-sol", label="one namespace"),
        Case("a.b/gpt-6.2-sol", label="namespace with a dot"),
        Case("gpt-4o", label="not in the catalog"),
        Case("gpt-4.1", label="not in the catalog"),
        Case("o3", label="not in the catalog"),
        Case("deepseek-chat", label="not in the catalog"),
        Case("gpt-4o", "model_context_window = 1000000\n", label="above the fallback's max"),
        Case("gpt-5.5", "model_context_window = 400000\n", label="above max_context_window"),
        Case("gpt-4o", "model_context_window = 32000\n", label="config window"),
        Case("gpt-6.2-sol", "model_context_window = 1000000\n", label="capped at 872000"),
        Case("gpt-4o", "model_context_window = 100000\nmodel_auto_compact_token_limit = 50000\n", label="both set"),
        Case("gpt-4o", "model_context_window = 0\n", label="zero window"),
        Case("gpt-4o", "model_context_window = -5\n", label="negative window"),
        Case("gpt-4o", "model_context_window = 100000\nmodel_auto_compact_token_limit = 0\n", label="zero limit"),
        Case("gpt-4o", 'model_context_window = "32000"\n', label="a string"),
        Case("gpt-4o", "model_context_window = 32000.0\n", label="a float"),
        Case("gpt-4o", "model_auto_compact_token_limit = true\n", label="a boolean"),
        Case("my-model", catalog_file=[mine], label="model_catalog_json"),
        Case("my-model-2026-01-01", catalog_file=[mine], label="model_catalog_json, dated"),
        Case("gpt-5.5", catalog_file=[mine], label="model_catalog_json replaces"),
        Case(
            "my-model",
            catalog_file=[entry(template, "my-model", context_window=None, max_context_window=64000)],
            label="catalog: only max_context_window",
        ),
        Case(
            "my-model",
            catalog_file=[entry(mine, "my-model", effective_context_window_percent=50)],
            label="catalog: its own percent",
        ),
        Case("my-model", catalog_file=[{"slug": "my-model", "context_window": 64000}], label="catalog refused"),
        Case("my-model", provider=AUTH_COMMAND, served=[mine], label="auth command, /models adds"),
        Case(
            "gpt-5.5",
            provider=AUTH_COMMAND,
            served=[entry(template, "gpt-5.5", context_window=100000)],
            label="auth command, /models replaces",
        ),
        Case("my-model", provider=AUTH_COMMAND, served=OPENAI_LIST, label="auth command, OpenAI list"),
        Case("my-model", served=[mine], label="env_key: /models unread"),
    ]


def rollout_window(codex_home: Path) -> int | None:
    for path in sorted(codex_home.glob("sessions/**/rollout-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                payload = json.loads(line).get("payload") or {}
            except ValueError:
                continue
            if payload.get("type") in ("task_started", "turn_started") and isinstance(
                payload.get("model_context_window"), int
            ):
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


def check_window(env: dict[str, str], home: Path) -> object:
    from codexdoctor.commands.check import run_check
    from codexdoctor.commands.options import CheckOptions

    report, _ = run_check(
        CheckOptions(env=env, home=home.parent, cwd=home, system_config=None, codex_version=(0, 171, 0), timeout=10)
    )
    return next((c.facts for c in report.checks if c.id == "ctx.window"), {}).get("effective")


def ours(case: Case, catalog_path: Path | None, provider_toml: str) -> tuple[int | None, bool, str | None]:
    """codexdoctor's effective window, fallback flag and refusal for the case, from the same inputs Codex had."""
    import tomllib

    config = tomllib.loads(case.extra + "[p]\n" + provider_toml.replace("[model_providers.sim.auth]", "[p.auth]"))
    for name in ("model_context_window", "model_auto_compact_token_limit"):
        problem = setting_problem(config.get(name))
        if problem:
            return None, False, f"Error loading config.toml: {problem}"
    model_catalog = None
    if catalog_path is not None:
        model_catalog, refused = read_catalog_file(catalog_path)
        if refused:
            return None, False, refused
    provider_models = None
    if reads_provider_models(config["p"]):
        body = (
            {"object": "list", "data": [{"id": case.model}]} if case.served == OPENAI_LIST else {"models": case.served}
        )
        provider_models, _ = parse_catalog(body)
    w = assumed_window(
        case.model,
        config.get("model_context_window"),
        config.get("model_auto_compact_token_limit"),
        model_catalog=model_catalog,
        provider_models=provider_models,
    )
    return w.effective, w.meta.fallback, None


def _words(text: str) -> str:
    text = re.sub(r" \(models\[\d+\]\)", "", text)
    return re.sub(r"`[^`]*catalog\.json`", "`<path>`", text).split(" at line ")[0]


def run_case(codex: str, case: Case, with_check: bool) -> tuple[str, ...]:
    served = case.served

    def models(self: CatalogRoutes) -> dict[str, Any]:
        if served == OPENAI_LIST:
            return {"object": "list", "data": [{"id": m, "object": "model"} for m in self.cfg.models]}
        return {"models": served}

    CatalogRoutes._models = models  # type: ignore[method-assign]
    home = Path(tempfile.mkdtemp(prefix="cdx-catalog-"))
    catalog_path = None
    extra = case.extra
    if case.catalog_file is not None:
        catalog_path = home / "catalog.json"
        catalog_path.write_text(json.dumps({"models": case.catalog_file}), encoding="utf-8")
        extra += f"model_catalog_json = {json.dumps(str(catalog_path))}\n"
    with sim.start(api_key=KEY, models=(case.model,)) as server:
        (home / "config.toml").write_text(
            f'model = {json.dumps(case.model)}\nmodel_provider = "sim"\n{extra}'
            f'[model_providers.sim]\nname = "sim"\nbase_url = "{server.base_url}"\n{case.provider}',
            encoding="utf-8",
        )
        env = {
            "PATH": os.environ["PATH"],
            "HOME": str(home.parent),
            "CODEX_HOME": str(home),
            "SIM_API_KEY": KEY,
            "CODEXDOCTOR_NO_CODEX_PROBE": "1",
            "CODEX_CLI_CACHE": str(CACHE),
            "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        }
        mine, mine_fallback, mine_refused = ours(case, catalog_path, case.provider)
        checked = check_window(env, home) if with_check else "-"
        server.records.clear()  # count Codex's own requests only
        proc = subprocess.run(
            [codex, "exec", "--skip-git-repo-check", "say hi"],
            env=env,
            cwd=home,
            capture_output=True,
            text=True,
            timeout=90,
            stdin=subprocess.DEVNULL,
        )
        gets = sum(1 for r in server.records if r.method == "GET")
    logged = rollout_window(home)
    warned = "Model metadata for" in proc.stderr
    refused = next((ln for ln in proc.stderr.splitlines() if ln.startswith("Error")), None)
    shown = sessions_window(env) if logged is not None else None
    shutil.rmtree(home, ignore_errors=True)
    if refused or mine_refused:
        # the same refusal: Codex's line holds codexdoctor's words (the path aside)
        agree = bool(refused and mine_refused and logged is None and _words(mine_refused) in _words(refused))
        codex_said, ours_said = "refused", "refused" if mine_refused else str(mine)
    else:
        # `sessions` shows no window for a logged 0 or less (nothing to measure a session against): not a miss
        shown_ok = shown == logged or (logged is not None and logged <= 0 and shown is None)
        agree = mine == logged and shown_ok and mine_fallback == warned and (not with_check or checked == logged)
        codex_said, ours_said = str(logged), str(mine)
    return (
        f"{case.model!r}",
        case.label,
        " ".join(x for x in case.extra.strip().splitlines()),
        ours_said,
        codex_said,
        str(shown if shown is not None else "-"),
        str(checked),
        f"{'fb' if mine_fallback else '-'}/{'fb' if warned else '-'}",
        str(gets),
        "yes" if agree else "NO",
        _words(refused or ""),
    )


def main(argv: list[str]) -> int:
    with_check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    codex = args[0] if args else str(find_binary())
    template = next(m for m in embedded_catalog(Path(codex).read_bytes())[1]["models"] if m["slug"] == "gpt-5.5")
    header = ("model", "case", "config", "codexdoctor", "codex log", "sessions", "check", "fallback", "GET", "agree")
    rows = [run_case(codex, case, with_check) for case in cases(template)]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print(
            "  ".join(str(v).ljust(w) for v, w in zip(row, widths, strict=False))
            + (f"  {row[10]}" if len(row) > 10 else "")
        )
    agreed = sum(r[9] == "yes" for r in rows)
    print(f"{agreed} of {len(rows)} agree")
    return 0 if agreed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
