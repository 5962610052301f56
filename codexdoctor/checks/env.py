"""ENV checks: the variable that holds the API key, and stored logins that interfere."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from codexdoctor.checks.base import Check, CheckContext, edit_distance, is_loopback_host, normalise_name, result
from codexdoctor.checks.envlines import (
    auth_lines,
    dotenv_lines,
    env_key_line,
    fingerprint_msg,
    key_lines,
    missing_lines,
    source_lines,
)
from codexdoctor.codex.authfile import KEY_SHAPED, VAR_NAME, display_env_key, read_auth_json
from codexdoctor.codex.config import BEDROCK, Resolution
from codexdoctor.common import safefile
from codexdoctor.common.placeholders import key_placeholder
from codexdoctor.common.redact import fingerprint
from codexdoctor.model import CheckResult, Msg, Status

# Each check's result with its id and title given, so a summary in two languages fits on the line that returns it.
_key = partial(result, "env.key", "API key variable")
_auth = partial(result, "env.auth", "Stored login")


RC_FILES = (
    ".bashrc",
    ".bash_profile",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".config/fish/config.fish",
    ".config/fish/fish_variables",
    ".config/powershell/Microsoft.PowerShell_profile.ps1",
    "Documents/PowerShell/Microsoft.PowerShell_profile.ps1",
    "Documents/WindowsPowerShell/Microsoft.PowerShell_profile.ps1",
)
RC_MAX = safefile.CONFIG_MAX  # a start-up file of a megabyte is already far past any real one
_SUFFIXES = ("_API_KEY", "_APIKEY", "_KEY", "_TOKEN", "_SECRET")


def _stem(name: str) -> str:
    upper = name.upper()
    for suffix in _SUFFIXES:
        if upper.endswith(suffix):
            return upper[: -len(suffix)]
    return upper


def near_miss_names(wanted: str, env: Mapping[str, str]) -> list[str]:
    """Variables that look like the one env_key names: case, prefix/suffix, a typo or two."""
    found = []
    w_norm, w_stem = normalise_name(wanted), _stem(wanted)
    for name in env:
        if name == wanted or not env[name].strip():
            continue
        n_norm = normalise_name(name)
        same_stem = bool(w_stem) and _stem(name) == w_stem and any(name.upper().endswith(s) for s in _SUFFIXES)
        close = len(wanted) >= 6 and edit_distance(name.upper(), wanted.upper()) <= 2
        if n_norm == w_norm or same_stem or close:
            found.append(name)
    return sorted(found)


_BEARER = re.compile(r"bearer[ \t]+", re.I)  # Codex's own header prefix, pasted in front of the key


def value_problems(value: str) -> list[str]:
    """What about a key's characters will make a provider reject it (never the value itself)."""
    problems = []
    if "\n" in value or "\r" in value:
        problems.append("newline")
    if value != value.strip(" \t\n\r"):
        problems.append("leading or trailing whitespace")
    stripped = value.strip()
    if len(stripped) >= 2 and stripped[0] == stripped[-1] and stripped[0] in "\"'":
        problems.append("quotes")
    bearer = _BEARER.match(stripped)
    if bearer:  # `Bearer` and a space or a tab: Codex's own prefix, pasted with the key
        problems.append("bearer prefix")
        stripped = stripped[bearer.end() :]  # the space after `Bearer` is part of that one cause, not a second one
    if any(ord(ch) > 127 for ch in value):
        problems.append("non-ascii")
    if any(ch in stripped for ch in " \t"):
        problems.append("inner whitespace")
    return problems


def clean_key(value: str) -> str:
    """The key without what value_problems names: surrounding whitespace and quotes, a `Bearer ` prefix."""
    key = value.strip()
    if len(key) >= 2 and key[0] == key[-1] and key[0] in "\"'":
        key = key[1:-1].strip()
    bearer = _BEARER.match(key)
    if bearer:
        key = key[bearer.end() :].strip()
    return key


def find_in_rc_files(var: str, home: Path, skipped: list[dict[str, str]] | None = None) -> list[dict[str, Any]]:
    """Shell start-up files that set the variable (value never read into the report).

    They are read like every other file of the user's (safefile): a FIFO, a device or a file over the cap is
    skipped, not waited on or swallowed whole, and said in `skipped` ({"file", "reason"})."""
    name = re.escape(var)
    # (pattern, whether a match exports the variable to the programs the shell starts, such as Codex). A plain
    # `NAME=value` in a bash/zsh file sets a shell variable only: `source` then puts it in the shell, and Codex, a
    # child process, still does not get it (the seed guide's "not exported" case).
    patterns: list[tuple[re.Pattern[str], Callable[[re.Match[str]], bool]]] = [
        (re.compile(rf"^\s*(export\s+|declare\s+-x\s+|typeset\s+-x\s+)?{name}\s*="), lambda m: bool(m.group(1))),
        (re.compile(rf"^\s*set\s+((?:-[A-Za-z]+\s+)*){name}\b"), lambda m: "x" in m.group(1)),  # fish set -gx / -Ux
        (re.compile(rf"^\s*SETUVAR\s+(--export\s+)?{name}:"), lambda m: bool(m.group(1))),  # fish universal variables
        (re.compile(rf"^\s*\$env:{name}\s*=", re.I), lambda m: True),  # PowerShell profile
        (re.compile(rf"SetEnvironmentVariable\(\s*['\"]{name}['\"]", re.I), lambda m: True),
        (re.compile(rf"^\s*setx\s+{name}\b", re.I), lambda m: True),
    ]
    export_later = re.compile(rf"^\s*export\s+(?:[A-Za-z_][A-Za-z0-9_]*\s+)*{name}\b(?!\s*=)")
    hits = []
    for rel in RC_FILES:
        path = home / rel
        try:
            text = safefile.read_capped(path, RC_MAX).decode("utf-8", errors="replace")
        except safefile.Unreadable as exc:
            if skipped is not None:
                skipped.append({"file": "~/" + rel, "reason": str(exc)})
            continue
        except OSError:
            continue
        exported_here = any(export_later.search(line) for line in text.splitlines())
        for number, line in enumerate(text.splitlines(), 1):
            for pattern, exports in patterns:
                m = pattern.search(line)
                if m:
                    hits.append(
                        {
                            "file": "~/" + rel,
                            "line": number,
                            "exported": exports(m) or exported_here,
                            "fish": rel.startswith(".config/fish"),
                        }
                    )
                    break
    return hits


_RC_LITERAL = re.compile(r"^\s*{name}=(?:'([^']*)'|\"([^\"$`\\\\]*)\"|([^\s'\"$`\\\\;#|&<>()]*))\s*(?:#.*)?$")


def unexported_rc_value(var: str, home: Path) -> tuple[str, dict[str, Any]] | None:
    """The literal value a bash/zsh start-up file gives the variable without exporting it, with the hit, or None.

    This is ENV024's case: the fix is certain (add `export`), and the value is the one Codex will send once it is
    made. `check` uses it only to run the live checks as if that fix were made (checks/asfixed.py); it goes into the
    run's redactor and never into a fact. A value built by the shell ($, backticks, escapes) is not guessed at."""
    hits = find_in_rc_files(var, home)
    if not hits or any(h["exported"] for h in hits):
        return None
    hit = hits[-1]  # the last assignment wins in the shell
    if hit["fish"] or not hit["file"].startswith("~/"):
        return None
    try:
        text = safefile.read_capped(home / hit["file"][2:], RC_MAX).decode("utf-8", errors="replace")
    except (safefile.Unreadable, OSError):
        return None
    lines = text.splitlines()
    if not 0 < hit["line"] <= len(lines):
        return None
    m = re.match(_RC_LITERAL.pattern.replace("{name}", re.escape(var)), lines[hit["line"] - 1])
    value = next((g for g in m.groups() if g is not None), None) if m else None
    return (value, hit) if value and value.strip() == value else None


def _is_local(base_url: Any) -> bool:
    if not isinstance(base_url, str):
        return False
    try:
        return is_loopback_host(urlsplit(base_url.strip()).hostname)
    except ValueError:
        return False


_VAR_STYLE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")


def shown_ref(name: str) -> str:
    """A `$NAME` that Codex's .env reader substituted, as the report may show it. When the `$` is part of the key
    itself (`sk-ab$cd…`), the "name" is a piece of the key: only a name written like a variable (upper case, and
    short or with underscores) is shown; anything else is shown by its length alone."""
    if not name:
        return "$"
    if _VAR_STYLE.fullmatch(name) and (len(name) <= 7 or "_" in name):
        return "$" + name
    return f"$<{len(name)} characters of the value>"


def check_key(ctx: CheckContext) -> CheckResult:
    facts = _key_facts(ctx)
    checked = _variable(ctx, facts)
    if isinstance(checked, CheckResult):
        return checked
    env_key = checked
    facts["env_key"] = env_key
    value = ctx.env.get(env_key)
    evidence = [env_key_line(env_key, ctx.resolution.provider_field_said("env_key"))]
    _source(ctx, env_key, value, facts, evidence)
    if value is None or not value.strip():
        _missing(ctx, env_key, value, facts, evidence)
        return _key(
            Status.FAIL,
            (
                Msg("${var} is missing", "${var} 未设置", var=env_key)
                if value is None
                else Msg("${var} is blank", "${var} 为空", var=env_key)
            ),
            evidence,
            **facts,
        )
    facts["state"] = "set"
    facts["key_fingerprint"] = fingerprint(value)
    facts["problems"] = value_problems(value)
    facts["key_placeholder"] = key_placeholder(value)  # the pattern's label, never the value
    evidence += key_lines(env_key, value, facts)
    if facts["key_placeholder"]:
        return _key(
            Status.FAIL,
            Msg("${var} holds a placeholder, not a key", "${var} 里是占位符，而不是密钥", var=env_key),
            evidence,
            **facts,
        )
    if facts["problems"]:
        return _key(
            Status.FAIL, Msg("${var} has stray characters", "${var} 含有多余字符", var=env_key), evidence, **facts
        )
    return _key(
        Status.PASS,
        Msg("${var} set ({fp})", "${var} 已设置（{fp}）", var=env_key, fp=fingerprint_msg(value)),
        evidence,
        **facts,
    )


def _key_facts(ctx: CheckContext) -> dict[str, Any]:
    """env.key's facts before the variable is looked at: every key, at its empty value."""
    r = ctx.resolution
    p = r.provider
    return {
        "provider": p.id,
        "builtin": p.builtin,
        "env_key": None,
        "state": None,
        "near_miss": [],
        "rc_hits": [],
        "problems": [],
        "env_key_looks_like_key": False,
        "bearer_token": isinstance(p.get("experimental_bearer_token"), str),
        "local": _is_local(p.base_url),
        "requires_openai_auth": p.get("requires_openai_auth") is True,
        "user_config": r.user_layer.label if r.user_layer else "~/.codex/config.toml",
        "env_key_where": r.provider_field_origin("env_key"),
    }


def _variable(ctx: CheckContext, facts: dict[str, Any]) -> CheckResult | str:
    """The variable env_key names, or env.key's result when there is none to read (no provider, a built-in one, no
    env_key, or one that is not a variable name)."""
    r = ctx.resolution
    p = r.provider
    env_key = p.env_key
    if not p.defined or r.unusable:
        return _key(Status.SKIP, Msg("no provider resolved", "未解析出提供方"), **facts)
    if p.builtin:
        facts["state"] = "builtin"
        said = (
            Msg(
                "built-in `{id}` provider: Codex signs its requests with AWS SigV4, no key",
                "内置提供方 `{id}`：Codex 用 AWS SigV4 为请求签名，不用密钥",
                id=p.id,
            )
            if p.id == BEDROCK
            else Msg(
                "built-in `{id}` provider: Codex uses its stored login, not a variable",
                "内置提供方 `{id}`：Codex 使用已保存的登录，不读环境变量",
                id=p.id,
            )
        )
        return _key(Status.SKIP, said, **facts)
    if env_key is None:
        facts["state"] = "no_env_key"
        status = (
            Status.PASS if facts["local"] or facts["bearer_token"] or facts["requires_openai_auth"] else Status.WARN
        )
        return _key(status, Msg("provider has no env_key", "提供方没有设置 env_key"), **facts)
    if not isinstance(env_key, str):
        facts["state"] = "wrong_type"
        return _key(Status.FAIL, Msg("env_key is not a string", "env_key 不是字符串"), **facts)
    if not VAR_NAME.match(env_key):
        facts["state"] = "not_a_name"
        # The value itself may be a pasted key: show only its fingerprint.
        facts["env_key_looks_like_key"] = bool(KEY_SHAPED.search(env_key.strip())) or len(env_key) >= 20
        facts["env_key"] = f"<{fingerprint(env_key)}>" if facts["env_key_looks_like_key"] else display_env_key(env_key)
        return _key(
            Status.FAIL,
            Msg("env_key is not a variable name", "env_key 不是环境变量名"),
            [env_key_line(str(facts["env_key"]), ctx.resolution.provider_field_said("env_key"))],
            **facts,
        )
    return env_key


def _source(ctx: CheckContext, env_key: str, value: str | None, facts: dict[str, Any], evidence: list[Msg]) -> None:
    """Where the variable's value comes from (the environment, or a .env file Codex loads over it) and what that file
    does to it, into `facts` and `evidence`."""
    r = ctx.resolution
    source = r.env_source(env_key)
    shell_value = r.shell_env.get(env_key)
    facts.update(
        source=source,
        from_dotenv=source != "environment",
        dotenv_path=r.show(r.dotenv.path) if r.dotenv is not None else None,
        shell_differs=bool(
            source != "environment" and shell_value is not None and shell_value.strip() and shell_value != value
        ),
        shell_fp=fingerprint(shell_value) if shell_value else None,
    )
    _dotenv_lost(r, env_key, value, facts, evidence)
    dotenv = r.dotenv
    facts["dotenv_unset_refs"] = (
        [shown_ref(n) for n in dotenv.unset_refs.get(env_key, ())]
        if dotenv is not None and source != "environment"
        else []
    )
    if dotenv is not None and source != "environment" and env_key in dotenv.substituted:
        facts["dotenv_line"] = dotenv.substituted[env_key]
    evidence += source_lines(env_key, facts)


def _dotenv_lost(r: Resolution, env_key: str, value: str | None, facts: dict[str, Any], evidence: list[Msg]) -> None:
    """A .env line meant to set the key that Codex's .env reader rejects: behind a byte-order mark, inside a quote
    that is never closed, or not `NAME=value`. Codex then goes on as if the line were not there. And the lines
    codexdoctor itself did not read to the end (past its caps)."""
    dotenv = r.dotenv
    facts["dotenv_bom"] = bool(dotenv is not None and dotenv.bom_name == env_key)
    facts["dotenv_capped"] = [{"name": n, "line": line} for n, line in (dotenv.capped.items() if dotenv else ())]
    facts["dotenv_stopped_at"] = dotenv.stopped_at if dotenv is not None else None
    lost = next(
        (u for u in (dotenv.unloaded if dotenv is not None else ()) if env_key in u.names and u.reason != "bom"), None
    )
    facts["dotenv_unloaded"] = {"line": lost.line, "reason": lost.reason} if lost and value is None else None
    evidence += dotenv_lines(env_key, facts, lost)


def _missing(ctx: CheckContext, env_key: str, value: str | None, facts: dict[str, Any], evidence: list[Msg]) -> None:
    """A variable unset or blank: the names it may be under instead, and the start-up files that set it."""
    facts["state"] = "missing" if value is None else "blank"
    facts["near_miss"] = near_miss_names(env_key, ctx.env)
    skipped: list[dict[str, str]] = []
    facts["rc_hits"] = find_in_rc_files(env_key, ctx.home, skipped)
    facts["rc_skipped"] = skipped
    evidence += missing_lines(env_key, value, ctx.env, facts)


def gateway_of_openai_key(r: Resolution, env: Mapping[str, str]) -> str | None:
    """The gateway $OPENAI_API_KEY belongs to, when the config or the environment says so, else None.

    `codex login --with-api-key` stores a key as an OpenAI login: Codex then sends it wherever the built-in provider
    goes. A key that a custom provider table reads (`env_key = "OPENAI_API_KEY"` with its own base_url), or that
    travels with an OPENAI_BASE_URL / openai_base_url pointing away from api.openai.com, is a gateway's key."""
    tables = r.merged.get("model_providers")
    if isinstance(tables, Mapping):
        for pid, table in tables.items():
            if (
                isinstance(table, Mapping)
                and table.get("env_key") == "OPENAI_API_KEY"
                and isinstance(table.get("base_url"), str)
                and not _is_openai(table["base_url"])
            ):
                return f"[model_providers.{pid}]"
    for where, value in (
        ("$OPENAI_BASE_URL", env.get("OPENAI_BASE_URL")),
        ("openai_base_url", r.merged.get("openai_base_url")),
    ):
        if isinstance(value, str) and value.strip() and not _is_openai(value):
            return f"{where} ({_host(value)})"
    return None


def _is_openai(url: str) -> bool:
    return _host(url) in ("api.openai.com", "")


def _host(url: str) -> str:
    try:
        return (urlsplit(url.strip()).hostname or "").lower()
    except ValueError:
        return ""


def check_auth(ctx: CheckContext) -> CheckResult:
    r = ctx.resolution
    p = r.provider
    if r.unusable:
        return _auth(Status.SKIP, Msg("config unusable", "配置不可用"))
    auth = read_auth_json(r.codex_home) if r.codex_home_problem is None else {"exists": False}
    stored = auth.pop("_stored", None)
    env_openai = ctx.env.get("OPENAI_API_KEY", "")
    facts = _auth_facts(ctx, auth, stored, env_openai)
    evidence = auth_lines(auth, facts, ctx.env)
    if p.id == "openai" and p.builtin:
        facts["logged_in"] = (
            auth["exists"] and not auth.get("error") and (auth.get("has_api_key") or auth.get("has_tokens"))
        )
    if auth.get("error"):
        return _auth(Status.WARN, Msg("auth.json unreadable", "auth.json 无法读取"), evidence, **facts)
    if p.id == "openai" and p.builtin and (builtin := _builtin_login(auth, facts, evidence)) is not None:
        return builtin
    if facts["custom_without_env_key"] and auth["exists"]:
        return _auth(
            Status.WARN,
            Msg("stored OpenAI login may reach a custom provider", "已保存的 OpenAI 登录可能被发给自定义提供方"),
            evidence,
            **facts,
        )
    if facts["requires_openai_auth"] and not auth["exists"]:
        return _auth(
            Status.FAIL,
            Msg("requires_openai_auth but no login stored", "设置了 requires_openai_auth，但没有已保存的登录"),
            evidence,
            **facts,
        )
    if p.id == "openai" and facts["env_differs_from_stored"]:
        return _auth(
            Status.WARN,
            Msg("stored key differs from $OPENAI_API_KEY", "已保存的密钥与 $OPENAI_API_KEY 不同"),
            evidence,
            **facts,
        )
    return _auth(Status.PASS, Msg("no interference", "无干扰"), evidence, **facts)


def _auth_facts(ctx: CheckContext, auth: dict[str, Any], stored: Any, env_openai: str) -> dict[str, Any]:
    """env.auth's facts: the stored login, the variables that stand in for one, and whose key $OPENAI_API_KEY is."""
    r = ctx.resolution
    p = r.provider
    facts: dict[str, Any] = {
        "provider": p.id,
        "builtin": p.builtin,
        "auth": auth,
        "auth_path": r.show(r.codex_home / "auth.json"),
        "openai_api_key_env": bool(env_openai.strip()),
        # `codex exec` (not the interactive CLI) authenticates the built-in provider with $CODEX_API_KEY: checked with
        # Codex 0.171.0 (crosscheck "auth: built-in, openai_base_url, CODEX_API_KEY" answered with no stored login).
        "codex_api_key_env": bool(ctx.env.get("CODEX_API_KEY", "").strip()),
        "env_differs_from_stored": bool(
            isinstance(stored, str) and env_openai.strip() and env_openai.strip() != stored.strip()
        ),
        "custom_without_env_key": (
            not p.builtin
            and p.defined
            and p.env_key is None
            and not isinstance(p.get("experimental_bearer_token"), str)
            and not _is_local(p.base_url)
        ),
        "requires_openai_auth": p.get("requires_openai_auth") is True and not p.builtin,
        # Whose key $OPENAI_API_KEY is: a gateway's key must never be stored as an OpenAI login (issue 28).
        "gateway_key": gateway_of_openai_key(r, ctx.env) if env_openai.strip() else None,
    }
    if facts["gateway_key"]:
        facts["openai_key_fp"] = fingerprint(env_openai)
        if facts["gateway_key"].startswith("[model_providers."):
            facts["gateway_provider"] = facts["gateway_key"][len("[model_providers.") : -1]
    return facts


def _builtin_login(auth: Mapping[str, Any], facts: dict[str, Any], evidence: list[Msg]) -> CheckResult | None:
    """The built-in OpenAI provider's result when its login decides it: none stored, or a ChatGPT sign-in."""
    if not facts["logged_in"] and facts["codex_api_key_env"]:
        return _auth(
            Status.WARN,
            Msg(
                "no stored login; $CODEX_API_KEY serves `codex exec` only",
                "没有已保存的登录；$CODEX_API_KEY 只供 `codex exec` 使用",
            ),
            evidence,
            **facts,
        )
    if not facts["logged_in"]:
        return _auth(
            Status.FAIL,
            Msg("no stored login for the built-in provider", "内置提供方没有已保存的登录"),
            evidence,
            **facts,
        )
    if not auth.get("has_api_key"):
        return _auth(
            Status.SKIP,
            Msg(
                "ChatGPT sign-in: Codex talks to the ChatGPT backend, which codexdoctor does not test",
                "ChatGPT 登录：Codex 与 ChatGPT 后端通信，codexdoctor 不测试它",
            ),
            evidence,
            **facts,
        )
    return None


CHECKS = (
    Check("env.key", "API key variable", check_key),
    Check("env.auth", "Stored login", check_auth),
)
