"""CTX034, the window against the largest tool output Codex keeps (issue 38 item 4): the first request fits, the
first large output does not."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.codex.sizes import ANSWER_ROOM
from codexdoctor.rules.base import CONTEXT, E, Loc, Rule, Text
from codexdoctor.rules.ctx.window import cut_rule


def _large_output_overflows(f: Mapping[str, Any]) -> bool:
    """CTX034: the first request and a typical tool round fit the served window, the largest output Codex keeps
    does not."""
    return (
        f.get("served") is not None
        and f["served"] >= f["min_usable"]
        and f.get("tool_round_typical_fits") is True
        and f.get("tool_round_fits") is False
    )


def _large_output_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """CTX034's numbers and steps: the window that holds the first request, the worst round and an answer; the served
    window's two config lines through window_step (the one window advice, the same pair CTX001 gives); and the
    tool_output_token_limit under which the worst round fits the window as it is (Codex keeps that many x 4 bytes of
    each output, in the same mode)."""
    from codexdoctor.rules.ctx.advice import window_step

    cfg = f.get("user_config") or "~/.codex/config.toml"
    needed = int(f["first_request"]) + int(f["tool_round"]) + ANSWER_ROOM
    room = int(f["room"]) - ANSWER_ROOM
    per_byte = (int(f["tool_round"]) or 1) / max(1, int(f["tool_cut_bytes"]))
    limit = int(room / per_byte / 4) // 100 * 100
    # The one window advice every finding gives (issue 40): the window the provider serves, as CTX001 says it.
    step = window_step(int(f["served"]), cfg, int(f["first_request"]))
    limit_step = (
        Loc(
            f"Or keep less of each output: tool_output_token_limit = {limit} at the top level of {cfg} (Codex then "
            f"keeps {limit * 4:,} bytes of each output; the model sees less of long outputs).",
            f"或者让 Codex 少保留一些输出：在 {cfg} 顶层设置 tool_output_token_limit = {limit}（Codex 会保留每个输出的 "
            f"{limit * 4:,} 字节；模型看到的长输出会更少）。",
        )
        if limit >= 100
        else Loc(
            "A smaller tool_output_token_limit cannot make enough room here: the window is what must grow.",
            "调小 tool_output_token_limit 在这里腾不出足够的空间：需要变大的是窗口。",
        )
    )
    return {
        "cut_rule": cut_rule(f),
        "needed": f"{needed:,}",
        "answer_room": f"{ANSWER_ROOM:,}",
        "window_step": Loc(
            "While it serves this window: " + step.en[0].lower() + step.en[1:], "在窗口还是这么大时：" + step.zh
        ),
        "limit_step": limit_step,
    }


RULES: tuple[Rule, ...] = (
    Rule(
        code="CTX034",
        name="first-large-tool-output-overflows",
        check="ctx.window",
        reads=(
            "first_request",
            "min_usable",
            "room",
            "served",
            "source",
            "tool_cut_bytes",
            "tool_cut_mode",
            "tool_round",
            "tool_round_fits",
            "tool_round_typical",
            "tool_round_typical_fits",
            "user_config",
            "api.turn_two:kind",
        ),
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="Codex's first request fits, its first large tool output does not",
            diagnosis="The provider serves {served} tokens ({source}); Codex's first request takes {first_request} of them and "
            "leaves {room}. {cut_rule}; one call with an output that large, in numbers or log lines (`seq`, a test "
            "run, a build log), costs {tool_round} tokens, so the request after it does not fit; the same output in prose or "
            "code costs about {tool_round_typical} tokens and fits (which is why a request after a tool call can pass "
            "here). Small outputs work; the "
            "session breaks at its first large one, and Codex cannot compact its way out of it.",
            remedy=(
                "Serve the model with a larger window: at least {needed} tokens hold {answer_room} tokens for the answer "
                "besides the first request and that output "
                "(llama.cpp `-c 32768`, vLLM `--max-model-len 32768`, Ollama `num_ctx`).",
                "{window_step}",
                "{limit_step}",
            ),
        ),
        zh=Text(
            title="Codex 的第一个请求放得下，第一个大的工具输出放不下",
            diagnosis="提供方的窗口是 {served} 个 token（{source}）；Codex 的第一个请求占了其中 {first_request}，只剩 {room}。"
            "{cut_rule}；一次调用加上这么大的输出，如果是数字或日志行（`seq`、一次测试运行、构建日志），要 {tool_round} 个 token，"
            "所以它之后的请求放不下；同样大小的文字或代码输出约 {tool_round_typical} 个 token，放得下"
            "（所以工具调用之后的请求在这里可能通过）。小的输出没问题；会话会在第一个大的输出处中断，Codex 也无法靠压缩摆脱。",
            remedy=(
                "用更大的窗口运行模型：至少 {needed} 个 token 才放得下第一个请求、这样的输出和留给回答的 {answer_room} 个 token"
                "（llama.cpp `-c 32768`，vLLM `--max-model-len 32768`，Ollama `num_ctx`）。",
                "{window_step}",
                "{limit_step}",
            ),
        ),
        when=lambda f: [_large_output_params(f)] if _large_output_overflows(f) else [],
        settled_by=("api.turn_two", lambda f: f.get("kind") == "context_exceeded"),
    ),
)
