"""CFG, keys Codex does not read where they are written."""

from __future__ import annotations

from codexdoctor.rules.base import (
    CONFIG,
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
)
