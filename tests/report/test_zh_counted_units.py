"""Issue 40 (Chinese): a count and the Latin unit it counts broke apart at 100 columns (`9,999 个` / `token）`, in
the demo's CTX025 and the canary's note). A number, its measure word 个 (with a word of up to two characters after
it: `个输入 token`) and the unit after the space are one piece, in the report and in `--help`; the rest of the
sentence still wraps at every width."""

from __future__ import annotations

import re

import pytest

from codexdoctor.cli.linebreak import wrap as help_wrap
from codexdoctor.report.render.text import display_width, wrap

# The lines of the zh golden snapshots (healthy, near-miss-variable) that broke inside `N 个 token`.
CTX025 = (
    "无论 /models 还是服务端的信息页面都没有说明 sim-model 的窗口有多大。Codex 为你发出的第一个请求（8,488 个 "
    "token）放得下，所以第一轮可以工作；但会话还剩多少空间未知，而 Codex 假定为 272,000（Codex 对未知模型的默认元"
    "数据）。第一个大的工具输出（一段很长的命令输出：一份日志、3,000 行的列表）最多会增加 2,571 个 token：Codex "
    "保留每个输出的 10,000 字节（开头和结尾各 5,000 字节，中间是 `…N chars truncated…`）。第一个请求（8,488 个 "
    "token）、这个输出（2,571 个 token）和留给回答的 20,000 个 token 合计约 31,059 个 token：小于它的窗口会在那里中断。"
)
NOTE = "探测请求就是 Codex 自己的第一个请求：每次发送 8,488 个输入 token，最多 16 个输出 token；加 --no-canary 可跳过。"
TURN_TWO = (
    "之后发送了 Codex 在工具调用之后发出的请求（同一个请求，加上 2 次虚构的 `exec_command` 调用和约 11 KB 按 Codex "
    "的方式截断的输出：11,127 个输入 token）；--no-turn-two 可以跳过它。"
)
# the end of a line that leaves its count's unit to the next one
SPLIT = re.compile(r"\d 个(?:[\u4e00-\u9fff]{0,2})$")
CASES = [
    pytest.param(CTX025, "    ", "    ", id="ctx025"),
    pytest.param(NOTE, "说明：", "      ", id="canary-note"),
    pytest.param(TURN_TWO, "说明：", "      ", id="turn-two-note"),
]


def _break_points(text: str, lines: list[str]) -> list[int]:
    """Where in `text` each line ends."""
    out, pos = [], 0
    for line in lines[:-1]:
        pos = text.index(line.strip(), pos) + len(line.strip())
        out.append(pos)
    return out


@pytest.mark.parametrize("width", [80, 100, *range(40, 100, 3)])
@pytest.mark.parametrize("text,first,rest", CASES)
def test_a_count_keeps_its_measure_word_and_its_latin_unit(text, first, rest, width):
    lines = wrap(text, width, first, rest, "zh")
    lines = [lines[0][len(first) :], *lines[1:]]
    assert "".join(line.strip() for line in lines).replace(" ", "") == text.replace(" ", "")
    for a, b in zip(lines, lines[1:]):
        assert not (SPLIT.search(a) and re.match(r"tokens?\b", b.strip())), (width, a, b)
    for pos in _break_points(text, lines):  # never inside an ASCII word or number
        assert not (text[pos - 1].isascii() and text[pos - 1].isalnum() and text[pos].isascii() and text[pos].isalnum())
    assert all(display_width(line, "zh") <= width - len(first) * (i == 0) for i, line in enumerate(lines)), lines


@pytest.mark.parametrize("width", range(12, 60))
def test_a_help_line_keeps_n_tokens_together(width):
    lines = help_wrap("输出 N 个 token 后让流停顿。", width, "  ", "  ")
    for a, b in zip(lines, lines[1:]):
        assert not (re.search(r"(?:\d|N) 个$|个$", a) and b.strip().startswith("token")), (width, lines)
        assert not (re.search(r"(?:\d|N)$", a) and b.strip().startswith("个")), (width, lines)
