"""Issue 40 review 1 (defects 1, 4, 5, 7, 18, 29): how text is laid out in an 80- (and 60-) column terminal, in English
and Chinese. No line starts with closing punctuation; a command, in prose or in a remedy's command block, is never
split; `fix` lays remedies out as `check` does and wraps its question; `--help` never breaks an option or a file name
at its hyphen."""

from __future__ import annotations

import re
import sys

import click
import pytest

from codexdoctor.report.render.orphans import NO_LINE_START
from codexdoctor.report.render.text import display_width, wrap
from tests.conftest import write_config

LANGS = ("en", "zh")
WIDTHS = (60, 80)

# The seed guide's config, as the reviewer had it: a landing-page query in base_url, wire_api "chat", a legacy profile.
SEED = """model = "tt-model"
model_provider = "taotoken"

[model_providers.taotoken]
name = "TaoToken"
base_url = "http://127.0.0.1:18741/v1?utm_source=taotoken_aicg_blog_end"
env_key = "TAOTOKEN_API_KEY"
wire_api = "chat"

[model_providers.tt-small]
name = "TaoToken small"
base_url = "http://127.0.0.1:18741/v1"
env_key = "TAOTOKEN_API_KEY"

[profiles.small]
model_provider = "tt-small"
model = "tt-model"
"""
KEY = "sk-fake-9f8e7d6c5b4a39281706f5e4d3c2b1a0"


@pytest.fixture
def seed(home, monkeypatch):
    write_config(home, SEED)
    monkeypatch.setenv("CODEXDOCTOR_NO_CODEX_PROBE", "1")
    monkeypatch.setenv("SHELL", "/bin/bash")
    return home


def _check(run, monkeypatch, lang, width):
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = run("check", "--offline", "--codex-version", "0.171.0", "--lang", lang)
    assert code == 1, err
    return out.splitlines()


def _no_line_starts_with_closing_punctuation(lines):
    for before, line in zip(["", *lines], lines):
        text = line.strip()
        if re.match(r"! [A-Z]+\d{3} ", text):  # a warning's mark, not a stop
            continue
        # `?utm_source=…`, `.codex/`: a query or a path, not a stop
        closing = text[:1] in NO_LINE_START and not (text[:1] in ".,;:!?" and re.match(r".[\w/~]", text))
        assert not closing, (before, line)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_no_line_starts_with_closing_punctuation(seed, run, monkeypatch, lang, width):
    """Defect 1: URL003 put the sentence's "." / "。" after the request URL alone at the start of the next line."""
    _no_line_starts_with_closing_punctuation(_check(run, monkeypatch, lang, width))


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_piece_cut_at_the_width_leaves_no_stop_to_the_next_line(lang, width):
    """A URL that fills a line to the last cell, then the sentence's stop: the cut moves back to the URL's last `/`,
    never leaving "." / "。" alone; every line still fits."""
    stop = "。" if lang == "zh" else "."
    url = "http://127.0.0.1:18741/v1?q=" + "x" * (width - 4 - 28 - len("/chat/completions")) + "/chat/completions"
    assert display_width("    " + url, lang) == width
    lines = wrap(f"so Codex calls {url}{stop} Codex never adds or removes /v1.", width, "    ", "    ", lang)
    _no_line_starts_with_closing_punctuation(lines)
    assert all(display_width(line, lang) <= width for line in lines), lines
    assert any(line.endswith("/chat/") for line in lines) and any("completions" + stop in line for line in lines)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_command_in_a_remedy_is_never_split(seed, run, monkeypatch, lang, width):
    """Defect 4: CFG025's `codex --profile small` ran over two lines in English (`… with codex` / `--profile small.`)."""
    lines = _check(run, monkeypatch, lang, width)
    assert any("codex --profile small" in line for line in lines), "\n".join(lines)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_command_in_prose_stays_whole(width):
    """A `codex` / `codexdoctor` command written in prose, unquoted, is one piece, its options' values with it."""
    text = (
        "Then start Codex again with codex --profile small and, if it still fails, run codexdoctor check --timeout 30."
    )
    for pad in range(0, 40):
        joined = "\n".join(wrap("x" * pad + " " + text, width, "    ", "    "))
        assert "codex --profile small" in joined and "codexdoctor check --timeout 30." in joined, joined


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_command_block_is_never_wrapped(seed, run, monkeypatch, lang, width):
    """Defect 29: ENV005's `export … | tr -d` / `'[:space:]')"` was split inside `$( )`: pasted, the shell runs
    `'[:space:]'` as a command. A command block runs past the width instead."""
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY + " \n")
    lines = _check(run, monkeypatch, lang, width)
    command = 'export TAOTOKEN_API_KEY="$(printf %s "$TAOTOKEN_API_KEY" | tr -d \'[:space:]\')"'
    assert "         " + command in lines, "\n".join(lines)


def _fix_dry_run(run, monkeypatch, home, lang, width):
    (home / ".bashrc").write_text(f"# my rc\nTAOTOKEN_API_KEY={KEY}\n")
    monkeypatch.delenv("TAOTOKEN_API_KEY", raising=False)
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = run("fix", "--dry-run", "--offline", "--codex-version", "0.171.0", "--lang", lang)
    assert code == 1, err
    return out.splitlines()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_fix_lays_out_remedies_as_check_does(seed, run, monkeypatch, lang, width):
    """Defect 5: `fix` printed ENV024's item 1 at column 0, its continuation at 4 and item 2 at column 2."""
    lines = _fix_dry_run(run, monkeypatch, seed, lang, width)
    start = next(i for i, line in enumerate(lines) if line.startswith("ENV024"))
    items = [line for line in lines[start:] if line.lstrip()[:3] in ("1. ", "2. ")]
    assert [line[:7] for line in items] == ["    1. ", "    2. "], "\n".join(lines)
    block = lines[lines.index(items[0]) + 1 : lines.index(items[1])]
    assert block and all(line.startswith("       ") for line in block), block  # prose at 7, the command at 9
    assert any(line.startswith("         sed -i ") for line in block), block
    _no_line_starts_with_closing_punctuation(lines)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_fix_question_fits_the_terminal(seed, run, monkeypatch, lang, width):
    """Defect 7: the question ran to 86 cells and the terminal cut it inside the URL (`…:18741/` / `v1"? [Y/n]:`)."""
    write_config(seed, SEED.replace('wire_api = "chat"\n', ""))
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    monkeypatch.setenv("COLUMNS", str(width))
    asked: list[str] = []

    def confirm(text, default=True):
        asked.append(text)
        return False

    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(click, "confirm", confirm)
    run("fix", "--offline", "--codex-version", "0.171.0", "--lang", lang)
    assert asked
    for question in asked:
        lines = question.split("\n")
        assert all(display_width(line + " [Y/n]: ", lang) <= width for line in lines), lines
        assert '"http://127.0.0.1:18741/v1"' in question, lines  # the value whole, on one line
        _no_line_starts_with_closing_punctuation(lines)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_help_never_breaks_an_option_or_a_file_name(run, monkeypatch, lang, width):
    """Defect 18: `report --help` broke `--first-token-` / `timeout` and `codexdoctor-` / `report-<time>.md`."""
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setenv("LANG", "zh_CN.UTF-8" if lang == "zh" else "en_US.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    for command in ("report", "check", "sim"):
        code, out, err = run(command, "--help")
        assert code == 0, err
        lines = out.splitlines()
        for line in lines:
            assert not line.rstrip().endswith(("--first-token-", "codexdoctor-", "sim-")), (command, line)
        if command == "report":
            assert sum("--first-token-timeout" in line for line in lines) >= 2, out  # in --timeout's help, and its own
            name = "codexdoctor-report-<时间>.md" if lang == "zh" else "codexdoctor-report-<time>.md"
            assert any(name in line for line in lines), out
