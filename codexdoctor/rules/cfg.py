"""CFG: finding and parsing the config. The rules, their Simplified Chinese texts and the helpers only they use.

Chinese texts keep the English placeholders; config keys, commands, product names and codes stay untranslated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.rules.base import (
    CONFIG,
    MINIMAL_CONFIG,
    MINIMAL_CONFIG_ZH,
    E,
    I,
    Loc,
    Rule,
    Text,
    W,
    each,
    once,
    shell_commands,
)


def version_text(f: Mapping[str, Any]) -> Loc | str:
    if f.get("codex_version"):
        return f"Codex {f['codex_version']}"
    return Loc("Codex (version unknown: `codex --version` not found)", "Codex（版本未知：找不到 `codex --version`）")


def _home_missing_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """CFG013: a literal `~` needs a different fix than a folder that is simply missing."""
    from codexdoctor.common.shells import Shell

    c = shell_commands(f)
    if f.get("literal_tilde") and f.get("expanded"):
        sh = Shell(f.get("shell") or "bash", f.get("platform") or "linux")
        set_cmd = sh.set_var("CODEX_HOME", f["expanded"])
        return {
            "tilde_hint": Loc(
                " The `~` was kept literally (it was inside quotes), and Codex does not expand it.",
                " `~` 被原样保留（写在了引号里），而 Codex 不会展开它。",
            ),
            "home_step": Loc(
                f"Set CODEX_HOME to the full path, or unset it (the second line):\n{set_cmd}\n{c['unset_home_cmd']}",
                f"把 CODEX_HOME 设为完整路径，或取消设置（第二行）：\n{set_cmd}\n{c['unset_home_cmd']}",
            ),
        }
    return {
        "tilde_hint": "",
        "home_step": Loc(
            f"Create it, or stop setting CODEX_HOME to use the default folder (the second line):\n"
            f"{c['mkdir_cmd']}\n{c['unset_home_cmd']}",
            f"创建它，或不再设置 CODEX_HOME 以使用默认目录（第二行）：\n{c['mkdir_cmd']}\n{c['unset_home_cmd']}",
        ),
    }


def _provider_step(f: Mapping[str, Any]) -> dict[str, Any]:
    """CFG004 with one table whose name is close: name it and give the edit `fix` makes (issue 29)."""
    mean = f.get("did_you_mean")
    if mean:
        return {
            "mean_text": Loc(f" Did you mean `{mean}`?", f"你是不是想写 `{mean}`？"),
            "provider_step": Loc(
                f'In {f["origin"]}, set model_provider = "{mean}"', f'在 {f["origin"]} 中设置 model_provider = "{mean}"'
            ),
        }
    return {
        "mean_text": "",
        "provider_step": Loc(
            f"Either add a [model_providers.{f['provider']}] table to {f['user_config']} with name, "
            f"base_url, env_key and wire_api, or change model_provider ({f['origin']}) to one of: "
            f"{', '.join(f.get('available') or [])}.",
            f"在 {f['user_config']} 中添加 [model_providers.{f['provider']}] 表（包含 name、base_url、"
            f"env_key 和 wire_api），或把 model_provider（{f['origin']}）改成以下之一："
            f"{'、'.join(f.get('available') or [])}。",
        ),
    }


# What a config value should be (the `kind` of a wrong_types fact), in words.
EXPECTED_WORDS = {
    "str": Loc("a string", "字符串"),
    "table": Loc("a table", "表"),
    "i64": Loc("a whole number", "整数"),
    "u64": Loc("a whole number, 0 or more", "不小于 0 的整数"),
    "bool": Loc("true or false", "true 或 false"),
}

EXAMPLES = {
    "str": ('{} = "…"', '{} = "…"'),
    "table": ("{} = {{ … }}", "{} = {{ … }}"),
    "i64": ("{} = 128000 (no quotes)", "{} = 128000（不加引号）"),
    "u64": ("{} = 4 (no quotes)", "{} = 4（不加引号）"),
    "bool": ("{} = true (no quotes)", "{} = true（不加引号）"),
}

RULES: tuple[Rule, ...] = (
    Rule(
        code="CFG001",
        name="config-file-missing",
        check="cfg.files",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="No Codex config file",
            diagnosis="{user_path} does not exist, so Codex uses its built-in OpenAI provider and your stored login; "
            "no custom provider, base_url or key variable is configured.",
            remedy=(
                "Create {user_path} (create the folder too if needed) with a provider table, for example:\n"
                + MINIMAL_CONFIG,
                "Replace the placeholders with your provider's base URL, the exact model ID from its catalog, and a variable name; "
                "then set that variable in your shell: {example_set_cmd}",
                "If you meant to use another folder, set CODEX_HOME to it (Codex reads $CODEX_HOME/config.toml).",
            ),
            explanation="Codex reads `$CODEX_HOME/config.toml` (default `~/.codex/config.toml`). Without it the built-in "
            "`openai` provider is used, which needs `codex login`.",
        ),
        zh=Text(
            title="没有 Codex 配置文件",
            diagnosis="{user_path} 不存在，所以 Codex 使用内置的 OpenAI 提供方和已保存的登录；没有配置任何自定义提供方、base_url 或密钥变量。",
            remedy=(
                "创建 {user_path}（必要时先创建目录），写入一个提供方表，例如：\n" + MINIMAL_CONFIG_ZH,
                "把占位符换成你的提供方的 base_url 地址、模型列表里的准确模型 ID 和一个变量名；然后在 shell 中设置该变量：{example_set_cmd}",
                "如果你想用别的目录，把 CODEX_HOME 设为它（Codex 读取 $CODEX_HOME/config.toml）。",
            ),
        ),
        when=once(lambda f: f["user_missing"] and not f["provider_configured_elsewhere"]),
    ),
    Rule(
        code="CFG002",
        name="toml-syntax-error",
        check="cfg.files",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Config is not valid TOML",
            diagnosis="{location}: {message}. Codex refuses to start with `Error loading config.toml`.",
            remedy=(
                "Open {path}{at_text} and fix the syntax: strings need double quotes "
                '(base_url = "https://…"), a key may appear only once per table, and a [table] header may appear only once.',
                "Run `codexdoctor check` again to confirm the file parses.",
            ),
            explanation="Codex parses every config layer with a strict TOML parser and stops on the first error.",
        ),
        zh=Text(
            title="配置不是合法的 TOML",
            diagnosis="{location}: {message}。Codex 会以 `Error loading config.toml` 拒绝启动。",
            remedy=(
                '打开 {path}{at_text}修正语法：字符串要用双引号（base_url = "https://…"），同一个表里一个键只能出现一次，[表头] 也只能出现一次。',
                "再次运行 `codexdoctor check` 确认文件可以解析。",
            ),
        ),
        when=lambda f: [
            dict(
                path=x["path"],
                **x["toml_error"],
                location=f"{x['path']}:{x['toml_error']['line']}:{x['toml_error']['column']}"
                if x["toml_error"].get("line")
                else x["path"],
                at_text=Loc(
                    f" at line {x['toml_error']['line']}, column {x['toml_error']['column']}",
                    f" 第 {x['toml_error']['line']} 行第 {x['toml_error']['column']} 列处",
                )
                if x["toml_error"].get("line")
                else "",
            )
            for x in f.get("files", [])
            if "toml_error" in x
        ],
    ),
    Rule(
        code="CFG003",
        name="config-unreadable",
        check="cfg.files",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Config file cannot be read",
            diagnosis="{path}: {read_error}.",
            remedy=("Make {path} a readable UTF-8 text file (check its permissions and owner; re-save it as UTF-8).",),
        ),
        zh=Text(
            title="配置文件无法读取",
            diagnosis="{path}：{read_error}。",
            remedy=("让 {path} 成为可读的 UTF-8 文本文件（检查权限和属主；以 UTF-8 重新保存）。",),
        ),
        when=lambda f: [
            dict(path=x["path"], read_error=x["read_error"]) for x in f.get("files", []) if "read_error" in x
        ],
    ),
    Rule(
        code="CFG004",
        name="provider-not-found",
        check="cfg.provider",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="model_provider names no provider table",
            diagnosis='model_provider = "{provider}" ({origin}) but there is no [model_providers.{provider}] table; '
            "Codex stops with ``Model provider `{provider}` not found``. Known providers: {available_text}.{mean_text}",
            remedy=(
                "{provider_step}",
                "Check the spelling: the table name after `model_providers.` must match model_provider exactly (case matters).",
            ),
        ),
        zh=Text(
            title="model_provider 指向的提供方表不存在",
            diagnosis='model_provider = "{provider}"（{origin}），但没有 [model_providers.{provider}] 表；Codex 会报 ``Model provider `{provider}` not found`` 并停止。已知的提供方：{available_text}。{mean_text}',
            remedy=(
                "{provider_step}",
                "检查拼写：`model_providers.` 后面的表名必须与 model_provider 完全一致（区分大小写）。",
            ),
        ),
        when=lambda f: [_provider_step(f)] if f["defined"] is False else [],
    ),
    Rule(
        code="CFG005",
        name="builtin-provider-redefined",
        check="cfg.provider",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="A custom provider reuses a built-in provider id",
            diagnosis="[model_providers.{id}] ({where}) redefines the built-in provider `{id}`. Current Codex refuses to start "
            "(`model_providers contains reserved built-in provider IDs`); older versions silently ignored the table.",
            remedy=(
                "Rename the table in {where} to a new id, e.g. [model_providers.{id}-custom], and set model_provider to that id.",
            ),
        ),
        zh=Text(
            title="自定义提供方占用了内置提供方的 id",
            diagnosis="[model_providers.{id}]（{where}）重新定义了内置提供方 `{id}`。当前版本的 Codex 会拒绝启动（`model_providers contains reserved built-in provider IDs`）；旧版本则会悄悄忽略这个表。",
            remedy=(
                "把 {where} 中的表改成一个新 id，例如 [model_providers.{id}-custom]，并把 model_provider 设为这个 id。",
            ),
        ),
        when=each("redefined_builtins"),
    ),
    Rule(
        code="CFG006",
        name="provider-without-base-url",
        check="cfg.provider",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Custom provider has no base_url",
            diagnosis="[model_providers.{provider}] ({table_where}) has no base_url, so Codex sends requests (and your key) to "
            "https://api.openai.com/v1.",
            remedy=("{base_url_step}",),
        ),
        zh=Text(
            title="自定义提供方没有 base_url",
            diagnosis="[model_providers.{provider}]（{table_where}）没有 base_url，因此 Codex 会把请求（连同你的密钥）发到 https://api.openai.com/v1。",
            remedy=("{base_url_step}",),
        ),
        when=lambda f: (
            [
                {
                    "base_url_step": Loc(
                        f"Rename `{f['base_url_alias']}` to base_url in [model_providers.{f['provider']}] ({f['table_where']}); "
                        f"Codex ignores `{f['base_url_alias']}`.",
                        f"把 [model_providers.{f['provider']}]（{f['table_where']}）中的 `{f['base_url_alias']}` 改名为 base_url；"
                        f"Codex 不认 `{f['base_url_alias']}`。",
                    )
                    if f.get("base_url_alias")
                    else Loc(
                        f'Add base_url = "https://<your provider>/…" to [model_providers.{f["provider"]}] in {f["table_where"]}.',
                        f'在 {f["table_where"]} 的 [model_providers.{f["provider"]}] 中添加 base_url = "https://<你的提供方>/…"。',
                    )
                }
            ]
            if f["missing_base_url"]
            else []
        ),
    ),
    Rule(
        code="CFG007",
        name="model-unset-for-custom-provider",
        check="cfg.provider",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="No model set for a custom provider",
            diagnosis="model is not set, so Codex sends its default OpenAI model ID to `{provider}`, which most gateways do not serve.",
            remedy=(
                'Add model = "<exact model ID>" at the top of {user_config} (or in the active profile), copied from the provider\'s model list.',
            ),
        ),
        zh=Text(
            title="自定义提供方没有设置 model",
            diagnosis="没有设置 model，Codex 会把它默认的 OpenAI 模型 ID 发给 `{provider}`，大多数网关并不提供这个模型。",
            remedy=(
                '在 {user_config} 顶层（或当前 profile 中）添加 model = "<准确的模型 ID>"，从提供方的模型列表中复制。',
            ),
        ),
        when=once(lambda f: f["missing_model"]),
    ),
    Rule(
        code="CFG028",
        name="model-empty",
        check="cfg.provider",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="model is an empty string",
            diagnosis='model = "" ({model_where}). Codex takes an empty model as none, finds no model for `{provider}` and stops '
            "before sending anything: ``No models are available. Set `model` explicitly or check your model catalog "
            "configuration.``",
            remedy=(
                "Write the exact model ID between the quotes in {model_where}, copied from the provider's model list.",
            ),
        ),
        zh=Text(
            title="model 是空字符串",
            diagnosis='model = ""（{model_where}）。Codex 把空的 model 当作没有设置，为 `{provider}` 找不到可用的模型，'
            "于是在发送任何请求之前就停止：``No models are available. Set `model` explicitly or check your model catalog "
            "configuration.``",
            remedy=("在 {model_where} 的引号里写上准确的模型 ID，从提供方的模型列表中复制。",),
        ),
        when=once(lambda f: bool(f.get("empty_model"))),
    ),
    Rule(
        code="CFG008",
        name="unknown-config-key",
        check="cfg.keys",
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Config key Codex does not read",
            diagnosis="`{key}` in {table} ({where}) is not a key Codex reads; it is silently ignored.{hint}",
            remedy=("In {where}, rename `{key}` to the key Codex reads{hint_short}, or delete the line.",),
            explanation="Codex ignores unknown keys instead of rejecting them, so `baseURL` or `api_key` look configured but do nothing.",
        ),
        zh=Text(
            title="Codex 不读取的配置键",
            diagnosis="{table} 中的 `{key}`（{where}）不是 Codex 读取的键，会被悄悄忽略。{hint}",
            remedy=("在 {where} 中把 `{key}` 改名为 Codex 读取的键{hint_short}，或删除这一行。",),
        ),
        when=lambda f: [
            dict(
                u,
                hint=Loc(f" Did you mean `{u['suggestion']}`?", f"你是不是想写 `{u['suggestion']}`？")
                if u.get("suggestion")
                else "",
                hint_short=Loc(f" (`{u['suggestion']}`)", f"（`{u['suggestion']}`）") if u.get("suggestion") else "",
            )
            for u in f.get("unknown", [])
        ],
    ),
    Rule(
        code="CFG009",
        name="provider-keys-in-project-config",
        check="cfg.keys",
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Provider setting in a project config",
            diagnosis="`{key}` ({where}) is in a project .codex/config.toml; current Codex ignores provider settings there.",
            remedy=("Move `{key}` from {where} into {user_config}.",),
        ),
        zh=Text(
            title="提供方设置写在了项目配置里",
            diagnosis="`{key}`（{where}）写在项目的 .codex/config.toml 中；当前版本的 Codex 会忽略项目配置里的提供方设置。",
            remedy=("把 `{key}` 从 {where} 移到 {user_config}。",),
        ),
        when=each("project_provider_keys"),
    ),
    Rule(
        code="CFG010",
        name="key-ignored-in-profile",
        check="cfg.profile",
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Key ignored inside a profile",
            diagnosis="`{key}` ({where}) is inside profile `{selected}`, where Codex ignores it.",
            remedy=("Move `{key}` out of [profiles.{selected}] to the top level of the config file ({where}).",),
        ),
        zh=Text(
            title="写在 profile 里会被忽略的键",
            diagnosis="`{key}`（{where}）位于 profile `{selected}` 中，Codex 在那里会忽略它。",
            remedy=("把 `{key}` 从 [profiles.{selected}] 移到配置文件顶层（{where}）。",),
        ),
        when=lambda f: [dict(k, selected=f["selected"]) for k in f.get("ignored_keys", [])],
    ),
    Rule(
        code="CFG011",
        name="wire-api-chat-rejected",
        check="cfg.provider",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title='wire_api = "chat" is no longer supported',
            diagnosis='[model_providers.{provider}] sets wire_api = "chat" ({wire_api_where}). {version_text}: Codex 0.97 and newer '
            'refuse this at start-up (`wire_api = "chat"` is no longer supported) and only speak the Responses API.',
            remedy=(
                'In {wire_api_where}, set wire_api = "responses" (for a provider that serves POST <base_url>/responses, '
                "which every `codexdoctor check` that is not --offline tests).",
                "If the provider only has /chat/completions, use a gateway that offers the Responses API, "
                "or pin an older Codex: npm install -g @openai/codex@0.96.0",
            ),
        ),
        zh=Text(
            title='已不再支持 wire_api = "chat"',
            diagnosis='[model_providers.{provider}] 设置了 wire_api = "chat"（{wire_api_where}）。{version_text}：Codex 0.97 及以后的版本在启动时就会拒绝它（`wire_api = "chat"` is no longer supported），只支持 Responses API。',
            remedy=(
                '在 {wire_api_where} 中设置 wire_api = "responses"（适用于支持 POST <base_url>/responses 的提供方，凡是没有加 --offline 的 `codexdoctor check` 都会实测这一点）。',
                "如果提供方只有 /chat/completions，换用支持 Responses API 的网关，或固定使用旧版 Codex：npm install -g @openai/codex@0.96.0",
            ),
        ),
        when=once(lambda f: f.get("wire_api") == "chat" and f.get("chat_rejected") is not False),
    ),
    Rule(
        code="CFG012",
        name="wire-api-chat-deprecated",
        check="cfg.provider",
        severity=W,
        verdict=CONFIG,
        en=Text(
            title='wire_api = "chat" is deprecated',
            diagnosis='{version_text} still accepts wire_api = "chat" ({wire_api_where}), but Codex 0.97 and newer reject it.',
            remedy=(
                'Before upgrading Codex, change wire_api to "responses" in {wire_api_where} if your provider serves /responses.',
            ),
        ),
        zh=Text(
            title='wire_api = "chat" 已被弃用',
            diagnosis='{version_text} 仍接受 wire_api = "chat"（{wire_api_where}），但 Codex 0.97 及以后的版本会拒绝它。',
            remedy=(
                '升级 Codex 之前，如果提供方支持 /responses，在 {wire_api_where} 中把 wire_api 改为 "responses"。',
            ),
        ),
        when=once(lambda f: f.get("wire_api") == "chat" and f.get("chat_rejected") is False),
    ),
    Rule(
        code="CFG013",
        name="codex-home-missing",
        check="cfg.home",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="CODEX_HOME points to a folder that does not exist",
            diagnosis="CODEX_HOME is {codex_home}, which does not exist; Codex stops with `CODEX_HOME points to …, but that path does not exist`.{tilde_hint}",
            remedy=("{home_step}",),
        ),
        zh=Text(
            title="CODEX_HOME 指向的目录不存在",
            diagnosis="CODEX_HOME 是 {codex_home}，但该目录不存在；Codex 会报 `CODEX_HOME points to …, but that path does not exist` 并停止。{tilde_hint}",
            remedy=("{home_step}",),
        ),
        when=lambda f: [_home_missing_params(f)] if f["problem"] == "missing" else [],
    ),
    Rule(
        code="CFG014",
        name="codex-home-not-directory",
        check="cfg.home",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="CODEX_HOME is not a folder",
            diagnosis="CODEX_HOME is {codex_home}, which is a file, not a folder.",
            remedy=("Point CODEX_HOME at a folder:\n{set_home_cmd}", "Or unset it:\n{unset_home_cmd}"),
        ),
        zh=Text(
            title="CODEX_HOME 不是目录",
            diagnosis="CODEX_HOME 是 {codex_home}，它是一个文件而不是目录。",
            remedy=("把 CODEX_HOME 指向一个目录：\n{set_home_cmd}", "或者取消它：\n{unset_home_cmd}"),
        ),
        when=once(lambda f: f["problem"] == "not_dir"),
    ),
    Rule(
        code="CFG015",
        name="profile-not-found",
        check="cfg.profile",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Selected profile does not exist",
            diagnosis="Profile `{selected}` is selected ({origin}) but there is no [profiles.{selected}] table; Codex stops with "
            "``config profile `{selected}` not found``. Defined profiles: {available_text}.",
            remedy=(
                "Add a [profiles.{selected}] table, or select an existing profile ({available_text}), or remove the selection ({origin}).",
            ),
        ),
        zh=Text(
            title="选中的 profile 不存在",
            diagnosis="选中了 profile `{selected}`（{origin}），但没有 [profiles.{selected}] 表；Codex 会报 ``config profile `{selected}` not found`` 并停止。已定义的 profile：{available_text}。",
            remedy=(
                "添加 [profiles.{selected}] 表，或选择已有的 profile（{available_text}），或去掉这个选择（{origin}）。",
            ),
        ),
        when=once(lambda f: f["missing"]),
    ),
    Rule(
        code="CFG016",
        name="config-value-wrong-type",
        check="cfg.provider",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Config value has the wrong type",
            diagnosis="`{key}` ({where}) is {got}, but Codex expects {expected}; Codex refuses to load the config: "
            "``Error loading config.toml: {codex_says}``.",
            remedy=("Write `{key}` as {expected} in {where}: {example}",),
        ),
        zh=Text(
            title="配置值类型错误",
            diagnosis="`{key}`（{where}）的值是 {got}，而 Codex 需要{expected}；Codex 会拒绝加载配置："
            "``Error loading config.toml: {codex_says}``。",
            remedy=("在 {where} 中把 `{key}` 写成{expected}：{example}",),
        ),
        when=lambda f: [
            {
                **w,
                "expected": EXPECTED_WORDS.get(w.get("kind"), w["expected"]),
                "example": Loc(*(t.format(w["key"]) for t in EXAMPLES.get(w.get("kind"), ("{}", "{}")))),
            }
            for w in f.get("wrong_types") or []
        ],
    ),
    Rule(
        code="CFG017",
        name="wire-api-invalid",
        check="cfg.provider",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Unknown wire_api value",
            diagnosis='wire_api = "{wire_api_invalid}" ({wire_api_where}) is not a value Codex accepts ("responses").',
            remedy=('Set wire_api = "responses" in {wire_api_where}.',),
        ),
        zh=Text(
            title="未知的 wire_api 取值",
            diagnosis='wire_api = "{wire_api_invalid}"（{wire_api_where}）不是 Codex 接受的值（"responses"）。',
            remedy=('在 {wire_api_where} 中设置 wire_api = "responses"。',),
        ),
        when=once(lambda f: bool(f.get("wire_api_invalid"))),
    ),
    Rule(
        code="CFG018",
        name="config-byte-order-mark",
        check="cfg.files",
        severity=I,
        verdict=CONFIG,
        en=Text(
            title="Config file starts with a byte-order mark",
            diagnosis="{path} starts with a UTF-8 byte-order mark (BOM), as some Windows editors save it. Codex's TOML parser skips "
            "the mark and reads the file; nothing to fix.",
            remedy=(
                "Nothing to do; `codexdoctor fix` leaves such a file alone, so save it as UTF-8 without BOM if you want it to "
                "edit the file.",
            ),
        ),
        zh=Text(
            title="配置文件以字节顺序标记开头",
            diagnosis="{path} 以 UTF-8 字节顺序标记（BOM）开头，部分 Windows 编辑器会这样保存。Codex 的 TOML 解析器会跳过这个标记，"
            "文件可以正常读取，无需修改。",
            remedy=("无需处理；`codexdoctor fix` 不会修改这样的文件，如果希望它帮你修改，请另存为不带 BOM 的 UTF-8。",),
        ),
        when=lambda f: [
            dict(path=x["path"])
            for x in f.get("files", [])
            if x.get("encoding") == "utf-8-sig" and "read_error" not in x and "toml_error" not in x
        ],
    ),
    Rule(
        code="CFG019",
        name="windows-config-also-exists",
        check="cfg.files",
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Running in WSL, and Windows has its own Codex config",
            diagnosis="codexdoctor read {user_path} (the Linux side of WSL). Windows also has {windows_text}: Codex started from Windows "
            "(PowerShell, cmd, an editor on Windows) reads that file, not this one.",
            remedy=(
                "Make the change in the config of the Codex you actually run: inside WSL edit {user_path}; from Windows edit "
                "%USERPROFILE%\\.codex\\config.toml.",
                "Keep both in sync, or run Codex only on one side.",
            ),
        ),
        zh=Text(
            title="运行在 WSL 中，而 Windows 有自己的 Codex 配置",
            diagnosis="codexdoctor 读取的是 {user_path}（WSL 的 Linux 一侧）。Windows 那边还有 {windows_text}：从 Windows 启动的 Codex（PowerShell、cmd、Windows 上的编辑器）读的是那个文件，而不是这个。",
            remedy=(
                "在你实际运行的那个 Codex 的配置里修改：在 WSL 里就改 {user_path}；从 Windows 运行就改 %USERPROFILE%\\.codex\\config.toml。",
                "让两边保持一致，或者只在其中一边运行 Codex。",
            ),
        ),
        when=lambda f: [{"windows_text": ", ".join(f["windows_configs"])}] if f.get("windows_configs") else [],
    ),
    Rule(
        code="CFG020",
        name="config-crlf-line-endings",
        check="cfg.files",
        severity=I,
        verdict=CONFIG,
        en=Text(
            title="Config uses Windows line endings",
            diagnosis="{path} has CRLF (Windows) line endings. That is valid TOML and Codex reads it; nothing to fix.",
            remedy=("Nothing to do; if another tool complains, save the file with LF line endings.",),
        ),
        zh=Text(
            title="配置文件使用 Windows 换行符",
            diagnosis="{path} 使用 CRLF（Windows）换行符。这是合法的 TOML，Codex 能够读取；无需修改。",
            remedy=("无需处理；如果别的工具报错，再把文件存成 LF 换行。",),
        ),
        when=lambda f: [dict(path=x["path"]) for x in f.get("files", []) if x.get("crlf") and "toml_error" not in x],
    ),
    Rule(
        code="CFG021",
        name="backslash-in-toml-string",
        check="cfg.files",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="A Windows path in double quotes",
            diagnosis='{path}:{line} has a backslash inside a double-quoted string, such as "C:\\Users\\me". In TOML, \\U, \\m and '
            "the like are escape sequences, so the file does not parse.",
            remedy=(
                "Use single quotes, which take backslashes literally: 'C:\\Users\\me', or forward slashes: \"C:/Users/me\", "
                "on line {line} of {path}.",
            ),
        ),
        zh=Text(
            title="双引号里写了 Windows 路径",
            diagnosis='{path}:{line} 的双引号字符串里有反斜杠，例如 "C:\\Users\\me"。在 TOML 中 \\U、\\m 这类写法是转义序列，所以文件无法解析。',
            remedy=(
                "在 {path} 第 {line} 行改用单引号（单引号中的反斜杠按字面处理）：'C:\\Users\\me'，或改用正斜杠：\"C:/Users/me\"。",
            ),
        ),
        when=lambda f: [
            dict(path=x["path"], line=x["toml_error"]["line"])
            for x in f.get("files", [])
            if x.get("toml_error", {}).get("backslash_in_string")
        ],
    ),
    Rule(
        code="CFG022",
        name="legacy-profile-selector",
        check="cfg.profile",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Legacy `profile = ...` selector",
            diagnosis='`profile = "{value}"` ({where}) selects a profile the old way. Codex {codex_version} refuses to start: '
            '``legacy `profile = "{value}"` config is no longer supported``.',
            remedy=(
                'Delete the line `profile = "{value}"` from {where}.',
                "Move the keys of [profiles.{value}] to the top level of a new file {codex_home}/{value}.config.toml, "
                "and remove the [profiles.{value}] table.",
                "Select the profile when you start Codex: codex --profile {value} (check it with: codexdoctor check --profile {value}).",
            ),
            explanation="Codex 0.171 reads profiles from `$CODEX_HOME/<name>.config.toml`, chosen with `--profile <name>`; "
            "a top-level `profile` key makes it stop at start-up (observed with the real CLI).",
        ),
        zh=Text(
            title="旧式的 `profile = ...` 选择器",
            diagnosis='`profile = "{value}"`（{where}）用旧方式选择 profile。Codex {codex_version} 会拒绝启动：'
            '``legacy `profile = "{value}"` config is no longer supported``。',
            remedy=(
                '从 {where} 删除 `profile = "{value}"` 这一行。',
                "把 [profiles.{value}] 中的键移到新文件 {codex_home}/{value}.config.toml 的顶层，并删除 [profiles.{value}] 表。",
                "启动 Codex 时选择该 profile：codex --profile {value}（用 codexdoctor check --profile {value} 检查）。",
            ),
        ),
        when=each("legacy_selectors"),
    ),
    Rule(
        code="CFG023",
        name="legacy-profile-table-conflict",
        check="cfg.profile",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="--profile and a legacy [profiles] table with the same name",
            diagnosis="--profile {selected} is given while {user_config} still has [profiles.{selected}]; Codex {codex_version} refuses "
            "to start (``--profile `{selected}` cannot be used while … contains legacy … `[profiles.{selected}]` config``).",
            remedy=(
                "Move the keys of [profiles.{selected}] to the top level of {profile_file} and delete the table from {user_config}.",
            ),
        ),
        zh=Text(
            title="--profile 与同名的旧式 [profiles] 表冲突",
            diagnosis="指定了 --profile {selected}，但 {user_config} 里还有 [profiles.{selected}]；Codex {codex_version} 会拒绝启动"
            "（``--profile `{selected}` cannot be used while … contains legacy … `[profiles.{selected}]` config``）。",
            remedy=("把 [profiles.{selected}] 中的键移到 {profile_file} 的顶层，并从 {user_config} 删除该表。",),
        ),
        when=once(lambda f: bool(f.get("conflict"))),
    ),
    Rule(
        code="CFG024",
        name="profile-file-missing",
        check="cfg.profile",
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Profile file not found",
            diagnosis="--profile {selected} reads {profile_file}, which does not exist. Codex {codex_version} does not stop: it "
            "silently runs with {user_config} alone, so the model and provider are not the ones the profile should set. "
            "Profile files found: {available_text}.",
            remedy=(
                'Create {profile_file} with the profile\'s settings as top-level keys (model = "…", model_provider = "…"), '
                "or start Codex with one of the existing profiles.",
            ),
        ),
        zh=Text(
            title="找不到 profile 文件",
            diagnosis="--profile {selected} 读取 {profile_file}，但该文件不存在。Codex {codex_version} 不会停止，而是悄悄只用 {user_config} 运行，"
            "所以模型和提供方并不是这个 profile 本该设置的那些。已有的 profile 文件：{available_text}。",
            remedy=(
                '创建 {profile_file}，把 profile 的设置写成顶层键（model = "…"、model_provider = "…"），或用已有的 profile 启动 Codex。',
            ),
        ),
        when=once(lambda f: bool(f.get("file_missing")) and not f.get("conflict")),
    ),
    Rule(
        code="CFG025",
        name="legacy-profile-table-ignored",
        check="cfg.profile",
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Legacy [profiles] table is ignored",
            diagnosis="[profiles.{name}] ({where}) is a legacy profile table; Codex {codex_version} ignores it, so `--profile {name}` "
            "does not use these settings.",
            remedy=(
                "Move the keys of [profiles.{name}] to the top level of {codex_home}/{name}.config.toml, delete the table, "
                "and start Codex with codex --profile {name}.",
            ),
        ),
        zh=Text(
            title="旧式 [profiles] 表会被忽略",
            diagnosis="[profiles.{name}]（{where}）是旧式的 profile 表；Codex {codex_version} 会忽略它，所以 `--profile {name}` 不会用到这些设置。",
            remedy=(
                "把 [profiles.{name}] 中的键移到 {codex_home}/{name}.config.toml 的顶层，删除该表，然后用 codex --profile {name} 启动 Codex。",
            ),
        ),
        when=lambda f: (
            [dict(t) for t in f.get("legacy_tables") or []]
            if not (f.get("legacy_selectors") or f.get("conflict"))
            else []
        ),
    ),
    Rule(
        code="CFG026",
        name="provider-name-missing",
        check="cfg.provider",
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Provider table has no name",
            diagnosis="[model_providers.{provider}] ({table_where}) has no `name`; Codex {codex_version_text} refuses to load the config "
            "(`model_providers.{provider}: provider name must not be empty`).",
            remedy=('Add name = "{provider}" to [model_providers.{provider}] in {table_where}.',),
        ),
        zh=Text(
            title="提供方表没有 name",
            diagnosis="[model_providers.{provider}]（{table_where}）没有 `name`；Codex {codex_version_text} 会拒绝加载配置"
            "（`model_providers.{provider}: provider name must not be empty`）。",
            remedy=('在 {table_where} 的 [model_providers.{provider}] 中添加 name = "{provider}"。',),
        ),
        when=once(lambda f: bool(f.get("missing_name"))),
    ),
    Rule(
        code="CFG027",
        name="project-config-untrusted",
        check="cfg.files",
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Project config is not read: the project is not trusted",
            diagnosis="{path} sets {keys_text}, but Codex reads a project's .codex/config.toml only when the project is trusted "
            "(here: {ignored}), so none of it applies.",
            remedy=(
                'Trust the project: add to {user_config}\n[projects."{project_root}"]\ntrust_level = "trusted"',
                "Or move the settings you need into {user_config}.",
            ),
            explanation="Codex 0.171 warns `Untrusted project-local configuration is disabled` and skips the file; provider keys "
            "(`model_provider`, `model_providers`) in it are ignored even when the project is trusted.",
        ),
        zh=Text(
            title="项目配置未被读取：项目未受信任",
            diagnosis="{path} 设置了 {keys_text}，但 Codex 只在项目受信任时才读取项目的 .codex/config.toml（此处：{ignored}），所以这些设置都不生效。",
            remedy=(
                '信任该项目：在 {user_config} 中添加\n[projects."{project_root}"]\ntrust_level = "trusted"',
                "或者把需要的设置移到 {user_config}。",
            ),
        ),
        when=lambda f: [
            dict(
                x,
                keys_text=", ".join(x.get("keys") or []) or Loc("nothing", "任何设置"),
                ignored=Loc("not trusted", "未信任")
                if x["ignored"] == "untrusted"
                else Loc("marked untrusted", "被标记为不信任"),
            )
            for x in f.get("untrusted") or []
        ],
    ),
)
