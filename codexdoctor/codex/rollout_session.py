"""What one rollout file tells about a Codex session, as the reader (codex/rollouts.py) fills it in: its turns, and
what made the file hard to read (counted, never fatal)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone


@dataclass
class Turn:
    """One user turn as the rollout records it: what went in, what came back and how it ended."""

    index: int
    started: str | None = None
    completed: bool = False
    aborted: bool = False
    context: int | None = None  # largest last_token_usage.input_tokens seen in the turn
    cached: int | None = None
    output: int | None = None
    compacted: bool = False
    overflow_signature: bool = False
    user_chars: int = 0
    error: str | None = None  # task_complete.error.message (Codex 0.171 writes it)
    error_info: str | None = None  # "context_window_exceeded" or "http 401"
    failed_at: str | None = None  # when Codex wrote the error (after its retries), not when the turn began
    preview: str | None = None  # start of the user's message, kept only with --show-content
    opened_by_message: bool = False

    @property
    def closed(self) -> bool:
        return self.completed or self.aborted or self.error is not None


@dataclass
class Session:
    """One rollout file, read once: its turns plus what made it hard to read, so damage is counted, not fatal."""

    path: str
    id: str | None = None
    start: str | None = None
    last_time: str | None = None
    cli_version: str | None = None
    provider: str | None = None
    model: str | None = None
    window: int | None = None
    legacy: bool = False
    turns: list[Turn] = field(default_factory=list)
    compacted_items: int = 0  # `compacted` envelopes
    compacted_events: int = 0  # `context_compacted` events
    lines: int = 0
    parsed: int = 0
    skipped_items: int = 0
    bad_lines: int = 0
    huge_lines: int = 0
    decode_errors: int = 0
    truncated_tail: bool = False
    read_error: str | None = None
    bytes: int = 0
    errors: list[str] = field(default_factory=list)  # error texts matched from codex-tui.log
    keep_content: bool = False
    compact: bool = False  # Codex's own one-line-per-item form, read by the fast scan
    careful: bool = False  # envelopes, but not in the field order the fast scan relies on: read line by line

    @property
    def compactions(self) -> int:
        """Codex persists both a `compacted` item and a `context_compacted` event for one compaction
        (codex-rs/core/src/rollout/policy.rs: `RolloutItem::Compacted` and `EventMsg::ContextCompacted` are both
        kept), and some versions write only one of them (0.171.0's logs hold only the item): counting every record
        would count a compaction twice, so each kind is counted apart and the larger count is the number."""
        return max(self.compacted_items, self.compacted_events)

    @property
    def contexts(self) -> list[int]:
        return [t.context for t in self.turns if t.context is not None]

    @property
    def peak(self) -> int | None:
        return max(self.contexts, default=None)

    @property
    def ended(self) -> str:
        if self.read_error:
            return "unreadable"
        if not self.turns:
            return "no turns"
        last = self.turns[-1]
        if last.overflow_signature or last.error_info == "context_window_exceeded":
            return "overflow"
        if last.error:
            return "error"
        if last.aborted:
            return "aborted"
        if last.completed:
            return "completed"
        return "never completed"


def parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        dt = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)
