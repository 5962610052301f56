"""GitHub Actions workflow commands: one annotation per finding, then a one-line verdict.

The markdown report goes to $GITHUB_STEP_SUMMARY (the CLI appends it); this renderer only
produces stdout, correctly escaped per the workflow-command rules.
"""

from __future__ import annotations

from codexdoctor.i18n import ui
from codexdoctor.model import Report, Severity
from codexdoctor.report.render.options import RenderOptions

LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: Report, opts: RenderOptions) -> str:
    lines = []
    for f in report.findings:
        explains = "".join(f"\n{ui('explains', report.lang)}: {code} {title}" for code, title in f.explains)
        message = f.diagnosis + explains + "\n" + "\n".join(f"{i}. {step}" for i, step in enumerate(f.remedy, 1))
        lines.append(f"::{LEVEL[f.severity]} title={escape_property(f'{f.code} {f.title}')}::{escape_data(message)}")
    lines.append(
        f"codexdoctor {report.command}: {ui('verdict', report.lang)} {report.verdict.value} - {report.verdict_reason}"
    )
    return "\n".join(lines) + "\n"
