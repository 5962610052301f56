"""The session-log reader as it was before the single-pass scanner (2026-12-01), kept only so a test can prove
that the new one reads every corpus into the same sessions and report. Do not use it elsewhere.

Only what changed is here (block reading with counting passes, the `"type":"` regex, and line classification);
the rest (token_count fast path, events, the legacy format) is the shared code in codexdoctor.codex.rollout_lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from codexdoctor.codex.rollout_lines import WANTED_EVENTS
from codexdoctor.codex.rollout_lines import consume_enveloped as _consume_enveloped
from codexdoctor.codex.rollout_lines import consume_legacy as _consume
from codexdoctor.codex.rollout_lines import parse_line as _parse
from codexdoctor.codex.rollout_session import Session
from codexdoctor.codex.rollouts import _FILE_NAME, MAX_LINE
from codexdoctor.common import safefile

CHUNK = 1 << 20


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
            chunk, skipping = chunk[cut + 1 :], False
        cut = chunk.rfind(b"\n")
        if cut < 0:
            carry += chunk
            if len(carry) > MAX_LINE:
                stats.huge_lines += 1
                carry, skipping = b"", True
            continue
        block, rest = carry + chunk[: cut + 1], chunk[cut + 1 :]
        carry = rest
        yield block
    if carry.strip() and not skipping:
        stats.truncated_tail = not carry.rstrip().endswith(b"}")
        yield carry + b"\n"


_WANTED = re.compile(
    rb'"type":"(?:session_meta|turn_context|compacted|event_msg","payload":\{"type":"(?:'
    + b"|".join(sorted(WANTED_EVENTS))
    + rb'))"'
)
ENVELOPE_REACH = 120


def read_session(path: Path, keep_content: bool = False) -> Session:
    s = Session(path=str(path), keep_content=keep_content)
    m = _FILE_NAME.search(path.name)
    if m:
        s.id = m.group(2)
    try:
        with safefile.open_regular(path) as fh:  # a FIFO named *.jsonl must not block the whole report
            for block in iter_blocks(fh, s):
                if (
                    s.parsed == 0
                    and s.skipped_items == 0
                    and not s.legacy
                    and b'"payload"' not in block[: block.find(b"\n")]
                ):
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
        _parse(s, block[line_start : end if end >= 0 else len(block)])
    s.lines += lines
    s.bad_lines += max(0, lines - envelopes - blanks)
    s.skipped_items += max(0, envelopes - wanted)
