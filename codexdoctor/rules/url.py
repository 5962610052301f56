"""URL: base_url as written. The rules, their Simplified Chinese texts and the helpers only they use.

Chinese texts keep the English placeholders; config keys, commands, product names and codes stay untranslated.
"""

from __future__ import annotations

from codexdoctor.rules.base import CHANNEL, CONFIG, E, I, Loc, Rule, Text, W, once

# A base_url the live check proved working settles every lint guess about it: one remedy per cause (API001's).
VERIFIED_BASE_URL = ("api.variants", lambda f: bool(f.get("working")))


RULES: tuple[Rule, ...] = (
    Rule(
        code="URL001",
        name="base-url-not-http",
        check="url.base_url",
        reads=("malformed", "shown", "where"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="base_url is not an http(s) URL",
            diagnosis='base_url = "{shown}" ({where}) {malformed}.',
            remedy=(
                'Write the full URL with scheme and host in {where}, e.g. base_url = "https://api.example.com/v1".',
            ),
        ),
        zh=Text(
            title="base_url 不是 http(s) 地址",
            diagnosis='base_url = "{shown}"（{where}）{malformed}。',
            remedy=('在 {where} 中写完整的地址，带上协议和主机，例如 base_url = "https://api.example.com/v1"。',),
        ),
        when=once(lambda f: bool(f.get("malformed"))),
    ),
    Rule(
        code="URL002",
        name="base-url-whitespace",
        check="url.base_url",
        reads=("malformed", "request_url", "suggested", "where", "whitespace", "api.variants:working"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="base_url ends in a space or a line break",
            diagnosis="base_url ({where}) ends in whitespace. Codex keeps it, so the request goes to {request_url} with `%20` in the "
            "path, and the provider answers 404.",
            remedy=('Remove the spaces inside the quotes in {where}: base_url = "{suggested}"',),
        ),
        zh=Text(
            title="base_url 末尾有空格或换行",
            diagnosis="base_url（{where}）以空白结尾。Codex 会保留它，所以请求发往路径中带 `%20` 的 {request_url}，提供方返回 404。",
            remedy=('去掉 {where} 引号里的空白：base_url = "{suggested}"',),
        ),
        when=once(lambda f: f.get("whitespace") and not f.get("malformed")),
        settled_by=VERIFIED_BASE_URL,
    ),
    Rule(
        code="URL003",
        name="base-url-ends-in-v1",
        check="url.base_url",
        reads=(
            "builtin",
            "doubled_path",
            "ends_v1",
            "nothing_sent",
            "offline",
            "request_url",
            "shown",
            "api.canary:kind",
            "api.variants:working",
        ),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="base_url ends in /v1: the provider decides",
            diagnosis='base_url = "{shown}" ends in /v1, so Codex calls {request_url}. Codex never adds or removes /v1; some '
            "gateways serve /v1/responses, others (e.g. ones documented as …/api) 404 on it.",
            remedy=(
                "{v1_question_step}",
                "Use the base URL exactly as your provider's Codex/OpenAI-compatible documentation gives it.",
            ),
        ),
        zh=Text(
            title="base_url 以 /v1 结尾：要看提供方",
            diagnosis='base_url = "{shown}" 以 /v1 结尾，所以 Codex 请求的是 {request_url}。Codex 从不自动添加或去掉 /v1；有的网关提供 /v1/responses，有的（例如文档写的是 …/api 的）在这个地址上返回 404。',
            remedy=("{v1_question_step}", "按提供方 Codex / OpenAI 兼容文档中给出的原样填写 base_url。"),
        ),
        when=lambda f: (
            [
                {
                    "v1_question_step": Loc(
                        "Run `codexdoctor check` without --offline: it calls the real endpoint and, on a 404, "
                        "tries the variants and names the base_url that works.",
                        "不加 --offline 运行 `codexdoctor check`：它会请求真实的端点，遇到 404 时尝试各个变体，"
                        "并指出可用的 base_url。",
                    )
                    if f.get("offline") is not False
                    else Loc(
                        "No request was sent in this run: Codex would stop before its first one (see the other "
                        "findings). Once that is fixed, `codexdoctor check` calls the real endpoint and, on a 404, "
                        "tries the variants and names the base_url that works.",
                        "本次运行没有发送任何请求：Codex 会在第一个请求之前就停止（见其他问题）。修好之后，"
                        "`codexdoctor check` 会请求真实的端点，遇到 404 时尝试各个变体，并指出可用的 base_url。",
                    )
                    if f.get("nothing_sent")
                    else Loc(
                        "This run's live checks could not settle it (the request Codex sends got no answer); run "
                        "`codexdoctor check` again once the provider answers.",
                        "本次的在线检查没能判断（Codex 发送的请求没有得到回应）；等提供方能响应后再运行一次 `codexdoctor check`。",
                    )
                }
            ]
            if f.get("ends_v1") and not f.get("builtin") and not f.get("doubled_path")
            else []
        ),
        settled_by=(
            (
                "api.canary",
                lambda f: (
                    f.get("kind")
                    not in (
                        None,
                        "timeout",
                        "deadline",
                        "dns",
                        "refused",
                        "tls",
                        "reset",
                        "proxy",
                        "proxy_auth",
                        "protocol",
                        "redirect",
                    )
                ),
            ),
            VERIFIED_BASE_URL,
        ),
    ),
    Rule(
        code="URL004",
        name="base-url-query-string",
        check="url.base_url",
        reads=("fragment", "malformed", "query", "shown", "suggested", "where", "api.variants:working"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="base_url has a query string or fragment",
            diagnosis='base_url = "{shown}" ({where}) carries `?…` or `#…` (often a landing-page link such as ?utm_source=…); '
            "Codex appends /responses after it and the request URL breaks.",
            remedy=(
                'In {where}, set base_url = "{suggested}"',
                'If the provider really needs query parameters (e.g. Azure api-version), put them in query_params = {{ key = "value" }}.',
            ),
        ),
        zh=Text(
            title="base_url 带有查询参数或片段",
            diagnosis='base_url = "{shown}"（{where}）带着 `?…` 或 `#…`（常见的是从落地页链接复制来的 ?utm_source=…）；Codex 会在它后面追加 /responses，请求地址就坏了。',
            remedy=(
                '在 {where} 中设置 base_url = "{suggested}"',
                '如果提供方确实需要查询参数（例如 Azure 的 api-version），请写在 query_params = {{ key = "value" }} 中。',
            ),
        ),
        when=once(lambda f: (f.get("query") or f.get("fragment")) and not f.get("malformed")),
        settled_by=VERIFIED_BASE_URL,
    ),
    Rule(
        code="URL005",
        name="base-url-doubled-path",
        check="url.base_url",
        reads=("doubled_path", "malformed", "request_url", "suggested", "where", "api.variants:working"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="base_url already ends in the API path",
            diagnosis="base_url ends in {doubled_path}; Codex appends the path again and calls {request_url}.",
            remedy=('In {where}, set base_url = "{suggested}" (the part before {doubled_path}).',),
        ),
        zh=Text(
            title="base_url 已经以 API 路径结尾",
            diagnosis="base_url 以 {doubled_path} 结尾；Codex 会再追加一次路径，实际请求的是 {request_url}。",
            remedy=('在 {where} 中设置 base_url = "{suggested}"（即 {doubled_path} 之前的部分）。',),
        ),
        when=once(lambda f: bool(f.get("doubled_path")) and not f.get("malformed")),
        settled_by=VERIFIED_BASE_URL,
    ),
    Rule(
        code="URL006",
        name="base-url-userinfo",
        check="url.base_url",
        reads=("malformed", "suggested", "userinfo", "where"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="base_url contains a user name or password",
            diagnosis="base_url ({where}) has `user:password@` before the host. That is not how OpenAI-compatible providers take keys, "
            "and it puts a secret in a config file.",
            remedy=(
                'Remove the `…@` part in {where}: base_url = "{suggested}"; put the key in the variable named by env_key.',
            ),
        ),
        zh=Text(
            title="base_url 中包含用户名或密码",
            diagnosis="base_url（{where}）在主机前带有 `user:password@`。OpenAI 兼容的提供方不这样接收密钥，而且这会把机密写进配置文件。",
            remedy=('去掉 {where} 中的 `…@` 部分：base_url = "{suggested}"；把密钥放进 env_key 指定的变量里。',),
        ),
        when=once(lambda f: f.get("userinfo") and not f.get("malformed")),
    ),
    Rule(
        code="URL007",
        name="base-url-plain-http-remote",
        check="url.base_url",
        reads=("host", "malformed", "plain_http_remote", "where"),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Key sent in clear text",
            diagnosis="base_url uses http:// to {host}, which is not this machine: the API key travels unencrypted.",
            remedy=("Use https:// in {where} if the provider supports it; keep plain http only for localhost.",),
        ),
        zh=Text(
            title="密钥以明文传输",
            diagnosis="base_url 用 http:// 访问 {host}，而这不是本机：API Key 在网络上不加密传输。",
            remedy=("如果提供方支持，在 {where} 中改用 https://；只有 localhost 才适合用明文 http。",),
        ),
        when=once(lambda f: f.get("plain_http_remote") and not f.get("malformed")),
    ),
    Rule(
        code="URL008",
        name="base-url-trailing-slash",
        check="url.base_url",
        reads=("malformed", "query", "trailing_slash", "where"),
        severity=I,
        verdict=CONFIG,
        en=Text(
            title="base_url ends with a slash",
            diagnosis="base_url ends with `/`; Codex trims it, so this is harmless.",
            remedy=("Nothing to do; optionally drop the trailing slash in {where}.",),
        ),
        zh=Text(
            title="base_url 以斜杠结尾",
            diagnosis="base_url 以 `/` 结尾；Codex 会去掉它，所以没有影响。",
            remedy=("无需处理；也可以去掉 {where} 末尾的斜杠。",),
        ),
        when=once(lambda f: f.get("trailing_slash") and not f.get("malformed") and not f.get("query")),
    ),
    Rule(
        code="URL009",
        name="html-instead-of-api",
        check="api.canary",
        reads=("base_url_where", "kind", "status", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="An HTML page answered where the API should be",
            diagnosis="POST {url} returned a web page ({status}), not the API: base_url points at the provider's website or a landing page. "
            "Codex ends with `stream disconnected before completion: stream closed before response.completed`.",
            remedy=(
                "Find the API base URL in the provider's documentation (often https://api.<domain>/v1 or https://<domain>/api) and set it as base_url in {base_url_where}.",
                "Remove any ?utm_… part copied from a link.",
            ),
        ),
        zh=Text(
            title="本应是 API 的地方返回了 HTML 页面",
            diagnosis="POST {url} 返回的是网页（{status}），不是 API：base_url 指向了提供方的官网或落地页。Codex 最终会报 `stream disconnected before completion: stream closed before response.completed`。",
            remedy=(
                "在提供方文档中找到 API 的 base_url 地址（通常是 https://api.<域名>/v1 或 https://<域名>/api），在 {base_url_where} 中设置为 base_url。",
                "去掉从链接里复制来的 ?utm_… 部分。",
            ),
        ),
        when=once(lambda f: f["kind"] == "html"),
    ),
    Rule(
        code="URL011",
        name="base-url-query-secret",
        check="url.base_url",
        reads=("malformed", "query_secrets", "where"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="base_url carries a secret in its query",
            diagnosis="base_url ({where}) has {names} in its query string. A secret there is part of every request line: proxies, "
            "gateway logs and shell history keep it, and anyone who sees the config file has it. (codexdoctor shows it "
            "redacted.)",
            remedy=(
                "Take the query out of base_url in {where} (`codexdoctor fix` does it), and give the key through the "
                "variable env_key names.",
                "If the provider really wants it in the query, use query_params or env_http_headers with a variable, not "
                "the value in base_url.",
                "Treat that key as exposed: create a new one at the provider and delete the old one.",
            ),
        ),
        zh=Text(
            title="base_url 的查询串里带着密钥",
            diagnosis="base_url（{where}）的查询串里有 {names}。放在那里的密钥是每个请求行的一部分：代理、网关日志和 shell 历史都会留下它，"
            "看到配置文件的人也都能拿到。（codexdoctor 显示时已脱敏。）",
            remedy=(
                "去掉 {where} 中 base_url 的查询串（`codexdoctor fix` 会做这一步），并通过 env_key 指定的变量提供密钥。",
                "如果提供方确实要求放在查询串里，用 query_params 或 env_http_headers 引用变量，而不是把值写进 base_url。",
                "把这个密钥视为已泄露：到提供方创建一个新的，并删除旧的。",
            ),
        ),
        when=lambda f: (
            [{"names": ", ".join(f"`{n}=…`" for n in f["query_secrets"])}]
            if f.get("query_secrets") and not f.get("malformed")
            else []
        ),
    ),
    Rule(
        code="URL010",
        name="openai-base-url-variable-ignored",
        check="url.base_url",
        reads=("ignored_openai_base_url", "request_url", "user_config"),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Codex no longer reads $OPENAI_BASE_URL",
            diagnosis="$OPENAI_BASE_URL is set ({ignored_openai_base_url}), but Codex stopped reading it in April 2026 "
            "(openai/codex#16720): the built-in provider calls {request_url}. If you meant Codex to use that server, "
            "it does not; if the variable is left over for another tool, nothing is wrong.",
            remedy=(
                'Put it in {user_config} instead: openai_base_url = "{ignored_openai_base_url}" (top level, before any [table]).',
                "Or define your server as a provider of its own ([model_providers.<id>] with base_url and env_key) and set "
                "model_provider to it.",
            ),
        ),
        zh=Text(
            title="Codex 已不再读取 $OPENAI_BASE_URL",
            diagnosis="设置了 $OPENAI_BASE_URL（{ignored_openai_base_url}），但 Codex 从 2026 年 4 月起不再读取它"
            "（openai/codex#16720）：内置提供方请求的是 {request_url}。如果你想让 Codex 使用那个服务器，它不会；"
            "如果这个变量是留给其他工具用的，那就没有问题。",
            remedy=(
                '改为写在 {user_config} 中：openai_base_url = "{ignored_openai_base_url}"（放在顶层，任何 [表] 之前）。',
                "或者把你的服务器定义成单独的提供方（[model_providers.<id>]，写上 base_url 和 env_key），并把 model_provider 设为它。",
            ),
        ),
        when=once(lambda f: bool(f.get("ignored_openai_base_url"))),
    ),
)
