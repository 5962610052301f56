"""The last line of a wrapped Chinese paragraph: a word cut off ("说/明。") takes a short tail of the line before it
(issue 40 review). Apart from render/text.py, which is near its size limit; text.py finds the breaks."""

from __future__ import annotations

from collections.abc import Callable

from codexdoctor.common.cells import cells, is_wide

# Chinese line-breaking rules (kinsoku): a line never starts with closing punctuation nor ends with opening.
NO_LINE_START = set("。，、：；！？）」』】》〉…,.:;!?)]}”’")

ORPHAN_CELLS = 8  # a last line this short ("明。", "不变。", "404。": closing stops not counted) is an orphan...
# ...that takes the end of the line before it, from a good break, when that line keeps ~60% of the width (55%:
# `1. 检查…（…1eac65d0）；` at 100 columns keeps its clause stop rather than `进` / `行比对：`)
KEEP = 0.55


def no_orphan(
    lines: list[str], width: int, first: str, rest: str, lang: str, good_breaks: Callable[[str, int], list[int]]
) -> list[str]:
    """A Chinese paragraph whose last line is a word cut off ("说/明。", issue 40 review) breaks at the previous line's
    last good break instead (a space, a stop, after a number's word), when that line keeps KEEP of the width and the
    moved text fits: only a short tail moves, never a whole clause that leaves `4. 仍然失败的话，` alone (review 2)."""
    if len(lines) < 2:
        return lines
    prev, last = lines[-2], lines[-1][len(rest) :]
    word = last.rstrip("".join(NO_LINE_START))
    if cells(word, lang) > ORPHAN_CELLS or not last:
        return lines
    lead = len(first if len(lines) == 2 else rest)
    breaks = [b for b in good_breaks(prev, lead) if cells(prev[:b], lang) >= KEEP * width]
    # a clause stop first (`，不支持 Responses API [错误]`), else the last good break
    at = max((b for b in breaks if prev[b - 1] in "；。，："), default=max(breaks, default=0))
    if not at and han(word) and han(prev[-1:]) and han(prev[-2:-1]) and len(prev) - 1 > lead:
        at = len(prev) - 1  # no good break: one character more, never one alone ("完全一" / "致。" -> "一致。")
    if not at:
        return lines
    tail = prev[at:].strip()
    # the break was a space unless it fell between two Chinese characters ("16 个" / "token。" keep theirs)
    space = " " if not (is_wide(tail[-1]) and is_wide(last[0])) else ""
    moved = rest + tail + space + last
    if cells(moved, lang) > width:
        return lines
    return [*lines[:-2], prev[:at].rstrip(), moved]


def han(token: str) -> bool:
    """One Chinese character (an ideograph, not punctuation)."""
    return len(token) == 1 and "\u3400" <= token <= "\u9fff"
