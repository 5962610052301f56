"""Server-sent events as typed events: bytes or lines in, one typed event per SSE message out, never an exception.

Two layers, as the SSE grammar has them. The framing cuts bytes into lines (LF, CR or CRLF, wherever a chunk ends)
and lines into messages (`event:`, `data:`, a blank line). The reading turns one message into what it means to
Codex: answer text, a tool call, a reasoning item, the end of the answer (`Terminal`), or what makes it unusable
(`Malformed`, `Skipped`). Every event is parsed depth-limited and read through outside_json's typed accessors, so a
value of the wrong type is a shape inside an event, a broken event is a `Malformed` one, and an endless line is an
`Overflow`: the parser object itself never raises, whatever the server sends. Timing is not its job (net.stream).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from codexdoctor.common import outside_json as outside
from codexdoctor.common.outside_json import INT64, STRING, Fields, Shape
from codexdoctor.model import Msg
from codexdoctor.net.body import Oversize
from codexdoctor.net.said import json_kind, malformed_said

MAX_LINE = 1024 * 1024  # one SSE line, and one event's data lines together
MAX_REASONING = 64 * 1024  # characters of a reasoning item's encrypted_content kept for turn two
TERMINALS = ("[DONE]", "response.completed", "response.failed", "response.incomplete", "error")

# What Codex 0.171 reads from a response.completed event's `response` (its ResponseCompleted struct). Anything else,
# and Codex ends the turn with `stream disconnected before completion: failed to parse ResponseCompleted: …`: `response`
# a string, `id` missing, `usage` "n/a", a count "12", 12.0, true or past 64 bits, `input_tokens_details` without
# cached_tokens (each checked with the real CLI). Extra fields are ignored; usage and the two details may be null.
CODEX_COMPLETED = Fields(
    required={"id": STRING},
    optional={
        "usage": Fields(
            required={"input_tokens": INT64, "output_tokens": INT64, "total_tokens": INT64},
            optional={
                "input_tokens_details": Fields(required={"cached_tokens": INT64}),
                "output_tokens_details": Fields(required={"reasoning_tokens": INT64}),
            },
        )
    },
)
# The other fields codexdoctor reads from an event, by its type, with the type each must have. A value of another type
# is noted as a shape and not used (Codex skips such a field or the whole event and reads on: checked for `delta` and
# `item`).
EVENT_FIELDS = {
    "response.output_text.delta": Fields(optional={"delta": STRING}),
    "response.output_item.done": Fields(
        optional={"item": Fields(optional={"type": STRING, "call_id": STRING, "encrypted_content": STRING})}
    ),
    "response.failed": Fields(optional={"response": Fields(optional={"error": Fields()})}),
    "response.incomplete": Fields(
        optional={"response": Fields(optional={"incomplete_details": Fields(optional={"reason": STRING})})}
    ),
    "chat": Fields(optional={"usage": Fields()}),
}
_CHAT_CHOICE = Fields(optional={"delta": Fields(optional={"content": STRING}), "finish_reason": STRING})


# ---- the events ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Update:
    """A readable event that does not end the answer, with what it adds."""

    name: str | None  # its `type`, else the SSE `event:` name
    token: str | None = None  # answer text it carries (a Responses delta or a Chat chunk's content); None: no text
    function_call: bool = False  # a function_call item (Codex runs the tool, then sends turn two)
    call_id: str | None = None  # that item's call_id, None when missing or not a string
    reasoning: Mapping[str, Any] | None = None  # a reasoning item with encrypted_content (Codex replays it)
    usage: Mapping[str, Any] | None = None  # a Chat chunk's usage
    length: bool = False  # a Chat chunk's finish_reason "length" (the output budget ran out)
    shapes: tuple[Shape, ...] = ()  # values of the wrong type it carried, not used


@dataclass(frozen=True)
class Terminal:
    """The event that ends the answer: response.completed, response.failed, response.incomplete or an error."""

    name: str
    token: str | None = None  # a Chat chunk that carries an error may carry text too
    error: Mapping[str, Any] | None = None
    usage: Mapping[str, Any] | None = None
    incomplete_reason: str | None = None
    # response.completed: why Codex cannot read its `response` (empty when it can); None for the other terminals.
    completion: tuple[Shape, ...] | None = None
    shapes: tuple[Shape, ...] = ()


@dataclass(frozen=True)
class Done:
    """`data: [DONE]`, the end of a Chat Completions stream (Codex, waiting for response.completed, never sees one)."""


@dataclass(frozen=True)
class Malformed:
    """An event whose data is no JSON object (broken, nested too deep, or another JSON value): dropped."""

    detail: str
    said: Msg | None = None  # `detail` in both languages (evidence says it in the report's language)


@dataclass(frozen=True)
class Skipped:
    """A JSON event Codex cannot use and skips: its `type` not a string, or a response.completed without `response`
    (then `completion` says so: Codex reads on and ends as "stream closed before response.completed")."""

    shapes: tuple[Shape, ...]
    completion: tuple[Shape, ...] | None = None
    token: str | None = None  # text a Chat chunk in it carried (read before the event was found unusable)


@dataclass(frozen=True)
class BadField:
    """A line that is no SSE field codexdoctor reads (`id:`, `retry:`, text without a colon): counted, not an event."""

    name: str


@dataclass(frozen=True)
class Overflow:
    """A cap passed (a line, or one event's data, longer than MAX_LINE): the stream is read no further."""

    detail: str


Message: TypeAlias = "Update | Terminal | Done | Malformed | Skipped"  # one per SSE message: these count as events
SseEvent: TypeAlias = "Message | BadField | Overflow"


def _malformed(parsed: outside.Parsed) -> Malformed:
    """An event whose data is no JSON object: why, in English and in both languages."""
    said = malformed_said(parsed)
    if said is None:
        got = outside.kind(parsed.value)
        said = Msg("{got}, not an object", "是{got}，不是对象", got=json_kind(got))
    return Malformed(parsed.malformed or str(said), said)


# ---- reading one message -----------------------------------------------------------------------------------------
def read_message(name: str | None, data: str) -> Message:
    """What one SSE message (its `event:` name and its data lines joined) means; never raises."""
    if data.strip() == "[DONE]":
        return Done()
    parsed = outside.parse(data)
    event = outside.obj(parsed.value)
    if event is None:
        return _malformed(parsed)
    declared = event.get("type")
    if declared is not None and not isinstance(declared, str):  # Codex cannot read the event at all: skipped
        return Skipped((Shape("type", "a string", outside.kind(declared)),))
    kind = declared or name
    choices = "choices" in event
    shapes = outside.shape_problems(event, EVENT_FIELDS.get("chat" if choices else kind or "", Fields()))
    chat_delta = _chat_delta(event, shapes) if choices else None
    token = (
        (outside.text(event, "delta") or chat_delta or "")
        if kind == "response.output_text.delta" or chat_delta
        else None
    )
    if "error" in event and kind in (None, "error") or kind == "error":
        return Terminal("error", token, error=outside.obj(event, "error") or event, shapes=tuple(shapes))
    if kind == "response.completed" and event.get("response") is None:
        # Codex reads `response` as optional and skips an event without one: the stream goes on (checked with the
        # real CLI, which then ends as "stream closed before response.completed").
        missing = (Shape("response", "an object", "null" if "response" in event else None),)
        return Skipped(tuple(shapes) + missing, completion=missing, token=token)
    if kind in ("response.completed", "response.failed", "response.incomplete"):
        return _terminal(kind, event, token, shapes)
    return _update(kind, event, token, shapes, choices)


def _terminal(kind: str, event: Mapping[str, Any], token: str | None, shapes: list[Shape]) -> Terminal:
    """response.completed, response.failed or response.incomplete, read as Codex reads it."""
    resp = outside.obj(event, "response")
    completion = None
    error = None
    if kind == "response.completed":
        completion = tuple(outside.shape_problems(event.get("response"), CODEX_COMPLETED, "response"))
        shapes = shapes + list(completion)
    if kind == "response.failed":
        error = outside.obj(resp, "error") or {"message": "response.failed"}
    incomplete = outside.text(resp, "incomplete_details", "reason") if kind == "response.incomplete" else None
    return Terminal(kind, token, error, outside.obj(resp, "usage"), incomplete, completion, tuple(shapes))


def _update(kind: str | None, event: Mapping[str, Any], token: str | None, shapes: list[Shape], chat: bool) -> Update:
    """Any other readable event: an item, a Chat chunk, or one codexdoctor only counts (response.created, …)."""
    function_call = False
    call_id = reasoning = None
    if kind == "response.output_item.done":
        item = outside.obj(event, "item")
        function_call = outside.text(item, "type") == "function_call"
        call_id = outside.text(item, "call_id") if function_call else None
        content = outside.text(item, "encrypted_content")
        if outside.text(item, "type") == "reasoning" and content and len(content) <= MAX_REASONING:
            reasoning = {k: outside.at(item, k) for k in ("id", "summary", "encrypted_content")}
    usage = outside.obj(event, "usage") if chat else None
    length = chat and outside.text(event, "choices", 0, "finish_reason") == "length"
    return Update(kind, token, function_call, call_id, reasoning, usage, length, tuple(shapes))


def _chat_delta(event: Mapping[str, Any], shapes: list[Shape]) -> str | None:
    """The text a Chat Completions chunk carries (choices[0].delta.content); each value of the wrong type on the way
    is noted in `shapes`."""
    choices = event.get("choices")
    if choices is not None and not isinstance(choices, list):
        shapes.append(Shape("choices", "an array", outside.kind(choices)))
    elif choices:
        shapes.extend(outside.shape_problems(choices[0], _CHAT_CHOICE, "choices[0]"))
    return outside.text(choices, 0, "delta", "content")


# ---- the framing -------------------------------------------------------------------------------------------------
_EOL = re.compile(rb"\r\n|\r|\n")


class LineSplitter:
    """Bytes to lines, LF, CR or CRLF, the same wherever the chunks are cut (a CRLF split across two chunks is one
    line end, not a line end and an empty line). A line longer than max_line, done or still open, sets `overflow`:
    the lines before it are still returned, nothing after it is."""

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self.overflow = False
        self._buf = b""
        self._after_cr = False  # the last chunk ended in CR: a LF opening the next one belongs to it

    def feed(self, chunk: bytes) -> list[str]:
        """The lines `chunk` completes."""
        if self.overflow:
            return []
        if chunk and self._after_cr:
            chunk = chunk[1:] if chunk[:1] == b"\n" else chunk
            self._after_cr = False
        buf = self._buf + chunk
        lines: list[str] = []
        start = 0
        for end in _EOL.finditer(buf):
            if end.start() - start > self.max_line:
                return self._overflowed(lines)
            lines.append(buf[start : end.start()].decode("utf-8", "replace"))
            start = end.end()
            self._after_cr = end.group() == b"\r" and start == len(buf)
        self._buf = buf[start:]
        if len(self._buf) > self.max_line:
            return self._overflowed(lines)
        return lines

    def close(self) -> list[str]:
        """The last line, when the stream ended without a line end."""
        rest, self._buf = self._buf, b""
        return [rest.decode("utf-8", "replace")] if rest and not self.overflow else []

    def _overflowed(self, lines: list[str]) -> list[str]:
        self.overflow, self._buf = True, b""
        return lines


def bounded_lines(chunks: Iterable[bytes], max_line: int = MAX_LINE) -> Iterator[str]:
    """SSE lines (LF, CRLF or CR) from byte chunks; a line longer than max_line stops the stream (Oversize)."""
    splitter = LineSplitter(max_line)
    for chunk in chunks:
        yield from splitter.feed(chunk)
        if splitter.overflow:
            raise Oversize(f"an SSE line longer than {max_line:,} bytes")
    yield from splitter.close()


class SseParser:
    """The SSE grammar as an object: feed it bytes (`feed`) or lines (`feed_line`), then `close()`; each call returns
    the typed events it completed. Never raises; after an Overflow it reads nothing more."""

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self._lines = LineSplitter(max_line)
        self.max_line = max_line
        self._name: str | None = None
        self._data: list[str] = []
        self._data_size = 0
        self.finished = False  # an Overflow ended it

    def feed(self, chunk: bytes) -> list[SseEvent]:
        if self.finished:
            return []
        out = [event for line in self._lines.feed(chunk) for event in self.feed_line(line)]
        if self._lines.overflow and not self.finished:
            out += self._overflow(f"an SSE line longer than {self.max_line:,} bytes")
        return out

    def feed_line(self, line: str) -> list[SseEvent]:
        """One line without its line end."""
        if self.finished:
            return []
        if line == "":
            return [self._dispatch()] if self._data else []
        if line.startswith(":"):
            return []  # a comment keep-alive: Codex does not count it as an event
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            self._name = value
        elif name == "data":
            self._data_size += len(value)
            if self._data_size > self.max_line:  # one event's data lines without the blank line that ends it
                return self._overflow(f"one event's data longer than {self.max_line:,} characters")
            self._data.append(value)
        else:
            return [BadField(name[:40])]
        return []

    def close(self) -> list[SseEvent]:
        """The end of the stream: a last line without its line end, an event without the blank line after it."""
        if self.finished:
            return []
        out = [event for line in self._lines.close() for event in self.feed_line(line)]
        if self._data and not self.finished:
            out.append(self._dispatch())
        return out

    def _dispatch(self) -> Message:
        message = read_message(self._name, "\n".join(self._data))
        self._name, self._data, self._data_size = None, [], 0
        return message

    def _overflow(self, detail: str) -> list[SseEvent]:
        self.finished = True
        return [Overflow(detail)]
