"""Read Codex session logs (rollouts) line by line, in constant memory, whatever state they are in.

Real logs are dominated by `response_item` lines (tool output, reasoning) that
say nothing about context size; a byte-level pre-filter skips them without
JSON parsing. Only envelope lines we need are parsed: session_meta,
turn_context, compacted and a few event_msg types (codex-facts §7). Half-written
last lines, garbage, overlong lines and non-UTF-8 bytes are counted, never fatal.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from codexdoctor.common import outside_json as outside
from codexdoctor.common import safefile
from codexdoctor.common.untrusted import clip

_orjson: Any
try:
    import orjson as _orjson
except ImportError:  # optional speed: the standard library reads the same lines
    _orjson = None

try:
    import mmap
except ImportError:  # some sandboxes and embedded builds: the chunked reader does the same work
    mmap = None  # type: ignore[assignment]

if TYPE_CHECKING:
    import mmap as _mmap

    # What the scanner reads: a file's bytes, or a read-only window of the page cache over a large one.
    Buffer = bytes | _mmap.mmap

SCAN_CHUNK = 4 << 20  # big enough that the per-chunk cost vanishes, small enough for the 50 MB memory target
MAX_LINE = 8 << 20  # longer lines are skipped (counted), never held in memory
WANTED_EVENTS = {
    b"token_count",
    b"task_started",
    b"turn_started",
    b"task_complete",
    b"turn_complete",
    b"turn_aborted",
    b"context_compacted",
    b"user_message",
    b"error",
    b"stream_error",
}
_TYPE_AT = re.compile(rb'"type"\s*:\s*"([a-z_]+)"')
# A timestamp the fast paths may take as it is: printable ASCII, nothing for JSON to unescape. Codex writes RFC 3339;
# anything else (an escape, a non-ASCII or invalid byte) goes through the full parse, which decodes or counts it.
_plain = re.compile(rb"[ !#-\[\]-~]*+").fullmatch
_FILE_NAME = re.compile(r"rollout-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})-([0-9a-fA-F-]{36})\.jsonl$")


@dataclass
class Turn:
    """One user turn as the rollout records it: what went in, what came back and how it ended."""

    index: int
    started: str | None = None
    completed: bool = False
    aborted: bool = False
    context: int | None = None  # largest last_token_usage.input_tokens seen in the turn
    cached: int | None = None
    output: int | None = None
    compacted: bool = False
    overflow_signature: bool = False
    user_chars: int = 0
    error: str | None = None  # task_complete.error.message (Codex 0.171 writes it)
    error_info: str | None = None  # "context_window_exceeded" or "http 401"
    preview: str | None = None  # start of the user's message, kept only with --show-content
    opened_by_message: bool = False

    @property
    def closed(self) -> bool:
        return self.completed or self.aborted or self.error is not None


@dataclass
class Session:
    """One rollout file, read once: its turns plus what made it hard to read, so damage is counted, not fatal."""

    path: str
    id: str | None = None
    start: str | None = None
    last_time: str | None = None
    cli_version: str | None = None
    provider: str | None = None
    model: str | None = None
    window: int | None = None
    legacy: bool = False
    turns: list[Turn] = field(default_factory=list)
    compactions: int = 0
    lines: int = 0
    parsed: int = 0
    skipped_items: int = 0
    bad_lines: int = 0
    huge_lines: int = 0
    decode_errors: int = 0
    truncated_tail: bool = False
    read_error: str | None = None
    bytes: int = 0
    errors: list[str] = field(default_factory=list)  # error texts matched from codex-tui.log
    keep_content: bool = False
    compact: bool = False  # Codex's own one-line-per-item form, read by the fast scan
    careful: bool = False  # envelopes, but not in the field order the fast scan relies on: read line by line

    @property
    def contexts(self) -> list[int]:
        return [t.context for t in self.turns if t.context is not None]

    @property
    def peak(self) -> int | None:
        return max(self.contexts, default=None)

    @property
    def ended(self) -> str:
        if self.read_error:
            return "unreadable"
        if not self.turns:
            return "no turns"
        last = self.turns[-1]
        if last.overflow_signature or last.error_info == "context_window_exceeded":
            return "overflow"
        if last.error:
            return "error"
        if last.aborted:
            return "aborted"
        if last.completed:
            return "completed"
        return "never completed"


def _envelope_type(line: bytes) -> bytes | None:
    m = _TYPE_AT.search(line, 0, 160)
    return m.group(1) if m else None


def read_session(path: Path, keep_content: bool = False) -> Session:
    """One pass over the file: read in 4 MB chunks, each chunk scanned once by `_SCAN` (no per-line Python step,
    no copy of the chunk, no counting pass); only the lines we need reach Python."""
    s = Session(path=str(path), keep_content=keep_content)
    m = _FILE_NAME.search(path.name)
    if m:
        s.id = m.group(2)
    try:
        with safefile.open_regular(path) as fh:  # a FIFO named *.jsonl must not block the whole report
            if not _read_mapped(fh, s):
                _read_chunks(fh, s)
    except OSError as exc:
        s.read_error = exc.strerror or str(exc) or type(exc).__name__
    return s


LIVE_SECONDS = 300
# Smaller files are read(): faulting a mapping in page by page costs more than copying the bytes of a file of a
# few MB, while a file of tens of MB read in 4 MB chunks pays for fresh buffers and the copy. Measured end to end,
# interleaved against mmap for every file (bench note in docs/performance.md, 2026-12-01): `real` -9%, `typical`
# -4%, `short-lines` -3%; `few-huge` (75 MB files) mapped as before.
MAP_MIN_BYTES = 16 << 20
WINDOW = MAX_LINE + (
    mmap.ALLOCATIONGRANULARITY if mmap else 4096
)  # a line that does not fit a window starting where it starts is overlong


def _read_mapped(fh: BinaryIO, s: Session) -> bool:
    """Scan a large settled file through read-only windows of the page cache: no copy of the bytes, at most one
    window (8 MB) mapped at a time so memory does not grow with the file. False when the file is small, may be
    live, or cannot be mapped: the caller reads it."""
    try:
        info = os.fstat(fh.fileno())
    except OSError:
        return False
    size = info.st_size
    if size == 0 or mmap is None:
        return size == 0
    # A file written in the last minutes may be a live session: read it with read(). A mapped file that shrinks
    # under us would kill the process (SIGBUS); Codex only appends, but a live file is not worth that risk.
    if size < MAP_MIN_BYTES or time.time() - info.st_mtime < LIVE_SECONDS:
        return False
    pos = 0  # the next line start, in file offsets
    while pos < size:
        base = pos - pos % mmap.ALLOCATIONGRANULARITY
        length = min(WINDOW, size - base)
        try:
            mm = mmap.mmap(fh.fileno(), length, access=mmap.ACCESS_READ, offset=base)
        except (OSError, ValueError):
            if pos == 0:
                return False
            fh.seek(pos)
            _read_chunks(fh, s)  # the rest the plain way
            return True
        try:
            start = pos - base
            last = mm.rfind(b"\n", start)
            if last >= 0:
                s.bytes += last + 1 - start
                _scan(s, mm, start, last + 1)
                pos = base + last + 1
                continue
            if base + length >= size:  # the last line has no newline: half-written
                tail = mm[start:]
                s.bytes += len(tail)
                pos = size
                if tail.strip():
                    s.truncated_tail = not tail.rstrip().endswith(b"}")
                    line = tail + b"\n"
                    _scan(s, line, 0, len(line))
                continue
        finally:
            mm.close()
        # a line longer than a window: overlong, skipped up to the next newline (read in small steps, never held)
        s.huge_lines += 1
        fh.seek(base + length)
        s.bytes += base + length - pos
        pos = base + length
        while True:
            piece = fh.read(1 << 20)
            if not piece:
                pos = size
                break
            cut = piece.find(b"\n")
            if cut >= 0:
                s.bytes += cut + 1
                pos += cut + 1
                break
            s.bytes += len(piece)
            pos += len(piece)
    return True


def _read_chunks(fh: BinaryIO, s: Session) -> None:
    carry = b""
    skipping = False
    while True:
        chunk = fh.read(SCAN_CHUNK)
        if not chunk:
            break
        s.bytes += len(chunk)
        pos = 0
        if skipping:  # the rest of an overlong line
            cut = chunk.find(b"\n")
            if cut < 0:
                continue
            pos, skipping = cut + 1, False
        last = chunk.rfind(b"\n", pos)
        if last < 0:
            carry += chunk[pos:] if pos else chunk
            if len(carry) > MAX_LINE:
                s.huge_lines += 1
                carry, skipping = b"", True
            continue
        if carry:  # the line that straddles two chunks: the only bytes ever copied
            first = chunk.find(b"\n", pos)
            if len(carry) + first - pos > MAX_LINE:
                s.huge_lines += 1  # overlong: skipped, never parsed
            else:
                line = carry + chunk[pos : first + 1]
                _scan(s, line, 0, len(line))
            carry = b""
            pos = first + 1
        _scan(s, chunk, pos, last + 1)
        carry = chunk[last + 1 :]
    if carry.strip() and not skipping:
        s.truncated_tail = not carry.rstrip().endswith(b"}")
        line = carry + b"\n"
        _scan(s, line, 0, len(line))


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
TOP_TYPES = (b"session_meta", b"turn_context", b"compacted")  # envelope types read whole; event_msg by payload type
_LINE_BODY = (
    rb'(?:\{"timestamp":"([^"]{0,40}+)",(?:"ordinal":\d++,)?+"type":"(' + b"|".join(TOP_TYPES) + rb"|"
    rb'event_msg","payload":\{"type":"('
    + b"|".join(sorted(WANTED_EVENTS))
    + rb'))"'
    + _TOKEN_TAIL
    + rb'|(?!\{"timestamp":")([^\n\r]))'
)
_SCAN = re.compile(rb"\n" + _LINE_BODY)
_WANTED_NAME = re.compile(rb'"(?:' + b"|".join((*TOP_TYPES, *sorted(WANTED_EVENTS))) + rb')"')
_TOP_NAMES = frozenset(t.decode() for t in TOP_TYPES)
_EVENT_NAMES = frozenset(e.decode() for e in WANTED_EVENTS)
_COMPACT = b'{"timestamp":"'


def _scan(s: Session, buf: Buffer, start: int, end: int) -> None:
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
                (_consume if s.legacy else _consume_enveloped)(s, raw)
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
        if window is not None and _plain(ts):  # a token_count line in Codex's shape: `_event`, on the numbers alone
            try:
                numbers = (
                    _count(t_in),
                    _count(t_cached),
                    _count(t_out),
                    _count(t_reason),
                    _count(t_total),
                    _count(l_in),
                    _count(l_cached),
                    _count(l_out),
                    _count(window) if window != b"null" else None,
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
        _parse(s, buf[line_start : line_end if line_end >= 0 else end])
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
    """The `token_count` branch of `_event`, from the numbers the scan cut out of the line (no JSON parse)."""
    if s.start is None:
        s.start = ts.decode()
    s.parsed += 1
    s.window = window or s.window
    turn = s.turns[-1] if s.turns else _current(s, ts.decode())
    if s.window and t_total == s.window and not (t_in or t_cached or t_out or t_reason):
        turn.overflow_signature = True  # Codex marks a full window this way when the provider rejects it
        return
    if turn.context is None or l_in > turn.context:
        turn.context = l_in
    turn.cached = l_cached
    turn.output = l_out


def _current(s: Session, when: str | None) -> Turn:
    if not s.turns:
        s.turns.append(Turn(1, when))
    return s.turns[-1]


def _consume_enveloped(s: Session, raw: bytes) -> None:
    """A line of a log that is not in Codex's compact form (re-serialised: other spacing, other key order, keys
    sorted): whether it is one we need is read from the parsed line, not from where its keys stand."""
    if _WANTED_NAME.search(raw) is None:  # no wanted type name anywhere: not a line we need
        if _envelope_type(raw) is None:
            s.bad_lines += 1
        else:
            s.skipped_items += 1
        return
    obj = _object(s, raw)
    if obj is None:
        return
    kind, payload = obj.get("type"), obj.get("payload")
    event = payload.get("type") if isinstance(payload, dict) else None
    if isinstance(kind, str) and (
        kind in _TOP_NAMES or (kind == "event_msg" and isinstance(event, str) and event in _EVENT_NAMES)
    ):
        s.parsed += 1
        _take(s, obj)
    else:
        s.skipped_items += 1


def _consume(s: Session, raw: bytes) -> None:
    """Legacy files, line by line: only the header and user messages matter."""
    if b'"role":"user"' not in raw and b'"role": "user"' not in raw and s.parsed > 0:
        s.skipped_items += 1
        return
    _parse(s, raw)


_USAGE = re.compile(rb'"(last_token_usage|total_token_usage)":\{([^{}]*)\}')
_PAIR = re.compile(rb'"([a-z_]+)":(\d+)')
_WINDOW = re.compile(rb'"model_context_window":(\d+)')
_TIMESTAMP = re.compile(rb'^\{"timestamp":"([^"]{1,40})"')


# A number in a log is a count of tokens. One of more digits than this is corruption, and no arithmetic on it is safe
# (a float holds up to 309 digits; int() refuses more than 4,300): its line is an unreadable line, never an
# OverflowError or a ValueError out of the reader or the classification after it. Below this, a number is kept as
# read, however implausible (a 21-digit count is shown as it is).
COUNT_DIGITS_MAX = 300


def _count(digits: bytes) -> int:
    if len(digits) > COUNT_DIGITS_MAX:
        raise ValueError("a count of more than 300 digits")
    return int(digits)


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > COUNT_DIGITS_MAX:
        raise ValueError("a number of more than 300 digits")
    return int(text)


def _fast_token_count(s: Session, raw: bytes) -> bool:
    """token_count lines are the most frequent we need, and mostly rate-limit detail: read just the usage.

    A number that no count can be (COUNT_DIGITS_MAX) sends the line to the full parse, where it is one more
    unreadable line."""
    try:
        return _read_token_count(s, raw)
    except ValueError:
        return False


def _read_token_count(s: Session, raw: bytes) -> bool:
    usage = {k.decode(): {a.decode(): _count(b) for a, b in _PAIR.findall(v)} for k, v in _USAGE.findall(raw)}
    if "last_token_usage" not in usage or "total_token_usage" not in usage:
        return False
    m = _TIMESTAMP.match(raw)
    if m and not _plain(m.group(1)):
        return False  # bytes JSON would have to decode (escapes, non-ASCII): the full parse reads it
    when = m.group(1).decode() if m else None
    if when:
        s.last_time = when
        s.start = s.start or when
    w = _WINDOW.search(raw)
    info = {**usage, "model_context_window": _count(w.group(1)) if w else None}
    s.parsed += 1
    _event(s, {"type": "token_count", "info": info}, when)
    return True


def _loads(s: Session, raw: bytes) -> Any:
    """orjson when it reads the line (3-5x faster, on the bytes as they are; it stops at 1,024 levels of nesting with
    an error of its own); anything it refuses (invalid UTF-8, NaN, integers beyond 64 bits, a nesting bomb) takes
    outside_json's depth-limited path. Raises ValueError for a line neither reads."""
    if _orjson is not None:
        try:
            return _orjson.loads(raw)
        except (ValueError, RecursionError):
            pass
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        s.decode_errors += 1
        text = raw.decode("utf-8", "replace")
    parsed = outside.parse(text, parse_int=_json_int)  # past 64 bits, or not UTF-8, or not JSON, or too deep
    if parsed.malformed:
        raise ValueError(parsed.malformed)
    return parsed.value


_TOKEN_COUNT_MARK = b'"payload":{"type":"token_count","info":{'


def _parse(s: Session, raw: bytes) -> None:
    if raw.find(_TOKEN_COUNT_MARK, 0, 200) >= 0 and _fast_token_count(s, raw):  # within the first 200 bytes, no copy
        return
    obj = _object(s, raw)
    if obj is not None:
        s.parsed += 1
        _take(s, obj)


def _object(s: Session, raw: bytes) -> dict[str, Any] | None:
    """The line as a JSON object, or None (counted as unreadable)."""
    try:
        obj = _loads(s, raw)
    except (ValueError, RecursionError):  # a nesting bomb is one more unreadable line, not a crash
        s.bad_lines += 1
        return None
    if not isinstance(obj, dict):
        s.bad_lines += 1
        return None
    return obj


def _take(s: Session, obj: dict[str, Any]) -> None:
    """What one parsed line tells about the session."""
    when = obj.get("timestamp") if isinstance(obj.get("timestamp"), str) else None
    if when:
        s.last_time = when
        s.start = s.start or when
    etype = obj.get("type")
    payload: dict[str, Any] = obj["payload"] if isinstance(obj.get("payload"), dict) else {}
    if s.legacy:
        _legacy(s, obj)
        return
    if etype == "session_meta":  # only strings: a number or an object in a damaged log must not reach the report
        s.id = outside.text(payload, "id") or s.id
        s.cli_version = outside.text(payload, "cli_version") or s.cli_version
        s.provider = outside.text(payload, "model_provider") or s.provider
        s.start = outside.text(payload, "timestamp") or s.start
    elif etype == "turn_context":
        s.model = outside.text(payload, "model") or s.model
    elif etype == "compacted":
        s.compactions += 1
        _current(s, when).compacted = True
    elif etype == "event_msg":
        _event(s, payload, when)


def _event(s: Session, payload: dict[str, Any], when: str | None) -> None:
    ptype = payload.get("type")
    if ptype in ("task_started", "turn_started"):
        window = outside.integer(payload, "model_context_window")
        s.window = window or s.window
        if s.turns and s.turns[-1].opened_by_message and not s.turns[-1].closed:
            s.turns[-1].opened_by_message = False  # older versions write user_message before task_started
            return
        s.turns.append(Turn(len(s.turns) + 1, when))
    elif ptype == "user_message":
        if not s.turns or s.turns[-1].closed:
            s.turns.append(Turn(len(s.turns) + 1, when, opened_by_message=True))
        turn = s.turns[-1]
        msg = payload.get("message")
        turn.user_chars += len(msg) if isinstance(msg, str) else 0
        if s.keep_content and isinstance(msg, str) and turn.preview is None:
            turn.preview = clip(" ".join(msg.split()), 80)
    elif ptype in ("task_complete", "turn_complete"):
        turn = _current(s, when)
        error = payload.get("error")
        if isinstance(error, dict) and error.get("message"):
            turn.error = clip(str(error["message"]), 500)
            info = error.get("codex_error_info")
            if isinstance(info, str):
                turn.error_info = info
            elif isinstance(info, dict):
                status = next((v.get("http_status_code") for v in info.values() if isinstance(v, dict)), None)
                turn.error_info = f"http {status}" if status else next(iter(info), None)
        else:
            turn.completed = True
    elif ptype == "turn_aborted":
        _current(s, when).aborted = True
    elif ptype == "context_compacted":
        s.compactions += 1
        _current(s, when).compacted = True
    elif ptype == "token_count":
        info = payload.get("info")
        if not isinstance(info, dict):
            return
        window = outside.integer(info, "model_context_window")
        s.window = window or s.window
        last: dict[str, Any] = info["last_token_usage"] if isinstance(info.get("last_token_usage"), dict) else {}
        total: dict[str, Any] = info["total_token_usage"] if isinstance(info.get("total_token_usage"), dict) else {}
        turn = _current(s, when)
        if (
            s.window
            and outside.integer(total, "total_tokens") == s.window
            and not any(
                outside.integer(total, k)
                for k in ("input_tokens", "cached_input_tokens", "output_tokens", "reasoning_output_tokens")
            )
        ):
            turn.overflow_signature = True  # Codex marks a full window this way when the provider rejects it
            return
        ctx = outside.integer(last, "input_tokens")
        if ctx is not None:
            turn.context = max(turn.context or 0, ctx)
            turn.cached = outside.integer(last, "cached_input_tokens")
            turn.output = outside.integer(last, "output_tokens")


def _legacy(s: Session, obj: dict[str, Any]) -> None:
    """Rollouts from before Sep 2025: a bare header line then bare items, no token counts."""
    s.legacy = True
    if "instructions" in obj or ("id" in obj and "git" in obj):
        s.id = outside.text(obj, "id") or s.id
        s.start = outside.text(obj, "timestamp") or s.start
    elif obj.get("type") == "message" and obj.get("role") == "user":
        s.turns.append(Turn(len(s.turns) + 1, None))


def iter_rollouts(roots: Iterable[Path], problems: list[str]) -> Iterator[Path]:
    """Every rollout-*.jsonl below the roots, streamed (a folder of a million files is never listed at once).

    Files are taken as given. A linked folder is followed (sessions moved to another disk and linked back must
    not go missing), but each folder is read once, by its device and inode: a link loop, or a link to a folder
    read elsewhere, adds nothing and cannot hang it."""
    seen: set[tuple[int, int]] = set()
    for root in roots:
        if root.is_file():
            yield root
            continue
        if not root.is_dir():
            if root.exists():
                problems.append(f"{root}: not a regular file or folder")
            continue
        stack = [str(root)]
        while stack:
            folder = stack.pop()
            try:
                info = os.stat(folder)
                if (info.st_dev, info.st_ino) in seen:
                    continue
                seen.add((info.st_dev, info.st_ino))
                with os.scandir(folder) as entries:
                    subfolders = []
                    for entry in entries:
                        try:
                            if entry.is_dir():  # a linked folder too: `seen` stops loops
                                subfolders.append(entry.path)
                            elif entry.name.endswith(".jsonl") and entry.name != "history.jsonl":
                                yield Path(entry.path)
                        except OSError:
                            continue
            except OSError as exc:
                problems.append(f"{folder}: {exc.strerror or exc}")
                continue
            stack.extend(sorted(subfolders, reverse=True))


def find_rollouts(roots: Iterable[Path], problems: list[str]) -> list[Path]:
    return sorted(iter_rollouts(roots, problems))


def parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)


_LOG_TIME = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?)")
# Matched against the message only (after the timestamp): a `429` inside `03:14:29.429Z` is not a rate limit, and
# `model_context_window=…` on an info line is not a context error.
LOG_PATTERNS = (
    ("401", re.compile(r"401 Unauthorized|status 401\b|invalid_api_key|Incorrect API key", re.I)),
    ("404", re.compile(r"404 Not Found|status 404\b", re.I)),
    ("model_not_found", re.compile(r"model .* does not exist|model_not_found|not found, try pulling", re.I)),
    (
        "context",
        re.compile(
            r"ran out of room|context_length_exceeded|maximum context length|exceed_context_size|"
            r"exceeds the available context size|ContextWindowExceeded|exceeds the context window|"
            r"max context length",
            re.I,
        ),
    ),
    ("stream", re.compile(r"stream disconnected before completion", re.I)),
    ("reconnecting", re.compile(r"Reconnecting\.\.\.", re.I)),
    ("missing_env", re.compile(r"Missing environment variable", re.I)),
    (
        "429",
        re.compile(r"\b429 Too Many Requests|status 429\b|rate_limit_exceeded|rate limit|insufficient_quota", re.I),
    ),
)
# Codex 0.171 writes the thread on its log lines: `session_loop{thread_id=01a2…}` or `thread_id="…"`.
_THREAD = re.compile(r"\b(?:thread_id|conversation_id|session_id)[=:]\s*\"?([0-9a-fA-F]{8}-[0-9a-fA-F-]{27,})")


def read_tui_log(
    path: Path, problems: list[str], max_lines: int = 2_000_000
) -> list[tuple[datetime, str, str, str | None]]:
    """(time, kind, message, thread id or None) for error lines in codex-tui.log."""
    out: list[tuple[datetime, str, str, str | None]] = []
    try:
        with safefile.open_regular(path) as fh:
            for n, raw in enumerate(fh):
                if n >= max_lines:
                    break
                line = raw.decode("utf-8", "replace").rstrip()
                m = _LOG_TIME.match(line)
                if not m:
                    continue
                message = line[m.end() :]
                for kind, pattern in LOG_PATTERNS:
                    if pattern.search(message):
                        when = parse_time(m.group(1))
                        thread = _THREAD.search(message)
                        if when:
                            out.append((when, kind, clip(message.strip(), 300), thread.group(1) if thread else None))
                        break
    except OSError as exc:
        problems.append(f"{path}: {exc.strerror or exc}")
    return out
