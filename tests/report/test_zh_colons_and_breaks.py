"""Issue 40 (review): a Chinese `check` at 60 columns broke 证/据 across lines (the command after ；was glued to 据)
and said `发现的问题:` with an ASCII colon beside `：` everywhere else. One colon style in Chinese; no line that is
a word cut off."""

from __future__ import annotations

import re

import pytest

from codexdoctor.i18n import ui
from codexdoctor.model import say
from codexdoctor.report.render.orphans import KEEP
from codexdoctor.report.render.text import display_width, wrap
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
    lines = wrap(text, 80, "", "    ", "zh")  # without the rule: `…上限为 16 个` / `token。`
    # a count and its unit are one piece now (common/cells.COUNTED): the line breaks at the space before it
    assert lines[-2].endswith("上限为") and lines[-1].strip() == "16 个 token。", lines


# Issue 40 review, at 80 and 60 columns: `rate_li` / `mit_exceeded`, `200（636` / `ms）`, `约增加 60.7` / `ms`,
# `30 个字` / `符`, `（超出上下文窗` / `口）`, `（连` / `接被拒绝）`, `（发` / `送于`.
RATE = (
    "POST http://127.0.0.1:8788/v1/responses -> 200（636 ms），流：2 个事件，首个 token 无，最长间隔 0 ms，以 "
    "response.failed 结束（共 6 次尝试；之前几次：rate_limit_exceeded、rate_limit_exceeded、rate_limit_exceeded、"
    "rate_limit_exceeded、rate_limit_exceeded）（发送于 2026-12-02T16:03:04.874Z，请求 id req_sim_000025）；"
    "function_call、function_call_output（11,200 字节），每轮约增加 60.7 ms；$SIM_API_KEY 已设置（30 个字符，"
    "sha256:9300949c），请求被拒（超出上下文窗口），再试一次被拒（连接被拒绝），共 3 秒，有 1 个 `context` 类错误。"
)
WHOLE = re.compile(r"[A-Za-z0-9_./:-]+")


def breaks(text: str, lines: list[str]) -> list[tuple[str, str]]:
    """Each break as (the text before it, the text after it); a break at a space is left out: it is always good."""
    out, pos = [], 0
    for line in lines[:-1]:
        pos = text.index(line.strip(), pos) + len(line.strip())
        if text[pos] != " ":
            out.append((text[:pos], text[pos:]))
    return out


@pytest.mark.parametrize("width", range(40, 101))
def test_zh_wrap_keeps_identifiers_numbers_with_units_and_short_phrases_whole(width):
    lines = wrap(RATE, width, "    ", "      ", "zh")
    assert "".join(line.strip() for line in lines).replace(" ", "") == RATE.replace(" ", "")
    for a, b in breaks(RATE, lines):
        # never inside an identifier, a number, a path (none of them here is longer than the line)
        assert not (WHOLE.fullmatch(a[-1]) and WHOLE.fullmatch(b[0])), (a[-20:], b[:20])
        assert b[0] not in "，。、）：；" and a[-1] not in "（「“", (a[-20:], b[:20])
        for phrase in ("（超出上下文窗口）", "（连接被拒绝）", "11,200 字节", "30 个字符"):
            assert not any(a.endswith(phrase[:k]) and b.startswith(phrase[k:]) for k in range(1, len(phrase)))
        # a break between two Chinese characters only when no space (but a number's) nor stop is a few cells back
        # (before a word glued to its bracket, `请求` / `被拒（超出上下文窗口）`, is such a break too)
        if "\u4e00" <= a[-1] <= "\u9fff" and "\u4e00" <= b[0] <= "\u9fff" and not re.match(r"\w{1,2}（", b):
            assert not re.search(r"(?<!\d) |[，。、：；）]", a[-4:]), (a[-20:], b[:20])
    for a, b in zip(lines, lines[1:]):  # a number and its unit (the break between them is a space)
        assert not re.search(r"\d$", a) or not re.match(r"\s*(ms|个|秒|字节)", b), (a, b)


def test_a_number_keeps_its_latin_unit_in_english_too():
    lines = wrap("the reply took 1,133 ms here and 60.7 ms there", 21)
    assert all(not line.endswith(("1,133", "60.7")) for line in lines), lines


# Issue 40 review (2): the orphan rule moved a whole clause down, leaving `4. 仍然失败的话，` alone at 80 columns,
# and a break before `（` split `提示` / `（前缀）缓存` at 60.
AUTH = "仍然失败的话，到提供方重新创建一个密钥（旧密钥可能已被吊销、过期或属于别的项目）。"
SIDE = "把旁支问题移出主会话，并保持会话开头（指令、工具）不变。"
CACHE = "如果提供方是托管网关，询问它是否对这个模型支持提示（前缀）缓存。"
URL003 = (
    'base_url = "http://127.0.0.1:41855/v1" 以 /v1 结尾，所以 Codex 请求的是 http://127.0.0.1:41855/v1/responses。'
    "Codex 从不自动添加或去掉 /v1；有的网关提供 /v1/responses，有的（例如文档写的是 …/api 的）在这个地址上返回 404。"
)


@pytest.mark.parametrize(
    ("text", "width", "first", "expected"),
    [
        (
            AUTH,
            80,
            "4. ",
            ["4. 仍然失败的话，到提供方重新创建一个密钥（旧密钥可能已被吊销、", "过期或属于别的项目）。"],
        ),
        (SIDE, 60, "4. ", ["4. 把旁支问题移出主会话，并保持会话", "开头（指令、工具）不变。"]),
        (CACHE, 60, "1. ", ["1. 如果提供方是托管网关，询问它是否对这个模型支持", "提示（前缀）缓存。"]),
    ],
    ids=["auth-80", "side-60", "cache-60"],
)
def test_a_short_last_line_takes_only_a_short_tail(text, width, first, expected):
    lines = wrap(text, width, "    " + first, "       ", "zh")
    assert [line.strip() for line in lines] == expected, lines


def test_a_clause_is_not_left_alone_on_a_short_line():
    lines = wrap(URL003, 80, "    ", "    ", "zh")
    assert all(display_width(line, "zh") >= 48 for line in lines[:-1]), lines
    assert display_width(lines[-1], "zh") > 4 + 8, lines


@pytest.mark.parametrize(
    "text", [AUTH, SIDE, CACHE, URL003, RATE, HINT], ids=["auth", "side", "cache", "url", "rate", "hint"]
)
@pytest.mark.parametrize("width", range(40, 101, 3))
def test_the_orphan_rule_moves_a_short_tail_and_keeps_the_line_it_leaves(monkeypatch, text, width):
    from codexdoctor.report.render import text as render

    lines = wrap(text, width, "    ", "      ", "zh")
    monkeypatch.setattr(render, "_no_orphan", lambda lines, *_: lines)
    plain = wrap(text, width, "    ", "      ", "zh")
    if lines != plain:  # the rule moved something: a short last line, and the line before stays >= 60%
        assert len(lines) == len(plain) and lines[:-2] == plain[:-2], (plain, lines)
        assert display_width(plain[-1].strip().rstrip("。，）"), "zh") <= 8, (plain, lines)
        assert display_width(lines[-2], "zh") >= KEEP * width, (plain, lines)
    for a, b in zip(lines, lines[1:]):  # `提示（前缀）`: never a break before `（` glued to Chinese text
        assert not (b.strip()[0] == "（" and "\u4e00" <= a[-1] <= "\u9fff"), (a, b)


# Issue 40 review (2): words. `模型列表：没有可用的模型列表：…` (the row's title again in its summary),
# `等待响应时没有回应` for a read timeout, and the header's `key:` in lower case beside `Provider:` and `Model:`.
@pytest.mark.simulator
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_row_does_not_repeat_its_title_and_the_header_says_key_capitalised(run, monkeypatch, lang):
    monkeypatch.setenv("COLUMNS", "100")
    _, out, _ = run("demo", "--scenario", "wrong-key", "--lang", lang)
    rows = [m.groups() for m in re.finditer(r"^\[.\] ([^:：\n]+)(?::|：)\s?(.*)$", out, re.M)]
    assert len(rows) > 10, out
    # the title is never a label again inside its summary (`模型列表：没有可用的模型列表：…`)
    assert all(not re.search(re.escape(title) + "(:|：)", summary, re.I) for title, summary in rows), rows
    assert "no usable catalog" not in out and "没有可用的模型列表" not in out, out
    assert ("Key: $SIM_API_KEY" if lang == "en" else "密钥：$SIM_API_KEY") in out and "key: $SIM" not in out, out


def test_a_read_timeout_says_it_timed_out():
    import httpx

    from codexdoctor.net.errors import classify_exception

    _, said = classify_exception(httpx.ReadTimeout("timed out"))
    assert say(said, "zh") == "等待响应超时", say(said, "zh")
