"""The check registry and the runner that guarantees one result per check."""

from __future__ import annotations

import time
from collections.abc import Iterable

from codexdoctor.checks import cfg, env, url
from codexdoctor.checks.base import Check, CheckContext, crashed
from codexdoctor.model import CheckResult

STATIC_CHECKS: tuple[Check, ...] = (*cfg.CHECKS, *env.CHECKS, *url.CHECKS)


def run_one(check: Check, ctx: CheckContext) -> CheckResult:
    """Run a check; an exception becomes a `crash` result so the rest of the report survives."""
    started = time.perf_counter()
    try:
        res = check.run(ctx)
    except Exception as exc:
        res = crashed(check.id, check.title, exc, ctx.redactor)
    elapsed = (time.perf_counter() - started) * 1000
    return ctx.stamp(
        CheckResult(
            res.id,
            res.title,
            res.status,
            res.summary,
            res.facts,
            tuple(ctx.redactor(e) for e in res.evidence),
            round(elapsed, 1),
        )
    )


def run_static(ctx: CheckContext, checks: Iterable[Check] = STATIC_CHECKS) -> list[CheckResult]:
    return [run_one(c, ctx) for c in checks]


# Ids of the network checks in checks/live.py, listed here so the catalog can be
# validated without importing httpx.
LIVE_CHECK_IDS: tuple[str, ...] = (
    "net.reach",
    "api.catalog",
    "api.canary",
    "api.turn_two",
    "api.variants",
    "api.wire",
    "ctx.window",
    "ctx.probe",
    "ctx.sessions",
    "ctx.pasted",
    "ctx.watch",  # made by codexdoctor/watch/diagnosis.py from a recording
)


def live_check_ids() -> tuple[str, ...]:
    return LIVE_CHECK_IDS
