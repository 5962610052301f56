"""The fast path of the rollout reader: one C-level regex scan over a buffer of complete lines (a file's chunk, or a
window of the page cache), which recognises the lines the report needs and cuts the numbers out of token_count lines,
so most lines never reach Python. What it cannot take from its match goes to codex/rollout_lines.py."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from codexdoctor.codex.rollout_lines import (
    COUNT_DIGITS_MAX,
    TOP_TYPES,
    WANTED_EVENTS,
    consume_enveloped,
    consume_legacy,
    current_turn,
    parse_line,
    plain_text,
)
from codexdoctor.codex.rollout_session import Session

if TYPE_CHECKING:
    import mmap as _mmap

    # What the scanner reads: a file's bytes, or a read-only window of the page cache over a large one.
    Buffer = bytes | _mmap.mmap


# Lines we parse, found by one C-level scan per chunk. Codex (serde) writes compact lines
# {"timestamp":"…",("ordinal":N,)"type":"…","payload":{"type":"…",…}}. At every line start the pattern either
# recognises a line we need (its envelope type, and for event_msg the payload type; for token_count also the
# usage numbers, cut out by the engine), or a line that is not an envelope at all (unreadable: counted), or fails
# at once (an envelope we skip, a blank line). Possessive quantifiers keep a failing line start cheap.
# A count is at most COUNT_DIGITS_MAX digits: a longer one fails the tail, and its line takes the full parse, where it
# is an unreadable line; so every number the tail cuts out converts with int() as it is.
_N = rb"(\d{1,%d}+)" % COUNT_DIGITS_MAX
_TOKEN_TAIL = b"".join(
    (
        rb',"info":\{"total_token_usage":\{"input_tokens":',
        _N,
        rb',"cached_input_tokens":',
        _N,
        rb',(?:"cache_write_input_tokens":\d++,)?+"output_tokens":',
        _N,
        rb',"reasoning_output_tokens":',
        _N,
        rb',"total_tokens":',
        _N,
        rb'\},"last_token_usage":\{"input_tokens":',
        _N,
        rb',"cached_input_tokens":',
        _N,
        rb',(?:"cache_write_input_tokens":\d++,)?+"output_tokens":',
        _N,
        rb",[^{}]*+\}",
        rb'(?:,"(?!model_context_window")[a-z_]++":(?:true|false|null|\d++))*+,"model_context_window":(?:',
        _N,
        rb"|null)[,}]",
    )
)
# A line that starts as an envelope is read as one or skipped; only a line that does not is unreadable. The
# possessive `(\{"timestamp":")?+` and the conditional `(?(1)…|…)` say that in one pass: without them, every skipped
# envelope (most lines) was tried a second time against the unreadable branch's lookahead, 14 more characters a line.
_LINE_BODY = (
    rb'(\{"timestamp":")?+(?(1)([^"]{0,40}+)",(?:"ordinal":\d++,)?+"type":"(' + b"|".join(TOP_TYPES) + rb"|"
    rb'event_msg","payload":\{"type":"('
    + b"|".join(sorted(WANTED_EVENTS))
    + rb'))"(?:'
    + _TOKEN_TAIL
    + rb")?|([^\n\r]))"
)
_SCAN = re.compile(rb"\n" + _LINE_BODY)
_COMPACT = b'{"timestamp":"'


def scan(s: Session, buf: Buffer, start: int, end: int) -> None:
    """Complete lines buf[start:end] (start is a line start, end just after a newline)."""
    if s.parsed == 0 and not s.legacy and not s.compact and not s.careful:
        first_end = buf.find(b"\n", start, end)
        first = start if buf[start : start + len(_COMPACT)] == _COMPACT else buf.find(b"\n" + _COMPACT, start, end) + 1
        if b'"payload"' not in buf[start:first_end]:
            s.legacy = True  # before Sep 2025: no {timestamp, type, payload} envelope
        elif first > 0 or buf[start : start + len(_COMPACT)] == _COMPACT:
            s.compact = _in_scan_order(buf, first, end)
            s.careful = not s.compact
    if (
        s.legacy
        or s.careful
        or not (
            s.compact or buf[start : start + len(_COMPACT)] == _COMPACT or buf.find(b"\n" + _COMPACT, start, end) >= 0
        )
    ):
        for raw in buf[start:end].splitlines():  # legacy, or not Codex's compact form (re-serialised): line by line
            if raw.strip():
                (consume_legacy if s.legacy else consume_enveloped)(s, raw)
        return
    if start > 0 and buf[start - 1] == 10:  # the newline before the first line is there: one scan does all
        _lines(s, buf, _SCAN.finditer(buf, start - 1, end), end)
        return
    first_end = buf.find(b"\n", start, end) + 1
    head = b"\n" + buf[start:first_end]  # the file's first line (or a straddling one): matched on a small copy
    head_match = _SCAN.match(head)
    if head_match is not None:
        _lines(s, head, (head_match,), len(head))
    _lines(s, buf, _SCAN.finditer(buf, first_end - 1, end), end)


# The field order the fast scan relies on, which Codex (serde) writes: timestamp, ordinal (0.171), type, and for
# event_msg a payload whose first field is its type. A Codex that adds a field before them (as 0.171 added
# "ordinal") must not make every line look like one we skip: such a file is read line by line instead.
_SCAN_ORDER = re.compile(rb'\{"timestamp":"[^"]{0,40}+",(?:"ordinal":\d++,)?+"type":"')
_EVENT_ORDER = b'"type":"event_msg",'
_PAYLOAD_TYPE = b'"payload":{"type":"'


def _in_scan_order(buf: Buffer, first: int, end: int) -> bool:
    """Is this file's first envelope (at `first`), and its first event, in the order `_SCAN` expects?"""
    if _SCAN_ORDER.match(buf, first, end) is None:
        return False
    event = buf.find(_EVENT_ORDER, first, end)
    after = event + len(_EVENT_ORDER)
    return event < 0 or buf[after : after + len(_PAYLOAD_TYPE)] == _PAYLOAD_TYPE  # a slice: buf may be an mmap


def _lines(s: Session, buf: Buffer, matches: Iterable[re.Match[bytes]], end: int) -> None:
    """The scan's matches, in file order. A token_count line in Codex's shape is taken from the numbers the scan cut
    out (the `token_count` branch of rollout_lines `_event`, inlined: it runs once per model call, the loop's most
    frequent line); any other line we need is handed on whole to rollout_lines.parse_line."""
    pending = None  # the newest token_count timestamp, written to s.last_time lazily (bytes -> str once)
    turns = s.turns
    for m in matches:
        (_, ts, _top, _event, t_in, t_cached, t_out, t_reason, t_total, l_in, l_cached, l_out, window, bad) = m.groups()
        if bad is not None:
            s.bad_lines += 1
            continue
        if l_out is not None and plain_text(ts):  # the whole tail matched, and the timestamp needs no decoding
            pending = ts
            if s.start is None:
                s.start = ts.decode()
            s.parsed += 1
            if window is not None:  # null: the window stays as it was
                s.window = int(window) or s.window
            turn = turns[-1] if turns else current_turn(s, ts.decode())
            if (
                s.window
                and int(t_total) == s.window
                and not (int(t_in) or int(t_cached) or int(t_out) or int(t_reason))
            ):
                turn.overflow_signature = True  # Codex marks a full window this way when the provider rejects it
                continue
            context = int(l_in)
            if turn.context is None or context > turn.context:
                turn.context = context
            turn.cached = int(l_cached)
            turn.output = int(l_out)
            continue
        if pending is not None:
            s.last_time, pending = pending.decode(), None
        line_start = m.start() + 1
        line_end = buf.find(b"\n", line_start if l_out is not None else m.end(), end)  # a token tail may run past it
        parse_line(s, buf[line_start : line_end if line_end >= 0 else end])
    if pending is not None:
        s.last_time = pending.decode()
