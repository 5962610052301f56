"""`codexdoctor check`: every static check, then the live checks, the catalog over their results, the report."""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from codexdoctor.checks import STATIC_CHECKS, run_static
from codexdoctor.checks.base import CheckContext
from codexdoctor.commands.options import CheckOptions, make_context
from codexdoctor.commands.output import PublishOptions, publish
from codexdoctor.common import interrupt
from codexdoctor.model import CheckResult, Msg, Report, Status, say
from codexdoctor.report.build import build_report
from codexdoctor.rules import evaluate


def run_check(opts: CheckOptions) -> tuple[Report, CheckContext]:
    ctx = make_context(opts)
    results = run_static(ctx, STATIC_CHECKS)
    live_ran = False
    notes: list[str | Msg] = []
    if opts.offline:
        notes.append(
            Msg(
                "Offline: no request was sent; the key, base_url reachability and model ID were not tested.",
                "离线模式：未发送任何请求；密钥、base_url 连通性和模型 ID 都未经测试。",
            )
        )
    else:
        from codexdoctor.checks import asfixed, live  # lazy: pulls in httpx

        # Issue 28: the live checks test the config as the certain fixes will leave it, so one run names everything.
        fixed = asfixed.assume_fixed(ctx, results)
        live_ctx, live_static = (fixed.ctx, fixed.static) if fixed else (ctx, results)
        live_results, live_notes = live.run_live(live_ctx, live_static)
        if live.blocked_by_static(live_static):  # nothing was sent: base_url's remedy must not say it was tried
            results = live.with_nothing_sent(results)
        live_ran = any(r.status.value in ("pass", "warn", "fail") for r in live_results)
        if fixed is not None and live_ran:
            assumed = [en for en, _ in fixed.assumed]
            live_results = [replace(r, facts={**r.facts, "as_if_fixed": assumed}) for r in live_results]
            notes.append(fixed.note())
        results += live_results
        notes += live_notes
        ctx = replace(ctx, redactor=live_ctx.redactor)  # a key read from a start-up file is scrubbed everywhere
    if opts.sessions:
        results = with_recent_sessions(ctx, opts, results)
    findings = evaluate(results, lang=opts.lang)
    return build_report("check", ctx, results, findings, live_ran, notes, opts.lang), ctx


RECENT_DAYS = 14
RECENT_FILES = 30  # the newest logs only: `check` stays fast on a ~/.codex of thousands (docs/performance.md)


def with_recent_sessions(ctx: CheckContext, opts: CheckOptions, results: list[CheckResult]) -> list[CheckResult]:
    """Issue 39: `check` is run right after a session broke, and a single request that works says nothing about the
    size it broke at. The active provider and model's failed sessions of the last two weeks are judged as `sessions`
    judges them (a stable break is the context even when the canary passes), and the largest context they reached is
    set beside the window the provider serves (`ctx.window`'s `sessions_peak`)."""
    codex_home = ctx.resolution.codex_home
    if not any((codex_home / name).is_dir() for name in ("sessions", "archived_sessions")):
        return results  # no logs: nothing to import (the session reader costs ~20 ms of start-up)
    from datetime import datetime, timedelta, timezone

    from codexdoctor.commands.sessions import recent_sessions_check

    provider, model = ctx.resolution.provider.id, ctx.resolution.model
    since = (datetime.now(timezone.utc) - timedelta(days=RECENT_DAYS)).isoformat()

    works_now = _canary_passed(results)
    left_out: set[str] = set()

    def mine(d: dict[str, Any]) -> bool:
        ours = (
            d.get("provider") == provider and (not model or d.get("model") == model) and (d.get("start") or "") >= since
        )
        if ours and works_now and met_again(d):
            left_out.add(str(d.get("short_id") or d.get("id")))
            return False
        return ours

    which = (
        Msg(
            "of provider `{p}`, model {m}, in the last {d} days",
            "属于提供方 {p}、模型 {m}（最近 {d} 天）",
            p=provider,
            m=model,
            d=RECENT_DAYS,
        )
        if model
        else Msg("of provider `{p}` in the last {d} days", "属于提供方 {p}（最近 {d} 天）", p=provider, d=RECENT_DAYS)
    )
    window = next((r.facts for r in results if r.id == "ctx.window"), {})
    served = window.get("served")
    # This run's counts: the window the sessions' findings advise is weighed against the same first request and tool
    # round CTX025 names, and the window the provider serves beats what the logs show (issue 40 review).
    counts = {k: v for k in ("first_request", "tool_round", "served") if isinstance(v := window.get(k), int)}
    logs, _ = recent_sessions_check(ctx, opts.home, mine, which, RECENT_FILES, **counts)
    if logs is None:
        return results
    if left_out:
        said = Msg(
            "{n} failed {sessions} left out: {ids} ended in a failure this run's request no longer meets (a key, "
            "model or path refused)",
            "未计入 {n} 个失败的会话：{ids} 以本次请求已不再遇到的失败结束（密钥、模型或路径被拒绝）",
            n=len(left_out),
            sessions="session" if len(left_out) == 1 else "sessions",
            ids=", ".join(sorted(left_out)),
        )
        logs = replace(logs, evidence=(*logs.evidence, said))
    peaks = [(d.get("peak") or 0, d["short_id"]) for d in logs.facts["sessions"]]
    peak, peak_id = max(peaks) if peaks else (0, None)
    failing = {
        **logs.facts,
        "sessions": [_with_served(d, served) for d in logs.facts["sessions"] if d["kind"] != "none"],
    }
    known = next((w for w in logs.facts.get("windows") or [] if w["current"]), None)
    seen = {"sessions_peak": peak, "sessions_peak_id": peak_id} if peak else {}
    seen |= {"sessions_window": known} if known else {}
    out = [replace(r, facts={**r.facts, **seen}) if r.id == "ctx.window" and seen else r for r in results]
    return [*out, ctx.stamp(replace(logs, facts=failing))]


# A failure the canary would meet again if it were still there: the key refused, the model or the path not found, the
# variable missing. When the canary passes now, it was fixed since, and the session that ended in it decides nothing
# (scripts/crosscheck_new_user.py, 2026-12-02: with the key fixed, the real Codex answered while `check` said
# `channel`, CTX013, for the session the old key's 401 had ended). A 5xx, a 429 or a cut stream comes and goes: one
# request that works now does not rule it out, so such a session still counts (issue 39).
MET_AGAIN = re.compile(
    r"\b40[134]\b|unauthorized|forbidden|invalid api key|incorrect api key|does not exist or you do not have access"
    r"|missing environment variable",
    re.I,
)


def met_again(session: Mapping[str, Any]) -> bool:
    """Whether a failed session ended in a failure the canary would meet again (MET_AGAIN)."""
    said = f"{session.get('error') or ''} {session.get('error_info') or ''}"
    return session.get("kind") == "channel" and bool(MET_AGAIN.search(said))


def _canary_passed(results: list[CheckResult]) -> bool:
    canary = next((r for r in results if r.id == "api.canary"), None)
    return canary is not None and canary.status in (Status.PASS, Status.WARN) and canary.facts.get("kind") == "ok"


def _with_served(session: dict[str, Any], served: object) -> dict[str, Any]:
    """A session that overflowed where the log states no window: its window was estimated from the largest context
    that worked. This run knows the one the provider serves (and that the session stayed within it): every finding
    of the screen advises that one (issue 40: CTX012 said 11000 / 8800 beside CTX033's 12000 / 9600)."""
    if (
        isinstance(served, int)
        and session.get("kind") == "context"
        and session.get("real_window")
        and not session.get("server_window")
        and not session.get("truncated_at")
        and (session.get("last_ok") or 0) <= served
    ):
        return {**session, "real_window": served}
    return session


@dataclass(frozen=True)
class CheckCommandOptions:
    """`codexdoctor check`: the check to run and how its report is published."""

    check: CheckOptions
    publish: PublishOptions


def run(opts: CheckCommandOptions) -> None:
    """The command: progress on a terminal's stderr (none on a pipe), then the report.

    `progress(msg, keep=False)` shows `msg` in the run's language on the one line a terminal rewrites in place
    (common/status_line); `keep` puts it on a line that stays. After a Ctrl-C the last progress line is left as it
    is: "Interrupted." goes on the next line (common/interrupt.say)."""
    check = opts.check
    status = None
    if sys.stderr is not None and sys.stderr.isatty():
        from codexdoctor.common.status_line import StatusLine

        status = line = StatusLine(sys.stderr)

        def progress(msg: Msg | str, keep: bool = False) -> None:
            if keep:
                line.keep(say(msg, check.lang))
            else:
                line.show(say(msg, check.lang))

        check = replace(check, extra={**check.extra, "progress": progress})
    try:
        report, ctx = run_check(check)
    finally:
        if status is not None and not interrupt.caught():
            status.clear()
    publish(report, ctx.redactor, opts.publish)
