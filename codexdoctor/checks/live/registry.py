"""The live checks, in report order: one module each, and everything else derives from this list (ids, titles in
English and Chinese, the skipped rows when Codex would send nothing, one crash row per check).

A module here has `ID`, `TITLE`, `TITLE_ZH` and `interpret(ctx, plan, exchanges) -> CheckResult`, a pure function of
what the gatherer recorded (pre-commit's `all_languages.py`: a new language is one module and one line)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from codexdoctor import i18n
from codexdoctor.checks.base import CheckContext, crashed, result
from codexdoctor.checks.live import canary, catalog, reach, turn_two, variants, window, wire
from codexdoctor.checks.live.exchanges import Exchanges
from codexdoctor.checks.live.plan import Plan
from codexdoctor.model import CheckResult, Msg, Status


class LiveCheck(Protocol):
    """What a live check module provides (a module satisfies it: its constants and its one function)."""

    ID: str
    TITLE: str
    TITLE_ZH: str

    def interpret(self, ctx: CheckContext, plan: Plan, ex: Exchanges) -> CheckResult: ...


LIVE_CHECKS: tuple[LiveCheck, ...] = (reach, catalog, canary, turn_two, variants, wire, window)

LIVE_IDS: tuple[str, ...] = tuple(c.ID for c in LIVE_CHECKS)
TITLES: dict[str, str] = {c.ID: c.TITLE for c in LIVE_CHECKS}
TITLES_ZH: dict[str, str] = {c.ID: c.TITLE_ZH for c in LIVE_CHECKS}
# i18n sits below checks/ and cannot import this list: it is handed the Chinese titles instead.
i18n.register_check_titles(TITLES_ZH)


def interpret(ctx: CheckContext, plan: Plan, ex: Exchanges) -> list[CheckResult]:
    """Every live check's result from one gathered run; a bug in one is that check's crash, not all seven."""
    results = []
    for check in LIVE_CHECKS:
        try:
            results.append(check.interpret(ctx, plan, ex))
        except Exception as exc:
            results.append(crashed(check.ID, check.TITLE, exc, ctx.redactor))
    return results


def skipped(blockers: list[str]) -> list[CheckResult]:
    """Every live check's row when Codex would send nothing; the note says why."""
    return [
        result(
            c.ID, c.TITLE, Status.SKIP, Msg("skipped (see the note below)", "已跳过（见下方说明）"), blocked_by=blockers
        )
        for c in LIVE_CHECKS
    ]


def all_crashed(exc: BaseException, redact: Callable[[str], str]) -> list[CheckResult]:
    """Every live check's row when gathering the exchanges raised: each of them stands on those exchanges."""
    return [crashed(c.ID, c.TITLE, exc, redact) for c in LIVE_CHECKS]
