"""API: request path and protocol. The rules, their Simplified Chinese texts and the helpers only they use.

Chinese texts keep the English placeholders; config keys, commands, product names and codes stay untranslated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.common.untrusted import clip
from codexdoctor.rules.base import CHANNEL, E, Loc, Rule, Text, W, once


def _working_why(f: Mapping[str, Any]) -> Loc:
    """Why the verified base_url differs: only the `?…` part, a prefix, or both."""
    configured = str(f.get("configured") or "")
    if configured != configured.rstrip() and configured.strip().rstrip("/") == str(f["working"]["base_url"]).rstrip(
        "/"
    ):
        return Loc(
            " The space at the end of base_url reaches the path as %20; without it the URL works.",
            "base_url 末尾的空格会以 %20 进入路径；去掉它地址就能用。",
        )
    bare = configured.split("#", 1)[0].split("?", 1)[0].rstrip("/")
    query = Loc(
        " The `?…` part of base_url breaks the URL: Codex appends /responses after it.",
        "base_url 里的 `?…` 部分会破坏地址：Codex 会把 /responses 接在它后面。",
    )
    prefix = Loc(
        " This provider wants a different prefix (the /v1 question is decided per provider).",
        "这个提供方要的是另一个前缀（是否带 /v1 因提供方而异）。",
    )
    if bare == configured.rstrip("/"):
        return prefix
    if bare == str(f["working"]["base_url"]).rstrip("/"):
        return query
    return Loc(query.get("en") + prefix.get("en"), query.get("zh") + prefix.get("zh"))


def _rejected_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """API017: the step depends on what was refused: a developer item is the gateway's translation, a field its filter."""
    field = f.get("field")
    if field and "developer" in field:
        step = Loc(
            "A gateway that translates Responses to Chat Completions (LiteLLM with use_chat_completions_api, "
            "one-api and similar) turns Codex's developer items into system messages whose content is a list of "
            "parts; the backend behind it refuses them. Update the backend (llama.cpp's own llama-server accepts "
            "them) or the gateway, or point base_url at a server that serves /responses itself.",
            "把 Responses 转换成 Chat Completions 的网关（开启 use_chat_completions_api 的 LiteLLM、one-api 等）会把 "
            "Codex 的 developer 消息变成内容为分段列表的 system 消息，而网关后面的服务端拒绝这种消息。请升级后端"
            "（llama.cpp 自带的 llama-server 可以接受）或网关，或把 base_url 指向自己提供 /responses 的服务。",
        )
    else:
        step = Loc(
            "If a gateway sits in front (e.g. LiteLLM), let it drop parameters the model does not support "
            "(LiteLLM: litellm_settings: drop_params: true) or update it; then run codexdoctor check again.",
            "如果前面有网关（例如 LiteLLM），让它丢弃模型不支持的参数（LiteLLM：litellm_settings: drop_params: true）"
            "或升级它；然后再运行 codexdoctor check。",
        )
    return {"field_text": field or Loc("a field it did not name", "某个它没有指明的字段"), "field_step": step}


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
    "function_call": Loc(
        "The gateway does not take function_call items in input: update it to a version whose Responses API supports "
        "tool calls.",
        "网关不接受 input 中的 function_call 项：升级到 Responses API 支持工具调用的版本。",
    ),
}


def _turn_two_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """API021: what the request added, what the error names, and the mask Codex puts over a 5xx."""
    named = f.get("named_item")
    size = f"{f['request_bytes']:,} bytes" if f.get("request_bytes") else ""
    mask = Loc("", "")
    if (f.get("status") or 0) >= 500:
        mask = Loc(
            " Codex retries it 30 times and then shows only `We're currently experiencing high demand, which may "
            "cause temporary errors.`, which reads like an overload: it is this error."
            if not f.get("html")
            else " Only this larger request gets the proxy's error page: a proxy or gateway in between fails on it "
            f"({size}); Codex retries it 30 times, then prints the page.",
            " Codex 会重试 30 次，然后只显示 `We're currently experiencing high demand, which may cause temporary "
            "errors.`，看起来像是过载：其实就是这个错误。"
            if not f.get("html")
            else f" 只有这个更大的请求收到了代理的错误页：中间的代理或网关处理它时出错（{size}）；Codex 重试 30 次后把这个页面打印出来。",
        )
    step = _TURN_TWO_STEPS.get(named or "") or (
        Loc(
            f"Raise the body size and timeout limits of the proxy in front of the API ({size} for this request, more as a "
            "session grows), and check its error log for this request.",
            f"调大 API 前面那个代理的请求体大小和超时限制（这个请求 {size}，会话越长越大），并在它的错误日志里找这个请求。",
        )
        if f.get("html")
        else Loc(
            "Update the gateway, or point base_url at a server that serves /responses itself: the request is Codex's own.",
            "升级网关，或把 base_url 指向自己提供 /responses 的服务：这个请求就是 Codex 自己会发的。",
        )
    )
    items = ", ".join(f.get("item_kinds") or [])
    message = f.get("message") or f.get("detail") or ""
    if f.get("high_demand"):
        opening = Loc(
            "Codex prints this for a 5xx from the provider, after 30 retries, whatever the provider said. In a "
            "session that breaks after its first command, the usual cause is a gateway that fails on the request "
            "Codex sends after a tool ran; `codexdoctor check` sends that request and names the part it fails on.",
            "无论提供方说了什么，只要它返回 5xx，Codex 重试 30 次后都会打印这句话。会话在第一个命令之后就中断时，常见原因是"
            "网关处理 Codex 在工具运行之后发出的请求时出错；`codexdoctor check` 会发送这个请求，并指出它在哪一部分出错。",
        )
        mask = Loc("", "")
    elif f.get("pasted"):
        opening = Loc(
            f"The pasted error is what a gateway answers to the request Codex sends after a tool ran, which "
            f"carries the tool call and its output ({items}): {message}.",
            f"粘贴的错误是网关对 Codex 在工具运行之后发出的请求（带着工具调用和它的输出：{items}）的回答：{message}。",
        )
    else:
        added = f.get("added_bytes") or 0
        opening = Loc(
            f"Codex's first request worked, but its next one, which carries a tool call and its output ({items}, "
            f"{added:,} bytes more than the first), answered {f.get('status')}: {message}.",
            f"Codex 的第一个请求成功了，但下一个请求（带着一次工具调用和它的输出：{items}，比第一个请求多 {added:,} 字节）"
            f"返回了 {f.get('status')}：{message}。",
        )
    return {
        "opening": opening,
        "item_text": Loc(
            f" The error names the {named.replace('_', ' ') if named == 'tool_role' else named} part of it.",
            f" 错误指向其中的 {named.replace('_', ' ') if named == 'tool_role' else named} 部分。",
        )
        if named
        else "",
        "mask_text": mask,
        "turn_two_step": step,
        "message_short": clip(f.get("message") or f.get("detail") or "", 160),
    }


def path_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """API016: a URL with /v1 twice (or /responses twice) names its own fix."""
    fixed = f.get("doubled_fix")
    if fixed:
        return {
            "doubled_text": Loc(
                f" The URL has {f['doubled']} twice: base_url already ends in it.",
                f" 这个地址里 {f['doubled']} 出现了两次：base_url 本身已经以它结尾。",
            ),
            "path_step": Loc(
                f'Set base_url = "{fixed}" ({f.get("base_url_where")}), so that Codex calls {fixed}/responses.',
                f'设置 base_url = "{fixed}"（{f.get("base_url_where")}），让 Codex 请求 {fixed}/responses。',
            ),
        }
    return {
        "doubled_text": "",
        "path_step": Loc(
            "Run `codexdoctor check`: it tries the base_url variants (with and without /v1) and names the one that works.",
            "运行 `codexdoctor check`：它会尝试 base_url 的各种变体（带或不带 /v1），并给出可用的那个。",
        ),
    }


RULES: tuple[Rule, ...] = (
    Rule(
        code="API001",
        name="wrong-base-url-path",
        check="api.variants",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Nothing at the path Codex calls; another base_url works",
            diagnosis="POST {request_url} finds nothing (404), but {working_url} answers.{why_text}",
            remedy=('In {base_url_where}, set base_url = "{working_url}"', "Run `codexdoctor check` again to confirm."),
        ),
        zh=Text(
            title="Codex 请求的路径不存在；另一个 base_url 可用",
            diagnosis="POST {request_url} 找不到（404），但 {working_url} 有响应。{why_text}",
            remedy=('在 {base_url_where} 中设置 base_url = "{working_url}"', "再运行一次 `codexdoctor check` 确认。"),
        ),
        when=lambda f: (
            [{"working_url": f["working"]["base_url"], "why_text": _working_why(f)}] if f.get("working") else []
        ),
    ),
    Rule(
        code="API002",
        name="responses-api-missing",
        check="api.wire",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Provider serves Chat Completions but not the Responses API",
            diagnosis="The provider answers POST …/chat/completions but 404s on …/responses. Codex 0.97 and newer only speak the Responses API"
            " (installed: {codex_version_text}), so this provider cannot serve current Codex.",
            remedy=(
                "Use a gateway or provider that offers POST /responses (many OpenAI-compatible gateways added it).",
                'Or pin an older Codex and keep wire_api = "chat": npm install -g @openai/codex@0.96.0',
            ),
        ),
        zh=Text(
            title="提供方只支持 Chat Completions，不支持 Responses API",
            diagnosis="提供方能响应 POST …/chat/completions，但 …/responses 返回 404。Codex 0.97 及以后的版本只使用 Responses API（已安装：{codex_version_text}），所以这个提供方无法配合当前版本的 Codex。",
            remedy=(
                "换用提供 POST /responses 的网关或提供方（很多 OpenAI 兼容网关已经支持）。",
                '或者固定使用旧版 Codex 并保留 wire_api = "chat"：npm install -g @openai/codex@0.96.0',
            ),
        ),
        when=lambda f: (
            [{"codex_version_text": f.get("codex_version") or Loc("unknown", "未知")}]
            if f.get("chat_works") and not f.get("variants_work")
            else []
        ),
    ),
    Rule(
        code="API003",
        name="rate-limited",
        check="api.canary",
        severity=W,
        verdict=CHANNEL,
        en=Text(
            title="Rate limited",
            diagnosis="POST {url} answered 429 after {attempts:count:attempt}: {message}. This is transient.",
            remedy=(
                "Wait and retry; lower concurrency; check the rate limits of your plan in the provider's console.",
            ),
        ),
        zh=Text(
            title="触发限流",
            diagnosis="POST {url} 在 {attempts} 次尝试后仍返回 429：{message}。这是临时性的。",
            remedy=("稍后重试；降低并发；在提供方控制台查看你的套餐的限流额度。",),
        ),
        when=once(lambda f: f["kind"] == "rate_limited"),
    ),
    Rule(
        code="API004",
        name="quota-exhausted",
        check="api.canary",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Quota exhausted",
            diagnosis="POST {url}: {message}. Waiting will not help (Codex does not retry this).",
            remedy=("Add credit or raise the quota in the provider's console, or use another key.",),
        ),
        zh=Text(
            title="配额已用尽",
            diagnosis="POST {url}：{message}。等待没有用（Codex 不会重试这种错误）。",
            remedy=("在提供方控制台充值或提高配额，或换一个密钥。",),
        ),
        when=once(lambda f: f["kind"] == "quota"),
    ),
    Rule(
        code="API005",
        name="provider-error",
        check="api.canary",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Provider or proxy error (5xx)",
            diagnosis="POST {url} answered {status} after {attempts:count:attempt}: {detail}.",
            remedy=(
                "Retry later; check the provider's status page. An HTML 502/504 page comes from a proxy or load balancer in front of the API.",
            ),
        ),
        zh=Text(
            title="提供方或代理出错（5xx）",
            diagnosis="POST {url} 在 {attempts} 次尝试后返回 {status}：{detail}。",
            remedy=("稍后重试；查看提供方的状态页。HTML 格式的 502/504 页面来自 API 前面的代理或负载均衡。",),
        ),
        when=once(lambda f: f["kind"] == "server_error"),
    ),
    Rule(
        code="API006",
        name="payment-required",
        check="api.canary",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="No credits left",
            diagnosis="POST {url}: {message}.",
            remedy=("Top up the account in the provider's console.",),
        ),
        zh=Text(
            title="余额不足",
            diagnosis="POST {url}：{message}。",
            remedy=("在提供方控制台充值。",),
        ),
        when=once(lambda f: f["kind"] == "payment"),
    ),
    Rule(
        code="API007",
        name="error-inside-stream",
        check="api.canary",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Error inside a 200 stream",
            diagnosis="POST {url} started a 200 stream and then sent an error: {message}.",
            remedy=(
                "The provider accepted the request but failed while answering; retry, and report the message to the provider.",
            ),
        ),
        zh=Text(
            title="200 流中途返回了错误",
            diagnosis="POST {url} 以 200 开始了流式响应，随后发来一个错误：{message}。",
            remedy=("提供方接受了请求，但在生成回答时出错；请重试，并把这条消息反馈给提供方。",),
        ),
        when=once(lambda f: f["kind"] == "stream_error"),
    ),
    Rule(
        code="API008",
        name="stream-closed-early",
        check="api.canary",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Stream closed before completion",
            diagnosis="The stream from {url} ended without response.completed ({detail}). Codex reports "
            "`stream disconnected before completion: stream closed before response.completed`.",
            remedy=(
                "Check for a proxy that buffers or cuts server-sent events; retry; report to the provider if it persists.",
            ),
        ),
        zh=Text(
            title="流在完成之前被关闭",
            diagnosis="来自 {url} 的流没有收到 response.completed 就结束了（{detail}）。Codex 会报 `stream disconnected before completion: stream closed before response.completed`。",
            remedy=("检查是否有代理缓冲或截断了 server-sent events；重试；如果持续出现，反馈给提供方。",),
        ),
        when=once(lambda f: f["kind"] == "stream_closed"),
    ),
    Rule(
        code="API009",
        name="stream-idle",
        check="api.canary",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Stream went silent",
            diagnosis="The stream from {url} stopped sending events ({detail}). Codex gives up after stream_idle_timeout_ms "
            "(`idle timeout waiting for SSE`).",
            remedy=("Retry; if the provider is slow but alive, raise stream_idle_timeout_ms in the provider table.",),
        ),
        zh=Text(
            title="流中途没有了动静",
            diagnosis="来自 {url} 的流不再发送事件（{detail}）。Codex 在 stream_idle_timeout_ms 之后放弃（`idle timeout waiting for SSE`）。",
            remedy=("重试；如果提供方只是慢但仍在工作，在提供方表中调大 stream_idle_timeout_ms。",),
        ),
        when=once(lambda f: f["kind"] == "stream_idle"),
    ),
    Rule(
        code="API010",
        name="request-rejected",
        check="api.canary",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Request rejected",
            diagnosis="POST {url} answered {status}: {message}.",
            remedy=(
                "Read the provider's message above; check model, wire_api and query_params against its documentation.",
            ),
        ),
        zh=Text(
            title="请求被拒绝",
            diagnosis="POST {url} 返回 {status}：{message}。",
            remedy=("阅读上面提供方给出的消息；对照其文档检查 model、wire_api 和 query_params。",),
        ),
        when=once(lambda f: f["kind"] == "bad_request"),
    ),
    Rule(
        code="API011",
        name="not-an-api-answer",
        check="api.canary",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Answer is not JSON or an event stream",
            diagnosis="POST {url} answered {status} with a body that is neither JSON nor server-sent events ({detail}).",
            remedy=("Check that base_url is the API endpoint, not a website or another service on the same host.",),
        ),
        zh=Text(
            title="响应既不是 JSON 也不是事件流",
            diagnosis="POST {url} 返回 {status}，但响应体既不是 JSON 也不是 server-sent events（{detail}）。",
            remedy=("确认 base_url 是 API 端点，而不是同一主机上的网站或其他服务。",),
        ),
        when=once(lambda f: f["kind"] == "not_json"),
    ),
    Rule(
        code="API012",
        name="response-incomplete",
        check="api.canary",
        severity=W,
        verdict=CHANNEL,
        en=Text(
            title="Response ended incomplete",
            diagnosis="The canary ended with {detail}.",
            remedy=(
                "If the reason is content_filter, the provider's moderation cut the answer; otherwise report it to the provider.",
            ),
        ),
        zh=Text(
            title="响应未完整结束",
            diagnosis="探测请求以 {detail} 结束。",
            remedy=("如果原因是 content_filter，说明提供方的内容审核截断了回答；否则请反馈给提供方。",),
        ),
        when=once(lambda f: f["kind"] == "stream_incomplete"),
    ),
    Rule(
        code="API013",
        name="path-not-found",
        check="api.variants",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Nothing at the path Codex calls",
            diagnosis="POST {request_url} finds nothing (404), and neither do the usual variants ({tried_text}).",
            remedy=(
                "Look up the OpenAI-compatible base URL in the provider's documentation and set base_url in {base_url_where}; "
                "Codex appends /responses to it.",
            ),
        ),
        zh=Text(
            title="Codex 请求的路径不存在",
            diagnosis="POST {request_url} 找不到（404），常见的几种变体也都不行（{tried_text}）。",
            remedy=(
                "在提供方文档中查到 OpenAI 兼容的 base_url 地址，在 {base_url_where} 中设置 base_url；Codex 会在它后面追加 /responses。",
            ),
        ),
        when=lambda f: (
            [{"tried_text": ", ".join(f.get("tried") or []) or Loc("none", "无")}]
            if not f.get("working") and not f.get("chat_works")
            else []
        ),
    ),
    Rule(
        code="API016",
        name="responses-path-not-found",
        check="api.canary",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Nothing at the path Codex calls",
            diagnosis="POST {url} answered 404: Codex calls base_url + /responses, and this provider has nothing there.{doubled_text}",
            remedy=(
                "{path_step}",
                "Check that base_url ({base_url_where}) is the provider's OpenAI-compatible API root, and that it supports the Responses API.",
            ),
        ),
        zh=Text(
            title="Codex 请求的路径不存在",
            diagnosis="POST {url} 返回 404：Codex 请求的是 base_url + /responses，而这个提供方在那里什么也没有。{doubled_text}",
            remedy=(
                "{path_step}",
                "确认 base_url（{base_url_where}）是提供方 OpenAI 兼容 API 的根地址，并且支持 Responses API。",
            ),
        ),
        when=once(lambda f: f["kind"] == "path_not_found"),
        settled_by=("api.variants", lambda f: True),
    ),
    Rule(
        code="API014",
        name="responses-format-rejected",
        check="api.canary",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Endpoint rejects the Responses request format",
            diagnosis="POST {url} answered {status}: {message}. The path exists but does not understand Responses requests.",
            remedy=(
                'Use a provider or gateway version that implements the Responses API, or pin Codex 0.96 with wire_api = "chat".',
            ),
        ),
        zh=Text(
            title="端点不接受 Responses 请求格式",
            diagnosis="POST {url} 返回 {status}：{message}。路径是存在的，但它不理解 Responses 请求。",
            remedy=('换用实现了 Responses API 的提供方或网关版本，或固定使用 Codex 0.96 并设置 wire_api = "chat"。',),
        ),
        when=once(lambda f: f["kind"] == "wire_mismatch"),
    ),
    Rule(
        code="API017",
        name="codex-request-rejected",
        check="api.canary",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The provider rejects part of Codex's request",
            diagnosis="POST {url} rejected Codex's own request ({status}: {message}) while a minimal request to the same URL passed: "
            "the provider or gateway does not accept {field_text} that Codex {codex_version} sends. Every Codex turn fails this way.",
            remedy=(
                "Use a provider or gateway version that implements the Responses API as Codex uses it ({field_text} included).",
                "{field_step}",
            ),
            explanation="The canary is Codex's first request (same fields, developer items and tool schemas), so a field or item a "
            "provider refuses shows up here instead of in the first Codex session.",
        ),
        zh=Text(
            title="提供方拒绝了 Codex 请求中的一部分",
            diagnosis="POST {url} 拒绝了 Codex 自己的请求（{status}：{message}），而发往同一地址的最小请求可以通过："
            "提供方或网关不接受 Codex {codex_version} 发送的 {field_text}。Codex 的每一轮都会这样失败。",
            remedy=(
                "换用按 Codex 的用法实现了 Responses API 的提供方或网关版本（包括 {field_text}）。",
                "{field_step}",
            ),
        ),
        when=lambda f: [_rejected_params(f)] if f["kind"] == "codex_rejected" else [],
    ),
    Rule(
        code="API015",
        name="unreliable-channel",
        check="api.canary",
        severity=W,
        verdict=CHANNEL,
        en=Text(
            title="The request only succeeded after retries",
            diagnosis="POST {url} needed {attempts} attempts (earlier: {earlier_text}). Codex retries too, but a channel this flaky "
            "shows up as `Reconnecting... 1/5` and slow or dropped turns.",
            remedy=(
                "Run `codexdoctor check` again to see whether it persists; check the provider's status page.",
                "If you go through a proxy or VPN, try without it.",
            ),
        ),
        zh=Text(
            title="请求重试之后才成功",
            diagnosis="POST {url} 尝试了 {attempts} 次才成功（之前：{earlier_text}）。Codex 也会重试，但这么不稳定的通道会表现为 `Reconnecting... 1/5`，回合变慢或中断。",
            remedy=(
                "再运行一次 `codexdoctor check` 看问题是否持续；查看提供方的状态页。",
                "如果经过代理或 VPN，试试不走它们。",
            ),
        ),
        when=lambda f: (
            [{"earlier_text": ", ".join(f.get("earlier") or [])}]
            if f["kind"] == "ok" and f.get("attempts", 1) > 1
            else []
        ),
    ),
    Rule(
        code="API018",
        name="not-a-responses-stream",
        check="api.canary",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The answer is not the event stream Codex reads",
            diagnosis="POST {url} answered 200, but with {detail}. Codex reads only server-sent events in the Responses grammar "
            "ending in response.completed, so every turn ends with `stream disconnected before completion: stream closed "
            "before response.completed` (Codex retries it {codex_retries} times first).",
            remedy=("{grammar_step}", "Run `codexdoctor check` again once the gateway is changed."),
        ),
        zh=Text(
            title="响应不是 Codex 能读取的事件流",
            diagnosis="POST {url} 返回了 200，但内容是{detail}。Codex 只读取 Responses 格式、以 response.completed 结束的 "
            "server-sent events，所以每一轮都会以 `stream disconnected before completion: stream closed before "
            "response.completed` 结束（Codex 会先重试 {codex_retries} 次）。",
            remedy=("{grammar_step}", "网关改好后再运行一次 `codexdoctor check`。"),
        ),
        when=lambda f: (
            [
                {
                    "grammar_step": Loc(
                        "The gateway translates /responses into Chat Completions and streams the Chat chunks back unchanged: update "
                        "it, or turn its Responses support on (LiteLLM: a current version serves /v1/responses itself), or point "
                        "base_url at a server that serves /responses.",
                        "网关把 /responses 转成了 Chat Completions，又把 Chat 的分块原样流回来：升级网关，或打开它的 Responses 支持"
                        "（LiteLLM：当前版本自己提供 /v1/responses），或把 base_url 指向真正提供 /responses 的服务。",
                    )
                    if f["kind"] == "wrong_stream_grammar"
                    else Loc(
                        "The gateway ignores `stream: true` and sends the whole answer at once: turn streaming on for this route or "
                        "model in the gateway (some need it per model), or update it.",
                        "网关忽略了 `stream: true`，一次性返回完整回答：在网关里为这个路由或模型打开流式输出（有些要逐个模型设置），或升级网关。",
                    ),
                    "codex_retries": f.get("codex_retries", 5),
                }
            ]
            if f["kind"] in ("not_a_stream", "wrong_stream_grammar")
            else []
        ),
    ),
    Rule(
        code="API019",
        name="rate-limit-outlasts-retries",
        check="api.canary",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Rate limited past every retry Codex makes",
            diagnosis="POST {url} answered 429 at all {rate_limited_attempts} attempts Codex makes (stream_max_retries = "
            "{codex_retries_setting}, each after the answer's Retry-After{retry_after_text}): {message}. Codex gives up with "
            "`exceeded retry limit, last status: 429 Too Many Requests`.",
            remedy=(
                "Check the key's rate limits and current usage in the provider's console; another program using the same key "
                "(a second Codex, a CI job) shares the limit.",
                "If the limit lifts after a while, raise stream_max_retries in [model_providers.{provider_id}] "
                "({base_url_where}) so that Codex waits longer; a key with a higher limit is the lasting fix.",
            ),
        ),
        zh=Text(
            title="限流持续到了 Codex 的最后一次重试之后",
            diagnosis="POST {url} 在 Codex 的全部 {rate_limited_attempts} 次尝试中都返回 429（stream_max_retries = "
            "{codex_retries_setting}，每次都按响应的 Retry-After{retry_after_text} 等待）：{message}。Codex 最后会以 "
            "`exceeded retry limit, last status: 429 Too Many Requests` 放弃。",
            remedy=(
                "在提供方控制台查看这个密钥的限流额度和当前用量；使用同一密钥的其他程序（另一个 Codex、CI 任务）共享这个额度。",
                "如果过一会儿限流会解除，可以在 [model_providers.{provider_id}]（{base_url_where}）中调大 stream_max_retries，让 Codex "
                "等得更久；长久的办法是换一个额度更高的密钥。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "retry_after_text": f" of {f['retry_after_s']:g} s" if f.get("retry_after_s") is not None else "",
                    "codex_retries_setting": f.get("codex_attempts", 6) - 1,
                }
            ]
            if f["kind"] == "rate_limit_exhausted"
            else []
        ),
    ),
    Rule(
        code="API020",
        name="body-over-size-limit",
        check="api.canary",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="A size limit on the way refuses Codex's request",
            diagnosis="POST {url} answered 413 to Codex's first request ({request_bytes_text}): {detail}. This is a limit on the body "
            "in bytes, set by a proxy or gateway, not the model's context window; Codex's requests grow with every turn, so "
            "a session fails sooner or later even if the first one fits.",
            remedy=(
                "Raise the body limit of the proxy in front of the API (nginx: client_max_body_size 50m; in the server or "
                "location block that proxies to it), or ask the gateway's operator to.",
                "Then run `codexdoctor check` again: the canary sends the same request.",
            ),
        ),
        zh=Text(
            title="途中的大小限制拒绝了 Codex 的请求",
            diagnosis="POST {url} 对 Codex 的第一个请求（{request_bytes_text}）返回了 413：{detail}。这是代理或网关设置的请求体字节数"
            "上限，不是模型的上下文窗口；Codex 的请求每一轮都在变大，所以即使第一个请求能通过，会话迟早也会失败。",
            remedy=(
                "调大 API 前面那个代理的请求体上限（nginx：在转发到它的 server 或 location 块中设置 client_max_body_size 50m;），"
                "或请网关的运维人员调大。",
                "然后再运行 `codexdoctor check`：探测请求发送的是同一个请求。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "request_bytes_text": f"{f['request_bytes']:,} bytes"
                    if f.get("request_bytes")
                    else Loc("its size unknown", "大小未知")
                }
            ]
            if f["kind"] == "too_large"
            else []
        ),
    ),
    Rule(
        code="API021",
        name="turn-two-items-rejected",
        check="api.turn_two",
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
            [_turn_two_params(f)] if f["kind"] not in ("ok", "context_exceeded") and not f.get("skipped") else []
        ),
    ),
    Rule(
        code="API022",
        name="tool-call-without-call-id",
        check="api.canary",
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
            diagnosis="单个问题可以通过，但会话（它的每一轮都像 Codex 一样带着工具调用和输出）在 {item_sent} tokens 时就失败了"
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
