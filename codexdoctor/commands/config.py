"""`codexdoctor config`: the resolved provider and where each value came from (redacted)."""

from __future__ import annotations

from dataclasses import dataclass

from codexdoctor.commands.environment import language
from codexdoctor.commands.options import CheckOptions, make_context
from codexdoctor.commands.output import emit, terminal_width


@dataclass(frozen=True)
class ConfigOptions:
    """`codexdoctor config`: the config to resolve (-c, -p, -m), the format, and --lang as given."""

    check: CheckOptions
    fmt: str = "text"  # text or json
    lang: str | None = None  # --lang; None: the locale's


def run(opts: ConfigOptions) -> None:
    from codexdoctor.report.configview import render_config

    ctx = make_context(opts.check)
    lang = language(opts.lang)
    fmt = opts.fmt
    emit(render_config(ctx, fmt, lang, terminal_width()), None, ctx.redactor, lang if fmt != "json" else "en")
