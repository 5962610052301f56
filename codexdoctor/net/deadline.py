"""One clock for a whole run: every request gets what is left of it, and no wait outlives it."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

CONNECT_CAP_S = 5.0  # connecting never waits longer than this, whatever is left


class Timeouts(NamedTuple):
    """The waits one request may spend, in seconds (net.send turns them into the HTTP library's own)."""

    total: float
    connect: float
    read: float


class Deadline:
    """The whole `check` shares one clock; every request gets what is left of it."""

    def __init__(
        self, seconds: float, clock: Callable[[], float] = time.monotonic, started: float | None = None
    ) -> None:
        """`started`: the clock's reading the deadline counts from (a command's launch, issue 36), default now."""
        self._clock = clock
        self.total = seconds
        self.started = clock() if started is None else started
        self.end = self.started + seconds

    def elapsed(self) -> float:
        """Seconds since the deadline started counting (for a command's, since its launch)."""
        return self._clock() - self.started

    def remaining(self) -> float:
        return max(0.0, self.end - self._clock())

    def past_end(self, grace: float) -> float:
        """Seconds until `grace` after the deadline's end: a wait that ends at the same moment however late it begins
        (`remaining() + grace` waited the whole grace again after anything that itself ran into the deadline)."""
        return max(0.0, self.end + grace - self._clock())

    @property
    def expired(self) -> bool:
        return self.remaining() <= 0.0

    def timeout(self, cap: float | None = None, read_cap: float | None = None) -> Timeouts:
        """Connect within 5 s; each read waits at most `read_cap` (the stream idle limit)."""
        left = max(0.05, self.remaining())
        if cap is not None:
            left = min(left, cap)
        read = min(left, read_cap) if read_cap else left
        return Timeouts(left, min(left, CONNECT_CAP_S), read)
