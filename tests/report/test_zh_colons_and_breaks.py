"""Issue 40 (review): a Chinese `check` at 60 columns broke 证/据 across lines (the command after ；was glued to 据)
and said `发现的问题:` with an ASCII colon beside `：` everywhere else. One colon style in Chinese; no line that is
a word cut off."""

from __future__ import annotations

import re

import pytest

from codexdoctor.i18n import ui
from codexdoctor.report.render.text import wrap
from tests.conftest import TAOTOKEN, write_config

HINT = ui("hint_verbose", "zh")


@pytest.mark.parametrize("width", range(56, 101))
def test_the_hint_breaks_after_its_clause_never_inside_a_word(width):
    lines = wrap(HINT, width, lang="zh")
    assert "".join(lines).replace(" ", "") == HINT.replace(" ", "")
    for word in ("证据", "说明", "查看"):
        assert all(not (a.endswith(word[0]) and b.startswith(word[1])) for a, b in zip(lines, lines[1:])), lines


def test_a_label_colon_is_never_taken_for_a_clause_stop():
    lines = wrap("在线检查用时 12 ms（时限 5 秒），探测请求就是第一个请求啊啊啊。", 30, "说明：", "      ", "zh")
    assert lines[0].startswith("说明：在线检查") and all(len(line) > 8 for line in lines), lines


@pytest.mark.parametrize("columns", ["60", "80"])
def test_a_chinese_check_has_one_colon_style(home, run, monkeypatch, columns):
    write_config(home, TAOTOKEN)
    monkeypatch.setenv("COLUMNS", columns)
    code, out, _ = run("check", "--offline", "--lang", "zh", "--codex-version", "0.171.0")
    assert "发现的问题：" in out and "结论：" in out and "说明：" in out and "提供方：" in out, out
    # a label (Chinese, or a check's title) followed by an ASCII colon
    assert not re.search(r"[\u4e00-\u9fff）]: ", out), out
    assert not re.search(r"^\S.*[\u4e00-\u9fff]:$", out, re.M), out


def test_a_clause_moved_down_keeps_the_space_a_latin_word_had():
    text = (
        "探测计划：最多 24 个请求，约 557,049 个输入 token（最坏情况：断点就在 40,000 tokens 之下）；"
        "到 --budget 300,000 即停止。每个请求的输出上限为 16 个 token。"
    )
    lines = wrap(text, 80, "", "    ", "zh")
    assert lines[-1].strip() == "每个请求的输出上限为 16 个 token。", lines
