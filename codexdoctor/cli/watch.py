"""`codexdoctor watch`: click's values as the command's options object (its own module: the command takes Codex's
whole command line after `--`)."""

from __future__ import annotations

import click

from codexdoctor.cli.params import OutputFile, lang_option


@click.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.argument("codex_argv", nargs=-1, type=click.UNPROCESSED, metavar="[-- codex ARGS...]")
@click.option("--serve", is_flag=True, help="Run the recorder alone and print the `-c` line to start Codex with.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="Port for --serve (default: any free port).")
@click.option("--keep-bodies", is_flag=True, help="Keep request and response bodies in the recording (redacted).")
@click.option("--log", "log", type=OutputFile(), default=None, help="Append a line per request to FILE as it happens.")
@click.option(
    "--stall-seconds",
    type=click.FloatRange(0.1, 3600),
    default=20.0,
    show_default=True,
    help="A silence inside a stream at least this long counts as a stall.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "markdown", "json"]),
    default=None,
    help="Format of the diagnosis: text (default), markdown or json.",
)
@click.option("-o", "--output", type=OutputFile(), default=None, help="Write the diagnosis to FILE.")
@click.option("-v", "--verbose", is_flag=True, help="Show the evidence behind every check and finding.")
@lang_option
def watch(
    codex_argv: tuple[str, ...],
    serve: bool,
    port: int,
    keep_bodies: bool,
    log: str | None,
    stall_seconds: float,
    fmt: str | None,
    output: str | None,
    verbose: bool,
    lang: str | None,
) -> None:
    """Run Codex through a local recorder and diagnose the real session: `codexdoctor watch -- codex exec "…"`."""
    from codexdoctor.commands import watch as command
    from codexdoctor.commands.output import PublishOptions

    if not serve and not codex_argv:
        raise click.UsageError("give Codex's command after `--` (codexdoctor watch -- codex …), or use --serve")
    if serve and codex_argv:
        raise click.UsageError("--serve runs the recorder alone: give no Codex command with it")
    command.run(
        command.WatchOptions(
            argv=tuple(codex_argv),
            serve=serve,
            port=port,
            keep_bodies=keep_bodies,
            log=log,
            lang=lang,
            stall_seconds=stall_seconds,
            publish=PublishOptions(fmt=fmt, output=output, verbose=verbose),
        )
    )
