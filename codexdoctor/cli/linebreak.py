"""Where a `--help` line may break, and how wide it is on the terminal (issue 40): a Chinese help on a CJK terminal,
and the English one by the same rules (install_help), since click's own wrapper breaks an option at its hyphens.

Help texts mix Chinese with identifiers (`--first-token-timeout`, `GITHUB_ACTIONS=true`, `0.5<=x<=600`), and click
counts characters. The rules here, by display cells:

- a break is at a space, after Chinese punctuation (，。、：；！？） and the like) or before an opening one (（「《);
- never inside a run of ASCII: a word, an identifier, a number, a path or a URL stays whole;
- never before closing punctuation nor after opening punctuation (`认）`, `（默` stay together);
- a run of Chinese characters is kept whole, as CSS's `word-break: keep-all` does, so that `退出` or `默认` is not
  split; only a run wider than the line is broken, between two of its characters;
- East Asian ambiguous characters (“ ” —— … ×) are two cells, as CJK terminals draw them.

Why not a UAX #14 library: uniseg (pure Python) breaks `--first-token-timeout` after each hyphen and a URL after each
slash, so the identifier rule would be needed on top of it anyway, and importing it costs ~58 ms of CPU on a Chinese
run (a bare interpreter: ~107 ms, measured on the shared machine, issue 40). These rules are the part of UAX #14 a
help text needs; they import nothing but `unicodedata` (through common/cells.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from codexdoctor.common.cells import COUNTED, is_wide
from codexdoctor.common.cells import cells as count_cells

CLOSING = set("。，、：；！？）」』】》〉〕］｝”’…—,.;:!?)]}%")  # never starts a line
OPENING = set("（「『【《〈〔［｛“‘([{")  # never ends a line
# Chinese punctuation a line may end after (a closing one, or a pause): the break is after it.
_BREAK_AFTER = set("。，、：；！？）」』】》〉〕］｝")


def cells(text: str) -> int:
    """Terminal cells on a CJK terminal: wide, full-width and ambiguous characters take two, combining marks none
    (common/cells.py: the one width function, the same the Chinese report is laid out with)."""
    return count_cells(text, "zh")


def _wide(ch: str) -> bool:
    return is_wide(ch)


def _may_break(a: str, b: str) -> bool:
    """A break between two adjacent characters with no space between them (keep-all)."""
    if b in CLOSING or a in OPENING:
        return False
    if a in _BREAK_AFTER:
        return not (a == "：" and b.isascii() and b.isalnum())  # a value stays with its label: "[默认：10.0]"
    if b in OPENING and _wide(b):
        return True
    # Between a Chinese character and ASCII letters or digits ("上为PowerShell"), as UAX #14 allows; never between
    # two ASCII characters (identifiers) nor between two Chinese ones (words: keep-all).
    return _wide(a) != _wide(b) and (a.isalnum() or _wide(a)) and (b.isalnum() or _wide(b))


_KEEP = "\x00"  # a space inside `code` or a count with its unit (`N 个 token`), which is one piece


def units(text: str) -> list[tuple[str, bool]]:
    """The pieces a line may break between, each with whether a space comes before it."""
    if "个" in text:
        text = COUNTED.sub(lambda m: m.group(0).replace(" ", _KEEP), text)
    if "`" in text:
        parts = text.split("`")
        text = "`".join(part.replace(" ", _KEEP) if i % 2 else part for i, part in enumerate(parts))
    out: list[tuple[str, bool]] = []
    for n, word in enumerate(text.split()):
        start = 0
        for i in range(1, len(word)):
            if _may_break(word[i - 1], word[i]):
                out.append((word[start:i], n > 0 and start == 0))
                start = i
        out.append((word[start:], n > 0 and start == 0))
    return [(piece.replace(_KEEP, " "), spaced) for piece, spaced in out] if _KEEP in text else out


def _split_wide(piece: str, room: int, width: int, cells: Callable[[str], int] = cells) -> list[str]:
    """A piece wider than a line: broken between two Chinese characters (never before closing punctuation nor
    after opening), or, for a run of ASCII longer than a whole line, cut at the width (the only cut left)."""
    parts, limit = [], room
    while cells(piece) > limit:
        fit = used = 0
        for ch in piece:
            used += cells(ch)
            if used > limit:
                break
            fit += 1
        cut = next((j for j in range(fit, 0, -1) if _may_break_anyway(piece[j - 1], piece[j])), 0) or max(fit, 1)
        parts.append(piece[:cut])
        piece, limit = piece[cut:], width
    parts.append(piece)
    return parts


def _may_break_anyway(a: str, b: str) -> bool:
    """Inside a run too wide for a line: between two Chinese characters as well."""
    return b not in CLOSING and a not in OPENING and (_wide(a) or _wide(b)) and not (a.isascii() and b.isascii())


def wrap(text: str, width: int, first: str = "", rest: str = "", cells: Callable[[str], int] = cells) -> list[str]:
    """Lines of at most `width` cells (counted by `cells`: a CJK terminal's unless told), the first starting with
    `first`, the others with `rest`."""
    lines: list[str] = []
    line = first
    empty = True
    for piece, spaced in units(text):
        gap = " " if spaced and not empty else ""
        if cells(line + gap + piece) <= width:
            line += gap + piece
            empty = False
            continue
        if not empty:
            lines.append(line)
            line, empty = rest, True
        if cells(line + piece) <= width:
            line += piece
            empty = False
            continue
        parts = _split_wide(piece, width - cells(line), width - cells(rest), cells)
        for part in parts[:-1]:
            lines.append(line + part)
            line = rest
        line += parts[-1]
        empty = False
    lines.append(line)
    return [x.rstrip() for x in lines]


def install_help(lang: str) -> Callable[[], None]:
    """click's help laid out by these rules in either language, counted in cells of the run's language (issue 40
    review: click's own wrapper broke `--first-token-` / `timeout`, `codexdoctor-` / `report-<time>.md` and
    `` `codex `` / ``--version` `` at their hyphens and spaces), and on a narrow terminal an option's help column
    kept at least HELP_COLUMN cells wide (at 60 columns click left it 24: too narrow for a file name). Returns the
    function that puts click's back (tests run many commands in one process)."""
    from click import formatting
    from click._compat import strip_ansi

    def measure(text: str) -> int:
        return count_cells(text, lang)

    def wrap_text(
        text: str,
        width: int = 78,
        initial_indent: str = "",
        subsequent_indent: str = "",
        preserve_paragraphs: bool = False,
    ) -> str:
        paragraphs = text.split("\n\n") if preserve_paragraphs else [text]
        out = []
        for number, paragraph in enumerate(paragraphs):
            first = initial_indent if number == 0 else subsequent_indent
            out.append("\n".join(wrap(" ".join(paragraph.split()), width, first, subsequent_indent, measure)))
        return "\n\n".join(out)

    write_dl = formatting.HelpFormatter.write_dl

    def write_dl_narrow(self: formatting.HelpFormatter, rows: Any, col_max: int = 30, col_spacing: int = 2) -> None:
        write_dl(self, rows, max(12, min(col_max, self.width - HELP_COLUMN - col_spacing - 2)), col_spacing)

    patches: list[tuple[object, str, object]] = [
        (formatting, "wrap_text", wrap_text),
        (formatting, "term_len", lambda text: measure(strip_ansi(text))),
        (formatting.HelpFormatter, "write_dl", write_dl_narrow),
    ]
    undo = [(obj, name, getattr(obj, name)) for obj, name, _ in patches]
    for obj, name, new in patches:
        setattr(obj, name, new)

    def restore() -> None:
        for obj, name, old in reversed(undo):
            setattr(obj, name, old)

    return restore


HELP_COLUMN = 36  # cells an option's help keeps on a narrow terminal, its name going on a line of its own
