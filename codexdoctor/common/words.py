"""English number words in one place, so no output says "1 error(s)" or "4096 tokens" in prose."""

from __future__ import annotations

_IRREGULAR = {"is": "are", "was": "were", "this": "these"}


def pad_cells(text: str, cells: int, lang: str = "en") -> str:
    """`text` padded with spaces to `cells` terminal cells, a Chinese character taking two (`:15` counts characters,
    so Chinese columns drifted: issue 29), counted as `lang`'s output is (common/cells.py)."""
    from codexdoctor.common.cells import cells as count_cells

    return text + " " * max(0, cells - count_cells(text, lang))


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """`1 model`, `2 models`, `1,024 lines`: the count with thousands separators and the noun that agrees."""
    word = singular if count == 1 else (plural_form or _IRREGULAR.get(singular) or singular + "s")
    return f"{count:,} {word}"
