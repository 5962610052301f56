"""Reading the probe's steps: the stages, the break and its stability, the usable window, as the ctx.probe facts."""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from typing import Any

from codexdoctor.checks.probe.steps import (
    CONTEXT_KINDS,
    INTERRUPTED,
    ProbeOutcome,
    ProbeSettings,
    Step,
    estimate,
    tolerance,
)
from codexdoctor.codex.sizes import CODEX_FIRST_REQUEST_TOKENS, window_settings
from codexdoctor.model import CheckResult, Msg, Status
from codexdoctor.net.classify import turn_two_item


def linear_slope(points: list[tuple[int, float]]) -> float | None:
    """Least-squares slope of time to first token, in ms per 1000 tokens."""
    if len(points) < 2:
        return None
    xs = [p[0] / 1000 for p in points]
    ys = [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    var = sum((x - mx) ** 2 for x in xs)
    if var == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / var


def analyse(
    outcome: ProbeOutcome, settings: ProbeSettings, first_tokens: int = CODEX_FIRST_REQUEST_TOKENS
) -> dict[str, Any]:
    """Facts for the CTX rules: stages, boundary, stability, the usable window and what to do about it.
    `first_tokens`: Codex's first request for this user, as `check` counts it (the measured fallback otherwise)."""
    facts: dict[str, Any] = {
        **_latency(outcome, settings),
        **_failures(outcome),
        **_bracket(outcome, settings),
        "first_request": first_tokens,
    }
    # Issue 31: the session's turns carry Codex's tool items. A failure that names one of them, while single questions
    # pass, is the gateway refusing those items at any size: the channel, not a window, whatever the sizes say.
    failures = [s for s in _session(outcome) if not s.ok]
    item_fault = next(
        (
            (s, item)
            for s in failures
            if (item := turn_two_item(f"{s.detail} {s.line}", broad=True)) and s.kind not in CONTEXT_KINDS
        ),
        None,
    )
    if item_fault is not None and facts["singles_ok"]:
        step, item = item_fault
        facts.update(
            item_fault={
                "item": item,
                "sent": step.sent,
                "status": step.status,
                "detail": step.detail,
                "line": step.line,
            },
            stable=None,
            context_failure=False,
        )
        return facts
    reached_published = bool(outcome.published and outcome.max_context >= outcome.published)
    if facts["no_break"] and not reached_published:
        facts.update(_further(outcome, settings, first_tokens))
    usable = facts["usable"]
    if usable and (outcome.first_fail is not None or facts["no_break"]):  # a partial run proves no window yet
        # Measured: the largest request that worked, turned into settings as every command does; or, when the break
        # lies where the provider says it does, its published window (issue 40: `check` advised 12000 / 9600 from
        # the published window and `probe` 11918 / 9500 from the same break: one window, one advice).
        confirmed = _confirms_published(outcome, facts, settings)
        facts["suggest_from"] = "published" if confirmed else "measured"
        advised = outcome.published if confirmed and outcome.published else usable
        facts["suggest_window"], facts["suggest_compact"] = window_settings(advised, first_tokens)
        facts["turns_per_session"] = turns_within(usable, settings.turn_tokens, first_tokens)
        # Issue 40: "Turns per session …: 3" read as a fact when the window was only known to be at least 21,289.
        # Every request that worked proves the window at least that large; only a break confirmed at one size
        # bounds it from above, and then the number is the window's own.
        facts["turns_bound"] = "about" if facts.get("stable") else "at least"
    return facts


def _confirms_published(outcome: ProbeOutcome, facts: Mapping[str, Any], settings: ProbeSettings) -> bool:
    """A stable break at the window the provider publishes: everything up to it worked and just above it failed,
    within the search's precision (our count and the provider's differ by a few tokens)."""
    published, usable, first_fail = outcome.published, facts.get("usable"), outcome.first_fail
    if not (published and usable and first_fail and facts.get("stable")):
        return False
    slack = tolerance(settings, published)
    return bool(usable - slack <= published <= first_fail + slack)


def turns_within(window: int, turn_tokens: int, first_tokens: int = CODEX_FIRST_REQUEST_TOKENS) -> int:
    """How many turns of `turn_tokens` fit on top of Codex's first request and stay under 70% of `window`."""
    return max(0, (int(window * 0.7) - first_tokens) // turn_tokens)


def _answered(outcome: ProbeOutcome) -> list[Step]:
    """The steps that came back: a request Ctrl-C cut short is listed and counted, never read as an answer."""
    return [s for s in outcome.steps if s.kind != INTERRUPTED]


def _session(outcome: ProbeOutcome) -> list[Step]:
    """The growing session's steps (grow, bisect, below, above): the single questions and the cache step aside."""
    return [s for s in _answered(outcome) if s.phase not in ("single", "cache")]


def _latency(outcome: ProbeOutcome, settings: ProbeSettings) -> dict[str, Any]:
    """Stage 1 (the first token comes later as the session grows) and stage 2 (stalls mid-answer)."""
    singles = [s for s in _answered(outcome) if s.phase == "single"]
    singles_ok = [s for s in singles if s.ok]
    baseline = (
        statistics.median([s.ttft_ms for s in singles_ok if s.ttft_ms is not None])
        if singles_ok and any(s.ttft_ms is not None for s in singles_ok)
        else None
    )
    points = [(s.sent, s.ttft_ms) for s in _session(outcome) if s.ok and s.ttft_ms is not None]
    slope = linear_slope(points)
    largest = max(points, default=None)
    ratio = (largest[1] / baseline) if largest and baseline and baseline > 0 else None
    stalls = [
        s for s in _answered(outcome) if s.max_gap_ms is not None and s.max_gap_ms >= settings.stall_threshold_s * 1000
    ]
    return {
        "singles": len(singles),
        "singles_ok": len(singles_ok),
        "baseline_ttft_ms": baseline,
        "single_kinds": sorted({s.kind for s in singles if not s.ok}),
        "slope_ms_per_1k": round(slope, 1) if slope is not None else None,
        "largest_ok": largest[0] if largest else None,
        "largest_ttft_ms": largest[1] if largest else None,
        "ttft_ratio": round(ratio, 1) if ratio is not None else None,
        # Growth means the trend rises too: one slow request at the largest size after faster ones is not growth.
        "stage1": bool(
            ratio
            and ratio >= 2.5
            and largest
            and baseline is not None
            and largest[1] - baseline >= 300
            and slope is not None
            and slope > 0
        ),
        "stall_count": len(stalls),
        "longest_stall_ms": max((s.max_gap_ms or 0 for s in stalls), default=0),
        "stall_threshold_s": settings.stall_threshold_s,
        "stage2": bool(stalls),
    }


def _failures(outcome: ProbeOutcome) -> dict[str, Any]:
    """Stage 3: which requests of the session failed, how, and which failures say nothing about the window."""
    session = _session(outcome)
    failures = [s for s in session if not s.ok]
    kinds = sorted({s.kind for s in failures})
    # Channel failures at or above the break (502, reset, timeout): evidence about the channel, never the window.
    floor = outcome.last_ok or 0
    channel_above = [s for s in failures if s.kind not in CONTEXT_KINDS and s.sent > floor]
    truncated = [s for s in session if s.kind == "truncated"]
    return {
        "failure_kinds": kinds,
        "stage3": bool(failures),
        "context_kinds": [k for k in kinds if k in CONTEXT_KINDS],
        "channel_above": [{"sent": s.sent, "kind": s.kind, "status": s.status} for s in channel_above],
        "channel_above_kinds": sorted({s.kind for s in channel_above}),
        "published": outcome.published,
        "context_failure": any(k in CONTEXT_KINDS for k in kinds),
        "truncated": bool(truncated),
        "truncated_at": truncated[0].sent if truncated else None,
        "reported_at_truncation": truncated[0].reported_input if truncated else None,
    }


def _bracket(outcome: ProbeOutcome, settings: ProbeSettings) -> dict[str, Any]:
    """Where the break lies, how sure that is, what the search spent, and the usable window."""
    usable = outcome.last_ok
    # The provider's own count of the largest request that worked wins over ours (issue 31): its tokenizer and
    # template are the ones its window, and Codex's token_count, are measured in.
    counted = next(
        (
            s.reported_input
            for s in reversed(_session(outcome))
            if s.ok and s.sent == outcome.last_ok and isinstance(s.reported_input, int) and s.reported_input > 0
        ),
        None,
    )
    if usable and counted:
        usable = counted
    answered = _answered(outcome)
    singles_ok = any(s.ok for s in answered if s.phase == "single")
    # Review 1, points 13 and 14: CTX010 said "works up to (none) tokens" after the single questions alone, and
    # "works up to 1,004" when the prefix-cache requests of 4,043 tokens had worked: the largest request that worked,
    # whatever its phase, and the single question's size for a probe that sent nothing larger.
    worked = [s.sent for s in answered if s.ok and s.phase != "single"]
    return {
        "last_ok": outcome.last_ok,
        "first_fail": outcome.first_fail,
        "stable": outcome.stable,
        "precision_tokens": (outcome.first_fail - outcome.last_ok) if outcome.last_ok and outcome.first_fail else None,
        "max_context": outcome.max_context,
        "no_break": outcome.first_fail is None and outcome.stopped is None and singles_ok,
        "stopped": outcome.stopped,
        "spent": outcome.spent,
        "budget": settings.budget,
        "estimate_tokens": outcome.estimate_tokens,
        "estimate_requests": outcome.estimate_requests,
        "requests": len(outcome.steps) + outcome.resent,
        "worked_up_to": max(worked, default=None),
        "single_tokens": next((s.sent for s in outcome.steps if s.phase == "single"), None),
        "larger_sent": any(s.phase != "single" for s in outcome.steps),
        "tokenizer": outcome.tokenizer,
        "exact_tokens": outcome.exact_tokens,
        "usable": usable,
        "usable_counted_by": "provider" if counted else "estimate",
        "turn_tokens": settings.turn_tokens,
        "cache": outcome.cache,
        "cache_verdict": (outcome.cache or {}).get("verdict"),
    }


def _further(outcome: ProbeOutcome, settings: ProbeSettings, first_tokens: int) -> dict[str, Any]:
    """Issue 28: "no break up to N" where N is where the budget or --max-context ended is not "OK": the window is
    at least N, and whether Codex's sessions fit is unknown. Say so, with the command that goes further."""
    return {
        "further_cmd": further_command(settings, outcome.max_context, first_tokens),
        "inconclusive_reason": str(no_break_reason(outcome.max_context)),
    }


def further_command(settings: ProbeSettings, max_context: int, first_tokens: int) -> str:
    """The probe that goes further than `max_context`: twice as far, and at least twice Codex's first request (review
    1, point 32: doubling a range under that request can still say nothing of a session), with the budget its plan
    needs. The plan's warning (commands/probe.py) and CTX009 give this same command."""
    further = max(2 * max_context, -(-2 * first_tokens // 1000) * 1000)
    needed = estimate(settings, further, 100)[1]
    return f"codexdoctor probe --max-context {further} --budget {max(settings.budget, -(-needed // 10000) * 10000)}"


def no_break_reason(max_context: int) -> Msg:
    return Msg(
        "no break up to {n:,} tokens, where this probe's range ended: the window is at least that, and the break "
        "lies beyond it",
        "直到 {n:,} 个 token 都没有断开，而这正是本次探测范围的终点：窗口至少有这么大，断点在更远处",
        n=max_context,
    )


def stopped_reason(stopped: str, spent: int) -> Msg:
    """Why a probe that stopped early decides nothing (commands/probe.py writes its English as the fact)."""
    where = {
        "budget": Msg("at the budget", "在预算处"),
        "deadline": Msg("at the deadline", "在时限处"),
        "interrupted": Msg("by Ctrl-C", "因 Ctrl-C 而"),
        "requests": Msg("at the planned number of requests", "在计划的请求数处"),
    }.get(stopped) or Msg.pair(stopped, stopped)
    return Msg(
        "the probe stopped {where} before locating and confirming the break ({n:,} input tokens spent)",
        "探测{where}停止，尚未定位并确认断点（已消耗 {n:,} 个输入 token）",
        where=where,
        n=spent,
    )


def _reason(facts: Mapping[str, Any]) -> Msg | None:
    """The inconclusive reason in both languages: the one of the two Msgs whose English is the fact."""
    fact = facts.get("inconclusive_reason")
    candidates = [no_break_reason(facts["max_context"])] if isinstance(facts.get("max_context"), int) else []
    if facts.get("stopped") and isinstance(facts.get("spent"), int):
        candidates.append(stopped_reason(str(facts["stopped"]), facts["spent"]))
    return next((m for m in candidates if str(m) == fact), None)


def probe_result(facts: Mapping[str, Any]) -> CheckResult:
    """The probe's facts as the ctx.probe check result the CTX rules read."""
    if facts.get("stable") is not None or facts.get("truncated") or 0 < facts["singles_ok"] < facts["singles"]:
        status = Status.FAIL
    elif facts.get("stage1") or facts.get("stage2") or facts.get("stopped") or facts.get("inconclusive_reason"):
        status = Status.WARN
    elif facts["singles_ok"] == 0:
        status = Status.SKIP
    else:
        status = Status.PASS
    summary = _summary(facts)
    evidence = _evidence(facts)
    return CheckResult(
        "ctx.probe",
        "Session probe",
        status,
        str(summary),
        facts,
        tuple(evidence),
        message=summary,
        reason=_reason(facts),
    )


def _evidence(facts: Mapping[str, Any]) -> list[Msg]:
    """The probe's evidence lines: the single questions, what it spent, the first-token slope."""
    ok, n = facts["singles_ok"], facts["singles"]
    evidence = [
        Msg(
            "{ok}/{n} single questions ok, median first token {ms:,.0f} ms",
            "单个问题 {ok}/{n} 个成功，首字延迟中位数 {ms:,.0f} ms",
            ok=ok,
            n=n,
            ms=facts["baseline_ttft_ms"],
        )
        if facts.get("baseline_ttft_ms") is not None
        else Msg("{ok}/{n} single questions ok", "单个问题 {ok}/{n} 个成功", ok=ok, n=n),
        Msg(
            "{requests} requests, {spent:,} input tokens (budget {budget:,})",
            "{requests} 个请求，{spent:,} 个输入 token（预算 {budget:,}）",
            requests=facts["requests"],
            spent=facts["spent"],
            budget=facts["budget"],
        ),
    ]
    if facts.get("slope_ms_per_1k") is not None:
        evidence.append(
            Msg(
                "first-token slope {slope:,} ms per 1K tokens; ratio {ratio}x",
                "首字延迟斜率：每 1K 个 token {slope:,} ms；比值 {ratio}x",
                slope=facts["slope_ms_per_1k"],
                ratio=str(facts.get("ttft_ratio")),
            )
        )
    return evidence


def _summary(facts: Mapping[str, Any]) -> Msg:
    """The probe's row: where it breaks, or why it says nothing of that."""
    if facts.get("last_ok") and facts.get("first_fail"):
        last_ok, first_fail = facts["last_ok"], facts["first_fail"]
        if facts.get("stable"):
            return Msg(
                "breaks between {last_ok:,} and {first_fail:,} tokens (stable)",
                "在 {last_ok:,} 到 {first_fail:,} 个 token 之间断开（稳定）",
                last_ok=last_ok,
                first_fail=first_fail,
            )
        if facts.get("stable") is False:
            return Msg(
                "breaks between {last_ok:,} and {first_fail:,} tokens (unstable)",
                "在 {last_ok:,} 到 {first_fail:,} 个 token 之间断开（不稳定）",
                last_ok=last_ok,
                first_fail=first_fail,
            )
        return Msg(
            "breaks between {last_ok:,} and {first_fail:,} tokens",
            "在 {last_ok:,} 到 {first_fail:,} 个 token 之间断开",
            last_ok=last_ok,
            first_fail=first_fail,
        )
    if facts["singles_ok"] == 0:
        return Msg("single question failed; session not probed", "单次提问失败；未做会话探测")
    if facts.get("no_break"):
        return Msg("no break up to {n:,} tokens", "直到 {n:,} 个 token 都没有断开", n=facts["max_context"])
    if facts.get("stopped") == "interrupted":
        return Msg("stopped by Ctrl-C", "因 Ctrl-C 而停止")
    if facts.get("stopped") == "budget":
        return Msg("stopped at the budget", "在预算处停止")
    if facts.get("stopped") == "deadline":
        return Msg("stopped at the deadline", "在时限处停止")
    if facts.get("stopped") == "requests":
        return Msg("stopped at the planned number of requests", "在计划的请求数处停止")
    said = f"stopped at the {facts.get('stopped')}"
    return Msg.pair(said, said)
