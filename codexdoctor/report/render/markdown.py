"""Ticket-ready Markdown: verdict first, provider, findings with remedies, evidence folded away."""

from __future__ import annotations

import re

from codexdoctor.i18n import ui
from codexdoctor.model import Finding, Report, Section, Severity, Status, say
from codexdoctor.report.render.chart import scatter
from codexdoctor.report.render.options import RenderOptions

MARK = {Status.PASS: "✅", Status.WARN: "⚠️", Status.FAIL: "❌", Status.SKIP: "➖", Status.CRASH: "💥"}
SEV = {Severity.ERROR: "❌", Severity.WARNING: "⚠️", Severity.INFO: "ℹ️"}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(report: Report, opts: RenderOptions) -> str:
    lang = report.lang

    def t(key: str, **kw: object) -> str:
        return ui(key, lang, **kw)

    colon = "：" if lang == "zh" else ": "  # one colon style in Chinese, full-width (issue 40 review)
    # In Chinese the verdict in words, as the text report's verdict line says it, its value beside it.
    verdict = f"{t('verdict_' + report.verdict.value)}（`{report.verdict.value}`）" if lang == "zh" else ""
    out = [
        f"# {t('report_title', command=report.command)}",
        "",
        f"**{t('verdict')}{colon}{verdict or '`' + report.verdict.value + '`'}** — {report.verdict_reason}",
        "",
    ]
    env = report.environment
    out += [
        f"codexdoctor {env.get('codexdoctor')} · Codex {env.get('codex') or t('not_found')} · {env.get('os')} · "
        f"Python {env.get('python')} · {t('proxy')}{colon}{t('yes') if env.get('proxy') else t('no')} · "
        f"CODEX_HOME `{env.get('codex_home')}`",
        "",
    ]
    out += _provider_lines(report)
    if report.findings:
        out.append(f"## {t('findings')}")
        out.append("")
        for f in report.findings:
            out += _finding_lines(f, lang)
    for section in report.sections:
        out += _section_lines(section)
    out += _check_lines(report)
    if report.notes:
        out += [f"> {n}" for n in report.notes] + [""]
    return "\n".join(out)


def _provider_lines(report: Report) -> list[str]:
    """The provider as one table row: id, request URL, model, wire_api, key."""
    p = report.provider
    if p is None:
        return []
    lang = report.lang

    def t(key: str) -> str:
        return ui(key, lang)

    return [
        f"| {t('provider')} | {t('request_url')} | {t('model')} | wire_api | {t('key')} |",
        "|---|---|---|---|---|",
        f"| `{p.id}`{_bracketed(t('builtin') if p.builtin else t('custom'), lang)} | `{p.request_url}` | "
        f"`{_cell(p.model)}` | "
        f"`{p.wire_api}` | {('`$' + p.env_key + '` ') if p.env_key else ''}{p.shown('key', lang)} |",
        "",
    ]


def _bracketed(text: str, lang: str) -> str:
    """` (custom)`; in Chinese `（自定义）`, full-width as every other bracket there (no space before it)."""
    return f"（{text}）" if lang == "zh" else f" ({text})"


def _finding_lines(f: Finding, lang: str) -> list[str]:
    """A finding: its heading, diagnosis, what it explains, numbered remedies (a snippet fenced), evidence folded."""
    out = [f"### {SEV[f.severity]} {ui('sev_' + f.severity.value, lang)} `{f.code}` {f.title}", "", f.diagnosis, ""]
    if f.explains:
        sep = ("：", "；") if lang == "zh" else (": ", "; ")
        out.append(f"{ui('explains', lang)}{sep[0]}" + sep[1].join(f"`{code}` {title}" for code, title in f.explains))
        out.append("")
    for number, step in enumerate(f.remedy, 1):
        if "\n" in step:
            first, rest = step.split("\n", 1)
            out.append(f"{number}. {first}")
            out.append("   ```" + ("toml" if _is_toml(rest) else "sh"))
            out.extend("   " + line for line in rest.splitlines())
            out.append("   ```")
        else:
            out.append(f"{number}. {step}")
    if f.evidence:
        out += ["", f"<details><summary>{ui('evidence_title', lang)}</summary>", "", "```"]
        out += list(f.evidence)
        out += ["```", "", "</details>"]
    out.append("")
    return out


def _section_lines(section: Section) -> list[str]:
    """A section: its table, its chart (fenced, ASCII), its lines as a list."""
    out = [f"## {section.title}", ""]
    if section.headers:
        out.append("| " + " | ".join(section.headers) + " |")
        out.append("|" + "---|" * len(section.headers))
        out += ["| " + " | ".join(_cell(str(c)) for c in row) + " |" for row in section.rows]
        out.append("")
    if section.chart:
        out += ["```"] + scatter(section.chart, section.chart_x, section.chart_y, ascii_only=True) + ["```", ""]
    if section.lines:
        out += [f"- {line}" for line in section.lines] + [""]
    return out


def _check_lines(report: Report) -> list[str]:
    """Every check as a table row, then the evidence of all of them, folded."""
    lang = report.lang
    out = [f"## {ui('checks', lang)}", "", f"| | {ui('check', lang)} | {ui('result', lang)} |", "|---|---|---|"]
    out += [f"| {MARK[c.status]} | {c.title} | {_cell(c.summary)} |" for c in report.checks]
    out.append("")
    detailed = [c for c in report.checks if c.evidence]
    if detailed:
        out += [f"<details><summary>{ui('evidence_all', lang)}</summary>", "", "```"]
        for c in detailed:
            out.append(f"{MARK[c.status]} {c.title}")  # the row's own words, never the internal id (issue 29)
            out += [f"  {say(line, lang)}" for line in c.evidence]
        out += ["```", "", "</details>", ""]
    return out


_TOML_LINE = re.compile(r"^\s*(?:\[[^\]]+\]|[A-Za-z0-9_.\"-]+\s*=\s*.+|#.*)?\s*$")


def _is_toml(snippet: str) -> bool:
    """A config snippet is fenced as TOML; a command (a shell line) as sh."""
    lines = [line for line in snippet.splitlines() if line.strip()]
    return (
        bool(lines)
        and all(_TOML_LINE.match(line) for line in lines)
        and not any(line.lstrip().startswith(("export ", "set ", "$env:", "setx ")) for line in lines)
    )
