"""Live checks: the exact request Codex will send, with the real key, run concurrently under one deadline.

Three steps, one module each: `plan` (what to send, from the config alone), `gather` (sends it and returns one frozen
`Exchanges` record) and one module per result (`reach`, `catalog`, `canary`, `turn_two`, `variants`, `wire`,
`window`), each a pure function of (context, plan, exchanges). `registry` lists them in report order; `run` is
`check`'s live stage. Importing this package does not import the HTTP library: `gather` does, when a run starts.
"""

from __future__ import annotations

from codexdoctor.checks.live.plan import (
    CANARY_INSTRUCTIONS,
    CANARY_MAX_OUTPUT,
    CANARY_PROMPT,
    Plan,
    assumed_window,
    base_url_variants,
    canary_body,
    make_plan,
    variants_of,
    with_query,
)
from codexdoctor.checks.live.read import catalog_entries, match_model, rejected_field, window_field, window_from_entry
from codexdoctor.checks.live.registry import LIVE_CHECKS, LIVE_IDS, TITLES
from codexdoctor.checks.live.run import (
    STATIC_BLOCKERS,
    blocked_by_static,
    blocker_names,
    cannot_sign,
    published_window,
    run_live,
    with_nothing_sent,
)

__all__ = [
    "CANARY_INSTRUCTIONS",
    "CANARY_MAX_OUTPUT",
    "CANARY_PROMPT",
    "LIVE_CHECKS",
    "LIVE_IDS",
    "STATIC_BLOCKERS",
    "TITLES",
    "Plan",
    "assumed_window",
    "base_url_variants",
    "blocked_by_static",
    "blocker_names",
    "canary_body",
    "cannot_sign",
    "catalog_entries",
    "make_plan",
    "match_model",
    "published_window",
    "rejected_field",
    "run_live",
    "variants_of",
    "window_field",
    "window_from_entry",
    "with_nothing_sent",
    "with_query",
]
