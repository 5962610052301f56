"""Issue 40: one width function for every screen, and a redaction mark that wrapping never cuts.

- Chinese output counts East Asian ambiguous characters (“ ” ‘ ’ — … ·) as two cells, as a CJK terminal draws them;
  English output as one. Only the zh `--help` counted them so: a zh report line of exactly 80 counted cells holding
  “ ” or … overflowed an 80-column CJK terminal.
- A redaction mark (`<redacted 44 chars, sha256:…>`, in Chinese `<已脱敏：44 个字符，sha256:…>`) is one word, even
  glued to a word, inside a URL or inside a command that is cut at the width.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from codexdoctor.commands.output import in_language
from codexdoctor.common.cells import cells
from codexdoctor.common.redact import Redactor
from codexdoctor.model import Section
from codexdoctor.report.render import RenderOptions, render
from codexdoctor.report.render.text import display_width, table_lines, wrap
from tests.conftest import TAOTOKEN, offline_report, write_config

AMBIGUOUS = "“”‘’—…·×"


def test_ambiguous_characters_are_two_cells_in_chinese_and_one_in_english():
    for ch in AMBIGUOUS:
        assert cells(ch, "zh") == 2 and cells(ch, "en") == 1, ch
        assert display_width(ch, "zh") == 2 and display_width(ch) == 1, ch
    assert cells("密钥“sk”…", "zh") == 4 + 2 + 2 + 2 + 2 and cells("密钥“sk”…", "en") == 4 + 1 + 2 + 1 + 1
    assert cells("e\u0301", "zh") == cells("e\u0301") == 1  # a combining mark takes no cell
    assert cells("plain ascii") == cells("plain ascii", "zh") == 11


def test_the_help_and_the_report_count_with_the_same_function():
    from codexdoctor.cli.linebreak import cells as help_cells

    for text in ("“默认”…——", "text（默认）", "GITHUB_ACTIONS=true", "×·‘’"):
        assert help_cells(text) == cells(text, "zh") == display_width(text, "zh")


# Chinese prose dense with ambiguous punctuation: old code counted each of “ ” … — as one cell and filled lines
# to 80 of its cells, which a CJK terminal draws wider than 80.
ZH_PROSE = "提供方返回“上下文超出”……请把“model_context_window”改小——否则 Codex 会一直重试·" * 4


@pytest.mark.parametrize("width", [60, 80])
def test_wrap_counts_ambiguous_characters_as_two_cells_in_chinese(width):
    lines = wrap(ZH_PROSE, width, "    ", "      ", "zh")
    assert len(lines) > 1
    assert all(cells(line, "zh") <= width for line in lines), [(cells(line, "zh"), line) for line in lines]
    assert "".join(line.strip() for line in lines).replace(" ", "") == ZH_PROSE.replace(" ", "")
    table = table_lines(("问题", "说明"), (("CTX006", ZH_PROSE),), width, lang="zh")
    assert all(cells(line, "zh") <= width for line in table), table


@pytest.fixture
def report(home):
    write_config(home, TAOTOKEN.replace("base_url =", "baseURL ="))  # findings to put the texts in
    return offline_report(home, {"TAOTOKEN_KEY": "sk-abcdefghijklmnopqrstuvwxyz0123"})


KEY = "Zq9Xw2Ev4Rt6Yu8Io1Pa3Sd5Fg7Hj9Kl2Zx4Cv6Bn8Mq"
MARK = Redactor([KEY])(KEY)
MARKS = re.compile(r"<redacted \d+ chars, sha256:[0-9a-f]{8}>|<已脱敏：\d+ 个字符，sha256:[0-9a-f]{8}>")


def _with_texts(report, texts: list[str]):
    """The report with `texts` in every place the text renderer wraps: a check's summary and evidence, a finding's
    diagnosis, remedy and evidence, a note, and a section's lines and table."""
    check = dataclasses.replace(report.checks[0], summary=texts[0], evidence=tuple(texts))
    finding = dataclasses.replace(
        report.findings[0], diagnosis="\n".join(texts), remedy=tuple(texts), evidence=tuple(texts)
    )
    section = Section("s", "会话" if report.lang == "zh" else "Sessions", ("id", "error"), tuple((1, t) for t in texts))
    return dataclasses.replace(
        report,
        checks=(check, *report.checks[1:]),
        findings=(finding, *report.findings[1:]),
        notes=tuple(texts),
        sections=(section, dataclasses.replace(section, headers=(), rows=(), lines=tuple(texts))),
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_zh_report_line_never_exceeds_80_cells_and_en_is_unchanged(report, lang):
    zh = dataclasses.replace(report, lang=lang)
    texts = [ZH_PROSE[:n] for n in range(30, len(ZH_PROSE), 7)]
    out = render(_with_texts(zh, texts), "text", RenderOptions(verbose=True, width=80))
    for line in out.splitlines():
        assert cells(line, lang) <= 80, (cells(line, lang), line)


def _mark_texts(lang: str) -> list[str]:
    """A mark alone, glued to a word, inside a URL longer than a line, and at the end of a command cut at the width,
    each moved along the line one cell at a time so that every line end falls inside some mark."""
    word = "密钥" if lang == "zh" else "key"
    out = []
    for lead in range(0, 81, 3):
        pad = ("提供方" * 30)[: lead // 2] if lang == "zh" else "x" * lead
        out += [
            f"{pad} {word} {MARK} {word}",
            f"{pad} Authorization=Bearer:{MARK}",
            f"{pad} POST https://gw.example/v1/responses?key={MARK}&sig={MARK}&utm={'y' * lead}",
            f"{word}：export TAOTOKEN_API_KEY={MARK}{'z' * lead} {MARK}",
        ]
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_wrap_never_cuts_a_redaction_mark(lang):
    for text in _mark_texts(lang):
        for first, rest in (("", ""), ("    1. ", "       "), ("Note: ", "      ")):
            lines = [in_language(line, lang) for line in wrap(text, 80, first, rest, lang)]
            assert sum(len(MARKS.findall(line)) for line in lines) == text.count(MARK), (text, lines)
            assert all(cells(line, lang) <= 80 for line in lines), lines


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_report_at_80_columns_never_cuts_a_redaction_mark(report, lang):
    shown = _with_texts(dataclasses.replace(report, lang=lang), _mark_texts(lang))
    unwrapped = in_language(render(shown, "text", RenderOptions(verbose=True)), lang)
    lines = in_language(render(shown, "text", RenderOptions(verbose=True, width=80)), lang).splitlines()
    # As many whole marks on the lines of the screen as in the same report unwrapped: none was cut.
    assert sum(len(MARKS.findall(line)) for line in lines) == len(MARKS.findall(unwrapped)) > 500
    assert all(cells(line, lang) <= 80 for line in lines), [line for line in lines if cells(line, lang) > 80]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_long_quoted_message_breaks_at_its_spaces_not_inside_a_word(lang):
    """Issue 40: a provider's message quoted in `code` and longer than a line was cut at the width, inside a word
    (`sk-*****000` / `0.`); it breaks at its spaces, and a redaction mark inside it stays whole."""
    from codexdoctor.report.render.text import wrap

    message = (
        "failed with `unexpected status 401 Unauthorized: Incorrect API key provided: sk-*****0000. You can find "
        "your API key at <redacted 30 chars, sha256:7363c96f> and response.completed never came`: http 401"
    )
    lines = wrap(message, 80, "    ", "    ", lang)
    words = set(message.split())
    for line in lines:
        assert display_width(line, lang) <= 80
        for word in line.split():
            assert word in words or word in ("<redacted", "30", "chars,", "sha256:7363c96f>"), (word, lines)
    joined = " ".join(line.strip() for line in lines)
    assert "<redacted 30 chars, sha256:7363c96f>" in joined and "sk-*****0000." in joined
