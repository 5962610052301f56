"""How many terminal cells a string takes: the one width function every screen, table and `--help` counts with.

- East Asian wide and full-width characters (汉字, `，`, `（`) take two cells on every terminal.
- East Asian *ambiguous* characters (“ ” ‘ ’ — … · × ①) take two cells on the terminals a Chinese reader uses (a CJK
  locale draws them wide) and one elsewhere: Chinese output counts them as two, English output as one. Issue 40: a
  zh line of exactly 80 counted cells holding “ ” or … overflowed an 80-column CJK terminal; only the zh `--help`
  counted them so.
- Combining marks take none.

Cached, because wrapping asks for the width of every candidate line: a string of ASCII (most of what is shown) is its
length; any other string is summed from a per-character table filled on first sight.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache

# A count, its measure word 个 (with at most two characters of Chinese after it: `个输入`) and the Latin unit it
# counts after a space: `8,488 个 token`, `N 个输出 token`. One piece for every line breaker (the report's and the
# zh `--help`'s): a line that ends `8,488 个` and a next that starts `token）` reads as two things (issue 40). The
# Chinese says `token`, never the plural (tests/i18n/test_zh_token_word.py); the one Latin unit it counts with 个.
COUNTED = re.compile(r"(?<![\w.,])(?:\d[\d,.]*|N) 个[\u4e00-\u9fff]{0,2} token(?![\w-])")


def char_cells(ch: str, lang: str = "en") -> int:
    """One character's cells in `lang`'s output (see the module docstring)."""
    if ch < "\u00a1":  # ASCII, Latin-1 controls and the no-break space: one cell (the common case, no table)
        return 1
    return (_zh if lang == "zh" else _en)(ch)


@cache
def _en(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


@cache
def _zh(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F", "A") else 1


@lru_cache(maxsize=16384)
def _cells(text: str, zh: bool) -> int:
    table = _zh if zh else _en
    return sum(1 if ch < "\u00a1" else table(ch) for ch in text)


def cells(text: str, lang: str = "en") -> int:
    """Terminal cells `text` takes in `lang`'s output: "zh" counts East Asian ambiguous characters as two."""
    if text.isascii():
        return len(text)
    return _cells(text, lang == "zh")


def is_wide(ch: str) -> bool:
    """A wide or full-width character (a Chinese character, full-width punctuation): one a line may break before or
    after, in either language. Ambiguous characters are not: they are punctuation and symbols, not words."""
    return ch >= "\u1100" and _en(ch) == 2
