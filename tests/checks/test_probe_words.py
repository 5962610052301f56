"""Issue 40: the probe's summary and findings say what was measured, as sure as it was measured, in both languages."""

from __future__ import annotations

import pytest

from codexdoctor.checks.probe import summary_section
from codexdoctor.model import CheckResult, Status
from codexdoctor.rules import evaluate

STABLE = {
    "last_ok": 19860,
    "first_fail": 20191,
    "usable": 19860,
    "stable": True,
    "stage3": True,
    "singles_ok": 3,
    "singles": 3,
    "turns_per_session": 2,
    "turns_bound": "about",
    "turn_tokens": 2000,
    "first_request": 8489,
}
NO_BREAK = {
    "no_break": True,
    "max_context": 21289,
    "usable": 21289,
    "last_ok": 21289,
    "first_fail": None,
    "stable": None,
    "singles_ok": 3,
    "singles": 3,
    "turns_per_session": 3,
    "turns_bound": "at least",
    "turn_tokens": 2000,
    "first_request": 8489,
}


def lines(facts, lang):
    return summary_section(facts, lang)[0].lines


@pytest.mark.parametrize(
    "lang,said",
    [("en", "Stages seen: stage 3 (requests fail)"), ("zh", "出现的阶段：第 3 阶段（请求失败）")],
)
def test_the_stages_seen_are_named_not_numbered(lang, said):
    """Issue 40: "Stages seen: 3 failure" read as a count of failures."""
    assert said in lines(STABLE, lang)


@pytest.mark.parametrize(
    "lang,exact,bound",
    [
        (
            "en",
            "Turns per session to stay under 70% of the window: 2 (",
            "Turns per session to stay under 70% of the window: at least 3, since the window is at least 21,289 tokens",
        ),
        (
            "zh",
            "保持在窗口 70% 以下的每会话轮数：2（",
            "保持在窗口 70% 以下的每会话轮数：至少 3，因为窗口至少有 21,289 个 token",
        ),
    ],
)
def test_turns_per_session_are_as_sure_as_the_window(lang, exact, bound):
    """Stated as a number only for a break confirmed at one size; "at least" where the window is a lower bound."""
    assert any(line.startswith(exact) for line in lines(STABLE, lang)), lines(STABLE, lang)
    assert any(line.startswith(bound) for line in lines(NO_BREAK, lang)), lines(NO_BREAK, lang)
    assert not any("least" in line or "至少" in line for line in lines(STABLE, lang) if "70%" in line)
    # one number for the lower bound: the usable-window line and the turns line quote the same
    window_line, turns_line = lines({**NO_BREAK, "max_context": 22000}, lang)[0], lines(NO_BREAK, lang)[-1]
    assert "21,289" in window_line and "22,000" not in window_line and "21,289" in turns_line


@pytest.mark.parametrize(
    "lang,said,not_said",
    [
        ("en", "none; Codex's first request alone is past 70% of the 11,918 tokens that worked", "at least 0"),
        ("zh", "一轮也没有；仅 Codex 的第一个请求就超过了已验证可用的 11,918 个 token 的 70%", "至少 0"),
    ],
)
def test_no_turn_fits_is_said_plainly(lang, said, not_said):
    """Issue 40: "at least 0, since the window is at least 11,918 tokens" said nothing: no session fits there, where
    the break was confirmed. Where it was not (a lower bound only), review 1 point 10: the turns are unknown."""
    small = {**STABLE, "last_ok": 11918, "usable": 11918, "first_fail": 12113, "stable": None, "turns_per_session": 0}
    turns = lines({**small, "turns_bound": "about"}, lang)[-1]
    assert said in turns and not_said not in turns, turns
    lower = lines({**small, "turns_bound": "at least"}, lang)[-1]
    assert said not in lower and not_said not in lower and ("unknown" in lower or "未知" in lower), lower


def test_the_turns_bound_follows_the_break(home):
    """analyse(): "about" for a stable break, "at least" where no break was found."""
    from codexdoctor.checks.probe import ProbeOutcome, ProbeSettings, Step, analyse

    def step(phase, sent, ok=True):
        return Step(phase, sent, sent, ok, "ok" if ok else "context_exceeded", "", 200, 5.0, 9.0, None, sent, "")

    singles = (step("single", 19), step("single", 19), step("single", 19))
    grown = (step("grow", 8192), step("grow", 16384), step("grow", 21289))
    open_ended = analyse(
        ProbeOutcome(singles + grown, None, 21289, None, None, None, 46000, 50000, 6, 21289, "o200k", True),
        ProbeSettings(cache_step=False),
    )
    assert open_ended["turns_bound"] == "at least" and open_ended["turns_per_session"] == 3
    broke = singles + grown[:2] + (step("grow", 21289, ok=False), step("below", 16384), step("above", 21289, False))
    stable = analyse(
        ProbeOutcome(broke, None, 16384, 21289, True, None, 80000, 90000, 8, 21289, "o200k", True),
        ProbeSettings(cache_step=False),
        first_tokens=8489,
    )
    assert stable["turns_bound"] == "about" and stable["first_request"] == 8489
    assert stable["turns_per_session"] == (int(16384 * 0.7) - 8489) // 2000


def ctx006(repeat, lang):
    from tests.rules.healthy import HEALTHY

    facts = {
        **HEALTHY["ctx.probe"],
        **STABLE,
        "repeat": repeat,
        "failure_kinds": ["context_exceeded"],
        "context_kinds": ["context_exceeded"],
        "suggest_window": 19860,
        "suggest_compact": 15800,
        "user_config": "~/.codex/config.toml",
    }
    probe = CheckResult("ctx.probe", "Session probe", Status.FAIL, "x", facts)
    return next(f for f in evaluate([probe], lang=lang) if f.code == "CTX006").diagnosis


@pytest.mark.parametrize(
    "lang,once,many",
    [
        (
            "en",
            "repeating both once more gave the same result",
            "repeating both 3 times gave the same result every time",
        ),
        ("zh", "两边重复测试一次，结果相同", "两边重复测试 3 次，结果每次都一样"),
    ],
)
def test_one_repeat_is_not_every_time(lang, once, many):
    """`--repeat 1` sends each edge once more: one run cannot be "every time" (每次都一样)."""
    assert once in ctx006(1, lang) and "every time" not in ctx006(1, lang) and "每次" not in ctx006(1, lang)
    assert many in ctx006(3, lang)


def url003_remedy(home, lang, nothing_sent):
    from codexdoctor.checks.live import with_nothing_sent
    from tests.conftest import offline_report, write_config

    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/v1"\nenv_key = "GW_KEY"\n',
    )
    checks = list(offline_report(home).checks)
    url = next(c for c in checks if c.id == "url.base_url")
    url = url.__class__(**{**url.__dict__, "facts": {**url.facts, "offline": False}})
    results = with_nothing_sent([url]) if nothing_sent else [url]
    return next(f for f in evaluate(results, lang=lang) if f.code == "URL003").remedy[0]


@pytest.mark.parametrize(
    "lang,said,not_said",
    [
        ("en", "No request was sent in this run", "could not settle"),
        ("zh", "本次运行没有发送任何请求", "没能判断"),
    ],
)
def test_url003_does_not_say_live_checks_tried_when_nothing_was_sent(home, lang, said, not_said):
    """Issue 40: "the live checks could not settle it" beside "Probe not run … no tokens spent": nothing was sent, say that."""
    blocked = url003_remedy(home, lang, nothing_sent=True)
    assert said in blocked and not_said not in blocked
    assert not_said in url003_remedy(home, lang, nothing_sent=False)
