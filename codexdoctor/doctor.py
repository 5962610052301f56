"""Orchestration for `check`: resolve config, run checks, apply rules, build the report."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from codexdoctor import config as config_mod
from codexdoctor import secrets
from codexdoctor.checks import STATIC_CHECKS, run_static
from codexdoctor.checks.base import CheckContext
from codexdoctor.model import Report
from codexdoctor.redact import Redactor
from codexdoctor.report import build_report
from codexdoctor.rules import evaluate


@dataclass(frozen=True)
class CheckOptions:
    """What the user asked for; everything that touches the machine is passed in here."""

    env: Mapping[str, str]
    home: Path
    cwd: Path
    overrides: tuple[str, ...] = ()
    profile: str | None = None
    model: str | None = None
    offline: bool = False
    codex_version: tuple[int, ...] | None = None
    system_config: Path | None = Path("/etc/codex/config.toml")
    timeout: float = 10.0
    canary: bool = True
    lang: str = "en"
    extra: Mapping[str, Any] = field(default_factory=dict)


def make_context(opts: CheckOptions) -> CheckContext:
    resolution = config_mod.resolve(opts.env, opts.home, opts.cwd, opts.overrides, opts.profile, opts.model,
                                    opts.system_config)
    redactor = Redactor(secrets.collect(resolution, opts.env), home=str(opts.home))
    return CheckContext(resolution=resolution, env=opts.env, home=opts.home, redactor=redactor,
                        codex_version=opts.codex_version, offline=opts.offline,
                        options={"timeout": opts.timeout, "canary": opts.canary, **opts.extra})


def run_check(opts: CheckOptions) -> tuple[Report, CheckContext]:
    ctx = make_context(opts)
    results = run_static(ctx, STATIC_CHECKS)
    live_ran = False
    notes: list[str] = []
    if opts.offline:
        notes.append("Offline: no request was sent; the key, base_url reachability and model ID were not tested.")
    else:
        from codexdoctor.checks import live  # lazy: pulls in httpx

        live_results, live_notes = live.run_live(ctx, results)
        results += live_results
        notes += live_notes
        live_ran = any(r.status.value in ("pass", "warn", "fail") for r in live_results)
    findings = evaluate(results)
    return build_report("check", ctx, results, findings, live_ran, notes, opts.lang), ctx
