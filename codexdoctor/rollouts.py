"""Read Codex session logs (rollouts) line by line, in constant memory, whatever state they are in.

Real logs are dominated by `response_item` lines (tool output, reasoning) that
say nothing about context size; a byte-level pre-filter skips them without
JSON parsing. Only envelope lines we need are parsed: session_meta,
turn_context, compacted and a few event_msg types (codex-facts §7). Half-written
last lines, garbage, overlong lines and non-UTF-8 bytes are counted, never fatal.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator

from codexdoctor import safefile

CHUNK = 1 << 20
MAX_LINE = 8 << 20  # longer lines are skipped (counted), never held in memory
WANTED_EVENTS = {b"token_count", b"task_started", b"turn_started", b"task_complete", b"turn_complete",
                 b"turn_aborted", b"context_compacted", b"user_message", b"error", b"stream_error"}
_TYPE_AT = re.compile(rb'"type"\s*:\s*"([a-z_]+)"')
_FILE_NAME = re.compile(r"rollout-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})-([0-9a-fA-F-]{36})\.jsonl$")


@dataclass
class Turn:
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


def iter_blocks(fh, stats: Session) -> Iterator[bytes]:
    """Blocks of complete lines, chunk by chunk; overlong lines are dropped without being held."""
    carry = b""
    skipping = False
    while True:
        chunk = fh.read(CHUNK)
        if not chunk:
            break
        stats.bytes += len(chunk)
        if skipping:
            cut = chunk.find(b"\n")
            if cut < 0:
                continue
            chunk, skipping = chunk[cut + 1:], False
        cut = chunk.rfind(b"\n")
        if cut < 0:
            carry += chunk
            if len(carry) > MAX_LINE:
                stats.huge_lines += 1
                carry, skipping = b"", True
            continue
        block, rest = carry + chunk[:cut + 1], chunk[cut + 1:]
        carry = rest
        yield block
    if carry.strip() and not skipping:
        stats.truncated_tail = not carry.rstrip().endswith(b"}")
        yield carry + b"\n"


def iter_lines(fh, stats: Session) -> Iterator[bytes]:
    for block in iter_blocks(fh, stats):
        yield from block.splitlines()


# Lines we parse, found by one C-level scan per block instead of a Python step per line.
# Codex (serde) writes compact lines {"timestamp":"…",("ordinal":N,)"type":"…","payload":{"type":"…",…}}.
# One regex pass per block finds the lines we need: its literal prefix lets the engine jump between `"type":"`
# occurrences in C, instead of a Python step per line. A hit counts only when it sits in the line's envelope.
# Non-compact files (re-serialised by hand) take the line-by-line path.
_WANTED = re.compile(rb'"type":"(?:session_meta|turn_context|compacted|event_msg","payload":\{"type":"(?:'
                     + b"|".join(sorted(WANTED_EVENTS)) + rb'))"')
ENVELOPE_REACH = 120


def _event_type(line: bytes) -> bytes | None:
    """The payload type of an event_msg line, read from the raw bytes."""
    idx = line.find(b'"payload"')
    if idx < 0:
        return None
    m = _TYPE_AT.search(line, idx, idx + 200)
    return m.group(1) if m else None


def _envelope_type(line: bytes) -> bytes | None:
    m = _TYPE_AT.search(line, 0, 160)
    return m.group(1) if m else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def read_session(path: Path, keep_content: bool = False) -> Session:
    s = Session(path=str(path), keep_content=keep_content)
    m = _FILE_NAME.search(path.name)
    if m:
        s.id = m.group(2)
    try:
        with safefile.open_regular(path) as fh:  # a FIFO named *.jsonl must not block the whole report
            for block in iter_blocks(fh, s):
                if s.parsed == 0 and s.skipped_items == 0 and not s.legacy and b'"payload"' not in block[:block.find(b"\n")]:
                    s.legacy = True  # before Sep 2025: no {timestamp, type, payload} envelope
                if s.legacy:
                    for raw in block.splitlines():
                        s.lines += 1
                        if raw.strip():
                            _consume(s, raw)
                    continue
                _scan_block(s, block)
    except OSError as exc:
        s.read_error = exc.strerror or str(exc) or type(exc).__name__
    return s


def _scan_block(s: Session, block: bytes) -> None:
    lines = block.count(b"\n")
    envelopes = block.count(b'\n{"timestamp":"') + block.startswith(b'{"timestamp":"')
    # Blank lines are rare; only look for them when some lines are not envelopes.
    blanks = (block.count(b"\n\n") + block.startswith(b"\n")) if lines != envelopes else 0
    if envelopes == 0 and lines > blanks:
        for raw in block.splitlines():  # not Codex's compact form (hand-edited, re-serialised): line by line
            s.lines += 1
            if raw.strip():
                _consume_enveloped(s, raw)
        return
    wanted = 0
    for m in _WANTED.finditer(block):
        line_start = block.rfind(b"\n", 0, m.start()) + 1
        if m.start() - line_start > ENVELOPE_REACH:
            continue  # a nested "type" deep inside some payload
        end = block.find(b"\n", m.end())
        wanted += 1
        _parse(s, block[line_start: end if end >= 0 else len(block)])
    s.lines += lines
    s.bad_lines += max(0, lines - envelopes - blanks)
    s.skipped_items += max(0, envelopes - wanted)


def _current(s: Session, when: str | None) -> Turn:
    if not s.turns:
        s.turns.append(Turn(1, when))
    return s.turns[-1]


def _consume_enveloped(s: Session, raw: bytes) -> None:
    kind = _envelope_type(raw)
    if kind is None:
        s.bad_lines += 1
    elif kind not in (b"session_meta", b"turn_context", b"compacted", b"event_msg") or (
            kind == b"event_msg" and _event_type(raw) not in WANTED_EVENTS):
        s.skipped_items += 1
    else:
        _parse(s, raw)


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


def _fast_token_count(s: Session, raw: bytes) -> bool:
    """token_count lines are the most frequent we need, and mostly rate-limit detail: read just the usage."""
    usage = {k.decode(): {a.decode(): int(b) for a, b in _PAIR.findall(v)} for k, v in _USAGE.findall(raw)}
    if "last_token_usage" not in usage or "total_token_usage" not in usage:
        return False
    m = _TIMESTAMP.match(raw)
    when = m.group(1).decode() if m else None
    if when:
        s.last_time = when
        s.start = s.start or when
    w = _WINDOW.search(raw)
    info = {**usage, "model_context_window": int(w.group(1)) if w else None}
    s.parsed += 1
    _event(s, {"type": "token_count", "info": info}, when)
    return True


def _parse(s: Session, raw: bytes) -> None:
    if b'"payload":{"type":"token_count","info":{' in raw[:200] and _fast_token_count(s, raw):
        return
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        s.decode_errors += 1
        text = raw.decode("utf-8", "replace")
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):  # a nesting bomb is one more unreadable line, not a crash
        s.bad_lines += 1
        return
    if not isinstance(obj, dict):
        s.bad_lines += 1
        return
    s.parsed += 1
    when = obj.get("timestamp") if isinstance(obj.get("timestamp"), str) else None
    if when:
        s.last_time = when
        s.start = s.start or when
    etype = obj.get("type")
    payload = obj.get("payload") if isinstance(obj.get("payload"), dict) else {}
    if s.legacy:
        _legacy(s, obj)
        return
    if etype == "session_meta":
        s.id = payload.get("id") or s.id
        s.cli_version = payload.get("cli_version") or s.cli_version
        s.provider = payload.get("model_provider") or s.provider
        s.start = payload.get("timestamp") or s.start
    elif etype == "turn_context":
        s.model = payload.get("model") or s.model
    elif etype == "compacted":
        s.compactions += 1
        _current(s, when).compacted = True
    elif etype == "event_msg":
        _event(s, payload, when)


def _event(s: Session, payload: dict[str, Any], when: str | None) -> None:
    ptype = payload.get("type")
    if ptype in ("task_started", "turn_started"):
        window = _int(payload.get("model_context_window"))
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
            turn.preview = " ".join(msg.split())[:80]
    elif ptype in ("task_complete", "turn_complete"):
        turn = _current(s, when)
        error = payload.get("error")
        if isinstance(error, dict) and error.get("message"):
            turn.error = str(error["message"])[:500]
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
        window = _int(info.get("model_context_window"))
        s.window = window or s.window
        last = info.get("last_token_usage") if isinstance(info.get("last_token_usage"), dict) else {}
        total = info.get("total_token_usage") if isinstance(info.get("total_token_usage"), dict) else {}
        turn = _current(s, when)
        if s.window and _int(total.get("total_tokens")) == s.window and not any(
                _int(total.get(k)) for k in ("input_tokens", "cached_input_tokens", "output_tokens", "reasoning_output_tokens")):
            turn.overflow_signature = True  # Codex marks a full window this way when the provider rejects it
            return
        ctx = _int(last.get("input_tokens"))
        if ctx is not None:
            turn.context = max(turn.context or 0, ctx)
            turn.cached = _int(last.get("cached_input_tokens"))
            turn.output = _int(last.get("output_tokens"))


def _legacy(s: Session, obj: dict[str, Any]) -> None:
    """Rollouts from before Sep 2025: a bare header line then bare items, no token counts."""
    s.legacy = True
    if "instructions" in obj or ("id" in obj and "git" in obj):
        s.id = obj.get("id") or s.id
        s.start = obj.get("timestamp") or s.start
    elif obj.get("type") == "message" and obj.get("role") == "user":
        s.turns.append(Turn(len(s.turns) + 1, None))


def iter_rollouts(roots: Iterable[Path], problems: list[str]) -> Iterator[Path]:
    """Every rollout-*.jsonl below the roots, streamed (a folder of a million files is never listed at once);
    files are taken as given; symlinked folders are not followed, so loops cannot hang it."""
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
                with os.scandir(folder) as entries:
                    subfolders = []
                    for entry in entries:
                        try:
                            if entry.is_dir(follow_symlinks=False):
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
    ("context", re.compile(r"ran out of room|context_length_exceeded|maximum context length|exceed_context_size|"
                           r"exceeds the available context size|ContextWindowExceeded|exceeds the context window|"
                           r"max context length", re.I)),
    ("stream", re.compile(r"stream disconnected before completion", re.I)),
    ("reconnecting", re.compile(r"Reconnecting\.\.\.", re.I)),
    ("missing_env", re.compile(r"Missing environment variable", re.I)),
    ("429", re.compile(r"\b429 Too Many Requests|status 429\b|rate_limit_exceeded|rate limit|insufficient_quota", re.I)),
)
# Codex 0.171 writes the thread on its log lines: `session_loop{thread_id=01a2…}` or `thread_id="…"`.
_THREAD = re.compile(r"\b(?:thread_id|conversation_id|session_id)[=:]\s*\"?([0-9a-fA-F]{8}-[0-9a-fA-F-]{27,})")


def read_tui_log(path: Path, problems: list[str], max_lines: int = 2_000_000) -> list[tuple[datetime, str, str, str | None]]:
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
                message = line[m.end():]
                for kind, pattern in LOG_PATTERNS:
                    if pattern.search(message):
                        when = parse_time(m.group(1))
                        thread = _THREAD.search(message)
                        if when:
                            out.append((when, kind, message.strip()[:300], thread.group(1) if thread else None))
                        break
    except OSError as exc:
        problems.append(f"{path}: {exc.strerror or exc}")
    return out
