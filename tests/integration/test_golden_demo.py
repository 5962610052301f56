"""Golden files: the full text report of every demo scenario, in English and Chinese, at 60 and 100 columns.

The scenarios run for real against the simulator; only what changes from run to run (the loopback port and
timings) is normalised, before rendering, so the wrapping is the wrapping a user gets. A changed line fails the
test; after reviewing the new output line by line, regenerate with CODEXDOCTOR_UPDATE_GOLDEN=1.
"""

from __future__ import annotations

import dataclasses
import enum
import os
import re
from pathlib import Path

import pytest

from codexdoctor.commands import demo
from codexdoctor.report.render import RenderOptions, render
from codexdoctor.report.render.text import display_width

pytestmark = pytest.mark.simulator  # every report here is a demo scenario's, from the simulator

GOLDEN = Path(__file__).parents[1] / "snapshots" / "demo"
WIDTHS = (60, 100)
LANGS = ("en", "zh")
UPDATE = os.environ.get("CODEXDOCTOR_UPDATE_GOLDEN") == "1"  # read at import: the test fixtures clear the environment
_PORT = re.compile(r"127\.0\.0\.1:\d+")
_MS = re.compile(r"\b\d[\d,]*(?:\.\d+)? ms\b")
# Token counts the simulator makes of the real request: the demo's temporary folder and today's date are in it, so
# the digits move by a few from run to run (the provider's count now wins over the estimate): the golden keeps each
# count's length and shape, with every digit shown as 9 (other tests check the numbers themselves).
_TOKENS = re.compile(r"(?<![\d,])(\d{1,3}(?:,\d{3})+)(?=\s*(?:input )?tokens|\s*个(?:输入|输出)?\s*token)")


def _normalise(obj):
    if isinstance(obj, enum.Enum):
        return obj
    if isinstance(obj, str):
        return _TOKENS.sub(
            lambda m: re.sub(r"\d", "9", m.group(1)), _MS.sub("12 ms", _PORT.sub("127.0.0.1:40000", obj))
        )
    if isinstance(obj, tuple):
        return tuple(_normalise(x) for x in obj)
    if isinstance(obj, dict):
        return {k: _normalise(v) for k, v in obj.items()}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return dataclasses.replace(obj, **{f.name: _normalise(getattr(obj, f.name)) for f in dataclasses.fields(obj)})
    return obj


@pytest.fixture(scope="module")
def reports(demo_reports):
    return {key: _normalise(report) for key, report in demo_reports.items()}


CASES = [(s.name, lang, width) for s in demo.SCENARIOS for lang in LANGS for width in WIDTHS]


@pytest.mark.parametrize("name,lang,width", CASES)
def test_demo_report_matches_golden(reports, name, lang, width):
    out = render(reports[(name, lang)], "text", RenderOptions(width=width))
    path = GOLDEN / f"{name}.{lang}.{width}.txt"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(out, encoding="utf-8")
    assert out == path.read_text(encoding="utf-8")


# Pieces a line may not break: a URL, `code`, a quoted value, a shell command copied whole.
_UNBREAKABLE = re.compile(r"https?://\S+|``.*?``|`[^`]*`|\S+ \S*>>|(?:echo|export) .*")


@pytest.mark.parametrize("name,lang,width", CASES)
def test_lines_fit_the_width_unless_unbreakable(reports, name, lang, width):
    for line in render(reports[(name, lang)], "text", RenderOptions(width=width)).splitlines():
        if display_width(line, lang) > width:
            assert _UNBREAKABLE.search(line), (width, line)


# In Chinese output, Latin text is allowed only where it is not prose: codes, keys, URLs, paths, commands, product
# names, units, and the provider's or Codex's own error messages quoted verbatim.
_ALLOWED_LATIN = re.compile(
    r"``.*?``|`[^`]*`|https?://\S+|sha256:\w+|\b[0-9a-f]{8}\b|@\S+|sim-[\w-]+|[~.]?/\S+|\$\w+|\S+\.toml(?::\d+)?|\w+=\S+|--[\w-]+|\b[A-Z]{2,}\d+\b|\"[^\"]*\"|"
    r"\b(?:base_url|wire_api|wire|API|Key|Codex|sha256|HTML|ms|tokens?|model_context_window|model_auto_compact_token_limit|"
    r"env_key|profile|ok|sim|model|POST|GET|SSE|codexdoctor|probe|config|channel|context|llama\.cpp|vLLM|Ollama|"
    r"num_ctx|max_model_len|OpenAI|ID|export|echo|bashrc|npm|install|chat|responses|Chat Completions|Responses)\b"
)
# What the simulator itself answers (a provider's words are quoted as they came).
_PROVIDER_WORDS = (
    "Incorrect API key provided: sk-*****0000. You can find your API key at",
    "The model `sim-coder` does not exist or you do not have access to it",
)


@pytest.mark.parametrize("name", [s.name for s in demo.SCENARIOS])
def test_chinese_report_has_no_english_prose(reports, name):
    text = render(reports[(name, "zh")], "text", RenderOptions(verbose=False))
    for quoted in _PROVIDER_WORDS:
        text = text.replace(quoted, "")
    for line in text.splitlines():
        if line.startswith(" " * 9) and re.match(r"\s+(?:printf|export|set|echo|codex|codexdoctor|printenv)\b", line):
            continue  # a command, alone on its line under the step that explains it (issue 29)
        words = re.findall(r"[A-Za-z]{3,}", _ALLOWED_LATIN.sub("", line))
        assert not words, (name, words, line)
