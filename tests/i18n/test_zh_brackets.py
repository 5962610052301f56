"""Issue 40 (review at 80 columns): `check -v --lang zh` said a check's time as `(0 ms)` and the verdict as
`上下文问题 (context)` in ASCII brackets, while its evidence says `（769 ms）`: one bracket style in Chinese."""

from __future__ import annotations

import re

from tests.conftest import TAOTOKEN, write_config


def test_a_chinese_check_has_one_bracket_style(home, run, monkeypatch):
    write_config(home, TAOTOKEN)
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run("check", "--offline", "-v", "--lang", "zh", "--codex-version", "0.171.0")
    assert re.search(r"^    （\d+ ms）$", out, re.M), out
    assert not re.search(r"\(\d+ ms\)", out), out
    assert "结论：配置问题（config）" in out, out


def test_the_english_check_keeps_its_brackets(home, run, monkeypatch):
    write_config(home, TAOTOKEN)
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run("check", "--offline", "-v", "--lang", "en", "--codex-version", "0.171.0")
    assert re.search(r"^    \(\d+ ms\)$", out, re.M) and "Verdict: CONFIG — " in out, out
