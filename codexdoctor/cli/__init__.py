"""Command line: click's values become one options object per command (cli/provider.py, cli/local.py), which the
command's run() takes whole (codexdoctor/commands/). One error boundary in main()."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from codexdoctor import __version__
from codexdoctor.cli import local, provider, watch
from codexdoctor.cli.params import lang_option

EXIT_OK, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 2, 3, 130


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

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command's whole first sentence, wrapped by the help formatter: click cuts it at ~45 characters with
        "..." (issue 40: no word a user reads is cut with an ellipsis)."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.short_help or first_sentence(command.help or "")))
        if rows:
            with formatter.section(click.core._("Commands")):  # type: ignore[attr-defined]  # zh run: 命令
                formatter.write_dl(rows)


def first_sentence(help_text: str) -> str:
    """The first sentence of a help's first paragraph, whitespace folded: up to a "." that ends the text or is
    followed by a word not in lower case (as click's, so "vs." or "e.g." does not end it), or up to a "。"."""
    words = help_text.partition("\n\n")[0].split()
    for i, word in enumerate(words):
        if "。" in word[:-1]:  # Chinese: a sentence ends inside a run with no spaces
            return " ".join([*words[:i], word[: word.index("。") + 1]])
        if word.endswith((".", "。")) and (i == len(words) - 1 or not words[i + 1][0].islower()):
            return " ".join(words[: i + 1])
    return " ".join(words)


VERSION_MESSAGE = "%(prog)s, version %(version)s"  # click's own words, looked up when shown: 版本 in Chinese


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """`--version` in the run's language: click words the line when the command line is built, before the language
    is known (i18n/cli_zh.py installs its table for a Chinese run)."""
    if not value or ctx.resilient_parsing:
        return
    message = click.decorators._(VERSION_MESSAGE)  # type: ignore[attr-defined]
    click.echo(message % {"prog": "codexdoctor", "package": "codexdoctor", "version": __version__})
    ctx.exit()


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_show_version,
    help="Show the version and exit.",
)
@lang_option
@click.pass_context
def cli(ctx: click.Context, lang: str | None) -> None:
    """Is your broken Codex CLI setup the channel (config, key, base_url, model, provider) or the context?

    Start with `codexdoctor check`. Exit codes: 0 ok, 1 findings at or above
    --fail-on, 2 usage error, 3 internal error, 130 interrupted.
    """
    # `codexdoctor --lang zh check` (as README writes it) is the command's own --lang: its default, so that a --lang
    # after the command still wins and none at all leaves the locale to decide (issue 40).
    if lang is not None:
        ctx.default_map = {name: {"lang": lang} for name in cli.commands}


# Every command; each carries the name it is called by, and `codexdoctor --help` lists them sorted.
COMMANDS: tuple[click.Command, ...] = (
    provider.check,
    provider.probe,
    provider.report,
    local.sessions,
    provider.diagnose_error,
    provider.fix,
    provider.config_cmd,
    local.explain,
    local.rules,
    local.schema,
    local.sim,
    local.demo,
    watch.watch,
)
for _command in COMMANDS:
    cli.add_command(_command)


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
    from codexdoctor.cli.linebreak import install_help

    restore = [install_help(lang)]  # --help breaks at real break points, by cells, in both languages
    try:
        if lang == "zh":  # --help, click's messages and usage errors in Chinese (the tables load for these runs only)
            from codexdoctor.i18n.cli_zh import install

            restore.append(install(cli))
        return _main(args, lang)
    except KeyboardInterrupt:  # called in-process (tests) with a handler that raises: outside a command, it is here
        return _interrupted(lang)
    finally:
        for undo in reversed(restore):
            undo()


def _interrupted(lang: str) -> int:
    from codexdoctor.common import interrupt

    interrupt.say(lang, lambda text: click.echo(text, err=True))
    return EXIT_INTERRUPTED


def _localize(text: str, lang: str, exc: BaseException | None = None) -> str:
    """An error message in the run's language; the tables are imported for a Chinese run only. The command line's own
    words (i18n/cli_zh.py: click's messages and the OS's) come first: a usage error names a finding's code 问题编号,
    not 代码; then the error's own Msg (model.said_error); else the message as it is."""
    if lang != "zh":
        return text
    from codexdoctor.common.oserror import words_zh
    from codexdoctor.i18n.cli_zh import usage_error_zh

    own = usage_error_zh(text, words_zh)
    if own is not None:
        return own
    from codexdoctor.model import Msg

    said = getattr(exc, "said", None)
    if isinstance(said, Msg):
        return said.text(lang)
    return text


def _fit(text: str, lang: str) -> str:
    """An error fitted to the terminal (issue 40: "Error: Invalid value for CODE: …" ran to 88 cells): each line
    wider than it wrapped, counted in cells of the run's language, the lines after the first indented under the
    message, past "Error: " (错误：)."""
    from codexdoctor.cli.linebreak import wrap
    from codexdoctor.commands.output import terminal_width
    from codexdoctor.common.cells import cells

    width = terminal_width()

    def measure(line: str) -> int:
        return cells(line, lang)

    out = []
    for line in text.split("\n"):
        if measure(line) <= width:
            out.append(line)
            continue
        head, colon, rest = line.partition("：" if lang == "zh" else ": ")
        if not colon or measure(head + colon) > width // 3:
            head, colon, rest = "", "", line
        out.extend(wrap(rest, width, head + colon, " " * measure(head + colon), measure))
    return "\n".join(out)


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
        exc.message = sanitize(_localize(exc.message, lang, exc), newlines=True)  # type: ignore[misc]
        if zh and isinstance(exc, click.BadParameter) and isinstance(exc.param, click.Option) and not exc.param_hint:
            exc.param_hint = " / ".join(exc.param.opts)  # "--format 的值无效", not click's "'--format'"
        import io

        shown = io.StringIO()
        exc.show(file=shown)
        click.echo(_fit(shown.getvalue(), lang), err=True, nl=False)
        return EXIT_USAGE
    except Exception as exc:
        from codexdoctor.common import interrupt

        if interrupt.caught():  # a Ctrl-C that came back wrapped in another error (common/interrupt.caught)
            return _interrupted(lang)
        # Imported here, not at start-up (29 ms that `--version` paid for): a `-c` error has loaded it already.
        from codexdoctor.codex.config import OverrideError

        if isinstance(exc, OverrideError):
            from codexdoctor.common.untrusted import sanitize

            message = sanitize(f"错误：{_localize(str(exc), lang, exc)}" if zh else f"Error: {exc}")
            click.echo(_fit(message, lang), err=True)
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
