"""The one window advice (rules/ctx/advice.py): this run's count of Codex's first request decides and is quoted
(issue 40: a fixed "about 8,500" beside a first request of 9,140 on the same screen)."""

import re

import pytest

from codexdoctor.codex.sizes import too_small_for_codex, window_settings
from codexdoctor.rules.ctx.advice import window_step

CFG = "~/.codex/config.toml"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_runs_own_first_request_is_quoted(lang):
    said = window_step(9000, CFG, 9140).get(lang)
    assert "9,140" in said and "8,500" not in said
    assert "model_context_window" not in said  # too small: no lines Codex cannot use


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_without_a_count_the_measured_default(lang):
    said = window_step(8000, CFG).get(lang)
    assert "8,500" in said


def test_a_larger_first_request_makes_a_window_too_small():
    assert not too_small_for_codex(9000)
    assert too_small_for_codex(9000, 9140)
    assert "model_context_window = 9000" in window_step(9000, CFG).en


def test_the_compaction_limit_never_falls_below_the_runs_first_request():
    assert window_settings(12000) == (12000, 9600)
    assert window_settings(12000, 11000) == (12000, 11000)
    lines = window_step(12000, CFG, 11000).en
    assert "model_auto_compact_token_limit = 11000" in lines


# Issue 40 (watch review): CTX041 advised `model_context_window = 7168` from a guessed 8192, under Codex's own first
# request, when no earlier request had been answered and the provider named no window.
def _watch_break(before: int | None, window: int | None) -> str:
    from codexdoctor.model import CheckResult, Status
    from codexdoctor.rules import evaluate
    from codexdoctor.rules.catalog import RULES_BY_CODE
    from tests.rules.healthy import HEALTHY

    brk = {
        "number": 1,
        "before_tokens": before,
        "body_bytes": 120000,
        "message": "prompt too long",
        "server_window": window,
        "server_request": None,
    }
    facts = {**HEALTHY["ctx.watch"], "failed": 1, "context_break": brk}
    found = evaluate([CheckResult("ctx.watch", "w", Status.FAIL, "", facts)], [RULES_BY_CODE["CTX041"]], "en")
    assert len(found) == 1
    return "\n".join(found[0].remedy)


def test_watch_window_advice_without_evidence_gives_no_number_and_points_to_probe():
    for before in (None, 4000):  # nothing answered, or only a request too small to tell a window from
        said = _watch_break(before, None)
        assert "codexdoctor probe" in said and not re.search(r"model_context_window = \d", said), said


def test_watch_window_advice_with_evidence_is_the_one_window_advice():
    from codexdoctor.rules.ctx.advice import window_step

    cfg = "~/.codex/config.toml"
    assert window_step(20000, cfg).en in _watch_break(12000, 20000)
    assert window_step(30000, cfg).en in _watch_break(30000, None)
    assert "cannot hold Codex's first request" in _watch_break(None, 4096)
