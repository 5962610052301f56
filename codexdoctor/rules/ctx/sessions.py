"""CTX, Codex's session logs: overflows, channel failures, clusters, truncation, the cache."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from codexdoctor.codex.sizes import CODEX_FIRST_REQUEST_TOKENS, window_settings
from codexdoctor.common.untrusted import clip
from codexdoctor.model import Verdict
from codexdoctor.rules.base import CHANNEL, CONTEXT, E, Loc, Rule, Text, W
from codexdoctor.rules.ctx.advice import window_step
from codexdoctor.rules.ctx.compaction import (
    answered_then_failed,
    compactions_recorded,
    group_compactions,
    real_text,
    truncation_compactions,
)

INCONCLUSIVE = Verdict.INCONCLUSIVE


def _first_only(d: Mapping[str, Any]) -> bool:
    """A session whose first request failed with no context size in its log (issue 40 review: "The largest context
    that worked was ? tokens"): the first request alone was too large, and no other session's window is its own."""
    return d.get("failed_turn") == 1 and not d.get("peak")


def _compact_earlier(d: Mapping[str, Any], cfg: str) -> Loc:
    value = window_settings(d.get("peak") or d.get("window") or 0)[1]
    return Loc(
        f"Let Codex compact earlier: set model_auto_compact_token_limit at the top level of {cfg} to about {value:,}, "
        "or start new sessions sooner.",
        f"让 Codex 更早压缩：在 {cfg} 顶层把 model_auto_compact_token_limit 设为约 {value:,}，或更早开新会话。",
    )


def _worked_text(d: Mapping[str, Any]) -> Loc:
    """CTX012's sentence on what the log shows before the failure: the largest context that worked against the window
    in the log; for a first request that failed, that it alone was too large (with its size when the provider's error
    states it), never a "?" (issue 40 review)."""
    peak, share, window = d.get("peak"), d.get("share"), d.get("window")
    if _first_only(d):
        size = d.get("server_request")
        said = (
            Loc(f", {size:,} tokens as the provider's error counts it,", f"（按提供方报错的计数为 {size:,} 个 token）")
            if size
            else Loc(" (Codex's instructions and tool schemas with your first message)", "（Codex 的指令和工具定义加上你的第一条消息）")
        )
        return Loc(
            f"No request of this session was answered, and its log holds no context size: its first request alone{said.en} "
            "was larger than the provider's window.",
            f"这个会话没有任何请求得到答复，日志里也没有上下文大小：光是它的第一个请求{said.zh}就超出了提供方的窗口。",
        )
    if not peak:
        return Loc("Its log holds no context size before the failure.", "失败前它的日志里没有记录上下文大小。")
    of = (
        Loc(
            f", {share:.0%} of Codex's effective window ({window:,}, the one in its log)",
            f"，占 Codex 有效窗口（{window:,}，即日志中的窗口）的 {share:.0%}",
        )
        if share is not None and window
        else Loc("", "")
    )
    return Loc(
        f"The largest context that worked was {peak:,} tokens{of.en}.", f"成功过的最大上下文是 {peak:,} 个 token{of.zh}。"
    )


def _first_only_real(d: Mapping[str, Any]) -> Loc | str:
    """A first request that failed: the window its provider's error states, if it states one (not "far below", not
    "never compacted": there was nothing to compact)."""
    if not d.get("server_window"):
        return ""
    return Loc(
        f" The provider's error states its window: {d['server_window']:,} tokens.",
        f"提供方的报错写明了它的窗口：{d['server_window']:,} 个 token。",
    )


def _first_only_step(f: Mapping[str, Any], d: Mapping[str, Any]) -> Loc:
    """What to do when a first request alone did not fit and its own log states no window: never another session's
    window as its own (issue 40 review: 16,000 borrowed for a session that broke at 12,000)."""
    from codexdoctor.rules.ctx.advice import _LARGER, reference, window_for

    w = window_for(f, d.get("provider"), d.get("model"))
    first = int(w["need"]["first_request"]) if w else CODEX_FIRST_REQUEST_TOKENS  # this run's count, when it made one
    step = Loc(
        "Start sessions with a shorter first message (give a file's path and let Codex read it instead of pasting "
        f"its text); if Codex's own first request (about {first:,} tokens) is most of it, the window "
        f"is too small for Codex. {_LARGER.en} `codexdoctor check` sends Codex's first request and shows whether it fits.",
        f"会话的第一条消息写短一些（给出文件路径让 Codex 去读，而不是粘贴全文）；如果大部分是 Codex 自己的第一个请求（约 "
        f"{first:,} 个 token），这个窗口对 Codex 来说就太小了。{_LARGER.zh}"
        "`codexdoctor check` 会发出 Codex 的第一个请求，看它是否放得下。",
    )
    if w is None:
        return step
    ref = reference(w)
    return step + Loc(
        f" The window of {w['window']:,} tokens this run takes for `{d.get('provider')}` / {d.get('model')} comes "
        f"from other sessions (see {ref.en}): this one's log cannot confirm it.",
        f"本次运行为 `{d.get('provider')}` / {d.get('model')} 采用的 {w['window']:,} 个 token 的窗口来自其他会话（见{ref.zh}）："
        "这个会话的日志无法证实它。",
    )


def _session_params(d: Mapping[str, Any], f: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A session's texts. `f`: the check's facts, for the run's one window of its provider and model (advice.py)."""
    from codexdoctor.rules.ctx.advice import session_window_step

    f = f or {}
    share = d.get("share")
    real = d.get("real_window")
    turns = d.get("turns_per_session")
    growth = int(d.get("median_growth") or 0)
    cfg = d.get("user_config") or "~/.codex/config.toml"
    fallback = window_step(real, cfg, answered=d.get("peak")) if real else _compact_earlier(d, cfg)
    ids = {str(d.get("short_id"))} | set(d.get("group_ids") or ())
    return {
        **d,
        "start_text": d["start"][:16].replace("T", " ") if d.get("start") else Loc("time unknown", "时间未知"),
        "peak_text": f"{d['peak']:,}" if d.get("peak") else "?",
        "compact_text": f"{d['compact_at']:,}" if d.get("compact_at") else "?",
        "share_text": f"{share:.0%}" if share is not None else Loc("an unknown share", "未知"),
        "worked_text": _worked_text(d),
        "size_text": _size_text(d),
        "window_text": f"{d['window']:,}" if d.get("window") else Loc("window", "窗口"),
        "error_short": clip(
            " ".join((d.get("error") or d.get("error_info") or "error").split(", url:")[0].split()), 160
        ),
        "evidence": evidence_words(d.get("evidence") or ""),
        # the colon before it, left out with it when the session has no evidence phrase (never "…`: , so", issue 40)
        "evidence_colon": Loc(": ", "：") if d.get("evidence") else "",
        "real_text": (_first_only_real(d) if _first_only(d) else real_text(d) if real else ""),
        "window_step": _first_only_step(f, d)
        if _first_only(d) and not d.get("server_window")
        else session_window_step(f, d.get("provider"), d.get("model"), ids, fallback),
        "session_step": ""
        if _first_only(d)
        else Loc(
            f"Start a new session every {turns} turns (median growth {growth:,} tokens per turn) to stay under "
            "70% of the window.",
            f"每 {turns} 轮开一个新会话（每轮增长的中位数为 {growth:,} 个 token），让上下文保持在窗口的 70% 以下。",
        )
        if turns
        else Loc(
            "Start a new session before the context reaches 70% of the window.",
            "在上下文达到窗口的 70% 之前开一个新会话。",
        ),
    }


def _size_text(d: Mapping[str, Any]) -> Loc:
    """How full the context was, against a window that exists (issue 39): the provider's when a log showed it, else
    the one Codex assumes, said as such, never read as "not a full context"."""
    peak, real, window = d.get("peak"), d.get("real_window") or d.get("server_window"), d.get("window")
    if not peak:
        return Loc("no context size was logged before it", "失败前日志里没有记录上下文大小")
    if real:
        return Loc(
            f"the context was {peak:,} tokens, {peak / real:.0%} of the provider's {real:,}",
            f"当时上下文为 {peak:,} 个 token，是提供方窗口 {real:,} 的 {peak / real:.0%}",
        )
    if window:
        return Loc(
            f"the context was {peak:,} tokens ({peak / window:.0%} of Codex's effective window, {window:,}; the "
            "provider's window is unknown)",
            f"当时上下文为 {peak:,} 个 token（是 Codex 有效窗口 {window:,} 的 {peak / window:.0%}；提供方的窗口未知）",
        )
    return Loc(f"the context was {peak:,} tokens", f"当时上下文为 {peak:,} 个 token")


def _folded_errors(g: Mapping[str, Any], sessions: list[Mapping[str, Any]]) -> Loc | str:
    """The words each clustered session ended with, said as what they are: this limit seen through the gateway."""
    ids = set(g["ids"])
    errors = [d.get("error") for d in sessions if d["id"] in ids and d.get("settled") == "cluster" and d.get("error")]
    if not errors:
        return ""
    counts: dict[str, int] = {}
    for e in errors:
        short = clip(" ".join(str(e).split(", url:")[0].split()), 120)
        counts[short] = counts.get(short, 0) + 1
    listed = "; ".join(f"`{e}`" + (f" ×{n}" if n > 1 else "") for e, n in counts.items())
    return Loc(
        f" This is also why those sessions ended with {listed}: the provider's limit, reported as a cut or failed "
        "stream, not a separate channel fault.",
        f"这也是这些会话以 {listed} 结束的原因：那是提供方的上限，以中断或失败的流的形式报出来，不是另一个通道故障。",
    )


_KEY_REJECTED = re.compile(r"\b401\b|unauthorized|invalid api key|incorrect api key", re.I)


def _said(params: Mapping[str, Any]) -> str:
    """A session's error as its log said it, for the key-rejected test: `http 401` or the message's own words."""
    return f"{params.get('error_info') or ''} {params.get('error') or ''}"


def _compact_step(f: Mapping[str, Any], params: Mapping[str, Any]) -> Loc:
    """CTX017's step: the run's one window for the provider and model when the logs show one (its finding gives the
    lines), else where to set one; for a provider and model the config does not use, for when the user goes back to
    them (issue 40 review)."""
    from codexdoctor.rules.ctx.advice import elsewhere, reference, window_for

    provider, model = params.get("provider"), params.get("model")
    w = window_for(f, provider, model)
    other = elsewhere(f, provider, model, len(params.get("group_ids") or [1]))
    if w is not None:
        ref = reference(w)
        step = Loc(
            f"The window this run takes for `{provider}` / {model} is {w['window']:,} tokens: what to do with it, see "
            f"{ref.en}.",
            f"本次运行为 `{provider}` / {model} 采用的窗口是 {w['window']:,} 个 token：该怎么做见{ref.zh}。",
        )
    else:
        cfg = params.get("user_config") or "~/.codex/config.toml"
        step = Loc(
            "Set model_context_window (and model_auto_compact_token_limit) below the provider's real window at the top "
            f"level of {cfg}; `codexdoctor probe` measures it.",
            f"在 {cfg} 顶层把 model_context_window（以及 model_auto_compact_token_limit）设到提供方真实窗口以下；"
            "`codexdoctor probe` 可以测出真实窗口。",
        )
    return other + Loc(" If you go back to them: ", "如果你再用它们：") + step if other else step


def _channel_step(params: Mapping[str, Any], f: Mapping[str, Any] | None = None) -> Loc:
    """What the message itself already says (issue 40: a plain 401 was sent to `diagnose-error` to be classified).
    `params` are the session's (`_session_params`): its clipped error, provider and config file. A provider the
    current config does not define has no table to check (issue 40 review: `[model_providers.other]`)."""
    said = _said(params)
    if params.get("error_info") == "http 401" or _KEY_REJECTED.search(said):
        provider = params.get("provider")
        defined = (f or {}).get("providers_defined")
        if provider and defined is not None and provider not in defined:
            now = (f or {}).get("current_provider")
            return Loc(
                f"The provider rejected the key (401). The session ran on provider `{provider}`, which your current "
                f"config does not define (it uses `{now}`): if you use `{provider}` again, make sure the variable its "
                "`env_key` names holds that provider's key, whole. `codexdoctor check` tests the key of the provider "
                "your config uses now.",
                f"提供方拒绝了密钥（401）。这个会话运行在提供方 `{provider}` 上，而你当前的配置没有定义它（它用的是 `{now}`）："
                f"如果你再用 `{provider}`，要确认它的 `env_key` 所指的变量里是那个提供方的完整密钥。"
                "`codexdoctor check` 会测试你当前所用提供方的密钥。",
            )
        table = f"[model_providers.{provider}]" if provider else "the provider's table"
        cfg = params.get("user_config") or "~/.codex/config.toml"
        return Loc(
            f"The provider rejected the key (401): check that the variable `env_key` names in {table} of {cfg} holds "
            "this provider's key, whole; `codexdoctor check` shows its length and fingerprint and sends it.",
            f"提供方拒绝了密钥（401）：确认 {cfg} 中 {table} 的 `env_key` 所指的变量里是这个提供方的密钥、而且完整；"
            "`codexdoctor check` 会显示它的长度和指纹，并用它发请求。",
        )
    return Loc(
        f'Classify the exact message: codexdoctor diagnose-error "{params["error_short"]}"',
        f'对这条消息做分类：codexdoctor diagnose-error "{params["error_short"]}"',
    )


def _groups(sessions: Any) -> list[list[Mapping[str, Any]]]:
    """Sessions of one provider, model and window (one config), in the order they first appear: one finding each
    (issue 28: 17 logs gave eight CTX012 findings for one setup, each with its own window advice)."""
    groups: dict[tuple[Any, Any, Any, bool], list[Mapping[str, Any]]] = {}
    for d in sessions:
        # a first request that failed is its own finding: the others' sizes are not its (issue 40 review)
        groups.setdefault((d.get("provider"), d.get("model"), d.get("window"), _first_only(d)), []).append(d)
    return list(groups.values())


def _group_params(group: list[Mapping[str, Any]], f: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The group's finding speaks of its latest session; the window it names is the smallest real window any of them
    showed, and its advice the run's one window for the provider and model (advice.session_window_step)."""
    latest = max(group, key=lambda d: d.get("start") or "")
    reals = [d["real_window"] for d in group if d.get("real_window")]
    ids = [str(d.get("short_id")) for d in group]
    params = _session_params({**latest, "group_ids": ids, **({"real_window": min(reals)} if reals else {})}, f)
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


def _session_evidence(group: list[Mapping[str, Any]]) -> tuple[Loc, ...]:
    """Evidence lines for the sessions a finding speaks of, and only those, in both languages."""
    lines = []
    for d in group[:20]:
        size = d.get("last_ok") or d.get("peak")
        start = (d.get("start") or "?")[:16].replace("T", " ")
        who = f"{d.get('provider') or '?'} / {d.get('model') or '?'}"
        turn = d.get("failed_turn")
        lines.append(
            Loc(
                f"session {d['short_id']} ({start}): {who}, "
                + (f"largest context that worked {size:,} tokens" if size else "no size logged")
                + (f", failed at turn {turn}" if turn else ""),
                f"会话 {d['short_id']}（{start}）：`{d.get('provider') or '?'}` / `{d.get('model') or '?'}`，"
                + (f"成功过的最大上下文 {size:,} 个 token" if size else "日志中没有大小")
                + (f"，在第 {turn} 轮失败" if turn else ""),
            )
        )
    if len(group) > 20:
        lines.append(Loc(f"and {len(group) - 20} more sessions", f"另有 {len(group) - 20} 个会话"))
    return tuple(lines)


def evidence_words(phrase: str) -> Loc:
    """A session's `evidence` fact in both languages (a phrase the table does not hold is quoted as it is; the check
    says the ones made of numbers in its `said`, which a rule reads first)."""
    return _EVIDENCE.get(phrase, Loc(phrase, phrase))


def _cluster_step(f: Mapping[str, Any], g: Mapping[str, Any]) -> Loc:
    """CTX014's window step: the run's one window for the group's provider and model (advice.session_window_step),
    the lines when it is the cluster's break point or a window one of its sessions states."""
    from codexdoctor.rules.ctx.advice import session_window_step

    ids = set(g["ids"])
    short = {str(d.get("short_id")) for d in f.get("sessions", []) if d["id"] in ids}
    fallback = window_step(g["median"], f.get("user_config") or "~/.codex/config.toml")
    return session_window_step(f, g.get("provider"), g.get("model"), short, fallback)


def _outlier_text(g: Mapping[str, Any], sessions: list[Mapping[str, Any]]) -> Loc | str:
    outliers = g.get("outliers") or []
    if not outliers:
        return ""
    names = {d["id"]: d["short_id"] for d in sessions}
    listed = ", ".join(f"{names.get(o['id'], o['id'][:8])} at {o['size']:,}" for o in outliers[:5])
    listed_zh = "；".join(f"{names.get(o['id'], o['id'][:8])}：{o['size']:,} 个 token" for o in outliers[:5])
    return Loc(
        f" {len(outliers)} other session{'s' if len(outliers) != 1 else ''} broke elsewhere ({listed}); "
        + ("see its own finding." if len(outliers) == 1 else "see their own findings."),
        f"另有 {len(outliers)} 个会话断在别处（{listed_zh}），"
        + ("见它自己的结论。" if len(outliers) == 1 else "见它们各自的结论。"),
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
    "the session's first request failed: a single question fails too": Loc(
        "the session's first request failed: a single question fails too",
        "会话的第一个请求就失败了：单次提问也会失败",
    ),
    "a message that does not say whether the context or the channel broke": Loc(
        "a message that does not say whether the context or the channel broke",
        "这条消息本身说明不了是上下文还是通道出了问题",
    ),
    # Codex's sentence names how the provider ended the answer (checks/sessions/messages.py ENDING_EVIDENCE, issue 38)
    "the provider cut the answer short (`Incomplete response returned, reason: max_output_tokens`)": Loc(
        "the provider cut the answer short (`Incomplete response returned, reason: max_output_tokens`)",
        "提供方把回答截短了（`Incomplete response returned, reason: max_output_tokens`）",
    ),
    "the provider ended the answer incomplete (`Incomplete response returned`: a content filter or another reason)": Loc(
        "the provider ended the answer incomplete (`Incomplete response returned`: a content filter or another reason)",
        "提供方让回答不完整地结束了（`Incomplete response returned`：内容过滤或其他原因）",
    ),
    "Codex's `Quota exceeded.`: the key's quota is used up": Loc(
        "Codex's `Quota exceeded.`: the key's quota is used up", "Codex 的 `Quota exceeded.`：密钥的额度已用尽"
    ),
    "the provider does not let this key use the model (usage_not_included)": Loc(
        "the provider does not let this key use the model (usage_not_included)",
        "提供方不允许这个密钥使用该模型（usage_not_included）",
    ),
    "the provider said the model is at capacity (`Selected model is at capacity.`)": Loc(
        "the provider said the model is at capacity (`Selected model is at capacity.`)",
        "提供方说模型的容量已满（`Selected model is at capacity.`）",
    ),
    "the provider rate-limited every attempt Codex made (`rate limit exceeded: …`)": Loc(
        "the provider rate-limited every attempt Codex made (`rate limit exceeded: …`)",
        "Codex 的每次尝试都被提供方限流（`rate limit exceeded: …`）",
    ),
    "a stable break point across sessions": Loc("a stable break point across sessions", "多个会话的断点稳定在同一处"),
    "breaks that wander across sessions": Loc("breaks that wander across sessions", "多个会话的断点忽大忽小"),
    'Codex\'s "high demand" message, which stands for a 5xx from the provider': Loc(
        'Codex\'s "high demand" message, which stands for a 5xx from the provider',
        "Codex 的“high demand”提示，它代表提供方返回了 5xx",
    ),
}


RULES: tuple[Rule, ...] = (
    Rule(
        code="CTX012",
        name="session-overflowed",
        check="ctx.sessions",
        reads=("sessions", "current_model", "current_provider", "providers_defined", "windows"),
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="A session ran out of context",
            diagnosis="Session {short_id} ({start_text}) failed at turn {failed_turn}{evidence_colon}{evidence}. {worked_text}{real_text}{others_text}",
            remedy=(
                "{window_step}",
                "{session_step}",
                "Carry a 5-line summary into the next session instead of the history; move side questions to their own session.",
            ),
        ),
        zh=Text(
            title="有会话耗尽了上下文",
            diagnosis="会话 {short_id}（{start_text}）在第 {failed_turn} 轮失败{evidence_colon}{evidence}。{worked_text}{real_text}{others_text}",
            remedy=(
                "{window_step}",
                "{session_step}",
                "开新会话时带上一段 5 行的总结，而不是整段历史；把旁支问题放到各自的会话里。",
            ),
        ),
        # A session in a group that breaks at one size gets the group's advice (CTX014) instead of its own.
        when=lambda f: [
            _group_params(group, f)
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
        reads=("current_provider", "pasted", "providers_defined", "sessions"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="A session failed on the channel, not the context",
            diagnosis="Session {short_id} ({start_text}) failed at turn {failed_turn} with `{error_short}`{evidence_colon}{evidence}, so the "
            "provider or the network failed, not a full context; {size_text}.",
            remedy=(
                "Run `codexdoctor check` to test the channel as it is now.",
                "{second_step}",
            ),
        ),
        zh=Text(
            title="有会话因通道失败，而不是上下文",
            diagnosis="会话 {short_id}（{start_text}）在第 {failed_turn} 轮以 `{error_short}` 失败{evidence_colon}{evidence}，所以是提供方或网络出了问题，不是上下文满了；{size_text}。",
            remedy=(
                "运行 `codexdoctor check` 测试通道的当前状态。",
                "{second_step}",
            ),
        ),
        # Sessions whose words alone decided nothing are judged with their provider's others (CTX014, CTX015).
        # Inside diagnose-error (`pasted`), a step that says "run diagnose-error on it" points at itself (issue 40).
        when=lambda f: [
            {
                **params,
                "second_step": ""
                if f.get("pasted") and not _KEY_REJECTED.search(_said(params))
                else _channel_step(params, f),
            }
            for params in (_session_params(d, f) for d in f.get("sessions", []) if d["kind"] == "channel")
            if not params.get("settled")
        ],
    ),
    Rule(
        code="CTX014",
        name="failures-cluster",
        check="ctx.sessions",
        reads=("across", "sessions", "user_config", "current_model", "current_provider", "providers_defined", "windows"),
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="Sessions break at the same size",
            diagnosis="{core} of {failures} failed sessions of {model} on `{provider}` broke at {median_text} tokens ± {within_pct} "
            "(between {low} and {high}): a stable break point, so the limit is the context.{compacted_text}{folded_text}"
            "{outlier_text}",
            remedy=(
                "{window_step}",
                "Start new sessions before they reach about {seventy} tokens.",
            ),
        ),
        zh=Text(
            title="多个会话在同一大小处断开",
            diagnosis="`{provider}` 上 {model} 的 {failures} 个失败会话中，有 {core} 个断在 {median_text} 个 token ± {within_pct}（{low} 到 {high} 之间）：断点稳定，所以限制来自上下文。{compacted_text}{folded_text}{outlier_text}",
            remedy=(
                "{window_step}",
                "在会话达到约 {seventy} 个 token 之前就开新会话。",
            ),
        ),
        when=lambda f: [
            {
                **g,
                "spread_pct": f"{g['spread']:.0%}",
                "user_config_text": f.get("user_config") or "~/.codex/config.toml",
                "within_pct": f"{g.get('within', g['spread'] / 2):.0%}",
                "core": g.get("core", g["failures"]),
                "compacted_text": group_compactions(g),
                "outlier_text": _outlier_text(g, f.get("sessions", [])),
                "folded_text": _folded_errors(g, f.get("sessions", [])),
                "finding_evidence": _session_evidence([d for d in f.get("sessions", []) if d["id"] in set(g["ids"])]),
                "low": f"{g['low']:,}",
                "high": f"{g['high']:,}",
                "median": g["median"],
                "median_text": f"{g['median']:,}",
                "seventy": f"{int(g['median'] * 0.7):,}",
                "window_step": _cluster_step(f, g),
            }
            for g in f.get("across", {}).get("groups", [])
            if g["pattern"] == "cluster"
        ],
    ),
    Rule(
        code="CTX015",
        name="failures-scattered",
        check="ctx.sessions",
        reads=("across",),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Failures scatter at low usage",
            diagnosis="{failures} failed sessions of {model} on `{provider}` broke at scattered sizes ({low}-{high} tokens){why_text}: "
            "that points at the channel (key, rate limits, provider availability), not the context.",
            remedy=(
                "Run `codexdoctor check`, and `codexdoctor probe` to see whether failures follow the session size.",
            ),
        ),
        zh=Text(
            title="失败分散在低用量处",
            diagnosis="`{provider}` 上 {model} 的 {failures} 个失败会话断在分散的大小上（{low}-{high} 个 token）{why_text}：这指向通道（密钥、限流、提供方可用性），而不是上下文。",
            remedy=("运行 `codexdoctor check`，并用 `codexdoctor probe` 看失败是否随会话大小变化。",),
        ),
        when=lambda f: [
            {
                **g,
                "low": f"{g['low']:,}",
                "high": f"{g['high']:,}",
                "why_text": Loc(
                    f", all under half of Codex's effective window ({g['window']:,})",
                    f"，都不到 Codex 有效窗口（{g['window']:,}）的一半",
                )
                if g.get("low_usage") and g.get("window") and not g.get("unclear")
                else Loc(
                    ", with messages that alone do not say which broke, where a full window breaks at one size every time",
                    "，而这些消息本身说明不了是哪一边出了问题；如果是窗口满了，每次都会断在同一个大小",
                ),
            }
            for g in f.get("across", {}).get("groups", [])
            if g["pattern"] == "scattered"
        ],
    ),
    Rule(
        code="CTX031",
        name="session-failure-undecided",
        check="ctx.sessions",
        reads=("sessions",),
        severity=W,
        verdict=INCONCLUSIVE,
        en=Text(
            title="A session failed with a message that does not say why",
            diagnosis="Session {short_id} ({start_text}) failed at turn {failed_turn} with `{error_short}`; {size_text}. On its own "
            "this message cannot tell the context from the channel: a gateway without full Responses streaming, a proxy or "
            "CDN that buffers or cuts event streams, a read or idle timeout at the gateway during a long prefill, and an "
            "upstream window reported as a cut stream all end this way. Its provider has no other failed session to "
            "compare: one size every time would be the context, wandering sizes or a first question failing the channel.",
            remedy=(
                "Run `codexdoctor check`: a single question, and Codex's request after a tool call, through the same "
                "provider.",
                "Run `codexdoctor probe` to grow a session through the same provider until it breaks: one size every "
                "time is the window.",
            ),
            explanation="The seed guide's rule: a break at the same size every time is the context; a break at wandering "
            "sizes, or a single question that fails too, is the channel. One failure with a message that names neither "
            '(stream closed, Codex\'s "high demand" mask of a 5xx, a 429 after its retries, a timeout) cannot decide.',
        ),
        zh=Text(
            title="有会话失败了，但报错没有说明原因",
            diagnosis="会话 {short_id}（{start_text}）在第 {failed_turn} 轮以 `{error_short}` 失败；{size_text}。单凭这条消息分不清是上下文还是通道："
            "不完整支持 Responses 流式的网关、缓冲或切断事件流的代理或 CDN、网关在长时间预填充时的读取或空闲超时、以被切断的流报告上游窗口超限，"
            "都会这样结束。该提供方没有其他失败的会话可以对比：每次断在同一大小是上下文，大小忽大忽小或单次提问也失败则是通道。",
            remedy=(
                "运行 `codexdoctor check`：通过同一提供方发一次单次提问，以及 Codex 在工具调用之后的请求。",
                "运行 `codexdoctor probe`，通过同一提供方让会话逐步增长直到断开：每次都断在同一大小，那就是窗口。",
            ),
        ),
        when=lambda f: [
            _session_params(d)
            for d in f.get("sessions", [])
            if d.get("unclear") and not d.get("settled") and d["kind"] == "unknown"
        ],
    ),
    Rule(
        code="CTX026",
        name="session-silently-truncated",
        check="ctx.sessions",
        reads=("sessions", "current_model", "current_provider", "providers_defined", "windows"),
        severity=E,
        verdict=CONTEXT,
        en=Text(
            title="The provider cut a session's history without an error",
            diagnosis="In session {short_id} ({start_text}) the input stayed at {truncated_text} tokens in turns {turns_text} while every "
            "turn added more: the provider dropped the start of the conversation silently (Ollama does this at num_ctx). "
            "Its real window is about {truncated_text} tokens; {compacted_text}",
            remedy=(
                "{window_step}",
                "For Ollama, serve the model with a larger num_ctx (e.g. OLLAMA_CONTEXT_LENGTH=32768 or a Modelfile "
                "`PARAMETER num_ctx 32768`).",
            ),
        ),
        zh=Text(
            title="提供方在没有报错的情况下截断了会话历史",
            diagnosis="在会话 {short_id}（{start_text}）中，第 {turns_text} 轮的输入都停在 {truncated_text} 个 token，而每一轮都在增加内容："
            "提供方悄悄丢掉了对话的开头（Ollama 在达到 num_ctx 时就会这样）。它的真实窗口约为 {truncated_text} 个 token；{compacted_text}",
            remedy=(
                "{window_step}",
                "如果是 Ollama，用更大的 num_ctx 部署模型（例如 OLLAMA_CONTEXT_LENGTH=32768，或在 Modelfile 中写 `PARAMETER num_ctx 32768`）。",
            ),
        ),
        when=lambda f: [
            {
                **_session_params(d, f),
                "truncated_text": f"{d['truncated_at']:,}",
                "compacted_text": truncation_compactions(d),
                "turns_text": Loc(", ".join(map(str, d["truncated_turns"])), "、".join(map(str, d["truncated_turns"]))),
            }
            for d in f.get("sessions", [])
            if d.get("truncated_at")
        ],
    ),
    Rule(
        code="CTX017",
        name="compaction-never-fired",
        check="ctx.sessions",
        reads=("sessions", "current_model", "current_provider", "providers_defined", "windows"),
        severity=W,
        verdict=CONTEXT,
        en=Text(
            title="Auto-compaction could not fire before the failure",
            diagnosis="In session {short_id}, {answered_text}, but Codex only compacts at about {compact_text} tokens "
            "(90% of the window it assumes): the provider's limit came first.{compacted_text}{others_text}",
            remedy=("{compact_step}",),
        ),
        zh=Text(
            title="失败之前自动压缩来不及触发",
            diagnosis="会话 {short_id} 中，{answered_text}，但 Codex 要到约 {compact_text} 个 token（它假定窗口的 90%）才会压缩：提供方的上限先到了。{compacted_text}{others_text}",
            remedy=("{compact_step}",),
        ),
        # Said once per cause: CTX014 covers a group's sessions, CTX026 a truncated one.
        when=lambda f: [
            {
                **(params := _group_params(group, f)),
                "answered_text": answered_then_failed(params),
                "compacted_text": compactions_recorded(params),
                "compact_step": _compact_step(f, params),
            }
            for group in _groups(
                d
                for d in f.get("sessions", [])
                if d["kind"] == "context"
                and not d["compaction_would_fire"]
                and d["compact_at"]
                and not d.get("in_cluster")
                and not d.get("truncated_at")
                and not _first_only(d)
            )
        ],
    ),
)
