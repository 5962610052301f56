"""`codexdoctor sessions`: a post-mortem of Codex's own session logs, offline and free.

Per session: context per turn against the window, how it grew, compactions,
how it ended and why (context / channel / unknown); across sessions: whether
failures cluster at one size (context) or scatter at low usage (channel).

One job a module: `read` (which rollouts, read in one or two processes), `messages` (what a last message says),
`classify` (one session on its own), `summary` (any number of them in bounded lists), `across` (the pattern between
them), `result` (the check result), `tables` (the report's sections). The names below are the package's surface.
"""

from __future__ import annotations

from codexdoctor.checks.sessions.across import across, decide, group_key, settle_unclear
from codexdoctor.checks.sessions.classify import cache_profile, classify_session, silent_truncation
from codexdoctor.checks.sessions.messages import PASTE_FAMILIES, message_family
from codexdoctor.checks.sessions.read import (
    RECENT_ROLLOUTS,
    AmbiguousSession,
    Selection,
    attach_errors,
    load,
    read_all,
    recent_rollouts,
)
from codexdoctor.checks.sessions.result import Kept, build_check, counted, unique_ids
from codexdoctor.checks.sessions.stats import _fmean, _median
from codexdoctor.checks.sessions.summary import Summaries, keep_only, summarize

__all__ = [
    "PASTE_FAMILIES",
    "RECENT_ROLLOUTS",
    "AmbiguousSession",
    "Kept",
    "Selection",
    "Summaries",
    "_fmean",
    "_median",
    "across",
    "attach_errors",
    "build_check",
    "cache_profile",
    "classify_session",
    "counted",
    "decide",
    "group_key",
    "keep_only",
    "load",
    "message_family",
    "read_all",
    "recent_rollouts",
    "settle_unclear",
    "silent_truncation",
    "summarize",
    "unique_ids",
]
