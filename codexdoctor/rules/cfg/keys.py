"""CFG, keys Codex does not read where they are written."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from codexdoctor.rules.base import (
    CONFIG,
    E,
    Loc,
    Rule,
    Text,
    W,
)


def _said(text: str) -> Loc:
    """An unknown key's table or suggestion, in the words of the check's evidence line (codex/config.KEY_WORDS)."""
    from codexdoctor.codex.config import key_said

    said = key_said(text)
    return Loc(said.text("en"), said.text("zh"))


def _misplaced(f: Mapping[str, Any], provider: bool) -> list[dict[str, Any]]:
    """The top-level keys written inside a provider table: CFG030 for a model_provider Codex then never reads (it uses
    the built-in `openai`), CFG031 for the others."""
    out = []
    for u in f.get("misplaced") or []:
        lost_provider = u["key"] == "model_provider" and not u["top_level_set"] and isinstance(u.get("value"), str)
        if lost_provider != provider:
            continue
        value = u.get("value")
        line = f"{u['key']} = {json.dumps(value, ensure_ascii=False)}" if value is not None else u["key"]
        effect = (
            Loc(
                f" Codex takes {u['key']} from elsewhere (the top level, a profile or a flag), and this line does nothing.",
                f"Codex 从别处（顶层、profile 或命令行参数）读取 {u['key']}，这一行不起任何作用。",
            )
            if u["top_level_set"]
            else Loc(" The setting has no effect.", "这个设置不起作用。")
        )
        out.append(dict(u, setting_line=line, effect=effect, evidence_about=f"{u['where']}: `{u['key']}` "))
    return out


RULES: tuple[Rule, ...] = (
    Rule(
        code="CFG008",
        name="unknown-config-key",
        check="cfg.keys",
        reads=("unknown",),
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
                table=_said(u["table"]),
                hint=Loc(f" Did you mean `{u['suggestion']}`?", f"你是不是想写 `{_said(u['suggestion']).zh}`？")
                if u.get("suggestion")
                else "",
                hint_short=Loc(f" (`{u['suggestion']}`)", f"（`{_said(u['suggestion']).zh}`）")
                if u.get("suggestion")
                else "",
                evidence_about=f"{u['where']}: `{u['key']}` ",
            )
            for u in f.get("unknown", [])
        ],
    ),
    Rule(
        code="CFG009",
        name="provider-keys-in-project-config",
        check="cfg.keys",
        reads=("project_provider_keys", "user_config"),
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
        when=lambda f: [
            dict(p, evidence_about=f"{p['where']}: `{p['key']}` ") for p in f.get("project_provider_keys", [])
        ],
    ),
    Rule(
        code="CFG030",
        name="model-provider-inside-provider-table",
        check="cfg.keys",
        reads=("misplaced",),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="model_provider is inside a provider table, so Codex uses `openai`",
            diagnosis="`{setting_line}` ({where}) comes after the [model_providers.{table_id}] header ({table_where}), so TOML "
            "puts it inside that table, where Codex does not read it. With no model_provider at the top level, Codex uses "
            "the built-in `openai` provider (https://api.openai.com/v1 and an OpenAI login), not "
            "[model_providers.{table_id}].",
            remedy=(
                "Move the line `{setting_line}` from {where} to the top level of {file}: above the first [table] header (every "
                "top-level key comes before the first table).",
            ),
            explanation="A line appended at the end of config.toml belongs to the last [table] above it. Codex ignores "
            "keys it does not know inside a provider table instead of rejecting them, so the mistake shows only as "
            "Codex calling OpenAI.",
        ),
        zh=Text(
            title="model_provider 写进了提供方表，Codex 因此使用 `openai`",
            diagnosis="`{setting_line}`（{where}）写在 [model_providers.{table_id}] 表头（{table_where}）之后，TOML 会把它归入这个"
            "表，而 Codex 不在表里读取它。顶层没有 model_provider，Codex 就使用内置的 `openai` 提供方"
            "（https://api.openai.com/v1 和 OpenAI 登录），而不是 [model_providers.{table_id}]。",
            remedy=(
                "把 `{setting_line}` 这一行从 {where} 移到 {file} 的顶层：放在第一个 [表] 表头之前（顶层的键都要写在第一个表之前）。",
            ),
            explanation="追加在 config.toml 末尾的一行属于它上方最后一个 [表]。Codex 对提供方表里不认识的键是忽略而不是报错，"
            "所以这个错误只表现为 Codex 去请求 OpenAI。",
        ),
        when=lambda f: _misplaced(f, provider=True),
    ),
    Rule(
        code="CFG031",
        name="top-level-key-inside-provider-table",
        check="cfg.keys",
        reads=("misplaced",),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="A top-level setting is inside a provider table",
            diagnosis="`{setting_line}` ({where}) comes after the [model_providers.{table_id}] header ({table_where}), so TOML "
            "puts it inside that table, where Codex does not read it.{effect}",
            remedy=(
                "Move `{key}` from {where} to the top level of {file}, above the first [table] header (or into the "
                "profile it belongs to); if {key} is already set there, delete this line.",
            ),
        ),
        zh=Text(
            title="顶层设置写进了提供方表",
            diagnosis="`{setting_line}`（{where}）写在 [model_providers.{table_id}] 表头（{table_where}）之后，TOML 会把它归入这个表，"
            "而 Codex 不在表里读取它。{effect}",
            remedy=(
                "把 `{key}` 从 {where} 移到 {file} 的顶层，放在第一个 [表] 表头之前（或移到它所属的 profile 中）；"
                "如果那里已经设置了 {key}，删掉这一行即可。",
            ),
        ),
        when=lambda f: _misplaced(f, provider=False),
    ),
)
