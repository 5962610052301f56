"""Across sessions: do the failures of one provider, model and window break at one size (the context) or wander
(the channel)? That also settles a session whose message alone could not (issue 39), and, when sessions failed both
ways, which cause the report leads with."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.checks.sessions.stats import _median
from codexdoctor.common.words import plural
from codexdoctor.i18n import KIND_WORDS
from codexdoctor.model import Msg

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
        # What the sessions' logs record (`compacted` items, context_compacted events): CTX014 says it, never a guess.
        "compactions": sum(int(s.get("compactions") or 0) for s in failures),
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
                compactions=sum(int(d.get("compactions") or 0) for _, d in core),
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


def settle_unclear(d: dict[str, Any], in_cluster: bool, scattered: bool) -> None:
    """What the other sessions of its provider say about a session whose message alone could not (issue 39): one
    size every time is the context, breaks that wander are the channel; alone it stays unknown (CTX031)."""
    if not d.get("unclear") or d.get("settled"):
        return
    if in_cluster:
        d.update(kind="context", settled="cluster", evidence="a stable break point across sessions")
    elif scattered:
        d.update(kind="channel", settled="scattered", evidence="breaks that wander across sessions")


# The two kinds in the words of the verdict line and the sessions table (i18n.KIND_WORDS); the English as it is.
_KIND_WORDS = {kind: Msg.pair(kind, KIND_WORDS[kind]) for kind in ("context", "channel")}


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
        "{n:,} 个失败会话是{lead}问题，{m} 个是{other}问题；最近一次失败（{when}）是{kind}问题",
        sessions=plural(counts[lead], "failed session"),
        n=counts[lead],
        lead=_KIND_WORDS[lead],
        m=counts[other],
        other=_KIND_WORDS[other],
        when=when,
        kind=_KIND_WORDS[str(latest["kind"])],
    )
    # `latest`: the session the reason ends with, by the short id the findings name it by (report/build.py cites them)
    return {"verdict": lead, "reason": str(reason), "latest": str(latest.get("short_id") or latest["id"])}, reason
