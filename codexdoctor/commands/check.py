"""`codexdoctor check`: every static check, then the live checks, the catalog over their results, the report."""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from codexdoctor.checks import STATIC_CHECKS, run_static
from codexdoctor.checks.base import CheckContext
from codexdoctor.commands.options import CheckOptions, make_context
from codexdoctor.commands.output import publish
from codexdoctor.model import Report
from codexdoctor.report.build import build_report
from codexdoctor.rules import evaluate


def run_check(opts: CheckOptions) -> tuple[Report, CheckContext]:
    ctx = make_context(opts)
    results = run_static(ctx, STATIC_CHECKS)
    live_ran = False
    notes: list[str] = []
    if opts.offline:
        notes.append("Offline: no request was sent; the key, base_url reachability and model ID were not tested.")
    else:
        from codexdoctor.checks import live  # lazy: pulls in httpx

        live_results, live_notes = live.run_live(ctx, results)
        results += live_results
        notes += live_notes
        live_ran = any(r.status.value in ("pass", "warn", "fail") for r in live_results)
    findings = evaluate(results, lang=opts.lang)
    return build_report("check", ctx, results, findings, live_ran, notes, opts.lang), ctx


def run(opts: CheckOptions, fmt, output, fail_on, verbose, no_color) -> None:
    """The command: progress lines on a terminal's stderr, then the report."""
    if sys.stderr is not None and sys.stderr.isatty():
        opts = replace(opts, extra={**opts.extra, "progress": lambda line: click.echo(line, err=True)})
    report, ctx = run_check(opts)
    publish(report, ctx.redactor, fmt, output, fail_on, verbose, no_color)
