"""ENV, stored logins and the OpenAI variables: auth.json, OPENAI_API_KEY, CODEX_API_KEY."""

from __future__ import annotations

from codexdoctor.rules.base import CONFIG, E, I, Rule, Text, W, once

RULES: tuple[Rule, ...] = (
    Rule(
        code="ENV011",
        name="openai-api-key-ignored",
        check="env.auth",
        reads=("auth_path", "builtin", "gateway_key", "logged_in", "openai_api_key_env", "provider"),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="OPENAI_API_KEY is set but the CLI does not read it",
            diagnosis="$OPENAI_API_KEY is set, but Codex CLI ignores it for the built-in openai provider (since Sep 2025); "
            "only a stored login counts, and none was found in {auth_path}.",
            remedy=("Store the key once: {login_cmd}",),
        ),
        zh=Text(
            title="设置了 OPENAI_API_KEY，但 CLI 不读它",
            diagnosis="$OPENAI_API_KEY 已设置，但 Codex CLI 对内置 openai 提供方会忽略它（2025 年 9 月起）；只认已保存的登录，而 {auth_path} 中没有。",
            remedy=("把密钥保存一次：{login_cmd}",),
        ),
        when=once(
            lambda f: (
                f["provider"] == "openai"
                and f["builtin"]
                and f["openai_api_key_env"]
                and not f.get("logged_in")
                and not f.get("gateway_key")
            )
        ),
    ),
    Rule(
        code="ENV012",
        name="not-logged-in",
        check="env.auth",
        reads=("auth_path", "builtin", "codex_api_key_env", "gateway_key", "logged_in", "provider"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Built-in provider without a login",
            diagnosis="model_provider is the built-in `openai`, which authenticates with a stored login, and {auth_path} has none.",
            remedy=(
                "Log in with your ChatGPT account:\ncodex login",
                "Or store an OpenAI API key:\n{login_cmd}",
                "Or configure a custom provider with base_url and env_key in config.toml (see `codexdoctor explain CFG001`).",
            ),
        ),
        zh=Text(
            title="内置提供方没有登录",
            diagnosis="model_provider 是内置的 `openai`，它用已保存的登录认证，而 {auth_path} 中没有登录信息。",
            remedy=(
                "用 ChatGPT 账号登录：\ncodex login",
                "或者保存一个 OpenAI API Key：\n{login_cmd}",
                "或者在 config.toml 中配置一个带 base_url 和 env_key 的自定义提供方（见 `codexdoctor explain CFG001`）。",
            ),
        ),
        # $OPENAI_API_KEY does not count (ENV011 says so): without a stored login Codex has nothing to send.
        when=once(
            lambda f: (
                f["provider"] == "openai"
                and f["builtin"]
                and not f.get("logged_in")
                and not f.get("codex_api_key_env")
                and not f.get("gateway_key")
            )
        ),
    ),
    Rule(
        code="ENV025",
        name="openai-key-is-a-gateway-key",
        check="env.auth",
        reads=(
            "auth_path",
            "builtin",
            "codex_api_key_env",
            "gateway_key",
            "gateway_provider",
            "logged_in",
            "openai_key_fp",
            "provider",
        ),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="OPENAI_API_KEY belongs to a gateway, but Codex uses the built-in provider",
            diagnosis="model_provider is the built-in `openai` and {auth_path} has no login. $OPENAI_API_KEY ({openai_key_fp}) is the "
            "key of {gateway_key}, so it must not be stored as an OpenAI login: Codex would then send it as your OpenAI "
            "credentials.",
            remedy=(
                "Point Codex at the gateway's own provider table instead: {gateway_step}",
                "Do not run `codex login --with-api-key` with this key.",
            ),
        ),
        zh=Text(
            title="OPENAI_API_KEY 属于网关，但 Codex 用的是内置提供方",
            diagnosis="model_provider 是内置的 `openai`，而 {auth_path} 中没有登录。$OPENAI_API_KEY（{openai_key_fp}）是 {gateway_key} "
            "的密钥，不能把它保存为 OpenAI 登录：否则 Codex 会把它当作你的 OpenAI 凭据发送。",
            remedy=(
                "改为让 Codex 使用网关自己的提供方配置：{gateway_step}",
                "不要用这个密钥运行 `codex login --with-api-key`。",
            ),
        ),
        when=once(
            lambda f: (
                f["provider"] == "openai"
                and f["builtin"]
                and not f.get("logged_in")
                and not f.get("codex_api_key_env")
                and bool(f.get("gateway_key"))
            )
        ),
    ),
    Rule(
        code="ENV013",
        name="stored-login-may-leak",
        check="env.auth",
        reads=("auth", "auth_path", "custom_without_env_key", "provider"),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Stored OpenAI login and a custom provider without env_key",
            diagnosis="{auth_path} holds an OpenAI login and [model_providers.{provider}] has no env_key. Codex 0.171 sends such a "
            "provider no key at all (it answers 401, no API key provided); older versions sent it the stored OpenAI key or "
            "ChatGPT token (a leak to a third party).",
            remedy=(
                'Add env_key = "<VARIABLE>" to [model_providers.{provider}] so Codex sends that provider\'s own key.',
            ),
        ),
        zh=Text(
            title="已保存的 OpenAI 登录，加上没有 env_key 的自定义提供方",
            diagnosis="{auth_path} 中保存着 OpenAI 登录，而 [model_providers.{provider}] 没有 env_key。Codex 0.171 不会给这样的提供方发送任何密钥"
            "（它会返回 401，说没有提供 API Key）；旧版 Codex 则会把已保存的 OpenAI 密钥或 ChatGPT token 发给它（泄露给第三方）。",
            remedy=('在 [model_providers.{provider}] 中添加 env_key = "<变量名>"，让 Codex 发送该提供方自己的密钥。',),
        ),
        when=once(lambda f: f["custom_without_env_key"] and f["auth"].get("exists") and not f["auth"].get("error")),
    ),
    Rule(
        code="ENV014",
        name="auth-json-unreadable",
        check="env.auth",
        reads=("auth", "auth_path"),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="auth.json cannot be read",
            diagnosis="{auth_path} exists but is not valid JSON; Codex may ask you to log in again.",
            remedy=(
                "Log in again to rewrite it: codex login (or delete {auth_path} if you use a custom provider with env_key).",
            ),
        ),
        zh=Text(
            title="auth.json 无法读取",
            diagnosis="{auth_path} 存在，但不是合法的 JSON；Codex 可能会要求你重新登录。",
            remedy=(
                "重新登录以重写它：codex login（如果你用的是带 env_key 的自定义提供方，也可以删除 {auth_path}）。",
            ),
        ),
        when=once(lambda f: bool(f["auth"].get("error"))),
    ),
    Rule(
        code="ENV015",
        name="requires-openai-auth-without-login",
        check="env.auth",
        reads=("auth", "auth_path", "provider", "requires_openai_auth"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Provider requires the OpenAI login, but none is stored",
            diagnosis="[model_providers.{provider}] sets requires_openai_auth = true, which makes Codex send the stored login, and {auth_path} is absent.",
            remedy=("Log in (codex login), or remove requires_openai_auth and use env_key for this provider.",),
        ),
        zh=Text(
            title="提供方要求 OpenAI 登录，但没有已保存的登录",
            diagnosis="[model_providers.{provider}] 设置了 requires_openai_auth = true，Codex 会发送已保存的登录，而 {auth_path} 不存在。",
            remedy=("登录（codex login），或去掉 requires_openai_auth，改用 env_key 给这个提供方提供密钥。",),
        ),
        when=once(lambda f: f["requires_openai_auth"] and not f["auth"].get("exists")),
    ),
    Rule(
        code="ENV016",
        name="stored-key-differs",
        check="env.auth",
        reads=("auth_path", "env_differs_from_stored", "gateway_key", "provider"),
        severity=I,
        verdict=CONFIG,
        en=Text(
            title="Stored key differs from $OPENAI_API_KEY",
            diagnosis="The built-in provider uses the key stored in {auth_path}, not $OPENAI_API_KEY, and the two differ.",
            remedy=("If the variable holds the key you want, store it: {login_cmd}",),
        ),
        zh=Text(
            title="已保存的密钥与 $OPENAI_API_KEY 不同",
            diagnosis="内置提供方使用 {auth_path} 中保存的密钥，而不是 $OPENAI_API_KEY，两者并不相同。",
            remedy=("如果变量里的才是你想用的密钥，把它保存下来：{login_cmd}",),
        ),
        when=once(lambda f: f["provider"] == "openai" and f["env_differs_from_stored"] and not f.get("gateway_key")),
    ),
    Rule(
        code="ENV022",
        name="codex-api-key-exec-only",
        check="env.auth",
        reads=("auth_path", "builtin", "codex_api_key_env", "logged_in", "provider"),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Only `codex exec` uses $CODEX_API_KEY",
            diagnosis="There is no stored login in {auth_path}, but $CODEX_API_KEY is set: `codex exec` (scripts, CI) sends it to the "
            "built-in provider; the interactive `codex` does not read it and asks you to log in.",
            remedy=("For the interactive `codex` too, store the key once: {codex_api_key_login_cmd}",),
        ),
        zh=Text(
            title="只有 `codex exec` 会使用 $CODEX_API_KEY",
            diagnosis="{auth_path} 中没有已保存的登录，但设置了 $CODEX_API_KEY：`codex exec`（脚本、CI）会把它发给内置提供方；"
            "交互式的 `codex` 不读取它，会要求你登录。",
            remedy=("要让交互式 `codex` 也能用，把密钥保存一次：{codex_api_key_login_cmd}",),
        ),
        when=once(
            lambda f: (
                f["provider"] == "openai"
                and f["builtin"]
                and not f.get("logged_in")
                and bool(f.get("codex_api_key_env"))
            )
        ),
    ),
)
