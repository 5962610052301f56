"""Read Codex session logs (rollouts) line by line, in constant memory, whatever state they are in.

Real logs are dominated by `response_item` lines (tool output, reasoning) that
say nothing about context size; a byte-level pre-filter skips them without
JSON parsing. Only envelope lines we need are parsed: session_meta,
turn_context, compacted and a few event_msg types (codex-facts §7). Half-written
last lines, garbage, overlong lines and non-UTF-8 bytes are counted, never fatal.

This module reads the files (settled large ones through windows of the page cache, the others in 4 MB chunks) and
finds them; codex/rollout_scan.py picks the lines out of each buffer, codex/rollout_lines.py reads the lines it
hands on, into a codex/rollout_session.Session.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from codexdoctor.codex.rollout_scan import scan
from codexdoctor.codex.rollout_session import Session
from codexdoctor.common import safefile

try:
    import mmap
except ImportError:  # some sandboxes and embedded builds: the chunked reader does the same work
    mmap = None  # type: ignore[assignment]

SCAN_CHUNK = 4 << 20  # big enough that the per-chunk cost vanishes, small enough for the 50 MB memory target
MAX_LINE = 8 << 20  # longer lines are skipped (counted), never held in memory
_FILE_NAME = re.compile(r"rollout-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})-([0-9a-fA-F-]{36})\.jsonl$")


def read_session(path: Path, keep_content: bool = False) -> Session:
    """One pass over the file: read in 4 MB chunks, each chunk scanned once by `scan` (no per-line Python step,
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
                scan(s, mm, start, last + 1)
                pos = base + last + 1
                continue
            if base + length >= size:  # the last line has no newline: half-written
                tail = mm[start:]
                s.bytes += len(tail)
                _scan_tail(s, tail)
                pos = size
                continue
        finally:
            mm.close()
        pos = _skip_overlong(fh, s, pos, base + length, size)
    return True


def _scan_tail(s: Session, tail: bytes) -> None:
    """The last line of a file, written without its newline: Codex was still writing it, or was stopped mid-line."""
    if tail.strip():
        s.truncated_tail = not tail.rstrip().endswith(b"}")
        line = tail + b"\n"
        scan(s, line, 0, len(line))


def _skip_overlong(fh: BinaryIO, s: Session, pos: int, window_end: int, size: int) -> int:
    """A line longer than a window: counted as overlong and skipped up to the next newline, read in small steps and
    never held. Returns the next line start."""
    s.huge_lines += 1
    fh.seek(window_end)
    s.bytes += window_end - pos
    pos = window_end
    while True:
        piece = fh.read(1 << 20)
        if not piece:
            return size
        cut = piece.find(b"\n")
        if cut >= 0:
            s.bytes += cut + 1
            return pos + cut + 1
        s.bytes += len(piece)
        pos += len(piece)


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
                scan(s, line, 0, len(line))
            carry = b""
            pos = first + 1
        scan(s, chunk, pos, last + 1)
        carry = chunk[last + 1 :]
    if not skipping:
        _scan_tail(s, carry)


def is_rollout_name(name: str) -> bool:
    """The files Codex itself lists as sessions: `rollout-*.jsonl` (codex-rs/core/src/rollout/list.rs, `collect_files`
    in `traverse_directories_for_paths`). `check` and `sessions` count by this one rule (issue 40 review: they read
    8 and 11 logs of the same folder)."""
    return name.startswith("rollout-") and name.endswith(".jsonl")


def iter_rollouts(roots: Iterable[Path], problems: list[str], newest_first: bool = False) -> Iterator[Path]:
    """Every rollout-*.jsonl below the roots, streamed (a folder of a million files is never listed at once).
    With `newest_first`, each folder's files and subfolders go by name, newest first (Codex's dated folders and
    file names sort by time): `check` takes the first few of them without listing the rest.

    Files given as roots are taken as given. A linked folder is followed (sessions moved to another disk and linked
    back must not go missing), but each folder is read once, by its device and inode: a link loop, or a link to a
    folder read elsewhere, adds nothing and cannot hang it."""
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
            subfolders: list[str] = []
            files: list[str] = []
            try:
                info = os.stat(folder)
                if (info.st_dev, info.st_ino) in seen:
                    continue
                seen.add((info.st_dev, info.st_ino))
                with os.scandir(folder) as entries:
                    for entry in entries:
                        try:
                            if entry.is_dir():  # a linked folder too: `seen` stops loops
                                subfolders.append(entry.path)
                            elif is_rollout_name(entry.name):
                                if not newest_first:
                                    yield Path(entry.path)
                                else:
                                    files.append(entry.path)
                        except OSError:
                            continue
            except OSError as exc:
                problems.append(f"{folder}: {exc.strerror or exc}")
                continue
            yield from (Path(f) for f in sorted(files, reverse=True))
            stack.extend(sorted(subfolders, reverse=not newest_first))


def find_rollouts(roots: Iterable[Path], problems: list[str]) -> list[Path]:
    return sorted(iter_rollouts(roots, problems))
