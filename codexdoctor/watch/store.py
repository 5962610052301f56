"""Where recordings live: codexdoctor's own state folder, never under ~/.codex, bounded in count and size.

`$XDG_STATE_HOME/codexdoctor/recordings` (default `~/.local/state/codexdoctor/recordings`), a folder only the user
reads (0700), one JSON Lines file per watched run (0600, written through common/safefile): a `start` line, one
`request` line per request, an `end` line. The oldest files go when there are more than MAX_RECORDINGS; a file stops
growing at MAX_BYTES (the lines it could not take are counted on its `end` line).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from codexdoctor.common import oserror, safefile
from codexdoctor.common import outside_json as outside
from codexdoctor.model import Msg
from codexdoctor.watch.record import Recorded

MAX_RECORDINGS = 30
MAX_BYTES = 8 << 20  # one recording, bodies included (--keep-bodies); without them a request line is ~1 KB
READ_MAX = MAX_BYTES + (1 << 20)


def recordings_dir(env: Mapping[str, str], home: Path) -> Path:
    """codexdoctor's recordings folder, by the XDG base directory rules (a relative XDG_STATE_HOME is ignored)."""
    state = env.get("XDG_STATE_HOME", "")
    root = Path(state) if state and os.path.isabs(state) else home / ".local" / "state"
    return root / "codexdoctor" / "recordings"


class Unusable(OSError):
    """The recordings folder cannot be used: the reason is a sentence (its English), `said` in both languages."""

    def __init__(self, said: Msg) -> None:
        super().__init__(said.text("en"))
        self.said = said


class Store:
    """One recording being written. Thread-safe: the recorder's request threads append to it."""

    def __init__(self, folder: Path, codex_home: Path | None = None) -> None:
        if codex_home is not None and _inside(folder, codex_home):
            raise Unusable(
                Msg(
                    "{folder} is inside Codex's home folder; recordings never go there",
                    "{folder} 位于 Codex 的主目录中；记录从不写到那里",
                    folder=str(folder),
                )
            )
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            if hasattr(os, "chmod"):
                os.chmod(folder, 0o700)
        except OSError as exc:
            why = Msg.pair(oserror.reason(exc), oserror.reason_zh(exc))
            raise Unusable(Msg("cannot create {f}: {why}", "无法创建 {f}：{why}", f=str(folder), why=why)) from None
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
        self.path = folder / f"watch-{stamp}Z-{os.getpid()}.jsonl"
        self.size = 0
        self.dropped = 0
        self._lock = threading.Lock()
        prune(folder, MAX_RECORDINGS - 1)

    def write(self, line: Mapping[str, Any]) -> bool:
        """Append one line; False when the file is full (the line is counted as dropped)."""
        text = json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n"
        with self._lock:
            size = len(text.encode("utf-8"))
            if self.size + size > MAX_BYTES and line.get("kind") != "end":
                self.dropped += 1
                return False
            safefile.write_output(self.path, text, append=self.size > 0)
            self.size += size
            return True

    def request(self, rec: Recorded) -> bool:
        return self.write({"kind": "request", **rec.to_json()})


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except (ValueError, OSError):
        return False


def prune(folder: Path, keep: int) -> None:
    """Delete all but the `keep` newest recordings (by name: the name starts with the UTC time)."""
    files = sorted(p for p in folder.glob("watch-*.jsonl") if p.is_file() and not p.is_symlink())
    for old in files[: max(0, len(files) - keep)]:
        try:
            old.unlink()
        except OSError:
            pass


@dataclass(frozen=True)
class Recording:
    """A recording read back: its start and end lines and its requests."""

    path: Path
    start: Mapping[str, Any]
    requests: tuple[Recorded, ...]
    end: Mapping[str, Any]


def read(path: Path) -> Recording:
    """A recording file, read through safefile (capped); lines that are not what we wrote are skipped."""
    raw = safefile.read_capped(path, READ_MAX).decode("utf-8", "replace")
    start: Mapping[str, Any] = {}
    end: Mapping[str, Any] = {}
    requests = []
    for line in raw.splitlines():
        value = outside.parse(line).value
        if not isinstance(value, dict):
            continue
        kind = value.pop("kind", None)
        if kind == "start":
            start = value
        elif kind == "end":
            end = value
        elif kind == "request":
            try:
                requests.append(Recorded.from_json(value))
            except TypeError:
                continue
    return Recording(path, start, tuple(requests), end)


def latest(folder: Path) -> Path | None:
    files = sorted(p for p in folder.glob("watch-*.jsonl") if p.is_file())
    return files[-1] if files else None
