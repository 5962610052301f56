"""A provider's error as one readable line: the message inside any family's body, a pasted line without the
decoration Codex and terminals add, the window and request size a context error states.

Pure functions of text (cached where the session reader meets the same text again and again); net.classify,
diagnose-error and the session reader share them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from codexdoctor.common import outside_json as outside
from codexdoctor.common.untrusted import clip


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
