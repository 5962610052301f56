"""One progress line on a terminal that each update rewrites in place (issue 40: "still waiting for … (N s of M s)..."
piled up a line every 2 s).

`show` puts a transient line (carriage return, clear to the end of the line, the text, no newline); `keep` prints a
line that stays (a transient one is cleared first); `clear` removes the transient line before the report or
"Interrupted." is written. Updates come from a worker thread while the main thread may be writing: one lock.
A terminal only: on a pipe the caller passes no progress at all (commands/check.py).
"""

from __future__ import annotations

import threading
from typing import TextIO

CLEAR = "\r\x1b[K"  # to the start of the line, and erase it: a shorter line leaves nothing of the longer one


class StatusLine:
    """The transient line on `stream` (a terminal's stderr)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = False
        self.lock = threading.Lock()

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away, or the stream is closed at shutdown
            pass

    def show(self, text: str) -> None:
        """`text` in place of the line shown before."""
        with self.lock:
            self._write(CLEAR + text)
            self.shown = True

    def keep(self, text: str) -> None:
        """`text` on a line of its own that stays; the transient line it replaces is gone."""
        with self.lock:
            self._write((CLEAR if self.shown else "") + text + "\n")
            self.shown = False

    def clear(self) -> None:
        """No transient line left: what comes next starts at the start of an empty line."""
        with self.lock:
            if self.shown:
                self._write(CLEAR)
                self.shown = False
