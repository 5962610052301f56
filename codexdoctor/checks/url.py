"""URL checks: the base_url as written, before any request is sent."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from codexdoctor.checks.base import Check, CheckContext, is_loopback_host, result
from codexdoctor.codex import config as config_mod
from codexdoctor.model import CheckResult, Msg, Status

DOUBLED_SUFFIXES = ("/responses", "/chat/completions", "/completions")


_SECRET_PARAM = re.compile(
    r"(?:^|[-_])(?:api[-_]?key|key|token|access[-_]?token|secret|sig|signature|password|pass|"
    r"auth|code)$|^(?:apikey|accesstoken|x-api-key)$",
    re.I,
)


def analyse_base_url(raw: str) -> dict[str, Any]:
    """Every static problem with a base_url string, as facts."""
    # Codex drops leading whitespace but keeps trailing whitespace, which reaches the path as %20 (0.171.0).
    facts: dict[str, Any] = {
        "whitespace": raw != raw.rstrip(),
        "leading_whitespace": raw != raw.lstrip(),
        "malformed": None,
        "scheme": None,
        "host": None,
        "ends_v1": False,
        "query": False,
        "fragment": False,
        "doubled_path": None,
        "userinfo": False,
        "plain_http_remote": False,
        "trailing_slash": False,
        "suggested": None,
        "query_secrets": [],
    }
    url = raw.strip()
    try:
        parts = urlsplit(url)
        host = parts.hostname
        _ = parts.port  # accessing it raises ValueError on a bad port
    except ValueError as exc:
        facts["malformed"] = f"cannot be parsed ({exc})"
        return facts
    facts["scheme"], facts["host"] = parts.scheme, host
    if parts.scheme not in ("http", "https"):
        facts["malformed"] = (
            f'scheme is "{parts.scheme}", not http or https' if parts.scheme else "has no http:// or https://"
        )
        return facts
    if not host:
        facts["malformed"] = "has no host name"
        return facts
    path = parts.path.rstrip("/")
    facts["trailing_slash"] = parts.path.endswith("/") and path != ""
    facts["ends_v1"] = path.endswith("/v1")
    facts["query"] = bool(parts.query)
    # A credential in the query (`?api_key=…`): it travels in every request line, proxy log and history (issue 29).
    facts["query_secrets"] = [
        name for name, _ in parse_qsl(parts.query, keep_blank_values=True) if _SECRET_PARAM.search(name)
    ]
    facts["fragment"] = bool(parts.fragment)
    facts["userinfo"] = "@" in parts.netloc
    facts["plain_http_remote"] = parts.scheme == "http" and not is_loopback_host(host)
    for suffix in DOUBLED_SUFFIXES:
        if path.endswith(suffix):
            facts["doubled_path"] = suffix
            path = path[: -len(suffix)]
            break
    netloc = parts.netloc.rsplit("@", 1)[-1]
    suggested = f"{parts.scheme}://{netloc}{path}"
    if suggested != raw:
        facts["suggested"] = suggested
    return facts


def certain_base_url(raw: str) -> str | None:
    """The base_url `fix` writes without asking the network (query, fragment, doubled path, whitespace or user-info
    taken out), or None. The live checks test this same value (checks/asfixed.py), so `fix` and `fix --offline`
    never write different values for the line: online only adds what a live check proved on top of it."""
    analysis = analyse_base_url(raw)
    certain = (
        analysis["query"]
        or analysis["fragment"]
        or analysis["doubled_path"]
        or analysis["whitespace"]
        or analysis["userinfo"]
    )
    return analysis["suggested"] if certain and analysis["suggested"] and not analysis["malformed"] else None


UNSET = Msg("base_url unset", "未设置 base_url")


def _evidence(ctx: CheckContext, facts: dict[str, Any]) -> list[Msg]:
    """base_url as written and where, the URL Codex will call, and an $OPENAI_BASE_URL Codex no longer reads."""
    evidence = [
        Msg(
            'base_url = "{url}" ({origin})',
            'base_url = "{url}"（{origin}）',
            url=facts["shown"],
            origin=ctx.resolution.provider_field_said("base_url"),
        ),
        Msg("Codex will call POST {url}", "Codex 将调用 POST {url}", url=facts["request_url"]),
    ]
    if facts["ignored_openai_base_url"]:
        evidence.append(
            Msg(
                "$OPENAI_BASE_URL = {url}: not read by Codex since April 2026",
                "$OPENAI_BASE_URL = {url}：自 2026 年 4 月起 Codex 不再读取",
                url=facts["ignored_openai_base_url"],
            )
        )
    return evidence


def check_base_url(ctx: CheckContext) -> CheckResult:
    r = ctx.resolution
    p = r.provider
    if not p.defined or r.unusable:
        return result("url.base_url", "base_url", Status.SKIP, Msg("no provider resolved", "未解析出提供方"))
    raw = p.base_url
    where = r.provider_field_origin("base_url")
    if raw is None and not p.builtin:
        unset = Msg(
            "base_url unset ({origin})", "base_url 未设置（{origin}）", origin=r.provider_field_said("base_url")
        )
        return result("url.base_url", "base_url", Status.SKIP, UNSET, [unset])
    if not isinstance(raw, str):
        return result("url.base_url", "base_url", Status.SKIP, Msg("base_url is not a string", "base_url 不是字符串"))
    facts = analyse_base_url(raw)
    facts.update(
        where=where,
        shown=ctx.redactor(raw.strip()),
        request_url=ctx.redactor(p.request_url() or ""),
        provider=p.id,
        builtin=p.builtin,
        user_config=r.user_layer.label if r.user_layer else "~/.codex/config.toml",
    )
    # $OPENAI_BASE_URL set for the built-in provider, which this Codex no longer reads (openai/codex#16720).
    ignored = ctx.env.get("OPENAI_BASE_URL", "").strip()
    facts["ignored_openai_base_url"] = (
        ctx.redactor(ignored)
        if (
            ignored
            and p.id == "openai"
            and p.builtin
            and "openai_base_url" not in r.merged
            and ignored.rstrip("/") != config_mod.DEFAULT_OPENAI_BASE_URL
            and not config_mod.reads_openai_base_url_variable(r.codex_version)
        )
        else None
    )
    if facts["suggested"]:
        facts["suggested"] = ctx.redactor(facts["suggested"])
    evidence = _evidence(ctx, facts)
    facts["offline"] = ctx.offline  # a remedy that says "run it live" must not say so in a live run (issue 29)
    errors = (
        facts["query_secrets"]
        or facts["malformed"]
        or facts["whitespace"]
        or facts["query"]
        or facts["fragment"]
        or facts["doubled_path"]
        or facts["userinfo"]
    )
    # A /v1 ending is only a question (URL003) that the live check settles; it does not make the check itself warn.
    warnings = facts["plain_http_remote"] or facts["ignored_openai_base_url"]
    status = Status.FAIL if errors else Status.WARN if warnings else Status.PASS
    return result("url.base_url", "base_url", status, Msg("{url}", "{url}", url=facts["shown"]), evidence, **facts)


CHECKS = (Check("url.base_url", "base_url", check_base_url),)
