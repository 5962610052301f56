"""`codexdoctor config`: the resolved provider and where each value came from (redacted)."""

from __future__ import annotations

from codexdoctor.commands.environment import language
from codexdoctor.commands.options import CheckOptions, make_context
from codexdoctor.commands.output import emit, terminal_width


def run(opts: CheckOptions, fmt: str, lang: str | None) -> None:
    from codexdoctor.report.configview import render_config

    ctx = make_context(opts)
    lang = language(lang)
    emit(render_config(ctx, fmt, lang, terminal_width()), None, ctx.redactor, lang if fmt != "json" else "en")
