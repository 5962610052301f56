"""api.turn_two: the request Codex sends after a tool ran (its first request plus two calls and their outputs, as
Codex sends a parallel round; issue 31, issue 38 item 4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from codexdoctor.checks.base import CheckContext, result
from codexdoctor.checks.live.exchanges import Exchanges
from codexdoctor.checks.live.read import first_request_count, human, kind_of_canary, reported_input, user_config
from codexdoctor.codex.request_words import items_said
from codexdoctor.model import CheckResult, Line, Msg, Status
from codexdoctor.net.classify import classify, turn_two_item

if TYPE_CHECKING:
    from codexdoctor.checks.live.plan import Plan
    from codexdoctor.codex.request import TurnTwo
    from codexdoctor.net.exchange import Exchange

ID = "api.turn_two"
TITLE = "Request after a tool call"
TITLE_ZH = "工具调用之后的请求"


def interpret(ctx: CheckContext, plan: Plan, ex: Exchanges) -> CheckResult:
    if ex.turn_two_error is not None:
        raise ex.turn_two_error  # building or sending it failed: this check's crash, not the run's
    kind = kind_of_canary(plan, ex)
    if ex.canary is None or kind is None or not ctx.options.get("canary", True):
        return result(ID, TITLE, Status.SKIP, Msg("skipped (--no-canary)", "已跳过（--no-canary）"), skipped=True)
    if not ctx.options.get("turn_two", True):
        return result(ID, TITLE, Status.SKIP, Msg("skipped (--no-turn-two)", "已跳过（--no-turn-two）"), skipped=True)
    if ex.turn_two is None:
        why = (
            Msg("Codex's first request did not get through", "Codex 的第一个请求没有通过")
            if kind.kind != "ok"
            else Msg(
                'only for Codex\'s own request (wire_api = "responses")',
                '只用于 Codex 自己的请求（wire_api = "responses"）',
            )
            if plan.first is None
            else Msg("the deadline was reached first", "已先到达时限")
        )
        said = Msg("not sent: {why}", "未发送：{why}", why=why)
        return result(ID, TITLE, Status.SKIP, said, skipped=True, reason=str(why))
    request, second = ex.turn_two
    k = classify(second, plan.wire)
    facts = _facts(ctx, plan, ex.canary, request, second)
    n = request.calls
    evidence: list[Line] = [second.line(), *_added(request, n), _counted(facts)]
    if k.kind == "ok":
        summary = Msg(
            "works with {n} tool calls and their outputs ({t:,} tokens)",
            "带着 {n} 次工具调用和它们的输出也能通过（{t:,} 个 token）",
            n=n,
            t=facts["turn_two_tokens"],
        )
        return result(ID, TITLE, Status.PASS, summary, evidence, **facts)
    if ex.turn_two_single is not None and _one_result_passes(plan, ex.turn_two_single, facts, evidence):
        summary = Msg(
            "refuses more than one tool result ({status}); one call and its output work",
            "拒绝多于一个的工具结果（{status}）；一次调用和它的输出可以通过",
            status=second.status if second.status is not None else "?",
        )
        return result(ID, TITLE, Status.FAIL, summary, evidence, **facts)
    failed = result(ID, TITLE, Status.FAIL, human(k.kind, k.said), evidence, **facts)
    return replace(failed, said={"detail": k.said}) if k.said is not None else failed


def _one_result_passes(
    plan: Plan, single_sent: tuple[TurnTwo, Exchange], facts: dict[str, Any], evidence: list[Line]
) -> bool:
    """The two-call request was refused: did the same request with one call and one output pass (a bridge that
    keeps one tool result per round)? Its answer goes into the facts and the evidence either way."""
    single_request, single = single_sent
    single_kind = classify(single, plan.wire).kind
    facts |= {"single_status": single.status, "single_kind": single_kind, "parallel_refused": single_kind == "ok"}
    evidence.append(
        Msg(
            "the same request with one call and one output ({kinds}): {line}",
            "同一个请求只带一次调用和一个输出（{kinds}）：{line}",
            kinds=items_said(single_request.item_kinds),
            line=single.line(),
        )
    )
    return bool(facts["parallel_refused"])


def _added(request: TurnTwo, n: int) -> list[Msg]:
    """What turn two adds to the first request, and that its tool outputs are made up (never run)."""
    made_up = (
        Msg(
            "{n} exec_command calls and their outputs, made up here, never run",
            "{n} 次 exec_command 调用及其输出，都是这里编造的，从未运行",
            n=n,
        )
        if n > 1
        else Msg(
            "one exec_command call and its output, made up here, never run",
            "1 次 exec_command 调用及其输出，是这里编造的，从未运行",
        )
    )
    return [
        Msg(
            "turn two adds {kinds} ({bytes:,} bytes: {made_up}; each output cut as Codex cuts it for this model)",
            "第二轮加上 {kinds}（{bytes:,} 字节：{made_up}；每个输出都按 Codex 对这个模型的方式截断）",
            kinds=items_said(request.item_kinds),
            bytes=request.added_bytes,
            made_up=made_up,
        )
    ]


def _counted(facts: Mapping[str, Any]) -> Msg:
    """Turn two's size in input tokens, and who counted it (the provider, or the estimate)."""
    by = str(facts["turn_two_counted_by"])
    return Msg(
        "turn two: {n:,} input tokens ({by})",
        "第二轮：{n:,} 个输入 token（{by}）",
        n=facts["turn_two_tokens"],
        by=Msg.pair(by, _COUNTED_BY_ZH.get(by, by)),
    )


_COUNTED_BY_ZH = {"provider": "提供方的计数", "estimate": "估计值"}


def _facts(ctx: CheckContext, plan: Plan, canary: Exchange, request: TurnTwo, ex: Exchange) -> dict[str, Any]:
    k = classify(ex, plan.wire)
    first = plan.first
    first_counted, first_by = first_request_count(plan, canary)
    reported = reported_input(ex)
    estimate = (first.tokens if first else 0) + round(request.added_bytes / 3.6)
    text = f"{k.message} {ex.body_excerpt}".lower()
    facts: dict[str, Any] = {
        "kind": k.kind,
        "detail": k.detail,
        "message": k.message,
        "status": ex.status,
        "url": ex.url,
        "item_kinds": list(request.item_kinds),
        "named_item": turn_two_item(text, broad=True) if k.kind not in ("ok", "context_exceeded") else None,
        "attempts": ex.attempts,
        "request_bytes": ex.request_bytes,
        "added_bytes": request.added_bytes,
        "first_request": first_counted,
        "first_counted_by": first_by,
        "turn_two_tokens": reported or estimate,
        "turn_two_counted_by": "provider" if reported else "estimate",
        "reasoning_replayed": "reasoning" in request.item_kinds,
        "html": ex.is_html,
        "user_config": user_config(ctx),
        "model": plan.model,
        "server_window": None,
        "server_request": None,
        "request_id": ex.request_id,
        "started_at": ex.started_at,
        "calls": request.calls,
        "parallel_refused": False,  # two outputs refused where one passed (ex.turn_two_single)
        "single_status": None,
        "single_kind": None,
        "body_excerpt": ex.body_excerpt[:300] if not ex.ok else "",
    }
    if k.kind == "context_exceeded":
        from codexdoctor.net.classify import context_numbers

        facts["server_window"], facts["server_request"] = context_numbers(f"{ex.body_excerpt} {k.message}")
    return facts
