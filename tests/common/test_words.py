"""Every word a user reads: plurals, numbers, `config` in both languages, `explain` without raw placeholders."""

from __future__ import annotations

import json
import re

import pytest

from codexdoctor.common.words import plural
from codexdoctor.report.catalogview import explain_rule
from codexdoctor.rules import RULES, fmt
from tests.conftest import write_config


@pytest.mark.parametrize(
    "count,word,expected",
    [
        (1, "model", "1 model"),
        (2, "model", "2 models"),
        (0, "session", "0 sessions"),
        (4096, "token", "4,096 tokens"),
        (1, "error", "1 error"),
        (3, "is", "3 are"),
    ],
)
def test_plural(count, word, expected):
    assert plural(count, word) == expected


def test_rule_numbers_read_as_prose_but_config_values_stay_bare():
    assert (
        fmt("serves {served} tokens after {n:count:attempt}", {"served": 4096, "n": 1})
        == "serves 4,096 tokens after 1 attempt"
    )
    assert fmt("model_context_window = {w:d}", {"w": 32768}) == "model_context_window = 32768"
    assert fmt("{flag}", {"flag": True}) == "True" and fmt("{n:count:attempt}", {"n": 4}) == "4 attempts"


CONFIG = """model = "gpt-5"
model_provider = "tt"

[model_providers.tt]
name = "TaoToken"
base_url = "https://taotoken.example/v1"
env_key = "TAOTOKEN_API_KEY"
requires_openai_auth = false
"""


def test_config_text_has_no_python_spellings(home, run):
    write_config(home, CONFIG)
    code, out, _ = run("config")
    assert code == 0
    assert "True" not in out and "False" not in out and "(none)" not in out
    assert re.search(r"requires_openai_auth\s+false", out) and re.search(r"profile\s+not set\s+Codex default", out)
    assert "base_url + /responses" in out


def test_config_in_chinese_has_no_english_words(home, run):
    write_config(home, CONFIG)
    code, out, _ = run("config", "--lang", "zh")
    assert code == 0 and "配置层（优先级从低到高）" in out and "请求地址" in out
    allowed = re.compile(
        r"https?://\S+|~/\S+|\$\w+|\b(?:CODEX_HOME|profile|model_provider|model|base_url|wire_api|env_key|"
        r"key|requires_openai_auth|responses|gpt-5|tt|TAOTOKEN_API_KEY|false|Codex|POST)\b|/responses"
    )
    for line in out.splitlines():
        assert not re.findall(r"[A-Za-z]{3,}", allowed.sub("", line)), line


def test_config_json_says_null_for_unset(home, run):
    write_config(home, CONFIG)
    code, out, _ = run("config", "--format", "json")
    values = {v["key"]: v for v in json.loads(out)["values"]}
    assert values["profile"]["value"] is None and values["requires_openai_auth"]["value"] == "false"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_explain_never_shows_a_raw_placeholder(lang):
    for rule in RULES:
        text = explain_rule(rule.code, "text", lang)
        assert not re.search(r"\{[a-z_0-9]+(?::[^}]*)?\}", text), (rule.code, text)
    assert "<served>" in explain_rule("CTX002", "text", "en")


@pytest.mark.parametrize("canary", [True, False])
def test_a_check_that_got_no_answer_never_says_answered(home, canary):
    import socket
    from pathlib import Path

    from codexdoctor.commands.check import run_check
    from codexdoctor.commands.options import CheckOptions

    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    write_config(
        home,
        f'model = "m"\nmodel_provider = "p"\n[model_providers.p]\nname = "p"\n'
        f'base_url = "http://127.0.0.1:{port}/v1"\nenv_key = "P_API_KEY"\n',
    )
    report, _ = run_check(
        CheckOptions(
            env={"HOME": str(home), "P_API_KEY": "sk-p-0123456789abcdef"},
            home=home,
            cwd=Path.cwd(),
            system_config=None,
            codex_version=(0, 171, 0),
            timeout=5,
            canary=canary,
        )
    )
    rows = {c.id: c.summary for c in report.checks}
    assert rows["api.variants"] == "not tried: the configured URL did not answer"
    assert not any("answered" in text for cid, text in rows.items() if cid != "api.variants"), rows


def test_fix_speaks_chinese(home, run, sim_server, monkeypatch):
    key = "sk-fix-zh-0123456789abcdef"
    s = sim_server(api_key=key, prefix="/api")
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.url}/api/v1?utm_source=guide"\nenv_key = "SIM_KEY"\n',
    )
    monkeypatch.setenv("SIM_KEY", key)
    code, out, _ = run("fix", "--yes", "--lang", "zh", "--codex-version", "0.171.0", "--no-canary")
    assert "修复前：结论 通道问题（channel）" in out and "已写入" in out and "已修复：API001" in out
    allowed = re.compile(
        r"https?://\S+|~/\S+|`[^`]*`|\"[^\"]*\"|\b(?:API|CTX|URL)\d+\b|\b(?:channel|ok|config|context|"
        r"codexdoctor|name|sim|model|model_provider|base_url|env_key|SIM_KEY|inconclusive)\b|[-+@ ,0-9]+"
    )
    for line in out.splitlines():
        if line.startswith(("---", "+++", "@@", " ", "-", "+")):
            continue  # the diff shows the file as it is
        assert not re.findall(r"[A-Za-z]{3,}", allowed.sub("", line)), line
