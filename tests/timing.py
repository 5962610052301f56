"""Time in tests: bounds against the deadline under test, never a speed (speed is measured in bench/, not asserted).

A command promises to end within PROMISE of its deadline (docs/security.md). The suite runs on a shared 2-core
machine, in parallel (pytest-xdist): threads are scheduled late and a report renders slowly, so a test allows SLACK
on top, and more for a longer deadline. Generous on purpose: a broken bound is still far past it (a provider that
never answers keeps a connection for 30 s or more; a stream that never ends, forever).
"""

from __future__ import annotations

import time
from collections.abc import Callable

PROMISE = 0.5  # what the commands keep to past their deadline (docs/security.md)
# Work whose failure is to never end (a FIFO nobody writes, /dev/zero, an expansion that doubles sixty times, a child
# that sleeps for a minute): a bound that no working run comes near on any machine, and a hang is far past.
HANG_S = 30.0
SLACK = 5.0  # a 2-core machine shared by other jobs (at load 15, a 1 s check against an endless stream took 4.4 s)


def bound(deadline: float, promise: float = PROMISE) -> float:
    """The latest a run with this deadline may end here: the deadline, its promise, and slack that grows with it."""
    return deadline + promise + SLACK + 0.5 * deadline


def assert_within(elapsed: float, deadline: float, what: str = "the run", promise: float = PROMISE) -> None:
    assert elapsed < bound(deadline, promise), f"{what} took {elapsed:.2f} s for a deadline of {deadline:g} s"


def grows_linearly(run: Callable[[int], object], n: int, factor: int = 16, tolerance: float = 4.0) -> None:
    """`run(n * factor)` costs at most `tolerance` times `factor` what `run(n)` costs, on this machine, now.

    A guard against a quadratic (or worse) regression that asserts no speed: both sizes are timed here, one after
    the other, so a slow or loaded machine slows both (the small one is the best of three: it is the one noise moves
    most). Linear work grows by `factor`, quadratic by its square (16 -> 256, against a bound of 64). The large one
    is timed again, up to three times, when it is past the bound: at load 12 one large run was descheduled to 84
    times the small one (issue 37); a quadratic one is past it every time."""

    def timed(size: int) -> float:
        started = time.perf_counter()
        run(size)
        return time.perf_counter() - started

    small = min(timed(n) for _ in range(3))
    floor = 0.002  # below this the small run is timer noise; a quadratic large run is still far past the bound
    limit = tolerance * factor * max(small, floor)
    large = timed(n * factor)
    for _ in range(2):
        if large <= limit:
            break
        large = min(large, timed(n * factor))
    assert large <= limit, f"{n * factor} took {large:.3f} s, {n} took {small:.3f} s: grows faster than linearly"
