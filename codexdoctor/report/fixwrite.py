"""Writing an edited config: a backup with the original's mode, a temp file in the same folder, fsync, an atomic
rename over the original, under a lock so two `fix` runs never race; refused if the file changed since it was read
or the new text would carry a secret the old one did not."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NoReturn

from codexdoctor.report.fixes import FixError


def backup_path(path: Path, clock: Callable[[], time.struct_time] = time.localtime) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S", clock())
    candidate = path.with_name(f"{path.name}.bak-{stamp}")
    n = 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.name}.bak-{stamp}-{n}")
    return candidate


def write_target(path: Path) -> Path:
    """The file to write: a config.toml that is a symlink (a dotfile manager's) is edited where it points."""
    return Path(os.path.realpath(path))


LOCK_WAIT_S = 10.0


@contextlib.contextmanager
def locked(path: Path, wait_s: float | None = None) -> Iterator[None]:
    """An exclusive lock on `.<name>.fix-lock` beside the config, held while one run writes it, and removed after.

    Two `fix --yes` at once otherwise race: each one's start-up cleanup of stale temp files could delete the
    other's temp file in flight. The second run waits up to LOCK_WAIT_S, then says another fix is running. POSIX
    has flock; Windows has msvcrt.locking; a platform with neither refuses to write rather than race. The file is
    removed while still locked (issue 40: an empty lock file was left beside every config), so a run that opened
    it before the removal finds, once it holds its lock, that the name is gone or is another file, and opens again."""
    deadline = time.monotonic() + (LOCK_WAIT_S if wait_s is None else wait_s)
    lock_path = path.with_name(f".{path.name}.fix-lock")
    while True:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o600)
        try:
            _wait_for_lock(fd, deadline, path.name, lock_path.name)
            if _same_file(fd, lock_path):
                break
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # removed by the run before us: lock the one that is there now
    try:
        yield
    finally:
        with contextlib.suppress(OSError):  # Windows cannot remove an open file: it stays, empty, as before
            os.unlink(lock_path)
        os.close(fd)  # closing the descriptor releases the lock


def _same_file(fd: int, lock_path: Path) -> bool:
    try:
        named = os.stat(lock_path)
    except OSError:
        return False
    held = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


def _wait_for_lock(fd: int, deadline: float, name: str, lock_name: str) -> None:
    """Take the lock on `fd`, polling until `deadline`; a FixError past it."""
    try:
        import fcntl

        def try_lock() -> bool:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                return False
    except ImportError:
        try:
            import msvcrt
        except ImportError:
            raise FixError(
                "this platform has no file locks, so codexdoctor cannot make sure no other fix is "
                "writing the config at the same time; nothing was written"
            ) from None

        def try_lock() -> bool:
            try:
                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]  # Windows only
                return True
            except OSError:
                return False

    while not try_lock():
        if time.monotonic() >= deadline:
            raise FixError(
                f"another `codexdoctor fix` is writing {name} (it holds {lock_name}); "
                "nothing was written: run fix again when it has finished"
            )
        time.sleep(0.05)


def _stale_temps(folder: Path, name: str) -> None:
    """Temp files a killed earlier run left (kill -9 cannot be caught); they are ours by name. Called with the
    lock held: no live run has a temp file then."""
    for leftover in folder.glob(f".{name}.*.tmp"):
        try:
            leftover.unlink()
        except OSError:
            pass


def write_atomic(path: Path, original: bytes, new_text: str, secrets: Iterable[str]) -> Path:
    """Backup, then temp file in the same folder, fsync, rename over; refuse if the file changed meanwhile.

    The backup is created with the original's mode (never world-readable for an instant); a symlinked config is
    written at its target so the link survives; SIGTERM during the write still removes the temp file."""
    data = new_text.encode("utf-8")
    for secret in secrets:
        if secret and secret.encode() in data and secret.encode() not in original:
            raise FixError("the edit would write a secret into the config file; nothing was written")
    path = write_target(path)
    with locked(path):
        return _write_locked(path, original, data)


def _write_locked(path: Path, original: bytes, data: bytes) -> Path:
    if path.read_bytes() != original:
        raise FixError(f"{path.name} changed since codexdoctor read it; run fix again")
    mode = path.stat().st_mode & 0o7777
    _stale_temps(path.parent, path.name)
    backup = backup_path(path)
    fd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), mode & 0o777)
    with os.fdopen(fd, "wb") as fh:
        if hasattr(os, "fchmod"):
            os.fchmod(fh.fileno(), mode)  # exactly the original's (the umask may have taken bits away)
        fh.write(original)
        fh.flush()
        os.fsync(fh.fileno())
    previous = _terminate_as_exit()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        if path.read_bytes() != original:  # last look before the rename
            raise FixError(f"{path.name} changed since codexdoctor read it; run fix again")
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    finally:
        _restore(previous)
    if sys.platform != "win32":
        try:
            dir_fd = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
        except OSError:
            pass
    return backup


def _terminate_as_exit() -> Any:
    """Turn SIGTERM into SystemExit while the temp file exists, so the cleanup above runs."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM"):
        return None

    def stop(signum: int, frame: Any) -> NoReturn:
        raise SystemExit(128 + signum)

    return signal.signal(signal.SIGTERM, stop)


def _restore(previous: Any) -> None:
    import signal

    if previous is not None:
        signal.signal(signal.SIGTERM, previous)
