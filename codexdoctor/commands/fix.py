"""`codexdoctor fix`: check, show the certain edits as a diff, apply the chosen ones (backup, atomic write), check
again."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace

import click

from codexdoctor.checks.base import CheckContext
from codexdoctor.codex import secrets as secrets_mod
from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.commands.output import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, in_language
from codexdoctor.common.untrusted import sanitize
from codexdoctor.i18n import ui
from codexdoctor.model import Msg, Report, said_error
from codexdoctor.report import fixes as fix_mod
from codexdoctor.report import fixtext, fixwrite
from codexdoctor.report.build import exit_code


@dataclass(frozen=True)
class FixOptions:
    """`codexdoctor fix`: the check run before and after the edits, and which edits to make, how."""

    check: CheckOptions
    yes: bool = False  # apply every edit without asking
    dry_run: bool = False  # show the diff, change nothing
    only: tuple[str, ...] = ()  # only these finding codes
    fail_on: str = "error"  # the findings left after the fix that make the exit code 1


class _Voice:
    """How `fix` speaks: in the run's language, every line through the latest check's redactor (a key that the
    check after the edits reads is scrubbed from then on), with no terminal control left in it."""

    def __init__(self, ctx: CheckContext, lang: str) -> None:
        self.ctx, self.lang = ctx, lang

    def redact(self, text: str) -> str:
        # Config text and remedies are shown as they will be written: redacted, no terminal control left in them, and
        # the redaction marks in the run's language, as on every other screen (`<已脱敏：…>` in Chinese).
        return in_language(sanitize(self.ctx.redactor(text), newlines=True), self.lang)

    def show(self, text: str, err: bool = False) -> None:
        """Every line `fix` prints, fitted to the terminal (issue 29) in cells of the run's language (issue 40:
        “ ” — … are two cells on a CJK terminal): remedies, edits, the diff."""
        from codexdoctor.commands.output import terminal_width
        from codexdoctor.report.render.text import fit_lines

        click.echo("\n".join(fit_lines(text.split("\n"), terminal_width(), "    ", self.lang)), err=err)

    def remedy(self, number: int, step: str) -> None:
        """A numbered remedy laid out as `check` lays it out (issue 40 review: item 1 at column 0, item 2 at 2), its
        command block never wrapped."""
        from codexdoctor.commands.output import terminal_width
        from codexdoctor.report.render.text import remedy_lines

        click.echo("\n".join(remedy_lines(number, self.redact(step), terminal_width(), self.lang)))

    def question(self, text: str) -> str:
        """A yes/no question wrapped at its break points so that it and click's ` [Y/n]: ` fit the terminal (issue 40
        review: the terminal cut `…/` / `v1"? [Y/n]:` inside the URL)."""
        from codexdoctor.commands.output import terminal_width
        from codexdoctor.report.render.text import display_width, fit_lines

        room = max(20, terminal_width() - display_width(" [Y/n]: "))
        return "\n".join(fit_lines([text], room, "  ", self.lang))

    def say(self, key: str, **values: object) -> str:
        return self.redact(fix_mod.say(key, self.lang, **values))

    def summary(self, key: str, report: Report) -> str:
        """The "before" or "after" line: the verdict and the finding codes."""
        value = report.verdict.value
        verdict = f"{ui('verdict_' + value, self.lang)}（{value}）" if self.lang == "zh" else value
        codes = ("、" if self.lang == "zh" else ", ").join(f.code for f in report.findings)
        codes = codes or fix_mod.say("none", self.lang)
        return self.say(key, verdict=verdict, codes=codes)


def run(opts: FixOptions) -> None:
    """Every line the user reads goes through the run's redactor; nothing is written without a diff shown first."""
    before, ctx = run_check(opts.check)
    plan = fix_mod.build_plan(before, ctx, opts.only)
    voice = _Voice(ctx, opts.check.lang)
    voice.show(voice.summary("before", before))
    _show_plan(plan, voice)
    if not plan.edits:
        voice.show(voice.say("nothing"))
        # --dry-run answers "are certain edits pending?": none, so 0; without it, the findings left decide.
        raise SystemExit(EXIT_OK if opts.dry_run else exit_code(before, opts.fail_on))
    applied, after = _apply_in_rounds(opts, plan, voice, before)
    if not applied:
        voice.show(voice.say("none_applied"))
        raise SystemExit(EXIT_OK)
    voice.show(voice.summary("after", after))
    fixed = sorted({e.code for e in applied} - {f.code for f in after.findings})
    if fixed:
        voice.show(voice.say("fixed", codes=", ".join(fixed)))
    raise SystemExit(exit_code(after, opts.fail_on))


def _show_plan(plan: fix_mod.Plan, voice: _Voice) -> None:
    """What is not fixed here (and why), and the commands the user runs: codexdoctor never edits shell files."""
    for note in plan.skipped:
        voice.show(voice.say("skipped", note=note.get(voice.lang)))
    for finding in plan.commands:
        voice.show(voice.say("command", code=finding.code, title=finding.title))
        for number, step in enumerate(finding.remedy, 1):
            voice.remedy(number, step)


def _apply_in_rounds(
    opts: FixOptions, plan: fix_mod.Plan, voice: _Voice, before: Report
) -> tuple[list[fix_mod.Edit], Report]:
    """Apply the chosen edits, check again, and offer what the new check found, up to MAX_ROUNDS times. Returns the
    edits applied and the last report."""
    applied: list[fix_mod.Edit] = []
    offered: set[tuple[object, ...]] = set()  # every edit shown so far: made, or declined for the rest of the run
    after = before
    for round_no in range(1, fix_mod.MAX_ROUNDS + 1):
        if round_no > 1:
            voice.show(voice.say("again", round=round_no, rounds=fix_mod.MAX_ROUNDS))
        offered |= {_edit_key(e) for e in plan.edits}
        chosen = _show_and_choose(plan, voice, opts)
        if not chosen:
            break
        _write(chosen, voice)
        applied += chosen
        after, voice.ctx = run_check(replace(opts.check, started=None))  # each check run has its own --timeout
        plan = fix_mod.build_plan(after, voice.ctx, opts.only)
        # Only edits never offered: a "no" holds for the rest of the run (issue 40: y/n/y asked the declined edit
        # again as "more certain edits"), and a provider that answers differently each time cannot flip a line.
        plan.edits = [e for e in plan.edits if _edit_key(e) not in offered]
        if not plan.edits:
            break
    else:
        voice.show(voice.say("cap", rounds=fix_mod.MAX_ROUNDS))
    return applied, after


def _edit_key(edit: fix_mod.Edit) -> tuple[object, ...]:
    return (edit.code, edit.layer_path, edit.target, repr(edit.value))


def _write(chosen: list[fix_mod.Edit], voice: _Voice) -> None:
    """Each file's edits, backed up and written atomically; a failure is a usage error that says nothing more was
    written."""
    ctx = voice.ctx
    secret_values = secrets_mod.collect(ctx.resolution, ctx.env)
    try:
        for change in fixtext.prepare(chosen):
            backup = fixwrite.write_atomic(change.path, change.original, change.after, secret_values)
            voice.show(voice.say("wrote", file=change.shown, backup=ctx.resolution.show(backup)))
    except (fix_mod.FixError, OSError) as exc:
        said = Msg("nothing more was written: {e}", "没有再写入任何内容：{e}", e=voice.redact(str(exc)))
        raise said_error(click.ClickException(str(said)), said) from None


def _show_and_choose(plan: fix_mod.Plan, voice: _Voice, opts: FixOptions) -> list[fix_mod.Edit]:
    """Show each file's edits and diff once, then the edits to apply: all with --yes, or those the user confirms."""
    lang = voice.lang
    try:
        changes = fixtext.prepare(plan.edits)
    except (fix_mod.FixError, OSError, UnicodeDecodeError) as exc:
        said = Msg("cannot prepare the edits: {e}", "无法准备这些修改：{e}", e=voice.redact(str(exc)))
        raise said_error(click.ClickException(str(said)), said) from None
    for change in changes:
        # Each edit as one line, then the file's diff once: the same lines are never shown twice.
        voice.show(voice.say("edits", file=change.shown))
        for edit in change.edits:
            colon = "：" if lang == "zh" else ": "
            voice.show(voice.redact(f"  {edit.code}{colon}{edit.describe(lang)}"))
        voice.show(voice.redact(fixtext.unified_diff(change.before, change.after, change.shown, lang)).rstrip())
    if opts.dry_run:  # as --fail-on reads a report: certain edits still pending are a finding, for CI (issue 28)
        voice.show(voice.say("dry_run"))
        raise SystemExit(EXIT_FINDINGS if opts.fail_on != "never" else EXIT_OK)
    if opts.yes:
        return [e for c in changes for e in c.edits]
    if sys.stdin is not None and sys.stdin.isatty():
        return [
            e
            for c in changes
            for e in c.edits
            if click.confirm(voice.question(voice.say("apply", code=e.code, edit=e.describe(lang))), default=True)
        ]
    voice.show(voice.say("no_tty"), err=True)
    raise SystemExit(EXIT_USAGE)
