"""Any number of sessions read and classified in batches, kept as bounded lists (the most recent sessions, the most
recent failing ones): what the report needs from a corpus of a million rollouts, in bounded memory."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from codexdoctor.checks.sessions.classify import classify_session
from codexdoctor.checks.sessions.read import AmbiguousSession, Selection, attach_errors, read_all
from codexdoctor.codex.rollout_session import Session, parse_time
from codexdoctor.codex.rollouts import iter_rollouts
from codexdoctor.codex.tui_log import read_tui_log

LIST_MAX = 100  # sessions listed (the most recent)
FAILING_MAX = 10_000  # failing sessions kept (slimmed) for the cross-session analysis
FAILING_LISTED = 200  # failing sessions that get rows and findings of their own
BATCH = 2000  # rollouts read and summarised at a time: a million small files never sit in memory at once


@dataclass
class Summaries:
    """What the report needs from any number of sessions, in bounded memory."""

    listed: list[dict[str, Any]]
    failing: list[dict[str, Any]]
    total: int
    failed: int
    unreadable_lines: int


def _slim(d: dict[str, Any]) -> dict[str, Any]:
    """A failing session beyond the listed ones: enough for the cross-session analysis, none of the per-turn detail."""
    return {**d, "contexts": [], "previews": [], "cache": {**d["cache"], "turns": []}, "outsized": []}


def summarize(
    roots: Iterable[Path], selection: Selection, tui_log: Path | None, compact_limit: int | None = None
) -> tuple[Summaries, list[str]]:
    """Read and classify every rollout in batches, keeping only bounded lists (most recent first)."""
    problems: list[str] = []
    files = iter_rollouts(roots, problems)
    errors = read_tui_log(tui_log, problems) if tui_log is not None and tui_log.is_file() else []
    kept = _Kept(selection)
    while paths := list(itertools.islice(files, BATCH)):
        for session, d in _digest(paths, selection, errors, compact_limit, kept.prefix_ids):
            kept.add(session, d)
    return kept.summaries(), problems


def _digest(
    paths: list[Path],
    selection: Selection,
    errors: list[tuple[Any, ...]],
    compact_limit: int | None,
    prefix_ids: list[str],
) -> list[tuple[Session, dict[str, Any]]]:
    """One batch read, selected (--session, --since; the ids the prefix matched go to `prefix_ids`) and classified."""
    # Without log lines to attach first, each reading process classifies the sessions it read.
    digested = read_all(
        paths, selection.show_content, None if errors else (lambda s: classify_session(s, compact_limit))
    )
    batch = [x[0] for x in digested] if not errors else digested
    ready = {id(x[0]): x[1] for x in digested} if not errors else {}
    if selection.session:
        batch = [x for x in batch if x.id and x.id.startswith(selection.session)]
        prefix_ids += [str(x.id) for x in batch]
    if selection.since:
        floor = datetime.min.replace(tzinfo=selection.since.tzinfo)
        batch = [x for x in batch if (parse_time(x.start) or floor) >= selection.since]
    if errors:
        attach_errors(batch, errors)
    return [(session, ready.get(id(session)) or classify_session(session, compact_limit)) for session in batch]


class _Kept:
    """What summarize keeps while it reads: two bounded heaps (the most recent sessions, the most recent failing
    ones), the counts, and the sessions whose id is exactly the one --session asked for."""

    def __init__(self, selection: Selection) -> None:
        self.selection = selection
        self.recent: list[tuple[str, int, dict[str, Any]]] = []
        self.failing: list[tuple[str, int, dict[str, Any]]] = []
        self.total = self.failed = self.bad = 0
        self.exact: list[dict[str, Any]] = []
        self.prefix_ids: list[str] = []
        self.serial = 0

    def add(self, session: Session, d: dict[str, Any]) -> None:
        if self.selection.session and session.id == self.selection.session:
            self.exact.append(d)
        self.total += 1
        self.bad += session.bad_lines + session.huge_lines + session.decode_errors + int(session.truncated_tail)
        key = (d["start"] or "", self.serial)
        self.serial += 1
        heapq.heappush(self.recent, (*key, d))
        if len(self.recent) > LIST_MAX:
            heapq.heappop(self.recent)
        if d["kind"] != "none":
            self.failed += 1
            heapq.heappush(self.failing, (*key, d))
            if len(self.failing) > FAILING_MAX:
                heapq.heappop(self.failing)

    def summaries(self) -> Summaries:
        """The lists in time order, cut to --session and --last; failing sessions past the listed ones slimmed."""
        selection, recent, failing, total, failed = self.selection, self.recent, self.failing, self.total, self.failed
        if selection.session:
            if self.exact:
                recent, failing = (
                    [(d["start"] or "", 0, d) for d in self.exact],
                    [(d["start"] or "", 0, d) for d in self.exact if d["kind"] != "none"],
                )
                total, failed = len(self.exact), len(failing)
            elif len(self.prefix_ids) > 1:
                raise AmbiguousSession(selection.session, sorted(self.prefix_ids))
        listed = [d for _, _, d in sorted(recent, key=lambda t: t[:2])]
        failing_sorted = [d for _, _, d in sorted(failing, key=lambda t: t[:2])]
        if selection.last:
            listed = listed[-selection.last :]
            keep = {d["id"] for d in listed}
            failing_sorted = [d for d in failing_sorted if d["id"] in keep]
            total, failed = len(listed), len(failing_sorted)
        listed_ids = {d["id"] for d in listed}
        failing_sorted = [
            d if d["id"] in listed_ids or i >= len(failing_sorted) - FAILING_LISTED else _slim(d)
            for i, d in enumerate(failing_sorted)
        ]
        return Summaries(listed, failing_sorted, total, failed, self.bad)


def keep_only(summaries: Summaries, keep: Callable[[dict[str, Any]], bool]) -> Summaries:
    """The sessions a question is about (one provider's, those that ended with one message), counted anew."""
    listed = [d for d in summaries.listed if keep(d)]
    failing = [d for d in summaries.failing if keep(d)]
    return Summaries(listed, failing, len(listed), len(failing), summaries.unreadable_lines)
