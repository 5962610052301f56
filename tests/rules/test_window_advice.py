"""The one window advice (rules/ctx/advice.py): this run's count of Codex's first request decides and is quoted
(issue 40: a fixed "about 8,500" beside a first request of 9,140 on the same screen)."""

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
