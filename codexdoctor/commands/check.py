"""`codexdoctor check`: every static check, then the live checks, the catalog over their results, the report."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace

import click

from codexdoctor.checks import STATIC_CHECKS, run_static
from codexdoctor.checks.base import CheckContext
from codexdoctor.commands.options import CheckOptions, make_context
from codexdoctor.commands.output import PublishOptions, publish
from codexdoctor.model import Msg, Report
from codexdoctor.report.build import build_report
from codexdoctor.rules import evaluate


def run_check(opts: CheckOptions) -> tuple[Report, CheckContext]:
    ctx = make_context(opts)
    results = run_static(ctx, STATIC_CHECKS)
    live_ran = False
    notes: list[str | Msg] = []  # live.run_live's notes are English still: the pattern table in i18n says them
    if opts.offline:
        notes.append(
            Msg(
                "Offline: no request was sent; the key, base_url reachability and model ID were not tested.",
                "离线模式：未发送任何请求；密钥、base_url 连通性和模型 ID 都未经测试。",
            )
        )
    else:
        from codexdoctor.checks import asfixed, live  # lazy: pulls in httpx

        # Issue 28: the live checks test the config as the certain fixes will leave it, so one run names everything.
        fixed = asfixed.assume_fixed(ctx, results)
        live_ctx, live_static = (fixed.ctx, fixed.static) if fixed else (ctx, results)
        live_results, live_notes = live.run_live(live_ctx, live_static)
        live_ran = any(r.status.value in ("pass", "warn", "fail") for r in live_results)
        if fixed is not None and live_ran:
            assumed = [en for en, _ in fixed.assumed]
            live_results = [replace(r, facts={**r.facts, "as_if_fixed": assumed}) for r in live_results]
            notes.append(fixed.note())
        results += live_results
        notes += live_notes
        ctx = replace(ctx, redactor=live_ctx.redactor)  # a key read from a start-up file is scrubbed everywhere
    findings = evaluate(results, lang=opts.lang)
    return build_report("check", ctx, results, findings, live_ran, notes, opts.lang), ctx


@dataclass(frozen=True)
class CheckCommandOptions:
    """`codexdoctor check`: the check to run and how its report is published."""

    check: CheckOptions
    publish: PublishOptions


def run(opts: CheckCommandOptions) -> None:
    """The command: progress lines on a terminal's stderr, then the report."""
    check = opts.check
    if sys.stderr is not None and sys.stderr.isatty():
        check = replace(check, extra={**check.extra, "progress": lambda line: click.echo(line, err=True)})
    report, ctx = run_check(check)
    publish(report, ctx.redactor, opts.publish)
