"""Assemble the Report: check results + findings + environment, and decide the verdict."""

from __future__ import annotations

import platform
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from codexdoctor import __version__
from codexdoctor.checks.base import CheckContext
from codexdoctor.codex.authfile import display_env_key
from codexdoctor.common.redact import fingerprint
from codexdoctor.common.untrusted import sanitize
from codexdoctor.common.words import plural
from codexdoctor.i18n import KIND_WORDS
from codexdoctor.model import (
    CheckResult,
    Finding,
    Msg,
    ProviderSummary,
    Report,
    Section,
    Severity,
    Status,
    Verdict,
    say,
)

SCHEMA_VERSION = "1"
# Fix the config before blaming the channel, and the channel before the context.
VERDICT_ORDER = (Verdict.CONFIG, Verdict.CHANNEL, Verdict.CONTEXT)
# Checks that read what happened before this run (Codex's session logs): their findings never outrank one this run
# found (docs/report-schema.md, "The verdict").
PAST_CHECKS = frozenset({"ctx.sessions"})
PROXY_VARS = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy")


def decide_verdict(
    findings: Iterable[Finding],
    checks: Iterable[CheckResult],
    live_ran: bool,
    warnings_decide: bool = False,
    offline: bool = True,
) -> tuple[Verdict, str]:
    """The verdict and its reason in English (verdict_and_reason has the reason in both languages)."""
    verdict, reason = verdict_and_reason(findings, checks, live_ran, warnings_decide, offline)
    return verdict, reason.text("en")


def verdict_and_reason(
    findings: Iterable[Finding],
    checks: Iterable[CheckResult],
    live_ran: bool,
    warnings_decide: bool = False,
    offline: bool = True,
) -> tuple[Verdict, Msg]:
    """`warnings_decide`: for a pasted error, a warning (a rate limit) still says which side failed.

    A crashed check is a bug in codexdoctor, and the reason says so whatever decided the verdict: the reason is in
    every format (a GitHub annotation line, a JUnit comment, the JSON report), so the crash never hides behind it."""
    checks = list(checks)
    verdict, reason = _verdict(list(findings), checks, live_ran, warnings_decide, offline)
    crashed = [c for c in checks if c.status is Status.CRASH]
    if not crashed:
        return verdict, reason
    if verdict in VERDICT_ORDER:  # errors decided it; the crash is said as well
        return verdict, Msg("{reason}; {crash}", "{reason}；{crash}", reason=reason, crash=crash_line(crashed))
    return Verdict.INCONCLUSIVE, crash_line(crashed)


def crash_line(crashed: Iterable[CheckResult]) -> Msg:
    """`codexdoctor bug: check net.reach crashed (AttributeError: …); please report it`, for the verdict reason."""
    crashed = list(crashed)
    ids = Msg.join([c.id for c in crashed])
    what = "; ".join(dict.fromkeys(c.summary.removeprefix("internal error: ") for c in crashed))
    return Msg(
        "codexdoctor bug: {noun} {ids} crashed ({what}); please report it",
        "codexdoctor 的缺陷：检查项 {ids} 崩溃了（{what}）；请报告这个问题",
        noun="check" if len(crashed) == 1 else "checks",
        ids=ids,
        what=what,
    )


def _count(n: int, severity: Severity, kind: Verdict, codes: Msg) -> Msg:
    """`2 errors of kind `channel`: API001, API004`; `2 个通道类错误：API001、API004`."""
    said = Msg.pair(f"`{kind.value}`", KIND_WORDS.get(kind.value, kind.value))  # the verdict line's word, not `channel`
    if severity is Severity.ERROR:
        return Msg(
            "{noun} of kind {kind}: {codes}",
            "{n:,} 个{kind}类错误：{codes}",
            noun=plural(n, "error"),
            n=n,
            kind=said,
            codes=codes,
        )
    return Msg(
        "{noun} of kind {kind}: {codes}",
        "{n:,} 个{kind}类警告：{codes}",
        noun=plural(n, "warning"),
        n=n,
        kind=said,
        codes=codes,
    )


def _verdict(
    findings: list[Finding], checks: list[CheckResult], live_ran: bool, warnings_decide: bool, offline: bool
) -> tuple[Verdict, Msg]:
    """What is wrong now decides; the session logs (what went wrong before) only when nothing now does."""
    errors = [f for f in findings if f.severity is Severity.ERROR]
    if not errors and warnings_decide:
        errors = [f for f in findings if f.severity is Severity.WARNING]
    now = [f for f in errors if not is_past(f)]
    past = [f for f in errors if is_past(f)]
    decided = _by_errors(now) or _unexplained(findings, checks, PAST_CHECKS)
    if decided is not None:
        if not past:
            return decided
        return decided[0], Msg("{now}; {past}", "{now}；{past}", now=decided[1], past=_past_counts(past))
    decided = _decided_by_sessions(past, checks) or _by_errors(past)
    if decided is not None:
        return decided
    return _without_errors(findings, checks, live_ran, offline)


def is_past(finding: Finding) -> bool:
    """A finding read from Codex's session logs alone: what failed before, not what this run found (issue 40)."""
    return bool(finding.checks) and all(c in PAST_CHECKS for c in finding.checks)


def _unexplained(
    findings: list[Finding], checks: list[CheckResult], past: frozenset[str] = frozenset()
) -> tuple[Verdict, Msg] | None:
    """A check that failed with no finding to explain it (leaving out the checks in `past`): never "ok", and when it is
    a check of this run, the present is unknown, so old logs do not decide it either."""
    cited = {cid for f in findings for cid in f.checks}
    # Each check by its title, said in the report's language: its id (`ctx.watch`) is the code's word, not the user's.
    from codexdoctor.i18n import check_title

    unexplained = [c for c in checks if c.status is Status.FAIL and c.id not in cited and c.id not in past]
    if not unexplained:
        return None
    titles = dict.fromkeys(Msg.pair(c.title, check_title(c.id, c.title, "zh")) for c in unexplained)
    return Verdict.INCONCLUSIVE, Msg(
        "a check failed without a known diagnosis: {ids}",
        "有检查项失败但没有已知诊断：{ids}",
        ids=Msg.join(list(titles)),
    )


def _past_counts(past: list[Finding]) -> Msg:
    """`the session logs add 1 `context` error (CTX014) and 1 `channel` error (CTX013)`, after what decided; in Chinese
    with the kinds' words (会话日志另有 1 个上下文类错误（CTX014）)."""
    parts = [
        Msg(
            "{noun} ({codes})",
            "{n:,} 个{kind}类{what}（{codes}）",
            noun=plural(len(hits), f"`{kind.value}` {hits[0].severity.value}"),
            n=len(hits),
            kind=KIND_WORDS.get(kind.value, f"`{kind.value}`"),
            what="错误" if hits[0].severity is Severity.ERROR else "警告",
            codes=_codes(hits),
        )
        for kind in (*VERDICT_ORDER, Verdict.INCONCLUSIVE)
        if (hits := [f for f in past if f.verdict is kind])
    ]
    return Msg("the session logs add {parts}", "会话日志另有 {parts}", parts=Msg.join(parts, " and ", "、"))


def _decided_by_sessions(past: list[Finding], checks: list[CheckResult]) -> tuple[Verdict, Msg] | None:
    """Sessions that failed both ways lead with the majority (or most recent) cause instead of the fixed order;
    only when nothing found now decides (an error found now always does, see _verdict). The reason ends with the
    most recent failure, so the codes after it are the findings about that session (issue 40 review: CTX012 and
    CTX026 were cited beside CTX014, about two other sessions)."""
    decider = next((c for c in checks if isinstance(c.facts.get("decision"), dict)), None)
    if decider is None or not past:
        return None
    decided = decider.facts["decision"]
    lead = Verdict(decided["verdict"])
    latest = decided.get("latest")
    known = {str(d.get("short_id")) for d in decider.facts.get("sessions") or () if d.get("short_id")}
    about = [f for f in past if isinstance(latest, str) and latest in _sessions_named(f, known | {latest})]
    codes = _codes(about or [f for f in past if f.verdict is lead])
    # The reason is a fact (the JSON report shows it) in English; the check gives it in both languages beside it.
    why = decider.said.get("decision_reason") or Msg.verbatim(str(decided["reason"]))
    return lead, Msg("{why}: {codes}", "{why}：{codes}", why=why, codes=codes)


def _sessions_named(finding: Finding, ids: set[str]) -> set[str]:
    """The sessions a finding is about, by the short ids its texts name (findings carry no ids of their own): those of
    its evidence lines, else those of its diagnosis (CTX014 names the sessions that broke elsewhere in its diagnosis,
    its own in its evidence)."""

    def named(texts: Iterable[str]) -> set[str]:
        return {i for i in ids if any(re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", t) for t in texts)}

    return named(finding.evidence) or named([finding.diagnosis])


def _codes(findings: Iterable[Finding]) -> Msg:
    """The findings' codes, each once: `URL004, URL006` in English, `URL004、URL006` in Chinese."""
    return Msg.join(list(dict.fromkeys(f.code for f in findings)))


def _by_errors(errors: list[Finding]) -> tuple[Verdict, Msg] | None:
    """The first kind in VERDICT_ORDER that has errors, with every error counted by kind, or None: no errors."""
    for verdict in VERDICT_ORDER:
        hits = [f for f in errors if f.verdict is verdict]
        if hits:
            # Every error the list shows is counted (issue 29: API001 was listed above and missing here).
            others = [f for f in errors if f.verdict is not verdict]
            parts = [_count(len(hits), hits[0].severity, verdict, _codes(hits))]
            parts += [
                _count(n, errors[0].severity, kind, _codes(f for f in others if f.verdict is kind))
                for kind in VERDICT_ORDER
                if (n := sum(1 for f in others if f.verdict is kind))
            ]
            return verdict, Msg.join(parts, "; also ", "；另有 ")
    return None


def _without_errors(
    findings: list[Finding], checks: list[CheckResult], live_ran: bool, offline: bool
) -> tuple[Verdict, Msg]:
    """No error decides: inconclusive while something failed unexplained or was not checked, else ok."""
    # A failed check that no rule explains must never read as "ok".
    unexplained = _unexplained(findings, checks)
    if unexplained is not None:
        return unexplained
    if checks and all(c.status is Status.SKIP for c in checks):
        first = checks[0].message or checks[0].summary
        return Verdict.INCONCLUSIVE, Msg("nothing could be checked: {why}", "没有可检查的内容：{why}", why=first)
    if not live_ran:
        if offline:
            return Verdict.INCONCLUSIVE, Msg(
                "static checks found no error; live checks were skipped (--offline), so the channel itself is untested",
                "静态检查没有发现错误；在线检查已跳过（--offline），通道本身未经测试",
            )
        return Verdict.INCONCLUSIVE, Msg(
            "static checks found no error; live checks were skipped (see the note), so the channel itself is untested",
            "静态检查没有发现错误；在线检查已跳过（见备注），通道本身未经测试",
        )
    pending = next((c for c in checks if c.facts.get("inconclusive_reason")), None)
    if pending is not None:  # every check that writes the fact gives its words beside it
        return Verdict.INCONCLUSIVE, pending.reason or Msg.verbatim(str(pending.facts["inconclusive_reason"]))
    canary = next((c for c in checks if c.id == "api.canary"), None)
    if canary is not None and canary.facts.get("skipped"):
        return Verdict.INCONCLUSIVE, Msg(
            "no error found, but the canary was skipped (--no-canary): the key and model "
            "are not proven by the request Codex sends",
            "没有发现错误，但跳过了探测请求（--no-canary）：密钥和模型未经 Codex 实际请求的验证",
        )
    window = next((c for c in checks if c.id == "ctx.window"), None)
    if (
        window is not None
        and window.facts.get("first_fit") is True
        and window.facts.get("unpublished")
        and not window.facts.get("sessions_window")  # the logs show it (issue 40 review)
    ):
        return Verdict.OK, Msg(
            "no errors; the provider does not publish its window: Codex's first request fits, "
            "the room left for a session is unknown (codexdoctor probe measures it)",
            "没有错误；提供方没有公布窗口：Codex 的第一个请求放得下，会话还剩多少空间未知（codexdoctor probe 可以测出来）",
        )
    return Verdict.OK, Msg("no errors", "没有错误")


def provider_summary(ctx: CheckContext) -> ProviderSummary:
    r = ctx.resolution
    p = r.provider
    key = ctx.key_value()
    base = p.base_url if p.base_url is not None else None
    env_key = display_env_key(p.env_key) if isinstance(p.env_key, str) else None
    said: dict[str, Msg] = {}
    if base is None:
        said["base_url"] = Msg("(unset: https://api.openai.com/v1)", "（未设置：Codex 使用 https://api.openai.com/v1）")
    if r.model is None:
        said["model"] = Msg("(Codex default)", "（Codex 默认值）")
    if key:
        said["key"] = Msg(
            "set, {n} chars, sha256:{digest}",
            "已设置，{n} 个字符，sha256:{digest}",
            n=len(key),
            digest=fingerprint(key).rsplit(":", 1)[1],
        )
    else:
        said["key"] = Msg("unset", "未设置")
    return ProviderSummary(
        id=p.id,
        name=str(p.get("name") or p.id),
        builtin=p.builtin,
        base_url=ctx.redactor(str(base)) if base is not None else str(said["base_url"]),
        request_url=ctx.redactor(p.request_url() or "(unknown)"),
        wire_api=str(p.wire_api),
        # A blank model is shown as the empty string it is (issue 40: "Model:   wire_api: responses" read as a typo).
        model=(ctx.redactor(str(r.model)) if str(r.model).strip() else f'"{r.model}"')
        if r.model is not None
        else str(said["model"]),
        env_key=env_key,
        key=str(said["key"]),
        config_path=r.user_layer.label if r.user_layer else None,
        said=said,
    )


def environment_summary(ctx: CheckContext, proxy_used: bool | None = None) -> dict[str, Any]:
    env = ctx.env
    proxy = next((v for v in PROXY_VARS if env.get(v)), None)
    return {
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "codexdoctor": __version__,
        "codex": ".".join(map(str, ctx.codex_version)) if ctx.codex_version else None,
        "codex_home": ctx.resolution.show(ctx.resolution.codex_home),
        "proxy": proxy_used if proxy_used is not None else bool(proxy),
        "proxy_variable": proxy,
        "offline": ctx.offline,
        "platform": ctx.shell.platform,
        "shell": ctx.shell.name,
    }


def build_report(
    command: str,
    ctx: CheckContext,
    checks: list[CheckResult],
    findings: list[Finding],
    live_ran: bool,
    notes: Iterable[str | Msg] = (),
    lang: str = "en",
    environment: Mapping[str, Any] | None = None,
    sections: Iterable[Section] = (),
    show_provider: bool = True,
    warnings_decide: bool = False,
) -> Report:
    order = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
    findings = sorted(findings, key=lambda f: (order[f.severity], f.code))
    verdict, reason = verdict_and_reason(findings, checks, live_ran, warnings_decide, offline=ctx.offline)
    findings = _verdict_first(findings, verdict, order)
    checks, texts, said = localize_texts(checks, notes, reason, lang)
    return clean_report(
        Report(
            schema_version=SCHEMA_VERSION,
            tool_version=__version__,
            command=command,
            verdict=verdict,
            verdict_reason=said,
            checks=tuple(checks),
            findings=tuple(findings),
            environment=dict(environment or environment_summary(ctx)),
            provider=provider_summary(ctx) if show_provider and ctx.resolution.provider.defined else None,
            notes=tuple(texts),
            lang=lang,
            sections=tuple(sections),
        ),
        ctx.redactor,
    )


def _cleaners(
    redact: Callable[[str], str],
) -> tuple[Callable[..., Any], Callable[..., tuple[Any, ...]]]:
    """One text and many, redacted and stripped of controls. Findings cite their check's evidence, so one line can
    appear in hundreds of findings (500 unknown keys): each distinct text is redacted once."""
    seen: dict[tuple[str, bool], str] = {}

    def one(text: Any, newlines: bool = False) -> Any:
        if not isinstance(text, str):
            return text
        done = seen.get((text, newlines))
        if done is None:
            done = seen[(text, newlines)] = sanitize(redact(text), newlines)
        return done

    def many(texts: Iterable[Any], newlines: bool = False) -> tuple[Any, ...]:
        return tuple(one(t, newlines) for t in texts)

    return one, many


def _verdict_first(findings: list[Finding], verdict: Verdict, order: Mapping[Severity, int]) -> list[Finding]:
    """Within a severity, what this run found before what the session logs tell of the past (issue 40 review: CTX014
    from old logs listed above the AUTH001 the provider answered now), then the findings of the verdict's kind, then
    the other kinds in VERDICT_ORDER (a CTX error listed above the MODEL001 that decided "CHANNEL")."""
    kinds = {v: i + 1 for i, v in enumerate(VERDICT_ORDER)}

    def rank(f: Finding) -> int:
        return 0 if f.verdict is verdict else kinds.get(f.verdict, len(kinds) + 1)

    return sorted(findings, key=lambda f: (order[f.severity], is_past(f), rank(f), f.code))


def clean_report(report: Report, redact: Callable[[str], str]) -> Report:
    """The one boundary where outside text enters what renderers see: every string the report shows is redacted
    whole (before a renderer wraps or cuts it) and stripped of terminal controls; facts, which only the JSON report
    shows (whole, and redacted again as it is written), are stripped of controls.

    Line breaks stay only in the texts whose formats lay out lines (a diagnosis, a remedy, a section's lines)."""
    from dataclasses import replace

    one, many = _cleaners(redact)

    checks = tuple(
        replace(c, title=one(c.title), summary=one(c.summary), evidence=many(c.evidence), facts=_controls_out(c.facts))
        for c in report.checks
    )
    findings = tuple(
        replace(
            f,
            title=one(f.title),
            diagnosis=one(f.diagnosis, True),
            remedy=many(f.remedy, True),
            evidence=many(f.evidence),
            references=many(f.references),
        )
        for f in report.findings
    )
    sections = tuple(
        replace(
            s,
            title=one(s.title),
            headers=many(s.headers),
            rows=tuple(many(r) for r in s.rows),
            lines=many(s.lines, True),
            chart_x=one(s.chart_x),
            chart_y=one(s.chart_y),
        )
        for s in report.sections
    )
    provider = report.provider
    if provider is not None:
        provider = replace(provider, **{k: one(v) for k, v in provider.__dict__.items() if isinstance(v, str)})
    return replace(
        report,
        verdict_reason=one(report.verdict_reason),
        checks=checks,
        findings=findings,
        sections=sections,
        provider=provider,
        notes=many(report.notes, True),
        environment=_controls_out(report.environment),
    )


def _controls_out(value: Any) -> Any:
    """A facts tree with every string's terminal controls removed (line breaks kept: JSON escapes them)."""
    if isinstance(value, str):
        return sanitize(value, newlines=True)
    if isinstance(value, Mapping):
        return {k: _controls_out(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_controls_out(v) for v in value)
    return value


def localize_texts(
    checks: Iterable[CheckResult], notes: Iterable[str | Msg], reason: Msg, lang: str
) -> tuple[list[CheckResult], list[str], str]:
    """Check titles, summaries and evidence lines, notes and the verdict reason in the report's language: each a Msg,
    said in its own words (a plain string is a value, the same in every language). The report holds them said: the
    renderers and the JSON report show strings."""
    from dataclasses import replace

    def lines(c: CheckResult) -> tuple[str, ...]:
        return tuple(say(e, lang) for e in c.evidence)

    if lang == "en":
        return [replace(c, evidence=lines(c)) for c in checks], [say(n, lang) for n in notes], reason.text(lang)

    from codexdoctor.i18n import check_title

    checks = [
        replace(c, title=check_title(c.id, c.title, lang), summary=say(c.message or c.summary, lang), evidence=lines(c))
        for c in checks
    ]
    return checks, [say(n, lang) for n in notes], reason.text(lang)


EXIT_INTERNAL = 3  # the CLI's code for a bug in codexdoctor (commands/output.py)


def exit_code(report: Report, fail_on: str) -> int:
    """3 when a check crashed: a bug in codexdoctor, which CI must notice whatever --fail-on says (a crash is no
    finding). Else 0 when nothing reaches --fail-on, 1 when something does. Usage errors (2) are the CLI's."""
    if any(c.status is Status.CRASH for c in report.checks):
        return EXIT_INTERNAL
    if fail_on == "never":
        return 0
    threshold = Severity.ERROR.rank if fail_on == "error" else Severity.WARNING.rank
    return 1 if any(f.severity.rank >= threshold for f in report.findings) else 0
