"""`codexdoctor explain`, `rules` and `schema`: the catalog and the report schema, printed."""

from __future__ import annotations

import click

from codexdoctor.commands.environment import language


def explain(code: str, fmt: str, lang: str | None) -> None:
    from codexdoctor.commands.output import terminal_width
    from codexdoctor.report.catalogview import explain_rule

    text = explain_rule(code.strip().upper(), fmt, language(lang), terminal_width())
    if text is None:
        raise click.BadParameter(f"unknown code {code!r}; `codexdoctor rules` lists them all", param_hint="CODE")
    click.echo(text, nl=False)


def list_all(fmt: str, lang: str | None) -> None:
    from codexdoctor.commands.output import terminal_width
    from codexdoctor.report.catalogview import list_rules

    click.echo(list_rules(fmt, language(lang), terminal_width()), nl=False)


def schema() -> None:
    from importlib.resources import files

    click.echo(files("codexdoctor").joinpath("data/report.schema.json").read_text(encoding="utf-8"), nl=False)
