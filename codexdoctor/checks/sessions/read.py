"""Which rollouts to read and reading them: the newest few for `check`, the user's selection (--last, --since,
--session) for `sessions`, two processes for a large corpus, and codex-tui.log's error lines matched to the sessions
they belong to. Nothing here judges a session (classify.py does)."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from codexdoctor.codex.rollout_session import Session, parse_time
from codexdoctor.codex.rollouts import find_rollouts, iter_rollouts, read_session
from codexdoctor.codex.tui_log import read_tui_log
from codexdoctor.net.classify import summarize_text

RECENT_ROLLOUTS = 200  # `check` and `diagnose-error` read at most this many of the newest logs (a few tens of ms)


def recent_rollouts(roots: Iterable[Path], limit: int = RECENT_ROLLOUTS) -> list[Path]:
    """The newest `limit` rollouts below Codex's dated folders (sessions/YYYY/MM/DD), newest folders first, without
    listing the rest: `check` reads what just happened, in bounded time, whatever the size of ~/.codex. The same
    listing as `sessions` (`iter_rollouts`: the same file names, linked folders followed once)."""
    return list(itertools.islice(iter_rollouts(roots, [], newest_first=True), limit))


class AmbiguousSession(ValueError):
    """`--session PREFIX` matches more than one session: a usage error that lists them."""

    def __init__(self, prefix: str, matches: list[str]) -> None:
        super().__init__(
            f"--session {prefix} matches {len(matches)} sessions: "
            + ", ".join(matches[:10])
            + (" …" if len(matches) > 10 else "")
            + "; give more characters of the id"
        )
        self.matches = matches


@dataclass(frozen=True)
class Selection:
    """Which sessions the user asked about (--last, --since, --session) and whether contents may be shown."""

    last: int | None = None
    since: datetime | None = None
    session: str | None = None
    show_content: bool = False


PARALLEL_MIN_BYTES = 32 << 20


def read_all(files: list[Path], keep_content: bool, digest: Callable[[Session], Any] | None = None) -> list[Any]:
    """Sequentially for small corpora; for large ones the files are split in two halves of equal bytes, one read
    by a forked child (its sessions come back pickled through a pipe), the other by this process at the same time.

    One child, not a pool: a pool's per-task round trips cost more than they save on two cores (measured).
    Wherever fork is missing or the child fails, this process reads the child's half itself.
    With `digest`, each process also applies it to the sessions it read and returns (session, digest) pairs,
    so the classification is shared between the two processes as well. The session in a pair has no turns: the
    digest is all a caller needs of them, and thousands of Turn objects less cross the pipe and are unpickled."""

    def one(path: Path) -> Any:
        session = read_session(path, keep_content=keep_content)
        if digest is None:
            return session
        summary = digest(session)
        session.turns = []  # this process's own new object, read just now: emptied in place (`replace` costs 30 us)
        return session, summary

    sizes = []
    for f in files:
        try:
            sizes.append(f.stat().st_size)
        except OSError:
            sizes.append(0)
    if (os.cpu_count() or 1) < 2 or len(files) < 2 or sum(sizes) < PARALLEL_MIN_BYTES or not hasattr(os, "fork"):
        return [one(f) for f in files]
    half, acc, cut = sum(sizes) / 2, 0, len(files)
    for i, size in enumerate(sizes):
        if acc >= half:
            cut = i
            break
        acc += size
    cut = max(1, min(cut, len(files) - 1))
    theirs = _read_in_child(files[cut:], one)
    mine = [one(f) for f in files[:cut]]
    return mine + theirs.result()


CHILD_MIN_SECONDS = 60.0
CHILD_BYTES_PER_SECOND = 20e6  # a tenth of the slowest rate measured: past it, the child is stuck, not slow


class _Child:
    def __init__(self, files: list[Path], one: Callable[[Path], Any], pid: int | None, fd: int | None) -> None:
        self.files, self.one, self.pid, self.fd = files, one, pid, fd

    def _answer(self) -> bytes | None:
        """The child's pickled sessions, or None when it does not answer in time (then it is killed)."""
        if self.fd is None or self.pid is None:
            return None
        import select
        import signal
        import time

        size = 0
        for f in self.files:
            try:
                size += f.stat().st_size
            except OSError:
                pass
        deadline = time.monotonic() + max(CHILD_MIN_SECONDS, size / CHILD_BYTES_PER_SECOND)
        chunks: list[bytes] = []
        with os.fdopen(self.fd, "rb", buffering=0) as pipe:
            while True:
                left = deadline - time.monotonic()
                ready = select.select([pipe], [], [], max(0.0, left))[0] if left > 0 else []
                if not ready:
                    os.kill(self.pid, signal.SIGKILL)
                    return None
                chunk = pipe.read(1 << 20)
                if not chunk:
                    return b"".join(chunks)
                chunks.append(chunk)

    def result(self) -> list[Session]:
        data = self._answer() if self.fd is not None else None
        status = os.waitpid(self.pid, 0)[1] if self.pid else 1
        if status == 0 and data:
            try:
                import pickle

                # Bytes our own forked child wrote to a pipe only it and we hold: nothing outside ever reaches it.
                sessions = pickle.loads(data)  # noqa: S301
                if isinstance(sessions, list) and len(sessions) == len(self.files):
                    return sessions
            except Exception:  # noqa: S110 - a child that failed in any way: read the files here instead (below)
                pass
        return [self.one(f) for f in self.files]


def _read_in_child(files: list[Path], one: Callable[[Path], Any]) -> _Child:
    try:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
    except OSError:
        return _Child(files, one, None, None)
    if pid == 0:  # the child: read, answer, leave without running the parent's cleanup
        code = 1
        try:
            os.close(read_fd)
            import pickle

            data = pickle.dumps([one(f) for f in files], protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_fd, "wb") as pipe:
                pipe.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)
    return _Child(files, one, pid, read_fd)


def load(roots: Iterable[Path], selection: Selection, tui_log: Path | None) -> tuple[list[Session], list[str]]:
    problems: list[str] = []
    files = find_rollouts(roots, problems)
    sessions = read_all(files, selection.show_content)
    if selection.session:
        exact = [s for s in sessions if s.id == selection.session]
        sessions = exact or [s for s in sessions if s.id and s.id.startswith(selection.session)]
        if len(sessions) > 1:
            raise AmbiguousSession(selection.session, sorted(str(s.id) for s in sessions))
    if selection.since:
        sessions = [
            s
            for s in sessions
            if (parse_time(s.start) or datetime.min.replace(tzinfo=selection.since.tzinfo)) >= selection.since
        ]
    sessions.sort(key=lambda s: s.start or "")
    if selection.last:
        sessions = sessions[-selection.last :]
    if tui_log is not None and tui_log.is_file():
        attach_errors(sessions, read_tui_log(tui_log, problems))
    return sessions, problems


def attach_errors(sessions: list[Session], errors: list[tuple[Any, ...]]) -> None:
    """Match codex-tui.log error lines to sessions: by the `thread_id` Codex 0.171 writes on them, else by time
    (start .. last event + 2 minutes; concurrent sessions make time ambiguous, so a line with an id never goes by time)."""
    by_id = {s.id: s for s in sessions if s.id}
    spans = []
    for s in sessions:
        start, end = parse_time(s.start), parse_time(s.last_time)
        if start and end:
            spans.append((start, end + timedelta(minutes=2), s))
    for entry in errors:
        when, kind, line = entry[:3]
        thread = entry[3] if len(entry) > 3 else None
        if thread:
            if thread in by_id:
                by_id[thread].errors.append(summarize_text(line))
            continue
        for start, end, s in spans:
            if start <= when <= end:
                s.errors.append(summarize_text(line))
                break
