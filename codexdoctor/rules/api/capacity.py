"""API: a provider that refuses inside the stream for capacity or rate, the way Codex 0.171 ends the turn on it.

Codex reads a `response.failed` by its `error.code` (docs/codex-behaviour.md, "How a stream ends"): `server_is_overloaded`
stops the turn with `Selected model is at capacity. Please try a different model.` (not retried as other failures
are); `rate_limit_exceeded` and `slow_down` are retried up to stream_max_retries after the wait the message names, and
only then does Codex stop with `rate limit exceeded: <the provider's message>`. (insufficient_quota is API004.)
"""

from __future__ import annotations

from codexdoctor.rules.base import CHANNEL, E, Loc, Rule, Text, once


def _codes_text(codes: list[str] | None) -> Loc:
    """The codes the provider's rate-limited streams came with; both Codex retries when none is known (a pasted
    line: Codex says `rate limit exceeded` for either)."""
    if not codes:
        return Loc("rate_limit_exceeded (or slow_down)", "rate_limit_exceeded（或 slow_down）")
    return Loc(" or ".join(codes), " 或 ".join(codes))


RULES: tuple[Rule, ...] = (
    Rule(
        code="API029",
        name="model-at-capacity",
        check="api.canary",
        reads=("kind", "message", "model", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The provider says the model is at capacity",
            diagnosis="POST {url} streamed response.failed with code server_is_overloaded ({message}). Codex does not "
            "wait it out: it stops with `Selected model is at capacity. Please try a different model.`",
            remedy=(
                "Try again later, or switch from {model} to another model (`codex -m <model>`, or `model` in config.toml).",
                "If a gateway sends it, ask its operator whether the upstream behind {model} is overloaded or its "
                "channel capacity is used up.",
            ),
        ),
        zh=Text(
            title="提供方说模型的容量已满",
            diagnosis="POST {url} 在流中返回了错误码为 server_is_overloaded 的 response.failed（{message}）。"
            "Codex 不会等它恢复：它会以 `Selected model is at capacity. Please try a different model.` 停止。",
            remedy=(
                "稍后再试，或把 {model} 换成另一个模型（`codex -m <模型>`，或 config.toml 中的 `model`）。",
                "如果这是网关返回的，请问它的运营者：{model} 背后的上游是否过载，或者通道容量是否已用完。",
            ),
        ),
        when=once(lambda f: f["kind"] == "server_overloaded"),
    ),
    Rule(
        code="API030",
        name="rate-limited-inside-the-stream",
        check="api.canary",
        reads=("codex_retries", "failed_codes", "kind", "message", "rate_limited_attempts", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Rate limited inside the stream at every attempt Codex makes",
            diagnosis="POST {url} streamed response.failed with code {codes_text} {attempts_text} "
            "(stream_max_retries = {codex_retries}, each after the wait "
            "the message names): {message}. Codex stops with `rate limit exceeded: {message}`.",
            remedy=(
                "Wait a minute and run Codex again; run fewer Codex sessions or other programs on this key at once "
                "(they share the limit).",
                "If it persists, ask the provider or gateway operator for a higher rate limit on this key, or use a "
                "key with a higher limit.",
            ),
        ),
        zh=Text(
            title="Codex 的每次尝试都在流中被限流",
            diagnosis="POST {url} {attempts_text}都在流中返回了错误码为 "
            "{codes_text} 的 response.failed（stream_max_retries = {codex_retries}，每次都按消息中说的时间等待）："
            "{message}。Codex 会以 `rate limit exceeded: {message}` 停止。",
            remedy=(
                "等一分钟再运行 Codex；同时使用这个密钥的 Codex 会话或其他程序少开几个（它们共享这个限额）。",
                "如果一直这样，请向提供方或网关运营者申请提高这个密钥的限流额度，或换一个额度更高的密钥。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "codes_text": _codes_text(f.get("failed_codes")),
                    "attempts_text": _attempts_text(f.get("rate_limited_attempts")),
                }
            ]
            if f["kind"] == "stream_rate_limited"
            else []
        ),
    ),
)


def _attempts_text(attempts: int | None) -> Loc:
    """How many attempts were limited: the canary counted them; a pasted line has no count, so "every attempt"."""
    if attempts is None:
        return Loc("at every attempt Codex makes", "在 Codex 的每次尝试中")
    if attempts == 1:
        return Loc("at the only attempt Codex makes", "在 Codex 唯一的一次尝试中")
    return Loc(f"at all {attempts:,} attempts Codex makes", f"在 Codex 的全部 {attempts:,} 次尝试中")
