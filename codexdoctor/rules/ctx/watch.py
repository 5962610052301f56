"""CTX, a session `codexdoctor watch` recorded: the provider's own error Codex masked, a stall, the break at a context
size, first-output time growing with the context, the request after a tool call."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.rules.base import CHANNEL, CONTEXT, E, Loc, Rule, Text, W

# What Codex 0.171 shows instead of the provider's words (codex-facts §13 and §11).
_CODEX_SAID = {
    429: Loc(
        "Codex shows only `exceeded retry limit, last status: 429 Too Many Requests` for every 429.",
        "Codex 对任何 429 都只显示 `exceeded retry limit, last status: 429 Too Many Requests`。",
    ),
    "5xx": Loc(
        "Codex shows a 5xx as `We're currently experiencing high demand` (after its retries), whatever the body said.",
        "Codex 把 5xx（重试之后）显示为 `We're currently experiencing high demand`，不管正文说了什么。",
    ),
    "error_event": Loc(
        "Codex ignores a standalone `error` event and then says `stream closed before response.completed`.",
        "Codex 会忽略单独的 `error` 事件，然后只说 `stream closed before response.completed`。",
    ),
}


def _masked(f: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One finding: the newest masked error, with how many there were."""
    masked = f.get("masked") or []
    if not masked:
        return []
    m = masked[-1]
    status = m.get("status")
    said = (
        _CODEX_SAID[429]
        if status == 429
        else _CODEX_SAID["5xx"]
        if (status or 0) >= 500
        else _CODEX_SAID["error_event"]
    )
    what = (
        Loc(f"status {status}", f"状态 {status}")
        if status and status >= 400
        else Loc("an `error` event", "`error` 事件")
    )
    rid = m.get("request_id")
    return [
        {
            "number": m["number"],
            "what_text": what,
            "message": m["message"] or "(empty body)",
            "codex_said": said,
            "id_text": Loc(f" (request id {rid})", f"（request id {rid}）") if rid else Loc("", ""),
        }
    ]


def _stall(f: Mapping[str, Any]) -> list[dict[str, Any]]:
    s = f.get("stall")
    if not s:
        return []
    tokens = s.get("input_tokens")
    return [
        {
            "number": s["number"],
            "gap_text": f"{s['gap_ms'] / 1000:.1f}",
            "threshold_text": f"{f['stall_threshold_ms'] / 1000:g}",
            "count": s["count"],
            "at_text": Loc(f" at {tokens:,} tokens of context", f"（上下文 {tokens:,} tokens）")
            if tokens
            else Loc("", ""),
        }
    ]


def _context(f: Mapping[str, Any]) -> list[dict[str, Any]]:
    b = f.get("context_break")
    if not b:
        return []
    before = b.get("before_tokens")
    window, size = b.get("server_window"), b.get("server_request")
    return [
        {
            "number": b["number"],
            "message": b["message"],
            "before_text": Loc(
                f"The largest request the provider answered before it held {before:,} tokens.",
                f"在此之前提供方答复过的最大请求有 {before:,} tokens。",
            )
            if before
            else Loc("No earlier request was answered.", "之前没有请求得到答复。"),
            "window_text": Loc(
                f" The provider counts its window as {window:,} tokens"
                + (f" and this request as {size:,}." if size else "."),
                f"提供方说它的窗口是 {window:,} tokens" + (f"，这个请求有 {size:,} tokens。" if size else "。"),
            )
            if window
            else Loc("", ""),
            "window_value": max(1024, int((window or before or 8192) * 0.9) // 1024 * 1024),
        }
    ]


def _growth(f: Mapping[str, Any]) -> list[dict[str, Any]]:
    g = f.get("ttft_growth")
    if not g:
        return []
    return [
        {
            "first_text": f"{g['first_ms'] / 1000:.2f}",
            "last_text": f"{g['last_ms'] / 1000:.2f}",
            "first_tokens": g["first_tokens"],
            "last_tokens": g["last_tokens"],
            "ratio": g["ratio"],
        }
    ]


def _tool(f: Mapping[str, Any]) -> list[dict[str, Any]]:
    t = f.get("tool_break")
    if not t or (f.get("context_break") or {}).get("number") == t["number"]:
        return []
    said = t.get("message") or ""
    return [
        {
            "number": t["number"],
            "how_text": Loc(f"status {t['status']}", f"状态 {t['status']}")
            if t.get("status") and t["status"] >= 400
            else Loc(f"a stream that ended as `{t['ending']}`", f"以 `{t['ending']}` 结束的流"),
            "said_text": Loc(f" The provider said: {said}", f"提供方说：{said}") if said else Loc("", ""),
        }
    ]


RULES: tuple[Rule, ...] = (
    Rule(
        code="CTX040",
        name="watch-masked-provider-error",
        check="ctx.watch",
        reads=("masked",),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The provider's own error, which Codex did not show",
            diagnosis="Request #{number} got {what_text} from the provider{id_text}, which said: {message}. {codex_said}",
            remedy=(
                "Act on what the provider said: a per-minute limit passes if you wait or lower the request rate; a "
                "used-up quota or balance needs a top-up; an overloaded upstream needs another model or a later try.",
                "Give the provider's support this message and its request id: it is their own error.",
            ),
            explanation="Codex 0.171 never prints a 429's body and shows any 5xx as 'high demand'; the recorder saw the "
            "provider's answer itself.",
        ),
        zh=Text(
            title="提供方自己的报错（Codex 没有显示）",
            diagnosis="第 {number} 个请求从提供方收到了 {what_text}{id_text}，它说：{message}。{codex_said}",
            remedy=(
                "按提供方说的处理：每分钟限额等一会儿或降低请求频率即可恢复；额度或余额用完需要充值；上游过载需要换模型或稍后再试。",
                "把这条报错和它的 request id 交给提供方的客服：这是他们自己的错误。",
            ),
        ),
        when=_masked,
    ),
    Rule(
        code="CTX041",
        name="watch-context-break",
        check="ctx.watch",
        reads=("context_break", "user_config"),
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="The session broke at the provider's context window",
            diagnosis="Request #{number} was refused as too long: {message}. {before_text}{window_text}",
            remedy=(
                "Start a new session (or `/compact` in the TUI) and carry a short summary instead of the history.",
                "Make Codex compact before the provider's real window: in {user_config} set\n"
                "model_context_window = {window_value:d}",
            ),
        ),
        zh=Text(
            title="会话在提供方的上下文窗口处中断",
            diagnosis="第 {number} 个请求因过长被拒绝：{message}。{before_text}{window_text}",
            remedy=(
                "开一个新会话（或在 TUI 里 `/compact`），带上简短总结而不是整段历史。",
                "让 Codex 在提供方真实窗口之前压缩：在 {user_config} 中设置\nmodel_context_window = {window_value:d}",
            ),
        ),
        when=_context,
    ),
    Rule(
        code="CTX042",
        name="watch-stall",
        check="ctx.watch",
        reads=("stall", "stall_threshold_ms"),
        severity=W,
        verdict=CONTEXT,
        en=Text(
            title="An answer stalled mid-stream",
            diagnosis="The answer to request #{number} went silent for {gap_text} s{at_text} ({count:count:request} "
            "had a silence of {threshold_text} s or more). Under cache pressure stalls come before outright failures.",
            remedy=(
                "Shorten the session: start a new one and carry a short summary; if silences reach "
                "stream_idle_timeout_ms (300 s by default), Codex reports `idle timeout waiting for SSE`.",
                "If short sessions stall too, the provider is overloaded: try again later, or another model.",
            ),
        ),
        zh=Text(
            title="回答中途卡住",
            diagnosis="第 {number} 个请求的回答沉默了 {gap_text} 秒{at_text}；共有 {count} 个请求出现了 {threshold_text} 秒以上的沉默。"
            "在缓存压力下，卡顿会出现在明确失败之前。",
            remedy=(
                "缩短会话：开一个新会话并带上简短总结；如果沉默达到 stream_idle_timeout_ms（默认 300 秒），Codex 会报 "
                "`idle timeout waiting for SSE`。",
                "如果短会话也会卡住，说明提供方过载：稍后再试，或换一个模型。",
            ),
        ),
        when=_stall,
    ),
    Rule(
        code="CTX043",
        name="watch-first-output-grows",
        check="ctx.watch",
        reads=("ttft_growth",),
        severity=W,
        verdict=CONTEXT,
        en=Text(
            title="Time to first output grows with the session",
            diagnosis="The first output came after {first_text} s at {first_tokens:,} tokens of context, and after "
            "{last_text} s at {last_tokens:,} ({ratio}x). Every turn re-reads the whole history.",
            remedy=(
                "Start a new session before it gets slower and carry a short summary instead of the history.",
                "Keep the start of the session stable (same instructions and tools) so a provider with prefix caching "
                "can reuse it.",
            ),
        ),
        zh=Text(
            title="首个输出的等待时间随会话增长",
            diagnosis="上下文 {first_tokens:,} tokens 时首个输出在 {first_text} 秒后到达，{last_tokens:,} tokens 时要 "
            "{last_text} 秒（{ratio} 倍）。每一轮都要把整段历史重新读一遍。",
            remedy=(
                "在变得更慢之前开一个新会话，带上简短总结而不是整段历史。",
                "保持会话开头不变（同样的指令和工具），让支持前缀缓存的提供方能够复用。",
            ),
        ),
        when=_growth,
    ),
    Rule(
        code="CTX044",
        name="watch-fails-after-tool-call",
        check="ctx.watch",
        reads=("tool_break", "context_break"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The request after a tool call fails",
            diagnosis="Requests without a tool's result were answered, but request #{number}, the first to carry one "
            "(function_call_output), got {how_text}.{said_text}",
            remedy=(
                "The provider or gateway does not take Codex's tool results: ask it for full Responses API support "
                "(function_call / function_call_output items), or use a provider that has it.",
                "Confirm it without your session: `codexdoctor check` sends Codex's request after a tool call.",
            ),
        ),
        zh=Text(
            title="工具调用之后的请求失败",
            diagnosis="不带工具结果的请求都得到了答复，但第 {number} 个请求（第一个带 function_call_output 的）收到了 {how_text}。{said_text}",
            remedy=(
                "提供方或网关不接受 Codex 的工具结果：请它完整支持 Responses API（function_call / function_call_output 项），"
                "或换一个支持的提供方。",
                "不用你的会话也能确认：`codexdoctor check` 会发送 Codex 在工具调用之后的请求。",
            ),
        ),
        when=_tool,
    ),
)
