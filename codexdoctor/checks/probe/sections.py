"""The probe's two report sections: the table of its steps (with the first-token chart) and what it measured."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from codexdoctor.checks.probe.steps import ProbeOutcome
from codexdoctor.model import Section


def steps_section(outcome: ProbeOutcome, lang: str = "en") -> Section:
    from codexdoctor.i18n import table_word

    zh = lang == "zh"
    rows = []
    for i, s in enumerate(outcome.steps, 1):
        rows.append(
            (
                i,
                table_word(s.phase, lang),
                f"{s.sent:,}",
                "-" if s.ttft_ms is None else f"{s.ttft_ms:,.0f}",
                "-" if s.max_gap_ms is None else f"{s.max_gap_ms:,.0f}",
                table_word("ok" if s.ok else s.kind, lang, s.detail_in(lang)),
            )
        )
    points = tuple((float(s.sent), float(s.ttft_ms)) for s in outcome.steps if s.ok and s.ttft_ms is not None)
    headers = (
        ("#", "阶段", "发送的 token 数", "首字 ms", "最长停顿 ms", "结果")
        if zh
        else ("#", "phase", "tokens sent", "first token ms", "longest gap ms", "result")
    )
    return Section(
        "probe.steps",
        "会话探测步骤" if zh else "Session probe steps",
        headers,
        tuple(rows),
        points,
        "发送的 token 数" if zh else "tokens sent",
        "首字延迟（ms）" if zh else "time to first token (ms)",
    )


def summary_section(facts: Mapping[str, Any], lang: str = "en") -> list[Section]:
    zh = lang == "zh"

    def t(en: str, cn: str) -> str:
        return cn if zh else en

    lines = _window_lines(facts, t)
    # Issue 40: "Stages seen: 3 failure" read as a count of failures; each stage is named with what it means.
    stages = [
        name
        for name, key in (
            (t("stage 1 (the first token comes later as the session grows)", "第 1 阶段（首字延迟增长）"), "stage1"),
            (t("stage 2 (answers stall mid-stream)", "第 2 阶段（回答中途停顿）"), "stage2"),
            (t("stage 3 (requests fail)", "第 3 阶段（请求失败）"), "stage3"),
        )
        if facts.get(key)
    ]
    lines.append(t("Stages seen: ", "出现的阶段：") + ((t("; ", "、")).join(stages) if stages else t("none", "无")))
    cache = facts.get("cache")
    if cache:
        lines.append(_cache_line(cache, t))
    if facts.get("turns_per_session") is not None:
        lines.extend(_turns_line(facts, t))
    return [Section("probe.summary", t("Measured", "测量结果"), lines=tuple(lines))]


def _turns_line(facts: Mapping[str, Any], t: Callable[[str, str], str]) -> list[str]:
    """Turns per session, said as sure as the window is known: a number for a confirmed break, "at least" where every
    request worked up to where the probe stopped (the window is at least that, the turns at least as many), unknown
    where that lower bound is too small to hold a session. A command goes on a line of its own."""
    turns, per = facts["turns_per_session"], f"{facts['turn_tokens']:,}"
    # Codex's first request is counted in (facts["first_request"]) but not quoted: `check` quotes it, in the
    # provider's own count when it answered, which this probe never sends (issue 40: one number for one fact).
    on_top = t(" on top of Codex's first request", "，加上 Codex 的第一个请求")
    low = facts.get("usable") or facts.get("last_ok") or 0
    head = t("Turns per session to stay under 70% of the window: ", "保持在窗口 70% 以下的每会话轮数：")
    if turns == 0 and facts.get("turns_bound") != "about":
        # Review 1, point 10: "no session fits" from a window known only to be at least this large (no break found):
        # the turns are unknown until the probe reaches further.
        cmd = facts.get("further_cmd")
        said = head + t(
            f"unknown; the window is at least {low:,} tokens, too few to tell whether a Codex session fits. "
            + ("Probe further:" if cmd else "Probe further with a larger --max-context."),
            f"未知；窗口至少有 {low:,} 个 token，还不足以判断能否放下一个 Codex 会话。"
            + ("探测更大的范围：" if cmd else "用更大的 --max-context 探测更大的范围。"),
        )
        return [said, f"  {cmd}"] if cmd else [said]
    if turns == 0:  # issue 40: "at least 0" said nothing; a confirmed break: no session fits in this window
        return [
            head
            + t(
                f"none; Codex's first request alone is past 70% of the {low:,} tokens that worked, so no session fits",
                f"一轮也没有；仅 Codex 的第一个请求就超过了已验证可用的 {low:,} 个 token 的 70%，所以放不下任何会话",
            )
        ]
    if facts.get("turns_bound") == "about":
        return [head + t(f"{turns} (at ~{per} tokens per turn{on_top})", f"{turns}（按每轮约 {per} 个 token{on_top}）")]
    return [
        head
        + t(
            f"at least {turns}, since the window is at least {low:,} tokens (at ~{per} tokens per turn{on_top})",
            f"至少 {turns}，因为窗口至少有 {low:,} 个 token（按每轮约 {per} 个 token{on_top}）",
        )
    ]


def _window_lines(facts: Mapping[str, Any], t: Callable[[str, str], str]) -> list[str]:
    """The usable window the search found, and whether its break held when repeated."""
    lines = []
    if facts.get("last_ok") and facts.get("first_fail"):
        low, high = facts["last_ok"], facts["first_fail"]
        spread = (high - low) / low * 100
        lines.append(
            t(
                f"Usable window: about {low:,} tokens (break between {low:,} and {high:,}, within {spread:.1f}%)",
                f"可用窗口：约 {low:,} 个 token（断点在 {low:,} 到 {high:,} 之间，误差 {spread:.1f}% 以内）",
            )
        )
        stable = facts.get("stable")
        lines.append(
            t("Breakpoint: ", "断点：")
            + (
                t("stable", "稳定")
                if stable
                else t("unstable", "不稳定")
                if stable is False
                else t("not confirmed", "未确认")
            )
        )
    elif facts.get("no_break"):
        # The largest request that worked, as the provider counted it: the number the turns line stands on too.
        low = facts.get("usable") or facts["max_context"]
        lines.append(
            t(
                f"Usable window: at least {low:,} tokens (no break found)",
                f"可用窗口：至少 {low:,} 个 token（未发现断点）",
            )
        )
    return lines


def _cache_line(cache: Mapping[str, Any], t: Callable[[str, str], str]) -> str:
    """The prefix-cache step in one line: its verdict, the cached tokens it was read from, the first-token times."""
    runs = cache["runs"]

    def shown(v: object) -> str:
        return f"{v}" if v is not None else t("not reported", "未报告")

    verdict = {
        "works": t("works", "有效"),
        "not working": t("not working", "无效"),
        "not reported": t("not reported", "未报告"),
        "failed": t("failed", "失败"),
    }[cache["verdict"]]
    ttfts = " / ".join(f"{runs[k]['ttft_ms'] or 0:,.0f}" for k in ("first", "repeat", "changed_start"))
    return t(
        f"Prefix cache: {verdict} (cached tokens: repeated prefix {shown(runs['repeat']['cached'])}, "
        f"changed start {shown(runs['changed_start']['cached'])}; first token {ttfts} ms)",
        f"前缀缓存：{verdict}（缓存命中 token：重复前缀 {shown(runs['repeat']['cached'])}，"
        f"改动开头 {shown(runs['changed_start']['cached'])}；首字延迟 {ttfts} ms）",
    )
