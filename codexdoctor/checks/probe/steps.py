"""The probe's settings, the steps it takes and what it learned, and its schedule: data and arithmetic, no request."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from codexdoctor.model import Msg

if TYPE_CHECKING:
    from codexdoctor.net.exchange import Exchange

# An answer ended incomplete (a content filter, a gateway's output cap) is no sign of the window: Codex fails it the
# same at any size (issue 38), so the probe reports it as a channel failure.
CONTEXT_KINDS = ("context_exceeded", "truncated")
# A step Ctrl-C cut short: sent and paid for, answered by nothing; listed, never read as an answer or a failure.
INTERRUPTED = "interrupted"


@dataclass(frozen=True)
class ProbeSettings:
    """How far and how carefully the probe may search: the ceiling, the repeats and the token budget it announces."""

    max_context: int | None = None  # None: the window Codex assumes x 1.1
    repeat: int = 3
    budget: int = 300_000  # input tokens, all requests together
    singles: int = 3
    start: int = 1024
    precision: float = 0.02
    min_precision_tokens: int = 256
    stall_threshold_s: float = 2.0
    request_timeout_s: float = 120.0
    total_timeout_s: float = 1800.0
    turn_tokens: int = 2000  # a typical Codex turn (prompt, tool output, answer), for "new session every K turns"
    max_output_tokens: int = 16
    truncation_share: float = 0.9  # reported input below this share of what was sent = silent truncation
    cache_step: bool = True
    cache_prefix_tokens: int = 4096


@dataclass(frozen=True)
class Step:
    """One request of the probe and what came back."""

    phase: str  # single | cache | grow | bisect | below | above
    target: int
    sent: int
    ok: bool
    kind: str
    detail: str
    status: int | None
    ttft_ms: float | None
    total_ms: float
    max_gap_ms: float | None  # longest silence after the first token (stage 2)
    reported_input: int | None
    line: str
    said: Msg | None = field(default=None, compare=False)  # `detail` in both languages

    def detail_in(self, lang: str) -> str:
        """The detail in `lang`: its words where net/ wrote them, else as it came (the provider's own message)."""
        return self.said.text(lang) if self.said is not None else self.detail


@dataclass(frozen=True)
class ProbeOutcome:
    """What the probe learned: every step it took and the bracket the window lies in."""

    steps: tuple[Step, ...]
    single_exchange: Exchange | None
    last_ok: int | None  # largest context that worked (tokens sent)
    first_fail: int | None  # smallest context that failed
    stable: bool | None  # None when no boundary was found
    stopped: str | None  # "budget" | "deadline" | None
    spent: int
    estimate_tokens: int
    estimate_requests: int
    max_context: int
    tokenizer: str
    exact_tokens: bool
    cache: dict[str, Any] | None = None
    published: int | None = None  # the window the provider publishes, when the plan was built on it
    resent: int = 0  # single questions re-sent after a rate limit (counted in `spent`), as Codex re-sends


def tolerance(settings: ProbeSettings, max_context: int) -> float:
    """How close the break is located: the bisection stops when low and high are this near."""
    return max(settings.min_precision_tokens, settings.precision * max_context / 2)


def published_schedule(settings: ProbeSettings, window: int) -> list[int]:
    """The provider says how large its window is: check half of it, then just below and just above it.

    The two edges are one tolerance apart, so a break where the provider says needs no bisection, and the
    plan of a 32K window fits the default budget (a doubling search from 1K would not)."""
    edge = max(1, int(tolerance(settings, window) / 2))
    return [window // 2, window - edge, window + edge]


def schedule(start: int, max_context: int) -> list[int]:
    sizes, n = [], start
    while n < max_context:
        sizes.append(n)
        n *= 2
    sizes.append(max_context)
    return sizes


def estimate(
    settings: ProbeSettings,
    max_context: int,
    single_tokens: int,
    sizes: list[int] | None = None,
    cache_tokens: int | None = None,
    published: int | None = None,
) -> tuple[int, int]:
    """Before anything is sent: the most requests the search can take, wherever the break lies (the number the plan
    calls "at most", and the probe never passes), and the input tokens when the break lies just below the largest
    size (the plan's "about", fitted to --budget; the budget itself is checked before every request).

    Review 1, point 12: the count assumed the break in the last gap of the schedule, but a break in a wider gap
    before it (8,192-16,384 under --max-context 20000) takes more narrowing steps: 23 requests against "at most 22".
    `published`: the window the sizes were planned from; when even half of it fails, the search grows again below
    it (search.Probe._grow), and that is counted too."""
    sizes = sizes or schedule(settings.start, max_context)
    max_context = sizes[-1]
    requests = settings.singles + most_requests(settings, sizes)
    if published:
        below = schedule(settings.start, sizes[0])
        requests = max(requests, settings.singles + 1 + most_requests(settings, below))
    low = sizes[-2] if len(sizes) > 1 else None
    bisections = narrowing_steps(settings, low, max_context) if low else 0
    tokens = settings.singles * single_tokens + sum(sizes) + (bisections + 2 * settings.repeat) * max_context
    cache_tokens = settings.cache_prefix_tokens if cache_tokens is None else cache_tokens
    if settings.cache_step and cache_tokens:
        requests += 3
        tokens += 3 * (cache_tokens + 64)
    return requests, tokens


def narrowing_steps(settings: ProbeSettings, low: int, high: int) -> int:
    """The bisection's steps between a size that worked and one that failed, halving down to the precision the search
    stops at from `low` (search.Probe._bisect allows no more)."""
    precision = max(settings.min_precision_tokens, settings.precision * low)
    return max(0, math.ceil(math.log2(max(1.0, (high - low) / precision))))


def most_requests(settings: ProbeSettings, sizes: list[int]) -> int:
    """The session's requests (growing, narrowing, the repeats) in the worst place the break can lie in `sizes`: the
    first size (the repeats above it only), between two of them, or nowhere (every size sent)."""
    most = len(sizes)
    for i, size in enumerate(sizes):
        if i == 0:
            most = max(most, 1 + settings.repeat)
        else:
            steps = narrowing_steps(settings, sizes[i - 1], size)
            # The filler sends whole turns, up to one below each midpoint: one more step than halving may take.
            most = max(most, i + 1 + steps + (1 if steps else 0) + 2 * settings.repeat)
    return most
