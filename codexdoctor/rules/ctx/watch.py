"""CTX, a session `codexdoctor watch` recorded: the provider's own error Codex masked, a stall, the break at a context
size, first-output time growing with the context, the request after a tool call, the prefix cache not reused."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.codex.sizes import too_small_for_codex
from codexdoctor.rules.base import CHANNEL, CONTEXT, E, Loc, Rule, Text, W
from codexdoctor.rules.ctx.advice import window_step

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
            "id_text": Loc(f" (request id {rid})", f"（请求 id {rid}）") if rid else Loc("", ""),
        }
    ]


def _rejected(f: Mapping[str, Any]) -> list[dict[str, Any]]:
    k = f.get("key_rejected")
    if not k:
        return []
    rid = k.get("request_id")
    return [
        {
            "number": k["number"],
            "message": k["message"].rstrip(".。 "),
            "count_text": Loc(f" {k['count']} requests got a 401.", f"共有 {k['count']} 个请求收到 401。")
            if k["count"] > 1
            else Loc("", ""),
            "id_text": Loc(f" (request id {rid})", f"（请求 id {rid}）") if rid else Loc("", ""),
        }
    ]


# A 403 said as `check` says it for the same answer (net.classify's kind -> the code check gives, why, first step).
_REFUSED: dict[str, tuple[str, Loc, Loc]] = {
    "forbidden": (
        "AUTH003",
        Loc(
            "The key is recognised but lacks permission for this model or endpoint.",
            "密钥被识别了，但没有访问这个模型或端点的权限。",
        ),
        Loc(
            "Check the key's project, organisation or scope in the provider's console, and that it may use {model}.",
            "在提供方控制台检查密钥所属的项目、组织或权限范围，以及它能否使用{model}。",
        ),
    ),
    "blocked": (
        "AUTH004",
        Loc(
            "A firewall, Cloudflare rule, IP allow-list or region restriction answered, not the API.",
            "回应的是防火墙、Cloudflare 规则、IP 白名单或地区限制，而不是 API。",
        ),
        Loc(
            "Check the provider's IP allow-list and region support; try from another network or via the provider's "
            "regional endpoint.",
            "检查提供方的 IP 白名单和支持的地区；换个网络，或改用提供方的区域端点。",
        ),
    ),
    "quota": (
        "API004",
        Loc(
            "The account's quota or billing limit is used up: waiting will not help.",
            "账户的配额或账单限制已用尽：等待没有用。",
        ),
        Loc(
            "Add credit or raise the quota in the provider's console, or use another key.",
            "在提供方控制台充值或提高配额，或换一个密钥。",
        ),
    ),
    "payment": (
        "API006",
        Loc("The account has no credits or balance left.", "账户没有额度或余额了。"),
        Loc("Top up the account in the provider's console.", "在提供方控制台充值。"),
    ),
}


def _forbidden(f: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The newest 403 (issue 40: a recorded 403 gave no finding while a 401 gave CTX046): what it was, in `check`'s
    words for the same answer, with its URL, the provider's message and its request id as evidence."""
    k = f.get("forbidden")
    if not k:
        return []
    code, why, step = _REFUSED.get(k["kind"], _REFUSED["forbidden"])
    model = k.get("model")
    which = (
        Loc(f" model `{model}`", f"模型 `{model}`") if model else Loc(" the model Codex asked for", " Codex 请求的模型")
    )
    rid, n, url = k.get("request_id"), k["count"], k["url"]
    return [
        {
            "number": k["number"],
            "status": k["status"],
            "url": url,
            "message": k["message"].rstrip(".。 "),
            "id_text": Loc(f" (request id {rid})", f"（请求 id {rid}）") if rid else Loc("", ""),
            "why_text": why,
            "count_text": Loc(f" {n} requests got a {k['status']}.", f"共有 {n} 个请求收到 {k['status']}。")
            if n > 1
            else Loc("", ""),
            "first_step": Loc(step.en.format(model=which.en.strip()), step.zh.format(model=which.zh.strip())),
            "same_code": code,
            "finding_evidence": (
                Loc(
                    f"#{k['number']}: POST {url} -> {k['status']}" + (f" (request id {rid})" if rid else ""),
                    f"#{k['number']}：POST {url} -> {k['status']}" + (f"（请求 id {rid}）" if rid else ""),
                ),
            ),
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
            "at_text": Loc(f" at {tokens:,} tokens of context", f"（上下文 {tokens:,} 个 token）")
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
                f"在此之前提供方答复过的最大请求有 {before:,} 个 token。",
            )
            if before
            else Loc("No earlier request was answered.", "之前没有请求得到答复。"),
            "window_text": Loc(
                f" The provider counts its window as {window:,} tokens"
                + (f" and this request as {size:,}." if size else "."),
                f"提供方说它的窗口是 {window:,} 个 token" + (f"，这个请求有 {size:,} 个 token。" if size else "。"),
            )
            if window
            else Loc("", ""),
            "window_step": _window_step(window, before, f.get("user_config") or "~/.codex/config.toml"),
        }
    ]


def _window_step(window: int | None, before: int | None, cfg: str) -> Loc:
    """The window advice from what was measured: the window the provider named, else the largest request it answered
    (a window at least that large), through the one function every rule uses; with neither, or with an answered
    request too small to tell a window from, no number (a guess once advised 7168, under Codex's first request)."""
    if window:
        return window_step(window, cfg)
    if before and not too_small_for_codex(before):
        return window_step(before, cfg)
    return Loc(
        "Measure the provider's real window with `codexdoctor probe`, then set model_context_window (and "
        f"model_auto_compact_token_limit) below it at the top level of {cfg}.",
        f"用 `codexdoctor probe` 测出提供方的真实窗口，然后在 {cfg} 顶层把 model_context_window（以及 "
        "model_auto_compact_token_limit）设到它以下。",
    )


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


def _pct(share: float | None) -> str:
    return f"{share:.0%}" if share is not None else "-"


def _cache(f: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The stable prefix not reused: what happened, in both languages, and each request's input and cached tokens
    as the finding's evidence."""
    c = f.get("cache_reuse")
    if not c:
        return []
    what, step = _cache_dropped(c) if c["pattern"] == "dropped" else _cache_never(c)
    evidence = [
        Loc(
            f"#{num}: {inp:,} input tokens, {cached:,} cached ({cached / max(inp, 1):.0%})",
            f"#{num}：输入 {inp:,} 个 token，缓存 {cached:,}（{cached / max(inp, 1):.0%}）",
        )
        for num, inp, cached in c["requests"]
    ]
    return [{"what_text": what, "first_step": step, "finding_evidence": evidence}]


def _cache_dropped(c: Mapping[str, Any]) -> tuple[Loc, Loc]:
    """The share served from the cache fell mid-session: what happened and the first step."""
    n, prev, tokens = c["number"], c["previous"], c["input_tokens"]
    rest, low = c["compared"] - 1, c["uncached"] - 1
    stayed = (
        Loc("", "")
        if rest <= 0
        else Loc(" It stayed under 5% on the next request.", "下一个请求也低于 5%。")
        if low == rest == 1
        else Loc(f" It stayed under 5% on all {rest} requests after it.", f"之后的 {rest} 个请求全都低于 5%。")
        if low == rest
        else Loc(
            f" It stayed under 5% on {low} of the {rest} requests after it.",
            f"之后的 {rest} 个请求中有 {low} 个仍低于 5%。",
        )
    )
    what = (
        Loc(
            f"The share of the input the provider served from its prefix cache fell from {_pct(c['before'])} on "
            f"request #{prev} to {_pct(c['after'])} on request #{n} ({tokens:,} tokens), although the request still "
            f"began with the one before it.",
            f"提供方从前缀缓存提供的输入比例从第 {prev} 个请求的 {_pct(c['before'])} 降到第 {n} 个请求的 "
            f"{_pct(c['after'])}（{tokens:,} 个 token），而这个请求的开头仍与前一个相同。",
        )
        + stayed
    )
    step = Loc(
        "Keep the start of the session stable: the same instructions, AGENTS.md, tools and MCP servers, and the "
        "same model (a /model switch or a changed tool list starts the cache over). If nothing changed, the "
        "gateway is sending one session's requests to backends that do not share a cache: ask it to keep a "
        "session (Codex's `prompt_cache_key`) on one backend.",
        "保持会话开头稳定：同样的指令、AGENTS.md、工具和 MCP 服务器，同一个模型（/model 切换或工具列表变化都会让缓存重新开始）。"
        "如果什么都没变，说明网关把同一会话的请求发给了不共享缓存的后端：请它把一个会话（Codex 的 `prompt_cache_key`）固定在同一个后端。",
    )
    return what, step


def _cache_never(c: Mapping[str, Any]) -> tuple[Loc, Loc]:
    """cached_tokens reported, the cache never used: what happened and the first step."""
    n, tokens = c["number"], c["input_tokens"]
    said = "`cached_tokens`" if not c["reported_any"] else "`cached_tokens` (above 0 on some requests)"
    said_zh = "`cached_tokens`" if not c["reported_any"] else "`cached_tokens`（有些请求大于 0）"
    what = Loc(
        f"The provider reports {said} in its usage, but served under 5% of the input from its cache on every "
        f"one of the {c['compared']} requests from #{n} on (up to {tokens:,} tokens), although each began with "
        f"the request before it.",
        f"提供方在 usage 中报告了 {said_zh}，但从第 {n} 个请求起的 {c['compared']} 个请求（最多 {tokens:,} 个 token）"
        f"从缓存提供的输入都不到 5%，而每个请求的开头都与前一个相同。",
    )
    step = Loc(
        "Ask the provider or gateway whether it caches prompts for this model and passes Codex's "
        "`prompt_cache_key` on: with caching, `cached_tokens` comes close to the previous request's input from "
        "the second request on. On a server of your own, turn prefix caching on (vLLM: "
        "--enable-prefix-caching; llama.cpp server: --cache-reuse 256).",
        "问提供方或网关是否为这个模型缓存提示词，并把 Codex 的 `prompt_cache_key` 传下去：有缓存时，从第二个请求起 "
        "`cached_tokens` 会接近前一个请求的输入。自建服务时开启前缀缓存（vLLM：--enable-prefix-caching；"
        "llama.cpp server：--cache-reuse 256）。",
    )
    return what, step


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
                "把这条报错和它的请求 id 交给提供方的客服：这是他们自己的错误。",
            ),
        ),
        when=_masked,
    ),
    Rule(
        code="CTX046",
        name="watch-key-rejected",
        check="ctx.watch",
        reads=("key_rejected",),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The provider rejected the API key",
            diagnosis="Request #{number} got status 401 from the provider{id_text}, which said: {message}.{count_text} "
            "Codex retries 401 five times, then prints `unexpected status 401 Unauthorized`.",
            remedy=(
                "Check the key the watched Codex reads: `codexdoctor check` shows the key variable with its "
                "fingerprint and a command to compare it with the key in the provider's console.",
                "Copy the key again, whole, with no spaces or line breaks, and set the variable again.",
                "If it still fails, create a new key at the provider (the old one may be revoked, expired or for "
                "another project).",
            ),
        ),
        zh=Text(
            title="提供方拒绝了 API Key",
            diagnosis="第 {number} 个请求从提供方收到了状态 401{id_text}，它说：{message}。{count_text}"
            "Codex 对 401 会重试五次，然后输出 `unexpected status 401 Unauthorized`。",
            remedy=(
                "检查被记录的 Codex 读取的密钥：`codexdoctor check` 会显示密钥变量及其指纹，并给出与提供方控制台里的密钥比对的命令。",
                "重新完整复制密钥，不要带空格或换行，再导出一次。",
                "仍然失败的话，到提供方重新创建一个密钥（旧密钥可能已被吊销、过期或属于别的项目）。",
            ),
        ),
        when=_rejected,
    ),
    Rule(
        code="CTX047",
        name="watch-request-forbidden",
        check="ctx.watch",
        reads=("forbidden",),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The provider refused the request (403)",
            diagnosis="Request #{number}: POST {url} answered {status}{id_text}: {message}. {why_text}{count_text}",
            remedy=(
                "{first_step}",
                "Confirm it without your session: `codexdoctor check` sends Codex's first request with the key this "
                "terminal has, and reports this answer as {same_code}.",
            ),
        ),
        zh=Text(
            title="提供方拒绝了请求（403）",
            diagnosis="第 {number} 个请求：POST {url} 返回 {status}{id_text}：{message}。{why_text}{count_text}",
            remedy=(
                "{first_step}",
                "不用你的会话也能确认：`codexdoctor check` 会用当前终端里的密钥发送 Codex 的第一个请求，并把这个回答报告为 {same_code}。",
            ),
        ),
        when=_forbidden,
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
                "{window_step}",
            ),
        ),
        zh=Text(
            title="会话在提供方的上下文窗口处中断",
            diagnosis="第 {number} 个请求因过长被拒绝：{message}。{before_text}{window_text}",
            remedy=(
                "开一个新会话（或在 TUI 里 `/compact`），带上简短总结而不是整段历史。",
                "{window_step}",
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
            diagnosis="上下文 {first_tokens:,} 个 token 时首个输出在 {first_text} 秒后到达，{last_tokens:,} 个 token 时要 "
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
    Rule(
        code="CTX045",
        name="watch-prefix-not-reused",
        check="ctx.watch",
        reads=("cache_reuse",),
        severity=W,
        verdict=CONTEXT,
        en=Text(
            title="The provider does not reuse the session's prefix",
            diagnosis="{what_text} Each turn is then read from scratch: time to first output and the bill grow with "
            "the whole history, not with what the turn added.",
            remedy=(
                "{first_step}",
                "Until it is reused, keep sessions short: start a new one with a short summary before the history "
                "grows.",
            ),
            explanation="Codex resends the whole history each turn, so each request begins with the one before it; a "
            "provider with prefix caching serves that part from its cache and reports it as "
            "usage.input_tokens_details.cached_tokens. The recorder compares each answered request with the one "
            "before it in the same session.",
        ),
        zh=Text(
            title="提供方没有复用会话的前缀",
            diagnosis="{what_text}这样每一轮都要从头读起：首个输出的等待和费用随整段历史增长，而不只是随这一轮新增的内容增长。",
            remedy=(
                "{first_step}",
                "在缓存能复用之前，让会话保持简短：在历史变长之前开一个新会话，带上简短总结。",
            ),
        ),
        when=_cache,
    ),
)
