"""When this run started: every command's deadline counts from it, so start-up is inside `--timeout` (issue 36).

entry.py marks the moment the process reached codexdoctor's first line; `cli.main` turns it into the run's start
(or, called in-process without the entry point, the moment it was called), and the commands' clocks read it through
CheckOptions.started. Kept to `time`: it loads before click does.
"""

from __future__ import annotations

import time

_state: dict[str, float | None] = {"launched": None, "run": None}


def mark() -> None:
    """The entry point's first moment."""
    _state["launched"] = time.monotonic()


def begin_run() -> float:
    """The start of the run `cli.main` is about to make: the launch, for the process's first run, else now."""
    launched = _state["launched"]
    _state["launched"] = None
    started = launched if launched is not None else time.monotonic()
    _state["run"] = started
    return started


def run_started() -> float | None:
    """The running command's start (time.monotonic()), or None outside `cli.main` (tests that build options)."""
    return _state["run"]
