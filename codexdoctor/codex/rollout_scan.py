"""The fast path of the rollout reader: one C-level regex scan over a buffer of complete lines (a file's chunk, or a
window of the page cache), which recognises the lines the report needs and cuts the numbers out of token_count lines,
so most lines never reach Python. What it cannot take from its match goes to codex/rollout_lines.py."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from codexdoctor.codex.rollout_lines import (
    TOP_TYPES,
    WANTED_EVENTS,
    consume_enveloped,
    consume_legacy,
    current_turn,
    parse_count,
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
_TOKEN_TAIL = (
    rb'(?:,"info":\{"total_token_usage":\{"input_tokens":(\d++),"cached_input_tokens":(\d++),'
    rb'(?:"cache_write_input_tokens":\d++,)?+"output_tokens":(\d++),"reasoning_output_tokens":(\d++),'
    rb'"total_tokens":(\d++)\},"last_token_usage":\{"input_tokens":(\d++),"cached_input_tokens":(\d++),'
    rb'(?:"cache_write_input_tokens":\d++,)?+"output_tokens":(\d++),[^{}]*+\}'
    rb'(?:,"(?!model_context_window")[a-z_]++":(?:true|false|null|\d++))*+,"model_context_window":(\d++|null)[,}])?'
)
_LINE_BODY = (
    rb'(?:\{"timestamp":"([^"]{0,40}+)",(?:"ordinal":\d++,)?+"type":"(' + b"|".join(TOP_TYPES) + rb"|"
    rb'event_msg","payload":\{"type":"('
    + b"|".join(sorted(WANTED_EVENTS))
    + rb'))"'
    + _TOKEN_TAIL
    + rb'|(?!\{"timestamp":")([^\n\r]))'
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
        _lines(s, buf, ((m, m.start() + 1) for m in _SCAN.finditer(buf, start - 1, end)), end)
        return
    first_end = buf.find(b"\n", start, end) + 1
    head = b"\n" + buf[start:first_end]  # the file's first line (or a straddling one): matched on a small copy
    head_match = _SCAN.match(head)
    if head_match is not None:
        _lines(s, head, ((head_match, 1),), len(head))
    _lines(s, buf, ((m, m.start() + 1) for m in _SCAN.finditer(buf, first_end - 1, end)), end)


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


def _lines(s: Session, buf: Buffer, matches: Iterable[tuple[re.Match[bytes], int]], end: int) -> None:
    pending = None  # the newest token_count timestamp, written to s.last_time lazily (bytes -> str once)
    for m, line_start in matches:
        (ts, _top, event, t_in, t_cached, t_out, t_reason, t_total, l_in, l_cached, l_out, window, bad) = m.groups()
        if bad is not None:
            s.bad_lines += 1
            continue
        if window is not None and plain_text(ts):  # a token_count line in Codex's shape: `_event`, on the numbers alone
            try:
                numbers = (
                    parse_count(t_in),
                    parse_count(t_cached),
                    parse_count(t_out),
                    parse_count(t_reason),
                    parse_count(t_total),
                    parse_count(l_in),
                    parse_count(l_cached),
                    parse_count(l_out),
                    parse_count(window) if window != b"null" else None,
                )
            except ValueError:  # a number no count can be: the full parse counts it as an unreadable line
                numbers = None
            if numbers is not None:
                pending = ts
                _token(s, ts, *numbers)
                continue
        if pending is not None:
            s.last_time, pending = pending.decode(), None
        line_end = buf.find(b"\n", m.end() if window is None else line_start, end)  # a token tail may run past it
        parse_line(s, buf[line_start : line_end if line_end >= 0 else end])
    if pending is not None:
        s.last_time = pending.decode()


def _token(
    s: Session,
    ts: bytes,
    t_in: int,
    t_cached: int,
    t_out: int,
    t_reason: int,
    t_total: int,
    l_in: int,
    l_cached: int,
    l_out: int,
    window: int | None,
) -> None:
    """The `token_count` branch of rollout_lines `_event`, from the numbers the scan cut out of the line (no JSON parse)."""
    if s.start is None:
        s.start = ts.decode()
    s.parsed += 1
    s.window = window or s.window
    turn = s.turns[-1] if s.turns else current_turn(s, ts.decode())
    if s.window and t_total == s.window and not (t_in or t_cached or t_out or t_reason):
        turn.overflow_signature = True  # Codex marks a full window this way when the provider rejects it
        return
    if turn.context is None or l_in > turn.context:
        turn.context = l_in
    turn.cached = l_cached
    turn.output = l_out
