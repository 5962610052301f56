"""One session judged on its own: how it ended and why (context, channel, or a message that cannot tell), how its
context grew, where Codex would have compacted, and its prefix cache. The other sessions of its provider may still
settle an unclear one (across.py)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise
from pathlib import Path
from typing import Any

from codexdoctor.checks.sessions.messages import (
    CHANNEL_INFO,
    CHANNEL_TEXT,
    CODEX_CONTEXT_TEXT,
    CONTEXT_TEXT,
    ENDING_EVIDENCE,
    UNCLEAR_INFO,
    message_family,
)
from codexdoctor.checks.sessions.stats import _fmean, _median
from codexdoctor.codex.models import compaction_for_logged_window
from codexdoctor.codex.rollout_session import Session, Turn
from codexdoctor.codex.sizes import CODEX_FIRST_REQUEST_TOKENS
from codexdoctor.model import Msg
from codexdoctor.net.classify import HIGH_DEMAND, context_numbers, summarize_text, turn_two_item
from codexdoctor.net.codex_words import codex_ending


def classify_session(s: Session, compact_limit: int | None = None) -> dict[str, Any]:
    """How the session ended, and whether that was the context or the channel."""
    window = s.window
    contexts = s.contexts
    failed = next((t for t in s.turns if t.error or t.overflow_signature), None)
    ok_before = [
        t.context
        for t in s.turns
        if t.context is not None
        and not t.error
        and not t.overflow_signature
        and (failed is None or t.index < failed.index)
    ]
    last_ok = ok_before[-1] if ok_before else None
    peak = max(ok_before, default=None) if failed else s.peak
    share = (peak / window) if peak and window else None
    text = " ".join(filter(None, [failed.error if failed else None, *s.errors])).lower() if (failed or s.errors) else ""
    kind, evidence, unclear = ending(s, failed, bool(ok_before), share, text)
    growth = [b - a for a, b in pairwise(contexts) if b > a]
    median_growth = _median(growth) if growth else None
    truncated_at, truncated_turns = (None, []) if kind != "none" else silent_truncation(s)
    if truncated_at:
        kind, evidence = "context", "silent truncation"
    server_window, server_request = context_numbers(text) if kind == "context" and text else (None, None)
    real_window = (
        truncated_at or server_window or (last_ok if kind == "context" and share is not None and share < 0.5 else None)
    )
    return {
        **_identity(s),
        "kind": kind,
        "evidence": evidence,
        # The message alone cannot tell (issue 39): what the other sessions of its provider show decides it.
        "unclear": unclear,
        "failed_turn": failed.index if failed else None,
        "error": summarize_text(failed.error) if failed and failed.error else (s.errors[0] if s.errors else None),
        "server_window": server_window,
        # the failed request's size as the provider's error states it (issue 40 review: a turn-1 failure says it)
        "server_request": server_request,
        "truncated_at": truncated_at,
        "truncated_turns": truncated_turns,
        "error_info": failed.error_info if failed else None,
        "failed_at": failed.failed_at if failed else None,
        "peak": peak,
        "last_ok": last_ok,
        "share": round(share, 3) if share is not None else None,
        "compactions": s.compactions,
        "median_growth": median_growth,
        "outsized": outsized_turns(s, median_growth),
        **_compaction(window, contexts, peak, real_window, median_growth, compact_limit),
        **_reading(s, contexts),
    }


def ending(s: Session, failed: Turn | None, any_ok: bool, share: float | None, text: str) -> tuple[str, str, bool]:
    """(kind, evidence, unclear) of how the session ended: `none` when it did not fail. `text` is its error and log
    lines, lower-cased; `any_ok` whether a turn worked before the failure."""
    if failed is None and not (s.errors and s.ended != "completed"):
        return "none", "", False
    if (failed and (failed.overflow_signature or failed.error_info == "context_window_exceeded")) or any(
        m in text for m in CONTEXT_TEXT
    ):
        evidence = (
            "the overflow signature (a token_count whose total equals the window, other counters zero)"
            if failed and failed.overflow_signature
            else "Codex's context-window error"
            if (failed and failed.error_info == "context_window_exceeded") or any(m in text for m in CODEX_CONTEXT_TEXT)
            else "the provider's context error"
        )
        return "context", evidence, False
    if item := turn_two_item(text):
        # A gateway that breaks on the items Codex sends after a tool ran: the channel, at any size (issue 31).
        shown = item.replace("_", " ") if item == "tool_role" else item
        return "channel", f"the gateway refuses the {shown} items Codex sends after a tool call", False
    if (said := codex_ending(text)) is not None and said.kind in ENDING_EVIDENCE:
        # Codex's own sentence names how the provider ended the answer (issue 38): the channel, at any size.
        return "channel", ENDING_EVIDENCE[said.kind], False
    if share is not None and share >= 0.9:
        return "context", str(failure_at(share)), False
    undecided = (failed and failed.error_info in UNCLEAR_INFO) or message_family(text)
    if undecided and not any_ok:
        # The seed guide's other test: a single question fails too, so it is the channel, whatever the words.
        return "channel", "the session's first request failed: a single question fails too", False
    if undecided:
        evidence = (
            'Codex\'s "high demand" message, which stands for a 5xx from the provider'
            if any(m in text for m in HIGH_DEMAND)
            else "a message that does not say whether the context or the channel broke"
        )
        return "unknown", evidence, True
    if (failed and failed.error_info in CHANNEL_INFO) or any(m.lower() in text for m in CHANNEL_TEXT):
        return "channel", failed.error_info if failed and failed.error_info else str(PROVIDER_OR_NETWORK), False
    return "unknown", "", False


def _identity(s: Session) -> dict[str, Any]:
    """Which session this is and what Codex ran it with: the first columns of its row."""
    return {
        "id": s.id or Path(s.path).stem,
        "short_id": (s.id or Path(s.path).stem)[:8],
        "start": s.start,
        "cli_version": s.cli_version,
        "provider": s.provider,
        "model": s.model,
        "window": s.window,
        "turns": len(s.turns),
        "ended": s.ended,
    }


def outsized_turns(s: Session, median_growth: float | None) -> list[dict[str, int]]:
    """Turns that added far more than the median turn (more than three times it, and over 2,000 tokens)."""
    outsized = []
    if median_growth:
        for prev, turn in pairwise(s.turns):
            if prev.context is not None and turn.context is not None:
                added = turn.context - prev.context
                if added > max(3 * median_growth, 2000):
                    outsized.append({"turn": turn.index, "added": added})
    return outsized


def _compaction(
    window: int | None,
    contexts: list[int],
    peak: int | None,
    real_window: int | None,
    median_growth: float | None,
    compact_limit: int | None,
) -> dict[str, Any]:
    """Where Codex compacts, whether it would have before the peak, and how many turns a session of this growth fits."""
    effective = window or 0
    # The logged window is Codex's effective one (95% of the model's); compaction fires at 90% of the model's,
    # unless model_auto_compact_token_limit says otherwise.
    compact_at = compaction_for_logged_window(effective, compact_limit) if effective else compact_limit
    basis = real_window or effective
    first = contexts[0] if contexts else CODEX_FIRST_REQUEST_TOKENS
    turns_per_session = None
    if basis and median_growth:
        turns_per_session = max(0, int((0.7 * basis - first) // median_growth))
    return {
        "compact_at": compact_at,
        "compaction_would_fire": (peak is not None and compact_at is not None and peak >= compact_at),
        "real_window": real_window,
        "turns_per_session": turns_per_session,
    }


def _reading(s: Session, contexts: list[int]) -> dict[str, Any]:
    """How well the log could be read, and the per-turn detail the session's own section shows."""
    return {
        "legacy": s.legacy,
        "bad_lines": s.bad_lines,
        "huge_lines": s.huge_lines,
        "decode_errors": s.decode_errors,
        "truncated_tail": s.truncated_tail,
        "read_error": s.read_error,
        "contexts": contexts,
        "cache": cache_profile(s),
        "log_errors": s.errors[:5],
        "previews": [t.preview for t in s.turns if t.preview],
    }


def silent_truncation(s: Session) -> tuple[int | None, list[int]]:
    """Input tokens stuck at one value while turns keep adding: the provider cut the history (Ollama at num_ctx).

    Codex resends the whole history each turn, so a real context only grows; two or more turns in a row at exactly
    the session's maximum, after it grew, is a ceiling. Returns (ceiling, turns at it)."""
    points = [(t.index, t.context) for t in s.turns if t.context]
    if len(points) < 3:
        return None, []
    top = max(c for _, c in points)
    at_top = [i for i, c in points if c == top]
    grew = points[0][1] < top
    tail = [i for i, c in points[-len(at_top) :]] == at_top  # the ceiling holds to the end
    if grew and len(at_top) >= 2 and tail:
        return top, at_top
    return None, []


def cache_profile(s: Session) -> dict[str, Any]:
    """Share of each turn's input served from the provider's prefix cache, and where it collapsed."""
    shares = [(t.index, t.context, (t.cached or 0) / t.context) for t in s.turns if t.context and t.cached is not None]
    collapse = None
    for (_, c0, r0), (i1, c1, r1) in pairwise(shares):
        if r0 >= 0.5 and r1 < r0 * 0.5 and c1 >= c0:
            collapse = {"turn": i1, "before": round(r0, 2), "after": round(r1, 2), "context": c1}
            break
    late = shares[len(shares) * 2 // 3 :] if len(shares) >= 3 else []
    late_share = _fmean(r for _, _, r in late) if late else None
    return {
        "reported": any(t.cached for t in s.turns),
        "turns": [(i, round(r, 2)) for i, _, r in shares],
        "collapse": collapse,
        "late_share": round(late_share, 2) if late_share is not None else None,
        "late_uncached": bool(
            late
            and late_share is not None
            and late_share < 0.2
            and max(c for _, c, _ in late) >= 20000
            and any(t.cached for t in s.turns)
        ),
    }


PROVIDER_OR_NETWORK = Msg("a provider or network error", "提供方或网络错误")


def failure_at(share: float) -> Msg:
    """A session that failed this far into its window (a rule quotes it as the session's evidence)."""
    return Msg("failure at {share:.0%} of the window", "在窗口的 {share:.0%} 处失败", share=share)


def evidence_said(d: Mapping[str, Any]) -> Msg | None:
    """A failing session's evidence in both languages, made again from its facts and used only when it says the same
    (the facts cross process boundaries as JSON-ready dicts, so the Msg cannot travel with them)."""
    for said in (PROVIDER_OR_NETWORK, failure_at(d["share"]) if d.get("share") is not None else None):
        if said is not None and str(said) == d.get("evidence"):
            return said
    return None
