"""Where a report goes: rendered in the chosen format, redacted once more, written, added to the GitHub step
summary, and turned into the exit code."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from codexdoctor.model import Report

import os
import re
import sys

import click

from codexdoctor.common import oserror, safefile

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


@dataclass(frozen=True)
class PublishOptions:
    """How a report is published (`--format`, `-o`, `--fail-on`, `-v`, `--no-color`), the same five values for
    every command that prints one."""

    fmt: str | None = None  # None: github under GitHub Actions, else text
    output: str | None = None  # a file, or None for stdout
    fail_on: str = "error"
    verbose: bool = False
    no_color: bool = False


def stdout_can_encode(symbols: str = "✓✗→—") -> bool:
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        symbols.encode(encoding)
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def use_color(no_color: bool, output: str | None) -> bool:
    if no_color or output or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return sys.stdout.isatty()


_REDACTED = re.compile(r"<redacted (\d+) chars, sha256:([0-9a-f]{8})>")


def in_language(text: str, lang: str) -> str:
    """The redactor's marks in the report's language: `<redacted 16 chars, sha256:…>` inside a Chinese report was
    the last English in it (issue 29), and in the Chinese ticket (issue 40 review); a bare `<redacted>` (a header's
    value) too. Text and Markdown only: JSON keeps the English mark as data (docs/report-schema.md)."""
    if lang != "zh":
        return text
    return _REDACTED.sub(r"<已脱敏：\1 个字符，sha256:\2>", text).replace("<redacted>", "<已脱敏>")


def emit(text: str, output: str | None, redactor: Callable[[str], str], lang: str = "en") -> None:
    """Write the rendered report; the redactor is the last line of defence against a leaked secret."""
    text = in_language(redactor(text), lang)
    zh = lang == "zh"
    if output:
        try:
            safefile.write_output(output, text)  # a regular file only, never through a symlink, created 0600
        except OSError as exc:
            raise click.ClickException(
                f"无法写入 {output}：{oserror.reason_zh(exc)}"
                if zh
                else f"cannot write {output}: {oserror.reason(exc)}"
            ) from None
        click.echo(f"codexdoctor：报告已写入 {output}" if zh else f"codexdoctor: report written to {output}", err=True)
    else:
        click.echo(text, nl=False)


MIN_WIDTH = 60  # the narrowest layout every screen is fitted to
DEFAULT_WIDTH = 80  # no terminal anywhere and no COLUMNS (a file read later, CI): the width most terminals have


def terminal_width(env: Mapping[str, str] | None = None, output: str | None = None) -> int:
    """The width to lay text out for, never below MIN_WIDTH: COLUMNS when set; else the terminal the user is looking
    at: stdout's, or, when stdout is a pipe or a file (`check | head`), stderr's, or the controlling terminal's
    (/dev/tty: both redirected); else DEFAULT_WIDTH. A report written with -o is laid out the same way: it is read
    in that terminal.

    Issue 40: a pipe was laid out for 100 columns and then broke mid-word in an 80-column terminal. shutil's
    get_terminal_size only asks stdout."""
    env = os.environ if env is None else env
    value = env.get("COLUMNS", "")
    if value.strip().isdigit() and int(value) > 0:
        return max(MIN_WIDTH, int(value))
    for stream in (sys.stdout, sys.stderr):  # a test's captured streams are not terminals
        try:
            if stream is not None and stream.isatty():
                return max(MIN_WIDTH, os.get_terminal_size(stream.fileno()).columns or DEFAULT_WIDTH)
        except (OSError, ValueError, AttributeError):  # closed, detached, or not a real file (a test's capture)
            continue
    return _controlling_terminal_width() or DEFAULT_WIDTH


def _controlling_terminal_width() -> int | None:
    """The width of /dev/tty (both standard streams redirected, a terminal still there), or None."""
    if os.name != "posix":
        return None
    try:
        fd = os.open("/dev/tty", os.O_RDONLY | os.O_NOCTTY)
    except OSError:  # no controlling terminal: cron, CI, a service
        return None
    try:
        return max(MIN_WIDTH, os.get_terminal_size(fd).columns) or None
    except OSError:
        return None
    finally:
        os.close(fd)


def publish(report: Report, redactor: Callable[[str], str], how: PublishOptions) -> None:
    """Render in the chosen format, write it, add the GitHub step summary, and exit per --fail-on."""
    from codexdoctor.report.build import exit_code
    from codexdoctor.report.render import RenderOptions, render

    env = os.environ
    fmt, output, fail_on = how.fmt, how.output, how.fail_on
    if fmt is None:
        fmt = "github" if env.get("GITHUB_ACTIONS") == "true" else "text"
    ropts = RenderOptions(
        color=use_color(how.no_color, output) and fmt == "text",
        ascii=not stdout_can_encode() and not output,
        verbose=how.verbose,
        fail_on=fail_on,
        width=terminal_width(env, output) if fmt == "text" else None,
    )
    emit(render(report, fmt, ropts), output, redactor, report.lang if fmt != "json" else "en")
    summary = env.get("GITHUB_STEP_SUMMARY")
    if fmt == "github" and summary:
        try:
            safefile.write_output(summary, redactor(render(report, "markdown", ropts)) + "\n", append=True)
        except OSError as exc:
            click.echo(
                f"codexdoctor：无法追加到 GITHUB_STEP_SUMMARY：{oserror.reason_zh(exc)}"
                if report.lang == "zh"
                else f"codexdoctor: cannot append to GITHUB_STEP_SUMMARY: {oserror.reason(exc)}",
                err=True,
            )
    raise SystemExit(exit_code(report, fail_on))
