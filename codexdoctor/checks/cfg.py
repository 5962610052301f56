"""CFG checks: finding and parsing Codex config, profiles and provider tables."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from codexdoctor.checks.base import Check, CheckContext, edit_distance, normalise_name, result
from codexdoctor.checks.cfglines import file_line, key_lines, names_or_none, profile_file_lines, provider_values
from codexdoctor.checks.cfgtypes import PROVIDER_TYPES, TOP_LEVEL_ONLY, TOP_LEVEL_TYPES, wrong_type
from codexdoctor.codex import config as config_mod
from codexdoctor.codex.config import (
    BEDROCK,
    BUILTIN_PROVIDERS,
    PROFILE_IGNORED_KEYS,
    PROJECT_IGNORED_KEYS,
    TOP_LEVEL,
    Resolution,
)
from codexdoctor.codex.layers import Layer
from codexdoctor.common.placeholders import model_placeholder
from codexdoctor.common.words import plural
from codexdoctor.model import CheckResult, Line, Msg, Status, item_key

NO_PROFILE = Msg("no profile selected", "未选择 profile")
# Each check's result with its id and title given, so a summary in two languages fits on the line that returns it.
_home = partial(result, "cfg.home", "Codex home")
_files = partial(result, "cfg.files", "Config files")
_profile = partial(result, "cfg.profile", "Profile")
_provider = partial(result, "cfg.provider", "Provider")
_keys = partial(result, "cfg.keys", "Config keys")

PROVIDER_KEYS = (
    "name",
    "base_url",
    "env_key",
    "env_key_instructions",
    "experimental_bearer_token",
    "wire_api",
    "query_params",
    "http_headers",
    "env_http_headers",
    "request_max_retries",
    "stream_max_retries",
    "stream_idle_timeout_ms",
    "requires_openai_auth",
    "supports_websockets",
    "websocket_connect_timeout_ms",
    "auth",
    "aws",  # AWS SigV4 signing (profile, region…): the built-in amazon-bedrock's, or a provider's own
)
# Misspellings seen in the wild that plain edit distance would not catch.
PROVIDER_ALIASES = {
    "baseurl": "base_url",
    "apibase": "base_url",
    "apiurl": "base_url",
    "url": "base_url",
    "endpoint": "base_url",
    "host": "base_url",
    "baseapi": "base_url",
    "openaibaseurl": "base_url",
    "apikey": "env_key",
    "key": "env_key",
    "envkey": "env_key",
    "apikeyenv": "env_key",
    "envvar": "env_key",
    "token": "env_key",
    "wireapi": "wire_api",
    "wire": "wire_api",
    "headers": "http_headers",
    "queryparams": "query_params",
    "params": "query_params",
}
TOP_LEVEL_WATCHED = (
    "model",
    "model_provider",
    "model_providers",
    "profile",
    "profiles",
    "model_context_window",
    "model_auto_compact_token_limit",
    "openai_base_url",
)
TOP_LEVEL_ALIASES = {
    "modelprovider": "model_provider",
    "provider": "model_provider",
    "providers": "model_providers",
    "modelproviders": "model_providers",
    "modelcontextwindow": "model_context_window",
    "contextwindow": "model_context_window",
    "baseurl": "model_providers.<id>.base_url",
    "envkey": "model_providers.<id>.env_key",
    "apikey": "model_providers.<id>.env_key",
    "wireapi": "model_providers.<id>.wire_api",
    "modelname": "model",
}
WIRE_APIS = ("responses", "chat")
CHAT_REMOVED_IN = (0, 97)


# A pathological config (100,000 unknown keys, one huge dotted key) must still be checked in well under a second:
# only this many keys get a near-miss search, and only keys of a plausible length.
SUGGEST_MAX_KEYS = 500
SUGGEST_MAX_LEN = 64


def _suggest(key: str, known: tuple[str, ...], aliases: Mapping[str, str]) -> str | None:
    if len(key) > SUGGEST_MAX_LEN:
        return None
    norm = normalise_name(key)
    if norm in aliases:
        return aliases[norm]
    for candidate in known:
        if normalise_name(candidate) == norm:
            return candidate
    lowered = key.lower()
    for candidate in known:
        limit = 1 if len(candidate) <= 5 else 2
        # Edit distance is at least the length difference: most candidates never need the table.
        if abs(len(candidate) - len(lowered)) <= limit and edit_distance(lowered, candidate) <= limit:
            return candidate
    return None


def check_home(ctx: CheckContext) -> CheckResult:
    r = ctx.resolution
    shown = r.show(r.codex_home)
    raw = str(r.codex_home)
    facts = {
        "codex_home": shown,
        "from_env": r.codex_home_from_env,
        "problem": r.codex_home_problem,
        "literal_tilde": r.codex_home_from_env and raw.startswith("~"),
        "expanded": r.show(r.home / raw[2:]) if raw.startswith("~/") else None,
    }
    evidence = [
        f"CODEX_HOME={shown}"
        if r.codex_home_from_env
        else Msg("CODEX_HOME unset -> {path}", "CODEX_HOME 未设置 -> {path}", path=shown)
    ]
    if r.codex_home_problem:
        return _home(Status.FAIL, Msg("{path} is unusable", "{path} 不可用", path=shown), evidence, **facts)
    if not r.codex_home.is_dir():  # the default folder, not made yet: no ✓ for a folder that is not there (issue 29)
        facts["created"] = False
        return _home(
            Status.SKIP,
            Msg("{path} does not exist yet (Codex creates it)", "{path} 还不存在（Codex 会创建它）", path=shown),
            evidence,
            **facts,
        )
    return _home(Status.PASS, Msg("{path}", "{path}", path=shown), evidence, **facts)


def check_files(ctx: CheckContext) -> CheckResult:
    r = ctx.resolution
    if r.codex_home_problem:
        return _files(Status.SKIP, Msg("Codex home is unusable", "Codex 主目录不可用"), home_problem=True)
    files = []
    evidence: list[Line] = []
    for layer in r.layers:
        if layer.kind == "override":
            keys = Msg.join([o.split("=", 1)[0] for o in r.overrides])
            evidence.append(Msg("-c overrides: {keys}", "-c 覆盖：{keys}", keys=keys))
            continue
        files.append(_file_entry(layer, evidence))
    user = r.user_layer
    user_missing = user is not None and not user.exists
    anything_configures_provider = "model_provider" in r.merged or "model_providers" in r.merged
    broken = [f for f in files if "toml_error" in f or "read_error" in f]
    untrusted = [f for f in files if f.get("ignored")]
    windows_configs: list[str] = windows_side_configs(ctx) if ctx.shell.platform == "wsl" else []
    facts = {
        "files": files,
        "user_missing": user_missing,
        "user_path": user.label if user else None,
        "untrusted": untrusted,
        "project_root": str(config_mod.project_root(r.cwd or Path.cwd())),
        "provider_configured_elsewhere": anything_configures_provider,
        "windows_configs": windows_configs,
    }
    if facts["windows_configs"]:
        evidence.append(
            Msg(
                "Windows-side Codex config: {paths}",
                "Windows 一侧的 Codex 配置：{paths}",
                paths=Msg.join(windows_configs),
            )
        )
    if broken:
        failed = _files(
            Status.FAIL, Msg("{path} cannot be read", "{path} 无法读取", path=broken[0]["path"]), evidence, **facts
        )
        said = {item_key("read_error", str(x.read_error)): w for x in r.layers if (w := x.read_error_said) is not None}
        return replace(failed, said=said)
    if user_missing and user is not None:
        status = Status.WARN if anything_configures_provider else Status.FAIL
        return _files(status, Msg("{path} does not exist", "{path} 不存在", path=user.label), evidence, **facts)
    if untrusted:
        return _files(
            Status.WARN,
            Msg("{path} is not read (untrusted project)", "{path} 未被读取（项目未受信任）", path=untrusted[0]["path"]),
            evidence,
            **facts,
        )
    return _files(
        Status.PASS, Msg("{path} parsed", "{path} 解析成功", path=user.label if user else "config"), evidence, **facts
    )


def _file_entry(layer: Layer, evidence: list[Line]) -> dict[str, Any]:
    """One config file as cfg.files reports it (its evidence line appended to `evidence`)."""
    entry: dict[str, Any] = {
        "kind": layer.kind,
        "path": layer.label,
        "exists": layer.exists,
        "encoding": layer.encoding,
        "crlf": layer.crlf,
    }
    evidence.append(file_line(layer))
    if layer.ignored:
        # Codex does not read an untrusted project's config at all, so its contents cannot break anything.
        entry["ignored"] = layer.ignored
        entry["keys"] = sorted(layer.data)[:12] if layer.data else []
    elif layer.toml_problem:
        p = layer.toml_problem
        entry["toml_error"] = {
            "line": p.line,
            "column": p.column,
            "message": p.message,
            "backslash_in_string": layer.backslash_in_string,
        }
    elif layer.read_error:
        entry["read_error"] = layer.read_error
    return entry


def windows_side_configs(ctx: CheckContext) -> list[str]:
    """Under WSL, Windows keeps its own %USERPROFILE%\\.codex: Codex started from Windows reads that one."""
    root = Path(ctx.options.get("wsl_windows_users", "/mnt/c/Users"))
    try:
        return sorted(str(p) for p in root.glob("*/.codex/config.toml"))[:5]
    except OSError:
        return []


def check_profile(ctx: CheckContext) -> CheckResult:
    r = ctx.resolution
    if r.profile_mode == "file":
        return _check_profile_file(ctx)
    if r.profile is None:
        return _profile(Status.SKIP, NO_PROFILE, selected=None, mode="table")
    available = sorted(r.merged.get("profiles", {}).keys()) if isinstance(r.merged.get("profiles"), Mapping) else []
    ignored = [k for k in PROFILE_IGNORED_KEYS if k in r.profile_table]
    ignored_where = [r.origin("profiles", r.profile, k) for k in ignored]
    facts = {
        "selected": r.profile,
        "origin": r.profile_origin,
        "missing": r.profile_missing,
        "mode": "table",
        "available": available,
        "ignored_keys": [{"key": k, "where": w} for k, w in zip(ignored, ignored_where, strict=True)],
        "codex_version": _version_text(ctx.codex_version),
    }
    evidence = [
        Msg(
            "profile `{name}` selected by {origin}",
            "profile `{name}` 由 {origin} 选中",
            name=r.profile,
            origin=r.origin_said(str(r.profile_origin)),
        )
    ]
    if r.profile_missing:
        evidence.append(Msg("profiles defined: {names}", "已定义的 profile：{names}", names=names_or_none(available)))
        return _profile(
            Status.FAIL, Msg("profile `{name}` not found", "找不到 profile `{name}`", name=r.profile), evidence, **facts
        )
    if ignored:
        return _profile(
            Status.WARN,
            Msg("profile `{name}` holds ignored keys", "profile `{name}` 中有会被忽略的键", name=r.profile),
            evidence,
            **facts,
        )
    return _profile(Status.PASS, Msg("profile `{name}`", "profile `{name}`", name=r.profile), evidence, **facts)


def _check_profile_file(ctx: CheckContext) -> CheckResult:
    """Codex 0.171: `--profile x` reads $CODEX_HOME/x.config.toml; the `profile = "x"` selector is refused."""
    r = ctx.resolution
    home_label = r.show(r.codex_home)
    version = _version_text(ctx.codex_version) or ".".join(map(str, config_mod.VERIFIED_CODEX))
    facts: dict[str, Any] = {
        "mode": "file",
        "selected": r.profile,
        "origin": r.profile_origin,
        "missing": False,
        "file_missing": bool(r.profile and r.profile_missing),
        "conflict": r.profile_conflict,
        "profile_file": r.show(r.profile_path) if r.profile_path else None,
        "legacy_selectors": list(r.legacy_selectors),
        "legacy_tables": list(r.legacy_tables),
        "codex_home": home_label,
        "user_config": r.user_layer.label if r.user_layer else "~/.codex/config.toml",
        "codex_version": version,
        "version_assumed": ctx.codex_version is None,
        "available": sorted(p.name[: -len(".config.toml")] for p in _profile_files(r.codex_home)),
    }
    evidence = profile_file_lines(ctx, version, facts)
    if r.legacy_selectors or r.profile_conflict:
        return _profile(
            Status.FAIL,
            Msg("legacy profile config: Codex refuses to start", "旧式 profile 配置：Codex 会拒绝启动"),
            evidence,
            **facts,
        )
    if facts["file_missing"]:
        # Codex runs on with config.toml alone: what it does is what the other checks test.
        return _profile(
            Status.WARN, Msg("{path} does not exist", "{path} 不存在", path=facts["profile_file"]), evidence, **facts
        )
    if r.legacy_tables:
        return _profile(
            Status.WARN, Msg("[profiles.*] tables are ignored", "[profiles.*] 表会被忽略"), evidence, **facts
        )
    if r.profile:
        return _profile(
            Status.PASS,
            Msg("profile `{name}` ({path})", "profile `{name}`（{path}）", name=r.profile, path=facts["profile_file"]),
            evidence,
            **facts,
        )
    return _profile(Status.SKIP, NO_PROFILE, evidence, **facts)


def _profile_files(codex_home: Path) -> list[Path]:
    try:
        return sorted(p for p in codex_home.glob("*.config.toml") if p.is_file())[:20]
    except OSError:
        return []


def _version_text(version: tuple[int, ...] | None) -> str | None:
    return ".".join(map(str, version)) if version else None


def check_provider(ctx: CheckContext) -> CheckResult:
    r = ctx.resolution
    p = r.provider
    tables: Mapping[str, Any] = (
        r.merged["model_providers"] if isinstance(r.merged.get("model_providers"), Mapping) else {}
    )
    facts = _provider_facts(ctx, tables)
    evidence: list[Line] = [
        Msg(
            'model_provider = "{id}" ({origin})',
            'model_provider = "{id}"（{origin}）',
            id=p.id,
            origin=r.origin_said(r.provider_origin),
        )
    ]
    if r.unusable:
        return _provider(Status.SKIP, Msg("config could not be parsed", "配置无法解析"), evidence, **facts)
    if not p.defined:
        evidence.append(Msg("provider tables: {names}", "提供方表：{names}", names=names_or_none(sorted(tables))))
        facts["did_you_mean"] = _did_you_mean(tables, p.id)
        return _provider(
            Status.FAIL,
            Msg("no table [model_providers.{id}]", "没有 [model_providers.{id}] 表", id=p.id),
            evidence,
            **facts,
        )
    if not p.builtin:
        _custom_table(ctx, facts)
    if r.model is not None and not isinstance(r.model, str):
        facts["wrong_types"].append(wrong_type("model", r.model, "str", r.model_origin))
    for key, kind in TOP_LEVEL_TYPES.items():
        wrong = wrong_type(key, r.merged[key], kind, r.origin(key)) if key in r.merged else None
        if wrong:
            facts["wrong_types"].append(wrong)
    evidence += provider_values(ctx)
    bad = (
        facts["missing_base_url"]
        or facts["missing_model"]
        or facts.get("empty_model")
        or facts.get("model_placeholder")
        or facts["missing_name"]
        or facts["wrong_types"]
        or facts["wire_api_invalid"]
        or facts["wire_api"] == "chat"
        or facts["redefined_builtins"]
        or facts["bedrock_refused"]
    )
    status = Status.FAIL if bad else Status.PASS
    return _provider(
        status,
        (
            Msg("{id} (built-in)", "{id}（内置）", id=p.id)
            if p.builtin
            else Msg("{id} (custom)", "{id}（自定义）", id=p.id)
        ),
        evidence,
        **facts,
    )


def _did_you_mean(tables: Mapping[str, Any], pid: str) -> str | None:
    """`taotokn` where the table is `taotoken`: one close table name is a certain edit (issue 29)."""
    close = [
        t
        for t in tables
        if t not in BUILTIN_PROVIDERS
        and isinstance(tables[t], Mapping)
        and (edit_distance(t.lower(), pid.lower()) <= 2 or normalise_name(t) == normalise_name(pid))
    ]
    return close[0] if len(close) == 1 else None


def _provider_facts(ctx: CheckContext, tables: Mapping[str, Any]) -> dict[str, Any]:
    """cfg.provider's facts before the provider's table is read: every key, at its all-clear value."""
    r = ctx.resolution
    p = r.provider
    facts: dict[str, Any] = {
        "provider": p.id,
        "origin": r.provider_origin,
        "builtin": p.builtin,
        "defined": p.defined,
        "available": sorted(set(tables) | set(BUILTIN_PROVIDERS)),
        "redefined_builtins": [],
        "missing_base_url": False,
        "missing_model": False,
        "wrong_types": [],
        "wire_api": None,
        "wire_api_invalid": None,
        "codex_version": _version_text(ctx.codex_version),
        "chat_rejected": None,
        "user_config": r.user_layer.label if r.user_layer else "~/.codex/config.toml",
        "table_where": None,
        "missing_name": False,
        "codex_version_text": _version_text(ctx.codex_version) or ".".join(map(str, config_mod.VERIFIED_CODEX)),
    }
    facts["redefined_builtins"] = [
        {"id": b, "where": r.origin("model_providers", b)} for b in BUILTIN_PROVIDERS if b in tables and b != BEDROCK
    ]
    bedrock = tables.get(BEDROCK)
    refused = config_mod.bedrock_refused_keys(bedrock) if isinstance(bedrock, Mapping) else []
    facts["bedrock_refused"] = (
        [{"where": r.origin("model_providers", BEDROCK), "keys": ", ".join(f"`{k}`" for k in refused)}]
        if refused
        else []
    )
    return facts


def _custom_table(ctx: CheckContext, facts: dict[str, Any]) -> None:
    """What a custom provider's table holds wrong or lacks (types, base_url, model, name, wire_api), into `facts`."""
    r = ctx.resolution
    p = r.provider
    facts["table_where"] = r.origin("model_providers", p.id)
    for key, kind in PROVIDER_TYPES.items():
        wrong = wrong_type(key, p.table[key], kind, r.provider_field_origin(key)) if key in p.table else None
        if wrong:
            facts["wrong_types"].append(wrong)
        elif kind == "table" and key in p.table:  # a map of strings: `{ "X-Retries" = 3 }` is refused too
            for name, value in p.table[key].items():
                inner = wrong_type(f"{key}.{name}", value, "str", r.provider_field_origin(key))
                if inner:
                    facts["wrong_types"].append(inner)
    if "base_url" not in p.table:
        facts["missing_base_url"] = True
        aliases = [k for k in p.table if PROVIDER_ALIASES.get(normalise_name(k)) == "base_url"]
        facts["base_url_alias"] = aliases[0] if aliases else None
    if r.model is None:
        facts["missing_model"] = True
    elif r.model == "":  # Codex 0.171 takes it as no model at all and, for a custom provider, stops at once
        facts["empty_model"] = True
        facts["model_where"] = r.model_origin
    elif placeholder := model_placeholder(r.model):  # the guide's YOUR_MODEL_ID: Codex sends it as it is (404)
        facts.update(model_placeholder=placeholder, model=r.model, model_where=r.model_origin)
    name = p.table.get("name")
    if r.modern and (name is None or (isinstance(name, str) and not name.strip())):
        facts["missing_name"] = True
    wire = p.table.get("wire_api", "responses")
    facts["wire_api"] = wire if isinstance(wire, str) else None
    facts["wire_api_where"] = r.provider_field_origin("wire_api")
    if isinstance(wire, str) and wire not in WIRE_APIS:
        facts["wire_api_invalid"] = wire
    if wire == "chat":
        facts["chat_rejected"] = None if ctx.codex_version is None else ctx.codex_version >= CHAT_REMOVED_IN


def check_keys(ctx: CheckContext) -> CheckResult:
    """Codex silently ignores unknown keys, so a misspelling is a silent misconfiguration."""
    r = ctx.resolution
    unknown: list[dict[str, Any]] = []
    project_provider_keys: list[dict[str, str]] = []
    examined = 0
    for layer in r.layers:
        if layer.data is None or layer.ignored:
            continue
        data = layer.data
        examined = _unknown_top_level(layer, data, examined, unknown)
        providers = data.get("model_providers")
        if isinstance(providers, Mapping):
            examined = _unknown_provider_keys(layer, providers, examined, unknown)
        if layer.kind == "project":
            for key in PROJECT_IGNORED_KEYS:
                if key in data:
                    project_provider_keys.append({"key": key, "where": layer.where((key,))})
    unknown, misplaced = _split_misplaced(r, unknown)
    facts = {
        "unknown": unknown,
        "misplaced": misplaced,
        "project_provider_keys": project_provider_keys,
        "user_config": r.user_layer.label if r.user_layer else "~/.codex/config.toml",
    }
    evidence = key_lines(unknown + misplaced, project_provider_keys)
    if unknown or misplaced or project_provider_keys:
        n_ignored = len(unknown) + len(misplaced) + len(project_provider_keys)
        return _keys(
            Status.WARN,
            Msg("{keys} Codex ignores", "{n:,} 个键会被 Codex 忽略", keys=plural(n_ignored, "key"), n=n_ignored),
            evidence,
            **facts,
        )
    return _keys(Status.PASS, Msg("every key is one Codex reads", "所有键都会被 Codex 读取"), evidence, **facts)


def _split_misplaced(r: Resolution, found: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(unknown keys, top-level keys written inside a provider table). A line after a [model_providers.<id>] header is
    in that table (TOML): a move, not a rename. Each misplaced key says whether Codex gets the setting from elsewhere
    all the same (the top level, a profile, a flag)."""
    misplaced = [u for u in found if u.pop("misplaced", False)]
    chosen = {"model_provider": r.provider_origin != "default", "model": r.model_origin != "default"}
    for u in misplaced:
        u["top_level_set"] = chosen.get(u["key"], u["key"] in r.merged)
    return [u for u in found if "table_id" not in u], misplaced


def _unknown_top_level(layer: Layer, data: Mapping[str, Any], examined: int, unknown: list[dict[str, Any]]) -> int:
    """A layer's top-level keys that look like a misspelt one Codex reads, into `unknown`; the keys examined so far
    back (at most SUGGEST_MAX_KEYS get a near-miss search)."""
    for key in data:
        if key in TOP_LEVEL_WATCHED:
            continue
        examined += 1
        if examined > SUGGEST_MAX_KEYS:
            break
        suggestion = TOP_LEVEL_ALIASES.get(normalise_name(key)) or _suggest(key, TOP_LEVEL_WATCHED, {})
        if suggestion and suggestion != key:
            unknown.append({"key": key, "table": TOP_LEVEL, "suggestion": suggestion, "where": layer.where((key,))})
    return examined


def _unknown_provider_keys(
    layer: Layer, providers: Mapping[str, Any], examined: int, unknown: list[dict[str, Any]]
) -> int:
    """Every key of a layer's provider tables that Codex does not read, into `unknown` with the key it may mean."""
    for pid, table in providers.items():
        if not isinstance(table, Mapping):
            continue
        for key in table:
            if key in PROVIDER_KEYS:
                continue
            examined += 1
            if examined > SUGGEST_MAX_KEYS:
                break
            top = key in TOP_LEVEL_ONLY
            value = table[key]
            unknown.append(
                {
                    "key": key,
                    "table": f"[model_providers.{pid}]",
                    "suggestion": None if top else _suggest(key, PROVIDER_KEYS, PROVIDER_ALIASES),
                    "where": layer.where(("model_providers", pid, key)),
                    **(
                        {
                            "misplaced": True,
                            "table_id": pid,
                            "table_where": layer.where(("model_providers", pid)),
                            "file": layer.label,
                            "value": value if isinstance(value, (str, int)) and not isinstance(value, bool) else None,
                        }
                        if top
                        else {}
                    ),
                }
            )
    return examined


CHECKS = (
    Check("cfg.home", "Codex home", check_home),
    Check("cfg.files", "Config files", check_files),
    Check("cfg.profile", "Profile", check_profile),
    Check("cfg.provider", "Provider", check_provider),
    Check("cfg.keys", "Config keys", check_keys),
)
