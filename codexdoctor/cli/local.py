"""The commands that never talk to the user's provider: sessions (Codex's own logs), explain, rules and schema (the
catalog), sim and demo (the built-in simulator).

Each turns click's values into its command's options object and hands that to the command; the command modules
are imported only when the command runs."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import click

from codexdoctor.cli.params import (
    DateParam,
    lang_option,
    publish_options,
    with_findings_report_options,
)


@click.command()
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
@with_findings_report_options
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
    command.run(
        command.SessionsOptions(
            paths=paths,
            last=last,
            since=since,
            session_id=session_id,
            show_content=show_content,
            lang=lang,
            publish=publish_options(fmt, output, fail_on, verbose, no_color),
        )
    )


@click.command()
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

    command.explain(command.ExplainOptions(code, fmt=fmt, lang=lang))


@click.command()
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

    command.list_all(command.RulesOptions(fmt=fmt, lang=lang))


@click.command()
def schema() -> None:
    """Print the JSON Schema of the `--format json` report."""
    from codexdoctor.commands import rules as command

    command.schema()


# The stream endings `sim --stream-end` offers: those of sim/endings.py, and the two that carry an error code (kept
# here, not imported: `--help` must not load the simulator).
STREAM_ENDS = (
    "incomplete",
    "response_failed",
    "error_event",
    "error_then_completed",
    "no_terminal",
    "done_only",
    "trailing_done",
)


# An argument parser, one parameter per option: it only builds the SimConfig that commands/sim.py serves.
@click.command()
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
@click.option(
    "--cache-stops-after",
    type=click.IntRange(0),
    default=None,
    help="With --prefix-cache: the cache serves the first N requests, then never hits again (cached_tokens drops to 0).",
)
@click.option("--no-cached-tokens", is_flag=True, help="Leave cached_tokens out of usage (a provider that never says).")
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
@click.option(
    "--stream-end",
    type=click.Choice(list(STREAM_ENDS)),
    metavar="END",
    default=None,
    help="End each streamed answer this way instead of response.completed: incomplete, response_failed, "
    "error_event, error_then_completed, no_terminal, done_only or trailing_done (docs/simulator.md).",
)
@click.option(
    "--incomplete-reason",
    default="max_output_tokens",
    show_default=True,
    help="The reason of --stream-end incomplete: max_output_tokens or content_filter.",
)
@click.option(
    "--error-code",
    default="server_error",
    show_default=True,
    help="The error code of --stream-end response_failed or error_event, e.g. rate_limit_exceeded, "
    "insufficient_quota, server_is_overloaded, context_length_exceeded or usage_not_included.",
)
@click.option(
    "--error-message",
    default=None,
    help="The error message of --stream-end response_failed or error_event (default: the one OpenAI sends with "
    "--error-code).",
)
@click.option(
    "--output-tokens",
    type=click.IntRange(1),
    default=24,
    show_default=True,
    help="Output tokens of each answer (where --stream-end incomplete stops).",
)
@click.option(
    "--single-tool-result",
    is_flag=True,
    help="Refuse (400) a request that carries more than one function_call_output, as a chat bridge that keeps one "
    "tool result per round does; one call and its output pass.",
)
@click.option(
    "--tool-calls",
    type=click.IntRange(1, 8),
    default=None,
    help="Answer a request without tool outputs with this many exec_command calls (`echo hi`), then with text: "
    "Codex's parallel tool round.",
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
    cache_stops_after: int | None,
    no_cached_tokens: bool,
    hang: bool,
    reject_fields: tuple[str, ...],
    reject_developer: bool,
    stream_end: str | None,
    incomplete_reason: str,
    error_code: str,
    error_message: str | None,
    output_tokens: int,
    single_tool_result: bool,
    tool_calls: int | None,
    verbose: bool,
    lang: str | None,
) -> None:
    """Serve a local OpenAI-compatible provider with fault injection, on 127.0.0.1."""
    from codexdoctor import sim as sim_mod
    from codexdoctor.commands import sim as command

    config = sim_mod.SimConfig(
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
        cache_stops_after=cache_stops_after,
        report_cached_tokens=not no_cached_tokens,
        hang=hang,
        reject_fields=tuple(reject_fields),
        reject_developer=reject_developer,
        stream_fault=stream_end,
        incomplete_reason=incomplete_reason,
        fault_code=error_code,
        fault_message=error_message,
        output_tokens=output_tokens,
        turn_two_fault="single_tool_result" if single_tool_result else None,
        ask_tool_call="echo hi" if tool_calls else None,
        tool_calls=tool_calls or 1,
        quiet=not verbose,
    )
    command.serve(command.SimOptions(config, lang=lang))


@click.command()
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

    command.run(command.DemoOptions(tuple(names), list_only=list_only, lang=lang))
