"""The check registry and the runner that guarantees one result per check."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import replace

from codexdoctor.checks import cfg, env, url
from codexdoctor.checks.base import Check, CheckContext, crashed
from codexdoctor.model import CheckResult, redact_line

STATIC_CHECKS: tuple[Check, ...] = (*cfg.CHECKS, *env.CHECKS, *url.CHECKS)


def run_one(check: Check, ctx: CheckContext) -> CheckResult:
    """Run a check; an exception becomes a `crash` result so the rest of the report survives."""
    started = time.perf_counter()
    try:
        res = check.run(ctx)
    except Exception as exc:
        res = crashed(check.id, check.title, exc, ctx.redactor)
    elapsed = (time.perf_counter() - started) * 1000
    # replace(), not a new CheckResult: the words beside the facts (message, reason, said) go with them.
    return ctx.stamp(
        replace(res, evidence=tuple(redact_line(e, ctx.redactor) for e in res.evidence), duration_ms=round(elapsed, 1))
    )


def run_static(ctx: CheckContext, checks: Iterable[Check] = STATIC_CHECKS) -> list[CheckResult]:
    return [run_one(c, ctx) for c in checks]


# Checks outside the static registry that are not the live checks: the probe's, the session logs' and a pasted error's
# rows (commands probe, sessions and diagnose-error build them), and a recorded session's (watch/diagnosis.py).
OTHER_CHECK_IDS: tuple[str, ...] = ("ctx.probe", "ctx.sessions", "ctx.pasted", "ctx.watch")


def live_check_ids() -> tuple[str, ...]:
    """Ids of every network check: the live registry's (checks/live/registry.py), then OTHER_CHECK_IDS. Imported on
    demand, so the static checks (`check --offline`) do not pay for the live package; it never imports httpx."""
    from codexdoctor.checks.live.registry import LIVE_IDS

    return (*LIVE_IDS, *OTHER_CHECK_IDS)


def __getattr__(name: str) -> tuple[str, ...]:
    """`LIVE_CHECK_IDS`, computed from the registry when first read (PEP 562) rather than listed by hand."""
    if name == "LIVE_CHECK_IDS":
        return live_check_ids()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
