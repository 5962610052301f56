"""What a session log shows of the provider's window and of Codex's compactions, in both languages: a request the
provider answered is a size its window held (never where the session "overflowed"), and "never compacted" is said only
when the log records no compaction (issue 40 review)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.rules.base import Loc


def real_text(d: Mapping[str, Any]) -> Loc:
    """The provider's real window as the log shows it, and whether Codex compacted (issue 40 review: "Codex never
    compacted in time" beside a table that counted one compaction). A window read from the largest request that
    worked is at least that size, not about it: the request was answered."""
    real, peak, n = int(d["real_window"]), d.get("peak") or 0, int(d.get("compactions") or 0)
    window = (
        Loc(
            f"the provider's real window is at least {real:,} tokens (a request that large was answered) and smaller "
            f"than the request of turn {d.get('failed_turn') or '?'}",
            f"提供方的真实窗口至少有 {real:,} 个 token（这么大的请求得到过回答），但放不下第 {d.get('failed_turn') or '?'} 轮的请求",
        )
        if real == d.get("last_ok") and peak >= real and not d.get("server_window") and not d.get("truncated_at")
        else Loc(f"the provider's real window is about {real:,} tokens", f"提供方的真实窗口只有约 {real:,} 个 token")
    )
    compacted = (
        Loc(
            f"Codex compacted {'once' if n == 1 else f'{n} times'}, which was not enough.",
            f"Codex 压缩过 {n} 次，仍然不够。",
        )
        if n
        else Loc("Codex never compacted in time.", "Codex 没来得及压缩。")
    )
    return Loc(
        f" That is far below the window Codex assumes, so {window.en}. {compacted.en}",
        f"这远低于 Codex 假定的窗口，说明{window.zh}。{compacted.zh}",
    )


def answered_then_failed(d: Mapping[str, Any]) -> Loc:
    """What the log shows of the limit: the largest request the provider answered (a size its window held, never
    where the session "overflowed": issue 40 review, "overflowed at 8,477" about a request that was answered) and the
    turn that then failed on the context."""
    peak, turn = d.get("peak"), d.get("failed_turn")
    failed = (
        Loc(f"the request of turn {turn}", f"第 {turn} 轮的请求") if turn else Loc("a later request", "之后的一个请求")
    )
    if peak:
        return Loc(
            f"the largest request the provider answered held {peak:,} tokens (its window holds at least that) and "
            f"{failed.en} then failed on the context",
            f"提供方答复过的最大请求有 {peak:,} 个 token（它的窗口至少有这么大），之后{failed.zh}因上下文失败",
        )
    return Loc(
        f"no request was answered before {failed.en} failed on the context",
        f"{failed.zh}因上下文失败，在此之前没有请求得到答复",
    )


def compactions_recorded(d: Mapping[str, Any]) -> Loc | str:
    """The compactions the session's log records, when there were any (CTX017 says why the automatic one came too
    late; a count beside it says what did happen)."""
    n = int(d.get("compactions") or 0)
    if not n:
        return ""
    return Loc(
        f" Its log records {'one compaction' if n == 1 else f'{n} compactions'}, and the session still failed.",
        f"日志记录了 {n} 次压缩，会话仍然失败了。",
    )


def group_compactions(g: Mapping[str, Any]) -> Loc | str:
    """CTX014's words on compaction, from the count its sessions' logs record (issue 40 review: "Codex never
    compacted" was said without looking); nothing when the count is not known."""
    n = g.get("compactions")
    if n is None:
        return ""
    if not n:
        return Loc(
            " Codex never compacted in them: it only compacts near the window it assumes.",
            "这些会话里 Codex 从未压缩：它只在接近自己假定的窗口时才压缩。",
        )
    return Loc(
        f" Their logs record {'one compaction' if n == 1 else f'{n} compactions'}, and the sessions still broke at "
        "that size: on its own Codex compacts only near the window it assumes.",
        f"日志记录了 {n} 次压缩，这些会话仍然断在这个大小：Codex 自己只在接近假定的窗口时才压缩。",
    )


def truncation_compactions(d: Mapping[str, Any]) -> Loc:
    n = int(d.get("compactions") or 0)
    if not n:
        return Loc("Codex never saw an error and never compacted.", "Codex 没有看到任何错误，也从未压缩。")
    return Loc(
        f"Codex never saw an error, and its log records {'one compaction' if n == 1 else f'{n} compactions'} in this "
        "session.",
        f"Codex 没有看到任何错误，日志记录了这个会话中的 {n} 次压缩。",
    )
