"""Terminal checklist in the style of `flutter doctor`: one line per check, then findings, then the verdict."""

from __future__ import annotations

import unicodedata

from codexdoctor.i18n import localize, ui
from codexdoctor.model import Report, Section, Severity, Status, Verdict
from codexdoctor.render import RenderOptions
from codexdoctor.render.chart import scatter

UNICODE = {Status.PASS: "✓", Status.WARN: "!", Status.FAIL: "✗", Status.SKIP: "-", Status.CRASH: "‼"}
ASCII = {Status.PASS: "+", Status.WARN: "!", Status.FAIL: "x", Status.SKIP: "-", Status.CRASH: "#"}
SEVERITY_STATUS = {Severity.ERROR: Status.FAIL, Severity.WARNING: Status.WARN, Severity.INFO: Status.SKIP}
COLORS = {Status.PASS: "32", Status.WARN: "33", Status.FAIL: "31", Status.SKIP: "2", Status.CRASH: "35"}
VERDICT_COLORS = {Verdict.OK: "32", Verdict.INCONCLUSIVE: "33"}


def _paint(text: str, code: str, opts: RenderOptions) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if opts.color else text


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())


def display_width(text: str) -> int:
    """Terminal cells: East Asian wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def _pad(text: str, width: int, right: bool) -> str:
    gap = " " * max(0, width - display_width(text))
    return gap + text if right else text + gap


def table_lines(headers: tuple[str, ...], rows: tuple[tuple, ...]) -> list[str]:
    cells = [list(map(str, headers))] + [[str(c) for c in row] for row in rows]
    widths = [max(display_width(r[i]) for r in cells) for i in range(len(headers))]
    fmt = lambda r: "  ".join(_pad(c, w, c[:1].isdigit()) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    return [fmt(cells[0]), "  ".join("-" * w for w in widths)] + [fmt(r) for r in cells[1:]]


def render_section(section: Section, opts: RenderOptions) -> list[str]:
    out = [f"{section.title}:"]
    if section.headers:
        out += ["  " + line for line in table_lines(section.headers, section.rows)]
    if section.chart:
        out.append("")
        out += ["  " + line for line in scatter(section.chart, section.chart_x, section.chart_y, ascii_only=opts.ascii)]
    if section.lines:
        out.append("")
        out += ["  " + line for line in section.lines]
    return out


def render(report: Report, opts: RenderOptions) -> str:
    symbols = ASCII if opts.ascii else UNICODE
    arrow = "->" if opts.ascii else "→"
    lang = report.lang
    t = lambda key, **kw: ui(key, lang, **kw)  # noqa: E731
    out: list[str] = []
    p = report.provider
    if p is not None:
        out.append(f"{t('provider')}: {p.id} ({t('builtin') if p.builtin else t('custom')})  {arrow} POST {p.request_url}")
        shown_key = localize(p.key, lang)
        key = f"${p.env_key} {shown_key}" if p.env_key else shown_key
        out.append(f"{t('model')}: {p.model}   wire_api: {p.wire_api}   {t('key')}: {key}")
        out.append("")
    for check in report.checks:
        mark = _paint(f"[{symbols[check.status]}]", COLORS[check.status], opts)
        out.append(f"{mark} {check.title}: {check.summary}")
        if opts.verbose:
            for line in check.evidence:
                out.append(f"    {line}")
            if check.duration_ms is not None:
                out.append(f"    ({check.duration_ms:.0f} ms)")
    for section in report.sections:
        out.append("")
        out.extend(render_section(section, opts))
    if report.findings:
        out.append("")
        out.append(f"{t('findings')}:")
        for f in report.findings:
            status = SEVERITY_STATUS[f.severity]
            mark = _paint(symbols[status], COLORS[status], opts)
            out.append(f"{mark} {f.code} {f.title} [{t('sev_' + f.severity.value)}]")
            out.append(_indent(f.diagnosis, "    "))
            for number, step in enumerate(f.remedy, 1):
                first, *rest = step.splitlines() or [""]
                out.append(f"    {number}. {first}")
                for line in rest:
                    out.append(f"         {line}")
            if opts.verbose:
                out.append(f"    {t('evidence')} ({', '.join(f.checks)}):")
                for line in f.evidence:
                    out.append(f"      {line}")
    if report.notes:
        out.append("")
        out.extend(f"{t('note')}: {n}" for n in report.notes)
    out.append("")
    verdict = _paint(t("verdict_" + report.verdict.value), VERDICT_COLORS.get(report.verdict, "31;1"), opts)
    if lang != "en":
        verdict += f" ({report.verdict.value})"
    out.append(f"{t('verdict')}: {verdict} {'-' if opts.ascii else '—'} {report.verdict_reason}")
    if report.findings and not opts.verbose:
        out.append(t("hint_verbose"))
    return "\n".join(out) + "\n"
