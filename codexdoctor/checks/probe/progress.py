"""The probe's progress lines: one header, then one row per step in columns counted in cells (a Chinese character
takes two), and the "still waiting" line a terminal rewrites in place.

Issue 40 (review): each step was one self-describing line (`… 32,650 tokens -> context window exceeded first token -
(spent 76,213/300,000)`) wider than 80 columns in both languages, so the wrapping collapsed its padding and no two
lines lined up. The row is now the columns of a header said once; the result, the only column of any length, comes
last, and goes on a line of its own when the screen is too narrow for it.
"""

from __future__ import annotations

from codexdoctor.common.cells import cells
from codexdoctor.common.words import pad_cells

HEADERS = {
    "en": ("step", "tokens", "first token", "spent", "result"),
    "zh": ("阶段", "token 数", "首字延迟", "已用", "结果"),
}
WIDTHS = (15, 9, 11, 9)  # cells of the columns before the result: the header and "result" fit 60 columns
INDENT = "  "
GAP = "  "


def _columns(values: tuple[str, str, str, str], lang: str) -> str:
    first, *numbers = values
    out = INDENT + pad_cells(first, WIDTHS[0], lang)
    for value, width in zip(numbers, WIDTHS[1:], strict=True):
        out += GAP + " " * max(0, width - cells(value, lang)) + value
    return out + GAP


def header(lang: str) -> str:
    """The columns' names, printed once before the first step."""
    names = HEADERS["zh" if lang == "zh" else "en"]
    return (_columns((names[0], names[1], names[2], names[3]), lang) + names[4]).rstrip()


def row(phase: str, sent: int, ttft_ms: float | None, spent: int, result: str, lang: str, width: int | None) -> str:
    """One step under the header; the result on the next line (indented) when the row would pass `width`."""
    ttft = f"{ttft_ms:,.0f} ms" if ttft_ms is not None else "-"
    start = _columns((phase, f"{sent:,}", ttft, f"{spent:,}"), lang)
    if width and cells(start + result, lang) > width:
        return start.rstrip() + "\n" + INDENT * 2 + result
    return start + result


def waiting(number: int, sent: int, waited: float, lang: str) -> str:
    """While one request waits: rewritten in place on a terminal, one line every few seconds on a pipe."""
    if lang == "zh":
        return f"  … 第 {number} 步（{sent:,} 个 token）仍在等待：{waited:.0f} 秒"
    return f"  … step {number} ({sent:,} tokens) still waiting: {waited:.0f} s"
