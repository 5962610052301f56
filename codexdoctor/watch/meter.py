"""Reading a copy of the provider's answer while it streams: events, their timing, usage and how it ended.

The recorder hands every chunk to `Meter.feed` after it has written it to Codex, so nothing here can delay or change
the bytes Codex receives. It reads SSE as Codex 0.171 accepts it: CRLF or LF lines, `data:` with or without a space,
`: comment` keep-alives (which are not events), the type from `event:` or else from the data's `type`.
"""

from __future__ import annotations

import time
import zlib
from typing import Any

from codexdoctor.common import outside_json as outside

MAX_LINE = 4 << 20  # a line longer than this is not read (a response.completed can carry the whole output)
MAX_ERROR = 8192  # bytes of an error body kept (before redaction)
TERMINAL = {
    "response.completed": "completed",
    "response.done": "completed",
    "response.incomplete": "incomplete",
    "response.failed": "failed",
    "error": "error_event",
}
# Events that are not yet output: the response's own lifecycle.
NOT_OUTPUT = ("response.created", "response.in_progress", "response.queued")


class Meter:
    """Mutable, one per request, owned by the recorder thread that streams it."""

    def __init__(self, sent_at: float, content_type: str, content_encoding: str) -> None:
        self.sent_at = sent_at
        self.sse = "text/event-stream" in content_type.lower()
        encoding = content_encoding.strip().lower()
        self._inflate = zlib.decompressobj(16 + zlib.MAX_WBITS) if encoding == "gzip" else None
        if encoding == "deflate":
            self._inflate = zlib.decompressobj()
        self.readable = encoding in ("", "identity", "gzip", "deflate")
        self.headers_at: float | None = None
        self.first_output_at: float | None = None
        self.last_event_at: float | None = None
        self.longest_gap = 0.0
        self.events = 0
        self.bytes = 0
        self.ending: str | None = None
        self.usage: dict[str, Any] | None = None
        self.error: str | None = None
        self.error_code: str | None = None
        self.incomplete_reason: str | None = None
        self.head = bytearray()  # the first MAX_ERROR bytes, for a body that is not a stream
        self._buf = bytearray()
        self._event: str | None = None
        self._data: list[str] = []

    def headers(self, now: float | None = None) -> None:
        self.headers_at = now if now is not None else time.monotonic()
        self.last_event_at = self.headers_at

    def feed(self, chunk: bytes, now: float | None = None) -> None:
        now = now if now is not None else time.monotonic()
        self.bytes += len(chunk)
        if len(self.head) < MAX_ERROR:
            self.head += chunk[: MAX_ERROR - len(self.head)]
        if not self.sse or not self.readable:
            return
        if self._inflate is not None:
            try:
                chunk = self._inflate.decompress(chunk)
            except zlib.error:
                self.readable = False
                return
        self._buf += chunk
        while True:
            at = self._buf.find(b"\n")
            if at < 0:
                if len(self._buf) > MAX_LINE:
                    self._buf.clear()
                return
            raw = bytes(self._buf[:at]).rstrip(b"\r")
            del self._buf[: at + 1]
            self._line(raw.decode("utf-8", "replace"), now)

    def _line(self, text: str, now: float) -> None:
        if not text:
            self._dispatch(now)
        elif text.startswith(":"):
            return  # a comment: a keep-alive, not an event (Codex's idle timer does not count it either)
        else:
            name, _, value = text.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "event":
                self._event = value
            elif name == "data":
                self._data.append(value)

    def finish(self, now: float | None = None) -> None:
        """The stream ended: a last line without its newline, and an event without its blank line, still count."""
        now = now if now is not None else time.monotonic()
        if self._buf and self.sse and self.readable:
            raw = bytes(self._buf).rstrip(b"\r")
            self._buf.clear()
            self._line(raw.decode("utf-8", "replace"), now)
        self._dispatch(now)

    def _dispatch(self, now: float) -> None:
        if not self._data:
            self._event = None
            return
        data, self._data = "\n".join(self._data), []
        name, self._event = self._event, None
        if data.strip() == "[DONE]":
            return
        parsed = outside.parse(data).value
        kind = name or outside.text(parsed, "type") or "message"
        self.events += 1
        if self.last_event_at is not None:
            self.longest_gap = max(self.longest_gap, now - self.last_event_at)
        self.last_event_at = now
        if self.first_output_at is None and kind not in NOT_OUTPUT and kind not in TERMINAL:
            self.first_output_at = now
        if kind in TERMINAL and self.ending is None:
            self.ending = TERMINAL[kind]
            self._terminal(kind, parsed, data)

    def _terminal(self, kind: str, parsed: Any, data: str) -> None:
        response = outside.obj(parsed, "response")
        usage = outside.obj(response, "usage") if response is not None else None
        if usage is not None:
            self.usage = dict(usage)
        if kind == "response.incomplete":
            self.incomplete_reason = outside.text(response, "incomplete_details", "reason")
        elif kind == "response.failed":
            err = outside.obj(response, "error")
            self.error = data[:MAX_ERROR]
            if err is not None:
                self.error_code = outside.text(err, "code") or outside.text(err, "type")
        elif kind == "error":
            self.error = data[:MAX_ERROR]
            err = outside.obj(parsed, "error") or (parsed if isinstance(parsed, dict) else None)
            if err is not None:
                self.error_code = outside.text(err, "code") or outside.text(err, "type")

    def tokens(self) -> tuple[int | None, int | None, int | None]:
        """(input, cached input, output) from the answer's usage."""
        u = self.usage
        if u is None:
            return None, None, None
        cached = outside.integer(u, "input_tokens_details", "cached_tokens")
        if cached is None:
            cached = outside.integer(u, "prompt_tokens_details", "cached_tokens")
        inp = outside.integer(u, "input_tokens")
        out = outside.integer(u, "output_tokens")
        return (
            inp if inp is not None else outside.integer(u, "prompt_tokens"),
            cached,
            out if out is not None else outside.integer(u, "completion_tokens"),
        )

    def ms_since_sent(self, at: float | None) -> float | None:
        return None if at is None else round((at - self.sent_at) * 1000, 1)
