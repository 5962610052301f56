"""CTX, Codex's session logs: overflows, channel failures, clusters, truncation, the cache."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
from codexdoctor.rules.ctx.sessionsteps import (
    KEY_REJECTED,
    channel_step,
    cluster_step,
    compact_earlier,
    compact_step,
    first_only,
    first_only_real,
    first_only_step,
    said_of,
    worked_text,
)

INCONCLUSIVE = Verdict.INCONCLUSIVE


def _session_params(
    d: Mapping[str, Any], f: Mapping[str, Any] | None = None, group: list[str] | None = None
) -> dict[str, Any]:
    """A session's texts. `f`: the check's facts, for the run's one window of its provider and model (advice.py);
    `group`: the short ids of the sessions the finding speaks of, when it speaks of more than this one."""
    from codexdoctor.rules.ctx.advice import session_window_step

    f = f or {}
    share = d.get("share")
    real = d.get("real_window")
    turns = d.get("turns_per_session")
    growth = int(d.get("median_growth") or 0)
    cfg = d.get("user_config") or "~/.codex/config.toml"
    fallback = window_step(real, cfg, answered=d.get("peak")) if real else compact_earlier(d, cfg)
    ids = {str(d.get("short_id")), *(group or ())}
    return {
        **d,
        "start_text": d["start"][:16].replace("T", " ") if d.get("start") else Loc("time unknown", "时间未知"),
        "peak_text": f"{d['peak']:,}" if d.get("peak") else "?",
        "compact_text": f"{d['compact_at']:,}" if d.get("compact_at") else "?",
        "share_text": f"{share:.0%}" if share is not None else Loc("an unknown share", "未知"),
        "worked_text": worked_text(d),
        "size_text": _size_text(d),
        "window_text": f"{d['window']:,}" if d.get("window") else Loc("window", "窗口"),
        "error_short": clip(
            " ".join((d.get("error") or d.get("error_info") or "error").split(", url:")[0].split()), 160
        ),
        "evidence": evidence_words(d.get("evidence") or ""),
        # the colon before it, left out with it when the session has no evidence phrase (never "…`: , so", issue 40)
        "evidence_colon": Loc(": ", "：") if d.get("evidence") else "",
        "real_text": (first_only_real(d) if first_only(d) else real_text(d) if real else ""),
        "window_step": first_only_step(f, d)
        if first_only(d) and not d.get("server_window")
        else session_window_step(f, d.get("provider"), d.get("model"), ids, fallback),
        "session_step": ""
        if first_only(d)
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


def _groups(sessions: Any) -> list[list[Mapping[str, Any]]]:
    """Sessions of one provider, model and window (one config), in the order they first appear: one finding each
    (issue 28: 17 logs gave eight CTX012 findings for one setup, each with its own window advice)."""
    groups: dict[tuple[Any, Any, Any, bool], list[Mapping[str, Any]]] = {}
    for d in sessions:
        # a first request that failed is its own finding: the others' sizes are not its (issue 40 review)
        groups.setdefault((d.get("provider"), d.get("model"), d.get("window"), first_only(d)), []).append(d)
    return list(groups.values())


def _group_params(group: list[Mapping[str, Any]], f: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The group's finding speaks of its latest session; the window it names is the smallest real window any of them
    showed, and its advice the run's one window for the provider and model (advice.session_window_step)."""
    latest = max(group, key=lambda d: d.get("start") or "")
    reals = [d["real_window"] for d in group if d.get("real_window")]
    ids = [str(d.get("short_id")) for d in group]
    params = _session_params({**latest, **({"real_window": min(reals)} if reals else {})}, f, ids)
    params["group_ids"] = ids
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
        reads=("sessions", "user_config", "current_model", "current_provider", "providers_defined", "windows"),
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
        reads=(
            "current_model",
            "current_provider",
            "pasted",
            "providers_defined",
            "sessions",
            "user_config",
            "windows",
        ),
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
                if f.get("pasted") and not KEY_REJECTED.search(said_of(params))
                else channel_step(params, f),
            }
            for params in (_session_params(d, f) for d in f.get("sessions", []) if d["kind"] == "channel")
            if not params.get("settled")
        ],
    ),
    Rule(
        code="CTX014",
        name="failures-cluster",
        check="ctx.sessions",
        reads=(
            "across",
            "sessions",
            "user_config",
            "current_model",
            "current_provider",
            "providers_defined",
            "windows",
        ),
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
                "window_step": cluster_step(f, g),
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
        reads=("sessions", "user_config", "current_model", "current_provider", "providers_defined", "windows"),
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
        reads=("sessions", "user_config", "current_model", "current_provider", "providers_defined", "windows"),
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
                "compact_step": compact_step(f, params),
            }
            for group in _groups(
                d
                for d in f.get("sessions", [])
                if d["kind"] == "context"
                and not d["compaction_would_fire"]
                and d["compact_at"]
                and not d.get("in_cluster")
                and not d.get("truncated_at")
                and not first_only(d)
            )
        ],
    ),
)
