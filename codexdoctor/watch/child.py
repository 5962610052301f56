"""Running Codex under the recorder: its arguments with the one `-c` added, its exit code passed through, and
Ctrl-C reaching it once.

A Ctrl-C at the terminal reaches every process of the foreground group, Codex included: codexdoctor then only waits
for Codex to end as it chooses (the TUI's first Ctrl-C does not quit; a second signal from us would). A SIGINT sent to
codexdoctor alone (it is not in the terminal's foreground group, or has no terminal), and SIGTERM and SIGHUP, are
passed on to Codex.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import FrameType

from codexdoctor.common import oserror

# The options of `codex` and `codex exec` that choose the config, as codex parses them (clap: `-c v`, `-cv`,
# `--config v`, `--config=v`).
VALUE_OPTIONS = {"-c": "config", "--config": "config", "-p": "profile", "--profile": "profile", "-m": "model"}
VALUE_OPTIONS |= {"--model": "model"}


@dataclass(frozen=True)
class CodexArgs:
    """What the user's Codex command line says about the config: its -c overrides, profile and model."""

    overrides: tuple[str, ...] = ()
    profile: str | None = None
    model: str | None = None
    subcommand: str | None = None  # exec, resume, … (None: the interactive TUI)


def program_index(argv: Sequence[str]) -> int:
    """Where Codex itself is in the command line: the first word whose file name has `codex` in it (`codex`,
    `codex.exe`, `npx @openai/codex`, a wrapper script), else the first word."""
    for i, word in enumerate(argv):
        if "codex" in os.path.basename(word).lower():
            return i
    return 0


def read_args(argv: Sequence[str]) -> CodexArgs:
    overrides: list[str] = []
    found: dict[str, str] = {}
    subcommand = None
    args = list(argv[program_index(argv) + 1 :])
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            break
        name, value = arg, None
        if arg.startswith("--") and "=" in arg:
            name, value = arg.split("=", 1)
        elif len(arg) > 2 and arg[:2] in ("-c", "-p", "-m") and not arg.startswith("--"):
            name, value = arg[:2], arg[2:]
        if name in VALUE_OPTIONS:
            if value is None:
                i += 1
                value = args[i] if i < len(args) else ""
            if VALUE_OPTIONS[name] == "config":
                overrides.append(value)
            else:
                found[VALUE_OPTIONS[name]] = value
        elif not arg.startswith("-") and subcommand is None:
            subcommand = arg
        i += 1
    return CodexArgs(tuple(overrides), found.get("profile"), found.get("model"), subcommand)


def with_override(argv: Sequence[str], override: str | None) -> list[str]:
    """`codex -c <override> …`: a root-level `-c` applies to every subcommand (exec, resume, the TUI)."""
    if not override:
        return list(argv)
    at = program_index(argv) + 1
    return [*argv[:at], "-c", override, *argv[at:]]


def run(argv: Sequence[str], env: Mapping[str, str], lang: str = "en") -> int:
    """Run Codex in the foreground; its exit code (128+N for a signal, as a shell reports it)."""
    try:
        proc = subprocess.Popen(list(argv), env=dict(env))  # noqa: S603 - the user's own command, not a shell
    except OSError as exc:
        sys.stderr.write(
            f"codexdoctor watch：无法运行 {argv[0]}：{oserror.reason_zh(exc)}\n"
            if lang == "zh"
            else f"codexdoctor watch: cannot run {argv[0]}: {oserror.reason(exc)}\n"
        )
        return 127 if isinstance(exc, FileNotFoundError) else 126

    def pass_on(signum: int, frame: FrameType | None) -> None:
        if signum == signal.SIGINT and _terminal_sent_it():
            return
        try:
            proc.send_signal(signum)
        except OSError:
            pass

    wanted = [signal.SIGINT, signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    previous = {s: signal.signal(s, pass_on) for s in wanted}
    try:
        while True:
            try:
                code = proc.wait()
                break
            except KeyboardInterrupt:  # a handler installed before ours raised: keep waiting for Codex
                continue
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    return 128 - code if code < 0 else code


def _terminal_sent_it() -> bool:
    """Whether we are in the terminal's foreground process group (then Codex got the Ctrl-C too)."""
    try:
        fd = os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY)
    except OSError:
        return False
    try:
        return os.tcgetpgrp(fd) == os.getpgrp()
    except OSError:
        return False
    finally:
        os.close(fd)
