"""`codexdoctor explain`, `rules` and `schema`: the catalog and the report schema, printed."""

from __future__ import annotations

from dataclasses import dataclass

import click

from codexdoctor.commands.environment import language
from codexdoctor.model import Msg, said_error


@dataclass(frozen=True)
class ExplainOptions:
    """`codexdoctor explain CODE`: the code as typed, the format and --lang as given."""

    code: str
    fmt: str = "text"  # text or json
    lang: str | None = None  # --lang; None: the locale's


@dataclass(frozen=True)
class RulesOptions:
    """`codexdoctor rules`: the format and --lang as given."""

    fmt: str = "text"  # text, json or markdown
    lang: str | None = None  # --lang; None: the locale's


def explain(opts: ExplainOptions) -> None:
    from codexdoctor.commands.output import terminal_width
    from codexdoctor.report.catalogview import explain_rule

    code = opts.code
    text = explain_rule(code.strip().upper(), opts.fmt, language(opts.lang), terminal_width())
    if text is None:
        said = Msg(
            "unknown code {c}; `codexdoctor rules` lists them all",
            "未知的问题编号 {c}；`codexdoctor rules` 会列出全部问题编号",
            c=repr(code),
        )
        raise said_error(click.BadParameter(str(said), param_hint="CODE"), said)
    click.echo(text, nl=False)


def list_all(opts: RulesOptions) -> None:
    from codexdoctor.commands.output import terminal_width
    from codexdoctor.report.catalogview import list_rules

    click.echo(list_rules(opts.fmt, language(opts.lang), terminal_width()), nl=False)


def schema() -> None:
    from importlib.resources import files

    click.echo(files("codexdoctor").joinpath("data/report.schema.json").read_text(encoding="utf-8"), nl=False)
