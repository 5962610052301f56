"""The steps and sentences of the session findings (rules/ctx/sessions.py) that depend on more than one session: the
run's one window for a provider and model (advice.py), a first request that failed alone, a provider the current
config does not use or define (issue 40 review)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from codexdoctor.codex.sizes import CODEX_FIRST_REQUEST_TOKENS, window_settings
from codexdoctor.rules.base import Loc
from codexdoctor.rules.ctx.advice import window_step


def first_only(d: Mapping[str, Any]) -> bool:
    """A session whose first request failed with no context size in its log (issue 40 review: "The largest context
    that worked was ? tokens"): the first request alone was too large, and no other session's window is its own."""
    return d.get("failed_turn") == 1 and not d.get("peak")


def compact_earlier(d: Mapping[str, Any], cfg: str) -> Loc:
    value = window_settings(d.get("peak") or d.get("window") or 0)[1]
    return Loc(
        f"Let Codex compact earlier: set model_auto_compact_token_limit at the top level of {cfg} to about {value:,}, "
        "or start new sessions sooner.",
        f"让 Codex 更早压缩：在 {cfg} 顶层把 model_auto_compact_token_limit 设为约 {value:,}，或更早开新会话。",
    )


def worked_text(d: Mapping[str, Any]) -> Loc:
    """CTX012's sentence on what the log shows before the failure: the largest context that worked against the window
    in the log; for a first request that failed, that it alone was too large (with its size when the provider's error
    states it), never a "?" (issue 40 review)."""
    peak, share, window = d.get("peak"), d.get("share"), d.get("window")
    if first_only(d):
        size = d.get("server_request")
        said = (
            Loc(f", {size:,} tokens as the provider's error counts it,", f"（按提供方报错的计数为 {size:,} 个 token）")
            if size
            else Loc(
                " (Codex's instructions and tool schemas with your first message)",
                "（Codex 的指令和工具定义加上你的第一条消息）",
            )
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
        f"The largest context that worked was {peak:,} tokens{of.en}.",
        f"成功过的最大上下文是 {peak:,} 个 token{of.zh}。",
    )


def first_only_real(d: Mapping[str, Any]) -> Loc | str:
    """A first request that failed: the window its provider's error states, if it states one (not "far below", not
    "never compacted": there was nothing to compact)."""
    if not d.get("server_window"):
        return ""
    return Loc(
        f" The provider's error states its window: {d['server_window']:,} tokens.",
        f"提供方的报错写明了它的窗口：{d['server_window']:,} 个 token。",
    )


def first_only_step(f: Mapping[str, Any], d: Mapping[str, Any]) -> Loc:
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


KEY_REJECTED = re.compile(r"\b401\b|unauthorized|invalid api key|incorrect api key", re.I)


def said_of(params: Mapping[str, Any]) -> str:
    """A session's error as its log said it, for the key-rejected test: `http 401` or the message's own words."""
    return f"{params.get('error_info') or ''} {params.get('error') or ''}"


def compact_step(f: Mapping[str, Any], params: Mapping[str, Any]) -> Loc:
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


def channel_step(params: Mapping[str, Any], f: Mapping[str, Any] | None = None) -> Loc:
    """What the message itself already says (issue 40: a plain 401 was sent to `diagnose-error` to be classified).
    `params` are the session's (`_session_params`): its clipped error, provider and config file. A provider the
    current config does not define has no table to check (issue 40 review: `[model_providers.other]`)."""
    said = said_of(params)
    if params.get("error_info") == "http 401" or KEY_REJECTED.search(said):
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


def cluster_step(f: Mapping[str, Any], g: Mapping[str, Any]) -> Loc:
    """CTX014's window step: the run's one window for the group's provider and model (advice.session_window_step),
    the lines when it is the cluster's break point or a window one of its sessions states."""
    from codexdoctor.rules.ctx.advice import session_window_step

    ids = set(g["ids"])
    short = {str(d.get("short_id")) for d in f.get("sessions", []) if d["id"] in ids}
    fallback = window_step(g["median"], f.get("user_config") or "~/.codex/config.toml")
    return session_window_step(f, g.get("provider"), g.get("model"), short, fallback)
