"""API, how the answer's stream ends: an error inside it, closed early, silent, incomplete, capped, or with a
response.completed Codex cannot read.

Chinese texts keep the English placeholders; config keys, commands, product names and codes stay untranslated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from codexdoctor.rules.base import CHANNEL, E, I, Loc, Rule, Text, once


def _incomplete_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """API012: the reason as the provider gave it, and the step its reason calls for (a content filter is the
    operator's setting; any other reason is the provider's to explain)."""
    said = re.search(r"(\w+)\W*$", str(f.get("detail") or ""))
    reason = f.get("incomplete_reason") or (said.group(1) if said else "unknown")
    if reason == "content_filter":
        step = Loc(
            "The provider's content filter cut the answer (Codex already asked the model to work around it "
            f"{f.get('codex_retries', 5)} times). Ask the operator which filter is on for this key or deployment "
            "(Azure OpenAI: the deployment's content filter policy) and whether it can be relaxed; rephrase a prompt "
            "that trips it.",
            f"提供方的内容过滤截断了回答（Codex 已经让模型绕开它重试了 {f.get('codex_retries', 5)} 次）。请向运营者确认"
            "这个密钥或部署启用了哪种过滤（Azure OpenAI：部署的内容筛选策略）以及能否放宽；换一种说法重写触发过滤的提示。",
        )
    else:
        step = Loc(
            "Report the reason to the provider; Codex accepts only answers that end in response.completed.",
            "把这个原因反馈给提供方；Codex 只接受以 response.completed 结束的回答。",
        )
    return {"reason": reason, "incomplete_step": step}


RULES: tuple[Rule, ...] = (
    Rule(
        code="API007",
        name="error-inside-stream",
        check="api.canary",
        reads=("kind", "message", "url"),
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
        reads=("detail", "kind", "url"),
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
        reads=("detail", "kind", "url"),
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
        code="API012",
        name="response-incomplete",
        check="api.canary",
        reads=("codex_retries", "detail", "incomplete_reason", "kind", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The provider ends answers incomplete",
            diagnosis="The answer from {url} ended with `response.incomplete` (reason {reason}). Codex accepts only "
            "answers that end in response.completed: it prints the partial answer, retries the turn {codex_retries} "
            "times and then fails with `stream disconnected before completion: Incomplete response returned, "
            "reason: {reason}`.",
            remedy=("{incomplete_step}",),
        ),
        zh=Text(
            title="提供方的回答没有完整结束",
            diagnosis="来自 {url} 的回答以 `response.incomplete`（原因 {reason}）结束。Codex 只接受以 response.completed "
            "结束的回答：它会打印不完整的回答，把这一轮重试 {codex_retries} 次，然后报 `stream disconnected before "
            "completion: Incomplete response returned, reason: {reason}`。",
            remedy=("{incomplete_step}",),
        ),
        when=lambda f: [_incomplete_params(f)] if f["kind"] == "stream_incomplete" else [],
    ),
    Rule(
        code="API025",
        name="ignored-error-event",
        check="api.canary",
        reads=("ignored_errors", "kind", "url"),
        severity=I,
        verdict=CHANNEL,
        en=Text(
            title="The provider sends error events Codex ignores",
            diagnosis="The stream from {url} carried an `error` event ({error_text}) and then completed. Codex 0.171 "
            "ignores standalone error events, so this turn works; when such an event is the last thing a stream "
            "sends, Codex only says `stream closed before response.completed`.",
            remedy=(
                "Nothing to change for Codex. If you see `stream closed before response.completed`, the provider's "
                "own error is in its log or in the evidence of `codexdoctor check`.",
            ),
        ),
        zh=Text(
            title="提供方发送了 Codex 会忽略的 error 事件",
            diagnosis="来自 {url} 的流中有一个 `error` 事件（{error_text}），随后正常完成。Codex 0.171 会忽略单独的 "
            "error 事件，所以这一轮能成功；如果这种事件是流里最后发出的内容，Codex 只会说 `stream closed before "
            "response.completed`。",
            remedy=(
                "对 Codex 无需修改。如果看到 `stream closed before response.completed`，提供方自己的错误信息在它的日志里，"
                "或在 `codexdoctor check` 的证据里。",
            ),
        ),
        when=lambda f: (
            [{"error_text": "; ".join(f["ignored_errors"])}] if f["kind"] == "ok" and f.get("ignored_errors") else []
        ),
    ),
    Rule(
        code="API026",
        name="output-capped-by-provider",
        check="api.canary",
        reads=("kind", "output_tokens", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The provider cuts every answer short",
            diagnosis="POST {url} stopped {after_text}with `response.incomplete` (reason max_output_tokens), before "
            "the limit the request asked for; Codex asks for none. Codex prints the partial answer and then "
            "`Incomplete response returned, reason: max_output_tokens`, and the turn fails; it does not retry.",
            remedy=(
                "Ask the provider's operator to raise or remove the output-token limit on this key or model "
                "(one-api/new-api: the channel's max_tokens override; LiteLLM: `max_tokens` in the model's "
                "litellm_params).",
                "If you run the server yourself, raise its generation limit (llama.cpp `-n`/`--n-predict`; vLLM: the "
                "served model's generation config).",
            ),
        ),
        zh=Text(
            title="提供方把每个回答都截短了",
            diagnosis="POST {url} {after_text}以 `response.incomplete`（原因 max_output_tokens）结束，早于请求要求的上限；"
            "Codex 并不要求任何上限。Codex 会先打印不完整的回答，再报 `Incomplete response returned, reason: "
            "max_output_tokens`，本轮失败，且不会重试。",
            remedy=(
                "请提供方的运营者调高或取消这个密钥或模型上的输出 token 上限（one-api/new-api：渠道的 max_tokens 覆盖；"
                "LiteLLM：模型 litellm_params 里的 `max_tokens`）。",
                "如果服务是你自己运行的，调高它的生成上限（llama.cpp `-n`/`--n-predict`；vLLM：所服务模型的生成配置）。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "after_text": Loc(
                        f"after {f['output_tokens']:,} output tokens ", f"在输出 {f['output_tokens']:,} 个 token 后"
                    )
                    if f.get("output_tokens") is not None
                    else ""
                }
            ]
            if f["kind"] == "output_capped"
            else []
        ),
    ),
    Rule(
        code="API027",
        name="usage-not-included",
        check="api.canary",
        reads=("kind", "message", "model", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The provider does not let this key use this model",
            diagnosis="POST {url} failed with code usage_not_included ({message}). Codex answers it with `To use Codex "
            "with your ChatGPT plan, upgrade to Plus: …`, a message meant for ChatGPT sign-in; with an API key it "
            "means the provider does not allow this key to use this model.",
            remedy=(
                "Ask the provider which plan or key may use {model}; the upgrade link in Codex's message is not for "
                "third-party providers.",
            ),
        ),
        zh=Text(
            title="提供方不允许这个密钥使用这个模型",
            diagnosis="POST {url} 以 usage_not_included 失败（{message}）。Codex 对它显示 `To use Codex with your ChatGPT "
            "plan, upgrade to Plus: …`，这条消息是给 ChatGPT 登录用户的；使用 API 密钥时，它表示提供方不允许这个密钥"
            "使用这个模型。",
            remedy=("向提供方确认哪个套餐或密钥可以使用 {model}；Codex 消息里的升级链接不适用于第三方提供方。",),
        ),
        when=once(lambda f: f["kind"] == "usage_not_included"),
    ),
    Rule(
        code="API024",
        name="unreadable-completed-event",
        check="api.canary",
        reads=("codex_retries", "detail", "kind", "terminal", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Codex cannot read the provider's response.completed event",
            diagnosis="POST {url} streamed an answer and ended it with {detail}. Codex reads that event into a fixed "
            "shape (`id` a string; `usage`, when it is there, with whole-number token counts), so every turn fails "
            "with `{codex_says}` (Codex retries it {codex_retries} times first).",
            remedy=(
                "The provider, or a gateway in front of it, writes a response.completed event that does not follow "
                "the Responses API: report it to them with the evidence of `codexdoctor check -v --format markdown`, "
                "or point base_url at a server that follows it.",
                "Run `codexdoctor check` again once it is fixed.",
            ),
        ),
        zh=Text(
            title="Codex 读不了提供方发来的 response.completed 事件",
            diagnosis="POST {url} 流式返回了回答，结尾却是{detail}。Codex 按固定的结构读取这个事件（`id` 是字符串；"
            "`usage` 如果有，其中的 token 数都是整数），所以每一轮都会以 `{codex_says}` 失败（Codex 会先重试 "
            "{codex_retries} 次）。",
            remedy=(
                "提供方或它前面的网关写出的 response.completed 事件不符合 Responses API：把 "
                "`codexdoctor check -v --format markdown` 的证据报告给他们，或把 base_url 指向符合它的服务。",
                "修好之后再运行一次 `codexdoctor check`。",
            ),
        ),
        when=lambda f: (
            [
                {
                    # Codex's own words (checked with 0.171.0): an event it cannot parse ends the turn; one without
                    # `response` is skipped, and the stream then ends without a completion.
                    "codex_says": "stream disconnected before completion: "
                    + (
                        "failed to parse ResponseCompleted: …"
                        if f.get("terminal") == "response.completed"
                        else "stream closed before response.completed"
                    ),
                    "codex_retries": f.get("codex_retries", 5),
                }
            ]
            if f["kind"] == "unreadable_completion"
            else []
        ),
    ),
)
