"""API, after a tool call: the items Codex sends next and the call ids it needs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.codex.request_words import items_said
from codexdoctor.common.untrusted import clip
from codexdoctor.rules.base import CHANNEL, E, Loc, Rule, Text, once

_TURN_TWO_STEPS = {
    "function_call_output": Loc(
        "The gateway (or the server behind it) does not take function_call_output items: update it to a version "
        "whose Responses API supports tool outputs, or point base_url at a server that serves /responses itself.",
        "网关（或它后面的服务端）不接受 function_call_output 项：升级到 Responses API 支持工具输出的版本，或把 base_url 指向"
        "自己提供 /responses 的服务。",
    ),
    "call_id": Loc(
        "The bridge loses or empties the call_id that ties a tool output to its call: update it (LiteLLM and one-api "
        "fixed this in their Responses bridges).",
        "桥接层丢失或清空了把工具输出和调用对应起来的 call_id：升级它（LiteLLM 和 one-api 在各自的 Responses 桥接中修复过）。",
    ),
    "reasoning": Loc(
        "The reasoning item Codex replays (with encrypted_content) cannot be verified where the request now goes: "
        "the gateway sends turns of one session to different backends or keys. Pin the session to one backend, or "
        'turn reasoning off for this model (model_reasoning_effort = "minimal" in config.toml, where it is supported).',
        "Codex 回放的推理项（带 encrypted_content）在请求现在到达的地方无法验证：网关把同一会话的各轮发到了不同的后端或密钥。"
        '让会话固定在一个后端，或为这个模型关闭推理（在支持的地方于 config.toml 中设置 model_reasoning_effort = "minimal"）。',
    ),
    "tool_role": Loc(
        "A Chat Completions bridge turns the tool output into a `tool` message, and the model's chat template refuses "
        "that role: start the server with a template that supports tools (llama-server --jinja, and a tool-capable "
        "chat template), or use a model whose template has a tool role.",
        "Chat Completions 桥接把工具输出变成 `tool` 消息，而模型的对话模板拒绝这个角色：用支持工具的模板启动服务端"
        "（llama-server --jinja，加上支持工具的对话模板），或换一个模板里有 tool 角色的模型。",
    ),
    "parallel_results": Loc(
        "The gateway passes on only the first tool result of a round in which the model ran several commands: update "
        "it, or use a provider that accepts parallel tool results.",
        "模型在一轮里运行了多个命令时，网关只转发了第一个工具结果：升级它，或换用接受并行工具结果的提供方。",
    ),
    "function_call": Loc(
        "The gateway does not take function_call items in input: update it to a version whose Responses API supports "
        "tool calls.",
        "网关不接受 input 中的 function_call 项：升级到 Responses API 支持工具调用的版本。",
    ),
}


def _size(f: Mapping[str, Any], lang: str = "en") -> str:
    if not f.get("request_bytes"):
        return ""
    return f"{f['request_bytes']:,} " + ("字节" if lang == "zh" else "bytes")


def _turn_two_mask(f: Mapping[str, Any]) -> Loc:
    """The mask Codex puts over a 5xx (its "high demand" line, or the proxy's page), named as this error."""
    if (f.get("status") or 0) < 500 or f.get("high_demand"):
        return Loc("", "")
    return Loc(
        " Codex retries it 30 times and then shows only `We're currently experiencing high demand, which may "
        "cause temporary errors.`, which reads like an overload: it is this error."
        if not f.get("html")
        else " Only this larger request gets the proxy's error page: a proxy or gateway in between fails on it "
        f"({_size(f)}); Codex retries it 30 times, then prints the page.",
        "Codex 会重试 30 次，然后只显示 `We're currently experiencing high demand, which may cause temporary "
        "errors.`，看起来像是过载：其实就是这个错误。"
        if not f.get("html")
        else f"只有这个更大的请求收到了代理的错误页：中间的代理或网关处理它时出错（{_size(f, 'zh')}）；Codex 重试 30 次后把这个页面打印出来。",
    )


def _turn_two_opening(f: Mapping[str, Any]) -> Loc:
    """What was sent and what came back: Codex's "high demand" line, a pasted error, or the request this run sent."""
    said = items_said(f.get("item_kinds") or [])
    items, items_zh = said.text("en"), said.text("zh")
    message = f.get("message") or f.get("detail") or ""
    if f.get("high_demand"):
        return Loc(
            "Codex prints this for a 5xx from the provider, after 30 retries, whatever the provider said. In a "
            "session that breaks after its first command, the usual cause is a gateway that fails on the request "
            "Codex sends after a tool ran; `codexdoctor check` sends that request and names the part it fails on.",
            "无论提供方说了什么，只要它返回 5xx，Codex 重试 30 次后都会打印这句话。会话在第一个命令之后就中断时，常见原因是"
            "网关处理 Codex 在工具运行之后发出的请求时出错；`codexdoctor check` 会发送这个请求，并指出它在哪一部分出错。",
        )
    if f.get("pasted"):
        return Loc(
            f"The pasted error is what a gateway answers to the request Codex sends after a tool ran, which "
            f"carries the tool call and its output ({items}): {message}.",
            f"粘贴的错误是网关对 Codex 在工具运行之后发出的请求（带着工具调用和它的输出：{items_zh}）的回答：{message}。",
        )
    added = f.get("added_bytes") or 0
    return Loc(
        f"Codex's first request worked, but its next one, which carries tool calls and their outputs ({items}, "
        f"{added:,} bytes more than the first), answered {f.get('status')}: {message}.",
        f"Codex 的第一个请求成功了，但下一个请求（带着工具调用和它们的输出：{items_zh}，比第一个请求多 {added:,} 字节）"
        f"返回了 {f.get('status')}：{message}。",
    )


def _turn_two_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """API021: what the request added, what the error names, and the mask Codex puts over a 5xx."""
    named = f.get("named_item")
    step = _TURN_TWO_STEPS.get(named or "") or (
        Loc(
            f"Raise the body size and timeout limits of the proxy in front of the API ({_size(f)} for this request, "
            "more as a session grows), and check its error log for this request.",
            f"调大 API 前面那个代理的请求体大小和超时限制（这个请求 {_size(f, 'zh')}，会话越长越大），并在它的错误日志里找这个请求。",
        )
        if f.get("html")
        else Loc(
            "Update the gateway, or point base_url at a server that serves /responses itself: the request is Codex's own.",
            "升级网关，或把 base_url 指向自己提供 /responses 的服务：这个请求就是 Codex 自己会发的。",
        )
    )
    return {
        "opening": _turn_two_opening(f),
        "item_text": Loc(
            f" The error names the {named.replace('_', ' ') if named == 'tool_role' else named} part of it.",
            "错误指向其中的 tool 角色部分。" if named == "tool_role" else f"错误指向其中的 {named} 部分。",
        )
        if named
        else "",
        "mask_text": _turn_two_mask(f),
        "turn_two_step": step,
        "message_short": clip(f.get("message") or f.get("detail") or "", 160),
    }


def _parallel_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """API031: what the two-call request got, and what shows the second result is the trouble: the one-call request
    this run sent, or (pasted from Codex or a session log) the error's own words about the calls left unanswered."""
    message = clip(f.get("message") or f.get("body_excerpt") or "", 200)
    if f.get("pasted"):
        answered = Loc(
            f"The provider answered {f.get('status') or 'an error'}: {message}.",
            f"提供方返回了 {f.get('status') or '错误'}：{message}。",
        )
        contrast = Loc(
            " The ids it names as unanswered are the calls after the first: their results were dropped on the way.",
            "它列为没有回应的 id 是第一个之后的调用：它们的结果在途中被丢掉了。",
        )
    else:
        answered = Loc(
            f"POST {f.get('url')} with that request answered {f.get('status')}: {message}.",
            f"用这样的请求调用 POST {f.get('url')}，返回了 {f.get('status')}：{message}。",
        )
        contrast = Loc(
            f" The same request with one call and one output answered {f.get('single_status')}.",
            f"同样的请求只带一次调用和一个输出时返回 {f.get('single_status')}。",
        )
    items = items_said(f.get("item_kinds") or [])
    return {
        "items": Loc(items.text("en"), items.text("zh")),
        "message_short": message,
        "failed_as": Loc(f"{f['status']}: {message}", f"{f['status']}：{message}") if f.get("status") else message,
        "answered": answered,
        "contrast": contrast,
    }


RULES: tuple[Rule, ...] = (
    Rule(
        code="API021",
        name="turn-two-items-rejected",
        check="api.turn_two",
        reads=(
            "added_bytes",
            "detail",
            "high_demand",
            "html",
            "item_kinds",
            "kind",
            "message",
            "named_item",
            "parallel_refused",
            "pasted",
            "request_bytes",
            "status",
        ),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The gateway breaks on the request Codex sends after a tool call",
            diagnosis="{opening}{item_text} Codex sends such a request after every command it runs, so a single question works and "
            "any real session breaks: this is the channel, not the context.{mask_text}",
            remedy=(
                "{turn_two_step}",
                "Tell the gateway's operator: \"Responses requests whose input holds function_call and function_call_output "
                'items (and reasoning items with encrypted_content) fail: {message_short}"; attach the output of '
                "codexdoctor check -v --format markdown.",
            ),
        ),
        zh=Text(
            title="网关在 Codex 工具调用之后发出的请求上出错",
            diagnosis="{opening}{item_text}Codex 每运行一个命令之后都会发这样的请求，所以单个问题能用，真正的会话却会中断："
            "这是通道的问题，不是上下文的问题。{mask_text}",
            remedy=(
                "{turn_two_step}",
                "告诉网关的运维人员：“input 中带有 function_call 和 function_call_output 项（以及带 encrypted_content 的 "
                "reasoning 项）的 Responses 请求会失败：{message_short}”；附上 codexdoctor check -v --format markdown 的输出。",
            ),
        ),
        when=lambda f: (
            [_turn_two_params(f)]
            if f["kind"] not in ("ok", "context_exceeded") and not f.get("parallel_refused")
            else []
        ),
    ),
    Rule(
        code="API031",
        name="parallel-tool-results-refused",
        check="api.turn_two",
        reads=(
            "body_excerpt",
            "item_kinds",
            "kind",
            "message",
            "parallel_refused",
            "pasted",
            "single_status",
            "status",
            "url",
        ),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The gateway refuses more than one tool result in a request",
            diagnosis="Codex asks models for parallel tool calls, and after a response with two calls it sends both calls, then "
            "both outputs, in one request ({items}). {answered}{contrast} So the gateway (a Chat Completions bridge, "
            "typically) keeps or accepts only one tool result per round: Codex works until the model runs two commands at "
            "once, then the session fails.",
            remedy=(
                "Tell the gateway's operator: \"Responses requests with two function_call items followed by two "
                'function_call_output items fail ({failed_as}); with one of each they work"; attach the '
                "output of codexdoctor check -v --format markdown.",
                "Or use a provider (or a gateway version) that accepts parallel tool results: one that serves /responses "
                "itself, or a bridge that turns every function_call_output into its own `tool` message.",
                'wire_api = "chat" is no way around it: Codex 0.171 sends only Responses requests, and the tool calls it '
                "asks for are parallel (`parallel_tool_calls: true`) whatever the provider.",
            ),
        ),
        zh=Text(
            title="网关不接受一个请求里有多个工具结果",
            diagnosis="Codex 会让模型并行调用工具；一个回答里有两次调用时，它在同一个请求里先发出这两次调用，再发出两个输出（{items}）。"
            "{answered}{contrast}"
            "所以网关（通常是 Chat Completions 桥接）每轮只保留或接受一个工具结果：在模型一次运行两个命令之前 Codex 都能用，之后会话就会失败。",
            remedy=(
                "告诉网关的运维人员：“带两个 function_call 项、后面跟两个 function_call_output 项的 Responses 请求会失败"
                "（{failed_as}）；各带一个时可以通过”；附上 codexdoctor check -v --format markdown 的输出。",
                "或者换用接受并行工具结果的提供方（或网关版本）：自己提供 /responses 的服务，或把每个 function_call_output "
                "都变成单独一条 `tool` 消息的桥接。",
                'wire_api = "chat" 绕不过去：Codex 0.171 只发 Responses 请求，而且无论提供方是谁，它请求的工具调用都是并行的'
                "（`parallel_tool_calls: true`）。",
            ),
        ),
        when=lambda f: [_parallel_params(f)] if f.get("parallel_refused") and f["kind"] != "ok" else [],
    ),
    Rule(
        code="API022",
        name="tool-call-without-call-id",
        check="api.canary",
        reads=("detail", "kind", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The provider streams tool calls without their call_id",
            diagnosis="POST {url} answered with {detail}. Codex ties a tool's output to its call by call_id: with none, Codex drops "
            "the call and ends the turn with no answer (exit 0, nothing done); with an empty one, its next request is "
            "refused (`Invalid 'input[4].call_id': empty string`).",
            remedy=(
                "The bridge between Codex and the model (a Chat-to-Responses translation) loses the call id: update it, or "
                "point base_url at a server that serves /responses itself.",
            ),
        ),
        zh=Text(
            title="提供方流式返回的工具调用没有 call_id",
            diagnosis="POST {url} 返回了{detail}。Codex 靠 call_id 把工具的输出和调用对应起来：没有 call_id 时，Codex 会丢弃这次调用，"
            "什么也不做就结束这一轮（退出码 0，没有回答）；call_id 为空时，它的下一个请求会被拒绝"
            "（`Invalid 'input[4].call_id': empty string`）。",
            remedy=(
                "Codex 和模型之间的桥接层（把 Chat 转成 Responses 的那一层）丢掉了调用 id：升级它，或把 base_url 指向自己提供 "
                "/responses 的服务。",
            ),
        ),
        when=once(lambda f: f["kind"] == "call_id_lost"),
    ),
    Rule(
        code="API023",
        name="session-tool-items-rejected",
        check="ctx.probe",
        reads=("item_fault",),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="A growing session fails on Codex's tool items, not on its size",
            diagnosis="Single questions work, but the session, whose turns carry a tool call and its output as Codex's do, "
            "failed already at {item_sent} tokens ({item_detail}). The error names the {item_name} items: the gateway "
            "refuses them at any size. This is the channel; the window was never reached.",
            remedy=(
                "{turn_two_step}",
                "Run `codexdoctor check`: its request after a tool call shows the same fault with the provider's words.",
            ),
        ),
        zh=Text(
            title="不断变长的会话在 Codex 的工具项上失败，而不是在大小上",
            diagnosis="单个问题可以通过，但会话（它的每一轮都像 Codex 一样带着工具调用和输出）在 {item_sent} 个 token 时就失败了"
            "（{item_detail}）。错误指向 {item_name} 项：网关在任何大小下都拒绝它们。这是通道的问题；窗口根本没有被触及。",
            remedy=(
                "{turn_two_step}",
                "运行 `codexdoctor check`：它在工具调用之后发出的请求会用提供方自己的话给出同样的错误。",
            ),
        ),
        when=lambda f: (
            [
                {
                    **_turn_two_params(
                        {
                            "named_item": f["item_fault"]["item"],
                            "status": f["item_fault"]["status"],
                            "message": f["item_fault"]["detail"],
                            "pasted": True,
                            "item_kinds": ["function_call", "function_call_output"],
                        }
                    ),
                    "item_sent": f"{f['item_fault']['sent']:,}",
                    "item_detail": f["item_fault"]["detail"],
                    "item_name": f["item_fault"]["item"],
                }
            ]
            if f.get("item_fault")
            else []
        ),
    ),
)
