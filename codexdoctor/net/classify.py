"""Error taxonomy: what an Exchange (status, body, stream) means, whichever server family sent it.

One function, `classify`, returns a kind and what happened in both languages; the rule catalog maps each kind to
one code. Bodies differ by family (OpenAI, vLLM, llama.cpp, LiteLLM, Ollama, OpenRouter, Azure): the markers of
their real error bodies are in net.markers (codex-facts §5, §6, §10), the readers of an error's text in
net.errortext; both are re-exported here for the callers that import them from this module.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from codexdoctor.common import outside_json as outside
from codexdoctor.model import Msg
from codexdoctor.net.errortext import (
    MESSAGE_CHARS,
    context_numbers,
    embedded_json,
    error_code,
    error_message,
    strip_decoration,
    summarize,
    summarize_text,
    without_html,
)
from codexdoctor.net.kinds import FailureKind
from codexdoctor.net.markers import (
    AUTH_MARKERS,
    BLOCK_MARKERS,
    CONTEXT_MARKERS,
    HIGH_DEMAND,
    KEY_QUOTA_MARKERS,
    MODEL_MARKERS,
    NO_CHANNEL_MARKERS,
    NO_KEY_MARKERS,
    PAYMENT_MARKERS,
    QUOTA_MARKERS,
    TURN_TWO_MARKERS,
    tpm_numbers,
    turn_two_item,
)
from codexdoctor.net.said import body_is, shape_said

if TYPE_CHECKING:  # only a type here: reading session logs must not pay for importing httpx
    from codexdoctor.net.exchange import Exchange, StreamStats

__all__ = [  # this module's own names, and those it re-exports from net.markers and net.errortext
    "AUTH_MARKERS",
    "BLOCK_MARKERS",
    "CONTEXT_MARKERS",
    "HIGH_DEMAND",
    "KEY_QUOTA_MARKERS",
    "MESSAGE_CHARS",
    "MODEL_MARKERS",
    "NO_CHANNEL_MARKERS",
    "NO_KEY_MARKERS",
    "PAYMENT_MARKERS",
    "QUOTA_MARKERS",
    "TURN_TWO_MARKERS",
    "Classified",
    "classify",
    "closed_early",
    "context_numbers",
    "embedded_json",
    "error_code",
    "error_message",
    "incomplete",
    "strip_decoration",
    "summarize",
    "summarize_text",
    "tpm_numbers",
    "turn_two_item",
    "without_html",
]


@dataclass(frozen=True)
class Classified:
    """What a provider's answer means, in the error taxonomy's terms, with its own words kept for evidence."""

    # A FailureKind. Typed `str` because checks outside net/ still name kinds as plain strings; construction turns it
    # into the enum member, so a kind outside the closed set raises here instead of never matching a rule.
    kind: str
    said: Msg | None = None  # what happened, in both languages, written where the kind is decided
    message: str = ""  # the provider's own error message, redacted

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", FailureKind(self.kind))

    @property
    def detail(self) -> str:
        """What happened, in English (the facts, the evidence lines)."""
        return str(self.said) if self.said is not None else ""


def _has(text: str, markers: tuple[str, ...]) -> bool:
    return any(m in text for m in markers)


def classify(ex: Exchange, endpoint: str = "responses") -> Classified:
    """Map one exchange to a kind. `endpoint` is responses | chat | models."""
    if ex.failure and ex.status is None:
        return Classified(ex.failure, ex.failure_said)
    if ex.failure == FailureKind.REDIRECT:
        return Classified(FailureKind.REDIRECT, Msg("redirected to {url}", "被重定向到 {url}", url=str(ex.location)))
    if ex.failure:  # the status line arrived, then reading the body failed (reset, undecodable, deadline)
        return Classified(ex.failure, ex.failure_said)
    status = ex.status or 0
    if status == 200 and ex.stream is not None:
        return _classify_stream(ex, endpoint)
    body = ex.body_json
    full = error_message(body)
    msg = summarize(full)
    if 200 <= status < 300:
        return _classify_success(ex, endpoint, msg)
    # The decoded message too: JSON bodies may escape non-ASCII text (\u989d...), which markers must still see.
    blob = (ex.body_excerpt + " " + full + " " + error_code(body)).lower()
    return _classify_refusal(ex, status, blob, msg) or _classify_bad_request(ex, status, blob, msg, endpoint)


def _classify_success(ex: Exchange, endpoint: str, msg: str) -> Classified:
    """A 2xx that is not an event stream: is it the answer Codex can read?"""
    if ex.is_html:
        return Classified(
            FailureKind.HTML, Msg("an HTML page answered where the API should be", "本应是 API 的地方返回了 HTML 页面")
        )
    if ex.body_malformed:
        return Classified(FailureKind.NOT_JSON, body_is(ex.body_malformed))
    if endpoint != "models" and ex.body_json is None:
        return Classified(
            FailureKind.NOT_JSON,
            Msg("the body is neither JSON nor an event stream", "响应体既不是 JSON 也不是事件流"),
        )
    if outside.at(ex.body_json, "error"):
        return Classified(
            FailureKind.STREAM_ERROR, Msg("an error object inside a 200 response", "200 响应中带有 error 对象"), msg
        )
    if ex.requested_stream and endpoint == "responses":
        # Codex reads only server-sent events: a whole JSON answer ends its turn as "stream closed before
        # response.completed" (checked with Codex 0.171.0: scripts/crosscheck_wire.py).
        return Classified(
            FailureKind.NOT_A_STREAM,
            Msg(
                "a plain JSON body ({ctype}) answered a request with stream: true",
                "对 stream: true 的请求返回了普通 JSON 响应体（{ctype}）",
                ctype=ex.content_type or "no Content-Type",
            ),
        )
    return Classified(FailureKind.OK)


def _classify_refusal(ex: Exchange, status: int, blob: str, msg: str) -> Classified | None:
    """The statuses that say who refused and why (the proxy, the key, the account, the rate, the server), or None."""
    if status == 407:  # from the proxy in between, not the provider: net.reach names the proxy (NET007)
        return Classified(FailureKind.PROXY_AUTH, PROXY_ASKS, msg)
    if status == 401:
        if _has(blob, NO_KEY_MARKERS) or not ex.sent_key:
            return Classified(
                FailureKind.AUTH_MISSING, Msg("the provider received no API key", "提供方没有收到 API Key"), msg
            )
        if _has(blob, KEY_QUOTA_MARKERS):
            return Classified(
                FailureKind.KEY_QUOTA,
                Msg("the key is accepted but its quota is used up (401)", "密钥被接受，但它的额度已用尽（401）"),
                msg,
            )
        return Classified(
            FailureKind.AUTH_REJECTED, Msg("the provider rejected the API key", "提供方拒绝了这个 API Key"), msg
        )
    if status == 402 or _has(blob, PAYMENT_MARKERS):
        return Classified(
            FailureKind.PAYMENT, Msg("the account has no credits or balance left", "账户没有额度或余额了"), msg
        )
    if status == 403:
        return _forbidden(ex, blob, msg)
    if status == 429:
        return _too_many(blob, msg)
    if status >= 500 and _has(blob, NO_CHANNEL_MARKERS):
        return Classified(
            FailureKind.MODEL_NOT_FOUND,
            Msg(
                "the gateway has no channel serving this model for the key's group ({status})",
                "网关在这个密钥所属的分组下没有提供该模型的渠道（{status}）",
                status=status,
            ),
            msg,
        )
    if status >= 500:
        failed = Msg(
            "the provider or a proxy in front of it failed ({status})",
            "提供方或其前面的代理出错（{status}）",
            status=status,
        )
        if ex.is_html:
            failed = Msg(
                "the provider or a proxy in front of it failed ({status}): an HTML error page",
                "提供方或其前面的代理出错（{status}）：返回 HTML 错误页",
                status=status,
            )
        return Classified(FailureKind.SERVER_ERROR, failed, msg)
    return None


PROXY_ASKS = Msg(
    "the proxy asks for credentials (407 Proxy Authentication Required)",
    "代理要求提供凭据（407 Proxy Authentication Required）",
)


def _forbidden(ex: Exchange, blob: str, msg: str) -> Classified:
    """A 403: the account's quota, a block before the API (a firewall, a region), or a key not allowed to do this."""
    if _has(blob, QUOTA_MARKERS):
        return Classified(FailureKind.QUOTA, Msg("quota or billing limit", "配额或账单限制"), msg)
    if _has(blob, BLOCK_MARKERS) or ex.is_html:
        return Classified(
            FailureKind.BLOCKED,
            Msg(
                "blocked before reaching the API (firewall, region or IP rule)",
                "请求在到达 API 之前被拦截（防火墙、地区或 IP 规则）",
            ),
            msg,
        )
    return Classified(
        FailureKind.FORBIDDEN,
        Msg("the key is valid but not allowed to do this", "密钥有效，但没有执行此操作的权限"),
        msg,
    )


def _too_many(blob: str, msg: str) -> Classified:
    """A 429: one request over the whole per-minute budget, a quota used up, or a rate limit that lifts."""
    tpm = tpm_numbers(blob)
    if tpm is not None and tpm[1] > tpm[0]:
        return Classified(
            FailureKind.TPM_TOO_LARGE,
            Msg(
                "one request of {requested:,} tokens is over the key's limit of {limit:,} tokens per minute (429)",
                "一个 {requested:,} token 的请求就超过了密钥每分钟 {limit:,} token 的限额（429）",
                requested=tpm[1],
                limit=tpm[0],
            ),
            msg,
        )
    if _has(blob, QUOTA_MARKERS):
        return Classified(
            FailureKind.QUOTA,
            Msg("quota exhausted (not transient: waiting will not help)", "配额已用尽（不是临时问题：等待没有用）"),
            msg,
        )
    return Classified(FailureKind.RATE_LIMITED, Msg("rate limited (transient)", "触发限流（临时）"), msg)


def _classify_bad_request(ex: Exchange, status: int, blob: str, msg: str, endpoint: str) -> Classified:
    """A 4xx about the request itself: the deployment, the context, the size, the model, the path, the format."""
    if "deploymentnotfound" in blob or "deployment for this resource does not exist" in blob:
        return Classified(FailureKind.DEPLOYMENT_NOT_FOUND, Msg("Azure deployment not found", "找不到 Azure 部署"), msg)
    if status in (400, 413, 422) and _has(blob, CONTEXT_MARKERS):
        return Classified(
            FailureKind.CONTEXT_EXCEEDED,
            Msg("the request exceeds the model's context window", "请求超出了模型的上下文窗口"),
            msg,
        )
    if status == 413:
        return Classified(FailureKind.TOO_LARGE, _too_large(ex), msg)
    if status in (400, 404, 422) and _has(blob, MODEL_MARKERS):
        return Classified(
            FailureKind.MODEL_NOT_FOUND,
            Msg("the provider does not serve this model ID", "提供方不提供这个模型 ID"),
            msg,
        )
    if status == 400 and "no connected db" in blob:
        return Classified(
            FailureKind.AUTH_REJECTED,
            Msg(
                "LiteLLM without a database answers a bad key with 400 'No connected db.'",
                "没有数据库的 LiteLLM 对错误密钥返回 400 'No connected db.'",
            ),
            msg,
        )
    if status in (404, 405):
        nothing = Msg("nothing at this path ({status})", "这个路径下没有内容（{status}）", status=status)
        if ex.is_html:
            nothing = Msg(
                "nothing at this path ({status}) - an HTML page",
                "这个路径下没有内容（{status}）——返回的是 HTML 页面",
                status=status,
            )
        return Classified(FailureKind.PATH_NOT_FOUND, nothing, msg)
    if status in (400, 422) and endpoint == "responses" and _WIRE_MISMATCH.search(blob):
        return Classified(
            FailureKind.WIRE_MISMATCH,
            Msg("the endpoint rejects the Responses request format", "该端点不接受 Responses 请求格式"),
            msg,
        )
    return Classified(
        FailureKind.BAD_REQUEST,
        Msg("the provider rejected the request ({status})", "提供方拒绝了请求（{status}）", status=status),
        msg,
    )


def _too_large(ex: Exchange) -> Msg:
    """A 413: a size limit on the way (nginx client_max_body_size, a gateway's body cap), counted in bytes, not
    tokens."""
    html = ", an HTML page from a proxy" if ex.is_html else ""
    html_zh = "，来自代理的 HTML 页面" if ex.is_html else ""
    if ex.request_bytes:
        return Msg(
            "the {size:,}-byte request body is over a size limit on the way (413{html})",
            "{size:,} 字节的请求体超过了途中的大小限制（413{html}）",
            size=ex.request_bytes,
            html=Msg.pair(html, html_zh),
        )
    return Msg(
        "the request body is over a size limit on the way (413{html})",
        "请求体超过了途中的大小限制（413）",
        html=html,
    )


_WIRE_MISMATCH = re.compile(
    r"unrecognized request argument|unknown (field|parameter)|extra inputs are not permitted|input.*required"
)


def _classify_stream(ex: Exchange, endpoint: str = "responses") -> Classified:
    """A 200 event stream, judged by how it ended, as Codex judges it."""
    s = ex.stream
    if s is None:
        raise ValueError("_classify_stream needs an exchange with a stream")
    if s.terminal == "[DONE]" and endpoint == "responses":
        # Chat Completions chunks on /responses: Codex waits for response.completed, which never comes (checked with
        # Codex 0.171.0: "stream closed before response.completed").
        return Classified(
            FailureKind.WRONG_STREAM_GRAMMAR,
            Msg(
                "Chat Completions chunks ending in data: [DONE] ({n} events), "
                "not Responses events ending in response.completed",
                "以 data: [DONE] 结束的 Chat Completions 分块（{n} 个事件），而不是以 response.completed 结束的 Responses 事件",
                n=s.events,
            ),
        )
    if s.completion_problems and (s.terminal == "response.completed" or (s.terminal is None and s.cut == "closed")):
        # Checked with Codex 0.171.0: `response` a string, `id` missing, a count "12" and the turn fails with `stream
        # disconnected before completion: failed to parse ResponseCompleted: …`; `response` null, and Codex skips the
        # event and ends with "stream closed before response.completed".
        return Classified(
            FailureKind.UNREADABLE_COMPLETION,
            Msg(
                "a response.completed event Codex cannot read: {shapes}",
                "一个 Codex 读不了的 response.completed 事件：{shapes}",
                shapes=Msg.join([shape_said(shape) for shape in s.completion_problems[:3]], "; ", "；"),
            ),
        )
    if s.terminal == "response.completed" and any(not c for c in s.tool_call_ids):
        # Checked with Codex 0.171.0: no call_id, and Codex drops the call and ends the turn with no answer (exit 0);
        # an empty one, and the next request is refused ("Invalid 'input[4].call_id': empty string").
        missing = sum(1 for c in s.tool_call_ids if c is None)
        return Classified(
            FailureKind.CALL_ID_LOST,
            Msg("a function_call streamed with no call_id", "流式返回的 function_call 没有 call_id")
            if missing
            else Msg("a function_call streamed with an empty call_id", "流式返回的 function_call 的 call_id 为空"),
        )
    if s.terminal in ("response.completed", "[DONE]"):
        if s.incomplete_reason == "length":
            return Classified(FailureKind.OK, Msg("output budget reached", "达到输出上限"))
        if s.ignored_errors and s.terminal == "response.completed":
            # Codex 0.171 ignores a standalone error event and reads on: the turn completes (checked with the CLI).
            return Classified(
                FailureKind.OK,
                Msg("completed after an error event Codex ignores", "完成了，其间有一个 Codex 会忽略的 error 事件"),
                _error_text(s.ignored_errors[0]),
            )
        return Classified(FailureKind.OK)
    if s.terminal == "response.failed":
        return _failed(s.error)
    if s.terminal is None and s.ignored_errors and endpoint == "chat":
        return _stream_error(s.ignored_errors[0])  # the Chat grammar: an error chunk is the end of the answer
    return _stream_unfinished(ex, s)


def _error_text(error: Mapping[str, Any]) -> str:
    """An error object's message (or its code), redacted upstream, as one line."""
    return summarize(error_message({"error": error}) or str(error.get("code") or ""))


def _failed(error: Mapping[str, Any] | None) -> Classified:
    """response.failed, read as Codex 0.171 reads it: by `error.code` alone (codex-api sse/responses.rs). Four codes
    have their own outcome; every other failure is retried and then shows the provider's message."""
    code = outside.text(error, "code") if error else None
    msg = summarize(error_message({"error": error})) if error else ""
    if code == "context_length_exceeded":
        return Classified(FailureKind.CONTEXT_EXCEEDED, CONTEXT_IN_STREAM, msg)
    if code == "insufficient_quota":
        return Classified(FailureKind.QUOTA, QUOTA_IN_STREAM, msg)
    if code == "usage_not_included":
        return Classified(FailureKind.USAGE_NOT_INCLUDED, USAGE_NOT_INCLUDED, msg)
    if code == "server_is_overloaded":  # 0.171's ServerOverloaded: not retried
        return Classified(FailureKind.SERVER_OVERLOADED, SERVER_OVERLOADED, msg)
    if code in ("rate_limit_exceeded", "slow_down"):  # retried after the wait its message names (net.send), like Codex
        return Classified(FailureKind.RATE_LIMITED, RATE_LIMIT_IN_STREAM, msg)
    return _stream_error(error)


CONTEXT_IN_STREAM = Msg("context error inside the stream", "流中返回了上下文错误")
QUOTA_IN_STREAM = Msg("quota error inside the stream", "流中返回了配额错误")
USAGE_NOT_INCLUDED = Msg.verbatim("response.failed: usage_not_included")
SERVER_OVERLOADED = Msg(
    "response.failed: server_is_overloaded", "response.failed：server_is_overloaded（模型容量已满）"
)
RATE_LIMIT_IN_STREAM = Msg("rate limit inside the stream (response.failed)", "流中返回了限流错误（response.failed）")


def _stream_error(error: Mapping[str, Any] | None) -> Classified:
    """An error inside a 200 stream (response.failed with another code, a Chat error chunk), by what it says."""
    blob = json.dumps(error or {}).lower()
    msg = summarize(error_message({"error": error})) if error else ""
    if _has(blob, CONTEXT_MARKERS):
        return Classified(FailureKind.CONTEXT_EXCEEDED, CONTEXT_IN_STREAM, msg)
    if _has(blob, MODEL_MARKERS):
        return Classified(FailureKind.MODEL_NOT_FOUND, Msg("model error inside the stream", "流中返回了模型错误"), msg)
    if _has(blob, QUOTA_MARKERS):
        return Classified(FailureKind.QUOTA, QUOTA_IN_STREAM, msg)
    if "rate_limit" in blob or "rate limit" in blob:
        return Classified(FailureKind.RATE_LIMITED, Msg("rate limit inside the stream", "流中返回了限流错误"), msg)
    return Classified(
        FailureKind.STREAM_ERROR, Msg("an error event inside a 200 stream", "200 流中出现了 error 事件"), msg
    )


def _stream_unfinished(ex: Exchange, s: StreamStats) -> Classified:
    """A stream that ended without response.completed: incomplete, silent, too big, out of time or closed."""
    if s.terminal == "response.incomplete":
        return _incomplete(ex, s)
    if s.cut == "idle":
        return Classified(
            FailureKind.STREAM_IDLE,
            Msg("no event for the idle limit after {n} events", "收到 {n} 个事件后，在空闲时限内再无事件", n=s.events),
        )
    if s.cut == "oversize":
        return Classified(
            FailureKind.NOT_JSON,
            Msg(
                "the stream went past codexdoctor's limits (16 MB, 100,000 events or a 1 MB line) "
                "after {n} events without completing",
                "收到 {n} 个事件后，流超出了 codexdoctor 的上限（16 MB、100,000 个事件或 1 MB 的一行）仍未完成",
                n=s.events,
            ),
        )
    if s.cut == "deadline":
        return Classified(
            FailureKind.TIMEOUT, Msg("the stream was still running at the deadline", "到时限时流仍未结束")
        )
    if s.bad_lines and s.events <= s.bad_lines:
        return Classified(
            FailureKind.NOT_JSON,
            Msg("broken SSE framing: no valid event in the stream", "SSE 格式损坏：流中没有有效事件"),
        )
    if s.ignored_errors:
        return _closed_after_error(s)
    return Classified(FailureKind.STREAM_CLOSED, closed_early(s.events))


def closed_early(events: int) -> Msg:
    """A stream that closed before response.completed, after this many events."""
    return Msg(
        "stream closed before response.completed after {n} events",
        "收到 {n} 个事件后，流在 response.completed 之前关闭",
        n=events,
    )


def _incomplete(ex: Exchange, s: StreamStats) -> Classified:
    """response.incomplete: Codex 0.171 fails the turn whatever the reason, after printing the partial answer.

    max_output_tokens is the provider's own cap only when it stopped before the cap the request asked for (the canary
    asks for 16 tokens; Codex asks for none): a provider honouring the canary's cap is fine."""
    reason = s.incomplete_reason or "unknown"
    if reason == "max_output_tokens":
        produced = outside.integer(s.usage, "output_tokens")
        if ex.output_cap is None or (produced is not None and produced < ex.output_cap):
            return Classified(FailureKind.OUTPUT_CAPPED, incomplete(reason))
        return Classified(
            FailureKind.OK,
            Msg("output budget reached (response.incomplete: max_output_tokens)", "达到输出上限"),
        )
    return Classified(FailureKind.STREAM_INCOMPLETE, incomplete(reason))


def incomplete(reason: str) -> Msg:
    """`response.incomplete: <reason>`: the event and the provider's reason, the same in every language."""
    return Msg("response.incomplete: {reason}", "response.incomplete：{reason}", reason=reason)


def _closed_after_error(s: StreamStats) -> Classified:
    """EOF after standalone error events: Codex ignored them and says only `stream closed before
    response.completed`; the provider's own words are the evidence (a context overflow stays the true cause)."""
    first = s.ignored_errors[0]
    said = _error_text(first)
    if _has(json.dumps(first).lower(), CONTEXT_MARKERS):
        return Classified(FailureKind.CONTEXT_EXCEEDED, CONTEXT_IN_STREAM, said)
    return Classified(FailureKind.STREAM_CLOSED, closed_early(s.events), said)
