"""The `ctx.sessions` check result: the classified sessions, the cross-session pattern and the decision, as facts,
with the evidence lines and the summary in both languages."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codexdoctor.checks.sessions.across import across, decide, settle_unclear
from codexdoctor.checks.sessions.classify import classify_session, evidence_said
from codexdoctor.checks.sessions.summary import FAILING_LISTED, Summaries
from codexdoctor.codex.rollout_session import Session
from codexdoctor.common.words import plural
from codexdoctor.model import CheckResult, Msg, Status, item_key


def build_check(
    sessions: list[Session] | Summaries,
    problems: list[str],
    show: Path | str | tuple[str, ...],
    home: str,
    compact_limit: int | None = None,
    kept: Kept | None = None,
) -> CheckResult:
    """`kept`: the sessions were chosen from more (`check`: the active provider's), and how many were read."""
    if isinstance(sessions, Summaries):
        return _build_from(sessions, problems, show, kept)
    data = [classify_session(s, compact_limit) for s in sessions]
    lines_bad = sum(s.bad_lines + s.huge_lines + s.decode_errors + int(s.truncated_tail) for s in sessions)
    failing = [d for d in data if d["kind"] != "none"]
    return _build_from(Summaries(data, failing, len(data), len(failing), lines_bad), problems, show, kept)


@dataclass(frozen=True)
class Kept:
    """Sessions chosen from the ones read: how many were read, and what the chosen ones have in common, said after
    their count (`of provider `sim``, `属于提供方 sim`). Issue 40 review: `report` said "5 sessions" in its check part and
    "6 sessions" in its sessions part, from the same folder."""

    read: int
    which: Msg


def _build_from(
    summaries: Summaries, problems: list[str], shown: Path | str | tuple[str, ...], kept: Kept | None = None
) -> CheckResult:
    # Several folders (sessions and archived_sessions) are listed `a, b`, in Chinese `a、b` (issue 40).
    places = shown if isinstance(shown, tuple) else (str(shown),)
    show = ", ".join(places)
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
    evidence = _read_evidence(summaries, problems, Msg.join(places), facts["not_listed"], kept)
    if not data:
        none = Msg("no session logs found in {where}", "在 {where} 中没有找到会话日志", where=Msg.join(places))
        return CheckResult("ctx.sessions", "Session logs", Status.SKIP, str(none), facts, tuple(evidence), message=none)
    failing = [d for d in summaries.failing if d["kind"] in ("context", "channel", "unknown")]
    decision = decide(failing)
    facts["decision"] = decision[0] if decision else None
    said = {"decision_reason": decision[1]} if decision else {}
    said.update((item_key("evidence", d["evidence"]), w) for d in failing if (w := evidence_said(d)) is not None)
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
    text = counted(summaries.total, summaries.failed, sorted({d["kind"] for d in failing}), kept)
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


def _read_evidence(
    summaries: Summaries, problems: list[str], where: Msg, not_listed: int, kept: Kept | None = None
) -> list[Msg]:
    """What was read (and which of it was kept), what could not be, and what was counted but not listed."""
    n = summaries.total
    read = Msg(
        "{sessions} read from {where}",
        "从 {where} 读取了 {n:,} 个会话",
        sessions=plural(kept.read if kept else n, "session"),
        n=kept.read if kept else n,
        where=where,
    )
    if kept is not None:
        read = Msg("{read}; {n:,} {which}", "{read}，其中 {n:,} 个{which}", read=read, n=n, which=kept.which)
    evidence = [read]
    evidence += [Msg("read problem: {p}", "读取问题：{p}", p=p) for p in problems[:5]]
    if not_listed > 0:
        evidence.append(
            Msg(
                "{sessions} counted but not listed",
                "{n:,} 个较早的会话已计数但未列出",
                sessions=plural(not_listed, "older session"),
                n=not_listed,
            )
        )
    if summaries.unreadable_lines:
        bad = summaries.unreadable_lines
        evidence.append(
            Msg(
                "{lines} skipped (half-written, corrupted, overlong or non-UTF-8)",
                "跳过了 {n:,} 行无法读取的内容（写了一半、已损坏、过长或不是 UTF-8）",
                lines=plural(bad, "unreadable line"),
                n=bad,
            )
        )
    return evidence


def _sessions_counted(total: int, kept: Kept | None) -> Msg:
    """`12 sessions`; `5 of 6 sessions of provider `sim``; all of them kept: `all 6 sessions are of provider `sim``."""
    if kept is None:
        return Msg("{sessions}", "{n:,} 个会话", sessions=plural(total, "session"), n=total)
    if kept.read == total > 1:
        return Msg(
            "all {sessions} are {which}",
            "{n:,} 个会话，都{which}",
            sessions=plural(total, "session"),
            n=total,
            which=kept.which,
        )
    if kept.read == total:
        return Msg(
            "{sessions} {which}", "{n:,} 个会话，{which}", sessions=plural(total, "session"), n=total, which=kept.which
        )
    return Msg(
        "{n:,} of {sessions} {which}",
        "{read:,} 个会话中 {n:,} 个{which}",
        n=total,
        sessions=plural(kept.read, "session"),
        read=kept.read,
        which=kept.which,
    )


def counted(total: int, failed: int, kinds: list[str], kept: Kept | None = None) -> Msg:
    """`12 sessions, 3 failed (channel, context)`: the kinds in the words of the sessions table. Chosen from more:
    `5 of 6 sessions of provider `sim`; 5 failed …`, `6 个会话中 5 个属于提供方 sim；5 个失败…`; when every one read is
    kept, `all 6 sessions are of provider `sim``, `6 个会话，都属于提供方 sim`."""
    from codexdoctor.i18n import TABLE_WORDS

    sessions = _sessions_counted(total, kept)
    stop = Msg("; ", "；") if kept is not None else Msg(", ", "，")
    if not kinds:
        return Msg(
            "{sessions}{stop}{failed:,} failed",
            "{sessions}{stop}{failed:,} 个失败",
            sessions=sessions,
            stop=stop,
            failed=failed,
        )
    return Msg(
        "{sessions}{stop}{failed:,} failed ({kinds})",
        "{sessions}{stop}{failed:,} 个失败（{kinds}）",
        sessions=sessions,
        stop=stop,
        failed=failed,
        kinds=Msg.join([Msg.pair(k, TABLE_WORDS[k][1]) for k in kinds]),
    )


def unique_ids(data: list[dict[str, Any]], minimum: int = 8) -> None:
    """Short ids long enough to tell every session apart (Codex ids are time-ordered: the first 8 collide)."""
    ids = [d["id"] for d in data]
    length = minimum
    while length < max((len(i) for i in ids), default=minimum) and len({i[:length] for i in ids}) < len(set(ids)):
        length += 1
    for d in data:
        cut = length + 1 if d["id"][length - 1 : length] == "-" else length  # never end on the dash
        d["short_id"] = d["id"][:cut]
