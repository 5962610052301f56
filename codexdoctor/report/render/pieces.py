"""What the text wrapper (render/text.py) never breaks inside, and where it cuts a piece that no line holds.

Never broken: `code`, a URL, a redaction mark, a count with its unit (`8,488 个 token`), a `codex` / `codexdoctor`
command written in prose (`start Codex with codex --profile small.`: issue 40 review, a command split over two lines
cannot be copied), and the command a remedy's line ends with. A piece longer than a whole line is cut at the width,
never inside a redaction mark, and never so that the next line starts with closing punctuation (a URL's sentence
stop went alone to the next line: `…/chat/completions` / `. Codex never…`, issue 40 review).
"""

from __future__ import annotations

import re

from codexdoctor.common.cells import COUNTED, char_cells
from codexdoctor.report.render.orphans import NO_LINE_START

# A redaction mark (`<redacted 25 chars, sha256:…>`, in Chinese `<已脱敏：25 个字符，sha256:…>`) is one word: wrapping
# never cuts it, not even inside a URL or a command cut at the width (issue 40). It is translated as a whole after
# rendering (commands/output.in_language), to a form exactly as wide.
MARK = r"<redacted [^<>]*>|<已脱敏：[^<>]*>"
MARKS = re.compile(MARK)
# A command in prose: `codex` or `codexdoctor` (lower case: the program, not the product), then its subcommands and
# options, an option's value with it (`--profile small`, `--timeout 30`). Prose after it is not taken: `codex login
# (or delete …)`, `codexdoctor check again`.
_SUBCOMMANDS = (
    "check|config|demo|diagnose-error|explain|fix|probe|report|rules|sessions|sim|watch|"  # codexdoctor's
    "login|logout|exec|resume|mcp|apply"  # Codex's
)
_ARGUMENT = rf"(?:{_SUBCOMMANDS})(?![\w-])|-{{1,2}}[A-Za-z][\w-]*(?:=[!-~]+)?(?: (?![-(`])[!-~]+)?"
COMMAND_IN_PROSE = rf"(?<![\w`/.@~-])(?:codexdoctor|codex)(?: (?:{_ARGUMENT}))+"
UNBREAKABLE = re.compile(rf"`[^`]*`|https?://(?:{MARK}|[!-~])+|{MARK}|{COUNTED.pattern}|{COMMAND_IN_PROSE}")
# The command a remedy's line ends with, after a colon: copied as one piece.
COMMAND_TAIL = re.compile(
    r"(?:: |：)((?:export|set|setx|unset|\$env:|echo|printenv|codex|codexdoctor|mkdir|npm|pip|"
    r"\[Environment\]|Remove-Item)\b.*)$"
)
# Where a URL may be cut when it must be, rather than anywhere: after one of these.
_URL_STOPS = "/?&#="


def cut_piece(token: str, cells: int, lang: str) -> str:
    """The longest start of `token` that fits in `cells`, does not end inside a redaction mark, and does not leave
    closing punctuation to start the next line: the cut moves back, to a URL's `/` or `?` a little before it if
    there is one, else by one character ("…/chat/" + "completions."; "…completion" + "s。")."""
    head = cut_to_width(token, cells, lang)
    for m in MARKS.finditer(token):
        if m.start() < len(head) < m.end():
            head = head[: m.start()]
            break
    if not head or len(head) == len(token) or token[len(head)] not in NO_LINE_START:
        return head
    end = len(head)
    while end > 0 and token[end] in NO_LINE_START:
        end -= 1
    stop = max((i + 1 for i in range(max(0, end - 24), end) if token[i] in _URL_STOPS), default=0)
    end = stop if stop and token[stop] not in NO_LINE_START else end
    return head[:end] if not any(m.start() < end < m.end() for m in MARKS.finditer(token)) else ""


def cut_to_width(text: str, cells: int, lang: str = "en") -> str:
    """The longest start of `text` that fits in `cells` terminal cells."""
    if text.isascii():
        return text[: max(0, cells)]
    used = 0
    for i, ch in enumerate(text):
        used += char_cells(ch, lang)
        if used > cells:
            return text[:i]
    return text
