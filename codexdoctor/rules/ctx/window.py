"""CTX, the provider's window against Codex's own requests: the first one and the first tool round."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.codex.request_words import part_said
from codexdoctor.codex.sizes import ANSWER_ROOM
from codexdoctor.rules.base import CONTEXT, E, I, Loc, Rule, Text, W, once

# What CTX028 and CTX029 ask for: a window too small for Codex's first tool round is fixed at the server.
LARGER_WINDOW_STEPS = (
    "Serve the model with a larger context window: 32,768 tokens or more (llama.cpp `-c 32768`, vLLM "
    "`--max-model-len 32768`, Ollama `num_ctx`).",
    "Then set model_context_window to it (and model_auto_compact_token_limit at about 80%) at the top level of "
    "{user_config}.",
)
LARGER_WINDOW_STEPS_ZH = (
    "用更大的上下文窗口运行模型：32,768 个 token 或更多（llama.cpp `-c 32768`，vLLM `--max-model-len 32768`，Ollama `num_ctx`）。",
    "然后在 {user_config} 顶层把 model_context_window 设为它（model_auto_compact_token_limit 设为约 80%）。",
)


def _own_text_step(parts: list[Mapping[str, Any]], cfg: str) -> Loc | None:
    """The config keys that put the user's own text into the first request (codex/request.py): `instructions`
    replaces Codex's base instructions, `developer_instructions` adds to them."""
    own = [
        (p["part"], p["tokens"])
        for p in parts
        if p["part"].startswith(("instructions (yours", "developer_instructions")) and p["tokens"] >= 500
    ]
    if not own:
        return None
    return Loc(
        " ".join(
            f"`{'instructions' if name.startswith('instructions') else 'developer_instructions'}` in {cfg} "
            f"puts {n:,} tokens of your own text into it: shorten it."
            for name, n in own
        ),
        " ".join(
            f"{cfg} 中的 `{'instructions' if name.startswith('instructions') else 'developer_instructions'}` "
            f"往里面放了 {n:,} 个 token 你自己的文字：把它缩短。"
            for name, n in own
        ),
    )


def _docs_step(f: Mapping[str, Any]) -> Loc:
    """What the user can shrink in the first request: their AGENTS.md files and their own instructions."""
    docs = f.get("docs") or []
    own_step = _own_text_step(f.get("first_parts") or [], f.get("user_config") or "~/.codex/config.toml")
    if own_step is not None and not docs:
        return own_step
    if docs:
        docs_text = ", ".join(f"{d['path']} {d['tokens']:,} tokens" for d in docs)
        return Loc(
            f"Your AGENTS.md files are part of it ({docs_text}): shorten them, or move detail into files Codex "
            "reads only when needed." + (" " + own_step.en if own_step else ""),
            f"你的 AGENTS.md 文件也在其中（{docs_text}）：精简它们，或把细节挪到 Codex 需要时才读取的文件里。"
            + (own_step.zh if own_step else ""),
        )
    return Loc(
        "Codex's own instructions and tool schemas are most of it; they cannot be shortened from the config.",
        "其中大部分是 Codex 自己的指令和工具定义，无法通过配置缩短。",
    )


def first_request_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """How Codex's first request is made up, and what the user can shrink (their AGENTS.md files)."""
    parts = f.get("first_parts") or []
    n = f.get("first_request")
    return {
        "first_request": f"{n:,}" if isinstance(n, int) else n,
        "first_text": Loc(
            ", ".join(f"{p['part']} {p['tokens']:,}" for p in parts) or "instructions plus tool schemas",
            "，".join(f"{part_said(p['part']).text('zh')} {p['tokens']:,}" for p in parts) or "指令加工具定义",
        ),
        # The server's own count beats ours: its tokenizer is the one the window is measured in.
        "min_usable_text": (
            Loc(
                f"{f['server_request']:,} tokens as this server counts them",
                f"{f['server_request']:,} 个 token（按该服务端的计数）",
            )
            if isinstance(f.get("server_request"), int)
            else f"{n:,} tokens"
            if isinstance(n, int)
            else "16,384 tokens"
        ),
        "room_text": Loc(
            f" After Codex's first request ({n:,} tokens) only {f['room']:,} tokens are left for the session.",
            f"扣除 Codex 的第一个请求（{n:,} 个 token）后，会话只剩 {f['room']:,} 个 token。",
        )
        if isinstance(n, int) and isinstance(f.get("room"), int) and f.get("first_counted")
        else "",
        "minimal_text": Loc(
            " A one-line request to the same URL passed, so the size is the cause.",
            "同一地址的一行请求可以通过，所以原因在于大小。",
        )
        if f.get("minimal_kind") == "ok"
        else "",
        "docs_step": _docs_step(f),
    }


def _new_window_step(f: Mapping[str, Any]) -> Loc:
    """CTX002's second step: the lines for the larger window it asks for (32,768), from the one window advice, instead
    of a `<served window>` placeholder (issue 40 review)."""
    from codexdoctor.rules.ctx.advice import window_step

    step = window_step(32768, f.get("user_config") or "~/.codex/config.toml", f.get("first_request"))
    return Loc(
        "Once it serves 32,768 tokens: " + step.en[0].lower() + step.en[1:], "改为 32,768 个 token 之后：" + step.zh
    )


def outgrown(f: Mapping[str, Any]) -> bool:
    """The user's own recent sessions came within 10% of the window the provider serves (issue 39): CTX001's warning
    about the future is then an error about the present."""
    peak, served = f.get("sessions_peak"), f.get("served")
    return bool(peak and served and peak >= 0.9 * served)


def cut_rule(f: Mapping[str, Any]) -> Loc:
    """How Codex cuts a tool output for this model, in both languages (the `tool_cut_rule` fact is its English)."""
    size, mode = int(f["tool_cut_bytes"]), f["tool_cut_mode"]
    half = size // 2
    if mode == "bytes":
        return Loc(
            f"Codex keeps {size:,} bytes of each output (the first and the last {half:,}, with `…N chars truncated…` "
            "between)",
            f"Codex 保留每个输出的 {size:,} 字节（开头和结尾各 {half:,} 字节，中间是 `…N chars truncated…`）",
        )
    return Loc(
        f"Codex keeps {size // 4:,} tokens of each output, counted as 4 bytes each: {size:,} bytes (the first and the "
        f"last {half:,}, with `…N tokens truncated…` between)",
        f"Codex 保留每个输出的 {size // 4:,} 个 token，按每个 4 字节计：{size:,} 字节（开头和结尾各 {half:,} 字节，中间是 "
        "`…N tokens truncated…`）",
    )


def _unpublished_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """CTX025's texts. A window the session logs show for this provider and model (ctx.sessions' one window, issue 40
    review: "about 16,000" two findings above "how much room is left … is unknown") is said as known, weighed against
    what Codex needs, and its finding gives the lines; only without one is the room unknown."""
    from codexdoctor.rules.ctx.advice import basis_words, reference

    cfg = f.get("user_config") or "~/.codex/config.toml"
    w = f.get("sessions_window")
    if not w:
        return {
            "room_said": Loc("how much room is left for a session is unknown", "但会话还剩多少空间未知"),
            "large_output_text": _unpublished_large_output(f),
            "window_set_step": Loc(
                "Then set model_context_window (and model_auto_compact_token_limit at about 80% of it) at the top "
                f"level of {cfg}.",
                f"然后在 {cfg} 顶层设置 model_context_window（以及约为其 80% 的 model_auto_compact_token_limit）。",
            ),
        }
    window, ref, basis = int(w["window"]), reference(w), basis_words(w)
    need = int(w["need"]["total"])
    verdict = (
        Loc(
            f" The {window:,}-token window the logs show is smaller: it is too small for Codex (see {ref.en}).",
            f"日志显示的 {window:,} 个 token 的窗口比它小：这个窗口对 Codex 来说太小了（见{ref.zh}）。",
        )
        if window < need
        else Loc(
            f" The {window:,}-token window the logs show holds it.", f"日志显示的 {window:,} 个 token 的窗口放得下。"
        )
    )
    return {
        "room_said": Loc(
            f"your session logs show its window: about {window:,} tokens, from {basis.en}",
            f"你的会话日志显示了它的窗口：约 {window:,} 个 token，依据是{basis.zh}",
        ),
        "large_output_text": _unpublished_large_output(f) + verdict,
        "window_set_step": Loc(
            f"What to do about the window the logs show: see {ref.en}.", f"针对日志显示的窗口该怎么做见{ref.zh}。"
        ),
    }


def _unpublished_large_output(f: Mapping[str, Any]) -> Loc:
    """CTX025, issue 38 item 4: what an unpublished window must hold besides the first request. The request after a
    tool call that check sends carries a typical output; the largest one Codex keeps is not sent (its cost), so the
    window it needs is said in numbers."""
    if not isinstance(f.get("tool_round"), int) or not isinstance(f.get("first_request"), int):
        return Loc("", "")
    first, tool_round = int(f["first_request"]), int(f["tool_round"])
    needed = first + tool_round + ANSWER_ROOM
    return Loc(
        f"The first large tool output (a long command output: a log, a listing of 3,000 lines) adds as much as "
        f"{tool_round:,} tokens: {cut_rule(f).en}. The first request ({first:,} tokens), that output ({tool_round:,} tokens) and "
        f"{ANSWER_ROOM:,} tokens kept for the answer make about {needed:,} tokens: a smaller window breaks there.",
        f"第一个大的工具输出（一段很长的命令输出：一份日志、3,000 行的列表）最多会增加 {tool_round:,} 个 token："
        f"{cut_rule(f).zh}。第一个请求（{first:,} 个 token）、这个输出（{tool_round:,} 个 token）和留给回答的 {ANSWER_ROOM:,} 个 token "
        f"合计约 {needed:,} 个 token：小于它的窗口会在那里中断。",
    )


RULES: tuple[Rule, ...] = (
    Rule(
        code="CTX001",
        name="served-window-smaller-than-assumed",
        check="ctx.window",
        reads=(
            "assumed",
            "assumed_source",
            "compact_at",
            "first_counted",
            "first_request",
            "min_usable",
            "room",
            "sessions_peak",
            "served",
            "source",
            "suggest_compact",
            "suggest_window",
            "user_config",
        ),
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
            diagnosis="提供方的窗口是 {served} 个 token（{source}），而 Codex 假定为 {assumed}（{assumed_source}），要到 {compact_at} 才会压缩。长会话会先撞上提供方的上限，Codex 来不及压缩，于是在一个固定位置断开。{room_text}",
            remedy=(
                "在 {user_config} 顶层（不要放在 profile 里）添加这两行：\nmodel_context_window = {suggest_window:d}\nmodel_auto_compact_token_limit = {suggest_compact:d}",
                "长任务每隔几轮就开一个新会话；带一段简短的总结过去，而不是整段历史。",
            ),
        ),
        when=once(
            lambda f: (
                f["served"] is not None
                and f["served"] >= f["min_usable"]
                and f["served"] < f["compact_at"]
                and not outgrown(f)
            )
        ),
    ),
    Rule(
        code="CTX033",
        name="sessions-outgrew-served-window",
        check="ctx.window",
        reads=(
            "assumed",
            "compact_at",
            "min_usable",
            "served",
            "sessions_peak",
            "sessions_peak_id",
            "source",
            "suggest_compact",
            "suggest_window",
            "user_config",
        ),
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="Your sessions have already outgrown the provider's window",
            diagnosis="The provider serves {served} tokens ({source}), and your session {sessions_peak_id} already reached "
            "{sessions_peak} tokens, while Codex assumes {assumed} and only compacts at {compact_at}. A single request "
            "works, but your sessions break when they reach the provider's limit, at the same point every time.",
            remedy=(
                "Add these lines at the top level of {user_config} (not inside a profile):\n"
                "model_context_window = {suggest_window:d}\nmodel_auto_compact_token_limit = {suggest_compact:d}",
                "Start a new session every few turns for long work; carry a short summary instead of the history.",
            ),
        ),
        zh=Text(
            title="你的会话已经超出了提供方的窗口",
            diagnosis="提供方的窗口是 {served} 个 token（{source}），而你的会话 {sessions_peak_id} 已经达到 {sessions_peak} 个 token；"
            "Codex 却假定为 {assumed}，要到 {compact_at} 才会压缩。单次请求没问题，但会话一长到提供方的上限就会断开，每次都断在同一处。",
            remedy=(
                "在 {user_config} 顶层（不要放在 profile 里）添加这两行：\nmodel_context_window = {suggest_window:d}\nmodel_auto_compact_token_limit = {suggest_compact:d}",
                "长任务每隔几轮就开一个新会话；带一段简短的总结过去，而不是整段历史。",
            ),
        ),
        when=once(
            lambda f: (
                f["served"] is not None
                and f["served"] >= f["min_usable"]
                and f["served"] < f["compact_at"]
                and outgrown(f)
            )
        ),
    ),
    Rule(
        code="CTX027",
        name="configured-window-below-first-request",
        check="ctx.window",
        reads=("assumed_source", "configured_below_first", "configured_compact_at", "first_request", "user_config"),
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
            diagnosis="会话超过 {configured_compact_at} 个 token（{assumed_source}）时 Codex 就会压缩，但光是它为你发出的第一个请求就有 "
            "{first_request} 个 token。Codex 仍会发出这个请求，然后在之后的每一轮之前都先压缩：每一轮都多花一次总结请求，"
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
        reads=(
            "added_bytes",
            "calls",
            "first_counted_by",
            "first_request",
            "kind",
            "message",
            "status",
            "turn_two_tokens",
            "user_config",
        ),
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="The first tool round does not fit the window",
            diagnosis="Codex's first request fits ({first_request} tokens, counted by the {first_counted_by_text}), but the request "
            "it sends after its first command ({turn_two_tokens} tokens with {calls_text} and about {kb} KB of output) "
            "answered {status}: {message}. A session breaks at the first command whose output does not fit in the room "
            "the first request leaves: the window is too small for Codex, even though a single question works.",
            remedy=LARGER_WINDOW_STEPS,
        ),
        zh=Text(
            title="第一轮工具调用放不进窗口",
            diagnosis="Codex 的第一个请求放得下（{first_request} 个 token，按{first_counted_by_text}计数），但它运行第一个命令之后发出的请求"
            "（带{calls_text}和约 {kb} KB 输出，{turn_two_tokens} 个 token）返回了 {status}：{message}。会话会在第一个输出放不进"
            "第一个请求之后剩余空间的命令处中断：这个窗口对 Codex 来说太小了，尽管单个问题可以用。",
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
                    # what was sent, as the turn-two note says it (Codex's parallel round: 2 calls)
                    "calls_text": Loc("one tool call", "一次工具调用")
                    if (f.get("calls") or 1) == 1
                    else Loc(f"{f.get('calls')} tool calls", f" {f.get('calls')} 次工具调用"),
                    "kb": max(1, round((f.get("added_bytes") or 0) / 1024)),
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
        reads=(
            "first_request",
            "min_usable",
            "room",
            "served",
            "source",
            "tool_cut_bytes",
            "tool_cut_mode",
            "tool_round_typical",
            "tool_round_typical_fits",
            "user_config",
            "api.turn_two:kind",
        ),
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="The window leaves no room for Codex's first tool round",
            diagnosis="The provider serves {served} tokens ({source}); Codex's first request takes {first_request} of them, which "
            "leaves {room}, less than one tool call and a typical output need (about {tool_round_typical} tokens: "
            "{cut_rule}). The first question works; every session breaks at its first command.",
            remedy=LARGER_WINDOW_STEPS,
        ),
        zh=Text(
            title="窗口放不下 Codex 的第一轮工具调用",
            diagnosis="提供方的窗口是 {served} 个 token（{source}）；Codex 的第一个请求占了其中 {first_request}，只剩 {room}，"
            "不够一次工具调用和一个普通输出（约 {tool_round_typical} 个 token：{cut_rule}）。第一个问题能用；"
            "每个会话都会在第一个命令处中断。",
            remedy=LARGER_WINDOW_STEPS_ZH,
        ),
        when=lambda f: (
            [{"cut_rule": cut_rule(f)}]
            if f.get("tool_round_typical_fits") is False and f["served"] >= f["min_usable"]
            else []
        ),
        settled_by=("api.turn_two", lambda f: f.get("kind") in ("ok", "context_exceeded")),
    ),
    Rule(
        code="CTX025",
        name="window-unpublished",
        check="ctx.window",
        reads=(
            "assumed",
            "assumed_source",
            "first_fit",
            "first_request",
            "model",
            "sessions_window",
            "tool_cut_bytes",
            "tool_cut_mode",
            "tool_round",
            "unpublished",
            "user_config",
        ),
        severity=I,
        verdict=CONTEXT,
        en=Text(
            title="The provider does not publish its window",
            diagnosis="Neither /models nor the server's info pages say how large {model}'s window is. Codex's first request for you "
            "({first_request} tokens) fit, so the first turn works; {room_said}, and Codex "
            "assumes {assumed} ({assumed_source}). {large_output_text}",
            remedy=(
                "Measure the usable window with a bounded number of tokens: codexdoctor probe",
                "{window_set_step}",
            ),
        ),
        zh=Text(
            title="提供方没有公布窗口大小",
            diagnosis="无论 /models 还是服务端的信息页面都没有说明 {model} 的窗口有多大。Codex 为你发出的第一个请求（{first_request} 个 token）放得下，"
            "所以第一轮可以工作；{room_said}，而 Codex 假定为 {assumed}（{assumed_source}）。{large_output_text}",
            remedy=("用有上限的 token 数测出可用窗口：codexdoctor probe", "{window_set_step}"),
        ),
        when=lambda f: [_unpublished_params(f)] if f.get("unpublished") and f.get("first_fit") is True else [],
    ),
    Rule(
        code="CTX002",
        name="window-too-small-for-codex",
        check="ctx.window",
        covers=("api.canary",),
        reads=("docs", "first_request", "min_usable", "served", "source", "user_config"),
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="Window too small for Codex's first request",
            diagnosis="The provider serves {served} tokens ({source}); Codex's first request for you is about {first_request} tokens "
            "({first_text}), so even the first turn fails while a one-line test passes.",
            remedy=(
                "Serve the model with a larger window (e.g. llama.cpp `-c 32768`, vLLM `--max-model-len 32768`, Ollama `num_ctx`), "
                "more than {min_usable} tokens; 32,768 leaves room for a session.",
                "{new_window_step}",
                "{docs_step}",
            ),
        ),
        zh=Text(
            title="窗口小到放不下 Codex 的第一个请求",
            diagnosis="提供方的窗口是 {served} 个 token（{source}）；Codex 为你发出的第一个请求约有 {first_request} 个 token（{first_text}），"
            "所以即使一行的测试能通过，第一轮也会失败。",
            remedy=(
                "用更大的窗口部署模型（例如 llama.cpp `-c 32768`、vLLM `--max-model-len 32768`、Ollama `num_ctx`），大于 {min_usable} 个 token；32,768 才能给会话留出空间。",
                "{new_window_step}",
                "{docs_step}",
            ),
        ),
        when=lambda f: (
            [{"new_window_step": _new_window_step(f)}]
            if f["served"] is not None and f["served"] < f["min_usable"]
            else []
        ),
    ),
    Rule(
        code="CTX003",
        name="single-question-overflows",
        check="api.canary",
        reads=("codex_shaped", "kind", "message", "minimal_kind", "status", "url", "user_config"),
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
                "用更大的上下文窗口部署模型（Codex 至少需要 16,384 个 token），然后在 {user_config} 中设置 model_context_window。",
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
        reads=(
            "codex_shaped",
            "docs",
            "first_parts",
            "first_request",
            "kind",
            "message",
            "minimal_kind",
            "server_request",
            "status",
            "url",
            "user_config",
            "ctx.window:min_usable",
            "ctx.window:served",
        ),
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
            diagnosis="用 Codex 自己的第一个请求（{first_request} 个 token：{first_text}）调用 POST {url}，返回 {status}：{message}。{minimal_text}"
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
