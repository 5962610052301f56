"""Sizes measured from Codex itself that `sessions` and the rules need without building a request.

Kept apart from `request` (which builds Codex's first request and loads its template): importing that module
for one number cost `sessions` 5-6 ms of start-up."""

# Codex 0.171's first request before any AGENTS.md file, in o200k tokens (measured; docs/codex-behaviour.md):
# the fallback wherever the request is not built for the user (sessions, pasted errors, the probe's plan).
CODEX_FIRST_REQUEST_TOKENS = 8500

# Where Codex should compact, as a share of the window it is told: leaves room for the turn that triggers compaction
# (Codex's own default is 90% of its assumed window; a provider that fails at its window needs the earlier point).
COMPACT_SHARE_OF_REAL_WINDOW = 0.8

# What a window must hold besides Codex's first request and its first tool round: the model's answer and a few turns.
ANSWER_ROOM = 2000


def _floor(first_request: int | None) -> int:
    """Codex's first request rounded up to a hundred: this user's when it was counted, else the measured default."""
    return -(-int(first_request or CODEX_FIRST_REQUEST_TOKENS) // 100) * 100


def window_settings(window: int, first_request: int | None = None) -> tuple[int, int]:
    """The two lines of config.toml for a window, as every command prints them (check, probe, sessions, fix).

    The window is written as given: a published window is exact, and a measured one is already the largest request
    that worked. The compaction limit is 80% of it, rounded down to a hundred, so the same window always gives the
    same two numbers (issue 28: check said 32768 / 26214 and probe 32000 / 25600 for one provider)."""
    window = int(window)
    compact = int(window * COMPACT_SHARE_OF_REAL_WINDOW)
    compact = compact // 100 * 100 if compact >= 1000 else compact
    # Never below Codex's own first request (issue 40: 8300 advised beside a first request of 8,483): a limit under it
    # compacts before every turn. Where 80% is under it but the window holds it, compact just above it.
    floor = _floor(first_request)
    if compact < floor <= window:
        compact = floor
    return window, compact


def too_small_for_codex(window: int, first_request: int | None = None) -> bool:
    """A window that cannot hold Codex's first request and its answer: no setting makes Codex work with it. The
    first request is this user's when the run counted it (AGENTS.md files make it larger)."""
    return int(window) <= _floor(first_request)
