"""Ctrl-C at any moment: one line, "Interrupted." (已中断。), and exit 130 (issue 36).

`codexdoctor/entry.py` installs `exit_now` before anything heavy is imported. While a command runs, the error
boundary in `cli.main` installs `raise_once` instead: the first Ctrl-C is a KeyboardInterrupt, so the command's
cleanups run (fix's lock and temp files, the probe's partial result) and the boundary prints the line; a second
Ctrl-C, or one outside the boundary (start-up, shutdown), exits at once.

Every moment before the first handler is a moment in which a Ctrl-C is Python's traceback, so this module loads
nothing that is not loaded already when the interpreter starts: `os`, `sys` and `_signal` (the C module that
`signal` wraps; `signal` itself builds enums, 1-3 ms).
"""

from __future__ import annotations

import os
import sys

try:
    import _signal as _sig  # type: ignore[import-not-found]  # no stub; the C half of `signal`, loaded at start-up
except ImportError:  # pragma: no cover - an interpreter without it
    import signal as _sig

from codexdoctor.common.lang import argv_lang, detect_lang  # no imports of its own: nothing to import in a handler

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing would widen the window before the handler
if TYPE_CHECKING:
    from collections.abc import Callable
    from signal import _HANDLER  # typeshed's: a function, SIG_DFL, SIG_IGN or None
    from types import FrameType

EXIT_INTERRUPTED = 130
SIGINT: int = _sig.SIGINT
_state: dict[str, str | bool | None] = {"lang": None, "said": False, "caught": False}


def line(lang: str) -> str:
    return "已中断。" if lang == "zh" else "Interrupted."


def decide_lang(lang: str | None = None) -> None:
    """The line's language: `lang`, else `--lang` on the command line, else the locale (common/lang)."""
    _state["lang"] = lang or argv_lang(sys.argv[1:]) or detect_lang(os.environ)


def begin(lang: str) -> None:
    """A run starts (cli.main): its language, and nothing said or caught yet (a test process makes many runs)."""
    _state.update(lang=lang, said=False, caught=False)


def caught() -> bool:
    """Whether a Ctrl-C raised KeyboardInterrupt in this run. An error that follows it is its consequence: Python
    3.11 wraps an exception raised while a class is created (`__set_name__`) in a RuntimeError, and a module that a
    command imports late can be in the middle of that."""
    return bool(_state["caught"])


def say(lang: str | None = None, write: Callable[[str], None] | None = None) -> None:
    """The line, once per run. `write` is the boundary's click.echo; the signal handler writes to the descriptor,
    since the signal may have come in the middle of a write to sys.stderr."""
    if _state["said"]:
        return
    _state["said"] = True
    if lang is None and _state["lang"] is None:  # a Ctrl-C between the handler and the language (entry.py)
        decide_lang()
    text = line(str(lang or _state["lang"]))
    try:
        if os.isatty(2):  # after the terminal's own "^C" echo, on a line of its own
            text = "\n" + text
        if write is not None:
            write(text)
        else:
            os.write(2, (text + "\n").encode("utf-8"))
    except OSError:
        pass


def exit_now(signum: int, frame: FrameType | None) -> None:
    """The handler outside the boundary: the line (unless the boundary printed it), then exit 130 at once, since
    nothing is left to clean up."""
    say()
    os._exit(EXIT_INTERRUPTED)


def raise_once(signum: int, frame: FrameType | None) -> None:
    """The handler while a command runs: this Ctrl-C unwinds the command; the next one exits at once."""
    _sig.signal(SIGINT, exit_now)
    _state["caught"] = True
    raise KeyboardInterrupt


def redeliver(unraisable: sys.UnraisableHookArgs) -> None:
    """sys.unraisablehook while a command runs. A KeyboardInterrupt raised where it cannot propagate (the signal came
    inside a weakref callback, such as the import system's module-lock cleanup, or a __del__) is swallowed by Python
    with "Exception ignored in: …" on stderr, and the run went on as if no Ctrl-C had come: this Ctrl-C is
    delivered again, so it lands in the command's own code. It is raised from another thread, a moment later:
    raised here, the handler would run at once, inside this hook. Anything else goes to Python's own hook."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        import _thread

        _sig.signal(SIGINT, raise_once)
        _thread.start_new_thread(_raise_later, ())  # not threading.Thread: its start() waits, here, for the thread
        return
    sys.__unraisablehook__(unraisable)


def _raise_later() -> None:
    """The Ctrl-C again, from another thread, once the main thread has left the hook and the callback (50 ms: the
    main thread needs a few microseconds for that)."""
    import time

    time.sleep(0.05)
    _sig.raise_signal(SIGINT)


def finish(code: int) -> int:
    """The exit after a run: a run that a Ctrl-C unwound ends here, with the code it decided, its output flushed.

    Python's `-m` runner ends a process by SIGINT, whatever its exit code, when a KeyboardInterrupt was ever raised
    inside exec() (dataclasses build their methods with it), even one that was caught: `python -m codexdoctor`
    interrupted at such a moment printed "Interrupted." and then died by the signal instead of exiting 130."""
    if not _state["caught"]:
        return code
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def install(handler: _HANDLER) -> _HANDLER:
    """Put `handler` on SIGINT and return the one it replaces (None when none was replaced). A SIGINT that is
    ignored (a job started in the background by a script) stays ignored; a thread other than the main one cannot
    set handlers (codexdoctor embedded in another program) and leaves Ctrl-C to that program."""
    try:
        if _sig.getsignal(SIGINT) == _sig.SIG_IGN:
            return None
        previous: _HANDLER = _sig.signal(SIGINT, handler)
        return previous
    except ValueError:
        return None
