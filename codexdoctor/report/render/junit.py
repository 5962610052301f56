"""JUnit XML: one test case per check, grouped by family; findings carried in the failure body.

GitLab shows the failure body, not always the message attribute, so the body holds code, diagnosis,
remedy and evidence. Warnings fail a test case only when --fail-on warning asked for it.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from codexdoctor.i18n import ui
from codexdoctor.model import CheckResult, Finding, Line, Report, Severity, Status, say
from codexdoctor.report.render.options import RenderOptions


def _body(findings: list[Finding], evidence: tuple[Line, ...], lang: str = "en") -> str:
    parts = []
    for f in findings:
        parts.append(f"{f.code} [{ui('sev_' + f.severity.value, lang)}] {f.title}\n{f.diagnosis}")
        parts += [f"  {ui('explains', lang)}: {code} {title}" for code, title in f.explains]
        parts += [f"  {i}. {step}" for i, step in enumerate(f.remedy, 1)]
    if evidence:
        parts.append(ui("evidence_title", lang) + ":")
        parts += [f"  {say(line, lang)}" for line in evidence]
    return "\n".join(parts)


def render(report: Report, opts: RenderOptions) -> str:
    threshold = {"error": Severity.ERROR.rank, "warning": Severity.WARNING.rank, "never": 99}[opts.fail_on]
    families: dict[str, list[CheckResult]] = {}
    for check in report.checks:
        families.setdefault(check.id.split(".", 1)[0], []).append(check)
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    suites = []
    for family, checks in families.items():
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        cases = []
        for check in checks:
            counts["tests"] += 1
            findings = [f for f in report.findings if check.id in f.checks]
            failing = [f for f in findings if f.severity.rank >= threshold]
            attrs = f"classname={quoteattr('codexdoctor.' + family)} name={quoteattr(f'{check.id}: {check.title}')}"
            if check.duration_ms is not None:
                attrs += f' time="{check.duration_ms / 1000:.3f}"'
            inner = ""
            if check.status is Status.CRASH:
                counts["errors"] += 1
                inner = f'<error message={quoteattr(check.summary)} type="crash">{escape(check.summary)}</error>'
            elif failing:
                counts["failures"] += 1
                first = failing[0]
                inner = (
                    f"<failure message={quoteattr(f'{first.code} {first.title}')} type={quoteattr(first.code)}>"
                    f"{escape(_body(findings, check.evidence, report.lang))}</failure>"
                )
            elif check.status is Status.SKIP:
                counts["skipped"] += 1
                inner = f"<skipped message={quoteattr(check.summary)}/>"
            elif findings:
                inner = f"<system-out>{escape(_body(findings, check.evidence, report.lang))}</system-out>"
            cases.append(f"    <testcase {attrs}>{inner}</testcase>" if inner else f"    <testcase {attrs}/>")
        for key in totals:
            totals[key] += counts[key]
        suites.append(
            f"  <testsuite name={quoteattr('codexdoctor.' + family)} "
            + " ".join(f'{k}="{v}"' for k, v in counts.items())
            + ">\n"
            + "\n".join(cases)
            + "\n  </testsuite>"
        )
    head = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name={quoteattr("codexdoctor " + report.command)} '
        + " ".join(f'{k}="{v}"' for k, v in totals.items())
        + ">"
    )
    props = f"  <!-- verdict: {escape(report.verdict.value)}: {escape(report.verdict_reason).replace('--', '- -')} -->"
    return "\n".join([head, props, *suites, "</testsuites>"]) + "\n"
