"""`codexdoctor sessions`: a post-mortem of Codex's own session logs, offline and free.

Per session: context per turn against the window, how it grew, compactions,
how it ended and why (context / channel / unknown); across sessions: whether
failures cluster at one size (context) or scatter at low usage (channel).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

from codexdoctor.codex.models import compaction_for_logged_window
from codexdoctor.codex.rollout_session import Session, parse_time
from codexdoctor.codex.rollouts import find_rollouts, iter_rollouts, read_session
from codexdoctor.codex.sizes import CODEX_FIRST_REQUEST_TOKENS
from codexdoctor.codex.tui_log import read_tui_log
from codexdoctor.common.words import plural
from codexdoctor.model import CheckResult, Msg, Status
from codexdoctor.net.classify import CONTEXT_MARKERS, HIGH_DEMAND, context_numbers, summarize_text, turn_two_item
from codexdoctor.net.codex_words import codex_ending

CHANNEL_INFO = ("http 401", "http 403", "http 404")
# Statuses whose message does not say which broke (issue 39): Codex's "high demand" mask of a 5xx, a 429 after its
# retries. A gateway that meets a full window can end a turn with any of them, and so can a flaky channel: alone they
# decide nothing; sessions breaking at one size decide the context, wandering breaks or a first question the channel.
UNCLEAR_INFO = ("http 429", "http 500", "http 502", "http 503", "http 504")
# Every server family's overflow words (the same list the live checks use); "context" alone is not one of them.
CODEX_CONTEXT_TEXT = ("ran out of room",)
CONTEXT_TEXT = tuple(m for m in CONTEXT_MARKERS if m not in ("context_length", "too many tokens")) + CODEX_CONTEXT_TEXT
# The messages that decide nothing alone (a stream cut, "high demand", a 429 after the retries, a timeout), by family:
# a paste and a session log line of one family are the same event.
UNCLEAR_FAMILIES = (
    ("stream_closed", ("stream closed before response.completed",)),
    ("high_demand", HIGH_DEMAND),
    ("retry_limit", ("exceeded retry limit",)),
    ("idle_timeout", ("idle timeout",)),
    ("timeout", ("timed out", "timeout")),
    ("stream_cut", ("stream disconnected",)),
)
# The families a paste is read against the logs for (issue 39's list); a bare "stream disconnected … error sending
# request" names a transport failure and keeps its own finding.
PASTE_FAMILIES = ("stream_closed", "high_demand", "retry_limit", "idle_timeout", "timeout")
RECENT_ROLLOUTS = 200  # `check` and `diagnose-error` read at most this many of the newest logs (a few tens of ms)


# Words that decide for the channel even inside "stream disconnected before completion: …": the name, the connection,
# the certificate.
TRANSPORT_TEXT = (
    "lookup address",
    "dns error",
    "name or service not known",
    "connection refused",
    "certificate",
    "tls handshake",
    "invalid peer",
    "os error 111",
    "proxy",
)


# What a session's failure is when Codex's sentence names the ending (net.codex_words): the session's evidence.
ENDING_EVIDENCE = {
    "output_capped": "the provider cut the answer short (`Incomplete response returned, reason: max_output_tokens`)",
    "stream_incomplete": "the provider ended the answer incomplete (`Incomplete response returned`: a content filter "
    "or another reason)",
    "quota": "Codex's `Quota exceeded.`: the key's quota is used up",
    "usage_not_included": "the provider does not let this key use the model (usage_not_included)",
    "server_overloaded": "the provider said the model is at capacity (`Selected model is at capacity.`)",
    "stream_rate_limited": "the provider rate-limited every attempt Codex made (`rate limit exceeded: …`)",
}


def message_family(text: str) -> str | None:
    """Which undecided message a text is (a paste, a session's error line), or None when its words decide."""
    lowered = text.lower().replace("\u2019", "'")
    if turn_two_item(lowered) or any(m in lowered for m in CONTEXT_TEXT + TRANSPORT_TEXT):
        return None
    return next((family for family, markers in UNCLEAR_FAMILIES if any(m in lowered for m in markers)), None)


def recent_rollouts(roots: Iterable[Path], limit: int = RECENT_ROLLOUTS) -> list[Path]:
    """The newest `limit` rollouts below Codex's dated folders (sessions/YYYY/MM/DD), newest folders first, without
    listing the rest: `check` reads what just happened, in bounded time, whatever the size of ~/.codex."""
    found: list[Path] = []

    def walk(folder: Path, depth: int) -> None:
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name, reverse=True)
        except OSError:
            return
        for entry in entries:
            if len(found) >= limit:
                return
            try:
                if entry.is_dir(follow_symlinks=False) and depth < 4:
                    walk(Path(entry.path), depth + 1)
                elif entry.name.startswith("rollout-") and entry.name.endswith(".jsonl"):
                    found.append(Path(entry.path))
            except OSError:
                continue

    for root in roots:
        if len(found) < limit and root.is_dir():
            walk(root, 0)
    return found


def keep_only(summaries: Summaries, keep: Callable[[dict[str, Any]], bool]) -> Summaries:
    """The sessions a question is about (one provider's, those that ended with one message), counted anew."""
    listed = [d for d in summaries.listed if keep(d)]
    failing = [d for d in summaries.failing if keep(d)]
    return Summaries(listed, failing, len(listed), len(failing), summaries.unreadable_lines)


CHANNEL_TEXT = (
    "unexpected status",
    "Missing environment variable",
    "does not exist",
    "not found",
    "Unauthorized",
    "Forbidden",
)


class AmbiguousSession(ValueError):
    """`--session PREFIX` matches more than one session: a usage error that lists them."""

    def __init__(self, prefix: str, matches: list[str]) -> None:
        super().__init__(
            f"--session {prefix} matches {len(matches)} sessions: "
            + ", ".join(matches[:10])
            + (" …" if len(matches) > 10 else "")
            + "; give more characters of the id"
        )
        self.matches = matches


@dataclass(frozen=True)
class Selection:
    """Which sessions the user asked about (--last, --since, --session) and whether contents may be shown."""

    last: int | None = None
    since: datetime | None = None
    session: str | None = None
    show_content: bool = False


def _median(values: Sequence[float]) -> float:
    """statistics.median, without importing statistics (and fractions, decimal) for one function: 2 ms a run."""
    data = sorted(values)
    n = len(data)
    if not n:
        raise ValueError("no median for empty data")
    return data[n // 2] if n % 2 else (data[n // 2 - 1] + data[n // 2]) / 2


def _fmean(values: Iterable[float]) -> float:
    """statistics.fmean: math.fsum over the count."""
    data = list(values)
    if not data:
        raise ValueError("fmean requires at least one data point")
    return math.fsum(data) / len(data)


PARALLEL_MIN_BYTES = 32 << 20


def read_all(files: list[Path], keep_content: bool, digest: Callable[[Session], Any] | None = None) -> list[Any]:
    """Sequentially for small corpora; for large ones the files are split in two halves of equal bytes, one read
    by a forked child (its sessions come back pickled through a pipe), the other by this process at the same time.

    One child, not a pool: a pool's per-task round trips cost more than they save on two cores (measured).
    Wherever fork is missing or the child fails, this process reads the child's half itself.
    With `digest`, each process also applies it to the sessions it read and returns (session, digest) pairs,
    so the classification is shared between the two processes as well. The session in a pair has no turns: the
    digest is all a caller needs of them, and thousands of Turn objects less cross the pipe and are unpickled."""

    def one(path: Path) -> Any:
        session = read_session(path, keep_content=keep_content)
        if digest is None:
            return session
        summary = digest(session)
        session.turns = []  # this process's own new object, read just now: emptied in place (`replace` costs 30 us)
        return session, summary

    sizes = []
    for f in files:
        try:
            sizes.append(f.stat().st_size)
        except OSError:
            sizes.append(0)
    if (os.cpu_count() or 1) < 2 or len(files) < 2 or sum(sizes) < PARALLEL_MIN_BYTES or not hasattr(os, "fork"):
        return [one(f) for f in files]
    half, acc, cut = sum(sizes) / 2, 0, len(files)
    for i, size in enumerate(sizes):
        if acc >= half:
            cut = i
            break
        acc += size
    cut = max(1, min(cut, len(files) - 1))
    theirs = _read_in_child(files[cut:], one)
    mine = [one(f) for f in files[:cut]]
    return mine + theirs.result()


CHILD_MIN_SECONDS = 60.0
CHILD_BYTES_PER_SECOND = 20e6  # a tenth of the slowest rate measured: past it, the child is stuck, not slow


class _Child:
    def __init__(self, files: list[Path], one: Callable[[Path], Any], pid: int | None, fd: int | None) -> None:
        self.files, self.one, self.pid, self.fd = files, one, pid, fd

    def _answer(self) -> bytes | None:
        """The child's pickled sessions, or None when it does not answer in time (then it is killed)."""
        if self.fd is None or self.pid is None:
            return None
        import select
        import signal
        import time

        size = 0
        for f in self.files:
            try:
                size += f.stat().st_size
            except OSError:
                pass
        deadline = time.monotonic() + max(CHILD_MIN_SECONDS, size / CHILD_BYTES_PER_SECOND)
        chunks: list[bytes] = []
        with os.fdopen(self.fd, "rb", buffering=0) as pipe:
            while True:
                left = deadline - time.monotonic()
                ready = select.select([pipe], [], [], max(0.0, left))[0] if left > 0 else []
                if not ready:
                    os.kill(self.pid, signal.SIGKILL)
                    return None
                chunk = pipe.read(1 << 20)
                if not chunk:
                    return b"".join(chunks)
                chunks.append(chunk)

    def result(self) -> list[Session]:
        data = self._answer() if self.fd is not None else None
        status = os.waitpid(self.pid, 0)[1] if self.pid else 1
        if status == 0 and data:
            try:
                import pickle

                # Bytes our own forked child wrote to a pipe only it and we hold: nothing outside ever reaches it.
                sessions = pickle.loads(data)  # noqa: S301
                if isinstance(sessions, list) and len(sessions) == len(self.files):
                    return sessions
            except Exception:  # noqa: S110 - a child that failed in any way: read the files here instead (below)
                pass
        return [self.one(f) for f in self.files]


def _read_in_child(files: list[Path], one: Callable[[Path], Any]) -> _Child:
    try:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
    except OSError:
        return _Child(files, one, None, None)
    if pid == 0:  # the child: read, answer, leave without running the parent's cleanup
        code = 1
        try:
            os.close(read_fd)
            import pickle

            data = pickle.dumps([one(f) for f in files], protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_fd, "wb") as pipe:
                pipe.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(write_fd)
    return _Child(files, one, pid, read_fd)


def load(roots: Iterable[Path], selection: Selection, tui_log: Path | None) -> tuple[list[Session], list[str]]:
    problems: list[str] = []
    files = find_rollouts(roots, problems)
    sessions = read_all(files, selection.show_content)
    if selection.session:
        exact = [s for s in sessions if s.id == selection.session]
        sessions = exact or [s for s in sessions if s.id and s.id.startswith(selection.session)]
        if len(sessions) > 1:
            raise AmbiguousSession(selection.session, sorted(str(s.id) for s in sessions))
    if selection.since:
        sessions = [
            s
            for s in sessions
            if (parse_time(s.start) or datetime.min.replace(tzinfo=selection.since.tzinfo)) >= selection.since
        ]
    sessions.sort(key=lambda s: s.start or "")
    if selection.last:
        sessions = sessions[-selection.last :]
    if tui_log is not None and tui_log.is_file():
        attach_errors(sessions, read_tui_log(tui_log, problems))
    return sessions, problems


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
    import heapq
    import itertools

    problems: list[str] = []
    files = iter_rollouts(roots, problems)
    errors = read_tui_log(tui_log, problems) if tui_log is not None and tui_log.is_file() else []
    recent: list[tuple[str, int, dict[str, Any]]] = []
    failing: list[tuple[str, int, dict[str, Any]]] = []
    total = failed = bad = 0
    exact: list[dict[str, Any]] = []
    prefix_ids: list[str] = []
    serial = 0
    while True:
        paths = list(itertools.islice(files, BATCH))
        if not paths:
            break
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
        for session in batch:
            d = ready.get(id(session)) or classify_session(session, compact_limit)
            if selection.session and session.id == selection.session:
                exact.append(d)
            total += 1
            bad += session.bad_lines + session.huge_lines + session.decode_errors + int(session.truncated_tail)
            key = (d["start"] or "", serial)
            serial += 1
            heapq.heappush(recent, (*key, d))
            if len(recent) > LIST_MAX:
                heapq.heappop(recent)
            if d["kind"] != "none":
                failed += 1
                heapq.heappush(failing, (*key, d))
                if len(failing) > FAILING_MAX:
                    heapq.heappop(failing)
        del batch
    if selection.session:
        if exact:
            recent, failing = (
                [(d["start"] or "", 0, d) for d in exact],
                [(d["start"] or "", 0, d) for d in exact if d["kind"] != "none"],
            )
            total, failed = len(exact), len(failing)
        elif len(prefix_ids) > 1:
            raise AmbiguousSession(selection.session, sorted(prefix_ids))
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
    return Summaries(listed, failing_sorted, total, failed, bad), problems


def attach_errors(sessions: list[Session], errors: list[tuple[Any, ...]]) -> None:
    """Match codex-tui.log error lines to sessions: by the `thread_id` Codex 0.171 writes on them, else by time
    (start .. last event + 2 minutes; concurrent sessions make time ambiguous, so a line with an id never goes by time)."""
    by_id = {s.id: s for s in sessions if s.id}
    spans = []
    for s in sessions:
        start, end = parse_time(s.start), parse_time(s.last_time)
        if start and end:
            spans.append((start, end + timedelta(minutes=2), s))
    for entry in errors:
        when, kind, line = entry[:3]
        thread = entry[3] if len(entry) > 3 else None
        if thread:
            if thread in by_id:
                by_id[thread].errors.append(summarize_text(line))
            continue
        for start, end, s in spans:
            if start <= when <= end:
                s.errors.append(summarize_text(line))
                break


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
    kind = "none"
    evidence = ""
    unclear = False
    if failed is not None or (s.errors and s.ended != "completed"):
        if (failed and (failed.overflow_signature or failed.error_info == "context_window_exceeded")) or any(
            m in text for m in CONTEXT_TEXT
        ):
            kind = "context"
            evidence = (
                "the overflow signature (a token_count whose total equals the window, other counters zero)"
                if failed and failed.overflow_signature
                else "Codex's context-window error"
                if (failed and failed.error_info == "context_window_exceeded")
                or any(m in text for m in CODEX_CONTEXT_TEXT)
                else "the provider's context error"
            )
        elif item := turn_two_item(text):
            # A gateway that breaks on the items Codex sends after a tool ran: the channel, at any size (issue 31).
            kind = "channel"
            evidence = (
                f"the gateway refuses the {item.replace('_', ' ') if item == 'tool_role' else item} items Codex "
                "sends after a tool call"
            )
        elif (ending := codex_ending(text)) is not None and ending.kind in ENDING_EVIDENCE:
            # Codex's own sentence names how the provider ended the answer (issue 38): the channel, at any size.
            kind = "channel"
            evidence = ENDING_EVIDENCE[ending.kind]
        elif share is not None and share >= 0.9:
            kind = "context"
            evidence = f"failure at {share:.0%} of the window"
        elif ((failed and failed.error_info in UNCLEAR_INFO) or message_family(text)) and not ok_before:
            # The seed guide's other test: a single question fails too, so it is the channel, whatever the words.
            kind = "channel"
            evidence = "the session's first request failed: a single question fails too"
        elif (failed and failed.error_info in UNCLEAR_INFO) or message_family(text):
            kind, unclear = "unknown", True
            evidence = (
                'Codex\'s "high demand" message, which stands for a 5xx from the provider'
                if any(m in text for m in HIGH_DEMAND)
                else "a message that does not say whether the context or the channel broke"
            )
        elif (failed and failed.error_info in CHANNEL_INFO) or any(m.lower() in text for m in CHANNEL_TEXT):
            kind = "channel"
            evidence = failed.error_info if failed and failed.error_info else "a provider or network error"
        else:
            kind = "unknown"
    growth = [b - a for a, b in pairwise(contexts) if b > a]
    median_growth = _median(growth) if growth else None
    outsized = []
    if median_growth:
        for prev, turn in pairwise(s.turns):
            if prev.context is not None and turn.context is not None:
                added = turn.context - prev.context
                if added > max(3 * median_growth, 2000):
                    outsized.append({"turn": turn.index, "added": added})
    truncated_at, truncated_turns = (None, []) if kind != "none" else silent_truncation(s)
    if truncated_at:
        kind, evidence = "context", "silent truncation"
    server_window, _ = context_numbers(text) if kind == "context" and text else (None, None)
    effective = window or 0
    # The logged window is Codex's effective one (95% of the model's); compaction fires at 90% of the model's,
    # unless model_auto_compact_token_limit says otherwise.
    compact_at = compaction_for_logged_window(effective, compact_limit) if effective else compact_limit
    real_window = (
        truncated_at or server_window or (last_ok if kind == "context" and share is not None and share < 0.5 else None)
    )
    basis = real_window or effective
    first = contexts[0] if contexts else CODEX_FIRST_REQUEST_TOKENS
    turns_per_session = None
    if basis and median_growth:
        turns_per_session = max(0, int((0.7 * basis - first) // median_growth))
    cache = cache_profile(s)
    return {
        "id": s.id or Path(s.path).stem,
        "short_id": (s.id or Path(s.path).stem)[:8],
        "start": s.start,
        "cli_version": s.cli_version,
        "provider": s.provider,
        "model": s.model,
        "window": window,
        "turns": len(s.turns),
        "ended": s.ended,
        "kind": kind,
        "evidence": evidence,
        # The message alone cannot tell (issue 39): what the other sessions of its provider show decides it.
        "unclear": unclear,
        "failed_turn": failed.index if failed else None,
        "error": summarize_text(failed.error) if failed and failed.error else (s.errors[0] if s.errors else None),
        "server_window": server_window,
        "truncated_at": truncated_at,
        "truncated_turns": truncated_turns,
        "error_info": failed.error_info if failed else None,
        "failed_at": failed.failed_at if failed else None,
        "peak": peak,
        "last_ok": last_ok,
        "share": round(share, 3) if share is not None else None,
        "compactions": s.compactions,
        "median_growth": median_growth,
        "outsized": outsized,
        "compact_at": compact_at,
        "compaction_would_fire": (peak is not None and compact_at is not None and peak >= compact_at),
        "real_window": real_window,
        "turns_per_session": turns_per_session,
        "legacy": s.legacy,
        "bad_lines": s.bad_lines,
        "huge_lines": s.huge_lines,
        "decode_errors": s.decode_errors,
        "truncated_tail": s.truncated_tail,
        "read_error": s.read_error,
        "contexts": contexts,
        "cache": cache,
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


def unique_ids(data: list[dict[str, Any]], minimum: int = 8) -> None:
    """Short ids long enough to tell every session apart (Codex ids are time-ordered: the first 8 collide)."""
    ids = [d["id"] for d in data]
    length = minimum
    while length < max((len(i) for i in ids), default=minimum) and len({i[:length] for i in ids}) < len(set(ids)):
        length += 1
    for d in data:
        cut = length + 1 if d["id"][length - 1 : length] == "-" else length  # never end on the dash
        d["short_id"] = d["id"][:cut]


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


CLUSTER_SPREAD = 0.15  # a core of sessions whose break sizes lie within this share of their median
CLUSTER_SHARE = 0.6  # ... and that holds at least this share of the group's failures: one outlier does not undo it


def _core(sized: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """The largest run of break sizes, in order, that lies within CLUSTER_SPREAD of its smallest (issue 28: one
    outlier session turned off the grouped advice for seven that broke at the same size). Two pointers: linear after
    the sort, for a corpus with thousands of failed sessions."""
    sized = sorted(sized, key=lambda pair: pair[0])
    best = (0, 0)
    start = 0
    for end in range(len(sized)):
        while sized[end][0] - sized[start][0] > CLUSTER_SPREAD * max(1, sized[start][0]):
            start += 1
        if end + 1 - start > best[1] - best[0]:
            best = (start, end + 1)
    return sized[best[0] : best[1]]


def _pattern(failures: list[dict[str, Any]]) -> dict[str, Any]:
    sized = [(s["last_ok"] or s["peak"], s) for s in failures if (s["last_ok"] or s["peak"])]
    sizes = [size for size, _ in sized]
    out: dict[str, Any] = {
        "failures": len(failures),
        "sizes": sizes,
        "pattern": None,
        "ids": [s["id"] for s in failures],
        "outliers": [],
    }
    if len(sizes) >= 2:
        med = _median(sizes)
        spread = (max(sizes) - min(sizes)) / med if med else 0
        shares = [s["share"] for s in failures if s["share"] is not None]
        out.update(median=int(med), low=min(sizes), high=max(sizes), spread=round(spread, 2), core=len(sizes))
        core = _core(sized)
        if len(core) >= 2 and len(core) >= CLUSTER_SHARE * len(sized):
            core_sizes = [size for size, _ in core]
            core_med = _median(core_sizes)
            core_ids = {d["id"] for _, d in core}
            out.update(
                pattern="cluster",
                median=int(core_med),
                low=min(core_sizes),
                high=max(core_sizes),
                spread=round((max(core_sizes) - min(core_sizes)) / core_med, 3),
                # "± 2%": the farthest break from the median, as a share of it
                within=round(max(abs(x - core_med) for x in core_sizes) / core_med, 3),
                core=len(core),
                ids=[d["id"] for _, d in core],
                outliers=[{"id": d["id"], "size": size} for size, d in sized if d["id"] not in core_ids],
            )
        elif (shares and max(shares) < 0.5) or all(s.get("unclear") for s in failures):
            # Breaks that wander (issue 39): at low usage, or with messages that alone decide nothing.
            out["pattern"] = "scattered"
            out["low_usage"] = bool(shares) and max(shares) < 0.5
            out["unclear"] = all(s.get("unclear") for s in failures)
    return out


def group_key(s: Mapping[str, Any]) -> tuple[str, str, Any]:
    """Sessions that share a provider, a model and the window Codex ran them with: one config, one answer."""
    return (s.get("provider") or "?", s.get("model") or "?", s.get("window"))


def across(sessions: list[dict[str, Any]]) -> dict[str, Any]:
    """Do failures cluster at one size (context) or scatter at low usage (channel)? Per provider and model: a
    window belongs to one model behind one provider, and another provider's 401 says nothing about it."""
    # A message that names the channel (a 401, a refused tool item) is its own answer at any size; only the failures
    # that could be the window are compared (issue 39: a turn-two refusal at the same size is not a window).
    failures = [s for s in sessions if s["kind"] in ("context", "unknown") and not s.get("truncated_at")]
    groups: dict[tuple[str, str, Any], list[dict[str, Any]]] = {}
    for s in failures:
        groups.setdefault(group_key(s), []).append(s)
    results = []
    for (provider, model, window), members in groups.items():
        group = _pattern(members)
        group.update(provider=provider, model=model, window=window)
        results.append(group)
    # The group that decides: a cluster first, then the one with most failures.
    results.sort(key=lambda g: (g["pattern"] != "cluster", -g["failures"]))
    main = dict(results[0]) if results else {"failures": 0, "sizes": [], "pattern": None, "ids": []}
    main["groups"] = results
    return main


def build_check(
    sessions: list[Session] | Summaries,
    problems: list[str],
    show: Path | str,
    home: str,
    compact_limit: int | None = None,
) -> CheckResult:
    if isinstance(sessions, Summaries):
        return _build_from(sessions, problems, show)
    data = [classify_session(s, compact_limit) for s in sessions]
    lines_bad = sum(s.bad_lines + s.huge_lines + s.decode_errors + int(s.truncated_tail) for s in sessions)
    failing = [d for d in data if d["kind"] != "none"]
    return _build_from(Summaries(data, failing, len(data), len(failing), lines_bad), problems, show)


def _build_from(summaries: Summaries, problems: list[str], show: Path | str) -> CheckResult:
    listed_ids = {d["id"] for d in summaries.listed}
    recent_failing = [d for d in summaries.failing[-FAILING_LISTED:] if d["id"] not in listed_ids]
    data = sorted(summaries.listed + recent_failing, key=lambda d: d["start"] or "")
    unique_ids(data + summaries.failing)
    summary = across(summaries.failing)
    clustered = {i for g in summary["groups"] if g["pattern"] == "cluster" for i in g["ids"]}
    scattered = {i for g in summary["groups"] if g["pattern"] == "scattered" for i in g["ids"]}
    for d in data + summaries.failing:
        d["in_cluster"] = d["id"] in clustered  # the group's advice (CTX014) replaces the per-session one
        settle_unclear(d, d["in_cluster"], d["id"] in scattered)
    lines_bad = summaries.unreadable_lines
    facts: dict[str, Any] = {
        "sessions": data,
        "across": summary,
        "problems": problems[:50],
        "unreadable_lines": lines_bad,
        "count": summaries.total,
        "failed": summaries.failed,
        "where": str(show),
        "not_listed": summaries.total - len(data),
    }
    evidence = [f"{plural(summaries.total, 'session')} read from {show}"] + [f"read problem: {p}" for p in problems[:5]]
    if facts["not_listed"] > 0:
        evidence.append(f"{plural(facts['not_listed'], 'older session')} counted but not listed")
    if lines_bad:
        evidence.append(
            f"{plural(lines_bad, 'unreadable line')} skipped (half-written, corrupted, overlong or non-UTF-8)"
        )
    if not data:
        none = Msg("no session logs found in {where}", "在 {where} 中没有找到会话日志", where=str(show))
        return CheckResult("ctx.sessions", "Session logs", Status.SKIP, str(none), facts, tuple(evidence), message=none)
    failing = [d for d in summaries.failing if d["kind"] in ("context", "channel", "unknown")]
    decision = decide(failing)
    facts["decision"] = decision[0] if decision else None
    said = {"decision_reason": decision[1]} if decision else {}
    undecided = [d for d in failing if d.get("unclear") and not d.get("settled")]
    reason = None
    if undecided and len(undecided) == len(failing):
        reason = Msg(
            "{sessions} ended with a message that does not say whether the context or the channel broke, and no "
            "other session of its provider decides it",
            "{n:,} 个失败的会话以一条说不清是上下文还是通道出了问题的消息结束，同一提供方也没有别的会话能判定它",
            sessions=plural(len(undecided), "failed session"),
            n=len(undecided),
        )
        facts["inconclusive_reason"] = str(reason)
    status = Status.FAIL if failing else Status.PASS
    text = counted(summaries.total, summaries.failed, sorted({d["kind"] for d in failing}))
    return CheckResult(
        "ctx.sessions",
        "Session logs",
        status,
        str(text),
        facts,
        tuple(evidence),
        message=text,
        reason=reason,
        said=said,
    )


def counted(total: int, failed: int, kinds: list[str]) -> Msg:
    """`12 sessions, 3 failed (channel, context)`: the kinds in the words of the sessions table."""
    from codexdoctor.i18n import TABLE_WORDS

    if not kinds:
        return Msg(
            "{sessions}, {failed:,} failed",
            "{n:,} 个会话，{failed:,} 个失败",
            sessions=plural(total, "session"),
            n=total,
            failed=failed,
        )
    return Msg(
        "{sessions}, {failed:,} failed ({kinds})",
        "{n:,} 个会话，{failed:,} 个失败（{kinds}）",
        sessions=plural(total, "session"),
        n=total,
        failed=failed,
        kinds=Msg.join([Msg.pair(k, TABLE_WORDS[k][1]) for k in kinds]),
    )


def settle_unclear(d: dict[str, Any], in_cluster: bool, scattered: bool) -> None:
    """What the other sessions of its provider say about a session whose message alone could not (issue 39): one
    size every time is the context, breaks that wander are the channel; alone it stays unknown (CTX031)."""
    if not d.get("unclear") or d.get("settled"):
        return
    if in_cluster:
        d.update(kind="context", settled="cluster", evidence="a stable break point across sessions")
    elif scattered:
        d.update(kind="channel", settled="scattered", evidence="breaks that wander across sessions")


def decide(failing: list[dict[str, Any]]) -> tuple[dict[str, Any], Msg] | None:
    """Which cause the report leads with when sessions failed both ways: the majority, or on a tie the most recent;
    the reason names both (a fact, in English, and the same reason in both languages beside it)."""
    counts = {k: sum(1 for d in failing if d["kind"] == k) for k in ("context", "channel")}
    if not counts["context"] or not counts["channel"]:
        return None
    latest = max((d for d in failing if d["kind"] in counts), key=lambda d: d["start"] or "")
    lead = max(counts, key=lambda k: (counts[k], k == latest["kind"]))
    other = "channel" if lead == "context" else "context"
    when = (latest["start"] or "?")[:16].replace("T", " ")
    reason = Msg(
        "{sessions} of kind `{lead}` and {m} of kind `{other}`; the most recent failure ({when}) was `{kind}`",
        "{n:,} 个失败会话属于 `{lead}` 类，{m} 个属于 `{other}` 类；最近一次失败（{when}）是 `{kind}` 类",
        sessions=plural(counts[lead], "failed session"),
        n=counts[lead],
        lead=lead,
        m=counts[other],
        other=other,
        when=when,
        kind=str(latest["kind"]),
    )
    return {"verdict": lead, "reason": str(reason)}, reason
