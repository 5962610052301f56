"""The window advice every CTX rule gives, from one function (issue 40): pasteable TOML lines, never below Codex's
first request, and the plain conclusion where no setting can help."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.codex.sizes import ANSWER_ROOM, CODEX_FIRST_REQUEST_TOKENS, too_small_for_codex, window_settings
from codexdoctor.rules.base import Loc

_LARGER = Loc(
    "Use a model or deployment with a larger window (32,768 leaves room for a session: llama.cpp `-c 32768`, vLLM "
    "`--max-model-len 32768`, Ollama `num_ctx`), or ask the provider for one.",
    "请换用窗口更大的模型或部署（32,768 才能给会话留出空间：llama.cpp `-c 32768`、vLLM `--max-model-len 32768`、"
    "Ollama `num_ctx`），或向提供方要一个更大的窗口。",
)


def window_step(
    window: int,
    cfg: str,
    first_request: int | None = None,
    answered: int | None = None,
    need: Mapping[str, Any] | None = None,
) -> Loc:
    """What to write in config.toml for a provider whose real window is `window`: two lines on their own, to paste at
    the top level; or, for a window under Codex's first request, that it cannot work and what to ask for instead.
    `first_request`: this run's count of Codex's first request, quoted as it is everywhere else on the screen (issue
    40); without one, the measured default. `answered`: the largest request the provider answered. A window no larger
    than it is only a lower bound, and a request that was answered is never "too small for Codex" (issue 40 review:
    8,477 tokens answered, then "an 8,477-token window cannot hold Codex's first request"). `need`: what Codex needs
    of a window (its first request, its first large tool round, the answer's room: checks/sessions/windows.py); a
    window below it gets the "too small for Codex" conclusion, never two lines below what Codex needs (issue 40)."""
    if answered and answered >= window and too_small_for_codex(window, first_request):
        return Loc(
            f"A request of {answered:,} tokens was answered, so the window holds Codex's first request, but a window "
            f"that close to it leaves no room for a session. {_LARGER.en} `codexdoctor probe` measures the window.",
            f"{answered:,} 个 token 的请求得到过回答，所以窗口放得下 Codex 的第一个请求；但这么接近它的窗口给会话留不出空间。"
            f"{_LARGER.zh}`codexdoctor probe` 能测出窗口有多大。",
        )
    if too_small_for_codex(window, first_request):
        article = "An" if str(window).startswith(("8", "11", "18")) else "A"
        size = (
            Loc(f"{first_request:,} tokens here", f"这里共 {first_request:,} 个 token 的")
            if first_request
            else Loc(f"about {CODEX_FIRST_REQUEST_TOKENS:,} tokens", f"约 {CODEX_FIRST_REQUEST_TOKENS:,} 个 token 的")
        )
        return Loc(
            f"{article} {window:,}-token window cannot hold Codex's first request ({size.en} of "
            f"instructions and tool schemas): no setting makes Codex work with it. {_LARGER.en}",
            f"{window:,} 个 token 的窗口放不下 Codex 的第一个请求（{size.zh}指令和工具定义）：任何设置都无法让 Codex 用上它。"
            + _LARGER.zh,
        )
    context, compact = window_settings(window, first_request)
    lines = f"model_context_window = {context}\nmodel_auto_compact_token_limit = {compact}"
    if need and window < need["total"]:
        # the conclusion first; the lines only for as long as the provider serves it, as CTX034 gives them
        return too_small_for_a_tool_round(window, need) + Loc(
            f" While it serves this window, tell Codex so: add these two lines at the top level of {cfg} (above any "
            f"[table]):\n{lines}",
            f"在窗口还是这么大时，把它告诉 Codex：在 {cfg} 顶层（任何 [表] 之前）添加这两行：\n{lines}",
        )
    return Loc(
        f"Tell Codex the real window: add these two lines at the top level of {cfg} (above any [table]):\n{lines}",
        f"把真实窗口告诉 Codex：在 {cfg} 顶层（任何 [表] 之前）添加这两行：\n{lines}",
    )


def first_request_words(need: Mapping[str, Any]) -> Loc:
    """Codex's first request as this run knows it: `check`'s count, quoted as every screen quotes it (issue 40), or,
    where nothing was counted (`sessions`), the measured default said as an estimate."""
    first = int(need["first_request"])
    if need.get("first_counted"):
        return Loc(f"its first request ({first:,} tokens)", f"它的第一个请求（{first:,} 个 token）")
    return Loc(
        f"its first request (its instructions and tool schemas, about {first:,} tokens without AGENTS.md files)",
        f"它的第一个请求（指令和工具定义，不算 AGENTS.md 文件约 {first:,} 个 token）",
    )


def too_small_for_a_tool_round(window: int, need: Mapping[str, Any]) -> Loc:
    """A window that holds Codex's first request but not its first large tool output and the answer (CTX025's sum, in
    the same numbers): too small for Codex, said as such instead of two lines that set it (issue 40 review)."""
    rounds, total, first = need["tool_round"], need["total"], first_request_words(need)
    return Loc(
        f"A {window:,}-token window is too small for Codex: it holds {first.en} but not the first large tool output "
        f"after it (up to {rounds:,} tokens) with {ANSWER_ROOM:,} tokens kept for the answer, about {total:,} tokens "
        f"in all, so sessions break at their first long command output. {_LARGER.en}",
        f"{window:,} 个 token 的窗口对 Codex 来说太小了：它放得下{first.zh}，但放不下其后第一个大的工具输出"
        f"（最多 {rounds:,} 个 token）和留给回答的 {ANSWER_ROOM:,} 个 token，合计约 {total:,} 个 token，所以会话会在第一个很长的命令输出处中断。"
        + _LARGER.zh,
    )


def window_for(f: Mapping[str, Any], provider: Any, model: Any) -> Mapping[str, Any] | None:
    """The run's one window for a provider and model (ctx.sessions' `windows`, checks/sessions/windows.py), or None."""
    return next((w for w in f.get("windows") or [] if w["provider"] == provider and w["model"] == model), None)


def _sessions_named(ids: list[str]) -> Loc:
    return Loc(", ".join(ids), "、".join(ids))


def basis_words(w: Mapping[str, Any]) -> Loc:
    """Where the run's window for a provider and model comes from, strongest evidence first (windows.py)."""
    src = w.get("source") or "?"
    words = {
        "served": Loc("the window the provider serves, read in this run", "本次运行读到的提供方窗口"),
        "stated": Loc(
            f"the maximum the provider's error states in session {src}", f"会话 {src} 中提供方报错写明的上限"
        ),
        "truncated": Loc(
            f"the size at which the provider cut the history without an error in session {src}",
            f"会话 {src} 中提供方不报错地截断历史时的大小",
        ),
        "break": Loc(
            f"the size at which sessions broke ({src} and others), the largest context that worked",
            f"会话断开的大小（{src} 等），即成功过的最大上下文",
        ),
        "answered": Loc(
            f"the largest context that worked in session {src}, a lower bound",
            f"会话 {src} 中成功过的最大上下文（只是下限）",
        ),
    }[w["basis"]]
    larger = w.get("larger_stated")
    if larger:
        words = words + Loc(
            f"; another session shows {larger:,}, and the smaller is the one every session fits",
            f"；另一个会话显示为 {larger:,}，较小的那个是所有会话都放得下的",
        )
    return words


def elsewhere(f: Mapping[str, Any], provider: Any, model: Any, n: int = 2) -> Loc | None:
    """A session that ran on a provider and model the current config does not use (issue 40 review: a top-level window
    for them would apply to the configured provider): said as such, or None when the config uses them."""
    cur_p, cur_m, known = f.get("current_provider"), f.get("current_model"), f.get("providers_defined")
    if cur_p is None or (provider == cur_p and (model == cur_m or not cur_m)):
        return None  # the same, or a run that does not say which the config uses
    defined = provider in (known or [provider])
    now = f"`{cur_p}` / {cur_m}" if cur_m else f"`{cur_p}`"
    who = Loc("This session", "这个会话") if n == 1 else Loc("These sessions", "这些会话")
    if not defined:
        return Loc(
            f"{who.en} ran on provider `{provider}` with model {model}, which your current config does not "
            f"define (it uses {now}).",
            f"{who.zh}运行在提供方 `{provider}`、模型 {model} 上，而你当前的配置没有定义这个提供方（它用的是 {now}）。",
        )
    return Loc(
        f"{who.en} ran on provider `{provider}` with model {model}, which your current config does not use "
        f"(it uses {now}).",
        f"{who.zh}运行在提供方 `{provider}`、模型 {model} 上，而你当前的配置没有使用它们（它用的是 {now}）。",
    )


def owner_code(w: Mapping[str, Any]) -> str:
    """The finding that gives the lines for a window: the one about the session (or cluster) it comes from."""
    if w["basis"] == "truncated":
        return "CTX026"
    return "CTX014" if w["basis"] == "break" or w.get("in_cluster") else "CTX012"


def reference(w: Mapping[str, Any]) -> Loc:
    """The finding that gives a window's lines, named so that a reader finds it among several of the same code:
    `the CTX012 finding on session 01a23000-a`."""
    code, src = owner_code(w), w.get("source")
    if src and w["basis"] != "break":
        return Loc(f"the {code} finding on session {src}", f"关于会话 {src} 的 {code}")
    return Loc(f"the {code} finding", code)


def session_window_step(f: Mapping[str, Any], provider: Any, model: Any, ids: set[str], fallback: Loc) -> Loc:
    """The window step of every finding about a provider and model's sessions (CTX012, CTX014, CTX026): the run's one
    window, from windows.py, with its source; the two lines (or the "too small for Codex" conclusion) in the finding
    about the session it comes from, a reference to that finding in the others (issue 40 review: 16000, 15512 and
    14000 on one screen). For a provider and model the config does not use, the lines are for when the user goes back
    to them, not for the top level of the current config. `fallback`: the step when no session showed a window."""
    cfg = f.get("user_config") or "~/.codex/config.toml"
    other = elsewhere(f, provider, model, len(ids))
    w = window_for(f, provider, model)
    if w is None:
        return other + Loc(" If you go back to them: ", "如果你再用它们：") + fallback if other else fallback
    window, need = int(w["window"]), w.get("need")
    said = Loc(
        f"The window this run takes for `{provider}` / {model} is {window:,} tokens, from {basis_words(w).en}.",
        f"本次运行为 `{provider}` / {model} 采用的窗口是 {window:,} 个 token，依据是{basis_words(w).zh}。",
    )
    said = other + Loc(" ", "") + said if other else said
    owner = w["basis"] == "served" or w.get("source") in ids
    if not owner:
        ref = reference(w)
        return said + Loc(f" What to do with it: see {ref.en}.", f"该怎么做见{ref.zh}。")
    step = window_step(window, cfg, need["first_request"] if need and need.get("first_counted") else None, need=need)
    if "\nmodel_context_window = " in step.en and other:
        head, lines = step.en.split("\n", 1)
        head_zh = step.zh.split("\n", 1)[0]
        # the conclusion as it is; the lines for when the user goes back to that provider and model, not for the top
        # level of the current config (issue 40 review)
        keep = (
            Loc("", "")
            if head.startswith("Tell Codex the real window")
            else Loc(head.split(" While it serves")[0] + " ", head_zh.split("在窗口还是这么大时")[0])
        )
        return (
            said
            + Loc(" ", "")
            + keep
            + Loc(
                "If you run Codex with them again, put these two lines at the top level of the config it reads then "
                "(for example a profile file ~/.codex/<name>.config.toml started with `codex --profile <name>`); at the "
                f"top level of {cfg} they would apply to your current provider too:\n{lines}",
                f"如果你再用它们运行 Codex，把这两行放在那时 Codex 读取的配置的顶层（例如用 `codex --profile <名称>` 启动时读取的"
                f" ~/.codex/<名称>.config.toml）；放在 {cfg} 顶层的话，它们也会作用于你当前的提供方：\n{lines}",
            )
        )
    return said + Loc(" ", "") + step
