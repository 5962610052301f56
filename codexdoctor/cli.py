"""Command line: parse options and call a command (codexdoctor/commands/). One error boundary in main()."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from codexdoctor.commands.options import CheckOptions

from codexdoctor import __version__

EXIT_OK, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 2, 3, 130
FORMAT_CHOICES = ("text", "markdown", "json", "junit", "github")


def _parse_version_option(value: str | None) -> tuple[int, ...] | None:
    from codexdoctor.codex.version import parse_version

    if value is None:
        return None
    version = parse_version(value)
    if version is None:
        raise click.BadParameter(f"{value!r} is not a version like 0.171.0", param_hint="--codex-version")
    return version


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
        self.fail(f"{value!r} is not a date: write it as 2026-11-30 or 2026-11-30T09:00", param, ctx)


class OutputFile(click.ParamType):  # type: ignore[type-arg]  # generic from click 8.2; 8.1 is supported too
    """`-o FILE`: a FIFO, device, folder or symlink at FILE is refused before the command runs (issue 36); the
    writer (common/safefile.open_output) checks again on the file it opened."""

    name = "file"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:  # click 8.1 and 8.2 differ
        return "FILE"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> str:
        from codexdoctor.common.safefile import output_problem

        problem = output_problem(str(value))
        if problem:
            self.fail(f"cannot write {value}: {problem}", param, ctx)
        return str(value)


lang_option = click.option(
    "--lang",
    type=click.Choice(["en", "zh"]),
    default=None,
    help="Language of the report: en or zh (default: from LC_ALL / LC_MESSAGES / LANG).",
)


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
    click.option("-v", "--verbose", is_flag=True, help="Show the evidence behind every check and finding."),
    click.option("--no-color", is_flag=True, help="No ANSI colours (NO_COLOR is honoured too)."),
]


def with_report_options(func: F) -> F:
    for option in reversed(report_options):
        func = option(func)
    return func


def with_config_options(func: F) -> F:
    for option in reversed(common_config_options):
        func = option(func)
    return func


def _check_options(
    overrides: tuple[str, ...],
    profile: str | None,
    model: str | None,
    codex_version: str | None,
    offline: bool = True,
    timeout: float = 10.0,
    canary: bool = True,
    lang: str | None = None,
    shell: str | None = None,
    first_token_timeout: float | None = None,
    turn_two: bool = True,
) -> CheckOptions:
    from codexdoctor.commands.options import check_options

    return check_options(
        overrides,
        profile,
        model,
        _parse_version_option(codex_version),
        offline,
        timeout,
        canary,
        lang,
        shell,
        first_token_timeout,
        turn_two,
    )


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


class Interrupted(Exception):
    """A Ctrl-C that unwound a command, carried past click (which would print a blank line and raise Abort) to the
    boundary in main(), so "Interrupted." is the one line printed."""


class Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        """The command runs with `raise_once` on SIGINT (common/interrupt.py): its cleanups see a Ctrl-C as a
        KeyboardInterrupt (fix's lock and temp files, the probe's partial result). Outside it (parsing, click's
        teardown, the boundary) there is nothing to clean up, and the entry point's handler exits at once."""
        from codexdoctor.common import interrupt

        previous, hook = interrupt.install(interrupt.raise_once), sys.unraisablehook
        if previous is not None:
            sys.unraisablehook = interrupt.redeliver
        try:
            try:
                return super().invoke(ctx)
            finally:
                if previous is not None:
                    sys.unraisablehook = hook
                    interrupt.install(previous)
        except KeyboardInterrupt:  # from the command, or from a Ctrl-C while the handlers were put back
            raise Interrupted from None


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="codexdoctor")
def cli() -> None:
    """Is your broken Codex CLI setup the channel (config, key, base_url, model, provider) or the context?

    Start with `codexdoctor check`. Exit codes: 0 ok, 1 findings at or above
    --fail-on, 2 usage error, 3 internal error, 130 interrupted.
    """


@cli.command()
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
    fmt: str | None,
    output: str | None,
    fail_on: str,
    verbose: bool,
    no_color: bool,
) -> None:
    """Run every static and live check of the active provider."""
    from codexdoctor.commands import check as command

    command.run(
        _check_options(
            overrides,
            profile,
            model,
            codex_version,
            offline,
            timeout,
            not no_canary,
            lang,
            shell,
            first_token_timeout,
            not no_turn_two,
        ),
        fmt,
        output,
        fail_on,
        verbose,
        no_color,
    )


@cli.command()
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
    opts = _check_options(overrides, profile, model, codex_version, offline=False, lang=lang, shell=shell)
    command.run(opts, settings, yes, quiet, fmt, output, fail_on, verbose, no_color)


@cli.command()
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

    command.run(
        _check_options(
            overrides, profile, model, codex_version, offline, timeout, True, lang, shell, first_token_timeout
        ),
        session_id,
        fmt,
        output,
        include_request_text,
    )


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--last", type=click.IntRange(1), default=None, help="Only the N most recent sessions.")
@click.option(
    "--since",
    type=DateParam(),
    default=None,
    help="Only sessions started on or after DATE (2026-11-30, or 2026-11-30T09:00).",
)
@click.option("--session", "session_id", default=None, help="One session (its id or an id prefix); shows its detail.")
@click.option("--show-content", is_flag=True, help="Also show the start of each user message (never shown otherwise).")
@lang_option
@with_report_options
def sessions(
    paths: tuple[Path, ...],
    last: int | None,
    since: datetime | None,
    session_id: str | None,
    show_content: bool,
    lang: str | None,
    fmt: str | None,
    output: str | None,
    fail_on: str,
    verbose: bool,
    no_color: bool,
) -> None:
    """Post-mortem of Codex's own session logs: context per turn, how sessions ended, and why. Offline."""
    from codexdoctor.commands import sessions as command

    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise click.BadParameter(f"{', '.join(missing)} does not exist", param_hint="PATH")
    command.run(paths, last, since, session_id, show_content, lang, fmt, output, fail_on, verbose, no_color)


@cli.command("diagnose-error")
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

    text = command.read_paste(text, file_)
    command.run(
        _check_options(overrides, profile, model, codex_version, lang=lang, shell=shell),
        text,
        fmt,
        output,
        fail_on,
        verbose,
        no_color,
    )


@cli.command()
@with_config_options
@click.option("-y", "--yes", is_flag=True, help="Apply every edit without asking.")
@click.option("--dry-run", is_flag=True, help="Show the diff and exit; change nothing.")
@click.option("--only", multiple=True, metavar="CODE", help="Only fix these findings (repeatable).")
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

    command.run(
        _check_options(
            overrides, profile, model, codex_version, offline, timeout, not no_canary, lang, shell, first_token_timeout
        ),
        yes,
        dry_run,
        only,
        fail_on,
    )


@cli.command("config")
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

    command.run(_check_options(overrides, profile, model, codex_version), fmt, lang)


@cli.command()
@click.argument("code")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text or json (the rule as data).",
)
@lang_option
def explain(
    code: str,
    fmt: str,
    lang: str | None,
) -> None:
    """Explain a finding code: what it means, why it happens, how to fix it."""
    from codexdoctor.commands import rules as command

    command.explain(code, fmt, lang)


@cli.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
    help="text (a table), json, or markdown (the text of docs/rules.md).",
)
@lang_option
def rules(
    fmt: str,
    lang: str | None,
) -> None:
    """List every finding code."""
    from codexdoctor.commands import rules as command

    command.list_all(fmt, lang)


@cli.command()
def schema() -> None:
    """Print the JSON Schema of the `--format json` report."""
    from codexdoctor.commands import rules as command

    command.schema()


@cli.command()
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="0 picks a free port.")
@click.option("--prefix", default="/v1", show_default=True, help="Path prefix of the API routes.")
@click.option("--api-key", default=None, help="Require this bearer key (default: no key required).")
@click.option(
    "--model", "models", multiple=True, default=("sim-model",), show_default=True, help="Served model ID; repeatable."
)
@click.option("--context-window", type=click.IntRange(1), default=None, help="Reject prompts over this many tokens.")
@click.option(
    "--error-style",
    type=click.Choice(["openai", "vllm", "llamacpp", "litellm", "ollama"]),
    default="openai",
    show_default=True,
    help="Whose error bodies to imitate; `ollama` truncates silently and answers 200.",
)
@click.option("--latency-ms", type=float, default=0.0, show_default=True, help="Base time to first token.")
@click.option(
    "--latency-per-1k-ms",
    type=float,
    default=0.0,
    show_default=True,
    help="Extra time to first token per 1000 prompt tokens.",
)
@click.option("--stall-after", type=click.IntRange(0), default=None, help="Pause the stream after N output tokens.")
@click.option(
    "--stall-seconds", type=float, default=2.0, show_default=True, help="How long each --stall-after pause lasts."
)
@click.option(
    "--failure-rate",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="Share of requests that fail with a 502, a reset or a hang.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed for --failure-rate.")
@click.option("--chat-only", is_flag=True, help="404 on /responses (a gateway without the Responses API).")
@click.option("--models-unauthenticated", is_flag=True, help="Serve /models without checking the key.")
@click.option("--no-models", is_flag=True, help="No /models route.")
@click.option("--landing-page", is_flag=True, help="Serve an HTML landing page at / and HTML 404s.")
@click.option("--publish-window", is_flag=True, help="Publish the window (/props n_ctx, max_model_len in /models).")
@click.option("--prefix-cache", is_flag=True, help="Reuse repeated prompt prefixes and report cached_tokens.")
@click.option("--hang", is_flag=True, help="Accept connections and never answer.")
@click.option(
    "--reject-field",
    "reject_fields",
    multiple=True,
    help="Answer 400 'Unsupported parameter' when the request has this top-level field (e.g. reasoning); repeatable.",
)
@click.option(
    "--reject-developer",
    is_flag=True,
    help="Answer 400 to `developer` input items, as a broken gateway translation does.",
)
@click.option("-v", "--verbose", is_flag=True, help="Log every request (keys redacted).")
@lang_option
def sim(
    port: int,
    prefix: str,
    api_key: str | None,
    models: tuple[str, ...],
    context_window: int | None,
    error_style: str,
    latency_ms: float,
    latency_per_1k_ms: float,
    stall_after: int | None,
    stall_seconds: float,
    failure_rate: float,
    seed: int,
    chat_only: bool,
    models_unauthenticated: bool,
    no_models: bool,
    landing_page: bool,
    publish_window: bool,
    prefix_cache: bool,
    hang: bool,
    reject_fields: tuple[str, ...],
    reject_developer: bool,
    verbose: bool,
    lang: str | None,
) -> None:
    """Serve a local OpenAI-compatible provider with fault injection, on 127.0.0.1."""
    from codexdoctor import sim as sim_mod
    from codexdoctor.commands import sim as command

    command.serve(
        sim_mod.SimConfig(
            port=port,
            prefix="/" + prefix.strip("/") if prefix.strip("/") else "",
            api_key=api_key,
            models=tuple(models),
            context_window=context_window,
            error_style=error_style,
            latency_ms=latency_ms,
            latency_per_1k_ms=latency_per_1k_ms,
            stall_after_tokens=stall_after,
            stall_seconds=stall_seconds,
            failure_rate=failure_rate,
            failure_seed=seed,
            chat_only=chat_only,
            models_unauthenticated=models_unauthenticated,
            models_route=not no_models,
            landing_page=landing_page,
            publish_window=publish_window,
            prefix_cache=prefix_cache,
            hang=hang,
            reject_fields=tuple(reject_fields),
            reject_developer=reject_developer,
            quiet=not verbose,
        ),
        lang,
    )


@cli.command()
@click.option(
    "--scenario", "names", multiple=True, help="Run only this scenario (repeatable); its full report is printed."
)
@click.option("--list", "list_only", is_flag=True, help="List the scenarios and exit.")
@lang_option
def demo(
    names: tuple[str, ...],
    list_only: bool,
    lang: str | None,
) -> None:
    """See every diagnosis without an account: runs the real checks against the built-in simulator.

    Never reads or writes your ~/.codex: each scenario has its own temporary CODEX_HOME.
    Exits 0 only when every scenario got its expected verdict (a self-test).
    """
    from codexdoctor.commands import demo as command

    command.run(tuple(names), list_only, lang)


def _known_secrets() -> list[str]:
    """Values of key-like variables in this environment, for redacting a crash report."""
    return [
        v
        for k, v in os.environ.items()
        if v and len(v) >= 8 and k.upper().endswith(("_KEY", "_TOKEN", "_SECRET", "_PASSWORD"))
    ]


def main(argv: list[str] | None = None) -> int:
    """One error boundary: 2 usage, 3 internal, 130 interrupted; never a traceback.

    A Ctrl-C is "Interrupted." and 130 at any moment: entry.py handles it until a command runs, Group.invoke while
    it runs (common/interrupt.py)."""
    from codexdoctor.common import interrupt, launch
    from codexdoctor.common.lang import argv_lang, detect_lang

    launch.begin_run()  # every deadline counts from the launch (commands/options.py)
    args = list(sys.argv[1:] if argv is None else argv)
    lang = argv_lang(args) or detect_lang(os.environ)
    interrupt.begin(lang)
    restore = None
    try:
        if lang == "zh":  # --help, click's messages and usage errors in Chinese (the tables load for these runs only)
            from codexdoctor.i18n.cli_zh import install
            from codexdoctor.report.render.text import display_width, wrap

            restore = install(cli, wrap, display_width)
        return _main(args, lang)
    except KeyboardInterrupt:  # called in-process (tests) with a handler that raises: outside a command, it is here
        return _interrupted(lang)
    finally:
        if restore is not None:
            restore()


def _interrupted(lang: str) -> int:
    from codexdoctor.common import interrupt

    interrupt.say(lang, lambda text: click.echo(text, err=True))
    return EXIT_INTERRUPTED


def _localize(text: str, lang: str) -> str:
    """An error message in the run's language; the translation tables are imported for a Chinese run only."""
    if lang != "zh":
        return text
    from codexdoctor.i18n import localize

    return localize(text, lang)


def _main(argv: list[str], lang: str) -> int:
    zh = lang == "zh"
    try:
        cli.main(args=argv, prog_name="codexdoctor", standalone_mode=False)
        return EXIT_OK
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    except (Interrupted, click.exceptions.Abort, KeyboardInterrupt):  # click turns a Ctrl-C at a prompt into Abort
        return _interrupted(lang)
    except click.ClickException as exc:  # usage errors too: a file name or a value the user gave is shown as text
        from codexdoctor.common.untrusted import sanitize

        # click types `message` as Final; replacing it is how the text reaches its own show() (usage line kept).
        exc.message = sanitize(_localize(exc.message, lang), newlines=True)  # type: ignore[misc]
        exc.show()
        return EXIT_USAGE
    except Exception as exc:
        from codexdoctor.common import interrupt

        if interrupt.caught():  # a Ctrl-C that came back wrapped in another error (common/interrupt.caught)
            return _interrupted(lang)
        # Imported here, not at start-up (29 ms that `--version` paid for): a `-c` error has loaded it already.
        from codexdoctor.codex.config import OverrideError

        if isinstance(exc, OverrideError):
            from codexdoctor.common.untrusted import sanitize

            click.echo(sanitize(f"错误：{_localize(str(exc), lang)}" if zh else f"Error: {exc}"), err=True)
            return EXIT_USAGE
        import traceback

        from codexdoctor.common.redact import Redactor

        redact = Redactor(_known_secrets(), home=os.environ.get("HOME"))
        from codexdoctor.common.untrusted import sanitize

        message = sanitize(redact(f"{type(exc).__name__}: {exc}"))
        click.echo(
            f"codexdoctor: internal error: {message}\nThis is a bug in codexdoctor; please report it "
            "with the command you ran (set CODEXDOCTOR_DEBUG=1 for a traceback).",
            err=True,
        )
        if os.environ.get("CODEXDOCTOR_DEBUG"):
            # Even the traceback goes through redaction: exception messages can carry a key or a URL token.
            click.echo(redact(traceback.format_exc()), err=True)
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
