"""Command line: parse options, call, render, exit. One error boundary in main()."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from codexdoctor import __version__

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
FORMAT_CHOICES = ("text", "markdown", "json", "junit", "github")


def _env() -> dict[str, str]:
    return dict(os.environ)


def _home(env: dict[str, str]) -> Path:
    return Path(env.get("HOME") or env.get("USERPROFILE") or str(Path.home()))


def _stdout_can_encode(symbols: str = "✓✗→—") -> bool:
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        symbols.encode(encoding)
        return True
    except (UnicodeEncodeError, LookupError):
        return False


def _use_color(no_color: bool, output: str | None) -> bool:
    if no_color or output or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return sys.stdout.isatty()


def _parse_version_option(value: str | None) -> tuple[int, ...] | None:
    from codexdoctor.codex.version import parse_version

    if value is None:
        return None
    version = parse_version(value)
    if version is None:
        raise click.BadParameter(f"{value!r} is not a version like 0.171.0", param_hint="--codex-version")
    return version


def emit(text: str, output: str | None, redactor) -> None:
    """Write the rendered report; the redactor is the last line of defence against a leaked secret."""
    text = redactor(text)
    if output:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise click.ClickException(f"cannot write {output}: {exc.strerror or exc}") from None
        click.echo(f"codexdoctor: report written to {output}", err=True)
    else:
        click.echo(text, nl=False)


def _terminal_width(env, output) -> int | None:
    """COLUMNS when set, else the terminal's width; a file (-o) or a pipe is not wrapped."""
    value = env.get("COLUMNS", "")
    if value.isdigit() and int(value) >= 40:
        return int(value)
    if output or not sys.stdout.isatty():
        return None
    import shutil

    return max(40, shutil.get_terminal_size((100, 24)).columns)


def publish(report, redactor, fmt, output, fail_on, verbose, no_color) -> None:
    """Render in the chosen format, write it, add the GitHub step summary, and exit per --fail-on."""
    from codexdoctor.report.render import RenderOptions, render
    from codexdoctor.report.build import exit_code

    env = os.environ
    if fmt is None:
        fmt = "github" if env.get("GITHUB_ACTIONS") == "true" else "text"
    ropts = RenderOptions(color=_use_color(no_color, output) and fmt == "text",
                          ascii=not _stdout_can_encode() and not output, verbose=verbose, fail_on=fail_on,
                          width=_terminal_width(env, output) if fmt == "text" else None)
    emit(render(report, fmt, ropts), output, redactor)
    summary = env.get("GITHUB_STEP_SUMMARY")
    if fmt == "github" and summary:
        try:
            with open(summary, "a", encoding="utf-8") as fh:
                fh.write(redactor(render(report, "markdown", ropts)) + "\n")
        except OSError as exc:
            click.echo(f"codexdoctor: cannot append to GITHUB_STEP_SUMMARY: {exc.strerror or exc}", err=True)
    raise SystemExit(exit_code(report, fail_on))


lang_option = click.option("--lang", type=click.Choice(["en", "zh"]), default=None,
                           help="Language of the report: en or zh (default: from LC_ALL / LC_MESSAGES / LANG).")


def _lang(value: str | None) -> str:
    from codexdoctor.i18n import detect_lang

    return value or detect_lang(os.environ)


common_config_options = [
    click.option("-c", "--config", "overrides", multiple=True, metavar="KEY=VALUE",
                 help="Override a config value as `codex -c` does (TOML value, dotted key). Repeatable."),
    click.option("-p", "--profile", default=None, help="Config profile, as `codex --profile`."),
    click.option("-m", "--model", default=None, help="Model, as `codex --model`."),
    click.option("--codex-version", default=None, metavar="X.Y.Z",
                 help="Assume this Codex version instead of running `codex --version`."),
    lang_option,
    click.option("--shell", "shell", type=click.Choice(["bash", "zsh", "fish", "powershell", "cmd"]), default=None,
                 help="Write remedy commands for this shell (default: detected from SHELL, or PowerShell/cmd on Windows)."),
]


report_options = [
    click.option("--format", "fmt", type=click.Choice(FORMAT_CHOICES), default=None,
                 help="text (default), markdown, json, junit, github (default when GITHUB_ACTIONS=true)."),
    click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
                 help="Write the report to FILE."),
    click.option("--fail-on", type=click.Choice(["error", "warning", "never"]), default="error", show_default=True,
                 help="Exit 1 when a finding of this severity or worse exists."),
    click.option("-v", "--verbose", is_flag=True, help="Show the evidence behind every check and finding."),
    click.option("--no-color", is_flag=True, help="No ANSI colours (NO_COLOR is honoured too)."),
]


def with_report_options(func):
    for option in reversed(report_options):
        func = option(func)
    return func


def with_config_options(func):
    for option in reversed(common_config_options):
        func = option(func)
    return func


def _check_options(overrides, profile, model, codex_version, offline=True, timeout=10.0, canary=True, lang=None,
                   shell=None):
    from codexdoctor.codex import version as codexversion
    from codexdoctor.commands.doctor import CheckOptions

    env = _env()
    version = _parse_version_option(codex_version)
    if version is None and not env.get("CODEXDOCTOR_NO_CODEX_PROBE"):
        version = codexversion.detect(env)
    return CheckOptions(env=env, home=_home(env), cwd=Path.cwd(), overrides=tuple(overrides), profile=profile,
                        model=model, offline=offline, codex_version=version, timeout=timeout, canary=canary,
                        lang=_lang(lang), shell=shell)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="codexdoctor")
def cli() -> None:
    """Is your broken Codex CLI setup the channel (config, key, base_url, model, provider) or the context?

    Start with `codexdoctor check`. Exit codes: 0 ok, 1 findings at or above
    --fail-on, 2 usage error, 3 internal error, 130 interrupted.
    """


@cli.command()
@with_config_options
@click.option("--offline", is_flag=True, help="Static checks only: send no request.")
@click.option("--timeout", type=click.FloatRange(0.5, 600), default=10.0, show_default=True,
              help="Deadline in seconds for the whole check.")
@click.option("--no-canary", is_flag=True,
              help="Do not send Codex's first request to /responses (it spends about 8,500 input tokens and 16 output tokens).")
@with_report_options
def check(overrides, profile, model, codex_version, lang, shell, offline, timeout, no_canary, fmt, output, fail_on, verbose, no_color):
    """Run every static and live check of the active provider."""
    from codexdoctor.commands.doctor import run_check

    from dataclasses import replace

    opts = _check_options(overrides, profile, model, codex_version, offline, timeout, not no_canary, lang, shell)
    if sys.stderr is not None and sys.stderr.isatty():
        opts = replace(opts, extra={**opts.extra, "progress": lambda line: click.echo(line, err=True)})
    report, ctx = run_check(opts)
    publish(report, ctx.redactor, fmt, output, fail_on, verbose, no_color)


@cli.command()
@with_config_options
@click.option("--max-context", type=click.IntRange(1024), default=None,
              help="Largest session size to try, in tokens (default: the window Codex assumes x 1.1).")
@click.option("--repeat", type=click.IntRange(1, 10), default=3, show_default=True,
              help="Requests just below and just above the break, to tell stable from unstable.")
@click.option("--budget", type=click.IntRange(1000), default=300_000, show_default=True,
              help="Input tokens the probe may spend in total; it never goes past it.")
@click.option("-y", "--yes", is_flag=True, help="Run even when the worst-case estimate exceeds --budget (still stops at it).")
@click.option("--stall-threshold", type=click.FloatRange(0.1), default=2.0, show_default=True,
              help="Seconds of silence mid-answer that count as a stall.")
@click.option("--request-timeout", type=click.FloatRange(1), default=120.0, show_default=True, help="Per request, seconds.")
@click.option("--timeout", type=click.FloatRange(1), default=1800.0, show_default=True, help="Whole probe, seconds.")
@click.option("--turn-tokens", type=click.IntRange(100), default=2000, show_default=True,
              help="Typical tokens one Codex turn adds, for the turns-per-session advice.")
@click.option("--no-cache-step", is_flag=True, help="Skip the prefix-cache step (3 requests of ~4K tokens).")
@with_report_options
@click.option("-q", "--quiet", is_flag=True, help="No progress lines on stderr.")
def probe(overrides, profile, model, codex_version, lang, shell, max_context, repeat, budget, yes, stall_threshold, request_timeout,
          timeout, turn_tokens, no_cache_step, fmt, output, fail_on, verbose, quiet, no_color):
    """Single question vs a growing session: find where it breaks, and whether the break is stable.

    Spends tokens: the plan (requests and input tokens) is printed before anything is sent,
    and the probe never goes past --budget.
    """
    from codexdoctor.commands.doctor import ProbeRefused, run_probe
    from codexdoctor.checks.probe import ProbeSettings

    settings = ProbeSettings(max_context=max_context, repeat=repeat, budget=budget, stall_threshold_s=stall_threshold,
                             request_timeout_s=request_timeout, total_timeout_s=timeout, turn_tokens=turn_tokens,
                             cache_step=not no_cache_step)
    progress = (lambda line: None) if quiet else (lambda line: click.echo(line, err=True))

    def confirm(plan: str) -> bool:
        if yes:
            return True
        if sys.stdin is not None and sys.stdin.isatty():
            return click.confirm("The estimate exceeds --budget. Run anyway (it stops at the budget)?", default=False, err=True)
        return False

    opts = _check_options(overrides, profile, model, codex_version, offline=False, lang=lang, shell=shell)
    try:
        report, ctx = run_probe(opts, settings, confirm, progress)
    except ProbeRefused:
        click.echo(f"codexdoctor probe: not started: the worst-case estimate exceeds --budget {budget:,} input tokens. "
                   "Pass --yes to run anyway (it stops at the budget), raise --budget, or lower --max-context.", err=True)
        raise SystemExit(EXIT_USAGE) from None
    interrupted = any(c.facts.get("stopped") == "interrupted" for c in report.checks)
    try:
        publish(report, ctx.redactor, fmt, output, fail_on, verbose, no_color)
    except SystemExit as done:  # Ctrl-C: the partial result is printed, and the exit code still says interrupted
        raise SystemExit(130 if interrupted else done.code) from None


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--last", type=click.IntRange(1), default=None, help="Only the N most recent sessions.")
@click.option("--since", type=click.DateTime(formats=["%Y-%m-%d", "%Y-%m-%dT%H:%M"]), default=None,
              help="Only sessions started on or after DATE (YYYY-MM-DD).")
@click.option("--session", "session_id", default=None, help="One session (its id or an id prefix); shows its detail.")
@click.option("--show-content", is_flag=True, help="Also show the start of each user message (never shown otherwise).")
@lang_option
@with_report_options
def sessions(paths, last, since, session_id, show_content, lang, fmt, output, fail_on, verbose, no_color):
    """Post-mortem of Codex's own session logs: context per turn, how sessions ended, and why. Offline."""
    from codexdoctor.commands.doctor import run_sessions

    from codexdoctor.checks.sessions import AmbiguousSession

    missing = [str(p) for p in paths if not Path(p).exists()]
    if missing:
        raise click.BadParameter(f"{', '.join(missing)} does not exist", param_hint="PATH")
    try:
        report, redactor = run_sessions(_env(), _home(_env()), tuple(paths), last, since, session_id, show_content, _lang(lang))
    except AmbiguousSession as exc:
        raise click.BadParameter(str(exc), param_hint="--session") from None
    publish(report, redactor, fmt, output, fail_on, verbose, no_color)


PASTE_MAX_BYTES = 1 << 20


@cli.command("diagnose-error")
@click.argument("text", required=False)
@click.option("-f", "--file", "file_", type=click.Path(dir_okay=False), default=None,
              help="Read the error from this file (a saved stderr of Codex), at most 1 MiB.")
@with_config_options
@with_report_options
def diagnose_error(text, file_, overrides, profile, model, codex_version, lang, shell, fmt, output, fail_on, verbose, no_color):
    """Classify a pasted Codex or provider error (TEXT, - for stdin, or --file) into verdict, code and remedy.

    A whole stderr works: Codex's own decoration (ERROR:, Reconnecting... n/5, ; retrying …) is read past.
    """
    from codexdoctor.commands.doctor import run_diagnose

    if file_ is not None:
        text = _read_paste_file(file_)
    elif text is None:
        raise click.BadParameter("give the error TEXT, - to read stdin, or --file PATH", param_hint="TEXT")
    elif text == "-":
        try:
            text = sys.stdin.read(PASTE_MAX_BYTES) if sys.stdin is not None else ""
        except (OSError, ValueError) as exc:
            raise click.BadParameter(f"cannot read the error text from stdin: {exc}", param_hint="TEXT") from None
    if not text.strip():
        raise click.BadParameter("the error text is empty", param_hint="TEXT")
    report, ctx = run_diagnose(_check_options(overrides, profile, model, codex_version, lang=lang, shell=shell), text)
    publish(report, ctx.redactor, fmt, output, fail_on, verbose, no_color)


def _read_paste_file(path: str) -> str:
    """A regular file only (a FIFO or device would block or never end), at most PASTE_MAX_BYTES."""
    import stat

    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise click.BadParameter(f"{path} is not a regular file", param_hint="--file")
        with open(path, "rb") as handle:
            raw = handle.read(PASTE_MAX_BYTES)
    except OSError as exc:
        raise click.BadParameter(f"cannot read {path}: {exc.strerror or exc}", param_hint="--file") from None
    return raw.decode("utf-8", errors="replace")


@cli.command()
@with_config_options
@click.option("-y", "--yes", is_flag=True, help="Apply every edit without asking.")
@click.option("--dry-run", is_flag=True, help="Show the diff and exit; change nothing.")
@click.option("--only", multiple=True, metavar="CODE", help="Only fix these findings (repeatable).")
@click.option("--offline", is_flag=True, help="Static checks only (no request is sent; live-only fixes are not offered).")
@click.option("--timeout", type=click.FloatRange(0.5, 600), default=10.0, show_default=True,
              help="Deadline in seconds for each check run (before and after the edits).")
@click.option("--no-canary", is_flag=True, help="Re-check without sending Codex's first request (no tokens spent).")
@click.option("--fail-on", type=click.Choice(["error", "warning", "never"]), default="error", show_default=True,
              help="Exit 1 when a finding of this severity or worse is left after the fix.")
def fix(overrides, profile, model, codex_version, lang, shell, yes, dry_run, only, offline, timeout, no_canary, fail_on):
    """Apply the config remedies whose fix is certain: diff first, backup, atomic write, then check again."""
    from codexdoctor.report import fixes as fix_mod
    from codexdoctor.codex import secrets as secrets_mod
    from codexdoctor.commands.doctor import run_check
    from codexdoctor.report.build import exit_code

    opts = _check_options(overrides, profile, model, codex_version, offline, timeout, not no_canary, lang, shell)
    lang = opts.lang
    say = lambda key, **values: redact(fix_mod.say(key, lang, **values))  # noqa: E731
    before, ctx = run_check(opts)
    plan = fix_mod.build_plan(before, ctx, only)
    redact = ctx.redactor
    codes = lambda report: ", ".join(f.code for f in report.findings) or fix_mod.say("none", lang)  # noqa: E731

    def verdict(report) -> str:
        from codexdoctor.i18n import ui

        value = report.verdict.value
        return f"{ui('verdict_' + value, lang)} ({value})" if lang == "zh" else value

    click.echo(say("before", verdict=verdict(before), codes=codes(before)))
    for note in plan.skipped:
        click.echo(say("skipped", note=note.get(lang)))
    for finding in plan.commands:
        click.echo(say("command", code=finding.code, title=finding.title))
        for number, step in enumerate(finding.remedy, 1):
            click.echo(redact(f"  {number}. {step}"))
    if not plan.edits:
        click.echo(say("nothing"))
        raise SystemExit(exit_code(before, fail_on))
    try:
        changes = fix_mod.prepare(plan.edits)
    except (fix_mod.FixError, OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(redact(f"cannot prepare the edits: {exc}")) from None
    chosen: list = []
    for change in changes:
        # Each edit as one line, then the file's diff once: the same lines are never shown twice.
        click.echo(say("edits", file=change.shown))
        for edit in change.edits:
            click.echo(redact(f"  {edit.code}: {edit.describe(lang)}"))
        click.echo(redact(fix_mod.unified_diff(change.before, change.after, change.shown, lang)).rstrip())
    if dry_run:
        click.echo(say("dry_run"))
        raise SystemExit(EXIT_OK)
    if yes:
        chosen = [e for c in changes for e in c.edits]
    elif sys.stdin is not None and sys.stdin.isatty():
        chosen = [e for c in changes for e in c.edits
                  if click.confirm(say("apply", code=e.code, edit=e.describe(lang)), default=True)]
    else:
        click.echo(say("no_tty"), err=True)
        raise SystemExit(EXIT_USAGE)
    if not chosen:
        click.echo(say("none_applied"))
        raise SystemExit(EXIT_OK)
    secret_values = secrets_mod.collect(ctx.resolution, ctx.env)
    try:
        for change in fix_mod.prepare(chosen):
            backup = fix_mod.write_atomic(change.path, change.original, change.after, secret_values)
            click.echo(say("wrote", file=change.shown, backup=ctx.resolution.show(backup)))
    except (fix_mod.FixError, OSError) as exc:
        raise click.ClickException(redact(f"nothing more was written: {exc}")) from None
    after, _ = run_check(opts)
    click.echo(say("after", verdict=verdict(after), codes=codes(after)))
    fixed = sorted({e.code for e in chosen} - {f.code for f in after.findings})
    if fixed:
        click.echo(say("fixed", codes=", ".join(fixed)))
    raise SystemExit(exit_code(after, fail_on))


@cli.command("config")
@with_config_options
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text (a table) or json (values with their sources, for scripts).")
def config_cmd(overrides, profile, model, codex_version, lang, shell, fmt):
    """Print the resolved provider and where each value came from (redacted)."""
    from codexdoctor.report.configview import render_config
    from codexdoctor.commands.doctor import make_context

    ctx = make_context(_check_options(overrides, profile, model, codex_version))
    emit(render_config(ctx, fmt, _lang(lang)), None, ctx.redactor)


@cli.command()
@click.argument("code")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text or json (the rule as data).")
@lang_option
def explain(code, fmt, lang):
    """Explain a finding code: what it means, why it happens, how to fix it."""
    from codexdoctor.report.catalogview import explain_rule

    text = explain_rule(code.strip().upper(), fmt, _lang(lang))
    if text is None:
        raise click.BadParameter(f"unknown code {code!r}; `codexdoctor rules` lists them all", param_hint="CODE")
    click.echo(text, nl=False)


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True,
              help="text (a table), json, or markdown (the text of docs/rules.md).")
@lang_option
def rules(fmt, lang):
    """List every finding code."""
    from codexdoctor.report.catalogview import list_rules

    click.echo(list_rules(fmt, _lang(lang)), nl=False)


@cli.command()
def schema():
    """Print the JSON Schema of the `--format json` report."""
    from importlib.resources import files

    click.echo(files("codexdoctor").joinpath("data/report.schema.json").read_text(encoding="utf-8"), nl=False)


@cli.command()
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="0 picks a free port.")
@click.option("--prefix", default="/v1", show_default=True, help="Path prefix of the API routes.")
@click.option("--api-key", default=None, help="Require this bearer key (default: no key required).")
@click.option("--model", "models", multiple=True, default=("sim-model",), show_default=True, help="Served model ID; repeatable.")
@click.option("--context-window", type=click.IntRange(1), default=None, help="Reject prompts over this many tokens.")
@click.option("--error-style", type=click.Choice(["openai", "vllm", "llamacpp", "litellm", "ollama"]), default="openai",
              show_default=True, help="Whose error bodies to imitate; `ollama` truncates silently and answers 200.")
@click.option("--latency-ms", type=float, default=0.0, show_default=True, help="Base time to first token.")
@click.option("--latency-per-1k-ms", type=float, default=0.0, show_default=True, help="Extra time to first token per 1000 prompt tokens.")
@click.option("--stall-after", type=click.IntRange(0), default=None, help="Pause the stream after N output tokens.")
@click.option("--stall-seconds", type=float, default=2.0, show_default=True, help="How long each --stall-after pause lasts.")
@click.option("--failure-rate", type=click.FloatRange(0, 1), default=0.0, show_default=True,
              help="Share of requests that fail with a 502, a reset or a hang.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed for --failure-rate.")
@click.option("--chat-only", is_flag=True, help="404 on /responses (a gateway without the Responses API).")
@click.option("--models-unauthenticated", is_flag=True, help="Serve /models without checking the key.")
@click.option("--no-models", is_flag=True, help="No /models route.")
@click.option("--landing-page", is_flag=True, help="Serve an HTML landing page at / and HTML 404s.")
@click.option("--publish-window", is_flag=True, help="Publish the window (/props n_ctx, max_model_len in /models).")
@click.option("--prefix-cache", is_flag=True, help="Reuse repeated prompt prefixes and report cached_tokens.")
@click.option("--hang", is_flag=True, help="Accept connections and never answer.")
@click.option("--reject-field", "reject_fields", multiple=True,
              help="Answer 400 'Unsupported parameter' when the request has this top-level field (e.g. reasoning); repeatable.")
@click.option("--reject-developer", is_flag=True, help="Answer 400 to `developer` input items, as a broken gateway translation does.")
@click.option("-v", "--verbose", is_flag=True, help="Log every request (keys redacted).")
def sim(port, prefix, api_key, models, context_window, error_style, latency_ms, latency_per_1k_ms, stall_after,
        stall_seconds, failure_rate, seed, chat_only, models_unauthenticated, no_models, landing_page, publish_window,
        prefix_cache, hang, reject_fields, reject_developer, verbose):
    """Serve a local OpenAI-compatible provider with fault injection, on 127.0.0.1."""
    import time as _time

    from codexdoctor import sim as sim_mod

    cfg = sim_mod.SimConfig(
        port=port, prefix="/" + prefix.strip("/") if prefix.strip("/") else "", api_key=api_key, models=tuple(models),
        context_window=context_window, error_style=error_style, latency_ms=latency_ms, latency_per_1k_ms=latency_per_1k_ms,
        stall_after_tokens=stall_after, stall_seconds=stall_seconds, failure_rate=failure_rate, failure_seed=seed,
        chat_only=chat_only, models_unauthenticated=models_unauthenticated, models_route=not no_models,
        landing_page=landing_page, publish_window=publish_window, prefix_cache=prefix_cache, hang=hang,
        reject_fields=tuple(reject_fields), reject_developer=reject_developer, quiet=not verbose)
    try:
        running = sim_mod.RunningSim(cfg).start()
    except OSError as exc:
        raise click.ClickException(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    click.echo(f"codexdoctor sim: serving {running.base_url}  (Ctrl-C to stop)")
    click.echo("\nPaste into $CODEX_HOME/config.toml (use a throw-away CODEX_HOME to keep your real config):\n")
    click.echo(sim_mod.config_snippet(running.base_url, models[0]))
    click.echo(f"export SIM_API_KEY={api_key or 'any-value'}   # the simulator's own key, not a real one")
    try:
        while True:
            _time.sleep(0.5)
    except KeyboardInterrupt:
        click.echo("\ncodexdoctor sim: stopped", err=True)
    finally:
        running.stop()


@cli.command()
@click.option("--scenario", "names", multiple=True, help="Run only this scenario (repeatable); its full report is printed.")
@click.option("--list", "list_only", is_flag=True, help="List the scenarios and exit.")
@lang_option
def demo(names, list_only, lang):
    """See every diagnosis without an account: runs the real checks against the built-in simulator.

    Never reads or writes your ~/.codex: each scenario has its own temporary CODEX_HOME.
    Exits 0 only when every scenario got its expected verdict (a self-test).
    """
    from codexdoctor.commands import demo as demo_mod
    from codexdoctor.report.render import RenderOptions, render

    known = {s.name for s in demo_mod.SCENARIOS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise click.BadParameter(f"unknown scenario {unknown[0]!r}; choose from: {', '.join(sorted(known))}",
                                 param_hint="--scenario")
    if list_only:
        for s in demo_mod.SCENARIOS:
            click.echo(f"{s.name:20} expected {s.expected:8} {s.description}")
        return
    from codexdoctor.i18n import ui

    lang = _lang(lang)
    ascii_only = not _stdout_can_encode()
    running = "  正在运行 {}…" if lang == "zh" else "  running {}..."
    outcomes = demo_mod.run_all(tuple(names), progress=lambda n: click.echo(running.format(n), err=True), lang=lang)
    if names:
        width = _terminal_width(os.environ, None)
        for o in outcomes:
            about = demo_mod.DESCRIPTIONS_ZH[o.scenario.name] if lang == "zh" else o.scenario.description
            click.echo(f"=== {o.scenario.name}: {about}")
            click.echo(render(o.report, "text", RenderOptions(ascii=ascii_only, width=width)))
    click.echo(demo_mod.table(outcomes, ascii_only, lang))
    failed = [o for o in outcomes if not o.passed]
    click.echo("\n" + ui("demo_summary", lang, ok=len(outcomes) - len(failed), total=len(outcomes)))
    raise SystemExit(1 if failed else 0)


def _known_secrets() -> list[str]:
    """Values of key-like variables in this environment, for redacting a crash report."""
    return [v for k, v in os.environ.items()
            if v and len(v) >= 8 and k.upper().endswith(("_KEY", "_TOKEN", "_SECRET", "_PASSWORD"))]


def main(argv: list[str] | None = None) -> int:
    """One error boundary: 2 usage, 3 internal, 130 interrupted; never a traceback."""
    from codexdoctor.codex.config import OverrideError

    try:
        cli.main(args=argv, prog_name="codexdoctor", standalone_mode=False)
        return EXIT_OK
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    except click.exceptions.Abort:
        click.echo("Interrupted.", err=True)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        return EXIT_INTERRUPTED
    except click.UsageError as exc:
        exc.show()
        return EXIT_USAGE
    except OverrideError as exc:
        click.echo(f"Error: {exc}", err=True)
        return EXIT_USAGE
    except click.ClickException as exc:
        exc.show()
        return EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - the boundary
        from codexdoctor.common.redact import Redactor

        import traceback

        redact = Redactor(_known_secrets(), home=os.environ.get("HOME"))
        message = redact(f"{type(exc).__name__}: {exc}")
        click.echo(f"codexdoctor: internal error: {message}\nThis is a bug in codexdoctor; please report it "
                   "with the command you ran (set CODEXDOCTOR_DEBUG=1 for a traceback).", err=True)
        if os.environ.get("CODEXDOCTOR_DEBUG"):
            # Even the traceback goes through redaction: exception messages can carry a key or a URL token.
            click.echo(redact(traceback.format_exc()), err=True)
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
