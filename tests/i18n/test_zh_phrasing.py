"""Issue 40 (review at 80 columns): Chinese that was Chinese words in English order. "读取了 6 个最近的会话日志；其中
0 个以同一条消息结束", "你的会话日志也没有能判定它的", "首个 token 无", two brackets back to back after a path, and one
thing called two names (首字 and 首个 token; 公布 and 公开 for "publish")."""

from __future__ import annotations

import pytest

from codexdoctor.model import Msg
from tests.i18n.test_zh_token_word import ROOT, chinese_strings


@pytest.mark.parametrize(
    "read,matching,zh",
    [
        (0, 0, "没有找到最近的会话日志"),
        (6, 0, "最近 6 个会话日志中没有一个以同一条消息结束"),
        (6, 2, "最近 6 个会话日志中有 2 个以同一条消息结束"),
        (3, 3, "最近 3 个会话日志都以同一条消息结束"),
    ],
)
def test_the_logs_read_for_a_paste_are_counted_as_one_says_it(read, matching, zh):
    from codexdoctor.commands.diagnose import logs_line

    line = logs_line(read, matching)
    assert line.text("zh") == zh
    assert line.text("en") == f"{read} recent session logs read; {matching} ended with the same message"


def test_the_logs_cannot_decide_either():
    from codexdoctor.commands.diagnose import UNDECIDED_REASON

    assert UNDECIDED_REASON.text("zh").endswith("，你的会话日志也无法判定")


def test_a_stream_without_a_first_token_says_so():
    from codexdoctor.net.exchange import Exchange, StreamStats

    stats = StreamStats(events=2, terminal="response.failed")
    zh = Exchange("POST", "http://127.0.0.1:1/v1/responses", status=200, stream=stats).line().text("zh")
    assert "，流：2 个事件，首字：无，最长间隔 0 ms" in zh, zh
    timed = StreamStats(events=9, first_token_ms=769, terminal="response.completed")
    zh = Exchange("POST", "http://127.0.0.1:1/v1/responses", status=200, stream=timed).line().text("zh")
    assert "，流：9 个事件，首字：769 ms，" in zh, zh


def test_the_assumed_version_is_one_clause(home):
    from tests.conftest import TAOTOKEN, offline_report, write_config

    write_config(home, TAOTOKEN)
    report = offline_report(home, {"TAOTOKEN_API_KEY": "sk-x-0123456789"}, lang="zh", codex_version=None)
    (line,) = [e for c in report.checks for e in c.evidence if "config.toml" in str(e) and "profile" in str(e)]
    assert "）（" not in line and "版本是假定的" in line, line


# One name for one thing in the Chinese texts: the most used one.
SAME_THING = {"首个 token": "首字", "公开": "公布"}


def test_one_name_for_the_first_token_and_for_publishing():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text[:80]}"
        for path in sorted((ROOT / "codexdoctor").rglob("*.py"))
        for line, text in chinese_strings(path)
        if any(word in text for word in SAME_THING)
    ]
    assert found == []
    for path in [ROOT / "docs" / "rules.zh.md", *sorted((ROOT / "tests" / "snapshots").rglob("*.zh.*.txt"))]:
        text = path.read_text(encoding="utf-8")
        assert not any(word in text for word in SAME_THING), path


def test_the_sweep_reads_chinese_strings():
    assert Msg("first token", "首字").text("zh") == "首字"
    assert any("首字" in text for path in (ROOT / "codexdoctor").rglob("*.py") for _, text in chinese_strings(path))
