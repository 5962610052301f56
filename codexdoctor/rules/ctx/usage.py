"""CTX, how sessions used the context when nothing failed because of it: a turn that added an outsized amount, the
provider's prefix cache (collapsed mid-session, or cold for the late turns), and log lines that could not be read.
Each reads the same `ctx.sessions` facts as sessions.py's rules, which judge how sessions ended."""

from __future__ import annotations

from codexdoctor.rules.base import CONTEXT, I, Rule, Text, W, once

RULES: tuple[Rule, ...] = (
    Rule(
        code="CTX016",
        name="outsized-turn",
        check="ctx.sessions",
        reads=("sessions",),
        severity=I,
        verdict=CONTEXT,
        en=Text(
            title="One turn added an outsized amount of context",
            diagnosis="In session {short_id}, turn {turn} added {added} tokens (median growth {median_growth} per turn). That material "
            "is resent with every later request.",
            remedy=(
                "Ask such side questions in a separate session, or start a new session after a large tool output.",
            ),
        ),
        zh=Text(
            title="某一轮新增了异常多的上下文",
            diagnosis="在会话 {short_id} 中，第 {turn} 轮新增了 {added} 个 token（每轮增长的中位数为 {median_growth}）。这些内容会随之后的每一次请求重复发送。",
            remedy=("把这类旁支问题放到单独的会话里问，或在大段工具输出之后开一个新会话。",),
        ),
        when=lambda f: [
            {**o, "short_id": d["short_id"], "median_growth": int(d["median_growth"] or 0)}
            for d in f.get("sessions", [])
            for o in d["outsized"][:3]
        ],
    ),
    Rule(
        code="CTX018",
        name="unreadable-log-lines",
        check="ctx.sessions",
        reads=("unreadable_lines",),
        severity=I,
        verdict=CONTEXT,
        en=Text(
            title="Some log lines could not be read",
            diagnosis="{unreadable_lines:count:line} were half-written, corrupted, overlong or not UTF-8 and were skipped; the rest was read.",
            remedy=(
                "Nothing to do unless a session you care about is affected; Codex may still be writing the newest log.",
            ),
        ),
        zh=Text(
            title="部分日志行无法读取",
            diagnosis="有 {unreadable_lines} 行是写了一半、损坏、过长或非 UTF-8 的，已跳过；其余内容正常读取。",
            remedy=("除非你关心的会话受到影响，否则无需处理；Codex 可能还在写最新的日志。",),
        ),
        when=once(lambda f: f.get("unreadable_lines", 0) > 0),
    ),
    Rule(
        code="CTX019",
        name="prefix-cache-collapsed",
        check="ctx.sessions",
        reads=("sessions",),
        severity=W,
        verdict=CONTEXT,
        en=Text(
            title="The prefix cache stopped working mid-session",
            diagnosis="In session {short_id}, the share of input served from the provider's cache fell from {before_pct} to {after_pct} at "
            "turn {turn} while the context kept growing ({context} tokens): the start of the request changed (edited "
            "instructions, a new tool set or a model switch), so every later turn is computed from scratch.",
            remedy=(
                "Keep the start of a session stable: same instructions, same tools, same model.",
                "If you need different instructions, start a new session rather than rewriting the current one.",
            ),
        ),
        zh=Text(
            title="前缀缓存在会话中途失效",
            diagnosis="在会话 {short_id} 中，第 {turn} 轮起从提供方缓存命中的输入比例从 {before_pct} 降到 {after_pct}，而上下文仍在增长（{context} 个 token）：请求的开头变了（改了指令、换了工具集或切换了模型），之后每一轮都要从头计算。",
            remedy=(
                "保持会话开头稳定：同样的指令、同样的工具、同样的模型。",
                "如果需要不同的指令，开一个新会话，而不是改写当前会话的开头。",
            ),
        ),
        when=lambda f: [
            {
                **d["cache"]["collapse"],
                "short_id": d["short_id"],
                "before_pct": f"{d['cache']['collapse']['before']:.0%}",
                "after_pct": f"{d['cache']['collapse']['after']:.0%}",
            }
            for d in f.get("sessions", [])
            if d["cache"]["collapse"]
        ],
    ),
    Rule(
        code="CTX020",
        name="late-turns-uncached",
        check="ctx.sessions",
        reads=("sessions",),
        severity=W,
        verdict=CONTEXT,
        en=Text(
            title="Late turns are mostly uncached",
            diagnosis="In session {short_id}, only {late_pct} of the input of the last third of the turns came from the provider's "
            "cache: each turn re-reads the whole history, and time to first token grows turn after turn.",
            remedy=(
                "Split long sessions sooner; keep the session's start identical across turns.",
                "On a self-hosted server, enable prefix caching (vLLM: --enable-prefix-caching; llama.cpp server: --cache-reuse N).",
            ),
        ),
        zh=Text(
            title="后期的轮次大多没有命中缓存",
            diagnosis="在会话 {short_id} 中，最后三分之一轮次的输入只有 {late_pct} 来自提供方缓存：每一轮都在重新读取整段历史，首字延迟一轮比一轮长。",
            remedy=(
                "更早地拆分长会话；让会话开头在各轮之间保持一致。",
                "自建服务时开启前缀缓存（vLLM：--enable-prefix-caching；llama.cpp server：--cache-reuse N）。",
            ),
        ),
        when=lambda f: [
            {"short_id": d["short_id"], "late_pct": f"{d['cache']['late_share']:.0%}"}
            for d in f.get("sessions", [])
            if d["cache"]["late_uncached"]
        ],
    ),
)
