"""CTX, the session probe: the three stages, the break point and its stability, the prefix cache."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.i18n import table_word
from codexdoctor.rules.base import CHANNEL, CONTEXT, E, I, Loc, Rule, Text, W, once


def _kinds(kinds: list[str], empty: Loc | None = None) -> Loc:
    """Failure kinds in words (`server error (5xx)`), never as the internal ids (`server_error`)."""
    if not kinds:
        return empty or Loc("failed", "失败")
    return Loc(", ".join(table_word(k, "en") for k in kinds), "、".join(table_word(k, "zh") for k in kinds))


SERVER_CACHE_STEPS = {
    "vllm": Loc(
        "On your vLLM server, start it with --enable-prefix-caching (the default in recent versions; check it was not "
        "disabled).",
        "在你的 vLLM 服务上用 --enable-prefix-caching 启动（新版本默认开启；检查它没有被关掉）。",
    ),
    "llama.cpp": Loc(
        "On your llama.cpp server, keep prompt caching on (cache_prompt, the default) and allow KV reuse with "
        "`llama-server --cache-reuse 256`.",
        "在你的 llama.cpp 服务上保持提示缓存开启（cache_prompt，默认开启），并用 `llama-server --cache-reuse 256` "
        "允许 KV 复用。",
    ),
}


HOSTED_CACHE_STEP = Loc(
    "If the provider is a hosted gateway, ask whether it supports prompt (prefix) caching for this model.",
    "如果提供方是托管网关，询问它是否对这个模型支持提示（前缀）缓存。",
)


def _cache_params(f: Mapping[str, Any]) -> dict[str, Any]:
    runs = (f.get("cache") or {}).get("runs", {})
    first, repeat = runs.get("first", {}), runs.get("repeat", {})

    def ms(v: object) -> str | Loc:
        return f"{v:,.0f} ms" if isinstance(v, (int, float)) else Loc("unknown", "未知")

    return {
        "prefix_tokens": f"{first.get('sent', 0):,}",
        "repeat_cached": repeat.get("cached", 0),
        "first_ttft": ms(first.get("ttft_ms")),
        "repeat_ttft": ms(repeat.get("ttft_ms")),
        "server_step": SERVER_CACHE_STEPS.get(f.get("family") or "", HOSTED_CACHE_STEP),
    }


def _num(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _session_advice(f: Mapping[str, Any]) -> Loc:
    turns = f.get("turns_per_session") or 0
    if turns < 1:
        # No count of Codex's first request here: `check` quotes it, in the provider's own count (issue 40).
        from codexdoctor.codex.sizes import too_small_for_codex

        if too_small_for_codex(int(f.get("suggest_window") or f.get("last_ok") or 0), f.get("first_request")):
            return Loc(
                "Start no session here: this window cannot hold Codex's own first request.",
                "不要在这里开会话：这个窗口连 Codex 自己的第一个请求都放不下。",
            )
        per = _num(f.get("turn_tokens"))
        return Loc(
            f"Codex's own first request and one turn (about {per} tokens) already pass 70% of this window: Codex "
            "compacts, or fails, after every turn or two. Serve the model with a larger window (32,768 leaves room "
            "for a session).",
            f"Codex 自己的第一个请求再加一轮（约 {per} 个 token）就已超过这个窗口的 70%：Codex 每一两轮就要压缩，"
            "甚至失败。请用更大的窗口部署模型（32,768 才能给会话留出空间）。",
        )
    return Loc(
        f"Start a new session every {turns} turns (at about {_num(f.get('turn_tokens'))} tokens per turn, that stays under "
        "70% of the window).",
        f"每 {turns} 轮开一个新会话（按每轮约 {_num(f.get('turn_tokens'))} 个 token 计，可保持在窗口的 70% 以下）。",
    )


def _repeat_text(f: Mapping[str, Any]) -> Loc:
    """What the repeats at both edges showed. Issue 40: "every time" after `--repeat 1`, where each edge was sent
    once more."""
    n = f.get("repeat")
    if n == 1:
        return Loc("once more gave the same result", "一次，结果相同")
    if isinstance(n, int) and n > 1:
        return Loc(f"{n} times gave the same result every time", f" {n} 次，结果每次都一样")
    return Loc("gave the same result every time", "结果每次都一样")


def _window_advice(f: Mapping[str, Any]) -> Loc:
    """The config lines for the window the probe found, or, for a window under Codex's first request, the one
    conclusion every command gives (rules/ctx/advice.py): no setting helps (issue 40)."""
    from codexdoctor.codex.sizes import too_small_for_codex
    from codexdoctor.rules.ctx.advice import window_step

    window, cfg = f.get("suggest_window"), f.get("user_config") or "~/.codex/config.toml"
    first = f.get("first_request")
    if not isinstance(window, int) or too_small_for_codex(window, first):
        return window_step(int(window or f.get("last_ok") or 0), cfg, first)
    said = (
        Loc(
            "the window the provider publishes, which this probe confirmed (the break lies at it)",
            "提供方公布、并经这次探测证实的窗口（断点正在那里）",
        )
        if f.get("suggest_from") == "published"
        else Loc(
            "the window this probe measured (the largest request that worked; not a published number)",
            "这次探测测得的窗口（成功的最大请求，不是提供方公布的数字）",
        )
    )
    lines = f"model_context_window = {window}\nmodel_auto_compact_token_limit = {f.get('suggest_compact')}"
    return Loc(
        f"Tell Codex {said.en} so it compacts in time: add at the top level of {cfg}:\n{lines}",
        f"把{said.zh}告诉 Codex，让它及时压缩：在 {cfg} 顶层添加：\n{lines}",
    )


STOPPED_WORDS = {
    "budget": Loc("at the budget", "在预算处"),
    "deadline": Loc("at the deadline", "在时限处"),
    "interrupted": Loc("by Ctrl-C", "因 Ctrl-C 而"),
    "requests": Loc("at the planned number of requests", "在计划的请求数处"),
}


def _learned(f: Mapping[str, Any]) -> Loc:
    """What a probe that stopped early learned of the window: the largest request that worked, whatever its phase
    (review 1, point 14: "works up to 1,004" when 4,043-token requests had worked), or that it learned nothing yet
    (point 13: "works up to (none) tokens")."""
    worked, single = f.get("worked_up_to"), f.get("single_tokens")
    if worked:
        return Loc(f"works up to {worked:,} tokens", f"{worked:,} 个 token 以内正常")
    if not single:
        return Loc("nothing yet: no request was sent", "还什么都不知道：没有发送任何请求")
    if f.get("larger_sent"):
        return Loc(
            f"nothing yet: no request larger than the single question ({single:,} tokens) worked",
            f"还什么都不知道：比单次提问（{single:,} 个 token）大的请求没有一个成功",
        )
    return Loc(
        f"nothing yet: only the single question ({single:,} tokens) was sent",
        f"还什么都不知道：只发送了单次提问（{single:,} 个 token）",
    )


RULES: tuple[Rule, ...] = (
    Rule(
        code="CTX004",
        name="latency-grows-with-context",
        check="ctx.probe",
        reads=(
            "baseline_ttft_ms",
            "largest_ok",
            "largest_ttft_ms",
            "slope_ms_per_1k",
            "stage1",
            "ttft_ratio",
            "turns_per_session",
        ),
        severity=W,
        verdict=CONTEXT,
        en=Text(
            title="Stage 1: time to first token grows with the session",
            diagnosis="Time to first token rose from {baseline_text} (a single question) to {largest_ttft_text} at {largest_ok} tokens "
            "({ttft_ratio}x; about {slope_ms_per_1k} ms per 1,000 tokens of history). Every turn re-reads the whole history.",
            remedy=(
                "Start a new session every {turns_text} turns and carry a 5-line summary of the conclusions instead of the history.",
                "Keep the start of the session stable (same instructions and tools) so a provider with prefix caching can reuse it.",
                "Move side questions to a separate session: their answers otherwise ride along in every later request.",
            ),
        ),
        zh=Text(
            title="第一阶段：首字延迟随会话增长",
            diagnosis="首字延迟从 {baseline_text}（单次提问）涨到了 {largest_ok} 个 token 时的 {largest_ttft_text}（{ttft_ratio} 倍；每 1,000 个 token 历史约增加 {slope_ms_per_1k} ms）。每一轮都要把整段历史重新读一遍。",
            remedy=(
                "每 {turns_text} 轮开一个新会话，带一段 5 行的结论总结，而不是整段历史。",
                "保持会话开头不变（同样的指令和工具），让支持前缀缓存的提供方能够复用。",
                "把旁支问题放到单独的会话里：否则它们的回答会跟着之后的每一次请求重复发送。",
            ),
        ),
        when=once(lambda f: f["stage1"]),
    ),
    Rule(
        code="CTX005",
        name="mid-stream-stalls",
        check="ctx.probe",
        reads=("baseline_ttft_ms", "longest_stall_ms", "stage2", "stall_count", "stall_threshold_s"),
        severity=W,
        verdict=CONTEXT,
        en=Text(
            title="Stage 2: the answer stalls mid-stream",
            diagnosis="{stall_count:count:answer} went silent for at least {stall_threshold_s} s after text had started "
            "(longest {longest_stall_text}). Under cache pressure this comes before outright failures.",
            remedy=(
                "Shorten sessions (see the turns-per-session advice); if stalls reach stream_idle_timeout_ms, Codex reports "
                "`idle timeout waiting for SSE`.",
                "If stalls also happen with short sessions, the provider is overloaded: run `codexdoctor probe` again later.",
            ),
        ),
        zh=Text(
            title="第二阶段：回答中途卡住",
            diagnosis="有 {stall_count} 个回答在开始输出后停顿了至少 {stall_threshold_s} 秒（最长 {longest_stall_text}）。在缓存压力下，这会出现在明确失败之前。",
            remedy=(
                "缩短会话（参考每个会话的轮数建议）；如果停顿达到 stream_idle_timeout_ms，Codex 会报 `idle timeout waiting for SSE`。",
                "如果短会话也会停顿，说明提供方过载：稍后再运行一次 `codexdoctor probe`。",
            ),
        ),
        when=once(lambda f: f["stage2"]),
    ),
    Rule(
        code="CTX006",
        name="stable-breakpoint",
        check="ctx.probe",
        reads=(
            "context_kinds",
            "first_request",
            "failure_kinds",
            "first_fail",
            "last_ok",
            "repeat",
            "stable",
            "suggest_compact",
            "suggest_from",
            "suggest_window",
            "turn_tokens",
            "turns_per_session",
            "user_config",
        ),
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="Stage 3: the session breaks at a stable size",
            diagnosis="A single question works, but the growing session fails from {first_fail} tokens on ({failure_text}); every request "
            "at {last_ok} tokens or less worked, and repeating both {repeat_text}. Usable window: about {last_ok} tokens "
            "(the break lies between {last_ok} and {first_fail}).",
            remedy=(
                "{window_advice}",
                "{session_advice}",
                "Carry a 5-line summary of the conclusions into the next session instead of the history.",
                "Move side questions out of the main session, and keep its start (instructions, tools) unchanged.",
            ),
        ),
        zh=Text(
            title="第三阶段：会话在固定大小处断开",
            diagnosis="单次提问正常，但会话增长到 {first_fail} 个 token 起就失败（{failure_text}）；{last_ok} 个 token 及以下的请求全部成功，两边重复测试{repeat_text}。可用窗口：约 {last_ok} 个 token（断点位于 {last_ok} 到 {first_fail} 之间）。",
            remedy=(
                "{window_advice}",
                "{session_advice}",
                "开新会话时带上一段 5 行的结论总结，而不是整段历史。",
                "把旁支问题移出主会话，并保持会话开头（指令、工具）不变。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "failure_text": _kinds(f.get("context_kinds") or f["failure_kinds"]),
                    "repeat_text": _repeat_text(f),
                    "window_advice": _window_advice(f),
                    "session_advice": _session_advice(f),
                }
            ]
            if f.get("stable") and f.get("last_ok")
            else []
        ),
    ),
    Rule(
        code="CTX007",
        name="unstable-breakpoint",
        check="ctx.probe",
        reads=("failure_kinds", "first_fail", "last_ok", "stable"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Failures do not sit at one size: the channel, not the context",
            diagnosis="Requests just below and just above the apparent break ({last_ok} / {first_fail} tokens) gave mixed results "
            "({failure_text}). A window fails at the same size every time; this looks like rate limits, capacity or timeouts.",
            remedy=(
                "Run `codexdoctor check` for the channel's error codes, and look at the provider's status page and your rate limits.",
                "Retry later or at a quieter time; if it persists, try another region, key or provider.",
            ),
        ),
        zh=Text(
            title="失败并不集中在某个大小：是通道问题，不是上下文",
            diagnosis="在表面断点上下（{last_ok} / {first_fail} 个 token）重复请求，结果时好时坏（{failure_text}）。窗口问题每次都在同一个大小失败；这更像是限流、容量不足或超时。",
            remedy=(
                "运行 `codexdoctor check` 查看通道的错误代码，并查看提供方的状态页和你的限流额度。",
                "稍后或在空闲时段重试；如果持续，换一个区域、密钥或提供方。",
            ),
        ),
        when=lambda f: (
            [{"failure_text": _kinds(f["failure_kinds"], Loc("mixed", "时好时坏"))}] if f.get("stable") is False else []
        ),
    ),
    Rule(
        code="CTX008",
        name="silent-truncation",
        check="ctx.probe",
        reads=("reported_at_truncation", "truncated", "truncated_at", "user_config"),
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="The provider silently cuts the conversation",
            diagnosis="At {truncated_at} tokens the provider answered 200 but counted only {reported_at_truncation} input tokens: it dropped "
            "the start of the conversation without an error (Ollama does this when the prompt exceeds num_ctx). Codex then "
            "forgets earlier turns or repeats itself.",
            remedy=(
                "Raise the server's window: for Ollama, `OLLAMA_CONTEXT_LENGTH=32768 ollama serve` or `PARAMETER num_ctx 32768` in a Modelfile.",
                "Then set model_context_window at the top level of {user_config} to the window the server really has "
                "(here about {reported_at_truncation}).",
            ),
        ),
        zh=Text(
            title="提供方悄悄截断了对话",
            diagnosis="在 {truncated_at} 个 token 时，提供方返回 200，却只计了 {reported_at_truncation} 个输入 token：它没有报错，直接丢掉了对话开头（提示超过 num_ctx 时 Ollama 就是这样）。随后 Codex 会忘掉前面的轮次，或者重复自己说过的话。",
            remedy=(
                "调大服务端窗口：Ollama 用 `OLLAMA_CONTEXT_LENGTH=32768 ollama serve`，或在 Modelfile 中写 `PARAMETER num_ctx 32768`。",
                "然后在 {user_config} 顶层把 model_context_window 设为服务端的真实窗口（这里约为 {reported_at_truncation}）。",
            ),
        ),
        when=once(lambda f: f["truncated"]),
    ),
    Rule(
        code="CTX009",
        name="no-breakpoint",
        check="ctx.probe",
        reads=("further_cmd", "max_context", "no_break", "published"),
        severity=I,
        verdict=CONTEXT,
        en=Text(
            title="No break up to the probed size",
            diagnosis="The session worked at every size up to {max_context} tokens.{range_text}",
            remedy=("{further_step}", "If Codex still fails, run `codexdoctor sessions` on its logs."),
        ),
        zh=Text(
            title="探测范围内没有断开",
            diagnosis="会话在直到 {max_context} 个 token 的每个大小上都正常。{range_text}",
            remedy=("{further_step}", "如果 Codex 仍然失败，对它的日志运行 `codexdoctor sessions`。"),
        ),
        when=lambda f: (
            [
                {
                    "range_text": Loc(
                        " That is where this probe's range ended, not a break: the window is at least "
                        "that, and the verdict stays inconclusive.",
                        "这是本次探测范围的终点，不是断点：窗口至少有这么大，结论仍无法确定。",
                    )
                    if f.get("further_cmd")
                    else Loc(
                        f" That is past the window the provider publishes ({f.get('published'):,}): it holds.",
                        f"这已超过提供方公布的窗口（{f.get('published'):,}）：公布的窗口可信。",
                    )
                    if f.get("published")
                    else "",
                    "further_step": Loc(
                        f"Probe further (the plan printed first says what it will spend):\n{f['further_cmd']}",
                        f"探测更大的范围（开始时打印的计划会说明要花多少）：\n{f['further_cmd']}",
                    )
                    if f.get("further_cmd")
                    else Loc(
                        "Probe a larger range with --max-context if your sessions grow beyond it.",
                        "如果你的会话会超过这个大小，用 --max-context 探测更大的范围。",
                    ),
                }
            ]
            if f["no_break"]
            else []
        ),
    ),
    Rule(
        code="CTX010",
        name="probe-stopped-early",
        check="ctx.probe",
        reads=(
            "first_fail",
            "larger_sent",
            "last_ok",
            "requests",
            "single_tokens",
            "spent",
            "stable",
            "stopped",
            "worked_up_to",
        ),
        severity=W,
        verdict=CONTEXT,
        en=Text(
            title="The probe stopped before locating the break",
            diagnosis="Stopped {stopped} after {requests} requests and {spent} input tokens. Learned so far: "
            "{learned_text}{fail_text}.",
            remedy=("{stopped_step}",),
        ),
        zh=Text(
            title="探测在定位断点之前就停止了",
            diagnosis="{stopped}停止，已发送 {requests} 个请求、{spent} 个输入 token。目前已知：{learned_text}{fail_text}。",
            remedy=("{stopped_step}",),
        ),
        when=lambda f: (
            [
                {
                    "learned_text": _learned(f),
                    "stopped_step": Loc(
                        "Run `codexdoctor probe` again and let it finish (the plan printed first says "
                        "how many requests and tokens that takes).",
                        "再运行一次 `codexdoctor probe` 并让它跑完（开始时打印的计划写明了需要多少请求和 token）。",
                    )
                    if f["stopped"] in ("interrupted", "requests")
                    else Loc(
                        "Raise the budget (--budget) or narrow the range (--max-context) and run `codexdoctor probe` again.",
                        "提高预算（--budget）或缩小范围（--max-context），再运行一次 `codexdoctor probe`。",
                    ),
                    "stopped": STOPPED_WORDS.get(f["stopped"], Loc(str(f["stopped"]), str(f["stopped"]))),
                    "fail_text": Loc(f", fails at {f['first_fail']:,}", f"，{f['first_fail']:,} 时失败")
                    if f.get("first_fail")
                    else "",
                }
            ]
            # A break found and confirmed on both sides is located, whatever stopped the probe after it (issue 28:
            # one report held CTX006 "the same result every time" and CTX010 "stopped before locating the break").
            if f.get("stopped") and not (f.get("stable") is not None and f.get("last_ok") and f.get("first_fail"))
            else []
        ),
    ),
    Rule(
        code="CTX030",
        name="channel-failures-above-break",
        check="ctx.probe",
        reads=("channel_above", "channel_above_kinds", "last_ok", "singles_ok"),
        severity=W,
        verdict=CHANNEL,
        en=Text(
            title="The channel failed too, above the break",
            diagnosis="{count:count:request} above {last_ok_text} tokens failed with channel errors ({kinds_text}), not with a context "
            "error. They say nothing about the window, and Codex will meet them too: {sizes_text}.",
            remedy=(
                "Run `codexdoctor check` for the channel's error codes, and look at the provider's status page and rate limits.",
                "If they persist, ask the provider's operator about large requests (proxy body limits, upstream timeouts).",
            ),
        ),
        zh=Text(
            title="断点之上，通道也出了错",
            diagnosis="在 {last_ok_text} 个 token 以上，有 {count} 个请求因通道错误失败（{kinds_text}），而不是上下文错误。"
            "它们与窗口无关，Codex 也会遇到：{sizes_text}。",
            remedy=(
                "运行 `codexdoctor check` 查看通道的错误代码，并查看提供方的状态页和限流额度。",
                "如果持续出现，请询问提供方的运维人员大请求的情况（代理的请求体上限、上游超时）。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "count": len(f["channel_above"]),
                    "last_ok_text": f"{f['last_ok']:,}" if f.get("last_ok") else "0",
                    "kinds_text": _kinds(f["channel_above_kinds"]),
                    "sizes_text": Loc(
                        "; ".join(
                            f"{c['sent']:,} tokens: {table_word(c['kind'], 'en')}"
                            + (f" ({c['status']})" if c.get("status") else "")
                            for c in f["channel_above"][:6]
                        ),
                        "；".join(
                            f"{c['sent']:,} tokens：{table_word(c['kind'], 'zh')}"
                            + (f"（{c['status']}）" if c.get("status") else "")
                            for c in f["channel_above"][:6]
                        ),
                    ),
                }
            ]
            if f.get("channel_above") and f.get("singles_ok")
            else []
        ),
    ),
    Rule(
        code="CTX011",
        name="single-question-unreliable",
        check="ctx.probe",
        reads=("single_kinds", "singles", "singles_ok"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Even single questions fail sometimes",
            diagnosis="{singles_ok} of {singles} fresh one-line requests succeeded ({single_kinds_text}). A short question in a new "
            "session does not depend on the context, so this is the channel.",
            remedy=(
                "Run `codexdoctor check` for the channel's error codes; check the provider's status page, rate limits and your network or proxy.",
            ),
        ),
        zh=Text(
            title="连单次提问都会偶尔失败",
            diagnosis="{singles} 个全新的单行请求中有 {singles_ok} 个成功（{single_kinds_text}）。新会话里的一个短问题与上下文无关，所以这是通道问题。",
            remedy=("运行 `codexdoctor check` 查看通道的错误代码；检查提供方的状态页、限流额度，以及你的网络或代理。",),
        ),
        when=lambda f: [{"single_kinds_text": _kinds(f["single_kinds"])}] if 0 < f["singles_ok"] < f["singles"] else [],
    ),
    Rule(
        code="CTX022",
        name="prefix-cache-not-working",
        check="ctx.probe",
        reads=("cache", "cache_verdict", "family"),
        severity=W,
        verdict=CONTEXT,
        en=Text(
            title="The provider does not reuse the conversation prefix",
            diagnosis="The same {prefix_tokens}-token prefix sent twice came back with {repeat_cached} cached tokens the second time "
            "(first token {first_ttft} then {repeat_ttft}). Without prefix caching every turn re-reads the whole history, so "
            "time to first token grows with every question.",
            remedy=(
                "Split long sessions sooner and carry a short summary; keep the session's start (instructions, tools) unchanged.",
                "{server_step}",
            ),
        ),
        zh=Text(
            title="提供方没有复用对话前缀",
            diagnosis="同一段 {prefix_tokens} 个 token 的前缀发送两次，第二次只有 {repeat_cached} 个缓存命中的 token（首字延迟 {first_ttft}，之后 {repeat_ttft}）。没有前缀缓存，每一轮都要重读整段历史，首字延迟随每个问题增长。",
            remedy=("更早地拆分长会话并带上简短总结；保持会话开头（指令、工具）不变。", "{server_step}"),
        ),
        when=lambda f: [_cache_params(f)] if f.get("cache_verdict") == "not working" else [],
    ),
    Rule(
        code="CTX023",
        name="prefix-cache-not-reported",
        check="ctx.probe",
        reads=("cache", "cache_verdict", "family"),
        severity=I,
        verdict=CONTEXT,
        en=Text(
            title="The provider does not report cached tokens",
            diagnosis="The provider's usage has no cached_tokens field, so whether it reuses the prefix cannot be read directly "
            "(first token {first_ttft} for a new prefix, {repeat_ttft} when repeated).",
            remedy=("Keep the start of each session stable so a cache, if there is one, can match it.",),
        ),
        zh=Text(
            title="提供方不报告缓存命中的 token",
            diagnosis="提供方返回的 usage 中没有 cached_tokens 字段，因此无法直接看出它是否复用前缀（新前缀首字 {first_ttft}，重复前缀首字 {repeat_ttft}）。",
            remedy=("让每个会话的开头保持稳定，这样如果有缓存，它就能命中。",),
        ),
        when=lambda f: [_cache_params(f)] if f.get("cache_verdict") == "not reported" else [],
    ),
)
