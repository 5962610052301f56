"""api.canary: Codex's own first request, sent with the real key, and what its answer says (diagnose-error and the
probe read a pasted or probed answer through `canary_result` too)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from codexdoctor.checks.base import CheckContext, result
from codexdoctor.checks.live import catalog as catalog_check
from codexdoctor.checks.live import variants as variants_check
from codexdoctor.checks.live.exchanges import Clocks, Exchanges
from codexdoctor.checks.live.plan import CANARY_MAX_OUTPUT
from codexdoctor.checks.live.read import (
    canary_kind,
    first_request_count,
    first_request_lines,
    human,
    model_where,
    no_first_token,
    reported_input,
    user_config,
)
from codexdoctor.codex.request_words import refused_said
from codexdoctor.common import outside_json as outside
from codexdoctor.common.redact import fingerprint
from codexdoctor.model import CheckResult, Msg, Status, item_key
from codexdoctor.net.classify import Classified, classify, summarize, tpm_numbers
from codexdoctor.net.said import body_is

if TYPE_CHECKING:
    from codexdoctor.checks.live.plan import Plan
    from codexdoctor.net.exchange import Exchange

ID = "api.canary"
TITLE = "Canary request"
TITLE_ZH = "探测请求"


def interpret(ctx: CheckContext, plan: Plan, ex: Exchanges) -> CheckResult:
    if ex.canary is None:
        res = result(ID, TITLE, Status.SKIP, Msg("skipped (--no-canary)", "已跳过（--no-canary）"), skipped=True)
    else:
        closest, count = catalog_check.closest(ctx, plan, ex)
        res = canary_result(
            ctx,
            plan,
            ex.canary,
            canary_kind(ex.canary, plan.wire),
            ex.clocks,
            catalog_closest=closest,
            catalog_count=count,
            minimal=ex.minimal,
            field=ex.field,
        )
    missing = variants_check.model_not_found(ctx, plan, ex)
    if missing and res.facts.get("kind") != "model_not_found":
        # Issue 28: the provider already said the model is unknown, at the URL that works; say it in this run.
        res = replace(res, facts={**res.facts, "model_not_found_at": missing})
    return res


def _evidence(plan: Plan, canary: Exchange, minimal: Exchange | None, clocks: Clocks) -> list[Msg]:
    """The canary's lines: its exchange, Codex's first request, the minimal request beside it, the answer's cap,
    and why it was waited for past --timeout."""
    evidence = [canary.line()]
    if plan.first is not None:
        counted, by = first_request_count(plan, canary)
        evidence += first_request_lines(plan.first, counted if by == "provider" else None)
    if minimal is not None:
        evidence.append(
            Msg(
                "minimal request (one instruction line, no tools): {line}",
                "最小请求（一行指令，不带工具）：{line}",
                line=minimal.line(),
            )
        )
    evidence.append(Msg("answer capped at {n} output tokens", "回答上限为 {n} 个输出 token", n=CANARY_MAX_OUTPUT))
    if clocks.waited_for_alive:
        evidence.append(_waited_line(canary, clocks))
    return evidence


def _waited_line(canary: Exchange, clocks: Clocks) -> Msg:
    """Why the canary was waited for past --timeout, and, when no first token came, the limit that ended the wait:
    --first-token-timeout, counted from codexdoctor's start as --timeout is (issue 40 review: the line named only
    --timeout 2 s of a wait that --first-token-timeout 4 s cut at 3,696 ms)."""
    alive = clocks.alive_said or clocks.waited_for_alive or ""
    if no_first_token(canary):
        return Msg(
            "waited past --timeout {s:g} s because the provider is alive ({alive}), as Codex waits, until "
            "--first-token-timeout {f:g} s (counted from codexdoctor's start) ended the wait",
            "提供方还活着（{alive}），所以像 Codex 一样等过了 --timeout {s:g} 秒，直到 --first-token-timeout {f:g} 秒"
            "（从 codexdoctor 启动时算起）结束了等待",
            s=clocks.deadline_s,
            f=clocks.first_token_timeout_s,
            alive=alive,
        )
    return Msg(
        "waited past --timeout {s:g} s because the provider is alive ({alive}), as Codex waits",
        "提供方还活着（{alive}），所以像 Codex 一样等过了 --timeout {s:g} 秒",
        s=clocks.deadline_s,
        alive=alive,
    )


def canary_result(
    ctx: CheckContext,
    plan: Plan,
    canary: Exchange,
    kind: Classified,
    clocks: Clocks,
    *,
    catalog_closest: Sequence[str] = (),
    catalog_count: int = 0,
    minimal: Exchange | None = None,
    field: str | None = None,
) -> CheckResult:
    """The canary's row from its answer and kind: the kind is given, so a pasted error (diagnose) reads the same way."""
    minimal_kind = classify(minimal, plan.wire) if minimal is not None else None
    kind = _contrasted(kind, minimal_kind, field)
    facts = _facts(ctx, plan, canary, kind, minimal, minimal_kind, field)
    facts["catalog_closest"], facts["catalog_count"] = list(catalog_closest), catalog_count
    if kind.kind == "context_exceeded":
        from codexdoctor.net.classify import context_numbers

        facts["server_window"], facts["server_request"] = context_numbers(f"{canary.body_excerpt} {kind.message}")
    evidence = _evidence(plan, canary, minimal, clocks)
    facts.update(
        request_bytes=canary.request_bytes,
        waited_for_alive=clocks.waited_for_alive,
        deadline_s=clocks.deadline_s,
        first_token_timeout_s=clocks.first_token_timeout_s,
        codex_retries=plan.stream_retries,
    )
    if kind.kind == "tpm_too_large":
        facts["tpm_limit"], facts["tpm_requested"] = tpm_numbers(f"{canary.body_excerpt} {kind.message}") or (0, 0)
    if kind.kind == "rate_limited":
        kind = _rate_limited(plan, canary, kind, facts)
    if kind.kind in ("timeout", "deadline") and clocks.waited_for_alive and no_first_token(canary):
        facts["inconclusive_reason"] = str(_first_token_unproven(facts))
    if kind.kind == "ok":
        s = canary.stream
        said = (
            Msg(
                "streamed answer in {ms:,.0f} ms, first token {first:,.0f} ms",
                "流式回答用时 {ms:,.0f} ms，首字 {first:,.0f} ms",
                ms=canary.elapsed_ms,
                first=s.first_token_ms,
            )
            if s and s.first_token_ms is not None
            else Msg("streamed answer in {ms:,.0f} ms", "流式回答用时 {ms:,.0f} ms", ms=canary.elapsed_ms)
        )
        return _said(result(ID, TITLE, Status.PASS, said, evidence, **facts), ctx, kind, canary, clocks.alive_said)
    failed = result(ID, TITLE, Status.FAIL, human(kind.kind, kind.said), evidence, **facts)
    return _said(failed, ctx, kind, canary, clocks.alive_said)


def _said(
    res: CheckResult, ctx: CheckContext, kind: Classified, canary: Exchange, alive: Msg | None = None
) -> CheckResult:
    """The facts the rules quote that are words (the detail, where base_url is set, what showed the provider alive,
    why nothing is decided), in both languages beside them."""
    said: dict[str, Msg] = {
        "base_url_where": ctx.resolution.provider_field_said("base_url"),
        "env_key_where": ctx.resolution.provider_field_said("env_key"),
    }
    if alive is not None:
        said["waited_for_alive"] = alive
    if kind.said is not None:
        said["detail"] = kind.said
    if kind.kind == "bad_request" and not kind.message and canary.body_malformed is not None:
        # API010: a body that looked like JSON but could not be read has no message of its own; the rule puts what
        # made it unreadable in its place ("the body is JSON nested 100,000 levels deep …"), in these words.
        unreadable = body_is(canary.body_malformed)
        said[item_key("message", str(unreadable))] = unreadable
    reason = res.facts.get("inconclusive_reason")
    return replace(res, said=said, reason=_unproven(res.facts) if reason else None)


def _unproven(facts: Mapping[str, Any]) -> Msg:
    """Why the canary decides nothing, in both languages: a first token that had not come, or a rate limit."""
    if facts["kind"] in ("timeout", "deadline"):
        return _first_token_unproven(facts)
    return _waiting_unproven(facts, facts.get("status") == 200)


def _first_token_unproven(facts: Mapping[str, Any]) -> Msg:
    """A provider that answered its other requests, still silent on Codex's first one when --first-token-timeout
    ended the wait: Codex waits for the headers without a limit, so whether the answer comes is unknown (NET010)."""
    return Msg(
        "the provider is alive but had not started answering Codex's first request when --first-token-timeout "
        "({s:g} s) ended the wait; Codex would wait longer, so whether it answers is unproven",
        "提供方是活着的，但到 --first-token-timeout（{s:g} 秒）结束等待时还没有开始回答 Codex 的第一个请求；"
        "Codex 会等得更久，所以它会不会回答尚未证实",
        s=facts["first_token_timeout_s"],
    )


def _contrasted(kind: Classified, minimal_kind: Classified | None, field: str | None) -> Classified:
    """Codex's request failed where a minimal one passes: its shape (a field, an item) or its size is the cause.
    A 5xx, a reset or a broken stream is what a flaky channel does too: only when the error names a part of
    Codex's request is the contrast evidence (a 400 is deterministic and counts without a name)."""
    flaky_shape = kind.kind in ("server_error", "stream_closed", "stream_error", "not_json") and field is None
    if minimal_kind is not None and minimal_kind.kind == "ok" and kind.kind != "context_exceeded" and not flaky_shape:
        return Classified(
            "codex_rejected",
            Msg(
                "the provider rejects Codex's request ({field})",
                "提供方拒绝了 Codex 的请求（{field}）",
                field=refused_said(field) if field else Msg("a field it did not name", "某个它没有指明的字段"),
            ),
            kind.message,
        )
    return kind


def _facts(
    ctx: CheckContext,
    plan: Plan,
    canary: Exchange,
    kind: Classified,
    minimal: Exchange | None,
    minimal_kind: Classified | None,
    field: str | None,
) -> dict[str, Any]:
    s, first, key = canary.stream, plan.first, ctx.key_value()
    return {
        "kind": kind.kind,
        "detail": kind.detail,
        "message": kind.message,
        "status": canary.status,
        "url": canary.url,
        "wire": plan.wire,
        "model": plan.model,
        "attempts": canary.attempts,
        "earlier": list(canary.earlier),
        "ttft_ms": s.first_token_ms if s else None,
        "total_ms": canary.elapsed_ms,
        "max_gap_ms": s.max_gap_ms if s else None,
        "terminal": (s.terminal or s.cut) if s else None,
        "sent_key": canary.sent_key,
        "env_key": ctx.provider.env_key if isinstance(ctx.provider.env_key, str) else None,
        "user_config": user_config(ctx),
        "model_origin": ctx.resolution.model_origin,
        "model_where": model_where(ctx),
        "base_url_where": ctx.resolution.provider_field_origin("base_url"),
        "usage": dict(s.usage) if s and s.usage else None,
        "shapes": [shape.sentence() for shape in s.shapes] if s else [],
        "body_malformed": str(canary.body_malformed) if canary.body_malformed is not None else None,
        "location": canary.location,
        "key_fp": fingerprint(key) if key else None,
        "key_fp8": fingerprint(key).rsplit(":", 1)[1] if key else None,
        "catalog_closest": [],
        "catalog_count": 0,
        "env_key_where": ctx.resolution.provider_field_origin("env_key"),
        "codex_shaped": first is not None,
        "first_request": first_request_count(plan, canary)[0] if first else None,
        "first_parts": [{"part": n, "tokens": t} for n, t in first.parts] if first else [],
        "docs": [{"path": d.path, "tokens": d.tokens, "bytes": d.bytes} for d in first.docs] if first else [],
        "codex_version": first.codex_version if first else None,
        "minimal_kind": minimal_kind.kind if minimal_kind else None,
        "minimal_status": minimal.status if minimal is not None else None,
        "field": field,
        "reported_input": reported_input(canary),
        "incomplete_reason": s.incomplete_reason if s else None,
        "output_tokens": outside.integer(s.usage, "output_tokens") if s else None,
        "ignored_errors": [_error_line(e) for e in s.ignored_errors] if s else [],
        "server_window": None,
        "server_request": None,
        "request_id": canary.request_id,
        "started_at": canary.started_at,
        "provider_id": ctx.provider.id,
    }


def _error_line(error: Mapping[str, Any]) -> str:
    """One standalone error event as evidence: its code and message (already redacted by the transport)."""
    code, message = error.get("code"), error.get("message")
    return summarize(f"{code}: {message}" if code and message else str(message or code or "an error event"))


# The response.failed codes Codex retries as a rate limit (net/send.stream_rate_limited).
_IN_STREAM_CODES = ("rate_limit_exceeded", "slow_down")


def _rate_limited(plan: Plan, canary: Exchange, kind: Classified, facts: dict[str, Any]) -> Classified:
    """429 (or a response.failed rate_limit_exceeded) at every attempt Codex makes is a verdict; until codexdoctor's
    time ran out is not (facts say so)."""
    in_stream = canary.status == 200
    limited = 1 + sum(1 for e in canary.earlier if e in ("429", *_IN_STREAM_CODES))
    error = canary.stream.error if canary.stream else None
    last = [str(error.get("code"))] if error and error.get("code") in _IN_STREAM_CODES else []
    facts.update(
        # the codes the rate-limited streams came with, each once, in the order seen
        failed_codes=list(dict.fromkeys([e for e in canary.earlier if e in _IN_STREAM_CODES] + last)),
        rate_limited_attempts=limited,
        codex_attempts=plan.stream_retries + 1,
        retry_after_s=canary.retry_after_s,
        waited_s=canary.waited_s,
    )
    if limited > plan.stream_retries and in_stream:
        kind = Classified(
            "stream_rate_limited",
            Msg(
                "response.failed rate_limit_exceeded at all {n} attempts Codex makes",
                "Codex 的全部 {n} 次尝试都以 response.failed rate_limit_exceeded 结束",
                n=limited,
            ),
            kind.message,
        )
    elif limited > plan.stream_retries:
        kind = Classified(
            "rate_limit_exhausted",
            Msg("429 at all {n} attempts Codex makes", "Codex 的全部 {n} 次尝试都返回 429", n=limited),
            kind.message,
        )
    else:
        facts["inconclusive_reason"] = str(_waiting_unproven(facts, in_stream))
    facts.update(kind=kind.kind, detail=kind.detail)
    return kind


def _waiting_unproven(facts: Mapping[str, Any], in_stream: bool) -> Msg:
    """Why a rate limit at every attempt codexdoctor had time for decides nothing (one attempt: no "each of 1")."""
    limited = facts["rate_limited_attempts"]
    return Msg(
        "the provider answered {what} at {each}; Codex makes {codex} (stream_max_retries = {retries}), each after "
        "the wait it names, and codexdoctor's time ran out first: whether the limit lifts in time is unproven",
        "提供方{each_zh}返回{what_zh}；Codex 会尝试 {codex} 次（stream_max_retries = {retries}），每次都"
        "等待它给出的时长，而 codexdoctor 的时间先用完了：限流能否及时解除尚未证实",
        what="a rate_limit_exceeded stream (response.failed)" if in_stream else "429",
        what_zh="限流的流（response.failed rate_limit_exceeded）" if in_stream else " 429",
        each="the only attempt codexdoctor had time for" if limited == 1 else f"each of the {limited} attempts",
        each_zh="在 codexdoctor 来得及做的唯一一次尝试中"
        if limited == 1
        else f"在 codexdoctor 来得及做的 {limited} 次尝试中都",
        codex=facts["codex_attempts"],
        retries=facts["codex_attempts"] - 1,
    )
