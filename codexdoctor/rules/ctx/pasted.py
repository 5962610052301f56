"""CTX, a pasted context error: what it said and the window step it calls for."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.rules.base import CONTEXT, E, Loc, Rule, Text
from codexdoctor.rules.ctx.advice import window_step


def _pasted_context_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """CTX021: say what the paste said (Codex's own words, or a server's raw error with its numbers), nothing more."""
    cfg = f.get("user_config") or "~/.codex/config.toml"
    window, size = f.get("server_window"), f.get("server_request")
    if f.get("codex_message"):
        said = Loc(
            "Codex reports this when the provider rejects a request as too long (code context_length_exceeded).",
            "当提供方以请求过长（code context_length_exceeded）拒绝请求时，Codex 会这样提示。",
        )
    elif window and size:
        said = Loc(
            f"The provider's error says the request ({size:,} tokens) exceeds its window ({window:,} tokens); "
            "Codex shows such errors raw.",
            f"提供方的报错说请求（{size:,} tokens）超出了它的窗口（{window:,} tokens）；Codex 会原样显示这类错误。",
        )
    elif window:
        said = Loc(
            f"The provider's error says its window is {window:,} tokens and the request is longer.",
            f"提供方的报错说它的窗口是 {window:,} tokens，而请求更长。",
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
        reads=("codex_message", "kind", "server_request", "server_window", "user_config"),
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
)
