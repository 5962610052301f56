"""AUTH: key rejected. The rules, their Simplified Chinese texts and the helpers only they use.

Chinese texts keep the English placeholders; config keys, commands, product names and codes stay untranslated.
"""

from __future__ import annotations

from codexdoctor.rules.base import CHANNEL, E, Loc, Rule, Text, W, once

RULES: tuple[Rule, ...] = (
    Rule(
        code="AUTH007",
        name="key-quota-used-up",
        check="api.canary",
        reads=("kind", "message", "status", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The key is right, its quota is used up",
            diagnosis="POST {url} answered {status}: {message}. The gateway knows this key but its balance or quota is "
            "exhausted. Codex shows it as `unexpected status {status} …` after five retries, which looks like a wrong "
            "key.",
            remedy=(
                "Top up the key's quota (new-api/one-api: 令牌 → 额度, or the account's balance), or create a new key "
                "with quota.",
                "Do not copy the key again: it is accepted.",
            ),
        ),
        zh=Text(
            title="密钥是对的，但额度已用尽",
            diagnosis="POST {url} 返回 {status}：{message}。网关认得这个密钥，但它的余额或额度已经用完。Codex 在五次重试后"
            "显示 `unexpected status {status} …`，看起来像密钥错误。",
            remedy=(
                "为这个密钥充值额度（new-api/one-api：令牌 → 额度，或账户余额），或新建一个有额度的密钥。",
                "不需要重新复制密钥：它是被接受的。",
            ),
        ),
        when=once(lambda f: f["kind"] == "key_quota"),
    ),
    Rule(
        code="AUTH001",
        name="key-rejected",
        check="api.canary",
        reads=("env_key", "env_key_where", "key_fp8", "kind", "message", "status", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The provider rejected the API key",
            diagnosis="POST {url} answered {status}: {message}. Codex retries 401 five times, then prints "
            "`unexpected status 401 Unauthorized`.",
            remedy=(
                "Check the key this terminal has{fp_prints}; compare with the key in the provider's console (the same "
                "command on a copy):\n{fp_cmd}",
                "Check that env_key ({env_key_where}) names the variable you set, spelled exactly.",
                "Copy the key again, whole, with no spaces or line breaks, and set the variable again.",
                "If it still fails, create a new key at the provider (the old one may be revoked, expired or for another project).",
            ),
        ),
        zh=Text(
            title="提供方拒绝了 API Key",
            diagnosis="POST {url} 返回 {status}：{message}。Codex 对 401 会重试五次，然后输出 `unexpected status 401 Unauthorized`。",
            remedy=(
                "检查当前终端里的密钥{fp_prints}；对提供方控制台里的密钥副本执行同样的命令进行比对：\n{fp_cmd}",
                "确认 env_key（{env_key_where}）写的正是你导出的变量名，拼写完全一致。",
                "重新完整复制密钥，不要带空格或换行，再导出一次。",
                "仍然失败的话，到提供方重新创建一个密钥（旧密钥可能已被吊销、过期或属于别的项目）。",
            ),
        ),
        # The fingerprint the command should print, when a key was sent (never "prints None", issue 29).
        when=lambda f: (
            [
                {
                    "fp_prints": Loc(
                        f" (the command below prints {f['key_fp8']})", f"（下面的命令会输出 {f['key_fp8']}）"
                    )
                    if f.get("key_fp8")
                    else ""
                }
            ]
            if f["kind"] == "auth_rejected"
            else []
        ),
    ),
    Rule(
        code="AUTH002",
        name="key-not-received",
        check="api.canary",
        reads=("env_key", "kind", "message", "status", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The provider received no API key",
            diagnosis="POST {url} answered {status}: {message}. Codex sent no usable key: the variable is unset, the provider has no env_key, "
            "or the value contains a newline (Codex then drops the header).",
            remedy=(
                "Make sure env_key is set in the provider table and the variable holds only the key: {set_cmd}",
                "Run `codexdoctor check --offline` to see the key variable findings.",
            ),
        ),
        zh=Text(
            title="提供方没有收到 API Key",
            diagnosis="POST {url} 返回 {status}：{message}。Codex 没有发出可用的密钥：变量未设置、提供方没有 env_key，或者值里带换行（Codex 会丢弃这个请求头）。",
            remedy=(
                "确保提供方表里设置了 env_key，且变量里只有密钥本身：{set_cmd}",
                "运行 `codexdoctor check --offline` 查看与密钥变量有关的问题。",
            ),
        ),
        when=once(lambda f: f["kind"] == "auth_missing"),
    ),
    Rule(
        code="AUTH003",
        name="forbidden",
        check="api.canary",
        reads=("kind", "message", "model", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Key valid but not allowed",
            diagnosis="POST {url} answered 403: {message}. The key is recognised but lacks permission for this model or endpoint.",
            remedy=(
                "Check the key's project, organisation or scope in the provider's console, and that it may use model `{model}`.",
            ),
        ),
        zh=Text(
            title="密钥有效，但没有权限",
            diagnosis="POST {url} 返回 403：{message}。密钥被识别了，但没有访问这个模型或端点的权限。",
            remedy=("在提供方控制台检查密钥所属的项目、组织或权限范围，以及它能否使用模型 `{model}`。",),
        ),
        when=once(lambda f: f["kind"] == "forbidden"),
    ),
    Rule(
        code="AUTH004",
        name="blocked-by-firewall-or-region",
        check="api.canary",
        reads=("kind", "message", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Blocked before reaching the API",
            diagnosis="POST {url} was blocked (403): {message}. A firewall, Cloudflare rule, IP allow-list or region restriction answered, not the API.",
            remedy=(
                "Check the provider's IP allow-list and region support; try from another network or via the provider's regional endpoint.",
            ),
        ),
        zh=Text(
            title="请求在到达 API 之前被拦截",
            diagnosis="POST {url} 被拦截（403）：{message}。回应的是防火墙、Cloudflare 规则、IP 白名单或地区限制，而不是 API。",
            remedy=("检查提供方的 IP 白名单和支持的地区；换个网络，或改用提供方的区域端点。",),
        ),
        when=once(lambda f: f["kind"] == "blocked"),
    ),
    Rule(
        code="AUTH005",
        name="key-unverified",
        check="api.catalog",
        reads=("canary_ran", "open_without_key", "url"),
        severity=W,
        verdict=CHANNEL,
        en=Text(
            title="The key was not verified",
            diagnosis="GET {url} answers without any key, so its success proves nothing about your key, and the canary was not sent.",
            remedy=("Run without --no-canary so codexdoctor sends the request Codex sends, with your key.",),
        ),
        zh=Text(
            title="密钥未经验证",
            diagnosis="GET {url} 不带密钥也能访问，所以它成功并不能说明你的密钥可用，而探测请求又没有发送。",
            remedy=("去掉 --no-canary 再运行，让 codexdoctor 带着你的密钥发送与 Codex 相同的请求。",),
        ),
        when=once(lambda f: f["open_without_key"] and not f["canary_ran"]),
    ),
    Rule(
        code="AUTH006",
        name="catalog-rejects-key",
        check="api.catalog",
        reads=("canary_ran", "kind", "message", "status", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="The model catalog rejected the API key",
            diagnosis="GET {url} answered {status}: {message}.",
            remedy=("Check the key as for AUTH001 (`codexdoctor explain AUTH001`), then run without --no-canary.",),
        ),
        zh=Text(
            title="模型列表接口拒绝了 API Key",
            diagnosis="GET {url} 返回 {status}：{message}。",
            remedy=("按 AUTH001 的步骤检查密钥（`codexdoctor explain AUTH001`），然后去掉 --no-canary 再运行。",),
        ),
        when=once(lambda f: f["kind"] in ("auth_rejected", "auth_missing") and not f["canary_ran"]),
    ),
)
