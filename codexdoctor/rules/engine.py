"""Applying the catalog: rule texts filled from check facts, in English or Chinese."""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from typing import Any

from codexdoctor.model import (
    NO_URL_IN_PASTE,
    CheckResult,
    Finding,
    Line,
    MarkedFormatter,
    Status,
    item_key,
    say,
    unmark_zh,
)
from codexdoctor.rules.api.path import path_params
from codexdoctor.rules.base import Loc, Rule, causes, settlers, shell_commands
from codexdoctor.rules.catalog import RULES
from codexdoctor.rules.cfg.provider import version_text
from codexdoctor.rules.ctx.window import first_request_params


class _Blank(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


# Facts that are English phrases a check wrote. A check says them in both languages in its `said`: under the fact's
# name for a fact of its own, and under model.item_key for one inside a list of items (a file's read error, a
# session's evidence), which a rule quotes item by item.
PHRASE_KEYS = (
    "source",
    "detail",
    "assumed_source",
    "malformed",
    "evidence",
    "base_url_where",
    "url",
    "read_error",
    "waited_for_alive",
)
# Phrases a rule itself makes of a fact (API010's "the body is …" for a body with no message of its own).
RULE_PHRASES = ("message",)


# How a sentence about "{url}" reads when the pasted error named none.
_NO_URL_EN = (
    ("POST {url}", "The request"),
    ("GET {url}", "The request"),
    ("The stream from {url}", "The stream"),
    (" ({url})", ""),
    ("{url} did not answer", "The request did not answer"),
)
_NO_URL_ZH = (
    ("POST {url} ", "请求"),
    ("POST {url}", "请求"),
    ("GET {url} ", "请求"),
    ("GET {url}", "请求"),
    ("来自 {url} 的流", "流"),
    ("（{url}）", ""),
    ("{url} 没有在时限内响应", "请求没有在时限内响应"),
)


# A remedy's first line that ends in a command after a colon ("Set it in this terminal: export K=…"): the command
# goes alone on the next line, so it pastes as it is (issue 29). Only commands a user runs in a shell.
_COMMAND_AFTER_COLON = re.compile(
    r"^(?P<prose>.*?[^:\s](?::|：))\s*(?P<cmd>(?:(?:export|set -gx|set -x|setx|unset|set -e|"
    r"Remove-Item|echo|printf|printenv|codex|codexdoctor|mkdir|npm|pip|source|\.|curl|"
    r"ollama)(?:\s|$)|\$env:|\[Environment\]|OLLAMA_CONTEXT_LENGTH=).*)$"
)


def command_apart(step: str) -> str:
    """ "Prose: command" becomes "Prose:" and the command on a line of its own (text indents it, markdown fences it).
    A line whose command is followed by more prose is left alone: the catalog writes those apart already."""
    first, sep, rest = step.partition("\n")
    m = _COMMAND_AFTER_COLON.match(first)
    if not m or "`" in m.group("cmd")[:1]:
        return step
    return m.group("prose") + "\n" + m.group("cmd") + (sep + rest if sep else "")


def fmt(template: str, values: Mapping[str, Any], lang: str = "en") -> str:
    url = values.get("url")
    if (url.en if isinstance(url, Loc) else url) == NO_URL_IN_PASTE:  # never "POST (no URL…) answered"
        for old, new in _NO_URL_ZH if lang == "zh" else _NO_URL_EN:
            template = template.replace(old, new)
    resolved = {k: (v.get(lang) if isinstance(v, Loc) else v) for k, v in values.items()}
    if isinstance(resolved.get("message"), str):
        resolved["message"] = resolved["message"].rstrip(" .。")  # templates end the sentence themselves
        if not resolved["message"].strip():  # a bare `401 Unauthorized` paste: never "answered 401: ."
            resolved["message"] = "（没有附带消息）" if lang == "zh" else "(no message)"
    if lang == "zh":  # no space between a value said in Chinese and the Chinese around it (model.fill_zh)
        return unmark_zh(_ZhProseFormatter().vformat(template, (), _Blank(resolved)))
    return _ProseFormatter().vformat(template, (), _Blank(resolved))


class _ProseFormatter(string.Formatter):
    """Numbers in prose get thousands separators (`{served}` -> 4,096); `{served:d}` keeps a config value bare
    (model_context_window = 4096); `{attempts:count:attempt}` writes "1 attempt" / "4 attempts"."""

    unknown = "unknown"  # an optional fact a check did not give (None): never `None` in a user's text (issue 40)

    def format_field(self, value: Any, format_spec: str) -> str:
        if value is None:
            return self.unknown
        if format_spec.startswith("count:") and isinstance(value, int):
            from codexdoctor.common.words import plural

            singular, _, many = format_spec[len("count:") :].partition("|")
            return plural(value, singular, many or None)
        if format_spec.startswith("count:"):
            return str(value)
        if not format_spec and isinstance(value, int) and not isinstance(value, bool):
            return f"{value:,}"
        return str(super().format_field(value, format_spec))


class _ZhProseFormatter(_ProseFormatter):
    """The same, each value marked as model.MarkedFormatter marks it (model.unmark_zh)."""

    unknown = "未知"

    def format_field(self, value: Any, format_spec: str) -> str:
        return MarkedFormatter().format_field(super().format_field(value, format_spec), "")


def _ms(value: Any) -> str | Loc:
    if not isinstance(value, (int, float)):
        return Loc("unknown", "未知")  # a time not measured: never `?` (issue 40)
    return f"{value / 1000:.1f} s" if value >= 1000 else f"{value:.0f} ms"


# The values the engine adds for every rule's texts, and the facts each is made from: a rule whose texts use one
# names those facts in its `reads` (tests/rules/test_contract.py). The shell and platform the runner stamps on every
# result go without saying.
DERIVED: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("example_set_cmd", "login_cmd", "codex_api_key_login_cmd", "unset_home_cmd", "set_home_cmd"), ()),
    "ca_cmd": ("ignored_ca_file",),
    "no_proxy_cmd": ("no_proxy_value",),
    "mkdir_cmd": ("codex_home",),
    "gateway_step": ("gateway_provider",),
    **dict.fromkeys(("set_cmd", "persist_cmd", "fp_cmd"), ("env_key",)),
    **dict.fromkeys(("strip_cmd", "strip_bearer_cmd"), ("env_key", "problems")),
    "rename_cmd": ("env_key", "near_miss"),
    "reload_cmd": ("rc_hits",),
    "baseline_text": ("baseline_ttft_ms",),
    "largest_ttft_text": ("baseline_ttft_ms", "largest_ttft_ms"),
    "longest_stall_text": ("baseline_ttft_ms", "longest_stall_ms"),
    "turns_text": ("baseline_ttft_ms", "turns_per_session"),
    "available_text": ("available",),
    "version_text": ("codex_version",),
    "first_request": ("first_request",),
    "first_text": ("first_request", "first_parts"),
    "min_usable_text": ("first_request", "server_request"),
    "room_text": ("first_request", "room", "first_counted"),
    "minimal_text": ("first_request", "minimal_kind"),
    "docs_step": ("first_request", "docs", "first_parts", "user_config"),
    "doubled_text": ("kind", "doubled_fix", "doubled"),
    "path_step": ("kind", "doubled_fix", "base_url_where"),
}


def derived(facts: Mapping[str, Any]) -> dict[str, Any]:
    """The DERIVED values these facts give (shell commands in the user's syntax, numbers in words, …)."""
    extra: dict[str, Any] = shell_commands(facts)
    if "baseline_ttft_ms" in facts:
        extra.update(
            baseline_text=_ms(facts.get("baseline_ttft_ms")),
            largest_ttft_text=_ms(facts.get("largest_ttft_ms")),
            longest_stall_text=_ms(facts.get("longest_stall_ms")),
            turns_text=str(facts["turns_per_session"]) if facts.get("turns_per_session") else Loc("few", "几"),
        )
    if "available" in facts:
        extra["available_text"] = ", ".join(facts["available"]) or Loc("none", "无")
    if "codex_version" in facts:
        extra["version_text"] = version_text(facts)
    if "first_request" in facts:
        extra.update(first_request_params(facts))
    if facts.get("kind") == "path_not_found":
        extra.update(path_params(facts))
    return extra


def evaluate(results: Iterable[CheckResult], rules: Iterable[Rule] = RULES, lang: str = "en") -> list[Finding]:
    """Apply the catalog to check results. Skipped and crashed checks fire nothing."""
    by_id = {r.id: r for r in results}
    findings: list[Finding] = []
    for rule in rules:
        res = by_id.get(rule.check)
        if res is None or res.status in (Status.SKIP, Status.CRASH):
            continue
        if any(
            by_id.get(cid) is not None
            and by_id[cid].status not in (Status.SKIP, Status.CRASH)
            and pred(by_id[cid].facts)
            for cid, pred in settlers(rule)
        ):
            continue
        text = rule.text(lang)
        said = {k: Loc(m.text("en"), m.text("zh")) for k, m in res.said.items()}
        for params in rule.when(res.facts):
            values = {**res.facts, **said, **derived(res.facts), **_items_said(params, said)}
            findings.append(
                Finding(
                    code=rule.code,
                    severity=rule.severity,
                    verdict=rule.verdict,
                    title=fmt(text.title, values, lang),
                    diagnosis=fmt(text.diagnosis, values, lang),
                    # A step whose whole text a parameter left empty is no step (CTX013 inside diagnose-error).
                    remedy=tuple(
                        command_apart(said)
                        for said in (fmt(step, values, lang) for step in text.remedy if _can_say(step, values))
                        if said.strip()
                    ),
                    # A finding about some of a check's items (a group of sessions) cites their evidence, not all of it.
                    checks=(res.id, *(c for c in rule.covers if c in by_id and by_id[c].status is Status.FAIL)),
                    evidence=tuple(_said_line(e, lang) for e in _evidence_for(res.evidence, params)),
                    references=rule.references,
                )
            )
    return fold(findings, rules, {r.id: r.facts for r in by_id.values()})


def _evidence_for(evidence: Iterable[Line], params: Mapping[str, Any]) -> tuple[Line | Loc, ...]:
    """The lines a finding cites: its own (`finding_evidence`), the check's lines about its one item (those whose
    English starts with `evidence_about`: one unknown key of 500 cites its line, not all 500), else all of the
    check's."""
    if params.get("finding_evidence"):
        return tuple(params["finding_evidence"])
    lines = tuple(evidence)
    about = params.get("evidence_about")
    if about:
        own = tuple(line for line in lines if str(line).startswith(about))
        return own or lines
    return lines


def _said_line(line: Line | Loc, lang: str) -> str:
    """An evidence line in the finding's language (a plain string is data, the same in every language)."""
    return line.get(lang) if isinstance(line, Loc) else say(line, lang)


def _can_say(step: str, values: Mapping[str, Any]) -> bool:
    """A step that ends in a command the facts cannot make (`{fp_cmd}` of a pasted 401 whose provider names no
    env_key: there is no variable to fingerprint) is no step: never a raw `{fp_cmd}` (issue 40)."""
    slots = {name for _, name, _, _ in string.Formatter().parse(step) if name}
    return all(name in values for name in slots if name in DERIVED and name.endswith("_cmd"))


def _items_said(params: Mapping[str, Any], said: Mapping[str, Loc]) -> dict[str, Any]:
    """A rule's parameters, a phrase from a list item (`read_error`, `evidence`) or one the rule made of a fact, in
    the words its check gave it."""
    out = dict(params)
    for key in PHRASE_KEYS + RULE_PHRASES:
        value = out.get(key)
        if isinstance(value, str) and item_key(key, value) in said:
            out[key] = said[item_key(key, value)]
    return out


def fold(findings: list[Finding], rules: Iterable[Rule], facts: Mapping[str, Mapping[str, Any]]) -> list[Finding]:
    """Put each finding that another one explains under it (the catalog's `explained_by`), so that the list is the
    causes, in the order to fix them. The cause takes the consequence's severity when that is worse (a warning that
    explains an error is the error's cause), and keeps its own verdict: the thing to change is the cause."""
    from dataclasses import replace

    by_code = {r.code: r for r in rules}
    fired = {f.code for f in findings}
    cause_of: dict[int, int] = {}
    for n, f in enumerate(findings):
        rule = by_code.get(f.code)
        for code, pred in causes(rule) if rule else ():
            if code in fired and code != f.code and pred(facts):
                cause_of[n] = next(i for i, g in enumerate(findings) if g.code == code)
                break
    # A cause that is itself explained by another is folded there too (one level is all the catalog needs).
    out = list(findings)
    for n, c in cause_of.items():
        while c in cause_of and cause_of[c] != n:
            c = cause_of[c]
        cause, consequence = out[c], findings[n]
        severity = max(cause.severity, consequence.severity, key=lambda s: s.rank)
        out[c] = replace(
            cause,
            severity=severity,
            explains=cause.explains + ((consequence.code, consequence.title),),
            checks=tuple(dict.fromkeys(cause.checks + consequence.checks)),
            evidence=tuple(dict.fromkeys(cause.evidence + consequence.evidence)),
        )
    return [f for n, f in enumerate(out) if n not in cause_of]
