"""A streamed answer timed as Codex times it: the SSE parser's typed events against the clock, the caps, the idle limit.

`parse_sse` reads lines (from the capped byte reader, or a test's list) through `sse.SseParser` and keeps the account
in a `_Tally`: how many events, when the first one and the first token came, the longest silence, how the stream
ended. The reading errors it stops on are codexdoctor's own (`Oversize`, `Undecodable`, `StreamCut`): net.errors maps
the HTTP library's to them before they get here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from codexdoctor.common import outside_json as outside
from codexdoctor.common.outside_json import Shape
from codexdoctor.common.untrusted import clip
from codexdoctor.model import Msg
from codexdoctor.net.body import Oversize, StreamCut, Undecodable
from codexdoctor.net.deadline import Deadline
from codexdoctor.net.exchange import StreamStats
from codexdoctor.net.sse import (
    TERMINALS,
    BadField,
    Done,
    Malformed,
    Message,
    Overflow,
    Skipped,
    SseEvent,
    SseParser,
    Terminal,
    Update,
)

MAX_EVENTS = 100_000
MAX_TEXT = 200  # characters of answer text kept
MAX_CALL_IDS = 100
MAX_IGNORED_ERRORS = 3  # standalone error events kept as evidence


class _Tally:
    """The running account of one stream, one typed event at a time (what StreamStats will say)."""

    def __init__(self) -> None:
        self.events = 0
        self.first_event: float | None = None
        self.first_token: float | None = None
        self.last: float | None = None
        self.max_gap = 0.0
        self.max_gap_after_token = 0.0
        self.terminal: str | None = None
        self.error: Mapping[str, Any] | None = None
        self.usage: Mapping[str, Any] | None = None
        self.incomplete: str | None = None
        self.text: list[str] = []
        self.text_chars = 0  # len("".join(text)), kept as it grows
        self.bad = 0
        self.bad_detail: str | None = None
        self.bad_said: Msg | None = None
        self.reasoning: Mapping[str, Any] | None = None
        self.call_ids: list[str | None] = []
        self.shapes: list[Shape] = []
        self.completion: tuple[Shape, ...] = ()
        self.ignored_errors: list[Mapping[str, Any]] = []

    def tick(self, now: float) -> None:
        """One more event at `now`: the first, and the longest silence before one (after the first token too)."""
        self.events += 1
        if self.first_event is None:
            self.first_event = now
        if self.last is not None:
            self.max_gap = max(self.max_gap, now - self.last)
            if self.first_token is not None:
                self.max_gap_after_token = max(self.max_gap_after_token, now - self.last)
        self.last = now

    def add(self, message: Message, now: float) -> None:
        self.tick(now)
        if isinstance(message, Done):
            self.terminal = "[DONE]"
            return
        if isinstance(message, Malformed):
            self.bad += 1
            if self.bad_detail is None:
                self.bad_detail, self.bad_said = message.detail, message.said
            return
        outside.keep(self.shapes, message.shapes)
        if isinstance(message, Update):
            self._items(message.function_call, message.call_id, message.reasoning)
        self._token(message.token, now)
        if isinstance(message, Skipped):
            if message.completion is not None:
                self.completion = message.completion
        elif isinstance(message, Terminal):
            self._end(message)
        else:
            self.usage = message.usage or self.usage
            if message.length:
                self.incomplete = "length"

    def _items(self, function_call: bool, call_id: str | None, reasoning: Mapping[str, Any] | None) -> None:
        if function_call and len(self.call_ids) < MAX_CALL_IDS:
            self.call_ids.append(call_id)
        if self.reasoning is None and reasoning is not None:
            self.reasoning = reasoning

    def _token(self, token: str | None, now: float) -> None:
        if token is None:
            return
        if self.first_token is None:
            self.first_token = now
        if self.text_chars < MAX_TEXT:
            self.text.append(token)
            self.text_chars += len(token)

    def _end(self, message: Terminal) -> None:
        if message.name == "error":
            # Codex 0.171 ignores a standalone error event, whatever its code, and reads on: it ends nothing.
            if len(self.ignored_errors) < MAX_IGNORED_ERRORS:
                self.ignored_errors.append(_error_words(message.error))
            return
        self.terminal = message.name
        self.usage = message.usage
        if message.completion is not None:
            self.completion = message.completion
        if message.name == "response.failed":
            self.error = message.error
        if message.name == "response.incomplete":
            self.incomplete = message.incomplete_reason

    def stats(self, started: float, cut: str | None) -> StreamStats:
        def ms(t: float | None) -> float | None:
            return None if t is None else round((t - started) * 1000, 1)

        return StreamStats(
            self.events,
            ms(self.first_event),
            ms(self.first_token),
            round(self.max_gap * 1000, 1),
            round(self.max_gap_after_token * 1000, 1),
            self.terminal,
            self.error,
            self.incomplete,
            self.usage,
            clip("".join(self.text), MAX_TEXT * 8),
            cut,
            self.bad,
            self.reasoning,
            tuple(self.call_ids),
            shapes=tuple(self.shapes),
            completion_problems=tuple(self.completion),
            bad_detail=self.bad_detail,
            bad_said=self.bad_said,
            ignored_errors=tuple(self.ignored_errors),
        )


def _error_words(error: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """The code and message of an error event, clipped: what evidence quotes, nothing else it carried."""
    out: dict[str, Any] = {}
    for key in ("code", "type", "message"):
        value = outside.at(error, key)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            out[key] = clip(str(value), 300)
    return out


def parse_sse(
    lines: Iterable[str],
    started: float,
    clock: Callable[[], float],
    idle_s: float,
    deadline: Deadline,
    headers_at: float | None = None,
) -> StreamStats:
    """Read an SSE stream (Responses or Chat grammar) and time it.

    `idle_s` is Codex's stream_idle_timeout_ms: no event for that long after the headers (or after the last event)
    ends the stream as `idle timeout waiting for SSE`. Comment keep-alives are no event: they do not reset it.
    Every event is parsed depth-limited and read through outside_json's typed accessors: a value of the wrong type
    is a shape in the result, never an exception."""
    tally = _Tally()
    parser = SseParser()
    since = headers_at if headers_at is not None else started
    cut: str | None = None
    try:
        for line in lines:
            cut = _stopped(tally, clock, idle_s, deadline, since)
            if cut is not None or _take(tally, parser.feed_line(line), clock):
                cut = cut or ("oversize" if parser.finished else None)
                break
        else:
            _take(tally, parser.close(), clock)
    except Oversize:
        cut = "oversize"
    except Undecodable:
        cut = "undecodable"
    except StreamCut as stop:
        cut = "deadline" if stop.reason == "closed" and deadline.expired else stop.reason
    if tally.terminal is None and cut is None:
        cut = "closed"
    if tally.last is not None and tally.terminal is None and cut == "idle":
        tally.max_gap = max(tally.max_gap, clock() - tally.last)
        if tally.first_token is not None:
            tally.max_gap_after_token = max(tally.max_gap_after_token, clock() - tally.last)
    return tally.stats(started, cut)


def _stopped(tally: _Tally, clock: Callable[[], float], idle_s: float, deadline: Deadline, since: float) -> str | None:
    """Why the stream is read no further before the next line: the deadline, Codex's idle limit, the event cap."""
    if deadline.expired:
        return "deadline"
    if idle_s and clock() - (tally.last if tally.last is not None else since) > idle_s:
        return "idle"
    if tally.events >= MAX_EVENTS:
        return "oversize"
    return None


def _take(tally: _Tally, events: list[SseEvent], clock: Callable[[], float]) -> bool:
    """Count the parser's events; True once the stream has ended (a terminal event, or a cap passed)."""
    for event in events:
        if isinstance(event, BadField):
            tally.bad += 1
        elif isinstance(event, Overflow):
            return True
        else:
            tally.add(event, clock())
    return tally.terminal in TERMINALS
