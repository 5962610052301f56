"""`codexdoctor fix`: check, show the certain edits as a diff, apply the chosen ones (backup, atomic write), check
again."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, replace

import click

from codexdoctor.codex import secrets as secrets_mod
from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.commands.output import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
from codexdoctor.common.untrusted import sanitize
from codexdoctor.i18n import ui
from codexdoctor.model import Report
from codexdoctor.report import fixes as fix_mod
from codexdoctor.report.build import exit_code


def _show(text: str, err: bool = False) -> None:
    """Every line `fix` prints, fitted to the terminal (issue 29): remedies, edits, the diff."""
    from codexdoctor.commands.output import terminal_width
    from codexdoctor.report.render.text import fit_lines

    click.echo("\n".join(fit_lines(text.split("\n"), terminal_width(), "    ")), err=err)


@dataclass(frozen=True)
class FixOptions:
    """`codexdoctor fix`: the check run before and after the edits, and which edits to make, how."""

    check: CheckOptions
    yes: bool = False  # apply every edit without asking
    dry_run: bool = False  # show the diff, change nothing
    only: tuple[str, ...] = ()  # only these finding codes
    fail_on: str = "error"  # the findings left after the fix that make the exit code 1


def run(opts: FixOptions) -> None:
    """Every line the user reads goes through the run's redactor; nothing is written without a diff shown first."""
    lang, only, fail_on = opts.check.lang, opts.only, opts.fail_on
    before, ctx = run_check(opts.check)
    plan = fix_mod.build_plan(before, ctx, only)

    def redact(text: str) -> str:
        # Config text and remedies are shown as they will be written: redacted, no terminal control left in them.
        return sanitize(ctx.redactor(text), newlines=True)

    def say(key: str, **values: object) -> str:
        return redact(fix_mod.say(key, lang, **values))

    def codes(report: Report) -> str:
        return ", ".join(f.code for f in report.findings) or fix_mod.say("none", lang)

    def verdict(report: Report) -> str:
        value = report.verdict.value
        return f"{ui('verdict_' + value, lang)} ({value})" if lang == "zh" else value

    _show(say("before", verdict=verdict(before), codes=codes(before)))
    for note in plan.skipped:
        _show(say("skipped", note=note.get(lang)))
    for finding in plan.commands:
        _show(say("command", code=finding.code, title=finding.title))
        for number, step in enumerate(finding.remedy, 1):
            first, *rest = step.split("\n")
            _show(redact("\n".join([f"  {number}. {first}", *(f"       {line}" for line in rest)])))
    if not plan.edits:
        _show(say("nothing"))
        # --dry-run answers "are certain edits pending?": none, so 0; without it, the findings left decide.
        raise SystemExit(EXIT_OK if opts.dry_run else exit_code(before, fail_on))
    applied: list[fix_mod.Edit] = []
    after = before
    for round_no in range(1, fix_mod.MAX_ROUNDS + 1):
        if round_no > 1:
            _show(say("again", round=round_no, rounds=fix_mod.MAX_ROUNDS))
        chosen = _show_and_choose(plan, say, redact, lang, opts)
        if not chosen:
            break
        secret_values = secrets_mod.collect(ctx.resolution, ctx.env)
        try:
            for change in fix_mod.prepare(chosen):
                backup = fix_mod.write_atomic(change.path, change.original, change.after, secret_values)
                _show(say("wrote", file=change.shown, backup=ctx.resolution.show(backup)))
        except (fix_mod.FixError, OSError) as exc:
            raise click.ClickException(redact(f"nothing more was written: {exc}")) from None
        applied += chosen
        after, ctx = run_check(replace(opts.check, started=None))  # each check run has its own --timeout
        plan = fix_mod.build_plan(after, ctx, only)
        # Only edits not already made: a provider that answers differently each time must not make fix flip a line.
        done = {(e.layer_path, e.target, repr(e.value)) for e in applied}
        plan.edits = [e for e in plan.edits if (e.layer_path, e.target, repr(e.value)) not in done]
        if not plan.edits:
            break
    else:
        _show(say("cap", rounds=fix_mod.MAX_ROUNDS))
    if not applied:
        _show(say("none_applied"))
        raise SystemExit(EXIT_OK)
    _show(say("after", verdict=verdict(after), codes=codes(after)))
    fixed = sorted({e.code for e in applied} - {f.code for f in after.findings})
    if fixed:
        _show(say("fixed", codes=", ".join(fixed)))
    raise SystemExit(exit_code(after, fail_on))


def _show_and_choose(
    plan: fix_mod.Plan,
    say: Callable[..., str],
    redact: Callable[[str], str],
    lang: str,
    opts: FixOptions,
) -> list[fix_mod.Edit]:
    """Show each file's edits and diff once, then the edits to apply: all with --yes, or those the user confirms."""
    try:
        changes = fix_mod.prepare(plan.edits)
    except (fix_mod.FixError, OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(redact(f"cannot prepare the edits: {exc}")) from None
    for change in changes:
        # Each edit as one line, then the file's diff once: the same lines are never shown twice.
        _show(say("edits", file=change.shown))
        for edit in change.edits:
            _show(redact(f"  {edit.code}: {edit.describe(lang)}"))
        _show(redact(fix_mod.unified_diff(change.before, change.after, change.shown, lang)).rstrip())
    if opts.dry_run:  # as --fail-on reads a report: certain edits still pending are a finding, for CI (issue 28)
        _show(say("dry_run"))
        raise SystemExit(EXIT_FINDINGS if opts.fail_on != "never" else EXIT_OK)
    if opts.yes:
        return [e for c in changes for e in c.edits]
    if sys.stdin is not None and sys.stdin.isatty():
        return [
            e
            for c in changes
            for e in c.edits
            if click.confirm(say("apply", code=e.code, edit=e.describe(lang)), default=True)
        ]
    _show(say("no_tty"), err=True)
    raise SystemExit(EXIT_USAGE)
