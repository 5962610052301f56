"""CTX, a pasted context error: what it said and the window step it calls for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.model import Verdict
from codexdoctor.rules.base import CONTEXT, E, Loc, Rule, Text, W
from codexdoctor.rules.ctx.advice import window_step

_STREAM_CAUSES = Loc(
    " It comes from several causes: a gateway without full Responses streaming; a proxy or CDN that buffers or cuts "
    "event streams; a read or idle timeout at the gateway during a long prefill; an upstream window reported as a cut "
    "stream.",
    "它有好几种来源：不完整支持 Responses 流式的网关；缓冲或切断事件流的代理或 CDN；网关在长时间预填充时的读取或空闲超时；"
    "以被切断的流报告的上游窗口超限。",
)
_SAID = {
    "stream_closed": Loc(
        "Codex says this when the provider's event stream ended without `response.completed`.",
        "提供方的事件流没有以 `response.completed` 结束时，Codex 会这样提示。",
    )
    + _STREAM_CAUSES,
    "high_demand": Loc(
        "Codex shows this for any 5xx answer from the provider, whatever the provider said: an overloaded upstream, "
        "a gateway failing on the request's size or on its tool items, or an upstream window reported as a server "
        "error.",
        "提供方返回任何 5xx 时，Codex 都显示这句话，不管提供方实际说了什么：上游过载、网关因请求大小或工具项而失败、"
        "或以服务器错误报告的上游窗口超限。",
    ),
    "retry_limit": Loc(
        "Codex shows this after its retries of a 429 ran out, never the provider's own body: a per-minute request "
        "limit, a tokens-per-minute limit that a large request exceeds alone, a used-up quota or an overloaded provider "
        "all look alike.",
        "这是 Codex 对 429 的重试用尽后的提示，从不显示提供方自己的报错内容：每分钟请求数上限、单个大请求就超出的每分钟 token "
        "上限、额度用尽或提供方过载，看起来都一样。",
    ),
    "idle_timeout": Loc(
        "Codex's idle limit passed with no event from the provider.",
        "在 Codex 的空闲时限内，提供方没有发来任何事件。",
    )
    + _STREAM_CAUSES,
}
_SAID_OTHER = Loc("The connection or the stream was cut or timed out.", "连接或事件流被切断或超时。") + _STREAM_CAUSES


def _undecided_params(f: Mapping[str, Any]) -> dict[str, Any]:
    read = int(f.get("logs_read") or 0)
    return {
        "said_text": _SAID.get(str(f.get("family")), _SAID_OTHER),
        "logs_text": Loc(
            f"None of your {read:,} newest session logs ended with it, so there is nothing to compare.",
            f"你最新的 {read:,} 个会话日志里没有一个以它结束，所以没有可比较的。",
        )
        if read
        else Loc("No session log of yours was found to compare.", "没有找到你的会话日志可供比较。"),
    }


def _numbers(window: object, size: object) -> Loc:
    """What the provider's words say of the sizes, when they give any."""
    if isinstance(window, int) and isinstance(size, int):
        return Loc(
            f" Its words say the request ({size:,} tokens) exceeds the window ({window:,} tokens).",
            f"原话说请求（{size:,} 个 token）超出了窗口（{window:,} 个 token）。",
        )
    if isinstance(window, int):
        return Loc(
            f" Its words say the window is {window:,} tokens and the request is longer.",
            f"原话说窗口是 {window:,} 个 token，而请求更长。",
        )
    return Loc("", "")


def _pasted_context_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """CTX021: say what the paste said (Codex's own words, or a server's raw error with its numbers), nothing more."""
    cfg = f.get("user_config") or "~/.codex/config.toml"
    window, size = f.get("server_window"), f.get("server_request")
    if f.get("in_stream"):
        said = Loc(
            "The provider reported the overflow inside the stream (a response.failed) with an error code other than "
            "context_length_exceeded, so Codex took it for a dropped stream, retried it, and then printed the "
            "provider's own words after `stream disconnected before completion:`.",
            "提供方是在流中（response.failed）报告超限的，错误码却不是 context_length_exceeded，所以 Codex 把它当作断开的流重试，"
            "然后在 `stream disconnected before completion:` 之后打印了提供方的原话。",
        ) + _numbers(window, size)
    elif f.get("codex_message"):
        said = Loc(
            "Codex reports this when the provider rejects a request as too long (code context_length_exceeded).",
            "当提供方以请求过长（错误码 context_length_exceeded）拒绝请求时，Codex 会这样提示。",
        )
    elif window and size:
        said = Loc(
            f"The provider's error says the request ({size:,} tokens) exceeds its window ({window:,} tokens); "
            "Codex shows such errors raw.",
            f"提供方的报错说请求（{size:,} 个 token）超出了它的窗口（{window:,} 个 token）；Codex 会原样显示这类错误。",
        )
    elif window:
        said = Loc(
            f"The provider's error says its window is {window:,} tokens and the request is longer.",
            f"提供方的报错说它的窗口是 {window:,} 个 token，而请求更长。",
        )
    else:
        said = Loc(
            "The provider's error says the request is longer than the model's context window.",
            "提供方的报错说请求超出了模型的上下文窗口。",
        )
    if window:
        step = window_step(window, cfg)
    else:
        step = Loc(
            f"Measure the provider's real window with `codexdoctor probe`, then set model_context_window (and "
            f"model_auto_compact_token_limit) below it at the top level of {cfg}.",
            f"用 `codexdoctor probe` 测出提供方的真实窗口，然后在 {cfg} 顶层把 model_context_window（以及 "
            "model_auto_compact_token_limit）设到它以下。",
        )
    return {"said_text": said, "window_step": step}


RULES: tuple[Rule, ...] = (
    Rule(
        code="CTX021",
        name="context-exhausted-message",
        check="ctx.pasted",
        reads=("codex_message", "in_stream", "kind", "server_request", "server_window", "user_config"),
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="The request exceeded the model's context window",
            diagnosis="{said_text} If it happens early in a session, the provider's window is smaller than the one Codex assumes "
            "and Codex does not compact in time.",
            remedy=(
                "Start a new session (or /compact) and carry a short summary instead of the history.",
                "{window_step}",
            ),
        ),
        zh=Text(
            title="请求超出了模型的上下文窗口",
            diagnosis="{said_text}如果在会话早期就出现，说明提供方的窗口比 Codex 假定的小，Codex 来不及压缩。",
            remedy=("开一个新会话（或执行 /compact），带一段简短的总结，而不是整段历史。", "{window_step}"),
        ),
        when=lambda f: [_pasted_context_params(f)] if f.get("kind") == "context" else [],
    ),
    Rule(
        code="CTX032",
        name="pasted-error-undecided",
        check="ctx.pasted",
        reads=("family", "kind", "logs_matching", "logs_read"),
        severity=W,
        verdict=Verdict.INCONCLUSIVE,
        en=Text(
            title="This message alone cannot tell the context from the channel",
            diagnosis="{said_text} {logs_text}",
            remedy=(
                "Run `codexdoctor check`: if a single question, or Codex's request after a tool call, fails the same way "
                "through this provider, it is the channel.",
                "Run `codexdoctor probe`: if a growing session breaks at one size every time, it is the window.",
                "Paste it again after a few more sessions, and the sizes at which they broke are compared.",
            ),
            explanation="The seed guide's rule: a break at the same size every time is the context; a break at wandering "
            "sizes, or a single question that fails too, is the channel. A pasted message of this kind is read against "
            "the newest session logs that ended with it; with none, nothing decides it.",
        ),
        zh=Text(
            title="单凭这条消息分不清是上下文还是通道",
            diagnosis="{said_text}{logs_text}",
            remedy=(
                "运行 `codexdoctor check`：如果通过这个提供方的单次提问、或 Codex 在工具调用之后的请求也这样失败，就是通道问题。",
                "运行 `codexdoctor probe`：如果逐步增长的会话每次都断在同一大小，那就是窗口。",
                "过几个会话之后再粘贴一次，就能比较这些会话是在多大时断开的。",
            ),
        ),
        when=lambda f: [_undecided_params(f)] if f.get("kind") == "unclear" and not f.get("logs_matching") else [],
    ),
)
