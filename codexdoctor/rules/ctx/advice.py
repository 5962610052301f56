"""The window advice every CTX rule gives, from one function (issue 40): pasteable TOML lines, never below Codex's
first request, and the plain conclusion where no setting can help."""

from __future__ import annotations

from codexdoctor.codex.sizes import CODEX_FIRST_REQUEST_TOKENS, too_small_for_codex, window_settings
from codexdoctor.rules.base import Loc

_LARGER = Loc(
    "Use a model or deployment with a larger window (32,768 leaves room for a session: llama.cpp `-c 32768`, vLLM "
    "`--max-model-len 32768`, Ollama `num_ctx`), or ask the provider for one.",
    "请换用窗口更大的模型或部署（32,768 才能给会话留出空间：llama.cpp `-c 32768`、vLLM `--max-model-len 32768`、"
    "Ollama `num_ctx`），或向提供方要一个更大的窗口。",
)


def window_step(window: int, cfg: str, first_request: int | None = None, answered: int | None = None) -> Loc:
    """What to write in config.toml for a provider whose real window is `window`: two lines on their own, to paste at
    the top level; or, for a window under Codex's first request, that it cannot work and what to ask for instead.
    `first_request`: this run's count of Codex's first request, quoted as it is everywhere else on the screen (issue
    40); without one, the measured default. `answered`: the largest request the provider answered. A window no larger
    than it is only a lower bound, and a request that was answered is never "too small for Codex" (issue 40 review:
    8,477 tokens answered, then "an 8,477-token window cannot hold Codex's first request")."""
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
    return Loc(
        f"Tell Codex the real window: add these two lines at the top level of {cfg} (above any [table]):\n{lines}",
        f"把真实窗口告诉 Codex：在 {cfg} 顶层（任何 [表] 之前）添加这两行：\n{lines}",
    )
