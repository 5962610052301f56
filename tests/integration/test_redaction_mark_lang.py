"""The redaction mark in the report's language (issue 40 review): a Chinese ticket said `<redacted 8 chars, …>` in
its summary, config table and evidence. Text and Markdown in Chinese use `<已脱敏：N 个字符，sha256:…>`; JSON keeps
the English mark as data (docs/report-schema.md). Redaction itself does not change."""

from __future__ import annotations

import json
import re

from tests.conftest import write_config
from tests.integration.test_untrusted import leaked

KEY = "sk-gw-0123456789abcdefghijklmnop"
CONFIG = (
    'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
    f'base_url = "https://gw.example/v1?key={KEY}"\nenv_key = "GW_KEY"\n'
)
ZH_MARK = re.compile(r"<已脱敏：\d+ 个字符，sha256:[0-9a-f]{8}>")


def test_a_chinese_ticket_marks_in_chinese(home, run, tmp_path, monkeypatch):
    write_config(home, CONFIG)
    monkeypatch.setenv("GW_KEY", KEY)
    target = tmp_path / "t.md"
    run("report", "--offline", "--lang", "zh", "-o", str(target))
    text = target.read_text()
    assert ZH_MARK.search(text) and "<redacted" not in text
    assert not leaked(text, KEY)
    assert "‹" not in text  # one pair of brackets: `<` … `>`


def test_an_english_ticket_and_json_keep_the_english_mark(home, run, tmp_path, monkeypatch):
    write_config(home, CONFIG)
    monkeypatch.setenv("GW_KEY", KEY)
    md, js = tmp_path / "t.md", tmp_path / "t.json"
    run("report", "--offline", "--lang", "en", "-o", str(md))
    run("report", "--offline", "--lang", "zh", "--format", "json", "-o", str(js))
    assert "<redacted 32 chars, sha256:" in md.read_text() and "已脱敏：" not in md.read_text()
    data = js.read_text()
    json.loads(data)
    assert "<redacted 32 chars, sha256:" in data and "已脱敏：" not in data and not leaked(data, KEY)


def test_a_chinese_mark_is_known_as_a_mark():
    """Text read back (a zh ticket pasted into `diagnose-error`) is not masked again around its marks."""
    from codexdoctor.common.redact import Redactor, redact_url

    assert redact_url("https://h/v1?key=<已脱敏：31 个字符，sha256:0123abcd>") == (
        "https://h/v1?key=<已脱敏：31 个字符，sha256:0123abcd>"
    )
    said = "Bearer <已脱敏：31 个字符，sha256:0123abcd> rejected"
    assert Redactor([KEY])(said) == said
