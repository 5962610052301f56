"""One rollout line read as JSON: the envelopes the report needs (session_meta, turn_context, compacted, a few
event_msg types, codex-facts §7), Codex's older bare form, and token_count lines read from their numbers alone.

The lines that reach here are the ones the scan (codex/rollout_scan.py) could not take from its match, and every
line of a file not in Codex's compact form. A line neither JSON reader can read is one more unreadable line."""

from __future__ import annotations

import re
from typing import Any

from codexdoctor.codex.rollout_session import Session, Turn
from codexdoctor.common import outside_json as outside
from codexdoctor.common.untrusted import clip

_orjson: Any
try:
    import orjson as _orjson
except ImportError:  # optional speed: the standard library reads the same lines
    _orjson = None

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
plain_text = re.compile(rb"[ !#-\[\]-~]*+").fullmatch
TOP_TYPES = (b"session_meta", b"turn_context", b"compacted")  # envelope types read whole; event_msg by payload type

_WANTED_NAME = re.compile(rb'"(?:' + b"|".join((*TOP_TYPES, *sorted(WANTED_EVENTS))) + rb')"')
_TOP_NAMES = frozenset(t.decode() for t in TOP_TYPES)
_EVENT_NAMES = frozenset(e.decode() for e in WANTED_EVENTS)


def _envelope_type(line: bytes) -> bytes | None:
    m = _TYPE_AT.search(line, 0, 160)
    return m.group(1) if m else None


def current_turn(s: Session, when: str | None) -> Turn:
    if not s.turns:
        s.turns.append(Turn(1, when))
    return s.turns[-1]


def consume_enveloped(s: Session, raw: bytes) -> None:
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


def consume_legacy(s: Session, raw: bytes) -> None:
    """Legacy files, line by line: only the header and user messages matter."""
    if b'"role":"user"' not in raw and b'"role": "user"' not in raw and s.parsed > 0:
        s.skipped_items += 1
        return
    parse_line(s, raw)


_USAGE = re.compile(rb'"(last_token_usage|total_token_usage)":\{([^{}]*)\}')
_PAIR = re.compile(rb'"([a-z_]+)":(\d+)')
_WINDOW = re.compile(rb'"model_context_window":(\d+)')
_TIMESTAMP = re.compile(rb'^\{"timestamp":"([^"]{1,40})"')


# A number in a log is a count of tokens. One of more digits than this is corruption, and no arithmetic on it is safe
# (a float holds up to 309 digits; int() refuses more than 4,300): its line is an unreadable line, never an
# OverflowError or a ValueError out of the reader or the classification after it. Below this, a number is kept as
# read, however implausible (a 21-digit count is shown as it is).
COUNT_DIGITS_MAX = 300


def parse_count(digits: bytes) -> int:
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
    usage = {k.decode(): {a.decode(): parse_count(b) for a, b in _PAIR.findall(v)} for k, v in _USAGE.findall(raw)}
    if "last_token_usage" not in usage or "total_token_usage" not in usage:
        return False
    m = _TIMESTAMP.match(raw)
    if m and not plain_text(m.group(1)):
        return False  # bytes JSON would have to decode (escapes, non-ASCII): the full parse reads it
    when = m.group(1).decode() if m else None
    if when:
        s.last_time = when
        s.start = s.start or when
    w = _WINDOW.search(raw)
    info = {**usage, "model_context_window": parse_count(w.group(1)) if w else None}
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


def parse_line(s: Session, raw: bytes) -> None:
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
        s.compacted_items += 1
        current_turn(s, when).compacted = True
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
        turn = current_turn(s, when)
        error = payload.get("error")
        if isinstance(error, dict) and error.get("message"):
            turn.error = clip(str(error["message"]), 500)
            turn.failed_at = when  # the failing request's own time, after Codex's retries (issue 40)
            info = error.get("codex_error_info")
            if isinstance(info, str):
                turn.error_info = info
            elif isinstance(info, dict):
                status = next((v.get("http_status_code") for v in info.values() if isinstance(v, dict)), None)
                turn.error_info = f"http {status}" if status else next(iter(info), None)
        else:
            turn.completed = True
    elif ptype == "turn_aborted":
        current_turn(s, when).aborted = True
    elif ptype == "context_compacted":
        s.compacted_events += 1
        current_turn(s, when).compacted = True
    elif ptype == "token_count":
        info = payload.get("info")
        if not isinstance(info, dict):
            return
        window = outside.integer(info, "model_context_window")
        s.window = window or s.window
        last: dict[str, Any] = info["last_token_usage"] if isinstance(info.get("last_token_usage"), dict) else {}
        total: dict[str, Any] = info["total_token_usage"] if isinstance(info.get("total_token_usage"), dict) else {}
        turn = current_turn(s, when)
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
