"""ENV: the API key variable. The rules, their Simplified Chinese texts and the helpers only they use.

Chinese texts keep the English placeholders; config keys, commands, product names and codes stay untranslated.
"""

from __future__ import annotations

from typing import Any

from codexdoctor.rules.base import CONFIG, E, I, Loc, Rule, Text, W, once

RULES: tuple[Rule, ...] = (
    Rule(
        code="ENV001",
        name="env-key-unset",
        check="env.key",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="API key variable is not set",
            diagnosis='env_key = "{env_key}" ({env_key_where}) but ${env_key} is not set in this environment; Codex stops with '
            "``Missing environment variable: `{env_key}`.`` before sending anything.",
            remedy=(
                "Set it in this terminal: {set_cmd}",
                "Make it permanent, then open a new terminal:\n{persist_cmd}",
                "Check that env_key holds the variable's name, spelled exactly as you set it.",
            ),
        ),
        zh=Text(
            title="API Key 环境变量未设置",
            diagnosis='env_key = "{env_key}"（{env_key_where}），但当前环境中没有 ${env_key}；Codex 在发出任何请求之前就会报 ``Missing environment variable: `{env_key}`.`` 并停止。',
            remedy=(
                "在当前终端设置：{set_cmd}",
                "永久生效，然后打开一个新终端：\n{persist_cmd}",
                "确认 env_key 写的是变量名，并且与你导出的名字完全一致。",
            ),
        ),
        when=once(
            lambda f: (
                f["state"] == "missing"
                and not f["near_miss"]
                and not f["rc_hits"]
                and not f.get("dotenv_bom")
                and not f.get("dotenv_unloaded")
            )
        ),
    ),
    Rule(
        code="ENV002",
        name="env-key-blank",
        check="env.key",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="API key variable is empty",
            diagnosis="${env_key} is set but empty or only whitespace; Codex treats that as missing.",
            remedy=(
                "Set it to your key: {set_cmd}",
                "Look for an empty assignment in your shell start-up files that overrides it.",
            ),
        ),
        zh=Text(
            title="API Key 环境变量为空",
            diagnosis="${env_key} 已设置，但为空或只有空白；Codex 会把它当作未设置。",
            remedy=("把它设为你的密钥：{set_cmd}", "检查 shell 启动文件里是否有把它覆盖为空的赋值。"),
        ),
        when=once(
            lambda f: (
                f["state"] == "blank" and not f["near_miss"] and not f.get("from_dotenv") and not f.get("dotenv_bom")
            )
        ),
    ),
    Rule(
        code="ENV003",
        name="env-key-near-miss",
        check="env.key",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Key is in a variable with a different name",
            diagnosis="Codex reads ${env_key} (env_key, {env_key_where}), which is {state}, but {near_miss_text} is set. "
            "The names must match exactly.",
            remedy=(
                "Either copy it to the name Codex reads: {rename_cmd}",
                'or change env_key in {env_key_where} to "{first_near_miss}".',
            ),
        ),
        zh=Text(
            title="密钥放在了名字不同的变量里",
            diagnosis="Codex 读取的是 ${env_key}（env_key，{env_key_where}），它{state}；而你设置的是 {near_miss_text}。两者的名字必须完全一致。",
            remedy=(
                "要么把它复制到 Codex 读取的变量名：{rename_cmd}",
                '要么把 {env_key_where} 中的 env_key 改为 "{first_near_miss}"。',
            ),
        ),
        when=lambda f: (
            [
                {
                    "near_miss_text": ", ".join("$" + n for n in f["near_miss"]),
                    "first_near_miss": f["near_miss"][0],
                    "state": Loc(f["state"], "未设置" if f["state"] == "missing" else "为空"),
                }
            ]
            if f["state"] in ("missing", "blank")
            and f["near_miss"]
            and not f.get("dotenv_bom")
            and not f.get("dotenv_unloaded")
            else []
        ),
    ),
    Rule(
        code="ENV004",
        name="env-key-in-rc-file-only",
        check="env.key",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Key is in a shell file but not in this terminal",
            diagnosis="{rc_text} sets {env_key}, but this environment does not have it: the file was edited after this terminal "
            "started, or it is not read by this shell.",
            remedy=(
                "Load it now, or open a new terminal:\n{reload_cmd}",
                "If Codex runs from an editor or GUI, restart it from a terminal that has the variable.",
            ),
        ),
        zh=Text(
            title="密钥写在 shell 文件里，但当前终端没有加载",
            diagnosis="{rc_text} 设置了 {env_key}，但当前环境里没有它：文件是在这个终端启动后才修改的，或者当前 shell 不读这个文件。",
            remedy=(
                "现在加载，或者打开一个新终端：\n{reload_cmd}",
                "如果 Codex 是从编辑器或图形界面启动的，请从已有该变量的终端重新启动它。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "rc_text": ", ".join(f"{h['file']}:{h['line']}" for h in f["rc_hits"]),
                    "rc_file": f["rc_hits"][0]["file"],
                }
            ]
            if f["state"] in ("missing", "blank")
            and f["rc_hits"]
            and not f["near_miss"]
            and not f.get("dotenv_bom")
            and not f.get("dotenv_unloaded")
            and any(h.get("exported", True) for h in f["rc_hits"])
            else []
        ),
    ),
    Rule(
        code="ENV024",
        name="env-key-not-exported",
        check="env.key",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="The shell file sets the key without exporting it",
            diagnosis="{rc_file}:{rc_line} sets {env_key} without `export`, so it is a variable of the shell alone: programs the "
            "shell starts, Codex among them, do not get it. Loading the file (`source`) does not change that, and Codex "
            "stops with ``Missing environment variable: `{env_key}`.``",
            remedy=(
                "Change line {rc_line} of {rc_file} to: {export_line}",
                "Then open a new terminal and run Codex from it.",
            ),
        ),
        zh=Text(
            title="shell 文件设置了密钥，但没有导出",
            diagnosis="{rc_file}:{rc_line} 设置 {env_key} 时没有用 `export`，所以它只是这个 shell 自己的变量：shell 启动的程序（包括 Codex）"
            "拿不到它。加载这个文件（`source`）也改变不了这一点，Codex 会报 ``Missing environment variable: `{env_key}`.`` 并停止。",
            remedy=("把 {rc_file} 的第 {rc_line} 行改成：{export_line}", "然后打开一个新终端，从那里运行 Codex。"),
        ),
        when=lambda f: (
            [
                {
                    "rc_file": h["file"],
                    "rc_line": h["line"],
                    "export_line": f"set -gx {f['env_key']} …" if h.get("fish") else f"export {f['env_key']}=…",
                }
                for h in (f.get("rc_hits") or [])[:1]
            ]
            if f["state"] in ("missing", "blank")
            and f.get("rc_hits")
            and not f["near_miss"]
            and not any(h.get("exported", True) for h in f["rc_hits"])
            else []
        ),
    ),
    Rule(
        code="ENV005",
        name="env-key-whitespace",
        check="env.key",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Key value has whitespace or a newline",
            diagnosis="${env_key} ({key_fingerprint}) contains {problem_text}. Codex drops a header value with a newline, so the "
            "provider sees no key and answers 401.",
            remedy=(
                "Set it again without spaces or line breaks: {strip_cmd}",
                "When copying the key, copy only the key itself (no trailing newline from `echo` or a file).",
            ),
        ),
        zh=Text(
            title="密钥值里有空白或换行",
            diagnosis="${env_key}（{key_fingerprint}）包含{problem_text}。Codex 会丢弃带换行的请求头，提供方因此收不到密钥并返回 401。",
            remedy=(
                "去掉空格和换行后重新设置：{strip_cmd}",
                "复制密钥时只复制密钥本身（不要带上 `echo` 或文件末尾的换行）。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "problem_text": Loc(
                        " and ".join(p for p in f["problems"] if "whitespace" in p or p == "newline"),
                        "、".join(
                            {
                                "newline": "换行",
                                "leading or trailing whitespace": "首尾空白",
                                "inner whitespace": "中间的空白",
                            }[p]
                            for p in f["problems"]
                            if "whitespace" in p or p == "newline"
                        ),
                    )
                }
            ]
            if any("whitespace" in p or p == "newline" for p in f["problems"])
            else []
        ),
    ),
    Rule(
        code="ENV006",
        name="env-key-quoted",
        check="env.key",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Key value includes quote characters",
            diagnosis="${env_key} ({key_fingerprint}) starts and ends with quotes, which are sent as part of the key.",
            remedy=(
                "Set it without literal quotes (the shell's own quotes are fine; quotes inside them are not):\n{set_cmd}",
            ),
        ),
        zh=Text(
            title="密钥值里带了引号",
            diagnosis="${env_key}（{key_fingerprint}）首尾带有引号，这些引号会被当作密钥的一部分发出去。",
            remedy=("不带字面引号重新设置（shell 自己的引号没问题，引号里面再套引号就不行）：\n{set_cmd}",),
        ),
        when=once(lambda f: "quotes" in f["problems"]),
    ),
    Rule(
        code="ENV007",
        name="env-key-bearer-prefix",
        check="env.key",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Key value starts with `Bearer `",
            diagnosis="${env_key} starts with `Bearer `; Codex adds that itself, so the provider receives `Bearer Bearer …`.",
            remedy=("Remove the prefix, keeping the key itself: {strip_bearer_cmd}",),
        ),
        zh=Text(
            title="密钥值以 `Bearer ` 开头",
            diagnosis="${env_key} 以 `Bearer ` 开头；Codex 会自己加上这个前缀，提供方收到的就成了 `Bearer Bearer …`。",
            remedy=("去掉前缀，只保留密钥本身：{strip_bearer_cmd}",),
        ),
        when=once(lambda f: "bearer prefix" in f["problems"]),
    ),
    Rule(
        code="ENV008",
        name="env-key-non-ascii",
        check="env.key",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Key value has non-ASCII characters",
            diagnosis="${env_key} contains non-ASCII characters (often a full-width space or a smart quote from a chat app or document).",
            remedy=("Copy the key again from the provider's console and set it with only ASCII characters: {set_cmd}",),
        ),
        zh=Text(
            title="密钥值里有非 ASCII 字符",
            diagnosis="${env_key} 含有非 ASCII 字符（常见的是从聊天软件或文档里带来的全角空格或智能引号）。",
            remedy=("从提供方控制台重新复制密钥，只用 ASCII 字符设置：{set_cmd}",),
        ),
        when=once(lambda f: "non-ascii" in f["problems"]),
    ),
    Rule(
        code="ENV009",
        name="env-key-holds-key",
        check="env.key",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="env_key holds a key, not a variable name",
            diagnosis="env_key ({env_key_where}) must name an environment variable; its value {env_key} looks like the API key itself. "
            "Codex will look for a variable with that name and stop with `Missing environment variable`.",
            remedy=(
                'In {env_key_where}, set env_key = "MYGATEWAY_API_KEY" (a name), and put the key in that variable: {example_set_cmd}',
                "Treat the key as exposed if the config file was shared; create a new key at the provider.",
            ),
        ),
        zh=Text(
            title="env_key 里写的是密钥，不是变量名",
            diagnosis="env_key（{env_key_where}）必须是一个环境变量的名字；它的值 {env_key} 看起来就是 API Key 本身。Codex 会去找这个名字的变量，并以 `Missing environment variable` 停止。",
            remedy=(
                '在 {env_key_where} 中设置 env_key = "MYGATEWAY_API_KEY"（一个变量名），再把密钥放进这个变量：{example_set_cmd}',
                "如果配置文件曾被分享出去，请把这个密钥视为已泄露，到提供方重新创建一个。",
            ),
        ),
        when=once(lambda f: f["state"] == "not_a_name"),
    ),
    Rule(
        code="ENV010",
        name="provider-without-env-key",
        check="env.key",
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Custom provider has no env_key",
            diagnosis="[model_providers.{provider}] has no env_key (and no experimental_bearer_token), so current Codex sends no "
            "API key; a provider that needs one answers 401.",
            remedy=(
                'Add env_key = "MYGATEWAY_API_KEY" to [model_providers.{provider}] in {user_config}, and set the variable: {example_set_cmd}',
            ),
        ),
        zh=Text(
            title="自定义提供方没有 env_key",
            diagnosis="[model_providers.{provider}] 没有 env_key（也没有 experimental_bearer_token），当前版本的 Codex 不会发送任何 API Key；需要密钥的提供方会返回 401。",
            remedy=(
                '在 {user_config} 的 [model_providers.{provider}] 中添加 env_key = "MYGATEWAY_API_KEY"，并设置该变量：{example_set_cmd}',
            ),
        ),
        when=once(
            lambda f: f["state"] == "no_env_key" and not (f["local"] or f["bearer_token"] or f["requires_openai_auth"])
        ),
    ),
    Rule(
        code="ENV011",
        name="openai-api-key-ignored",
        check="env.auth",
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
        code="ENV017",
        name="dotenv-blank-key",
        check="env.key",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="The key variable is blank in Codex's .env file",
            diagnosis="{dotenv_path} sets {env_key} to an empty value. Codex loads that file at start-up over your shell's environment, "
            "so it stops with ``Missing environment variable: `{env_key}`.`` even if the shell has the key.",
            remedy=(
                "Put the key on that line of {dotenv_path} ({env_key}=<your key>), or delete the line so the shell's value is used.",
            ),
        ),
        zh=Text(
            title="Codex 的 .env 文件里密钥变量为空",
            diagnosis="{dotenv_path} 把 {env_key} 设成了空值。Codex 启动时会用这个文件覆盖 shell 的环境变量，"
            "所以即使 shell 里有密钥，它也会报 ``Missing environment variable: `{env_key}`.`` 并停止。",
            remedy=(
                "在 {dotenv_path} 的这一行填上密钥（{env_key}=<你的密钥>），或删除这一行，让 Codex 使用 shell 中的值。",
            ),
        ),
        when=once(lambda f: f["state"] == "blank" and bool(f.get("from_dotenv")) and not f.get("dotenv_unset_refs")),
    ),
    Rule(
        code="ENV018",
        name="dotenv-overrides-shell",
        check="env.key",
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Codex's .env file overrides the key in your shell",
            diagnosis="Codex takes {env_key} from {dotenv_path} ({key_fingerprint}), not from your shell ({shell_fp}): the file is loaded "
            "at start-up and wins. A key you export in the terminal is not the one Codex sends.",
            remedy=(
                "If the shell's key is the right one, delete the {env_key} line from {dotenv_path}; otherwise update it there.",
            ),
        ),
        zh=Text(
            title="Codex 的 .env 文件覆盖了 shell 中的密钥",
            diagnosis="Codex 从 {dotenv_path} 读取 {env_key}（{key_fingerprint}），而不是从你的 shell（{shell_fp}）：该文件在启动时加载并优先生效。"
            "你在终端里 export 的密钥并不是 Codex 发送的那个。",
            remedy=("如果 shell 里的密钥才是正确的，从 {dotenv_path} 删除 {env_key} 这一行；否则在那里更新它。",),
        ),
        when=once(lambda f: bool(f.get("shell_differs")) and f["state"] != "blank"),
    ),
    Rule(
        code="ENV022",
        name="codex-api-key-exec-only",
        check="env.auth",
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
    Rule(
        code="ENV019",
        name="dotenv-bom-hides-key",
        check="env.key",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Codex's .env file starts with a byte-order mark, which hides the key",
            diagnosis="{dotenv_path} begins with a byte-order mark (BOM, added by some Windows editors), and {env_key} is on its "
            "first line. Codex's .env reader takes the mark as part of that line and skips it, so {env_key} is not set and "
            "Codex stops with ``Missing environment variable: `{env_key}`.``",
            remedy=(
                "Save {dotenv_path} as UTF-8 without BOM (Notepad: Save As → Encoding: UTF-8; VS Code: click "
                '"UTF-8 with BOM" in the status bar → Save with Encoding → UTF-8).',
                "Or make its first line a comment (# …) and keep {env_key}=… on a line below it.",
            ),
        ),
        zh=Text(
            title="Codex 的 .env 文件以字节顺序标记开头，密钥因此被跳过",
            diagnosis="{dotenv_path} 以字节顺序标记（BOM，部分 Windows 编辑器会加上）开头，而 {env_key} 正好在第一行。"
            "Codex 读取 .env 时把这个标记当作该行的一部分并跳过这一行，所以 {env_key} 没有被设置，"
            "Codex 会报 ``Missing environment variable: `{env_key}`.`` 并停止。",
            remedy=(
                "把 {dotenv_path} 另存为不带 BOM 的 UTF-8（记事本：另存为 → 编码：UTF-8；VS Code：点击状态栏的"
                "“UTF-8 with BOM” → 通过编码保存 → UTF-8）。",
                "或者把第一行改成注释（# …），把 {env_key}=… 放在它下面的一行。",
            ),
        ),
        when=once(lambda f: f["state"] in ("missing", "blank") and bool(f.get("dotenv_bom"))),
    ),
    Rule(
        code="ENV020",
        name="dotenv-line-not-loaded",
        check="env.key",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Codex cannot read the .env line that sets the key",
            diagnosis="{dotenv_path}:{dotenv_line} is meant to set {env_key}, but Codex's .env reader rejects {why}, so {env_key} is "
            "not set and Codex stops with ``Missing environment variable: `{env_key}`.``",
            remedy=(
                "Write line {dotenv_line} of {dotenv_path} as {env_key}='<your key>': single quotes keep everything inside "
                "as it is.",
                "{how_to_fix_the_line}",
            ),
        ),
        zh=Text(
            title="Codex 无法读取 .env 中设置密钥的那一行",
            diagnosis="{dotenv_path}:{dotenv_line} 本应设置 {env_key}，但 Codex 的 .env 读取器拒绝了{why}，所以 {env_key} 没有被设置，"
            "Codex 会报 ``Missing environment variable: `{env_key}`.`` 并停止。",
            remedy=(
                "把 {dotenv_path} 的第 {dotenv_line} 行写成 {env_key}='<你的密钥>'：单引号里的内容会原样保留。",
                "{how_to_fix_the_line}",
            ),
        ),
        when=lambda f: (
            [
                {
                    "dotenv_line": f["dotenv_unloaded"]["line"],
                    "why": Loc(
                        "it (a quote opened there is never closed, and the rest of the file is read as one "
                        "broken line)",
                        "它（那里打开的引号没有闭合，文件剩下的部分都被当作一行坏掉的内容）",
                    )
                    if f["dotenv_unloaded"]["reason"] == "unterminated"
                    else Loc(
                        "that line (an unquoted value ends at a space, after which only a # comment may follow, and "
                        "only NAME=value lines are read)",
                        "这一行（不加引号的值遇到空格就结束，后面只能跟 # 注释；而且只读取 NAME=value 形式的行）",
                    ),
                    "how_to_fix_the_line": Loc(
                        f"Close the quote opened on line {f['dotenv_unloaded']['line']}, or delete it; the lines "
                        "after it are not read until then.",
                        f"闭合第 {f['dotenv_unloaded']['line']} 行打开的引号，或删除它；在此之前，它后面的行都不会被读取。",
                    )
                    if f["dotenv_unloaded"]["reason"] == "unterminated"
                    else Loc(
                        f"Every line of {f['dotenv_path']} must be NAME=value (no `:`); a value with a space in it "
                        "must be quoted.",
                        f"{f['dotenv_path']} 的每一行都要写成 NAME=value（不能用 `:`）；值里有空格时要加引号。",
                    ),
                }
            ]
            if f["state"] in ("missing", "blank") and f.get("dotenv_unloaded") and not f.get("dotenv_bom")
            else []
        ),
    ),
    Rule(
        code="ENV021",
        name="dotenv-substitutes-unset-variable",
        check="env.key",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="The key in .env contains $ and Codex substitutes it",
            diagnosis="{dotenv_path}:{dotenv_line} sets {env_key} to a value with {refs} in it. Codex's .env reader replaces $NAME "
            "and ${{NAME}} with that variable's value (a name ends at the first character that is not a letter or digit), "
            "and {refs} is not set, so Codex sends the key without it ({sent}).",
            remedy=(
                "If the $ is part of the key, put the value on line {dotenv_line} of {dotenv_path} in single quotes "
                "({env_key}='…'): nothing inside them is replaced.",
                "If you meant another variable, write its whole name in braces there: {env_key}=${{NAME_WITH_UNDERSCORES}}.",
            ),
        ),
        zh=Text(
            title=".env 中的密钥含有 $，被 Codex 当作变量替换",
            diagnosis="{dotenv_path}:{dotenv_line} 给 {env_key} 设置的值里有 {refs}。Codex 的 .env 读取器会把 $NAME 和 ${{NAME}} "
            "替换成对应变量的值（变量名在第一个不是字母或数字的字符处结束），而 {refs} 没有设置，所以 Codex 发送的密钥少了这一部分（{sent}）。",
            remedy=(
                "如果 $ 是密钥本身的一部分，给 {dotenv_path} 第 {dotenv_line} 行的值加上单引号（{env_key}='…'）：单引号里的内容不会被替换。",
                "如果你想引用另一个变量，在那里用花括号写出完整的名字：{env_key}=${{NAME_WITH_UNDERSCORES}}。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "refs": ", ".join(f["dotenv_unset_refs"]),
                    "sent": f.get("key_fingerprint") or Loc("an empty value", "空值"),
                }
            ]
            if f["state"] in ("set", "blank") and f.get("dotenv_unset_refs")
            else []
        ),
    ),
    Rule(
        code="ENV023",
        name="dotenv-substitution-explodes",
        check="env.key",
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Codex's .env builds values millions of characters long",
            diagnosis="{dotenv_path} builds {what} by $ substitution that feeds on itself (a line such as A2=${{A1}}${{A1}} doubles "
            "the value before it). Codex 0.171 builds every value whole before it starts: a 512 MB value took it 20 s "
            "and 4.9 GB of memory. codexdoctor stopped reading there, so what it says about the variables set from "
            "that point on is unproven.",
            remedy=(
                "Remove or rewrite line {first_line} of {dotenv_path} and the lines that build on it: a value should "
                "name other variables, not repeat them.",
            ),
        ),
        zh=Text(
            title="Codex 的 .env 构造出了长达数百万字符的值",
            diagnosis="{dotenv_path} 通过自我引用的 $ 替换构造了 {what}（例如 A2=${{A1}}${{A1}} 会把前一个值加倍）。Codex 0.171 "
            "在启动前会把每个值完整地构造出来：一个 512 MB 的值用了 20 秒和 4.9 GB 内存。codexdoctor 在那里停止读取，"
            "所以它对从那里开始设置的变量的判断没有得到证实。",
            remedy=(
                "删除或改写 {dotenv_path} 的第 {first_line} 行以及依赖它的行：值应该引用其他变量，而不是重复它们。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "what": _capped_names(f.get("dotenv_capped") or [])
                    or Loc(f"values past {f['dotenv_stopped_at']:,} lines", f"到第 {f['dotenv_stopped_at']:,} 行的值"),
                    "first_line": min(
                        [c["line"] for c in f.get("dotenv_capped") or []]
                        + ([f["dotenv_stopped_at"]] if f.get("dotenv_stopped_at") else [])
                    ),
                }
            ]
            if f.get("dotenv_capped") or f.get("dotenv_stopped_at")
            else []
        ),
    ),
)


def _capped_names(capped: list[dict[str, Any]]) -> Any:
    shown = ", ".join(f"{c['name']} (line {c['line']})" for c in capped[:3])
    if len(capped) > 3:
        return Loc(f"{shown} and {len(capped) - 3} more", f"{shown} 等 {len(capped)} 个值")
    return shown
