"""What several commands share on the command line: the parameter types, the option groups (config, report, the
live check's deadlines), and the two options objects built from them (CheckOptions, PublishOptions).

Loaded by `--version` and `--help` (click builds every command to list them): nothing here imports more than click
at start-up; the commands' modules are imported inside the functions that build their options."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from codexdoctor.commands.options import CheckOptions
    from codexdoctor.commands.output import PublishOptions

FORMAT_CHOICES = ("text", "markdown", "json", "junit", "github")
F = TypeVar("F", bound=Callable[..., Any])


class DateParam(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.2; 8.1 is supported too
    """A day (2026-11-30) or a minute (2026-11-30T09:00), said in words: click's DateTime shows its strptime
    formats ('%Y-%m-%d') in the help and in the error (issue 29)."""

    name = "date"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:  # click 8.1 and 8.2 differ
        return "DATE"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> datetime:
        import datetime as dt

        if isinstance(value, dt.datetime):
            return value
        for fmt in ("%Y-%m-%d", "%Y-%m-%dT%H:%M"):
            try:
                return dt.datetime.strptime(str(value).strip(), fmt)
            except ValueError:
                continue
        from codexdoctor.model import Msg, said_error

        said = Msg(
            "{v} is not a date: write it as 2026-11-30 or 2026-11-30T09:00",
            "{v} 不是日期：请写成 2026-11-30 或 2026-11-30T09:00",
            v=repr(value),
        )
        raise said_error(click.BadParameter(str(said), ctx, param), said)


class OutputFile(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.2; 8.1 is supported too
    """`-o FILE`: a FIFO, device, folder or symlink at FILE is refused before the command runs (issue 36); the
    writer (common/safefile.open_output) checks again on the file it opened."""

    name = "file"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:  # click 8.1 and 8.2 differ
        return "FILE"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from codexdoctor.common.safefile import output_problem
        from codexdoctor.model import Msg, said_error

        problem = output_problem(str(value))
        if problem:
            said = Msg(
                "cannot write {path}: {why}",
                "无法写入 {path}：{why}",
                path=str(value),
                why=Msg.pair(problem, problem.zh),
            )
            raise said_error(click.BadParameter(str(said), ctx=ctx, param=param), said)
        return str(value)


LANG_HELP = "Language of the output: en or zh (default: from LC_ALL / LC_MESSAGES / LANG)."
# Every command takes --lang, and so does `codexdoctor` itself, before the command (cli/__init__.py).
lang_option = click.option("--lang", type=click.Choice(["en", "zh"]), default=None, help=LANG_HELP)


common_config_options = [
    click.option(
        "-c",
        "--config",
        "overrides",
        multiple=True,
        metavar="KEY=VALUE",
        help="Override a config value as `codex -c` does (TOML value, dotted key). Repeatable.",
    ),
    click.option("-p", "--profile", default=None, help="Config profile, as `codex --profile`."),
    click.option("-m", "--model", default=None, help="Model, as `codex --model`."),
    click.option(
        "--codex-version",
        default=None,
        metavar="X.Y.Z",
        help="Assume this Codex version instead of running `codex --version`.",
    ),
    lang_option,
    click.option(
        "--shell",
        "shell",
        type=click.Choice(["bash", "zsh", "fish", "powershell", "cmd"]),
        default=None,
        help="Write remedy commands for this shell (default: detected from SHELL, or PowerShell/cmd on Windows).",
    ),
]


report_options = [
    click.option(
        "--format",
        "fmt",
        type=click.Choice(FORMAT_CHOICES),
        default=None,
        help="text (default), markdown, json, junit, github (default when GITHUB_ACTIONS=true).",
    ),
    click.option("-o", "--output", type=OutputFile(), default=None, help="Write the report to FILE."),
    click.option(
        "--fail-on",
        type=click.Choice(["error", "warning", "never"]),
        default="error",
        show_default=True,
        help="Exit 1 when a finding of this severity or worse exists.",
    ),
    verbose_option := click.option(
        "-v", "--verbose", is_flag=True, help="Show the evidence behind every check and finding."
    ),
    click.option("--no-color", is_flag=True, help="No ANSI colours (NO_COLOR is honoured too)."),
]
VERBOSE_FINDINGS_HELP = "Show the evidence behind every finding."


def with_report_options(func: F) -> F:
    for option in reversed(report_options):
        func = option(func)
    return func


def with_findings_report_options(func: F) -> F:
    """The report options of a command whose report has findings but runs no checks (sessions): its -v says so."""
    own_verbose = click.option("-v", "--verbose", is_flag=True, help=VERBOSE_FINDINGS_HELP)
    for option in reversed(report_options):
        func = (own_verbose if option is verbose_option else option)(func)
    return func


def with_config_options(func: F) -> F:
    for option in reversed(common_config_options):
        func = option(func)
    return func


FIRST_ANSWER_WAIT_HELP = (
    "Deadline in seconds, counted from launch, for a provider that is alive (it answered, or accepted the request) "
    "but slow to answer Codex's first request or asks to retry later (429 Retry-After): it is waited for up to "
    "this long in all, as Codex waits, instead of --timeout. A local model on a CPU takes 10-25 s."
)


def timeout_option(help_text: str) -> Callable[[F], F]:
    """`--timeout` of the commands that run the live check (check, report, fix): one clock from launch (issue 36)."""
    return click.option("--timeout", type=click.FloatRange(0.5, 600), default=10.0, show_default=True, help=help_text)


first_token_timeout_option = click.option(
    "--first-token-timeout",
    type=click.FloatRange(1, 3600),
    default=120.0,
    show_default=True,
    help=FIRST_ANSWER_WAIT_HELP,
)


def parse_version_option(value: str | None) -> tuple[int, ...] | None:
    """--codex-version as numbers, or a usage error that shows the expected form."""
    from codexdoctor.codex.version import parse_version

    if value is None:
        return None
    version = parse_version(value)
    if version is None:
        from codexdoctor.model import Msg, said_error

        said = Msg("{v} is not a version like 0.171.0", "{v} 不是 0.171.0 这样的版本号", v=repr(value))
        raise said_error(click.BadParameter(str(said), param_hint="--codex-version"), said)
    return version


def check_options(
    overrides: tuple[str, ...],
    profile: str | None,
    model: str | None,
    codex_version: str | None,
    *,
    offline: bool = True,
    timeout: float = 10.0,
    canary: bool = True,
    lang: str | None = None,
    shell: str | None = None,
    first_token_timeout: float | None = None,
    turn_two: bool = True,
) -> CheckOptions:
    """The config options (and the live check's, for the commands that have them) as CheckOptions; the Codex
    version is detected when --codex-version is not given (commands/options.check_options)."""
    from codexdoctor.commands import options

    return options.check_options(
        overrides,
        profile,
        model,
        parse_version_option(codex_version),
        offline,
        timeout,
        canary,
        lang,
        shell,
        first_token_timeout,
        turn_two,
    )


def publish_options(fmt: str | None, output: str | None, fail_on: str, verbose: bool, no_color: bool) -> PublishOptions:
    """The report options (--format, -o, --fail-on, -v, --no-color) as one value."""
    from codexdoctor.commands.output import PublishOptions

    return PublishOptions(fmt=fmt, output=output, fail_on=fail_on, verbose=verbose, no_color=no_color)
