"""The commands that look at the user's own provider and config: check, probe, report, fix, diagnose-error, config.

Each turns click's values into its command's options object (CheckOptions inside it, for the config and the live
check) and hands that to the command's run(); the command modules are imported only when the command runs."""

from __future__ import annotations

from dataclasses import replace

import click

from codexdoctor.cli.params import (
    OutputFile,
    check_options,
    first_token_timeout_option,
    publish_options,
    timeout_option,
    with_config_options,
    with_report_options,
)


@click.command()
@with_config_options
@click.option("--offline", is_flag=True, help="Static checks only: send no request.")
@timeout_option(
    "Deadline in seconds for the whole check, counted from launch: a provider that shows no sign of life by then "
    "fails (one that is alive gets --first-token-timeout)."
)
@first_token_timeout_option
@click.option(
    "--no-canary",
    is_flag=True,
    help="Do not send Codex's first request to /responses (it spends about 8,500 input tokens and 16 output tokens).",
)
@click.option(
    "--no-turn-two",
    is_flag=True,
    help="Do not send, after the canary, Codex's request that follows a tool call (about 11,000 input tokens).",
)
@click.option(
    "--no-sessions",
    is_flag=True,
    help="Do not read the active provider's recent session logs (offline, the newest 30 at most).",
)
@with_report_options
def check(
    overrides: tuple[str, ...],
    profile: str | None,
    model: str | None,
    codex_version: str | None,
    lang: str | None,
    shell: str | None,
    offline: bool,
    timeout: float,
    first_token_timeout: float,
    no_canary: bool,
    no_turn_two: bool,
    no_sessions: bool,
    fmt: str | None,
    output: str | None,
    fail_on: str,
    verbose: bool,
    no_color: bool,
) -> None:
    """Run every static and live check of the active provider."""
    from codexdoctor.commands import check as command

    checking = check_options(
        overrides,
        profile,
        model,
        codex_version,
        offline=offline,
        timeout=timeout,
        canary=not no_canary,
        lang=lang,
        shell=shell,
        first_token_timeout=first_token_timeout,
        turn_two=not no_turn_two,
    )
    checking = replace(checking, sessions=not no_sessions)
    command.run(command.CheckCommandOptions(checking, publish_options(fmt, output, fail_on, verbose, no_color)))


def known_codes(ctx: click.Context, param: click.Parameter, codes: tuple[str, ...]) -> tuple[str, ...]:
    """`fix --only NOPE`: a usage error (exit 2), as `explain NOPE` is, not "nothing to fix" (issue 40)."""
    if not codes:
        return codes
    from codexdoctor.rules.catalog import RULES_BY_CODE

    for code in codes:
        if code.upper() not in RULES_BY_CODE:
            from codexdoctor.model import Msg, said_error

            said = Msg(
                "unknown code {c}; `codexdoctor rules` lists them all",
                "未知的问题编号 {c}；`codexdoctor rules` 会列出全部问题编号",
                c=repr(code),
            )
            raise said_error(click.BadParameter(str(said), param_hint="--only"), said)
    return codes


@click.command()
@with_config_options
@click.option(
    "--max-context",
    type=click.IntRange(1024),
    default=None,
    help="Largest session size to try, in tokens (default: the window Codex assumes x 1.1).",
)
@click.option(
    "--repeat",
    type=click.IntRange(1, 10),
    default=3,
    show_default=True,
    help="Requests just below and just above the break, to tell stable from unstable.",
)
@click.option(
    "--budget",
    type=click.IntRange(1000),
    default=300_000,
    show_default=True,
    help="Input tokens the probe may spend in total; it never goes past it.",
)
@click.option(
    "-y", "--yes", is_flag=True, help="Run even when the worst-case estimate exceeds --budget (still stops at it)."
)
@click.option(
    "--stall-threshold",
    type=click.FloatRange(0.1),
    default=2.0,
    show_default=True,
    help="Seconds of silence mid-answer that count as a stall.",
)
@click.option(
    "--request-timeout", type=click.FloatRange(1), default=120.0, show_default=True, help="Per request, seconds."
)
@click.option(
    "--timeout",
    type=click.FloatRange(1),
    default=1800.0,
    show_default=True,
    help="Deadline in seconds for the whole probe, counted from launch (the window look-ups and every request in it).",
)
@click.option(
    "--turn-tokens",
    type=click.IntRange(100),
    default=2000,
    show_default=True,
    help="Typical tokens one Codex turn adds, for the turns-per-session advice.",
)
@click.option("--no-cache-step", is_flag=True, help="Skip the prefix-cache step (3 requests of ~4K tokens).")
@with_report_options
@click.option("-q", "--quiet", is_flag=True, help="No progress lines on stderr.")
def probe(
    overrides: tuple[str, ...],
    profile: str | None,
    model: str | None,
    codex_version: str | None,
    lang: str | None,
    shell: str | None,
    max_context: int | None,
    repeat: int,
    budget: int,
    yes: bool,
    stall_threshold: float,
    request_timeout: float,
    timeout: float,
    turn_tokens: int,
    no_cache_step: bool,
    fmt: str | None,
    output: str | None,
    fail_on: str,
    verbose: bool,
    quiet: bool,
    no_color: bool,
) -> None:
    """Single question vs a growing session: find where it breaks, and whether the break is stable.

    Spends tokens: the plan (requests and input tokens) is printed before anything is sent,
    and the probe never goes past --budget.
    """
    from codexdoctor.checks.probe import ProbeSettings
    from codexdoctor.commands import probe as command

    settings = ProbeSettings(
        max_context=max_context,
        repeat=repeat,
        budget=budget,
        stall_threshold_s=stall_threshold,
        request_timeout_s=request_timeout,
        total_timeout_s=timeout,
        turn_tokens=turn_tokens,
        cache_step=not no_cache_step,
    )
    checking = check_options(overrides, profile, model, codex_version, offline=False, lang=lang, shell=shell)
    publishing = publish_options(fmt, output, fail_on, verbose, no_color)
    command.run(command.ProbeOptions(checking, settings, yes=yes, quiet=quiet, publish=publishing))


@click.command()
@with_config_options
@click.option(
    "--offline", is_flag=True, help="No request at all: the config, the environment and the session logs only."
)
@timeout_option(
    "Deadline in seconds for the live check, counted from launch, as check's: a provider that shows no sign of life "
    "by then fails (one that is alive gets --first-token-timeout). The session logs are read after it, offline."
)
@first_token_timeout_option
@click.option(
    "--session",
    "session_id",
    default=None,
    help="The Codex session to tell about (an id or a prefix; default: the most recent that failed).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["markdown", "json"]),
    default="markdown",
    show_default=True,
    help="markdown for the ticket itself, json for a machine.",
)
@click.option(
    "-o",
    "--output",
    type=OutputFile(),
    default=None,
    help="The file to write (default: codexdoctor-report-<time>.md in this folder).",
)
@click.option(
    "--include-request-text",
    is_flag=True,
    help="Write the texts of Codex's request (your AGENTS.md files, instructions, working folder) into "
    "<report>.request.json, redacted; by default each is replaced by a placeholder of the same size.",
)
def report(
    overrides: tuple[str, ...],
    profile: str | None,
    model: str | None,
    codex_version: str | None,
    lang: str | None,
    shell: str | None,
    offline: bool,
    timeout: float,
    first_token_timeout: float,
    session_id: str | None,
    fmt: str,
    output: str | None,
    include_request_text: bool,
) -> None:
    """Write one support-ticket report: summary, client, config, request ids, the check, the last failed session."""
    from codexdoctor.commands import report as command

    checking = check_options(
        overrides,
        profile,
        model,
        codex_version,
        offline=offline,
        timeout=timeout,
        lang=lang,
        shell=shell,
        first_token_timeout=first_token_timeout,
    )
    command.run(
        command.ReportOptions(
            checking, session_id=session_id, fmt=fmt, output=output, include_request_text=include_request_text
        )
    )


@click.command("diagnose-error")
@click.argument("text", required=False)
@click.option(
    "-f",
    "--file",
    "file_",
    type=click.Path(dir_okay=False),
    default=None,
    help="Read the error from this file (a saved stderr of Codex), at most 1 MiB.",
)
@with_config_options
@with_report_options
def diagnose_error(
    text: str | None,
    file_: str | None,
    overrides: tuple[str, ...],
    profile: str | None,
    model: str | None,
    codex_version: str | None,
    lang: str | None,
    shell: str | None,
    fmt: str | None,
    output: str | None,
    fail_on: str,
    verbose: bool,
    no_color: bool,
) -> None:
    """Classify a pasted Codex or provider error (TEXT, - for stdin, or --file) into verdict, code and remedy.

    A whole stderr works: Codex's own decoration (ERROR:, Reconnecting... n/5, ; retrying …) is read past.
    """
    from codexdoctor.commands import diagnose as command

    pasted = command.read_paste(text, file_)  # before the config: a missing TEXT is the first thing said
    checking = check_options(overrides, profile, model, codex_version, lang=lang, shell=shell)
    command.run(command.DiagnoseOptions(checking, pasted, publish_options(fmt, output, fail_on, verbose, no_color)))


@click.command()
@with_config_options
@click.option("-y", "--yes", is_flag=True, help="Apply every edit without asking.")
@click.option("--dry-run", is_flag=True, help="Show the diff and exit; change nothing.")
@click.option(
    "--only", multiple=True, metavar="CODE", callback=known_codes, help="Only fix these findings (repeatable)."
)
@click.option(
    "--offline", is_flag=True, help="Static checks only (no request is sent; live-only fixes are not offered)."
)
@timeout_option(
    "Deadline in seconds for each check run (the one before the edits counted from launch, each one after from its "
    "start), as check's (one that is alive gets --first-token-timeout)."
)
@first_token_timeout_option
@click.option("--no-canary", is_flag=True, help="Re-check without sending Codex's first request (no tokens spent).")
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning", "never"]),
    default="error",
    show_default=True,
    help="Exit 1 when a finding of this severity or worse is left after the fix.",
)
def fix(
    overrides: tuple[str, ...],
    profile: str | None,
    model: str | None,
    codex_version: str | None,
    lang: str | None,
    shell: str | None,
    yes: bool,
    dry_run: bool,
    only: tuple[str, ...],
    offline: bool,
    timeout: float,
    first_token_timeout: float,
    no_canary: bool,
    fail_on: str,
) -> None:
    """Apply the config remedies whose fix is certain: diff first, backup, atomic write, then check again."""
    from codexdoctor.commands import fix as command

    checking = check_options(
        overrides,
        profile,
        model,
        codex_version,
        offline=offline,
        timeout=timeout,
        canary=not no_canary,
        lang=lang,
        shell=shell,
        first_token_timeout=first_token_timeout,
    )
    command.run(command.FixOptions(checking, yes=yes, dry_run=dry_run, only=tuple(only), fail_on=fail_on))


@click.command("config")
@with_config_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text (a table) or json (values with their sources, for scripts).",
)
def config_cmd(
    overrides: tuple[str, ...],
    profile: str | None,
    model: str | None,
    codex_version: str | None,
    lang: str | None,
    shell: str | None,
    fmt: str,
) -> None:
    """Print the resolved provider and where each value came from (redacted)."""
    from codexdoctor.commands import config as command

    command.run(command.ConfigOptions(check_options(overrides, profile, model, codex_version), fmt=fmt, lang=lang))
