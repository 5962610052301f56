"""Terminal checklist in the style of `flutter doctor`: one line per check, then findings, then the verdict."""

from __future__ import annotations

import re
from collections.abc import Mapping

from codexdoctor.common.cells import cells as count_cells
from codexdoctor.common.cells import is_wide
from codexdoctor.i18n import ui
from codexdoctor.model import CheckResult, Finding, Report, Section, Severity, Status, Verdict, say
from codexdoctor.report.render.chart import scatter
from codexdoctor.report.render.options import RenderOptions
from codexdoctor.report.render.orphans import NO_LINE_START as _NO_LINE_START
from codexdoctor.report.render.orphans import han as _han
from codexdoctor.report.render.orphans import no_orphan as _no_orphan
from codexdoctor.report.render.pieces import COMMAND_TAIL as _COMMAND_TAIL
from codexdoctor.report.render.pieces import MARKS as _MARKS
from codexdoctor.report.render.pieces import UNBREAKABLE as _UNBREAKABLE
from codexdoctor.report.render.pieces import cut_piece, cut_to_width

UNICODE = {Status.PASS: "✓", Status.WARN: "!", Status.FAIL: "✗", Status.SKIP: "-", Status.CRASH: "‼"}
ASCII = {Status.PASS: "+", Status.WARN: "!", Status.FAIL: "x", Status.SKIP: "-", Status.CRASH: "#"}
SEVERITY_STATUS = {Severity.ERROR: Status.FAIL, Severity.WARNING: Status.WARN, Severity.INFO: Status.SKIP}
COLORS = {Status.PASS: "32", Status.WARN: "33", Status.FAIL: "31", Status.SKIP: "2", Status.CRASH: "35"}
VERDICT_COLORS = {Verdict.OK: "32", Verdict.INCONCLUSIVE: "33"}


def _colon(lang: str, space: str = " ") -> str:
    """A label's colon: full-width in Chinese (issue 40 review: `发现的问题:` beside `：` elsewhere), as wide as ": "."""
    return "：" if lang == "zh" else ":" + space


def _paint(text: str, code: str, opts: RenderOptions) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if opts.color else text


def _indent(text: str, prefix: str, width: int | None = None, lang: str = "en") -> str:
    return "\n".join(
        line for raw in text.splitlines() for line in (wrap(raw, width, prefix, prefix, lang) if raw else [raw])
    )


def _tokens(text: str) -> list[str]:
    """Words to wrap between: spaces split Latin text; each wide (CJK) character may start a new line."""
    out: list[str] = []
    command = _COMMAND_TAIL.search(text)
    body, tail = (text[: command.start(1)], command.group(1)) if command else (text, "")
    pos = 0
    for m in _UNBREAKABLE.finditer(body):
        out += _split_plain(body[pos : m.start()])
        before = body[m.start() - 1 : m.start()]
        # glued to the word before it (`path`s), but not to a Chinese character or a full-width stop a line may end
        # with: "证据；`codexdoctor explain …`" moved 据 to the next line with the command (issue 40 review)
        if out and not before.isspace() and m.start() > 0 and not (is_wide(before) and before not in _NO_LINE_END):
            out[-1] += m.group(0)
        else:
            out.append(m.group(0))
        pos = m.end()
    out += _split_plain(body[pos:])
    if tail:
        out.append(tail)
    return _glue([t for t in out if t])


# Chinese line-breaking rules (kinsoku): a line never starts with closing punctuation nor ends with opening.
_NO_LINE_END = set("（「『【《〈([{“‘")
# A number's unit, never left alone at the start of a line (`636` / `ms`, issue 40 review): a Latin unit, or the first
# Chinese character after the number (`3 秒`, `30 个`).
_UNIT = re.compile(r"(?:ms|s|µs|us|ns|min|h|[KMGT]i?B|B|bytes?|tokens?|chars?|characters?|cells?|%)(?![\w-])")
_NUMBER_END = re.compile(r"\d[\d,.]*$")
# A number with its word (`502 或`, `30 个字符`): a line may break after it as at a space (issue 40 review, 2).
_AFTER_NUMBER = re.compile(r"\d \S+$")
# Chinese units of more than one character: the rest of each, after its first (`11,200 字` / `节`).
_UNIT_WORDS = {"字": "节", "个": "字符", "毫": "秒", "分": "钟", "小": "时"}
# A short Chinese phrase in parentheses (`（连接被拒绝）`: at most 8 characters, no space) moves to the next line whole.
_SHORT_PARENS = re.compile(r"（[^\s（）]{1,8}）")


def _glue(tokens: list[str]) -> list[str]:
    """Kinsoku (closing punctuation stays with the word before it, opening with the word after), a number with its
    unit, and a short parenthesised phrase, each made one token."""
    out: list[str] = []
    last = " "  # out[-1], or a space when out is empty
    number = False  # out ends with a space after a number: a unit after it joins them
    word = ""  # the rest of a Chinese unit of several characters (`字节`, `个字符`) the last token began
    for tok in tokens:
        if tok == " ":
            number = last[-1].isdigit() and bool(_NUMBER_END.search(last))
            out.append(tok)
            word = ""
        elif number and (is_wide(tok[0]) or _UNIT.match(tok)) and tok[0] not in _NO_LINE_START:
            out.pop()
            out[-1] += " " + tok
            number, word = False, _UNIT_WORDS.get(tok, "")
        elif word and tok[0] == word[0]:
            out[-1] += tok
            word = word[1:] if len(tok) == 1 else ""
        elif last != " " and (tok[0] in _NO_LINE_START or last[-1] in _NO_LINE_END):
            out[-1] += tok
        else:
            out.append(tok)
            number = False
        last = out[-1]
    return _parens(out) if "（" in "".join(out) else out


def _parens(tokens: list[str]) -> list[str]:
    """Tokens that together make a short parenthesised Chinese phrase joined into one."""
    out: list[str] = []
    start = -1  # where an unclosed `（` began, in `out`
    for tok in tokens:
        if tok[0] == "（" and out and _han(out[-1]):  # `提示（前缀）`: glued to Chinese, it keeps its word (two)
            n = 2 if len(out) > 1 and _han(out[-2]) else 1
            tok = "".join(out[-n:]) + tok
            del out[-n:]
        out.append(tok)
        if tok == " ":
            start = -1
        elif "（" in tok:
            start = len(out) - 1 if "）" not in tok[tok.rindex("（") :] else -1
        elif start >= 0 and "）" in tok:
            phrase = "".join(out[start:])
            m = _SHORT_PARENS.search(phrase)
            if m and m.start() == phrase.rindex("（"):
                out[start:] = [phrase]
            start = -1
    return out


_SPACES = re.compile(r"(\s+)")


def _split_plain(text: str) -> list[str]:
    """Words split at spaces; a word with Chinese in it also next to each Chinese character (on either side), never
    inside a run of other characters (an identifier, a number, a path stays whole), never before closing punctuation
    nor after opening punctuation."""
    out: list[str] = []
    for word in _SPACES.split(text):
        if not word:
            continue
        if word.isspace():
            out.append(" ")
            continue
        if word.isascii():  # no wide character: one word
            out.append(word)
            continue
        start, prev, prev_wide = 0, word[0], is_wide(word[0])
        for i in range(1, len(word)):
            ch = word[i]
            wide = is_wide(ch)
            if (wide or prev_wide) and ch not in _NO_LINE_START and prev not in _NO_LINE_END:
                out.append(word[start:i])
                start = i
            prev, prev_wide = ch, wide
        out.append(word[start:])
    return out


def wrap(text: str, width: int | None, first: str = "", rest: str = "", lang: str = "en") -> list[str]:
    """Lines of at most `width` cells (counted for `lang`: common/cells.py); no width: one line. An unbreakable
    piece (a URL, a command) longer than a whole line is cut at the width, so that the terminal never splits it
    somewhere else (issue 29), but never inside a redaction mark (issue 40).

    Each line's width is kept as it grows, not measured again for every word (the suite wraps a lot of text)."""
    if not width or display_width(first + text, lang) <= width:
        return [first + text]
    lines, line = [], first
    used, rest_used = display_width(first, lang), display_width(rest, lang)
    # the line's last good break (a space, after Chinese punctuation): where, and cells before; `weak`: after a
    # number's word (`502 或` / `连接被重置`), taken only when no good break is near
    start, soft, soft_used, weak, weak_used, unit, cut = len(first), 0, 0, 0, 0, False, -1
    for token in _fitting_tokens(text, width - rest_used, lang):
        if token == " ":  # noqa: S105 - a word to wrap between, not a secret
            if line.strip():
                line += " "
                used += 1
                soft, soft_used = len(line), used
            continue
        size = display_width(token, lang)
        if line[-1:] in _BREAK_AFTER or token[0] in _OPENING or ("（" in token[1:3] and _han(token[0])):
            soft, soft_used = len(line), used
        elif unit:
            weak, weak_used = len(line), used
        unit = " " in token and bool(_AFTER_NUMBER.search(token))
        if used + size > width and line.strip() and line != first and line != rest:
            if used - soft_used > LOOK_BACK or soft <= start or not line[start:soft].strip():  # none a few cells back:
                near = weak > start and used - weak_used <= LOOK_BACK and line[start:weak].strip()
                soft, soft_used = (weak, weak_used) if near else (len(line), used)  # after a number's word, or here
            lines.append(line[:soft].rstrip())
            line, used, start, soft, weak = rest + line[soft:], rest_used + used - soft_used, len(rest), 0, 0
        while used + size > width and rest_used + 8 < width:
            head = cut_piece(token, width - used, lang)
            if not head:
                if line.strip() and line != rest:  # a mark that does not fit after `first`: it starts a line
                    lines.append(line.rstrip())
                    line, used, start, soft, weak = rest, rest_used, len(rest), 0, 0
                    continue
                break
            lines.append(line + head)
            line, used, token, cut = rest, rest_used, token[len(head) :], len(lines)
            start, soft, weak = len(rest), 0, 0
            size = display_width(token, lang)
        line += token
        used += size
    whole = cut != len(lines)  # the last break was not a cut inside a word (a URL) longer than a line
    lines.append(line.rstrip())
    return _no_orphan(lines, width, first, rest, lang, _good_breaks) if lang == "zh" and whole else lines


# A break between two Chinese characters moves back to a space or a punctuation stop up to this many cells before it
# (`30 个字` / `符`, `（发` / `送于`: issue 40 review), so that a word is less often split.
LOOK_BACK = 10


_BREAK_AFTER = set("。，、：；！？）」』】》〉")
_OPENING = set("（「『【《〈“")


def _good_breaks(line: str, lead: int) -> list[int]:
    """Where `line` may break after its first `lead` characters, as wrap would choose: after a space, a stop, a
    number's word, before an opening bracket that does not follow Chinese tex"""
    out, pos = [], lead
    for tok in _tokens(line[lead:]):
        if (tok[0] in _OPENING or _han(tok[0]) and "（" in tok[1:3]) and pos > lead:
            out.append(pos)
        pos += len(tok)
        if tok == " " or tok[-1] in _BREAK_AFTER or (" " in tok and _AFTER_NUMBER.search(tok)):
            out.append(pos)
    return [b for b in out if b < len(line)] if pos == len(line) else []


def _fitting_tokens(text: str, line_cells: int, lang: str) -> list[str]:
    """The words of `text`; an unbreakable piece with spaces in it that no whole line holds (a provider's message
    quoted in `code`) breaks at its spaces instead of being cut inside a word (issue 40: `sk-*****000` / `0.`).
    Redaction marks stay whole."""
    out: list[str] = []
    split = False
    for token in _tokens(text):
        if " " not in token or display_width(token, lang) <= line_cells or token.startswith(("http://", "https://")):
            out.append(token)
            continue
        split = True
        pos = 0
        for m in _MARKS.finditer(token):
            out += _split_plain(token[pos : m.start()])
            if out and out[-1] != " " and m.start() > 0 and not token[m.start() - 1].isspace():
                out[-1] += m.group(0)
            else:
                out.append(m.group(0))
            pos = m.end()
        out += _split_plain(token[pos:])
    return _glue(out) if split else out


def clip_to_width(text: str, cells: int, lang: str = "en") -> str:
    """`text` cut to `cells` cells, with `…` where it was cut."""
    if display_width(text, lang) <= cells:
        return text
    return cut_to_width(text, max(0, cells - display_width("…", lang)), lang) + "…"


def fit_lines(lines: list[str], width: int | None, indent: str = "  ", lang: str = "en") -> list[str]:
    """Lines produced elsewhere (a progress line, a plan) wrapped to the width, continuation lines indented."""
    return [out for line in lines for out in (wrap(line, width, "", indent, lang) if line else [line])]


def display_width(text: str, lang: str = "en") -> int:
    """Terminal cells in `lang`'s output: wide and full-width characters take two, and in Chinese output the East
    Asian ambiguous ones too (“ ” — …), as CJK terminals draw them (common/cells.py, the one width function)."""
    return count_cells(text, lang)


def _pad(text: str, width: int, right: bool, lang: str = "en") -> str:
    gap = " " * max(0, width - display_width(text, lang))
    return gap + text if right else text + gap


_NUMBER = re.compile(r"^-?\d[\d,.]*%?$")


MIN_CELL = 8  # a text column is never cut below this many cells; past that, the table changes layout


def table_lines(
    headers: tuple[str, ...],
    rows: tuple[tuple[object, ...], ...],
    width: int | None = None,
    cut: bool = True,
    keep: tuple[int, ...] = (0,),
    lang: str = "en",
    below: bool = False,
) -> list[str]:
    """A table that fits `width` cells. Text columns give up width, widest first, but never below their longest word:
    a cell that no longer fits on one line wraps inside its column, so no word is ever cut with `…` (issue 40: "a
    working provi…" at 80 columns). When no such table fits but one without the last column does, each row's last
    cell goes beside it when it fits, else on the line under it, indented (the probe's steps at 60 columns: ~130
    lines of records, issue 40 review); with `below`, the last cell always goes under its row as soon as it would
    wrap in its column (the demo's top finding: 5-line cells at 80 columns). If it still does not fit, or `cut` is False (values that must be read whole: URLs, paths), each row
    becomes a block of "header  value" lines, wrapped. Columns in `keep` (the first: a name, an id) keep their
    width. Cells are counted for `lang` (common/cells.py)."""
    n = len(headers)  # a short row is padded, a long one cut: every row has one cell per header
    cells = [[_one_line(c) for c in headers]] + [([_one_line(c) for c in row] + [""] * n)[:n] for row in rows]
    numeric = [
        all(_NUMBER.match(r[i]) or r[i] == "-" for r in cells[1:]) and any(_NUMBER.match(r[i]) for r in cells[1:])
        for i in range(n)
    ]  # a column of numbers (a "-" among them) is right-aligned as a whole
    widths = _widths(cells, numeric, width, cut, keep, lang)
    natural = max(display_width(r[-1], lang) for r in cells)
    if width and n > 2 and cut and (widths is None or (below and widths[-1] < natural)):
        head = _widths([r[:-1] for r in cells], numeric[:-1], width, cut, keep, lang)
        if head is not None:
            return _last_below(cells, head, numeric, width, not below, lang)
    if widths is None:
        return _narrow(cells, width or 0, lang)
    return _rows(cells, widths, numeric, lang)


def _widths(
    cells: list[list[str]], numeric: list[bool], width: int | None, cut: bool, keep: tuple[int, ...], lang: str
) -> list[int] | None:
    """Each column's width in a table that fits `width`; None when no such table is possible (see table_lines)."""
    n = len(cells[0])
    widths = [max(display_width(r[i], lang) for r in cells) for i in range(n)]
    if not width:
        return widths
    gap = 2 * (n - 1)
    if not cut and sum(widths) + gap > width:
        return None
    floor = [max([MIN_CELL] + [display_width(w, lang) for r in cells for w in _words(r[i])]) for i in range(n)]
    while sum(widths) + gap > width:
        narrower = [i for i in range(n) if not numeric[i] and widths[i] > floor[i] and i not in keep]
        if not narrower:
            return None
        # The widest column gives up cells first, down to the next widest: wide columns end up alike.
        widest = max(narrower, key=lambda i: widths[i])
        second = max((widths[i] for i in narrower if i != widest), default=floor[widest])
        over = sum(widths) + gap - width
        widths[widest] -= max(1, min(over, widths[widest] - max(second, floor[widest])))
    return widths


def _fmt(r: list[str], widths: list[int], numeric: list[bool], lang: str) -> list[str]:
    parts = [wrap(c, w, lang=lang) if display_width(c, lang) > w else [c] for c, w in zip(r, widths, strict=True)]
    height = max(len(p) for p in parts)
    return [
        "  ".join(
            _pad(p[k] if k < len(p) else "", w, num and k == 0, lang)
            for p, w, num in zip(parts, widths, numeric, strict=True)
        ).rstrip()
        for k in range(height)
    ]


def _rows(cells: list[list[str]], widths: list[int], numeric: list[bool], lang: str) -> list[str]:
    rule = ["  ".join("-" * w for w in widths)]
    return _fmt(cells[0], widths, numeric, lang) + rule + [x for r in cells[1:] for x in _fmt(r, widths, numeric, lang)]


def _last_below(
    cells: list[list[str]], head: list[int], numeric: list[bool], width: int, inline: bool, lang: str
) -> list[str]:
    """The table without its last column; each row's last cell beside it when it fits (and `inline`), else on the
    line under it, indented."""
    out: list[str] = []
    for k, r in enumerate(cells):
        lines = _fmt(r[:-1], head, numeric[:-1], lang)
        beside = _pad(lines[0], sum(head) + 2 * len(head), False, lang) + r[-1]
        if (inline or k == 0) and len(lines) == 1 and display_width(beside, lang) <= width:
            lines[0] = beside.rstrip()
        elif r[-1]:
            lines += wrap(r[-1], width, "    ", "    ", lang)
        out += lines + (["  ".join("-" * w for w in head)] if k == 0 else [])
    return out


def _words(cell: str) -> list[str]:
    """The words a cell may wrap between: a redaction mark is one (its spaces hold it together)."""
    if "<" not in cell:
        return cell.split()
    return _MARKS.sub(lambda m: m.group(0).replace(" ", "\x00"), cell).split()


def _one_line(value: object) -> str:
    return " ".join(str(value).split()) if "\n" in str(value) else str(value)


def _narrow(cells: list[list[str]], width: int, lang: str = "en") -> list[str]:
    """The "narrow" layout: one block per row, a header and its value per line."""
    headers, out = cells[0], list[str]()
    label = max(display_width(h, lang) for h in headers)
    for row in cells[1:]:
        if out:
            out.append("")
        for h, value in zip(headers, row, strict=True):
            out.extend(wrap(value, width, _pad(h, label, False, lang) + "  ", " " * (label + 2), lang))
    return out


def render_section(section: Section, opts: RenderOptions, lang: str = "en") -> list[str]:
    out = wrap(f"{section.title}{_colon(lang, '')}", opts.width, "", "  ", lang)
    inner = opts.width - 2 if opts.width else None
    if section.headers:
        out += [("  " + line).rstrip() for line in table_lines(section.headers, section.rows, inner, lang=lang)]
    if section.chart:
        out.append("")
        chart_width = min(56, max(20, inner - 14)) if inner else 56
        out += [
            "  " + line
            for line in scatter(
                section.chart, section.chart_x, section.chart_y, width=chart_width, ascii_only=opts.ascii, lang=lang
            )
        ]
    if section.lines:
        out.append("")
        for line in section.lines:
            out.extend(wrap(line, opts.width, "  ", "    ", lang))
    return out


def render(report: Report, opts: RenderOptions) -> str:
    lang = report.lang

    def t(key: str, **kw: object) -> str:
        return ui(key, lang, **kw)

    out = _provider_lines(report, opts)
    for check in report.checks:
        out += _check_lines(check, opts, lang)
    for section in report.sections:
        out.append("")
        out.extend(render_section(section, opts, lang))
    if report.findings:
        out.append("")
        out.append(f"{t('findings')}{_colon(lang, '')}")
        titles = {c.id: c.title for c in report.checks}  # a finding cites its checks by the titles on their rows
        for f in report.findings:
            out += _finding_lines(f, titles, lang, opts)
    if report.notes:
        out.append("")
        for n in report.notes:
            out.extend(wrap(n, opts.width, f"{t('note')}{_colon(lang)}", "      ", lang))
    out.append("")
    verdict = _paint(t("verdict_" + report.verdict.value), VERDICT_COLORS.get(report.verdict, "31;1"), opts)
    if lang != "en":  # full-width in Chinese, as every other bracket there (issue 40 review)
        verdict += f"（{report.verdict.value}）"
    out.extend(
        wrap(
            f"{verdict} {'-' if opts.ascii else '—'} {report.verdict_reason}",
            opts.width,
            f"{t('verdict')}{_colon(lang)}",
            "  ",
            lang,
        )
    )
    if report.findings and not opts.verbose:
        out.extend(wrap(t("hint_verbose"), opts.width, lang=lang))
    return "\n".join(out) + "\n"


def _provider_lines(report: Report, opts: RenderOptions) -> list[str]:
    """The provider and where Codex sends its request, then the model, wire_api and key."""
    p = report.provider
    if p is None:
        return []
    lang = report.lang

    def t(key: str) -> str:
        return ui(key, lang)

    arrow = "->" if opts.ascii else "→"
    kind = t("builtin") if p.builtin else t("custom")
    kind = f"（{kind}）" if lang == "zh" else f" ({kind})"  # one kind of parentheses per language (issue 29)
    out = wrap(f"{t('provider')}{_colon(lang)}{p.id}{kind}  {arrow} POST {p.request_url}", opts.width, "", "  ", lang)
    shown_key = p.shown("key", lang)
    key = f"${p.env_key} {shown_key}" if p.env_key else shown_key
    c = _colon(lang)
    out.extend(
        fields(
            (f"{t('model')}{c}{p.shown('model', lang)}", f"wire_api{c}{p.wire_api}", f"{t('key')}{c}{key}"),
            opts.width,
            lang,
        )
    )
    out.append("")
    return out


def fields(parts: tuple[str, ...], width: int | None, lang: str = "en", gap: str = "   ") -> list[str]:
    """Fields side by side, `gap` between them; when they do not fit, lines of whole fields (issue 40 review: the
    wrapped header ran `sim-model wire_api：responses 密钥：…` together), a field wider than a line wrapped alone."""
    if not width:
        return [gap.join(parts)]
    out: list[str] = []
    for part in parts:
        if out and display_width(out[-1] + gap + part, lang) <= width:
            out[-1] += gap + part
        else:
            out.extend(wrap(part, width, "", "  ", lang))
    return out


def _check_lines(check: CheckResult, opts: RenderOptions, lang: str) -> list[str]:
    """A check's row (its mark coloured), and with -v its evidence and duration."""
    symbols = ASCII if opts.ascii else UNICODE
    plain = f"[{symbols[check.status]}]"
    first, *more = wrap(f"{check.title}{_colon(lang)}{check.summary}", opts.width, plain + " ", "    ", lang)
    out = [_paint(plain, COLORS[check.status], opts) + first[len(plain) :], *more]
    if opts.verbose:
        for line in check.evidence:
            out.extend(wrap(say(line, lang), opts.width, "    ", "      ", lang))
        if check.duration_ms is not None:
            took = f"{check.duration_ms:,.0f} ms"
            out.append(f"    （{took}）" if lang == "zh" else f"    ({took})")
    return out


def _finding_lines(f: Finding, titles: Mapping[str, str], lang: str, opts: RenderOptions) -> list[str]:
    """A finding: code, title and severity, the diagnosis, what it explains, numbered remedies, -v evidence."""
    symbols = ASCII if opts.ascii else UNICODE
    status = SEVERITY_STATUS[f.severity]
    mark = _paint(symbols[status], COLORS[status], opts)
    plain = symbols[status]
    head, *more = wrap(
        f"{f.code} {f.title} [{ui('sev_' + f.severity.value, lang)}]", opts.width, plain + " ", "  ", lang
    )
    out = [mark + head[len(plain) :], *more]
    out.append(_indent(f.diagnosis, "    ", opts.width, lang))
    for code, title in f.explains:  # consequences folded under their cause (rules/catalog.py EXPLAINED_BY)
        out.extend(wrap(f"{code} {title}", opts.width, f"    {ui('explains', lang)}{_colon(lang)}", "      ", lang))
    for number, step in enumerate(f.remedy, 1):
        out += remedy_lines(number, step, opts.width, lang)
    if opts.verbose:
        named = ("、" if lang == "zh" else ", ").join(titles.get(c, c) for c in f.checks)
        out.append(
            f"    {ui('evidence', lang)}（{named}）：" if lang == "zh" else f"    {ui('evidence', lang)} ({named}):"
        )
        for line in f.evidence:
            out.extend(wrap(line, opts.width, "      ", "        ", lang))
    return out


def remedy_lines(number: int, step: str, width: int | None, lang: str = "en", indent: str = "    ") -> list[str]:
    """One numbered remedy as every screen prints it (`check`'s findings, `fix`'s commands, `explain`): the number
    after `indent`, its prose wrapped 3 columns further in, then its command block 5 columns in, one line each, never
    wrapped: a command or a config line split over two lines does not paste (issue 40 review: `… | tr -d` /
    `'[:space:]')"`), so a long one runs past the width."""
    first, *block = step.splitlines() or [""]
    prose, command = indent + "   ", indent + "     "
    return wrap(first, width, f"{indent}{number}. ", prose, lang) + [f"{command}{line}".rstrip() for line in block]
