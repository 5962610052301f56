"""Issue 40: Chinese text takes Chinese punctuation: no stray space after 。, lists joined with 、, `400：` with a
full-width colon, and no phrase said twice. Every rule case the rule tests hold, rendered in Chinese."""

from __future__ import annotations

import re

import pytest

from tests.rules import test_api, test_ctx, test_net
from tests.rules.cases import Case, run

CASES = [c for module in (test_api, test_ctx, test_net) for c in module.CASES if c.fires]
_SPACE_AFTER_STOP = re.compile(r"[。；：]\s+(?=[\u4e00-\u9fff])")
_LATIN_LIST = re.compile(r"\b(?:\d+|[A-Z]+\d{3}), (?:\d+|[A-Z]+\d{3})\b")  # 3, 4, 5 or URL004, URL006


@pytest.mark.parametrize("case", CASES, ids=str)
def test_chinese_findings_take_chinese_punctuation(case):
    for finding in run(case, "zh"):
        for said in (finding.diagnosis, *finding.remedy):
            assert not _SPACE_AFTER_STOP.search(said), said
            assert not _LATIN_LIST.search(said), said


def test_the_cases_the_reviewer_found():
    ctx026 = next(c for c in test_ctx.CASES if c.code == "CTX026" and c.fires)
    assert "第 7、8、9 轮" in run(ctx026, "zh")[0].diagnosis
    api031 = next(c for c in test_api.CASES if c.code == "API031" and c.fires)
    assert "（400：The following" in "\n".join(run(api031, "zh")[0].remedy)
    net004 = Case("NET004", {"failure": "timeout", "detail": _deadline_detail()}, True)
    said = run(net004, "zh")[0].diagnosis
    assert said.count("没有响应") + said.count("没有在时限内响应") <= 1 and "时限（--timeout 10 秒）" in said, said


def _deadline_detail():
    """The canary's own words when nothing answered by the deadline (checks/live/gather.py), in Chinese."""
    import inspect

    from codexdoctor.checks.live import gather

    source = inspect.getsource(gather)
    zh = re.search(r'"(codexdoctor 等到时限[^"]*)"', source)
    assert zh, "the deadline's Chinese words moved"
    return zh.group(1).replace("{s:g}", "10")


def test_the_verdict_lists_codes_with_a_chinese_comma():
    from codexdoctor.model import Finding, Severity, Verdict
    from codexdoctor.report.build import _by_errors

    found = [Finding(c, Severity.ERROR, Verdict.CONFIG, "t", "d", (), ()) for c in ("URL004", "URL006", "URL011")]
    _, reason = _by_errors(found)
    assert reason.text("zh").endswith("URL004、URL006、URL011") and str(reason).endswith("URL004, URL006, URL011")


def test_the_wire_line_and_the_demo_say_it_once_with_separators():
    from codexdoctor.commands.demo import DESCRIPTIONS_ZH, SCENARIOS

    assert "4,096" in DESCRIPTIONS_ZH["4k-window"]
    assert "4,096" in next(s for s in SCENARIOS if s.name == "4k-window").description


def test_the_session_folders_are_listed_with_a_chinese_comma(tmp_path):
    from codexdoctor.checks.sessions import build_check

    res = build_check([], [], ("~/.codex/sessions", "~/.codex/archived_sessions"), str(tmp_path))
    assert res.message is not None and "~/.codex/sessions、~/.codex/archived_sessions" in res.message.text("zh")
    assert res.facts["where"] == "~/.codex/sessions, ~/.codex/archived_sessions"
