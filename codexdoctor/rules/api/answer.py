"""API, the provider's answer to Codex's request: limits, refusals, payment, retries (how its stream ends: stream.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.codex.request_words import refused_said
from codexdoctor.rules.base import CHANNEL, E, Loc, Rule, Text, W, once


def _unreadable_message(f: Mapping[str, Any]) -> dict[str, Any]:
    """API010: a body that looked like JSON but could not be read has no message of its own; what made it unreadable
    stands in its place ("the body is JSON nested 100,000 levels deep …"). The canary gives its Chinese beside it
    (CheckResult.said, under model.item_key("message", …)), which the engine quotes in a Chinese report."""
    if f.get("message") or not f.get("body_malformed"):
        return {}
    return {"message": f"the body is {f['body_malformed']}"}


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
    if not field:
        return {"field_text": Loc("a field it did not name", "某个它没有指明的字段"), "field_step": step}
    return {"field_text": Loc(field, refused_said(field).text("zh")), "field_step": step}


def _earlier_text(earlier: list[str]) -> Loc:
    """API015's list of what the earlier attempts got, in the words of the check's evidence line (net.exchange)."""
    from codexdoctor.net.exchange import earlier_said

    said = earlier_said(earlier)
    return Loc(said.text("en"), said.text("zh"))


RULES: tuple[Rule, ...] = (
    Rule(
        code="API003",
        name="rate-limited",
        check="api.canary",
        reads=("attempts", "kind", "message", "status", "url"),
        severity=W,
        verdict=CHANNEL,
        en=Text(
            title="Rate limited",
            diagnosis="POST {url} answered{answered} after {attempts:count:attempt}: {message}. This is transient.",
            remedy=(
                "Wait and retry; lower concurrency; check the rate limits of your plan in the provider's console.",
            ),
        ),
        zh=Text(
            title="触发限流",
            diagnosis="POST {url} 在 {attempts} 次尝试后仍返回{answered}：{message}。这是临时性的。",
            remedy=("稍后重试；降低并发；在提供方控制台查看你的套餐的限流额度。",),
        ),
        # A rate_limit_exceeded stream is a 200 that ends in response.failed: no 429 was sent (issue 40).
        when=lambda f: (
            [
                {
                    "answered": Loc(" a rate_limit_exceeded stream (response.failed)", "限流的流（response.failed）")
                    if f.get("status") == 200
                    else Loc(" 429", " 429")
                }
            ]
            if f["kind"] == "rate_limited"
            else []
        ),
    ),
    Rule(
        code="API004",
        name="quota-exhausted",
        check="api.canary",
        reads=("kind", "message", "status", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Quota exhausted",
            diagnosis="POST {url}: {message}. Waiting will not help (Codex does not retry this){codex_says}.",
            remedy=("Add credit or raise the quota in the provider's console, or use another key.",),
        ),
        zh=Text(
            title="配额已用尽",
            diagnosis="POST {url}：{message}。等待没有用（Codex 不会重试这种错误）{codex_says}。",
            remedy=("在提供方控制台充值或提高配额，或换一个密钥。",),
        ),
        # Codex 0.171's own sentence for insufficient_quota, in a 429 or a response.failed (checked with the CLI).
        when=lambda f: (
            [
                {
                    "codex_says": Loc(
                        "; Codex prints `Quota exceeded. Check your plan and billing details.`",
                        "；Codex 会显示 `Quota exceeded. Check your plan and billing details.`",
                    )
                    if f.get("status") in (429, 200)
                    else ""
                }
            ]
            if f["kind"] == "quota"
            else []
        ),
    ),
    Rule(
        code="API028",
        name="request-over-tpm-limit",
        check="api.canary",
        reads=("first_request", "kind", "tpm_limit", "tpm_requested", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Codex's first request alone is over the key's tokens-per-minute limit",
            diagnosis="POST {url} answered 429: the request is {tpm_requested:,} tokens and the key's limit is "
            "{tpm_limit:,} tokens per minute. Codex's first request is {first_text}, so no turn can ever start; "
            "waiting does not help. Codex only shows `exceeded retry limit, last status: 429 Too Many Requests`.",
            remedy=(
                "Raise the key's TPM limit (OpenAI: a higher usage tier; a gateway: the key's or channel's rate limit).",
                "Or make Codex's first request smaller than {tpm_limit:,} tokens: a short `instructions` in "
                "~/.codex/config.toml replaces Codex's built-in instructions of about 3,500 tokens; "
                '`web_search = "disabled"` drops a tool; a long AGENTS.md counts too.',
            ),
        ),
        zh=Text(
            title="Codex 的第一个请求本身就超过了密钥的每分钟 token 限额",
            diagnosis="POST {url} 返回 429：这个请求有 {tpm_requested:,} 个 token，而密钥的限额是每分钟 {tpm_limit:,} 个 "
            "token。Codex 的第一个请求{first_text}，所以任何一轮都无法开始，等待也没有用。Codex 只会显示 `exceeded retry "
            "limit, last status: 429 Too Many Requests`。",
            remedy=(
                "提高密钥的 TPM 限额（OpenAI：更高的用量等级；网关：密钥或渠道的速率限制）。",
                "或者把 Codex 的第一个请求缩小到 {tpm_limit:,} 个 token 以下：在 ~/.codex/config.toml 中写一段简短的 "
                '`instructions` 可以替换 Codex 约 3,500 token 的内置说明；`web_search = "disabled"` 会去掉一个工具；'
                "很长的 AGENTS.md 也会计入。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "first_text": Loc(f"about {f['first_request']:,} tokens", f"约有 {f['first_request']:,} 个 token")
                    if f.get("first_request")
                    else Loc("this request", "就是这个请求")
                }
            ]
            if f["kind"] == "tpm_too_large"
            else []
        ),
    ),
    Rule(
        code="API005",
        name="provider-error",
        check="api.canary",
        reads=("attempts", "detail", "kind", "status", "url"),
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
        reads=("kind", "message", "url"),
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
        code="API010",
        name="request-rejected",
        check="api.canary",
        reads=("body_malformed", "kind", "message", "status", "url"),
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
        when=lambda f: [_unreadable_message(f)] if f["kind"] == "bad_request" else [],
    ),
    Rule(
        code="API011",
        name="not-an-api-answer",
        check="api.canary",
        reads=("detail", "kind", "status", "url"),
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
        code="API017",
        name="codex-request-rejected",
        check="api.canary",
        reads=("codex_version", "field", "kind", "message", "status", "url"),
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
        reads=("attempts", "earlier", "kind", "url"),
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
            [{"earlier_text": _earlier_text(f.get("earlier") or [])}]
            if f["kind"] == "ok" and f.get("attempts", 1) > 1
            else []
        ),
    ),
    Rule(
        code="API019",
        name="rate-limit-outlasts-retries",
        check="api.canary",
        reads=(
            "base_url_where",
            "codex_attempts",
            "kind",
            "message",
            "provider_id",
            "rate_limited_attempts",
            "retry_after_s",
            "url",
        ),
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
                    "retry_after_text": Loc(f" of {f['retry_after_s']:g} s", f"（{f['retry_after_s']:g} 秒）")
                    if f.get("retry_after_s") is not None
                    else "",
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
        reads=("detail", "kind", "request_bytes", "url"),
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
                    "request_bytes_text": Loc(f"{f['request_bytes']:,} bytes", f"{f['request_bytes']:,} 字节")
                    if f.get("request_bytes")
                    else Loc("its size unknown", "大小未知")
                }
            ]
            if f["kind"] == "too_large"
            else []
        ),
    ),
)
