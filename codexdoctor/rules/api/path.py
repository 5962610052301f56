"""API, the path and protocol Codex calls: 404s, the base_url that works, the Responses API."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.rules.base import CHANNEL, E, Loc, Rule, Text, once


def _working_why(f: Mapping[str, Any]) -> Loc:
    """Why the verified base_url differs: only the `?…` part, a prefix, or both."""
    configured = str(f.get("configured") or "")
    if configured != configured.rstrip() and configured.strip().rstrip("/") == str(f["working"]["base_url"]).rstrip(
        "/"
    ):
        return Loc(
            " The space at the end of base_url reaches the path as %20; without it the URL works.",
            "base_url 末尾的空格会以 %20 进入路径；去掉它地址就能用。",
        )
    bare = configured.split("#", 1)[0].split("?", 1)[0].rstrip("/")
    query = Loc(
        " The `?…` part of base_url breaks the URL: Codex appends /responses after it.",
        "base_url 里的 `?…` 部分会破坏地址：Codex 会把 /responses 接在它后面。",
    )
    prefix = Loc(
        " This provider wants a different prefix (the /v1 question is decided per provider).",
        "这个提供方要的是另一个前缀（是否带 /v1 因提供方而异）。",
    )
    if bare == configured.rstrip("/"):
        return prefix
    if bare == str(f["working"]["base_url"]).rstrip("/"):
        return query
    return Loc(query.get("en") + prefix.get("en"), query.get("zh") + prefix.get("zh"))


def path_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """API016: a URL with /v1 twice (or /responses twice) names its own fix."""
    fixed = f.get("doubled_fix")
    if fixed:
        return {
            "doubled_text": Loc(
                f" The URL has {f['doubled']} twice: base_url already ends in it.",
                f"这个地址里 {f['doubled']} 出现了两次：base_url 本身已经以它结尾。",
            ),
            "path_step": Loc(
                f'Set base_url = "{fixed}" ({f.get("base_url_where")}), so that Codex calls {fixed}/responses.',
                f'设置 base_url = "{fixed}"（{f.get("base_url_where")}），让 Codex 请求 {fixed}/responses。',
            ),
        }
    return {
        "doubled_text": "",
        "path_step": Loc(
            "Run `codexdoctor check`: it tries the base_url variants (with and without /v1) and names the one that works.",
            "运行 `codexdoctor check`：它会尝试 base_url 的各种变体（带或不带 /v1），并给出可用的那个。",
        ),
    }


RULES: tuple[Rule, ...] = (
    Rule(
        code="API001",
        name="wrong-base-url-path",
        check="api.variants",
        covers=("api.canary",),
        reads=("base_url_where", "configured", "request_url", "working"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Nothing at the path Codex calls; another base_url works",
            diagnosis="POST {request_url} finds nothing (404), but {working_url} answers.{why_text}",
            remedy=('In {base_url_where}, set base_url = "{working_url}"', "Run `codexdoctor check` again to confirm."),
        ),
        zh=Text(
            title="Codex 请求的路径不存在；另一个 base_url 可用",
            diagnosis="POST {request_url} 找不到（404），但 {working_url} 有响应。{why_text}",
            remedy=('在 {base_url_where} 中设置 base_url = "{working_url}"', "再运行一次 `codexdoctor check` 确认。"),
        ),
        when=lambda f: (
            [{"working_url": f["working"]["base_url"], "why_text": _working_why(f)}] if f.get("working") else []
        ),
    ),
    Rule(
        code="API002",
        name="responses-api-missing",
        check="api.wire",
        covers=("api.canary", "api.variants"),
        reads=("chat_works", "codex_version", "variants_work"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Provider serves Chat Completions but not the Responses API",
            diagnosis="The provider answers POST …/chat/completions but 404s on …/responses. Codex 0.97 and newer only speak the Responses API"
            " (installed: {codex_version_text}), so this provider cannot serve current Codex.",
            remedy=(
                "Use a gateway or provider that offers POST /responses (many OpenAI-compatible gateways added it).",
                'Or pin an older Codex and keep wire_api = "chat": npm install -g @openai/codex@0.96.0',
            ),
        ),
        zh=Text(
            title="提供方只支持 Chat Completions，不支持 Responses API",
            diagnosis="提供方能响应 POST …/chat/completions，但 …/responses 返回 404。Codex 0.97 及以后的版本只使用 Responses API（已安装：{codex_version_text}），所以这个提供方无法配合当前版本的 Codex。",
            remedy=(
                "换用提供 POST /responses 的网关或提供方（很多 OpenAI 兼容网关已经支持）。",
                '或者固定使用旧版 Codex 并保留 wire_api = "chat"：npm install -g @openai/codex@0.96.0',
            ),
        ),
        when=lambda f: (
            [{"codex_version_text": f.get("codex_version") or Loc("unknown", "未知")}]
            if f.get("chat_works") and not f.get("variants_work")
            else []
        ),
    ),
    Rule(
        code="API013",
        name="path-not-found",
        check="api.variants",
        reads=("base_url_where", "chat_works", "request_url", "tried", "working"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Nothing at the path Codex calls",
            diagnosis="POST {request_url} finds nothing (404), and neither do the usual variants ({tried_text}).",
            remedy=(
                "Look up the OpenAI-compatible base URL in the provider's documentation and set base_url in {base_url_where}; "
                "Codex appends /responses to it.",
            ),
        ),
        zh=Text(
            title="Codex 请求的路径不存在",
            diagnosis="POST {request_url} 找不到（404），常见的几种变体也都不行（{tried_text}）。",
            remedy=(
                "在提供方文档中查到 OpenAI 兼容的 base_url 地址，在 {base_url_where} 中设置 base_url；Codex 会在它后面追加 /responses。",
            ),
        ),
        when=lambda f: (
            [{"tried_text": ", ".join(f.get("tried") or []) or Loc("none", "无")}]
            if not f.get("working") and not f.get("chat_works")
            else []
        ),
    ),
    Rule(
        code="API016",
        name="responses-path-not-found",
        check="api.canary",
        reads=("base_url_where", "doubled", "doubled_fix", "kind", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Nothing at the path Codex calls",
            diagnosis="POST {url} answered 404: Codex calls base_url + /responses, and this provider has nothing there.{doubled_text}",
            remedy=(
                "{path_step}",
                "Check that base_url ({base_url_where}) is the provider's OpenAI-compatible API root, and that it supports the Responses API.",
            ),
        ),
        zh=Text(
            title="Codex 请求的路径不存在",
            diagnosis="POST {url} 返回 404：Codex 请求的是 base_url + /responses，而这个提供方在那里什么也没有。{doubled_text}",
            remedy=(
                "{path_step}",
                "确认 base_url（{base_url_where}）是提供方 OpenAI 兼容 API 的根地址，并且支持 Responses API。",
            ),
        ),
        when=once(lambda f: f["kind"] == "path_not_found"),
        settled_by=("api.variants", lambda f: True),
    ),
    Rule(
        code="API014",
        name="responses-format-rejected",
        check="api.canary",
        reads=("kind", "message", "status", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Endpoint rejects the Responses request format",
            diagnosis="POST {url} answered {status}: {message}. The path exists but does not understand Responses requests.",
            remedy=(
                'Use a provider or gateway version that implements the Responses API, or pin Codex 0.96 with wire_api = "chat".',
            ),
        ),
        zh=Text(
            title="端点不接受 Responses 请求格式",
            diagnosis="POST {url} 返回 {status}：{message}。路径是存在的，但它不理解 Responses 请求。",
            remedy=('换用实现了 Responses API 的提供方或网关版本，或固定使用 Codex 0.96 并设置 wire_api = "chat"。',),
        ),
        when=once(lambda f: f["kind"] == "wire_mismatch"),
    ),
    Rule(
        code="API018",
        name="not-a-responses-stream",
        check="api.canary",
        reads=("codex_retries", "detail", "kind", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The answer is not the event stream Codex reads",
            diagnosis="POST {url} answered 200, but with {detail}. Codex reads only server-sent events in the Responses grammar "
            "ending in response.completed, so every turn ends with `stream disconnected before completion: stream closed "
            "before response.completed` (Codex retries it {codex_retries} times first).",
            remedy=("{grammar_step}", "Run `codexdoctor check` again once the gateway is changed."),
        ),
        zh=Text(
            title="响应不是 Codex 能读取的事件流",
            diagnosis="POST {url} 返回了 200，但内容是{detail}。Codex 只读取 Responses 格式、以 response.completed 结束的 "
            "server-sent events，所以每一轮都会以 `stream disconnected before completion: stream closed before "
            "response.completed` 结束（Codex 会先重试 {codex_retries} 次）。",
            remedy=("{grammar_step}", "网关改好后再运行一次 `codexdoctor check`。"),
        ),
        when=lambda f: (
            [
                {
                    "grammar_step": Loc(
                        "The gateway translates /responses into Chat Completions and streams the Chat chunks back unchanged: update "
                        "it, or turn its Responses support on (LiteLLM: a current version serves /v1/responses itself), or point "
                        "base_url at a server that serves /responses.",
                        "网关把 /responses 转成了 Chat Completions，又把 Chat 的分块原样流回来：升级网关，或打开它的 Responses 支持"
                        "（LiteLLM：当前版本自己提供 /v1/responses），或把 base_url 指向真正提供 /responses 的服务。",
                    )
                    if f["kind"] == "wrong_stream_grammar"
                    else Loc(
                        "The gateway ignores `stream: true` and sends the whole answer at once: turn streaming on for this route or "
                        "model in the gateway (some need it per model), or update it.",
                        "网关忽略了 `stream: true`，一次性返回完整回答：在网关里为这个路由或模型打开流式输出（有些要逐个模型设置），或升级网关。",
                    ),
                    "codex_retries": f.get("codex_retries", 5),
                }
            ]
            if f["kind"] in ("not_a_stream", "wrong_stream_grammar")
            else []
        ),
    ),
)
