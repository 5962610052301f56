"""Open the user's files without letting one hang or flood codexdoctor.

A config, auth.json, rollout or log path can be a FIFO (a read blocks forever), a socket, a device such as
/dev/zero (a read never ends), a symlink loop, or simply huge. Every file codexdoctor reads goes through here:
regular files only, opened non-blocking, read up to a cap.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

CONFIG_MAX = 1 << 20  # config.toml, auth.json, .env, AGENTS.md: far beyond any real one
LOG_MAX = 512 << 20  # a codex-tui.log is read line by line up to this


class Unreadable(OSError):
    """Why a path was skipped: the reason is a sentence the report can show."""


def kind_of(mode: int) -> str | None:
    """None for a regular file, else what it is instead."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO), not a file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a file"
    return "not a regular file"


def open_regular(path: Path | str) -> BinaryIO:
    """Open for reading only if it is a regular file; raises FileNotFoundError or Unreadable otherwise.

    O_NONBLOCK keeps the open itself from blocking on a FIFO that appears between the check and the open."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == 40:  # ELOOP
            raise Unreadable("a symlink loop") from None
        raise Unreadable(exc.strerror or type(exc).__name__) from None
    problem = kind_of(info.st_mode)
    if problem:
        raise Unreadable(problem)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise Unreadable(exc.strerror or type(exc).__name__) from None
    if kind_of(os.fstat(fd).st_mode):  # swapped after the stat
        os.close(fd)
        raise Unreadable("not a regular file")
    return os.fdopen(fd, "rb")


def read_capped(path: Path | str, limit: int = CONFIG_MAX) -> bytes:
    """The whole file, or Unreadable when it is larger than `limit` (a config that size is not a config)."""
    with open_regular(path) as handle:
        raw = handle.read(limit + 1)
    if len(raw) > limit:
        raise Unreadable(f"larger than {limit:,} bytes")
    return raw
