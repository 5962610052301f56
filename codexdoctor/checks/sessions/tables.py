"""The `sessions` report's text sections: the sessions table (context per turn, how each ended) and its charts,
in the report's language. Apart from the rest of this package, which reads and judges the rollouts: this only lays
out the facts that check gathered."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from codexdoctor.common.untrusted import clip
from codexdoctor.common.words import plural
from codexdoctor.model import CheckResult, Section

_HEADERS_ZH = ("会话", "开始", "codex", "模型", "轮数", "峰值上下文", "占窗口", "压缩次数", "结束方式", "失败类型")
_HEADERS_EN = (
    "session",
    "start",
    "codex",
    "model",
    "turns",
    "peak context",
    "of window",
    "compactions",
    "ended",
    "failure",
)


def sections(check: CheckResult, detail_ids: set[str], lang: str = "en") -> list[Section]:
    zh = lang == "zh"

    def t(en: str, cn: str) -> str:
        return cn if zh else en

    data = check.facts["sessions"]
    if not data:
        return []  # the check's one sentence says it all; an empty table says nothing
    out = [_table(data, check.facts.get("not_listed") or 0, lang, t)]
    for d in data:
        if d["id"] not in detail_ids and d["short_id"] not in detail_ids:
            continue
        points = tuple((float(i + 1), float(c)) for i, c in enumerate(d["contexts"]))
        out.append(
            Section(
                f"session.{d['short_id']}",
                t("Session ", "会话 ") + d["short_id"],
                chart=points,
                chart_x=t("turn", "轮次"),
                chart_y=t("context tokens", "上下文 token 数"),
                lines=tuple(_detail(d, t)),
            )
        )
    return out


def _table(data: list[Mapping[str, Any]], hidden: int, lang: str, t: Callable[[str, str], str]) -> Section:
    """The table of sessions, one row each, and a line for the ones read but not listed."""
    from codexdoctor.i18n import table_word

    rows = []
    for d in data:
        peak = f"{d['peak']:,}" if d["peak"] else "-"
        share = f"{d['share']:.0%}" if d["share"] is not None else "-"
        rows.append(
            (
                d["short_id"],
                (d["start"] or "-")[:16].replace("T", " "),
                d["cli_version"] or "-",
                d["model"] or "-",
                d["turns"],
                peak,
                share,
                d["compactions"],
                table_word(d["ended"], lang),
                table_word(d["kind"], lang) if d["kind"] != "none" else "-",
            )
        )
    headers = _HEADERS_ZH if lang == "zh" else _HEADERS_EN
    note = (
        t(
            f"{plural(hidden, 'older session')} {'was' if hidden == 1 else 'were'} read and counted but {'is' if hidden == 1 else 'are'} not listed; --last, --since or --session "
            "selects others.",
            f"另有 {hidden:,} 个较早的会话已读取并计入，但没有列出；用 --last、--since 或 --session 选择其他会话。",
        ),
    )
    return Section("sessions.summary", t("Sessions", "会话"), headers, tuple(rows), lines=note if hidden > 0 else ())


def _detail(d: Mapping[str, Any], t: Callable[[str, str], str]) -> list[str]:
    """The lines under one session's chart: its window and compaction, growth, error, truncation, outsized turns,
    cache, the previews (only with --show-content) and a legacy log's caveat."""
    window = f"{d['window']:,}" if d["window"] else t("unknown", "未知")
    # No "~?" for a window the log did not record (issue 40): say the compaction point is unknown.
    compact_en = f"auto-compaction at ~{d['compact_at']:,}" if d["compact_at"] else "auto-compaction point unknown"
    compact_zh = f"自动压缩约在 {d['compact_at']:,}" if d["compact_at"] else "自动压缩点未知"
    lines = [
        t(
            f"window (Codex's, effective): {window}; {compact_en}; compactions: {d['compactions']}",
            f"窗口（Codex 的有效窗口）：{window}；{compact_zh}；压缩次数：{d['compactions']}",
        )
    ]
    if d["median_growth"]:
        lines.append(
            t(
                f"median growth per turn: {d['median_growth']:,.0f} tokens",
                f"每轮增长中位数：{d['median_growth']:,.0f} 个 token",
            )
        )
    if d["error"]:
        lines.append(
            (
                t(f"failed at turn {d['failed_turn']}: ", f"在第 {d['failed_turn']} 轮失败：")
                if d["failed_turn"]
                else t("error: ", "错误：")
            )
            + clip(d["error"], 160)
        )
    if d.get("truncated_at"):
        lines.append(
            t(
                f"input tokens stuck at {d['truncated_at']:,} in turns {', '.join(map(str, d['truncated_turns']))}: "
                "the provider cut the history",
                f"第 {'、'.join(map(str, d['truncated_turns']))} 轮的输入 token 数停在 {d['truncated_at']:,}：提供方截断了历史",
            )
        )
    for o in d["outsized"]:
        lines.append(
            t(f"turn {o['turn']} added {o['added']:,} tokens", f"第 {o['turn']} 轮新增 {o['added']:,} 个 token")
        )
    if d["cache"]["reported"]:
        lines.append(
            t("cached share per turn: ", "每轮缓存命中比例：")
            + ", ".join(f"{i}:{r:.0%}" for i, r in d["cache"]["turns"][:40])
        )
    for preview in d["previews"][:20]:
        lines.append(f"> {preview}")
    if d["legacy"]:
        lines.append(
            t(
                "legacy rollout format (before Sep 2025): no token counts were recorded, so context size is unknown",
                "旧版日志格式（2025 年 9 月以前）：没有记录 token 数，无法得知上下文大小",
            )
        )
    return lines
