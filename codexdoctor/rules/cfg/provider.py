"""CFG, the provider table: its id, base_url, name, wire_api, the model and value types."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.rules.base import (
    CONFIG,
    E,
    Loc,
    Rule,
    Text,
    W,
    each,
    once,
)


def version_text(f: Mapping[str, Any]) -> Loc | str:
    if f.get("codex_version"):
        return f"Codex {f['codex_version']}"
    return Loc("Codex (version unknown: `codex --version` not found)", "Codex（版本未知：找不到 `codex --version`）")


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


# How serde names the value it got (checks/cfgtypes.py: `string "128k"`, `integer `5``), its kind in Chinese: the
# value after it is data.
GOT_ZH = {
    "string": "字符串",
    "integer": "整数",
    "floating point": "小数",
    "boolean": "布尔值",
    "map": "表",
    "sequence": "数组",
}


def got_said(got: str) -> Loc:
    """The value a config key holds, as serde names it, with its kind in the report's language."""
    kind = next((k for k in sorted(GOT_ZH, key=len, reverse=True) if got == k or got.startswith(k + " ")), None)
    return Loc(got, GOT_ZH[kind] + got[len(kind) :] if kind else got)


EXAMPLES = {
    "str": ('{} = "…"', '{} = "…"'),
    "table": ("{} = {{ … }}", "{} = {{ … }}"),
    "i64": ("{} = 128000 (no quotes)", "{} = 128000（不加引号）"),
    "u64": ("{} = 4 (no quotes)", "{} = 4（不加引号）"),
    "bool": ("{} = true (no quotes)", "{} = true（不加引号）"),
}


RULES: tuple[Rule, ...] = (
    Rule(
        code="CFG004",
        name="provider-not-found",
        check="cfg.provider",
        reads=("available", "defined", "did_you_mean", "origin", "provider", "user_config"),
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
        reads=("redefined_builtins",),
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
        code="CFG029",
        name="bedrock-table-changes-too-much",
        check="cfg.provider",
        reads=("bedrock_refused",),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="The amazon-bedrock table changes what Codex does not let it change",
            diagnosis="[model_providers.amazon-bedrock] ({where}) sets {keys}. `amazon-bedrock` is built into Codex "
            "(it signs each request with AWS SigV4 from your AWS configuration; no key) and its table may change only "
            "`base_url`, `auth`, `http_headers`, `aws.profile`, `aws.region`, `aws.credential_export` and "
            "`aws.auth_refresh`; Codex refuses to start: `model_providers.amazon-bedrock only supports changing …; "
            "other non-default provider fields are not supported`.",
            remedy=(
                "Remove {keys} from the table in {where}.",
                "For a gateway with a key of its own, give it a new id, e.g. [model_providers.bedrock-gateway] with "
                "name, base_url, env_key and wire_api, and set model_provider to that id.",
            ),
        ),
        zh=Text(
            title="amazon-bedrock 表改了 Codex 不允许改的键",
            diagnosis="[model_providers.amazon-bedrock]（{where}）设置了 {keys}。`amazon-bedrock` 是 Codex 的内置提供方"
            "（用你的 AWS 配置以 AWS SigV4 签名每个请求，不用密钥），它的表只能改 `base_url`、`auth`、`http_headers`、"
            "`aws.profile`、`aws.region`、`aws.credential_export` 和 `aws.auth_refresh`；Codex 会拒绝启动："
            "`model_providers.amazon-bedrock only supports changing …; other non-default provider fields are not "
            "supported`。",
            remedy=(
                "从 {where} 的表中删除 {keys}。",
                "如果是自带密钥的网关，请给它一个新 id，例如 [model_providers.bedrock-gateway]，写上 name、base_url、"
                "env_key 和 wire_api，并把 model_provider 设为这个 id。",
            ),
        ),
        when=each("bedrock_refused"),
    ),
    Rule(
        code="CFG006",
        name="provider-without-base-url",
        check="cfg.provider",
        reads=("base_url_alias", "missing_base_url", "provider", "table_where"),
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
        reads=("missing_model", "provider", "user_config"),
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
        reads=("empty_model", "model_where", "provider"),
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
        code="CFG011",
        name="wire-api-chat-rejected",
        check="cfg.provider",
        reads=("chat_rejected", "codex_version", "provider", "wire_api", "wire_api_where"),
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
        reads=("chat_rejected", "codex_version", "wire_api", "wire_api_where"),
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
        code="CFG016",
        name="config-value-wrong-type",
        check="cfg.provider",
        reads=("wrong_types",),
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
                "got": got_said(w["got"]),
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
        reads=("wire_api_invalid", "wire_api_where"),
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
        code="CFG026",
        name="provider-name-missing",
        check="cfg.provider",
        reads=("codex_version_text", "missing_name", "provider", "table_where"),
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
)
