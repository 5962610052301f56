"""Open the user's files without letting one hang or flood codexdoctor, and write outputs that only the user reads.

A config, auth.json, rollout or log path can be a FIFO (a read blocks forever), a socket, a device such as
/dev/zero (a read never ends), a symlink loop, or simply huge. Every file codexdoctor reads goes through here:
regular files only, opened non-blocking, read up to a cap.

Every file codexdoctor writes (`-o`, the ticket and its request file, the GitHub step summary) goes through
`open_output` (issue 36): a regular file only, a symlink at the name never followed, created 0600.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from codexdoctor.common import oserror

CONFIG_MAX = 1 << 20  # config.toml, auth.json, .env, AGENTS.md: far beyond any real one
LOG_MAX = 512 << 20  # a codex-tui.log is read line by line up to this


class Reason(str):
    """Why a file was refused: the English sentence (the string itself, as facts and evidence carry it) with its
    Chinese beside it, written together (common/ sits below model.Msg; a Msg is made of the pair where it is shown)."""

    zh: str

    def __new__(cls, en: str, zh: str | None = None) -> Reason:
        made = super().__new__(cls, en)
        made.zh = en if zh is None else zh
        return made


# The operating system's own words (strerror) for a file it would not let codexdoctor read, in Chinese.
OS_WORDS_ZH = {"Permission denied": "没有读取权限（EACCES）"}  # the rest: common/oserror.py


def reason_zh(reason: str) -> str:
    """A reason's Chinese: its own where it carries one, the OS's words from the table, else the text as it is."""
    if isinstance(reason, Reason):
        return reason.zh
    return OS_WORDS_ZH.get(reason) or oserror.words_zh(reason)


class Unreadable(OSError):
    """Why a path was skipped: `reason` is a sentence the report can show (a Reason, or the OS's words)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


NOT_REGULAR = Reason("not a regular file", "不是普通文件")


def kind_of(mode: int) -> Reason | None:
    """None for a regular file, else what it is instead."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return Reason("is a directory, not a file", "是目录，不是文件")
    if stat.S_ISFIFO(mode):
        return Reason("a named pipe (FIFO), not a file", "是命名管道（FIFO），不是文件")
    if stat.S_ISSOCK(mode):
        return Reason("a socket, not a file", "是套接字，不是文件")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return Reason("a device, not a file", "是设备，不是文件")
    return NOT_REGULAR


def open_regular(path: Path | str) -> BinaryIO:
    """Open for reading only if it is a regular file; raises FileNotFoundError or Unreadable otherwise.

    O_NONBLOCK keeps the open itself from blocking on a FIFO that appears between the check and the open."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == 40:  # ELOOP
            raise Unreadable(Reason("a symlink loop", "符号链接形成了循环")) from None
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
        raise Unreadable(NOT_REGULAR)
    return os.fdopen(fd, "rb")


def read_capped(path: Path | str, limit: int = CONFIG_MAX) -> bytes:
    """The whole file, or Unreadable when it is larger than `limit` (a config that size is not a config)."""
    with open_regular(path) as handle:
        raw = handle.read(limit + 1)
    if len(raw) > limit:
        raise Unreadable(Reason(f"larger than {limit:,} bytes", f"超过 {limit:,} 字节"))
    return raw


# ---- writing: -o outputs, the ticket and its side files ------------------------------------------------------------

PRIVATE_MODE = 0o600  # a report can hold the user's config, paths and session excerpts: for the user alone
SYMLINK = Reason(
    "a symbolic link: not followed (remove it, or write to another name)",
    "是符号链接：不会跟随它写入（请删除它，或换一个文件名）",
)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class Unwritable(OSError):
    """Why an output path was refused: `reason` is a sentence the usage error shows."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason)
        self.reason = reason


def output_problem(path: Path | str) -> Reason | None:
    """Why `path` would be refused as an output (None: nothing there yet, or a regular file), looked up without
    opening it, so the command line can say so before a check runs or a probe spends tokens. Advisory only:
    open_output decides again on what it opened."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if stat.S_ISLNK(info.st_mode):
        return SYMLINK
    if stat.S_ISREG(info.st_mode) and not os.access(path, os.W_OK):
        return Reason("Permission denied", "没有权限")  # the OS's own words, as the open would say them
    return kind_of(info.st_mode)


def open_output(path: Path | str, append: bool = False) -> BinaryIO:
    """Open an output for writing, or raise Unwritable (or the OS's own OSError: a missing folder, no permission).

    One open, then checks on what was opened (fstat), so nothing can be swapped in between: O_NOFOLLOW refuses a
    symlink at the name (a refusal rather than a replacement: the link may be the user's own, and replacing it would
    change what another path shows); O_NONBLOCK makes a FIFO fail at once (ENXIO with no reader) instead of waiting
    for one; a FIFO with a reader, a device or a folder is refused on its fstat. A new file is created 0600. An
    existing one must be the user's own regular file with no other hard link; it loses its group and other
    permissions and is emptied only after those checks. `append` (the GitHub step summary, a file the CI made)
    keeps the file's content, owner and mode."""
    flags = os.O_WRONLY | os.O_CREAT | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | (os.O_APPEND if append else 0)
    if not _NOFOLLOW and os.path.islink(path):  # Windows has no O_NOFOLLOW: the best it can do is look first
        raise Unwritable(SYMLINK)
    try:
        fd = os.open(path, flags, PRIVATE_MODE)
    except OSError:
        problem = output_problem(path)  # ELOOP (a symlink), ENXIO (a FIFO nobody reads), EISDIR: say what is there
        if problem:
            raise Unwritable(problem) from None
        raise
    try:
        info = os.fstat(fd)
        problem = kind_of(info.st_mode)
        if problem:
            raise Unwritable(problem)
        if not append:
            _must_be_own(info)
            if info.st_mode & 0o077 and hasattr(os, "fchmod"):
                os.fchmod(fd, stat.S_IMODE(info.st_mode) & 0o700)
            os.ftruncate(fd, 0)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "ab" if append else "wb")
    except BaseException:
        os.close(fd)
        raise


def _must_be_own(info: os.stat_result) -> None:
    """An existing file another user owns stays readable by them (they set its mode); one with another hard link
    would change that other name's content too: both are refused."""
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    if uid is not None and info.st_uid != uid:
        raise Unwritable(
            Reason(
                "a file that belongs to another user (remove it, or write to another name)",
                "是属于另一个用户的文件（请删除它，或换一个文件名）",
            )
        )
    if info.st_nlink > 1:
        raise Unwritable(
            Reason(
                "a file with other hard links (remove it, or write to another name)",
                "是还有其他硬链接的文件（请删除它，或换一个文件名）",
            )
        )


def write_output(path: Path | str, text: str, append: bool = False) -> None:
    """`text` as UTF-8 into an output opened by open_output."""
    with open_output(path, append) as handle:
        handle.write(text.encode("utf-8"))
