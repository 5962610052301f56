"""Renderers are pure functions of the Report; JSON validates against the shipped schema."""

import json
from importlib.resources import files

import jsonschema
import pytest

from codexdoctor.report.render import FORMATS, RenderOptions, render
from tests.conftest import TAOTOKEN, offline_report, write_config

SCHEMA = json.loads(files("codexdoctor").joinpath("data/report.schema.json").read_text(encoding="utf-8"))


@pytest.fixture
def report(home):
    write_config(home, TAOTOKEN.replace("base_url =", "baseURL ="))
    return offline_report(home, {"TAOTOKEN_KEY": "sk-abcdefghijklmnopqrstuvwxyz0123"})


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_renders_the_verdict_and_codes(report, fmt):
    out = render(report, fmt)
    assert "config" in out
    for f in report.findings:
        assert f.code in out


def test_renderers_are_pure(report):
    for fmt in FORMATS:
        assert render(report, fmt) == render(report, fmt)


def test_json_matches_schema(report):
    data = json.loads(render(report, "json"))
    jsonschema.validate(data, SCHEMA)
    assert data["schema_version"] == "1"
    assert data["verdict"] == "config"


def test_json_schema_rejects_wrong_shape(report):
    data = json.loads(render(report, "json"))
    data["verdict"] = "fine"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)


def test_text_ascii_and_color(report):
    plain = render(report, "text", RenderOptions(ascii=True))
    assert plain.isascii() or all(ord(c) < 128 for c in plain.replace("\u2026", "").replace("\u2192", ""))
    assert "[x] Provider" in plain and "[✗]" not in plain
    colored = render(report, "text", RenderOptions(color=True))
    assert "\x1b[31m" in colored
    assert "\x1b[" not in render(report, "text")


def test_text_verbose_shows_evidence(report):
    quiet = render(report, "text")
    loud = render(report, "text", RenderOptions(verbose=True))
    assert "$TAOTOKEN_KEY is set (" not in quiet
    assert "$TAOTOKEN_KEY is set (29 chars, sha256:" not in quiet
    assert "$TAOTOKEN_KEY is set (33 chars, sha256:" in loud


def test_markdown_is_ticket_ready(report):
    md = render(report, "markdown")
    assert md.startswith("# codexdoctor check report\n\n**Verdict: `config`**")
    assert "<details><summary>Evidence</summary>" in md
    assert "| `taotoken` (custom)" in md


def test_schema_is_published_and_versioned():
    from pathlib import Path

    from codexdoctor.report.build import SCHEMA_VERSION

    docs = Path(__file__).resolve().parents[2] / "docs" / "report-schema.json"
    assert json.loads(docs.read_text()) == SCHEMA, "docs/report-schema.json differs from the packaged schema"
    assert SCHEMA["properties"]["schema_version"]["const"] == SCHEMA_VERSION


def test_report_shape_change_needs_schema_change(report):
    # additionalProperties is false at every level: a new report field fails validation until the
    # schema (and so schema_version) is updated with it.
    data = json.loads(render(report, "json"))
    data["new_field"] = 1
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)


def test_text_wraps_to_the_width_keeping_commands_urls_and_code_whole():
    from codexdoctor.report.render.text import display_width, wrap

    step = 'Remove the prefix, keeping the key itself: export TAOTOKEN_API_KEY="${TAOTOKEN_API_KEY#Bearer }"'
    lines = wrap(step, 60, "    1. ", "       ")
    assert lines[-1].strip() == 'export TAOTOKEN_API_KEY="${TAOTOKEN_API_KEY#Bearer }"'  # one piece, copyable
    text = (
        'base_url = "https://taotoken.net/api?utm_source=blog"（~/.codex/config.toml:5）带着 `?…` 或 `#…`'
        "（常见的是从落地页链接复制来的 ?utm_source=…）；Codex 会在它后面追加 /responses，请求地址就坏了。"
    )
    for width in (60, 100):
        out = wrap(text, width, "    ", "    ")
        assert all(display_width(l) <= width for l in out), out
        assert any("https://taotoken.net/api?utm_source=blog" in l for l in out)
        assert "".join(l.strip() for l in out).replace(" ", "") == ("    " + text).strip().replace(" ", "")


def test_cli_wraps_to_columns(home, run, monkeypatch):
    from codexdoctor.report.render.text import display_width
    from tests.conftest import TAOTOKEN, write_config

    write_config(home, TAOTOKEN.replace('"https://taotoken.net/api"', '"https://taotoken.net/api?utm_source=blog"'))
    monkeypatch.setenv("COLUMNS", "60")
    for lang in ("en", "zh"):
        _, out, _ = run("check", "--offline", "--lang", lang)
        # only a line that is one copyable command or URL may be longer than the terminal
        long = [
            l
            for l in out.splitlines()
            if display_width(l) > 60
            and "`" not in l
            and "http" not in l
            and not l.strip().startswith(("export ", "echo ", "POST "))
        ]
        assert not long, long


@pytest.mark.parametrize("width", [40, 60, 80])
def test_a_table_wraps_its_cells_and_never_cuts_a_word(width):
    """Issue 40: at 80 columns `demo` read "a working provi…" and "CTX025 The prov…"; `rules` "…not tru…"."""
    from codexdoctor.report.render.text import display_width, table_lines

    rows = (
        ("healthy", "a working provider", "ok", "CTX025 The provider does not publish its window"),
        (
            "near-miss-variable",
            "the key is in SIM_KEY, Codex reads SIM_API_KEY",
            "config",
            "ENV003 Key is in a variable",
        ),
    )
    lines = table_lines(("scenario", "what is wrong", "expected", "top finding"), rows, width)
    text = "\n".join(lines)
    assert "…" not in text and all(display_width(line) <= width for line in lines), text
    words = {w for row in rows for cell in row for w in cell.split()}
    assert words <= set(text.split()), words - set(text.split())  # every word whole, somewhere
