"""Resolve the provider, model and key variable exactly as Codex would (codex-facts §1-4)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from codexdoctor.codex import dotenvfile, tomlsource
from codexdoctor.codex.layers import Layer, read_layer
from codexdoctor.common.redact import shorten_home
from codexdoctor.common.untrusted import clip
from codexdoctor.model import Msg, said_error

DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"
BUILTIN_PROVIDERS: dict[str, dict[str, Any]] = {
    "openai": {
        "name": "OpenAI",
        "base_url": DEFAULT_OPENAI_BASE_URL,
        "wire_api": "responses",
        "requires_openai_auth": True,
    },
    "ollama": {"name": "Ollama", "base_url": "http://localhost:11434/v1", "wire_api": "responses"},
    "lmstudio": {"name": "LM Studio", "base_url": "http://localhost:1234/v1", "wire_api": "responses"},
    # Requests signed with AWS SigV4 from the AWS SDK's configuration (region, credentials), no key
    # (codex-rs/model-provider-info/src/lib.rs, `create_amazon_bedrock_provider`; run with the real 0.171.0).
    "amazon-bedrock": {
        "name": "Amazon Bedrock",
        "base_url": "https://bedrock-mantle.us-east-1.api.aws/v1",
        "wire_api": "responses",
    },
}
# The one built-in whose table Codex 0.171 takes, for these keys only (merged into the built-in); any other key stops
# it: "model_providers.amazon-bedrock only supports changing `base_url`, `auth`, `http_headers`, `aws.profile`, …".
BEDROCK = "amazon-bedrock"
BEDROCK_KEYS = ("base_url", "auth", "http_headers", "aws")
BEDROCK_AWS_KEYS = ("profile", "region", "credential_export", "auth_refresh")


def bedrock_refused_keys(table: Mapping[str, Any]) -> list[str]:
    """The keys of a [model_providers.amazon-bedrock] table Codex 0.171 refuses to start with, as `aws.x` for the
    inner ones (an `aws` that is not a table is refused as a whole)."""
    refused = [k for k in table if k not in BEDROCK_KEYS]
    aws = table.get("aws")
    if "aws" in table and not isinstance(aws, Mapping):
        refused.append("aws")
    elif isinstance(aws, Mapping):
        refused += [f"aws.{k}" for k in aws if k not in BEDROCK_AWS_KEYS]
    return refused


# Keys Codex only honours at the top level; inside [profiles.x] they are silently ignored.
PROFILE_IGNORED_KEYS = ("model_context_window", "model_auto_compact_token_limit", "model_providers")
# Keys current Codex ignores in a project's .codex/config.toml (#20098).
PROJECT_IGNORED_KEYS = ("model_provider", "model_providers")
# Keys Codex reads at the top level (or in a profile), never in a provider table. Appended at the end of a file whose
# last table is [model_providers.<id>], TOML puts them into that table, where Codex ignores them (CFG030, CFG031).
TOP_LEVEL_ONLY = tuple(
    "model_provider model profile model_context_window model_auto_compact_token_limit model_reasoning_effort model_reasoning_summary "
    "model_verbosity approval_policy sandbox_mode openai_base_url hide_agent_reasoning show_raw_agent_reasoning".split()
)
# How the checks name where an unknown key is (its `table`) when it is at the top level of a file, and the key they
# suggest for `model` written inside a provider table; the words a report says them with (checks/cfglines.py,
# rules/cfg/keys.py).
TOP_LEVEL = "(top level)"
MODEL_ELSEWHERE = "model (top level or in a profile, not in the provider table)"
KEY_WORDS = {
    TOP_LEVEL: Msg.pair(TOP_LEVEL, "顶层"),
    MODEL_ELSEWHERE: Msg.pair(MODEL_ELSEWHERE, "model（写在顶层或 profile 中，而不是提供方表中）"),
}


def key_said(text: str) -> Msg:
    """An unknown key's table or suggestion in words (one not in KEY_WORDS is a name, as it is)."""
    return KEY_WORDS.get(text) or Msg.verbatim(text)


# The Codex whose config semantics codexdoctor verified with the real CLI (docs/codex-behaviour.md). When the
# installed version is unknown, verdicts assume this one; known older versions get the legacy rules below.
VERIFIED_CODEX = (0, 171, 0)
# 0.171 semantics: profiles are files ($CODEX_HOME/<name>.config.toml, chosen with --profile), the top-level
# `profile = "x"` selector and [profiles.x] tables are legacy, a project config is read only when the project is
# trusted, and every provider table needs a `name`. Older versions: [profiles.x] tables, project configs always read.
MODERN_SINCE = VERIFIED_CODEX


def modern(version: tuple[int, ...] | None) -> bool:
    """Whether the 0.171 rules apply: the installed version is that or newer, or unknown."""
    return version is None or tuple(version) >= MODERN_SINCE


class OverrideError(ValueError):
    """A `-c` argument Codex itself would reject; a usage error (exit 2)."""


@dataclass(frozen=True)
class Provider:
    """The provider Codex will use, with raw values (types unchecked: checks judge them)."""

    id: str
    builtin: bool
    defined: bool  # False when model_provider names a table that does not exist
    table: Mapping[str, Any]
    redefines_builtin: bool = False

    def get(self, key: str, default: Any = None) -> Any:
        return self.table.get(key, default)

    @property
    def base_url(self) -> Any:
        return self.table.get("base_url")

    @property
    def wire_api(self) -> Any:
        return self.table.get("wire_api", "responses")

    @property
    def env_key(self) -> Any:
        return self.table.get("env_key")

    def request_url(self) -> str | None:
        """`base_url` with trailing slashes trimmed + the wire API path + `?` + query_params, joined as strings the
        way Codex joins them (codex-rs/codex-api/src/provider.rs, `Provider::url_for_path`): a query already in
        base_url stays where it is, so the path and the second `?` land inside it (`…/v1?key=K/responses?v=1`).

        Codex never inserts `/v1`; it only appears because built-in defaults carry it. It drops leading
        whitespace but keeps trailing whitespace, which reaches the path as `%20` (observed with 0.171.0).
        """
        base = self.base_url if self.base_url is not None else DEFAULT_OPENAI_BASE_URL
        if not isinstance(base, str):
            return None
        path = "/chat/completions" if self.wire_api == "chat" else "/responses"
        query = self.query_string()
        return base.lstrip().rstrip("/") + path + (f"?{query}" if query else "")

    def query_string(self) -> str:
        """query_params as Codex appends them: `k=v` joined by `&`, unencoded; "" when there are none."""
        params = self.table.get("query_params")
        if isinstance(params, Mapping) and params:
            return "&".join(f"{k}={v}" for k, v in params.items())
        return ""


@dataclass(frozen=True)
class Resolution:
    """Everything config resolution learned, including what is wrong; it never raises for user errors."""

    home: Path
    codex_home: Path
    codex_home_from_env: bool
    codex_home_problem: str | None  # None | "missing" | "not_dir"
    layers: tuple[Layer, ...]
    merged: Mapping[str, Any]
    profile: str | None
    profile_origin: str | None
    profile_missing: bool
    profile_table: Mapping[str, Any]
    provider_id: str
    provider_origin: str
    provider: Provider
    model: Any
    model_origin: str
    env: Mapping[str, str]  # the environment Codex runs with: the shell's plus $CODEX_HOME/.env
    overrides: tuple[str, ...] = ()
    codex_version: tuple[int, ...] | None = None
    profile_mode: str = "file"  # file (0.171: <name>.config.toml) | table (legacy [profiles.x])
    profile_path: Path | None = None
    # `profile = "x"` at the top level of a config file: 0.171 refuses to start ({"value", "where"})
    legacy_selectors: tuple[Mapping[str, str], ...] = ()
    legacy_tables: tuple[Mapping[str, str], ...] = ()  # [profiles.x] tables, ignored by 0.171 ({"name", "where"})
    profile_conflict: bool = False  # --profile x while config.toml still has [profiles.x]: 0.171 refuses
    dotenv: dotenvfile.DotEnv | None = None
    shell_env: Mapping[str, str] = field(default_factory=dict)  # the environment before .env
    cwd: Path | None = None
    # The origins above that are words (a profile's: "profile `x` (path)"), in both languages, by their English.
    origins_said: Mapping[str, Msg] = field(default_factory=dict)

    @property
    def modern(self) -> bool:
        return modern(self.codex_version)

    def env_source(self, name: str) -> str:
        """Where Codex gets a variable from: `$CODEX_HOME/.env` (which wins) or the shell."""
        if self.dotenv is not None and name in self.dotenv.values:
            return self.show(self.dotenv.path)
        return "environment"

    @property
    def user_layer(self) -> Layer | None:
        return next((layer for layer in self.layers if layer.kind == "user"), None)

    @property
    def parse_failed(self) -> bool:
        return any(
            layer.toml_problem or layer.read_error
            for layer in self.layers
            if layer.kind != "override" and not layer.ignored
        )

    @property
    def unusable(self) -> bool:
        """Codex would stop before choosing a provider: later checks have nothing real to judge."""
        return self.parse_failed or self.codex_home_problem is not None

    def show(self, path: Path | str) -> str:
        return shorten_home(str(path), str(self.home))

    def origin(self, *path: str) -> str:
        """Where the effective value of a top-level key path came from."""
        return _origin_in(self.layers, tuple(path))

    def provider_field_origin(self, key: str) -> str:
        """Where a field of the provider comes from, in English (a fact; the report says `provider_field_said`)."""
        return str(self.provider_field_said(key))

    def provider_field_said(self, key: str) -> Msg:
        """Where a field of the provider comes from, in both languages: a file or a flag is the same in each."""
        if self.provider.builtin and not self.provider.redefines_builtin:
            if self.provider.id == "openai" and key == "base_url" and "openai_base_url" in self.merged:
                return self.origin_said(self.origin("openai_base_url"))
            if (
                self.provider.id == "openai"
                and key == "base_url"
                and self.env.get("OPENAI_BASE_URL")
                and reads_openai_base_url_variable(self.codex_version)
            ):
                return Msg("$OPENAI_BASE_URL (deprecated)", "$OPENAI_BASE_URL（已弃用）")
            if (
                self.provider.id == BEDROCK
                and key in BEDROCK_KEYS
                and self.origin("model_providers", BEDROCK, key) != "default"
            ):
                return self.origin_said(self.origin("model_providers", BEDROCK, key))
            return Msg("built-in provider `{id}`", "内置提供方 `{id}`", id=self.provider.id)
        if key not in self.provider.table:
            return DEFAULT_ORIGIN
        return self.origin_said(self.origin("model_providers", self.provider.id, key))

    def origin_said(self, origin: str) -> Msg:
        """An origin this resolution gave (a file, a flag, `-c`, or a profile's), in both languages: the words of
        a profile's origin were written beside it when it was made; any other is the same in every language."""
        if origin == "default":
            return DEFAULT_ORIGIN
        return self.origins_said.get(origin) or Msg.verbatim(origin)


# The origin of a value no file or flag set: Codex's own default.
DEFAULT_ORIGIN = Msg("default", "默认值")

_MISSING = object()


def lookup(data: Mapping[str, Any], path: tuple[str, ...] | list[str], default: Any = _MISSING) -> Any:
    """The value at a key path of nested tables, or `default`."""
    cur: Any = data
    for part in path:
        if not isinstance(cur, Mapping) or part not in cur:
            return default
        cur = cur[part]
    return cur


_lookup = lookup


def _deep_merge(base: dict[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    for key, value in top.items():
        # Plain dict checks: tomllib makes dicts, and an ABC check per key costs seconds on a 100,000-key file.
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _deep_merge(base[key], value)
        else:
            base[key] = copy.deepcopy(value) if isinstance(value, (dict, list)) else value
    return base


def parse_overrides(raw_overrides: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """`-c key=value`: split on the first `=`, value parsed as TOML, dotted keys nest.

    The overrides together have a config file's limits (issue 36): a key and its value nested at most
    MAX_DEPTH levels, at most KEYS_MAX keys and tables in all, measured before the value is parsed (a key 500
    levels deep made `copy.deepcopy` overflow; dotted keys in an inline table cost the TOML reader quadratic time)."""
    out: dict[str, Any] = {}
    keys_left = tomlsource.KEYS_MAX
    for item in raw_overrides:
        if "=" not in item:
            said = Msg("Invalid override (missing '='): {o}", "无效的 -c 覆盖（缺少 '='）：{o}", o=clip(item, 80))
            raise said_error(OverrideError(str(said)), said)
        key, value = item.split("=", 1)
        path = tomlsource.split_dotted(key.strip())
        if not path or any(not p for p in path):
            said = Msg("Invalid override key: {k}", "无效的 -c 覆盖键：{k}", k=repr(clip(key, 80)))
            raise said_error(OverrideError(str(said)), said)
        # The same shape scan as a config file's, on the override written as one TOML line with a key as deep as its own.
        problem, counted = tomlsource.shape("k" + ".k" * (len(path) - 1) + " = " + value.strip(), keys_left)
        if problem is not None:
            shown = ".".join(path[:3]) + (".…" if len(path) > 3 else "")
            said = Msg(
                "Invalid override {k}: {why} (the limit of a config file too)",
                "无效的 -c 覆盖 {k}：{why}（配置文件也是这个上限）",
                k=repr(clip(shown, 60)),
                why=tomlsource.limit_said(problem),
            )
            raise said_error(OverrideError(str(said)), said)
        keys_left -= counted
        cur = out
        for part in path[:-1]:
            nxt = cur.get(part)
            if not isinstance(nxt, dict):
                nxt = cur[part] = {}
            cur = nxt
        cur[path[-1]] = tomlsource.parse_override_value(value.strip())
    return out


def project_config_paths(cwd: Path, codex_home: Path) -> list[Path]:
    """`.codex/config.toml` from the repository root down to cwd (nearest wins)."""
    found: list[Path] = []
    for directory in [cwd, *cwd.parents]:
        candidate = directory / ".codex" / "config.toml"
        try:
            if candidate.parent.resolve() != codex_home.resolve() and candidate.is_file():
                found.append(candidate)
            if (directory / ".git").exists():
                break
        except (OSError, RuntimeError):  # unreadable folder, symlink loop: Codex cannot read it either
            continue
    return list(reversed(found))


def project_root(cwd: Path) -> Path:
    """The folder Codex keys project trust by: the repository root, else cwd."""
    for directory in [cwd, *cwd.parents]:
        try:
            if (directory / ".git").exists():
                return directory
        except OSError:
            break
    return cwd


def trust_level(user_data: Mapping[str, Any] | None, cwd: Path) -> str | None:
    """`[projects."<path>"] trust_level` for cwd or the nearest folder above it that has one."""
    projects = (user_data or {}).get("projects")
    if not isinstance(projects, Mapping):
        return None
    for directory in [cwd, *cwd.parents]:
        entry = projects.get(str(directory))
        if isinstance(entry, Mapping) and isinstance(level := entry.get("trust_level"), str):
            return level
    return None


def locate_codex_home(env: Mapping[str, str], home: Path, cwd: Path | None = None) -> tuple[Path, bool, str | None]:
    value = env.get("CODEX_HOME", "")
    if value:
        # Codex does not expand `~`: CODEX_HOME="~/.codex" (quoted, so the shell kept the tilde) is a relative
        # path that does not exist (observed with 0.171.0). Any other relative path is taken from the folder Codex
        # runs in (it canonicalises the value): CODEX_HOME=. worked from the folder holding config.toml (0.171.0).
        path = Path(value)
        if cwd is not None and not path.is_absolute() and not value.startswith("~"):
            path = cwd / path
        try:
            if not path.exists():
                return path, True, "missing"
            if not path.is_dir():
                return path, True, "not_dir"
        except OSError:
            return path, True, "missing"
        return path, True, None
    return home / ".codex", False, None


# 76 lines: half of it is the Resolution's 27 fields named once; the precedence reads top to bottom in one place.
def resolve(
    env: Mapping[str, str],
    home: Path,
    cwd: Path | None = None,
    overrides: tuple[str, ...] | list[str] = (),
    profile: str | None = None,
    model: str | None = None,
    system_config: Path | None = Path("/etc/codex/config.toml"),
    codex_version: tuple[int, ...] | None = None,
) -> Resolution:
    """Build the effective config. Precedence: flags > -c > project > profile > user > system > defaults.

    With legacy semantics (a known Codex older than 0.171) the profile is a [profiles.x] table that sits
    between the flags and the merged files.
    """
    cwd = cwd or Path.cwd()
    is_modern = modern(codex_version)
    override_data = parse_overrides(overrides)
    codex_home, from_env, home_problem = locate_codex_home(env, home, cwd)
    dotenv = dotenvfile.read(codex_home, env) if home_problem is None else None
    effective_env = dotenvfile.apply(env, dotenv) if dotenv is not None else dict(env)
    layers, profile_path = _read_layers(home, cwd, codex_home, home_problem, system_config, profile, is_modern)
    if override_data:
        layers.append(Layer("override", "-c", None, exists=True, data=override_data))
    merged = _merge(layers)
    selectors, tables = _profile_selectors(layers), _profile_tables(layers)
    chosen = _chosen_profile(layers, merged, profile, is_modern)

    origins_said: dict[str, Msg] = {}

    def pick(key: str, flag: Any = None) -> tuple[Any, str]:
        if flag is not None:
            return flag, f"--{key}"
        if key in chosen.table:
            where = _origin_in(layers, ("profiles", chosen.name or "", key))
            said = Msg("profile `{name}` ({where})", "profile `{name}`（{where}）", name=str(chosen.name), where=where)
            origins_said[str(said)] = said
            return chosen.table[key], str(said)
        if key in merged:
            return merged[key], _origin_in(layers, (key,))
        return None, "default"

    provider_id, provider_origin = pick("model_provider")
    if provider_id is None:
        provider_id = "openai"
    provider = _build_provider(str(provider_id), merged, effective_env, codex_version)
    model_value, model_origin = pick("model", model)
    return Resolution(
        home=home,
        codex_home=codex_home,
        codex_home_from_env=from_env,
        codex_home_problem=home_problem,
        layers=tuple(layers),
        merged=merged,
        profile=chosen.name,
        profile_origin=chosen.origin,
        profile_missing=chosen.missing,
        profile_table=chosen.table,
        provider_id=str(provider_id),
        provider_origin=provider_origin,
        provider=provider,
        model=model_value,
        model_origin=model_origin,
        env=effective_env,
        overrides=tuple(overrides),
        codex_version=codex_version,
        profile_mode="file" if is_modern else "table",
        profile_path=profile_path,
        legacy_selectors=selectors if is_modern else (),
        legacy_tables=tables if is_modern else (),
        profile_conflict=bool(is_modern and profile and any(t["name"] == profile for t in tables)),
        dotenv=dotenv,
        shell_env=dict(env),
        cwd=cwd,
        origins_said=origins_said,
    )


def _read_layers(
    home: Path,
    cwd: Path,
    codex_home: Path,
    home_problem: str | None,
    system_config: Path | None,
    profile: str | None,
    is_modern: bool,
) -> tuple[list[Layer], Path | None]:
    """The config files in precedence order, lowest first: system, user, the --profile file (0.171), the project
    files from the repository root down to cwd (ignored unless the project is trusted, 0.171). Returns them and
    the profile file's path (None without --profile or with legacy semantics)."""
    layers: list[Layer] = []
    if system_config is not None:
        sys_layer = read_layer("system", system_config, home)
        if sys_layer.exists:
            layers.append(sys_layer)
    profile_path: Path | None = None
    if home_problem is None:
        user = read_layer("user", codex_home / "config.toml", home)
        layers.append(user)
        if is_modern and profile:
            profile_path = codex_home / f"{profile}.config.toml"
            profile_layer = read_layer("profile", profile_path, home)
            if profile_layer.exists:
                layers.append(profile_layer)
        trust = trust_level(user.data, cwd)
        for path in project_config_paths(cwd, codex_home):
            layer = read_layer("project", path, home)
            if is_modern and trust != "trusted":
                layer = replace(layer, ignored="untrusted" if trust != "untrusted" else "marked untrusted")
            layers.append(layer)
    return layers, profile_path


def _merge(layers: list[Layer]) -> dict[str, Any]:
    """The layers merged, higher precedence last; an ignored layer adds nothing, a project file not the keys
    Codex ignores there."""
    merged: dict[str, Any] = {}
    for layer in layers:
        if layer.data is None or layer.ignored:
            continue
        data = dict(layer.data)
        if layer.kind == "project":
            for key in PROJECT_IGNORED_KEYS:
                data.pop(key, None)
        _deep_merge(merged, data)
    return merged


def _profile_selectors(layers: list[Layer]) -> tuple[dict[str, str], ...]:
    """Every `profile = "…"` the files hold, and where (Codex 0.171 refuses this legacy selector)."""
    return tuple(
        {"value": str(layer.data["profile"]), "where": layer.where(("profile",))}
        for layer in layers
        if layer.data is not None and not layer.ignored and layer.kind != "override" and "profile" in layer.data
    )


def _profile_tables(layers: list[Layer]) -> tuple[dict[str, str], ...]:
    """Every `[profiles.<name>]` table the files hold, and where (legacy: 0.171 reads profile files instead)."""
    return tuple(
        {"name": str(name), "where": layer.where(("profiles", name))}
        for layer in layers
        if layer.data is not None and not layer.ignored and isinstance(layer.data.get("profiles"), Mapping)
        for name in layer.data["profiles"]
    )


@dataclass(frozen=True)
class _Profile:
    """The profile a run uses: its name and what chose it, its table (legacy semantics only), and whether the
    profile asked for is missing."""

    name: str | None = None
    origin: str | None = None
    table: Mapping[str, Any] = field(default_factory=dict)
    missing: bool = False


def _chosen_profile(layers: list[Layer], merged: Mapping[str, Any], profile: str | None, is_modern: bool) -> _Profile:
    if is_modern:
        # 0.171: --profile picks a file; without it, nothing is selected (the legacy selector is refused).
        if profile:
            return _Profile(profile, "--profile", missing=not any(layer.kind == "profile" for layer in layers))
        return _Profile()
    name, origin = None, None
    if profile:
        name, origin = profile, "--profile"
    elif isinstance(merged.get("profile"), str):
        name, origin = merged["profile"], _origin_in(layers, ("profile",))
    profiles: Mapping[str, Any] = merged["profiles"] if isinstance(merged.get("profiles"), Mapping) else {}
    if name is None:
        return _Profile(name, origin)
    table = profiles.get(name)
    if isinstance(table, Mapping):
        return _Profile(name, origin, table)
    return _Profile(name, origin, missing=True)


def _origin_in(layers: list[Layer] | tuple[Layer, ...], path: tuple[str, ...]) -> str:
    for layer in reversed(layers):
        if layer.data is not None and not layer.ignored and _lookup(layer.data, path) is not _MISSING:
            if layer.kind == "project" and path and path[0] in PROJECT_IGNORED_KEYS:
                continue
            return layer.where(path)
    return "default"


# The `OPENAI_BASE_URL` variable moved the built-in provider until openai/codex#16720 (merged 2026-04-03) removed it;
# 0.118.0 still read it (with a deprecation warning, openai/codex#16719). Codex 0.171.0 ignores it: checked with the
# real CLI (scripts/crosscheck_config_semantics.py, "auth: built-in, OPENAI_BASE_URL variable": it called
# api.openai.com).
OPENAI_BASE_URL_UNTIL = (0, 119, 0)


def reads_openai_base_url_variable(version: tuple[int, ...] | None) -> bool:
    return version is not None and tuple(version) < OPENAI_BASE_URL_UNTIL


def _build_provider(
    provider_id: str, merged: Mapping[str, Any], env: Mapping[str, str], codex_version: tuple[int, ...] | None = None
) -> Provider:
    tables = merged.get("model_providers")
    tables = tables if isinstance(tables, Mapping) else {}
    custom = tables.get(provider_id)
    if provider_id == BEDROCK and isinstance(custom, Mapping):  # the keys it may change, the rest refused (CFG029)
        table = dict(BUILTIN_PROVIDERS[BEDROCK]) | {k: v for k, v in custom.items() if k in BEDROCK_KEYS}
        return Provider(provider_id, builtin=True, defined=True, table=table)
    if provider_id in BUILTIN_PROVIDERS:
        table = dict(BUILTIN_PROVIDERS[provider_id])
        if provider_id == "openai":
            override = merged.get("openai_base_url") or (
                env.get("OPENAI_BASE_URL") if reads_openai_base_url_variable(codex_version) else None
            )
            if override:
                table["base_url"] = override
        # Current Codex refuses a redefinition; older ones silently ignored it. Either way
        # the built-in values are what any Codex that starts will use.
        return Provider(
            provider_id, builtin=True, defined=True, table=table, redefines_builtin=isinstance(custom, Mapping)
        )
    if isinstance(custom, Mapping):
        return Provider(provider_id, builtin=False, defined=True, table=dict(custom))
    return Provider(provider_id, builtin=False, defined=False, table={})
