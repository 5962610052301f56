"""`check`'s live stage: whether Codex would send anything at all, then plan, gather, interpret, and the notes."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from codexdoctor.checks.base import CheckContext
from codexdoctor.checks.live import registry
from codexdoctor.checks.live.plan import CANARY_MAX_OUTPUT, Plan, make_plan, window_probe_urls
from codexdoctor.codex.config import BEDROCK
from codexdoctor.common.untrusted import sanitize
from codexdoctor.model import CheckResult, Msg, Status

if TYPE_CHECKING:
    import httpx

    from codexdoctor.checks.live.gather import Gatherer

STILL_WAITING_EVERY = 2.0  # seconds between "still waiting" lines on a terminal
STATIC_BLOCKERS: dict[str, Callable[[Mapping[str, Any]], object]] = {
    "cfg.home": lambda f: bool(f.get("problem")),
    "cfg.files": lambda f: any("toml_error" in x or "read_error" in x for x in f.get("files", [])),
    "cfg.profile": lambda f: bool(f.get("missing") or f.get("legacy_selectors") or f.get("conflict")),
    "cfg.provider": lambda f: (
        f.get("defined") is False
        or bool(f.get("wrong_types"))
        or bool(f.get("wire_api_invalid"))
        or (f.get("wire_api") == "chat" and f.get("chat_rejected") is not False)
        or bool(f.get("redefined_builtins"))
        or bool(f.get("bedrock_refused"))
        or bool(f.get("missing_name"))
        # Codex would send the gateway's key to api.openai.com; codexdoctor never does.
        or bool(f.get("missing_base_url"))
        or bool(f.get("empty_model"))
    ),
    "env.key": lambda f: f.get("state") in ("missing", "blank", "not_a_name", "wrong_type"),
    # The built-in provider with no stored API key: no login at all, or a ChatGPT sign-in, whose token Codex sends to
    # the ChatGPT backend rather than to base_url; a request from here would test nothing Codex does.
    # $CODEX_API_KEY stands in for it: what `codex exec` sends (ENV022 says the interactive CLI does not).
    "env.auth": lambda f: (
        f.get("provider") == "openai"
        and f.get("builtin")
        and not (f.get("auth") or {}).get("has_api_key")
        and not f.get("codex_api_key_env")
    ),
}


def cannot_sign(ctx: CheckContext) -> Msg | None:
    """Why no request may be sent although Codex would send one: Codex signs each request to the built-in
    amazon-bedrock with AWS SigV4 from the AWS SDK's configuration (region, credentials; the real 0.171.0 sent a
    signed POST to a base_url set in its table, and without a region stopped with `failed to resolve Amazon Bedrock
    auth: AWS SDK config did not resolve a region`). codexdoctor signs nothing: an unsigned request tests nothing
    Codex does."""
    p = ctx.resolution.provider
    if not (p.builtin and p.id == BEDROCK):
        return None
    return Msg(
        "Live checks skipped: Codex signs each request to `amazon-bedrock` with AWS SigV4 from your AWS configuration "
        "(region, credentials); codexdoctor does not sign requests, so it cannot test this provider. If Codex stops "
        "with `failed to resolve Amazon Bedrock auth`, set AWS_REGION (or aws.region in the table) and your AWS "
        "credentials.",
        "已跳过在线检查：Codex 会用你的 AWS 配置（区域、凭证）以 AWS SigV4 为发往 `amazon-bedrock` 的每个请求签名；"
        "codexdoctor 不会签名请求，因此无法测试这个提供方。如果 Codex 报 `failed to resolve Amazon Bedrock auth` "
        "并停止，请设置 AWS_REGION（或表中的 aws.region）和你的 AWS 凭证。",
    )


def blocked_by_static(static: list[CheckResult]) -> list[str]:
    """Ids of static checks showing Codex would stop before sending any request."""
    by_id = {r.id: r for r in static}
    return [
        cid
        for cid, pred in STATIC_BLOCKERS.items()
        if cid in by_id and by_id[cid].status in (Status.FAIL, Status.SKIP) and pred(by_id[cid].facts)
    ]


def with_nothing_sent(static: list[CheckResult]) -> list[CheckResult]:
    """The static results of a run in which Codex would send nothing, so no request was sent: base_url's facts say
    so, and URL003 does not claim the live checks tried and could not settle the /v1 question (issue 40: "could not
    settle it" beside "Probe not run … no tokens spent")."""
    from dataclasses import replace

    return [replace(r, facts={**r.facts, "nothing_sent": True}) if r.id == "url.base_url" else r for r in static]


def blocker_names(static: list[CheckResult], blockers: list[str]) -> str:
    """The blocking checks as the user sees them on their rows ("API key variable"), never as internal ids."""
    return str(blocker_msg(static, blockers))


def blocker_msg(static: list[CheckResult], blockers: list[str]) -> Msg:
    """The blocking checks by their titles, each in the language of the text that names them."""
    from codexdoctor.i18n import CHECK_TITLES_EN_ZH

    titles = {r.id: r.title for r in static}
    named = [titles.get(b, b) for b in blockers]
    return Msg.join([Msg.pair(t, CHECK_TITLES_EN_ZH.get(t, t)) for t in named])


def _blocked_reason(static: list[CheckResult], blockers: list[str]) -> Msg:
    """Why no live check runs, in the note under the table."""
    if blockers == ["env.auth"]:
        return Msg(
            "the built-in provider has no stored API key (ChatGPT sign-in or none): Codex's requests go to the "
            "ChatGPT backend or nowhere, so there is no API channel to test",
            "内置提供方没有已保存的 API Key（使用 ChatGPT 登录或未登录）：Codex 的请求发往 ChatGPT 后端或根本发不出，"
            "没有可测试的 API 通道",
        )
    provider_facts = next((r.facts for r in static if r.id == "cfg.provider"), {})
    if "cfg.provider" in blockers and provider_facts.get("missing_base_url") and len(blockers) == 1:
        return Msg(
            "[model_providers.{p}] has no base_url, so Codex would send your key to "
            "https://api.openai.com/v1; codexdoctor does not send it anywhere you did not configure",
            "[model_providers.{p}] 没有 base_url，所以 Codex 会把你的密钥发到 https://api.openai.com/v1；"
            "codexdoctor 不会把它发到你没有配置的任何地方",
            p=str(provider_facts.get("provider")),
        )
    return Msg(
        "Codex would stop before sending a request ({names}): fix that first",
        "Codex 在发出请求前就会停止（{names}）：请先修复",
        names=blocker_msg(static, blockers),
    )


def _took(before_ms: float, end_ms: float, deadline_s: float) -> Msg:
    """How long the live checks took, on the deadline's own clock (ms since codexdoctor's start, issue 36): when they
    ran into the deadline, when they began, how much of it they had, and how long stopping took past it, every number
    from the same two readings so that they add up (issue 40 review: "took 3060 ms and ran into the deadline (3 s)
    … they began 248 ms after it", 3.3 s after the start against a 3 s deadline)."""
    before, end, limit = round(before_ms), round(end_ms), round(deadline_s * 1000)
    if end < limit:
        return Msg(
            "Live checks took {ms:,} ms (deadline {s:g} s).",
            "在线检查用时 {ms:,} ms（时限 {s:g} 秒）。",
            ms=end - before,
            s=deadline_s,
        )
    words = Msg(
        "Live checks took {ms:,} ms and ran into the deadline (--timeout {s:g} s, counted from codexdoctor's start): "
        "they began {before:,} ms after the start and had {within:,} ms until the deadline at {limit:,} ms",
        "在线检查用时 {ms:,} ms，到了时限（--timeout {s:g} 秒，从 codexdoctor 启动时算起）：在线检查在启动后 "
        "{before:,} ms 开始，到 {limit:,} ms 的时限为止有 {within:,} ms",
        ms=end - before,
        s=deadline_s,
        before=before,
        within=limit - before,
        limit=limit,
    )
    if end == limit:
        return Msg("{words}.", "{words}。", words=words)
    return Msg(
        "{words}; stopping took {over:,} ms more, so they ended {end:,} ms after the start.",
        "{words}；停下来又用了 {over:,} ms，在启动后 {end:,} ms 结束。",
        words=words,
        over=end - limit,
        end=end,
    )


def run_live(
    ctx: CheckContext, static: list[CheckResult], client: httpx.Client | None = None
) -> tuple[list[CheckResult], list[str | Msg]]:
    """Every live check's row and the notes under the table: planned, gathered under one deadline, interpreted."""
    from codexdoctor.checks.live.gather import Gatherer  # lazy: pulls in httpx
    from codexdoctor.net.client import proxy_for
    from codexdoctor.net.deadline import Deadline

    blockers = blocked_by_static(static)
    if blockers:
        why = _blocked_reason(static, blockers)
        return registry.skipped(blockers), [Msg("Live checks skipped: {why}.", "已跳过在线检查：{why}。", why=why)]
    if (unsigned := cannot_sign(ctx)) is not None:
        return registry.skipped([]), [unsigned]
    since = ctx.options.get("started")  # the command's launch: start-up counts inside --timeout (issue 36)
    deadline = Deadline(float(ctx.options.get("timeout", 10.0)), started=since if isinstance(since, float) else None)
    # One clock for the note: the deadline's, since codexdoctor's start (before: start-up and static checks)
    started, before = time.perf_counter(), deadline.elapsed()
    plan = make_plan(ctx)
    gatherer = Gatherer(ctx, plan, deadline, client=client)
    done = threading.Event()
    waiting = _still_waiting(ctx, plan, gatherer, started, done)
    try:
        results = registry.interpret(ctx, plan, gatherer.gather())
    except Exception as exc:  # while the exchanges were gathered: every live check stands on them
        results = registry.all_crashed(exc, ctx.redactor)
    finally:
        done.set()
        if waiting is not None:  # no line after this one: the report (or "Interrupted.") comes next
            waiting.join(timeout=1.0)
        if client is None:
            gatherer.client.close()
    end = deadline.elapsed()
    took = (end - before) * 1000
    waited = gatherer.waited_for_alive
    notes: list[str | Msg] = [
        # Issue 40: "took 81200 ms (deadline 10 s)" read as a broken promise; a provider that was alive was waited
        # for on purpose, up to --first-token-timeout, as Codex waits: say so.
        Msg(
            "Live checks took {ms:,.0f} ms: the deadline ({s:g} s) was extended up to --first-token-timeout ({f:g} s) "
            "because the provider was alive ({why}) but slow to answer, as Codex would wait.",
            "在线检查用时 {ms:,.0f} ms：时限（{s:g} 秒）延长到了 --first-token-timeout（{f:g} 秒），因为提供方是活着的，"
            "只是回答得慢，Codex 也会这样等。",
            ms=took,
            s=deadline.total,
            f=gatherer.canary_deadline.total,
            why=waited,
        )
        if waited and took > deadline.total * 1000
        else _took(before * 1000, end * 1000, deadline.total)
    ]
    notes += _canary_notes(ctx, plan, results)
    if proxy_for(plan.request_url, ctx.env):
        notes.append(
            Msg("Requests went through the proxy configured in this environment.", "请求经过了当前环境中配置的代理。")
        )
    return [ctx.stamp(r) for r in results], notes


def _still_waiting(
    ctx: CheckContext, plan: Plan, gatherer: Gatherer, started: float, done: threading.Event
) -> threading.Thread | None:
    """A "still waiting" line every few seconds on a terminal, until `done` is set: `progress(msg)` shows it in
    place of the one before (commands/check.py), in the run's language."""
    progress = ctx.options.get("progress")
    if not callable(progress):
        return None
    host = sanitize(ctx.redactor(urlsplit(plan.base_url).hostname or plan.base_url))

    def still_waiting() -> None:
        while not done.wait(STILL_WAITING_EVERY):
            progress(
                Msg(
                    "still waiting for {host} ({n:.0f} s of {total:g} s)...",
                    "仍在等待 {host}（已等 {n:.0f} 秒，最多 {total:g} 秒）……",
                    host=host,
                    n=time.perf_counter() - started,
                    total=gatherer.waiting_total,
                )
            )

    thread = threading.Thread(target=still_waiting, name="codexdoctor-still-waiting", daemon=True)
    thread.start()
    return thread


def _counted(results: list[CheckResult], check_id: str, key: str) -> int | None:
    """A token count a result already states (the provider's own when it gave one): the notes quote that number,
    never a second estimate of the same request (issue 40: "8,488 tokens" in the row, "about 8,489" in the note)."""
    found = next((r.facts.get(key) for r in results if r.id == check_id), None)
    return found if isinstance(found, int) and not isinstance(found, bool) and found > 0 else None


def _canary_notes(ctx: CheckContext, plan: Plan, results: list[CheckResult]) -> list[str | Msg]:
    """What the canary and turn two cost, and the options that skip them."""
    if not ctx.options.get("canary", True):
        return []
    first = plan.first
    first_tokens = _counted(results, "api.canary", "first_request") or (first.tokens if first else None)
    turn_two_tokens = _counted(results, "api.turn_two", "turn_two_tokens")
    size = (
        Msg("{n:,} input tokens", "{n:,} 个输入 token", n=first_tokens)
        if first_tokens
        else Msg("a few input tokens", "少量输入 token")
    )
    notes: list[str | Msg] = [
        Msg(
            "The canary is Codex's own first request: {size} and at most {m} output tokens per send; --no-canary "
            "skips it.",
            "探测请求就是 Codex 自己的第一个请求：每次发送 {size}，最多 {m} 个输出 token；加 --no-canary 可跳过。",
            size=size,
            m=CANARY_MAX_OUTPUT,
        )
    ]
    canary = next((r for r in results if r.id == "api.canary"), None)
    if canary is not None and _stopped_at_its_own_cap(canary.facts):
        notes.append(
            Msg(
                "The canary's answer stopped at its own {m}-token cap (response.incomplete: max_output_tokens), as it "
                "should; an output cap a gateway sets above {m} tokens cannot be seen with so short an answer (Codex "
                "asks for none: such a cap cuts Codex's answers, API026).",
                "探测请求的回答停在它自己要求的 {m} 个 token 上限（response.incomplete：max_output_tokens），这是正常的；"
                "网关设置的高于 {m} 个 token 的输出上限，用这么短的回答看不出来（Codex 不要求上限：这样的上限会截断 "
                "Codex 的回答，API026）。",
                m=CANARY_MAX_OUTPUT,
            )
        )
    turn_two = next((r for r in results if r.id == "api.turn_two"), None)
    if turn_two is not None and turn_two.status is not Status.SKIP and turn_two_tokens:
        notes.append(_turn_two_note(turn_two.facts, turn_two_tokens))
    return notes


def _stopped_at_its_own_cap(facts: Mapping[str, Any]) -> bool:
    """The canary ended in response.incomplete (max_output_tokens) at the cap it asked for: the known limit of a
    {CANARY_MAX_OUTPUT}-token canary (issue 40 review: `sim --stream-end incomplete` read as a plain OK)."""
    tokens = facts.get("output_tokens")
    return (
        facts.get("incomplete_reason") == "max_output_tokens"
        and facts.get("kind") != "output_capped"
        and (not isinstance(tokens, int) or tokens >= CANARY_MAX_OUTPUT)
    )


def _turn_two_note(facts: Mapping[str, Any], tokens: int) -> Msg:
    """What the request after a tool call carried, as it was sent (issue 40: the note said one call and "is sent
    once" beside a row that sent two calls, or none)."""
    calls = facts.get("calls") or 1
    kb = max(1, round((facts.get("added_bytes") or 0) / 1024))
    sent = Msg(
        "After it, Codex's request that follows a tool call (the same request plus {c} made-up `exec_command` "
        "{calls} and about {kb} KB of output, cut as Codex cuts it: {n:,} input tokens) was sent",
        "之后发送了 Codex 在工具调用之后发出的请求（同一个请求，加上 {c} 次虚构的 `exec_command` 调用和约 {kb} KB 按 "
        "Codex 的方式截断的输出：{n:,} 个输入 token）",
        c=calls,
        calls="call" if calls == 1 else "calls",
        kb=kb,
        n=tokens,
    )
    if facts.get("single_status") is not None or facts.get("single_kind"):
        return Msg(
            "{sent}, then once more with one call and its output, because the first was refused; --no-turn-two skips "
            "them.",
            "{sent}；它被拒绝后，又只带一次调用和它的输出发送了一次；--no-turn-two 可以跳过它们。",
            sent=sent,
        )
    return Msg("{sent}; --no-turn-two skips it.", "{sent}；--no-turn-two 可以跳过它。", sent=sent)


def published_window(ctx: CheckContext, timeout_s: float = 10.0) -> tuple[int | None, Msg | None]:
    """The window the provider publishes, read the way `check` reads it (three GETs, no tokens spent), all of them
    within `timeout_s`."""
    from codexdoctor.checks.live.gather import Gatherer
    from codexdoctor.checks.live.window import served_window
    from codexdoctor.net.deadline import Deadline

    plan = make_plan(ctx, first=False)
    gatherer = Gatherer(ctx, plan, Deadline(max(0.0, timeout_s)), patient=False)
    try:
        catalog = gatherer.catalog()
        return served_window(plan.model, catalog, [gatherer.send("GET", url) for url in window_probe_urls(plan)])
    finally:
        gatherer.client.close()
