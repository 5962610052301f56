"""The evidence lines of the config checks (checks/cfg.py), in English and Chinese: a file read or not, a profile
file, the provider's values and where they came from, the keys Codex ignores. Paths, keys and values are data, the
same in every language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.checks.base import CheckContext
from codexdoctor.codex.config import key_said
from codexdoctor.codex.layers import Layer
from codexdoctor.model import Msg

# Why a project's config is not read (Layer.ignored), in Chinese: its English is the value.
_IGNORED_ZH = {"untrusted": "未受信任", "marked untrusted": "被标记为不受信任"}


def file_line(layer: Layer) -> Msg:
    """One config file's evidence line: not read (an untrusted project), its TOML error, why it cannot be read, or
    read (with its encoding when not UTF-8)."""
    if layer.ignored:
        return Msg(
            "{path}: not read by Codex (project {why})",
            "{path}：Codex 不读取（项目{why}）",
            path=layer.label,
            why=Msg.pair(layer.ignored, _IGNORED_ZH.get(layer.ignored, layer.ignored)),
        )
    if layer.toml_problem:
        p = layer.toml_problem
        where = f"{layer.label}:{p.line}:{p.column}"
        return Msg("{where}: {message}", "{where}：TOML 解析错误 `{message}`", where=where, message=p.message)
    if layer.read_error:
        why = layer.read_error_said or Msg.verbatim(str(layer.read_error))
        return Msg("{path}: {why}", "{path}：{why}", path=layer.label, why=why)
    state = Msg("read", "已读取") if layer.exists else Msg("not found", "不存在")
    encoding = Msg.verbatim(f" ({layer.encoding})" if layer.encoding != "utf-8" else "")
    return Msg(
        "{path}: {state}{encoding}", "{path}：{state}{encoding}", path=layer.label, state=state, encoding=encoding
    )


def key_lines(unknown: list[dict[str, Any]], project_provider_keys: list[dict[str, str]]) -> list[Msg]:
    """A line for each key Codex ignores. A line's English starts with `<where>: `<key>` `: the finding about one
    key cites its line (rules/cfg/keys.py, `evidence_about`)."""
    lines = [
        Msg(
            "{where}: `{key}` in {table} is not a key Codex reads",
            "{where}：{table} 中的 `{key}` 不是 Codex 会读取的键",
            where=str(u["where"]),
            key=str(u["key"]),
            table=key_said(str(u["table"])),
        )
        for u in unknown
    ]
    lines += [
        Msg(
            "{where}: `{key}` in a project config",
            "{where}：项目配置中的 `{key}`",
            where=str(p["where"]),
            key=str(p["key"]),
        )
        for p in project_provider_keys
    ]
    return lines


def profile_file_lines(ctx: CheckContext, version: str, facts: Mapping[str, Any]) -> list[Msg]:
    """Codex 0.171's profile files: the version that reads them, the legacy selectors and tables, the file read."""
    r = ctx.resolution
    assumed = (
        Msg(" (assumed: installed version unknown)", "（Codex 版本是假定的：不知道安装的是哪个版本）")
        if ctx.codex_version is None
        else Msg.verbatim("")
    )
    evidence = [
        Msg(
            "profiles are files ($CODEX_HOME/<name>.config.toml) in Codex {version}{assumed}",
            "在 Codex {version} 中，profile 是 $CODEX_HOME/<name>.config.toml 文件{assumed}",
            version=version,
            assumed=assumed,
        )
    ]
    evidence += [
        Msg(
            '{where}: legacy selector profile = "{value}"',
            '{where}：旧式选择器 profile = "{value}"',
            where=str(s["where"]),
            value=str(s["value"]),
        )
        for s in r.legacy_selectors
    ]
    evidence += [
        Msg(
            "{where}: legacy table [profiles.{name}]",
            "{where}：旧式表 [profiles.{name}]",
            where=str(t["where"]),
            name=str(t["name"]),
        )
        for t in r.legacy_tables
    ]
    if r.profile:
        state = Msg("not found", "不存在") if facts["file_missing"] else Msg("read", "已读取")
        evidence.append(
            Msg(
                "--profile {name}: {path} {state}",
                "--profile {name}：{path} {state}",
                name=r.profile,
                path=str(facts["profile_file"]),
                state=state,
            )
        )
    return evidence


def names_or_none(names: list[str]) -> Msg:
    """Names in a list, or `none`."""
    return Msg.join([Msg.pair(n, f"`{n}`") for n in names]) if names else Msg("none", "无")


def provider_values(ctx: CheckContext) -> list[Msg]:
    """The provider's base_url and the model, each with where it came from."""
    r = ctx.resolution
    p = r.provider
    url = Msg.verbatim(ctx.redactor(str(p.base_url))) if p.base_url is not None else Msg("(unset)", "（未设置）")
    base = Msg(
        "base_url = {url} ({origin})",
        "{origin}：base_url = {url}",  # a URL ends at a space, not at a full-width bracket
        url=url,
        origin=r.provider_field_said("base_url"),
    )
    model = (
        Msg(
            'model = "{model}" ({origin})',
            'model = "{model}"（{origin}）',
            model=str(r.model),
            origin=r.origin_said(r.model_origin),
        )
        if r.model is not None
        else Msg("model unset (Codex default)", "`model` 未设置（Codex 默认值）")
    )
    return [base, model]
