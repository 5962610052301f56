"""Output formats: each is a pure function Report -> str."""

from __future__ import annotations

from collections.abc import Callable

from codexdoctor.model import Report
from codexdoctor.report.render.options import RenderOptions

__all__ = ["FORMATS", "RenderOptions", "Renderer", "render"]


Renderer = Callable[[Report, RenderOptions], str]


def _text(report: Report, opts: RenderOptions) -> str:
    from codexdoctor.report.render.text import render

    return render(report, opts)


def _markdown(report: Report, opts: RenderOptions) -> str:
    from codexdoctor.report.render.markdown import render

    return render(report, opts)


def _json(report: Report, opts: RenderOptions) -> str:
    from codexdoctor.report.render.json import render

    return render(report, opts)


def _junit(report: Report, opts: RenderOptions) -> str:
    from codexdoctor.report.render.junit import render

    return render(report, opts)


def _github(report: Report, opts: RenderOptions) -> str:
    from codexdoctor.report.render.github import render

    return render(report, opts)


FORMATS: dict[str, Renderer] = {"text": _text, "markdown": _markdown, "json": _json, "junit": _junit, "github": _github}


def render(report: Report, fmt: str, opts: RenderOptions | None = None) -> str:
    return FORMATS[fmt](report, opts or RenderOptions())
