"""Error taxonomy: what an Exchange (status, body, stream) means, whichever server family sent it.

One function, `classify`, returns a kind; the rule catalog maps each kind to
one code. Bodies differ by family (OpenAI, vLLM, llama.cpp, LiteLLM, Ollama,
OpenRouter, Azure); the markers below come from their real error bodies
(codex-facts §5, §6, §10).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from codexdoctor.common import outside_json as outside
from codexdoctor.common.untrusted import clip
from codexdoctor.net.kinds import FailureKind

if TYPE_CHECKING:  # only a type here: reading session logs must not pay for importing httpx
    from codexdoctor.net.exchange import Exchange, StreamStats

CONTEXT_MARKERS = (
    "context_length_exceeded",
    "maximum context length",
    "exceed_context_size_error",
    "contextwindowexceedederror",
    "exceeds the context window",
    "context window exceeded",
    "exceeds the available context size",
    "prompt is too long",
    "input is too long",
    "reduce the length of the messages",
    "too many tokens",
    "context_length",
    # Ollama: "prompt too long; exceeded max context length by N tokens"
    "prompt too long",
    "max context length",
    "context length exceeded",
    # Providers Chinese developers put behind Codex, and local servers (docs/provider-errors.md):
    "exceeded model token limit",  # Moonshot Kimi: "…exceeded model token limit: 262144 (requested: N)"
    "context window exceeds limit",  # MiniMax: "invalid params, context window exceeds limit"
    "model_context_window_exceeded",  # Zhipu z.ai
    "range of input length should be",  # Alibaba DashScope (Qwen): "…should be [1, 30720]"
    "greater than the context length",  # LM Studio
    "maximum model length is",  # vLLM, older wording
    "configured context size is",  # "prompt has N tokens, but the configured context size is M tokens"
    "prompt token count of",  # GitHub Copilot: "prompt token count of N exceeds the limit of M"
    "input token count",  # Google Gemini: "The input token count (N) exceeds the maximum number of tokens…"
    "maximum prompt length is",  # xAI: "This model's maximum prompt length is N but the request contains M"
    "must be less than max_seq_len",  # hosted APIs: "prompt_tokens (N) must be less than max_seq_len (M)"
    "输入长度超过",
    "上下文长度超",
    "超出最大长度",
    "超过最大长度",
    "prompt 超长",
)
MODEL_MARKERS = (
    "model_not_found",
    "does not exist",
    "try pulling it first",
    "invalid model name",
    "no such model",
    "unknown model",
    "model not found",
    "is not a valid model",
    "not a valid model id",
    "model_not_supported",
    "no endpoints found for",
    "unsupported model",
    "not supported model",
    "no available channel for model",
    "模型不存在",
    "无可用渠道",
    # Moonshot (Kimi), 404: "Not found the model kimi-latest or Permission denied" (not a wrong path)
    "not found the model",
    "无权访问模型",
)
# one-api / new-api and their forks answer 503 when no channel serves the model for the key's group: a reply of the
# gateway's own, the same for a mistyped model ID and for one whose channels are all disabled, never an outage to wait out.
NO_CHANNEL_MARKERS = ("无可用渠道", "no available channel")
NO_KEY_MARKERS = (
    "didn't provide an api key",
    "no api key",
    "missing api key",
    "missing authentication",
    "authorization header is missing",
    "missing bearer",
    "no auth credentials found",
    "api key is required",
    "未提供令牌",
    "未提供 api key",
)
AUTH_MARKERS = (
    "invalid_api_key",
    "incorrect api key",
    "invalid api key",
    "invalid token",
    "unauthorized",
    "authentication",
    "no connected db",
    "api key not valid",
    "invalid_authentication",
    "令牌",
    "无效的令牌",
)
BLOCK_MARKERS = (
    "cloudflare",
    "attention required",
    "cf-ray",
    "unsupported_country_region_territory",
    "country, region, or territory",
    "not available in your region",
    "access denied",
    "ip address",
    "your ip",
    "forbidden by administrative rules",
    "request blocked",
    "waf",
)
QUOTA_MARKERS = (
    "insufficient_quota",
    "exceeded your current quota",
    "quota exceeded",
    "billing",
    "budget has been exceeded",
    "exceeded budget",
    "额度不足",
    "余额不足",
    "额度已用尽",
)
# A gateway that knows the key but refuses it for its balance answers 401 with these words (new-api/one-api:
# "该令牌额度已用尽 TokenStatusExhausted[sk-abc***xyz]"; checked with Codex 0.171, which shows the body and retries it as
# a wrong key): read before a 401 is taken for a rejected key.
KEY_QUOTA_MARKERS = (
    *QUOTA_MARKERS,
    "tokenstatusexhausted",
    "pre_consume_token_quota_failed",
    "insufficient user quota",
    "credit balance is too low",
)
# OpenAI's per-request token-rate limit: "Request too large for gpt-4o … on tokens per min (TPM): Limit 8000,
# Requested 9000". Waiting never helps when the one request is over the whole minute's budget.
TPM_RE = re.compile(r"(?:tokens per min|\btpm\b).*?limit\s*([\d,]+),\s*requested\s*([\d,]+)", re.S)


def tpm_numbers(text: str) -> tuple[int, int] | None:
    """(limit, requested) of a tokens-per-minute refusal, or None when the text is none."""
    m = TPM_RE.search(text.lower())
    return (int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))) if m else None


PAYMENT_MARKERS = (
    "insufficient credits",
    "insufficient balance",
    "payment required",
    "requires more credits",
    "credit balance",
    "add credits",
    # Alibaba DashScope, an account in arrears: 400 "Access denied, please make sure your account is in
    # good standing" (code Arrearage, help page #overdue-payment)
    "arrearage",
    "overdue-payment",
)


@dataclass(frozen=True)
class Classified:
    """What a provider's answer means, in the error taxonomy's terms, with its own words kept for evidence."""

    # A FailureKind. Typed `str` because checks outside net/ still name kinds as plain strings; construction turns it
    # into the enum member, so a kind outside the closed set raises here instead of never matching a rule.
    kind: str
    detail: str = ""
    message: str = ""  # the provider's own error message, redacted

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", FailureKind(self.kind))


def error_message(body: Any) -> str:
    """The human message inside any family's error body (`error.message`, `error` as a string, `detail`, …), or ""."""
    err = body.get("error", body) if isinstance(body, Mapping) else None
    if isinstance(err, str):
        return err
    for key in ("message", "msg", "detail", "error"):
        value = outside.at(err, key)
        if isinstance(value, str):
            return value
        if isinstance(value, Mapping):
            return error_message({"error": value})
    for key in ("message", "detail"):
        if (found := outside.text(body, key)) is not None:
            return found
    return ""


# Errors that only the request after a tool call meets (issue 31), each seen from the real Codex 0.171.0 in front of
# a gateway that breaks that way (scripts/crosscheck_turn_two.py), with the item kind it points at. Specific enough to
# read in a pasted error or a session log; the live check, which knows turn one passed, also reads broader words.
TURN_TWO_MARKERS = (
    ("invalid value: 'function_call_output'", "function_call_output"),
    ("no tool output found for function call", "function_call_output"),
    ("conversation roles must alternate", "tool_role"),
    ("invalid_encrypted_content", "reasoning"),
    ("encrypted content", "reasoning"),
    (".call_id': empty string", "call_id"),
    # OpenAI's words when a chat bridge passed on only the first tool result of a parallel round (issue 38 item 4)
    ("did not have response messages", "parallel_results"),
)
# What Codex 0.171 prints for a 5xx after its 30 retries, whatever the provider said (seen for a chat template that
# refuses the tool role): read as a channel failure, most often at the request after a tool call.
HIGH_DEMAND = ("currently experiencing high demand",)


def turn_two_item(text: str, broad: bool = False) -> str | None:
    """The item kind a turn-two error names, or None. `broad`: also the bare words (the live check, where the
    request that failed is known to be the one after a tool call)."""
    lowered = text.lower().replace("\u2019", "'")
    found = next((item for marker, item in TURN_TWO_MARKERS if marker in lowered), None)
    if found or not broad:
        return found
    return next(
        (
            item
            for marker, item in (
                ("function_call_output", "function_call_output"),
                ("call_id", "call_id"),
                ("reasoning", "reasoning"),
                ("tool", "tool_role"),
                ("function_call", "function_call"),
            )
            if marker in lowered
        ),
        None,
    )


MESSAGE_CHARS = 240


def summarize(message: str, limit: int = MESSAGE_CHARS) -> str:
    """A provider's message as one readable line: its first line (validation dumps go on for pages), bounded."""
    head = (message or "").lstrip()[:300].lower()
    if head.startswith(("<!doctype html", "<html")):
        m = re.search(r"<title>([^<]{1,120})</title>", message, re.I)
        return f"an HTML page ({' '.join(m.group(1).split())})" if m else "an HTML page"
    lines = [line.strip() for line in (message or "").splitlines() if line.strip()]
    text = " ".join(lines[0].split()) if lines else ""
    if len(lines) > 1 and len(text) < 40:  # "20 validation errors:" alone says too little
        text = " ".join(" ".join(lines[:2]).split())
    return clip(text, limit)


# How each server family states the window and the request size in its overflow error (codex-facts §5, §10).
_WINDOW_RES = (
    re.compile(r"maximum context length is ([\d,]+)"),
    re.compile(r"available context size \(([\d,]+) tokens\)"),
    re.compile(r"context window of ([\d,]+)"),
    re.compile(r'"n_ctx":\s*(\d+)'),
    re.compile(r"n_ctx[=:]\s*(\d+)"),
    re.compile(r"model token limit: ([\d,]+)"),
    re.compile(r"maximum model length is ([\d,]+)"),
    re.compile(r"configured context size is ([\d,]+)"),
    re.compile(r"range of input length should be \[1, ?([\d,]+)\]"),
    re.compile(r"prompt token count of [\d,]+ exceeds the limit of ([\d,]+)"),
    re.compile(r"maximum number of tokens allowed \(([\d,]+)\)"),
    re.compile(r"maximum prompt length is ([\d,]+)"),
    re.compile(r"max_seq_len \(([\d,]+)\)"),
)
_REQUEST_RES = (
    re.compile(r"resulted in ([\d,]+) tokens"),
    re.compile(r"request \(([\d,]+) tokens\)"),
    re.compile(r"you requested ([\d,]+) tokens"),
    re.compile(r"request has ([\d,]+) input tokens"),
    re.compile(r"value=([\d,]+)"),
    re.compile(r'"n_prompt_tokens":\s*(\d+)'),
    re.compile(r"prompt has ([\d,]+) tokens"),
    re.compile(r"\(requested: ([\d,]+)\)"),
    re.compile(r"prompt token count of ([\d,]+)"),
    re.compile(r"input token count \(([\d,]+)\)"),
    re.compile(r"request contains ([\d,]+) tokens"),
    re.compile(r"prompt_tokens \(([\d,]+)\)"),
)


@functools.lru_cache(maxsize=1024)
def context_numbers(text: str) -> tuple[int | None, int | None]:
    """(window, request size) as the server counted them, when its context error says so (cached, as above)."""
    text = text.lower()  # the patterns are lower case: "Prompt has", "Range of input length"

    def first(patterns: tuple[re.Pattern[str], ...]) -> int | None:
        for pattern in patterns:
            m = pattern.search(text)
            if m:
                return int(m.group(1).replace(",", ""))
        return None

    return first(_WINDOW_RES), first(_REQUEST_RES)


# What Codex and terminals put around the message: ANSI colours, a tracing timestamp and target, `ERROR:`,
# `⚠️ stream error:`, and a `; retrying 1/5 in 200ms…` tail.
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# After the level: one target (`codex_core::codex:` or a span `session_loop{thread_id=…}:`), then any further
# module-path targets (they contain `::`, so a message's own `Unauthorized:` is never taken for one).
_PREFIXES = re.compile(
    r"^(?:\d{4}-\d\d-\d\dT[\d:.]+Z?\s+)?"
    r"(?:(?:ERROR|WARN|INFO|DEBUG|TRACE)\s+\w+(?:::\w+)*(?:\{[^}]*\})?:\s*(?:\w+(?:::\w+)+(?:\{[^}]*\})?:\s*)*)?"
    r"(?:(?:⚠️|⚠|✗|■|•)\s*)?(?:stream error|error|ERROR|Error|warning|WARNING)?\s*[:=]?\s*"
)
_RETRY_TAIL = re.compile(r";?\s*retrying\s+\d+/\d+\s+in\s+[\d.]+\s*m?s\S*\s*$", re.I)


def strip_decoration(line: str) -> str:
    """One pasted line without the decoration Codex and terminals add around the message."""
    line = _ANSI.sub("", line).strip()
    line = _RETRY_TAIL.sub("", line).strip()
    return _PREFIXES.sub("", line, count=1).strip()


def embedded_json(text: str) -> Mapping[str, Any] | None:
    """The first JSON object inside a line (`… failed: {"error": …}`), or None (outside_json: depth-limited)."""
    return outside.first_object(text)


# An HTML error page inside an error text (Codex writes the body of a 502 from nginx into its message, newlines and
# all): shown as its <title>, so that the line says "502 Bad Gateway" instead of the page's last line of markup.
_HTML_PAGE = re.compile(r"<(?:!doctype\s+html|html)\b.*?(?:</html\s*>|\Z)", re.I | re.S)
_HTML_TITLE = re.compile(r"<title[^>]*>(.*?)</title\s*>", re.I | re.S)


def without_html(text: str) -> str:
    page = _HTML_PAGE.search(text)
    if page is None:
        return text
    title = _HTML_TITLE.search(page.group(0))
    shown = f"[HTML page: {' '.join(title.group(1).split())}]" if title and title.group(1).strip() else "[HTML page]"
    return text[: page.start()] + shown + text[page.end() :]


@functools.lru_cache(maxsize=1024)
def summarize_text(text: str) -> str:
    """Any error line (Codex's, a log's, a raw body) as one readable line: the JSON body's message if it has one.

    Cached: `sessions` meets the same provider error in session after session (a pure function of the text)."""
    text = text or ""
    plain = without_html(text)
    if plain is not text:  # one message that carried a page: its lines are the page's, not a log's
        plain = " ".join(plain.split())
    line = strip_decoration(" ".join(plain.split()) if "\n" not in plain else plain.strip().splitlines()[-1])
    body = embedded_json(line)
    if body is not None:
        message = error_message(body)
        if message:
            return summarize(message)
    return summarize(line)


def error_code(body: Any) -> str:
    """`code`, `type` and Azure's `innererror.code` of an error body, as one string ("" when there are none)."""
    err = body.get("error", body) if isinstance(body, Mapping) else None
    if not isinstance(err, Mapping):
        return ""
    parts = [str(err[k]) for k in ("code", "type") if err.get(k) not in (None, "")]
    if inner := outside.at(err, "innererror", "code"):
        parts.append(str(inner))
    return " ".join(parts)


def _has(text: str, markers: tuple[str, ...]) -> bool:
    return any(m in text for m in markers)


def classify(ex: Exchange, endpoint: str = "responses") -> Classified:
    """Map one exchange to a kind. `endpoint` is responses | chat | models."""
    if ex.failure and ex.status is None:
        return Classified(ex.failure, ex.failure_detail)
    if ex.failure == FailureKind.REDIRECT:
        return Classified(FailureKind.REDIRECT, f"redirected to {ex.location}")
    if ex.failure:  # the status line arrived, then reading the body failed (reset, undecodable, deadline)
        return Classified(ex.failure, ex.failure_detail)
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
        return Classified(FailureKind.HTML, "an HTML page answered where the API should be")
    if ex.body_malformed:
        return Classified(FailureKind.NOT_JSON, f"the body is {ex.body_malformed}")
    if endpoint != "models" and ex.body_json is None:
        return Classified(FailureKind.NOT_JSON, "the body is neither JSON nor an event stream")
    if outside.at(ex.body_json, "error"):
        return Classified(FailureKind.STREAM_ERROR, "an error object inside a 200 response", msg)
    if ex.requested_stream and endpoint == "responses":
        # Codex reads only server-sent events: a whole JSON answer ends its turn as "stream closed before
        # response.completed" (checked with Codex 0.171.0: scripts/crosscheck_wire.py).
        return Classified(
            FailureKind.NOT_A_STREAM,
            f"a plain JSON body ({ex.content_type or 'no Content-Type'}) answered a request with stream: true",
        )
    return Classified(FailureKind.OK)


def _classify_refusal(ex: Exchange, status: int, blob: str, msg: str) -> Classified | None:
    """The statuses that say who refused and why (the proxy, the key, the account, the rate, the server), or None."""
    if status == 407:  # from the proxy in between, not the provider: net.reach names the proxy (NET007)
        return Classified(
            FailureKind.PROXY_AUTH, "the proxy asks for credentials (407 Proxy Authentication Required)", msg
        )
    if status == 401:
        if _has(blob, NO_KEY_MARKERS) or not ex.sent_key:
            return Classified(FailureKind.AUTH_MISSING, "the provider received no API key", msg)
        if _has(blob, KEY_QUOTA_MARKERS):
            return Classified(FailureKind.KEY_QUOTA, "the key is accepted but its quota is used up (401)", msg)
        return Classified(FailureKind.AUTH_REJECTED, "the provider rejected the API key", msg)
    if status == 402 or _has(blob, PAYMENT_MARKERS):
        return Classified(FailureKind.PAYMENT, "the account has no credits or balance left", msg)
    if status == 403:
        if _has(blob, QUOTA_MARKERS):
            return Classified(FailureKind.QUOTA, "quota or billing limit", msg)
        if _has(blob, BLOCK_MARKERS) or ex.is_html:
            return Classified(FailureKind.BLOCKED, "blocked before reaching the API (firewall, region or IP rule)", msg)
        return Classified(FailureKind.FORBIDDEN, "the key is valid but not allowed to do this", msg)
    if status == 429:
        tpm = tpm_numbers(blob)
        if tpm is not None and tpm[1] > tpm[0]:
            return Classified(
                FailureKind.TPM_TOO_LARGE,
                f"one request of {tpm[1]:,} tokens is over the key's limit of {tpm[0]:,} tokens per minute (429)",
                msg,
            )
        if _has(blob, QUOTA_MARKERS):
            return Classified(FailureKind.QUOTA, "quota exhausted (not transient: waiting will not help)", msg)
        return Classified(FailureKind.RATE_LIMITED, "rate limited (transient)", msg)
    if status >= 500 and _has(blob, NO_CHANNEL_MARKERS):
        return Classified(
            FailureKind.MODEL_NOT_FOUND,
            f"the gateway has no channel serving this model for the key's group ({status})",
            msg,
        )
    if status >= 500:
        return Classified(
            FailureKind.SERVER_ERROR,
            f"the provider or a proxy in front of it failed ({status})"
            + (": an HTML error page" if ex.is_html else ""),
            msg,
        )
    return None


def _classify_bad_request(ex: Exchange, status: int, blob: str, msg: str, endpoint: str) -> Classified:
    """A 4xx about the request itself: the deployment, the context, the size, the model, the path, the format."""
    if "deploymentnotfound" in blob or "deployment for this resource does not exist" in blob:
        return Classified(FailureKind.DEPLOYMENT_NOT_FOUND, "Azure deployment not found", msg)
    if status in (400, 413, 422) and _has(blob, CONTEXT_MARKERS):
        return Classified(FailureKind.CONTEXT_EXCEEDED, "the request exceeds the model's context window", msg)
    if status == 413:
        # A size limit on the way (nginx client_max_body_size, a gateway's body cap), counted in bytes, not tokens.
        size = f"{ex.request_bytes:,}-byte " if ex.request_bytes else ""
        return Classified(
            FailureKind.TOO_LARGE,
            f"the {size}request body is over a size limit on the way (413"
            + (", an HTML page from a proxy" if ex.is_html else "")
            + ")",
            msg,
        )
    if status in (400, 404, 422) and _has(blob, MODEL_MARKERS):
        return Classified(FailureKind.MODEL_NOT_FOUND, "the provider does not serve this model ID", msg)
    if status == 400 and "no connected db" in blob:
        return Classified(
            FailureKind.AUTH_REJECTED, "LiteLLM without a database answers a bad key with 400 'No connected db.'", msg
        )
    if status in (404, 405):
        return Classified(
            FailureKind.PATH_NOT_FOUND,
            f"nothing at this path ({status})" + (" - an HTML page" if ex.is_html else ""),
            msg,
        )
    if status in (400, 422) and endpoint == "responses" and _WIRE_MISMATCH.search(blob):
        return Classified(FailureKind.WIRE_MISMATCH, "the endpoint rejects the Responses request format", msg)
    return Classified(FailureKind.BAD_REQUEST, f"the provider rejected the request ({status})", msg)


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
            f"Chat Completions chunks ending in data: [DONE] ({s.events} events), "
            "not Responses events ending in response.completed",
        )
    if s.completion_problems and (s.terminal == "response.completed" or (s.terminal is None and s.cut == "closed")):
        # Checked with Codex 0.171.0: `response` a string, `id` missing, a count "12" and the turn fails with `stream
        # disconnected before completion: failed to parse ResponseCompleted: …`; `response` null, and Codex skips the
        # event and ends with "stream closed before response.completed".
        return Classified(
            FailureKind.UNREADABLE_COMPLETION,
            "a response.completed event Codex cannot read: "
            + "; ".join(shape.sentence() for shape in s.completion_problems[:3]),
        )
    if s.terminal == "response.completed" and any(not c for c in s.tool_call_ids):
        # Checked with Codex 0.171.0: no call_id, and Codex drops the call and ends the turn with no answer (exit 0);
        # an empty one, and the next request is refused ("Invalid 'input[4].call_id': empty string").
        missing = sum(1 for c in s.tool_call_ids if c is None)
        return Classified(
            FailureKind.CALL_ID_LOST,
            "a function_call streamed with " + ("no call_id" if missing else "an empty call_id"),
        )
    if s.terminal in ("response.completed", "[DONE]"):
        if s.incomplete_reason == "length":
            return Classified(FailureKind.OK, "output budget reached")
        if s.ignored_errors and s.terminal == "response.completed":
            # Codex 0.171 ignores a standalone error event and reads on: the turn completes (checked with the CLI).
            return Classified(
                FailureKind.OK, "completed after an error event Codex ignores", _error_text(s.ignored_errors[0])
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
        return Classified(FailureKind.CONTEXT_EXCEEDED, "context error inside the stream", msg)
    if code == "insufficient_quota":
        return Classified(FailureKind.QUOTA, "quota error inside the stream", msg)
    if code == "usage_not_included":
        return Classified(FailureKind.USAGE_NOT_INCLUDED, "response.failed: usage_not_included", msg)
    return _stream_error(error)


def _stream_error(error: Mapping[str, Any] | None) -> Classified:
    """An error inside a 200 stream (response.failed with another code, a Chat error chunk), by what it says."""
    blob = json.dumps(error or {}).lower()
    msg = summarize(error_message({"error": error})) if error else ""
    if _has(blob, CONTEXT_MARKERS):
        return Classified(FailureKind.CONTEXT_EXCEEDED, "context error inside the stream", msg)
    if _has(blob, MODEL_MARKERS):
        return Classified(FailureKind.MODEL_NOT_FOUND, "model error inside the stream", msg)
    if _has(blob, QUOTA_MARKERS):
        return Classified(FailureKind.QUOTA, "quota error inside the stream", msg)
    if "rate_limit" in blob or "rate limit" in blob:
        return Classified(FailureKind.RATE_LIMITED, "rate limit inside the stream", msg)
    return Classified(FailureKind.STREAM_ERROR, "an error event inside a 200 stream", msg)


def _stream_unfinished(ex: Exchange, s: StreamStats) -> Classified:
    """A stream that ended without response.completed: incomplete, silent, too big, out of time or closed."""
    if s.terminal == "response.incomplete":
        return _incomplete(ex, s)
    if s.cut == "idle":
        return Classified(FailureKind.STREAM_IDLE, f"no event for the idle limit after {s.events} events")
    if s.cut == "oversize":
        return Classified(
            FailureKind.NOT_JSON,
            f"the stream went past codexdoctor's limits (16 MB, 100,000 events or a 1 MB line) "
            f"after {s.events} events without completing",
        )
    if s.cut == "deadline":
        return Classified(FailureKind.TIMEOUT, "the stream was still running at the deadline")
    if s.bad_lines and s.events <= s.bad_lines:
        return Classified(FailureKind.NOT_JSON, "broken SSE framing: no valid event in the stream")
    if s.ignored_errors:
        return _closed_after_error(s)
    return Classified(FailureKind.STREAM_CLOSED, f"stream closed before response.completed after {s.events} events")


def _incomplete(ex: Exchange, s: StreamStats) -> Classified:
    """response.incomplete: Codex 0.171 fails the turn whatever the reason, after printing the partial answer.

    max_output_tokens is the provider's own cap only when it stopped before the cap the request asked for (the canary
    asks for 16 tokens; Codex asks for none): a provider honouring the canary's cap is fine."""
    reason = s.incomplete_reason or "unknown"
    if reason == "max_output_tokens":
        produced = outside.integer(s.usage, "output_tokens")
        if ex.output_cap is None or (produced is not None and produced < ex.output_cap):
            return Classified(FailureKind.OUTPUT_CAPPED, "response.incomplete: max_output_tokens")
        return Classified(FailureKind.OK, "output budget reached (response.incomplete: max_output_tokens)")
    return Classified(FailureKind.STREAM_INCOMPLETE, f"response.incomplete: {reason}")


def _closed_after_error(s: StreamStats) -> Classified:
    """EOF after standalone error events: Codex ignored them and says only `stream closed before
    response.completed`; the provider's own words are the evidence (a context overflow stays the true cause)."""
    first = s.ignored_errors[0]
    said = _error_text(first)
    if _has(json.dumps(first).lower(), CONTEXT_MARKERS):
        return Classified(FailureKind.CONTEXT_EXCEEDED, "context error inside the stream", said)
    return Classified(
        FailureKind.STREAM_CLOSED, f"stream closed before response.completed after {s.events} events", said
    )
