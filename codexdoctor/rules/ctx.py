"""CTX: context and session. The rules, their Simplified Chinese texts and the helpers only they use.

Chinese texts keep the English placeholders; config keys, commands, product names and codes stay untranslated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.codex.sizes import CODEX_FIRST_REQUEST_TOKENS, window_settings
from codexdoctor.common.untrusted import clip
from codexdoctor.i18n import table_word
from codexdoctor.rules.base import CHANNEL, CONTEXT, E, I, Loc, Rule, Text, W, once


def _session_params(d: Mapping[str, Any]) -> dict[str, Any]:
    share = d.get("share")
    real = d.get("real_window")
    turns = d.get("turns_per_session")
    window_value = real or d.get("peak") or d.get("window") or 0
    growth = int(d.get("median_growth") or 0)
    cfg = d.get("user_config") or "~/.codex/config.toml"
    return {
        **d,
        "start_text": (d.get("start") or "?")[:16].replace("T", " "),
        "peak_text": f"{d['peak']:,}" if d.get("peak") else "?",
        "compact_text": f"{d['compact_at']:,}" if d.get("compact_at") else "?",
        "share_text": f"{share:.0%}" if share is not None else Loc("an unknown share", "未知"),
        "window_text": f"{d['window']:,}" if d.get("window") else Loc("window", "窗口"),
        "error_short": clip(
            " ".join((d.get("error") or d.get("error_info") or "error").split(", url:")[0].split()), 160
        ),
        "evidence": _EVIDENCE.get(d.get("evidence") or "", Loc(d.get("evidence") or "", d.get("evidence") or "")),
        "real_text": Loc(
            f" That is far below the window Codex assumes, so the provider's real window is about {real:,} tokens "
            "and Codex never compacted in time.",
            f"这远低于 Codex 假定的窗口，说明提供方的真实窗口只有约 {real:,} tokens，Codex 根本来不及压缩。",
        )
        if real
        else "",
        "window_step": Loc(
            f"Add at the top level of {cfg}: model_context_window = {window_settings(real)[0]} "
            f"and model_auto_compact_token_limit = {window_settings(real)[1]}",
            f"在 {cfg} 顶层添加：model_context_window = {window_settings(real)[0]} "
            f"和 model_auto_compact_token_limit = {window_settings(real)[1]}",
        )
        if real
        else Loc(
            f"Let Codex compact earlier: set model_auto_compact_token_limit at the top level of {cfg} "
            f"to about {window_settings(window_value)[1]:,}, or start new sessions sooner.",
            f"让 Codex 更早压缩：在 {cfg} 顶层把 model_auto_compact_token_limit 设为约 {window_settings(window_value)[1]:,}，"
            "或更早开新会话。",
        ),
        "session_step": Loc(
            f"Start a new session every {turns} turns (median growth {growth:,} tokens per turn) to stay under "
            "70% of the window.",
            f"每 {turns} 轮开一个新会话（每轮增长的中位数为 {growth:,} tokens），让上下文保持在窗口的 70% 以下。",
        )
        if turns
        else Loc(
            "Start a new session before the context reaches 70% of the window.",
            "在上下文达到窗口的 70% 之前开一个新会话。",
        ),
    }


def _kinds(kinds: list[str], empty: Loc | None = None) -> Loc:
    """Failure kinds in words (`server error (5xx)`), never as the internal ids (`server_error`)."""
    if not kinds:
        return empty or Loc("failed", "失败")
    return Loc(", ".join(table_word(k, "en") for k in kinds), "、".join(table_word(k, "zh") for k in kinds))


def _groups(sessions: Any) -> list[list[Mapping[str, Any]]]:
    """Sessions of one provider, model and window (one config), in the order they first appear: one finding each
    (issue 28: 17 logs gave eight CTX012 findings for one setup, each with its own window advice)."""
    groups: dict[tuple[Any, Any, Any], list[Mapping[str, Any]]] = {}
    for d in sessions:
        groups.setdefault((d.get("provider"), d.get("model"), d.get("window")), []).append(d)
    return list(groups.values())


def _group_params(group: list[Mapping[str, Any]]) -> dict[str, Any]:
    """The group's finding speaks of its latest session; its window advice is the smallest real window any of them
    showed (the one every session of this config fits), so the group gets one pair of numbers."""
    latest = max(group, key=lambda d: d.get("start") or "")
    reals = [d["real_window"] for d in group if d.get("real_window")]
    params = _session_params({**latest, "real_window": min(reals)} if reals else latest)
    others = [d for d in group if d is not latest]
    names = ", ".join(d["short_id"] for d in others[:8]) + (", …" if len(others) > 8 else "")
    params["others_text"] = (
        Loc(
            f" The same happened in {len(others)} more session{'s' if len(others) != 1 else ''} "
            f"of this provider, model and window: {names}.",
            f"同一提供方、模型和窗口下，另有 {len(others)} 个会话也是这样：{names}。",
        )
        if others
        else ""
    )
    params["finding_evidence"] = _session_evidence(group)
    return params


def _session_evidence(group: list[Mapping[str, Any]]) -> tuple[str, ...]:
    """Evidence lines for the sessions a finding speaks of, and only those."""
    lines = []
    for d in group[:20]:
        size = d.get("last_ok") or d.get("peak")
        lines.append(
            f"session {d['short_id']} ({(d.get('start') or '?')[:16].replace('T', ' ')}): "
            f"{d.get('provider') or '?'} / {d.get('model') or '?'}, "
            + (f"largest context that worked {size:,} tokens" if size else "no size logged")
            + (f", failed at turn {d['failed_turn']}" if d.get("failed_turn") else "")
        )
    if len(group) > 20:
        lines.append(f"and {len(group) - 20} more sessions")
    return tuple(lines)


def _outlier_text(g: Mapping[str, Any], sessions: list[Mapping[str, Any]]) -> Loc | str:
    outliers = g.get("outliers") or []
    if not outliers:
        return ""
    names = {d["id"]: d["short_id"] for d in sessions}
    listed = ", ".join(f"{names.get(o['id'], o['id'][:8])} at {o['size']:,}" for o in outliers[:5])
    listed_zh = "，".join(f"{names.get(o['id'], o['id'][:8])}（{o['size']:,}）" for o in outliers[:5])
    return Loc(
        f" {len(outliers)} other session{'s' if len(outliers) != 1 else ''} broke elsewhere ({listed}); "
        "see its own finding.",
        f"另有 {len(outliers)} 个会话断在别处（{listed_zh}），见它自己的结论。",
    )


_EVIDENCE = {
    "the overflow signature (a token_count whose total equals the window, other counters zero)": Loc(
        "the overflow signature (a token_count whose total equals the window, other counters zero)",
        "溢出特征（一条 token_count 的总数恰好等于窗口、其他计数都为 0）",
    ),
    "Codex's context-window error": Loc("Codex's context-window error", "Codex 的上下文窗口错误"),
    "the provider's context error": Loc("the provider's context error", "提供方的上下文超限错误"),
    "silent truncation": Loc("silent truncation", "静默截断"),
    **{
        f"the gateway refuses the {item} items Codex sends after a tool call": Loc(
            f"the gateway refuses the {item} items Codex sends after a tool call",
            f"网关拒绝 Codex 在工具调用之后发送的 {item} 项",
        )
        for item in ("function_call_output", "reasoning", "call_id", "tool role", "function_call")
    },
    'Codex\'s "high demand" message, which stands for a 5xx from the provider': Loc(
        'Codex\'s "high demand" message, which stands for a 5xx from the provider',
        "Codex 的“high demand”提示，它代表提供方返回了 5xx",
    ),
}


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

    def ms(v: object) -> str:
        return f"{v:.0f} ms" if isinstance(v, (int, float)) else "?"

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
        return Loc(
            "This window cannot hold Codex's own first request (about 8,500 tokens of instructions and tool schemas) "
            "plus a turn: serve the model with a larger window (at least 16,384 tokens).",
            "这个窗口连 Codex 自己的第一个请求（约 8,500 tokens 的指令和工具定义）再加一轮都放不下："
            "请用更大的窗口部署模型（至少 16,384 tokens）。",
        )
    return Loc(
        f"Start a new session every {turns} turns (at about {_num(f.get('turn_tokens'))} tokens per turn, that stays under "
        "70% of the window).",
        f"每 {turns} 轮开一个新会话（按每轮约 {_num(f.get('turn_tokens'))} tokens 计，可保持在窗口的 70% 以下）。",
    )


STOPPED_WORDS = {
    "budget": Loc("at the budget", "在预算处"),
    "deadline": Loc("at the deadline", "在时限处"),
    "interrupted": Loc("by Ctrl-C", "因 Ctrl-C 而"),
}


# What CTX028 and CTX029 ask for: a window too small for Codex's first tool round is fixed at the server.
LARGER_WINDOW_STEPS = (
    "Serve the model with a larger context window: 32,768 tokens or more (llama.cpp `-c 32768`, vLLM "
    "`--max-model-len 32768`, Ollama `num_ctx`).",
    "Then set model_context_window to it (and model_auto_compact_token_limit at about 80%) at the top level of "
    "{user_config}.",
)
LARGER_WINDOW_STEPS_ZH = (
    "用更大的上下文窗口运行模型：32,768 tokens 或更多（llama.cpp `-c 32768`，vLLM `--max-model-len 32768`，Ollama `num_ctx`）。",
    "然后在 {user_config} 顶层把 model_context_window 设为它（model_auto_compact_token_limit 设为约 80%）。",
)


def first_request_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """How Codex's first request is made up, and what the user can shrink (their AGENTS.md files)."""
    parts = f.get("first_parts") or []
    docs = f.get("docs") or []
    n = f.get("first_request")
    first_text = Loc(
        ", ".join(f"{p['part']} {p['tokens']:,}" for p in parts) or "instructions plus tool schemas",
        "，".join(f"{p['part']} {p['tokens']:,}" for p in parts) or "指令加工具定义",
    )
    docs_text = ", ".join(f"{d['path']} {d['tokens']:,} tokens" for d in docs)
    minimal = f.get("minimal_kind")
    # The config keys that put the user's own text into the first request (codex/request.py): `instructions`
    # replaces Codex's base instructions, `developer_instructions` adds to them.
    own = [
        (p["part"], p["tokens"])
        for p in parts
        if p["part"].startswith(("instructions (yours", "developer_instructions")) and p["tokens"] >= 500
    ]
    cfg = f.get("user_config") or "~/.codex/config.toml"
    own_step = (
        Loc(
            " ".join(
                f"`{'instructions' if name.startswith('instructions') else 'developer_instructions'}` in {cfg} "
                f"puts {n:,} tokens of your own text into it: shorten it."
                for name, n in own
            ),
            " ".join(
                f"{cfg} 中的 `{'instructions' if name.startswith('instructions') else 'developer_instructions'}` "
                f"往里面放了 {n:,} tokens 你自己的文字：把它缩短。"
                for name, n in own
            ),
        )
        if own
        else None
    )
    return {
        "first_request": f"{n:,}" if isinstance(n, int) else n,
        "first_text": first_text,
        # The server's own count beats ours: its tokenizer is the one the window is measured in.
        "min_usable_text": (
            Loc(
                f"{f['server_request']:,} tokens as this server counts them",
                f"{f['server_request']:,} tokens（按该服务端的计数）",
            )
            if isinstance(f.get("server_request"), int)
            else f"{n:,} tokens"
            if isinstance(n, int)
            else "16,384 tokens"
        ),
        "room_text": Loc(
            f" After Codex's first request ({n:,} tokens) only {f['room']:,} tokens are left for the session.",
            f" 扣除 Codex 的第一个请求（{n:,} tokens）后，会话只剩 {f['room']:,} tokens。",
        )
        if isinstance(n, int) and isinstance(f.get("room"), int) and f.get("first_counted")
        else "",
        "minimal_text": Loc(
            " A one-line request to the same URL passed, so the size is the cause.",
            " 同一地址的一行请求可以通过，所以原因在于大小。",
        )
        if minimal == "ok"
        else "",
        "docs_step": own_step
        if own_step is not None and not docs
        else Loc(
            f"Your AGENTS.md files are part of it ({docs_text}): shorten them, or move detail into files Codex "
            "reads only when needed." + (" " + own_step.en if own_step else ""),
            f"你的 AGENTS.md 文件也在其中（{docs_text}）：精简它们，或把细节挪到 Codex 需要时才读取的文件里。"
            + (own_step.zh if own_step else ""),
        )
        if docs
        else Loc(
            "Codex's own instructions and tool schemas are most of it; they cannot be shortened from the config.",
            "其中大部分是 Codex 自己的指令和工具定义，无法通过配置缩短。",
        ),
    }


def _pasted_context_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """CTX021: say what the paste said (Codex's own words, or a server's raw error with its numbers), nothing more."""
    cfg = f.get("user_config") or "~/.codex/config.toml"
    window, size = f.get("server_window"), f.get("server_request")
    if f.get("codex_message"):
        said = Loc(
            "Codex reports this when the provider rejects a request as too long (code context_length_exceeded).",
            "当提供方以请求过长（code context_length_exceeded）拒绝请求时，Codex 会这样提示。",
        )
    elif window and size:
        said = Loc(
            f"The provider's error says the request ({size:,} tokens) exceeds its window ({window:,} tokens); "
            "Codex shows such errors raw.",
            f"提供方的报错说请求（{size:,} tokens）超出了它的窗口（{window:,} tokens）；Codex 会原样显示这类错误。",
        )
    elif window:
        said = Loc(
            f"The provider's error says its window is {window:,} tokens and the request is longer.",
            f"提供方的报错说它的窗口是 {window:,} tokens，而请求更长。",
        )
    else:
        said = Loc(
            "The provider's error says the request is longer than the model's context window.",
            "提供方的报错说请求超出了模型的上下文窗口。",
        )
    if window and window < CODEX_FIRST_REQUEST_TOKENS:
        step = Loc(
            f"A {window:,}-token window cannot hold Codex's first request (about {CODEX_FIRST_REQUEST_TOKENS:,} tokens "
            "of instructions and tool schemas): serve the model with a larger window, 32,768 to leave room for a "
            "session (llama.cpp `-c 32768`, vLLM `--max-model-len 32768`, Ollama `num_ctx`).",
            f"{window:,} tokens 的窗口放不下 Codex 的第一个请求（约 {CODEX_FIRST_REQUEST_TOKENS:,} tokens 的指令和工具定义）："
            "请用更大的窗口部署模型，32,768 才能给会话留出空间（llama.cpp `-c 32768`、vLLM `--max-model-len 32768`、Ollama `num_ctx`）。",
        )
    elif window:
        settings = window_settings(window)
        step = Loc(
            f"Tell Codex the real window at the top level of {cfg}: model_context_window = {settings[0]} and "
            f"model_auto_compact_token_limit = {settings[1]}.",
            f"在 {cfg} 顶层告诉 Codex 真实窗口：model_context_window = {settings[0]}，"
            f"model_auto_compact_token_limit = {settings[1]}。",
        )
    else:
        step = Loc(
            f"Measure the provider's real window with `codexdoctor probe`, then set model_context_window (and "
            f"model_auto_compact_token_limit) below it at the top level of {cfg}.",
            f"用 `codexdoctor probe` 测出提供方的真实窗口，然后在 {cfg} 顶层把 model_context_window（以及 "
            "model_auto_compact_token_limit）设到它以下。",
        )
    return {"said_text": said, "window_step": step}


RULES: tuple[Rule, ...] = (
    Rule(
        code="CTX001",
        name="served-window-smaller-than-assumed",
        check="ctx.window",
        severity=W,
        verdict=CONTEXT,
        en=Text(
            title="The provider's window is smaller than Codex assumes",
            diagnosis="The provider serves {served} tokens ({source}) but Codex assumes {assumed} ({assumed_source}) and only compacts at "
            "{compact_at}. Long sessions will hit the provider's limit before Codex compacts, and break at a stable point.{room_text}",
            remedy=(
                "Add these lines at the top level of {user_config} (not inside a profile):\n"
                "model_context_window = {suggest_window:d}\nmodel_auto_compact_token_limit = {suggest_compact:d}",
                "Start a new session every few turns for long work; carry a short summary instead of the history.",
            ),
        ),
        zh=Text(
            title="提供方的窗口比 Codex 假定的小",
            diagnosis="提供方的窗口是 {served} tokens（{source}），而 Codex 假定为 {assumed}（{assumed_source}），要到 {compact_at} 才会压缩。长会话会先撞上提供方的上限，Codex 来不及压缩，于是在一个固定位置断开。{room_text}",
            remedy=(
                "在 {user_config} 顶层（不要放在 profile 里）添加这两行：\nmodel_context_window = {suggest_window:d}\nmodel_auto_compact_token_limit = {suggest_compact:d}",
                "长任务每隔几轮就开一个新会话；带一段简短的总结过去，而不是整段历史。",
            ),
        ),
        when=once(
            lambda f: f["served"] is not None and f["served"] >= f["min_usable"] and f["served"] < f["compact_at"]
        ),
    ),
    Rule(
        code="CTX027",
        name="configured-window-below-first-request",
        check="ctx.window",
        severity=W,
        verdict=CONTEXT,
        en=Text(
            title="Your window setting is smaller than Codex's first request",
            diagnosis="Codex compacts once a session passes {configured_compact_at} tokens ({assumed_source}), but its first request "
            "for you alone is {first_request} tokens. Codex still sends it, then compacts before every later turn: each "
            "turn costs an extra summarising request, and the session forgets its history all the time.",
            remedy=(
                "If the provider's window really is that small, the model is too small for Codex: serve it with a larger "
                "context (llama-server -c 32768), or use a model that has one.",
                "Otherwise set model_context_window (and model_auto_compact_token_limit, at about 80% of it) in {user_config} "
                "to the provider's real window: codexdoctor probe measures it.",
            ),
        ),
        zh=Text(
            title="你设置的窗口比 Codex 的第一个请求还小",
            diagnosis="会话超过 {configured_compact_at} tokens（{assumed_source}）时 Codex 就会压缩，但光是它为你发出的第一个请求就有 "
            "{first_request} tokens。Codex 仍会发出这个请求，然后在之后的每一轮之前都先压缩：每一轮都多花一次总结请求，"
            "会话也会不停地丢掉历史。",
            remedy=(
                "如果提供方的窗口真的这么小，这个模型对 Codex 来说太小了：用更大的上下文来运行它（llama-server -c 32768），"
                "或者换一个上下文更大的模型。",
                "否则在 {user_config} 中把 model_context_window（以及约为其 80% 的 model_auto_compact_token_limit）设为提供方真实的"
                "窗口：codexdoctor probe 可以测出来。",
            ),
        ),
        when=once(lambda f: bool(f.get("configured_below_first"))),
    ),
    Rule(
        code="CTX028",
        name="first-tool-round-overflows",
        check="api.turn_two",
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="The first tool round does not fit the window",
            diagnosis="Codex's first request fits ({first_request} tokens, counted by the {first_counted_by_text}), but the request "
            "it sends after its first command ({turn_two_tokens} tokens with one tool call and about 10 KB of output) "
            "answered {status}: {message}. Every session breaks at its first command: the window is too small for Codex, "
            "even though a single question works.",
            remedy=LARGER_WINDOW_STEPS,
        ),
        zh=Text(
            title="第一轮工具调用放不进窗口",
            diagnosis="Codex 的第一个请求放得下（{first_request} tokens，按{first_counted_by_text}计数），但它运行第一个命令之后发出的请求"
            "（带一次工具调用和约 10 KB 输出，{turn_two_tokens} tokens）返回了 {status}：{message}。每个会话都会在第一个命令处中断："
            "这个窗口对 Codex 来说太小了，尽管单个问题可以用。",
            remedy=LARGER_WINDOW_STEPS_ZH,
        ),
        when=lambda f: (
            [
                {
                    "first_counted_by_text": Loc("provider", "提供方")
                    if f.get("first_counted_by") == "provider"
                    else Loc("local estimate", "本地估算"),
                    "turn_two_tokens": f"{f['turn_two_tokens']:,}"
                    if isinstance(f.get("turn_two_tokens"), int)
                    else "?",
                }
            ]
            if f["kind"] == "context_exceeded"
            else []
        ),
    ),
    Rule(
        code="CTX029",
        name="no-room-for-a-tool-round",
        check="ctx.window",
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="The window leaves no room for Codex's first tool round",
            diagnosis="The provider serves {served} tokens ({source}); Codex's first request takes {first_request} of them, which "
            "leaves {room}, less than one tool call and its output need (about {tool_round} tokens: Codex cuts an output "
            "at about 12 KB). The first question works; every session breaks at its first command.",
            remedy=LARGER_WINDOW_STEPS,
        ),
        zh=Text(
            title="窗口放不下 Codex 的第一轮工具调用",
            diagnosis="提供方的窗口是 {served} tokens（{source}）；Codex 的第一个请求占了其中 {first_request}，只剩 {room}，"
            "不够一次工具调用和它的输出（约 {tool_round} tokens：Codex 会把输出截断在约 12 KB）。第一个问题能用；"
            "每个会话都会在第一个命令处中断。",
            remedy=LARGER_WINDOW_STEPS_ZH,
        ),
        when=once(lambda f: f.get("tool_round_fits") is False and f["served"] >= f["min_usable"]),
        settled_by=("api.turn_two", lambda f: f.get("kind") in ("ok", "context_exceeded")),
    ),
    Rule(
        code="CTX025",
        name="window-unpublished",
        check="ctx.window",
        severity=I,
        verdict=CONTEXT,
        en=Text(
            title="The provider does not publish its window",
            diagnosis="Neither /models nor the server's info pages say how large {model}'s window is. Codex's first request for you "
            "({first_request} tokens) fit, so the first turn works; how much room is left for a session is unknown, and Codex "
            "assumes {assumed} ({assumed_source}).",
            remedy=(
                "Measure the usable window with a bounded number of tokens: codexdoctor probe",
                "Then set model_context_window (and model_auto_compact_token_limit at about 80% of it) at the top level of {user_config}.",
            ),
        ),
        zh=Text(
            title="提供方没有公布窗口大小",
            diagnosis="无论 /models 还是服务端的信息页面都没有说明 {model} 的窗口有多大。Codex 为你发出的第一个请求（{first_request} tokens）放得下，"
            "所以第一轮可以工作；但会话还剩多少空间未知，而 Codex 假定为 {assumed}（{assumed_source}）。",
            remedy=(
                "用有上限的 token 数测出可用窗口：codexdoctor probe",
                "然后在 {user_config} 顶层设置 model_context_window（以及约为其 80% 的 model_auto_compact_token_limit）。",
            ),
        ),
        when=once(lambda f: f.get("unpublished") and f.get("first_fit") is True),
    ),
    Rule(
        code="CTX002",
        name="window-too-small-for-codex",
        check="ctx.window",
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="Window too small for Codex's first request",
            diagnosis="The provider serves {served} tokens ({source}); Codex's first request for you is about {first_request} tokens "
            "({first_text}), so even the first turn fails while a one-line test passes.",
            remedy=(
                "Serve the model with a larger window (e.g. llama.cpp `-c 32768`, vLLM `--max-model-len 32768`, Ollama `num_ctx`), "
                "more than {min_usable} tokens; 32,768 leaves room for a session.",
                "Then tell Codex the real size in {user_config}:\nmodel_context_window = <served window>",
                "{docs_step}",
            ),
        ),
        zh=Text(
            title="窗口小到放不下 Codex 的第一个请求",
            diagnosis="提供方的窗口是 {served} tokens（{source}）；Codex 为你发出的第一个请求约有 {first_request} tokens（{first_text}），"
            "所以即使一行的测试能通过，第一轮也会失败。",
            remedy=(
                "用更大的窗口部署模型（例如 llama.cpp `-c 32768`、vLLM `--max-model-len 32768`、Ollama `num_ctx`），大于 {min_usable} tokens；32,768 才能给会话留出空间。",
                "然后在 {user_config} 中告诉 Codex 真实大小：\nmodel_context_window = <服务端窗口>",
                "{docs_step}",
            ),
        ),
        when=once(lambda f: f["served"] is not None and f["served"] < f["min_usable"]),
    ),
    Rule(
        code="CTX004",
        name="latency-grows-with-context",
        check="ctx.probe",
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
            diagnosis="首字延迟从 {baseline_text}（单次提问）涨到了 {largest_ok} tokens 时的 {largest_ttft_text}（{ttft_ratio} 倍；每 1,000 tokens 历史约增加 {slope_ms_per_1k} ms）。每一轮都要把整段历史重新读一遍。",
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
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="Stage 3: the session breaks at a stable size",
            diagnosis="A single question works, but the growing session fails from {first_fail} tokens on ({failure_text}); every request "
            "at {last_ok} tokens or less worked, and repeating both {repeat_text}. Usable window: about {last_ok} tokens "
            "(the break lies between {last_ok} and {first_fail}).",
            remedy=(
                "Tell Codex the window this probe measured (the largest request that worked; not a published number) so it "
                "compacts in time: add at the top level of {user_config}:\n"
                "model_context_window = {suggest_window:d}\nmodel_auto_compact_token_limit = {suggest_compact:d}",
                "{session_advice}",
                "Carry a 5-line summary of the conclusions into the next session instead of the history.",
                "Move side questions out of the main session, and keep its start (instructions, tools) unchanged.",
            ),
        ),
        zh=Text(
            title="第三阶段：会话在固定大小处断开",
            diagnosis="单次提问正常，但会话增长到 {first_fail} tokens 起就失败（{failure_text}）；{last_ok} tokens 及以下的请求全部成功，两边重复测试{repeat_text}。可用窗口：约 {last_ok} tokens（断点位于 {last_ok} 到 {first_fail} 之间）。",
            remedy=(
                "把这次探测测得的窗口（成功的最大请求，不是提供方公布的数字）告诉 Codex，让它及时压缩：在 {user_config} 顶层添加：\nmodel_context_window = {suggest_window:d}\nmodel_auto_compact_token_limit = {suggest_compact:d}",
                "{session_advice}",
                "开新会话时带上一段 5 行的结论总结，而不是整段历史。",
                "把旁支问题移出主会话，并保持会话开头（指令、工具）不变。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "failure_text": _kinds(f.get("context_kinds") or f["failure_kinds"]),
                    "repeat_text": Loc("gave the same result every time", "结果每次都一样"),
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
            diagnosis="在表面断点上下（{last_ok} / {first_fail} tokens）重复请求，结果时好时坏（{failure_text}）。窗口问题每次都在同一个大小失败；这更像是限流、容量不足或超时。",
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
            diagnosis="在 {truncated_at} tokens 时，提供方返回 200，却只计了 {reported_at_truncation} 个输入 token：它没有报错，直接丢掉了对话开头（提示超过 num_ctx 时 Ollama 就是这样）。随后 Codex 会忘掉前面的轮次，或者重复自己说过的话。",
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
        severity=I,
        verdict=CONTEXT,
        en=Text(
            title="No break up to the probed size",
            diagnosis="The session worked at every size up to {max_context} tokens.{range_text}",
            remedy=("{further_step}", "If Codex still fails, run `codexdoctor sessions` on its logs."),
        ),
        zh=Text(
            title="探测范围内没有断开",
            diagnosis="会话在直到 {max_context} tokens 的每个大小上都正常。{range_text}",
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
        severity=W,
        verdict=CONTEXT,
        en=Text(
            title="The probe stopped before locating the break",
            diagnosis="Stopped {stopped} after {requests} requests and {spent} input tokens. Learned so far: works up to "
            "{last_ok_text} tokens{fail_text}.",
            remedy=("{stopped_step}",),
        ),
        zh=Text(
            title="探测在定位断点之前就停止了",
            diagnosis="{stopped}停止，已发送 {requests} 个请求、{spent} 个输入 token。目前已知：{last_ok_text} tokens 以内正常{fail_text}。",
            remedy=("{stopped_step}",),
        ),
        when=lambda f: (
            [
                {
                    "last_ok_text": f["last_ok"] if f.get("last_ok") else Loc("(none)", "（无）"),
                    "stopped_step": Loc(
                        "Run `codexdoctor probe` again and let it finish (the plan printed first says "
                        "how many requests and tokens that takes).",
                        "再运行一次 `codexdoctor probe` 并让它跑完（开始时打印的计划写明了需要多少请求和 token）。",
                    )
                    if f["stopped"] == "interrupted"
                    else Loc(
                        "Raise the budget (--budget) or narrow the range (--max-context) and run `codexdoctor probe` again.",
                        "提高预算（--budget）或缩小范围（--max-context），再运行一次 `codexdoctor probe`。",
                    ),
                    "stopped": STOPPED_WORDS.get(f["stopped"], Loc(str(f["stopped"]), str(f["stopped"]))),
                    "fail_text": Loc(f", fails at {f['first_fail']}", f"，{f['first_fail']} 时失败")
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
            diagnosis="在 {last_ok_text} tokens 以上，有 {count} 个请求因通道错误失败（{kinds_text}），而不是上下文错误。"
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
        code="CTX012",
        name="session-overflowed",
        check="ctx.sessions",
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="A session ran out of context",
            diagnosis="Session {short_id} ({start_text}) failed at turn {failed_turn}: {evidence}. The largest context that worked was "
            "{peak_text} tokens, {share_text} of the {window_text} Codex assumes.{real_text}{others_text}",
            remedy=(
                "{window_step}",
                "{session_step}",
                "Carry a 5-line summary into the next session instead of the history; move side questions to their own session.",
            ),
        ),
        zh=Text(
            title="有会话耗尽了上下文",
            diagnosis="会话 {short_id}（{start_text}）在第 {failed_turn} 轮失败：{evidence}。成功过的最大上下文是 {peak_text} tokens，占 Codex 假定的 {window_text} 的 {share_text}。{real_text}{others_text}",
            remedy=(
                "{window_step}",
                "{session_step}",
                "开新会话时带上一段 5 行的总结，而不是整段历史；把旁支问题放到各自的会话里。",
            ),
        ),
        # A session in a group that breaks at one size gets the group's advice (CTX014) instead of its own.
        when=lambda f: [
            _group_params(group)
            for group in _groups(
                d
                for d in f.get("sessions", [])
                if d["kind"] == "context" and not d.get("in_cluster") and not d.get("truncated_at")
            )
        ],
    ),
    Rule(
        code="CTX013",
        name="session-channel-failure",
        check="ctx.sessions",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="A session failed on the channel, not the context",
            diagnosis="Session {short_id} ({start_text}) failed at turn {failed_turn} with `{error_short}` at {share_text} of the window: "
            "an error from the provider or the network, not a full context.",
            remedy=(
                "Run `codexdoctor check` to test the channel as it is now.",
                'Classify the exact message: codexdoctor diagnose-error "{error_short}"',
            ),
        ),
        zh=Text(
            title="有会话因通道失败，而不是上下文",
            diagnosis="会话 {short_id}（{start_text}）在第 {failed_turn} 轮以 `{error_short}` 失败，当时上下文占窗口的比例为：{share_text}。这是提供方或网络的错误，不是上下文满了。",
            remedy=(
                "运行 `codexdoctor check` 测试通道的当前状态。",
                '对这条消息做分类：codexdoctor diagnose-error "{error_short}"',
            ),
        ),
        when=lambda f: [_session_params(d) for d in f.get("sessions", []) if d["kind"] == "channel"],
    ),
    Rule(
        code="CTX014",
        name="failures-cluster",
        check="ctx.sessions",
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="Sessions break at the same size",
            diagnosis="{core} of {failures} failed sessions of {model} on `{provider}` broke at {median_text} tokens ± {within_pct} "
            "(between {low} and {high}): a stable break point, so the limit is the context. Codex never compacted: it "
            "only compacts near the window it assumes.{outlier_text}",
            remedy=(
                "Set model_context_window = {median:d} and model_auto_compact_token_limit = {eighty:d} at the top level of "
                "{user_config_text} so Codex compacts before that point.",
                "Start new sessions before they reach about {seventy} tokens.",
            ),
        ),
        zh=Text(
            title="多个会话在同一大小处断开",
            diagnosis="`{provider}` 上 {model} 的 {failures} 个失败会话中，有 {core} 个断在 {median_text} tokens ± {within_pct}（{low} 到 {high} 之间）：断点稳定，所以限制来自上下文。Codex 从未压缩：它只在接近自己假定的窗口时才压缩。{outlier_text}",
            remedy=(
                "在 {user_config_text} 顶层设置 model_context_window = {median:d} 和 model_auto_compact_token_limit = {eighty:d}，让 Codex 在这个点之前压缩。",
                "在会话达到约 {seventy} tokens 之前就开新会话。",
            ),
        ),
        when=lambda f: [
            {
                **g,
                "spread_pct": f"{g['spread']:.0%}",
                "user_config_text": f.get("user_config") or "~/.codex/config.toml",
                "within_pct": f"{g.get('within', g['spread'] / 2):.0%}",
                "core": g.get("core", g["failures"]),
                "outlier_text": _outlier_text(g, f.get("sessions", [])),
                "finding_evidence": _session_evidence([d for d in f.get("sessions", []) if d["id"] in set(g["ids"])]),
                "low": f"{g['low']:,}",
                "high": f"{g['high']:,}",
                "median": g["median"],
                "median_text": f"{g['median']:,}",
                "seventy": f"{int(g['median'] * 0.7):,}",
                "eighty": window_settings(g["median"])[1],
            }
            for g in f.get("across", {}).get("groups", [])
            if g["pattern"] == "cluster"
        ],
    ),
    Rule(
        code="CTX015",
        name="failures-scattered",
        check="ctx.sessions",
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Failures scatter at low usage",
            diagnosis="{failures} failed sessions of {model} on `{provider}` broke at scattered sizes ({low}-{high} tokens), all under "
            "half the window: that points at the channel (key, rate limits, provider availability), not the context.",
            remedy=(
                "Run `codexdoctor check`, and `codexdoctor probe` to see whether failures follow the session size.",
            ),
        ),
        zh=Text(
            title="失败分散在低用量处",
            diagnosis="`{provider}` 上 {model} 的 {failures} 个失败会话断在分散的大小上（{low}-{high} tokens），都不到窗口的一半：这指向通道（密钥、限流、提供方可用性），而不是上下文。",
            remedy=("运行 `codexdoctor check`，并用 `codexdoctor probe` 看失败是否随会话大小变化。",),
        ),
        when=lambda f: [
            {**g, "low": f"{g['low']:,}", "high": f"{g['high']:,}"}
            for g in f.get("across", {}).get("groups", [])
            if g["pattern"] == "scattered"
        ],
    ),
    Rule(
        code="CTX026",
        name="session-silently-truncated",
        check="ctx.sessions",
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="The provider cut a session's history without an error",
            diagnosis="In session {short_id} ({start_text}) the input stayed at {truncated_text} tokens in turns {turns_text} while every "
            "turn added more: the provider dropped the start of the conversation silently (Ollama does this at num_ctx). "
            "Its real window is about {truncated_text} tokens; Codex never saw an error and never compacted.",
            remedy=(
                "{window_step}",
                "For Ollama, serve the model with a larger num_ctx (e.g. OLLAMA_CONTEXT_LENGTH=32768 or a Modelfile "
                "`PARAMETER num_ctx 32768`).",
            ),
        ),
        zh=Text(
            title="提供方在没有报错的情况下截断了会话历史",
            diagnosis="在会话 {short_id}（{start_text}）中，第 {turns_text} 轮的输入都停在 {truncated_text} tokens，而每一轮都在增加内容："
            "提供方悄悄丢掉了对话的开头（Ollama 在达到 num_ctx 时就会这样）。它的真实窗口约为 {truncated_text} tokens；Codex 没有看到任何错误，也从未压缩。",
            remedy=(
                "{window_step}",
                "如果是 Ollama，用更大的 num_ctx 部署模型（例如 OLLAMA_CONTEXT_LENGTH=32768，或在 Modelfile 中写 `PARAMETER num_ctx 32768`）。",
            ),
        ),
        when=lambda f: [
            {
                **_session_params(d),
                "truncated_text": f"{d['truncated_at']:,}",
                "turns_text": ", ".join(map(str, d["truncated_turns"])),
            }
            for d in f.get("sessions", [])
            if d.get("truncated_at")
        ],
    ),
    Rule(
        code="CTX016",
        name="outsized-turn",
        check="ctx.sessions",
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
            diagnosis="在会话 {short_id} 中，第 {turn} 轮新增了 {added} tokens（每轮增长的中位数为 {median_growth}）。这些内容会随之后的每一次请求重复发送。",
            remedy=("把这类旁支问题放到单独的会话里问，或在大段工具输出之后开一个新会话。",),
        ),
        when=lambda f: [
            {**o, "short_id": d["short_id"], "median_growth": int(d["median_growth"] or 0)}
            for d in f.get("sessions", [])
            for o in d["outsized"][:3]
        ],
    ),
    Rule(
        code="CTX017",
        name="compaction-never-fired",
        check="ctx.sessions",
        severity=W,
        verdict=CONTEXT,
        en=Text(
            title="Auto-compaction could not fire before the failure",
            diagnosis="Session {short_id} overflowed at {peak_text} tokens, but Codex only compacts at about {compact_text} tokens "
            "(90% of the window it assumes): the provider's limit came first.{others_text}",
            remedy=(
                "Set model_context_window (and model_auto_compact_token_limit) below the provider's real window at the top level "
                "of {user_config}; `codexdoctor probe` measures it.",
            ),
        ),
        zh=Text(
            title="失败之前自动压缩来不及触发",
            diagnosis="会话 {short_id} 在 {peak_text} tokens 时溢出，但 Codex 要到约 {compact_text} tokens（它假定窗口的 90%）才会压缩：提供方的上限先到了。{others_text}",
            remedy=(
                "在 {user_config} 顶层把 model_context_window（以及 model_auto_compact_token_limit）设到提供方真实窗口以下；`codexdoctor probe` 可以测出真实窗口。",
            ),
        ),
        # Said once per cause: CTX014 covers a group's sessions, CTX026 a truncated one.
        when=lambda f: [
            _group_params(group)
            for group in _groups(
                d
                for d in f.get("sessions", [])
                if d["kind"] == "context"
                and not d["compaction_would_fire"]
                and d["compact_at"]
                and not d.get("in_cluster")
                and not d.get("truncated_at")
            )
        ],
    ),
    Rule(
        code="CTX018",
        name="unreadable-log-lines",
        check="ctx.sessions",
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
            diagnosis="在会话 {short_id} 中，第 {turn} 轮起从提供方缓存命中的输入比例从 {before_pct} 降到 {after_pct}，而上下文仍在增长（{context} tokens）：请求的开头变了（改了指令、换了工具集或切换了模型），之后每一轮都要从头计算。",
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
    Rule(
        code="CTX021",
        name="context-exhausted-message",
        check="ctx.pasted",
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="The request exceeded the model's context window",
            diagnosis="{said_text} If it happens early in a session, the provider's window is smaller than the one Codex assumes "
            "and Codex does not compact in time.",
            remedy=(
                "Start a new session (or /compact) and carry a short summary instead of the history.",
                "{window_step}",
            ),
        ),
        zh=Text(
            title="请求超出了模型的上下文窗口",
            diagnosis="{said_text}如果在会话早期就出现，说明提供方的窗口比 Codex 假定的小，Codex 来不及压缩。",
            remedy=("开一个新会话（或执行 /compact），带一段简短的总结，而不是整段历史。", "{window_step}"),
        ),
        when=lambda f: [_pasted_context_params(f)] if f.get("kind") == "context" else [],
    ),
    Rule(
        code="CTX022",
        name="prefix-cache-not-working",
        check="ctx.probe",
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
            diagnosis="同一段 {prefix_tokens} tokens 的前缀发送两次，第二次只有 {repeat_cached} 个缓存命中的 token（首字延迟 {first_ttft}，之后 {repeat_ttft}）。没有前缀缓存，每一轮都要重读整段历史，首字延迟随每个问题增长。",
            remedy=("更早地拆分长会话并带上简短总结；保持会话开头（指令、工具）不变。", "{server_step}"),
        ),
        when=lambda f: [_cache_params(f)] if f.get("cache_verdict") == "not working" else [],
    ),
    Rule(
        code="CTX023",
        name="prefix-cache-not-reported",
        check="ctx.probe",
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
    Rule(
        code="CTX003",
        name="single-question-overflows",
        check="api.canary",
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="Even a one-line request overflows the window",
            diagnosis="POST {url} answered {status}: {message}. A tiny request exceeds the context window, so every Codex turn will fail.",
            remedy=(
                "Serve the model with a larger context window (at least 16,384 tokens for Codex), then set model_context_window in {user_config}.",
            ),
        ),
        zh=Text(
            title="一行的请求都超出了窗口",
            diagnosis="POST {url} 返回 {status}：{message}。一个很小的请求就超出了上下文窗口，所以 Codex 的每一轮都会失败。",
            remedy=(
                "用更大的上下文窗口部署模型（Codex 至少需要 16,384 tokens），然后在 {user_config} 中设置 model_context_window。",
            ),
        ),
        when=once(
            lambda f: (
                f["kind"] == "context_exceeded"
                and (not f.get("codex_shaped") or f.get("minimal_kind") == "context_exceeded")
            )
        ),
    ),
    Rule(
        code="CTX024",
        name="first-request-overflows",
        check="api.canary",
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="Codex's first request does not fit the window",
            diagnosis="POST {url} with Codex's own first request ({first_request} tokens: {first_text}) answered {status}: {message}.{minimal_text} "
            "The first turn of every Codex session fails this way.",
            remedy=(
                "Serve the model with a larger context window: more than {min_usable_text}, 32,768 to leave room for a session "
                "(llama.cpp `-c 32768`, vLLM `--max-model-len 32768`, Ollama `num_ctx`).",
                "{docs_step}",
            ),
            explanation="Codex 0.171 sends about 8,500 tokens of instructions and tool schemas before the user's words, plus every "
            "AGENTS.md file it finds; a one-line test passes where this fails.",
        ),
        zh=Text(
            title="Codex 的第一个请求放不进窗口",
            diagnosis="用 Codex 自己的第一个请求（{first_request} tokens：{first_text}）调用 POST {url}，返回 {status}：{message}。{minimal_text}"
            "每个 Codex 会话的第一轮都会这样失败。",
            remedy=(
                "用更大的上下文窗口部署模型：大于 {min_usable_text}，32,768 才能给会话留出空间"
                "（llama.cpp `-c 32768`、vLLM `--max-model-len 32768`、Ollama `num_ctx`）。",
                "{docs_step}",
            ),
        ),
        when=once(
            lambda f: (
                f["kind"] == "context_exceeded"
                and bool(f.get("codex_shaped"))
                and f.get("minimal_kind") != "context_exceeded"
            )
        ),
        settled_by=("ctx.window", lambda f: f.get("served") is not None and f["served"] < f["min_usable"]),
    ),
)
