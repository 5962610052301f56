"""English number words in one place, so no output says "1 error(s)" or "4096 tokens" in prose."""

from __future__ import annotations

_IRREGULAR = {"is": "are", "was": "were", "this": "these"}


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """`1 model`, `2 models`, `1,024 lines`: the count with thousands separators and the noun that agrees."""
    word = singular if count == 1 else (plural_form or _IRREGULAR.get(singular) or singular + "s")
    return f"{count:,} {word}"
