"""Issue 40: `check --verbose --lang zh` showed its evidence lines in English. Every evidence line a Chinese report
shows is said in Chinese: check --verbose (text and JSON), sessions --verbose, diagnose-error and the support ticket.
Data stays as it came: URLs, status codes, numbers, the server's own text, paths, identifiers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from codexdoctor.model import Msg
from codexdoctor.report.render import RenderOptions, render
from tests.conftest import TAOTOKEN, offline_report, write_config

FIXTURES = Path(__file__).parents[1] / "fixtures" / "rollouts" / "real-0.171.0"

# What is data in a line, whatever the language: taken out before the words are read.
_DATA = re.compile(
    r"https?://\S+"
    r"|`[^`]*`|\"[^\"]*\""  # code, commands, quoted values
    r"|(?:响应体为 |粘贴的内容：|读取问题：).*?(?=（发送于|（共 \d|$)"  # the server's (or the user's) own text
    r"|[~/$][\w./~<>*-]*"  # paths, $VARIABLES
    r"|<[^>]*>"  # <redacted …>, <name>
    r"|\b\w+ ?= ?[^\s（）：，；、]*"  # auth_mode=apikey, CODEX_HOME=~/.codex, model = "m"
    r"|\b\w*[\d_.]\w*(?:[.:/-]\w+)*"  # identifiers, counts, versions, sha256:1a2b, response.completed
    r"|\b\w+(?:-\w+)+"  # sim-coder-plus, gpt-5-codex
    r"|\b[A-Z]{2,}\b"  # POST, HTML, BOM, [DONE]
)
# Names that are the same in every language: the programs, a header, a unit the Chinese report writes too.
_NAMES = {"Codex", "codexdoctor", "ChatGPT", "Windows", "Location", "Bearer", "token", "tokens", "ms", "profile"}
_NAMES |= {"id"}  # 请求 id: the ticket's own words
_WORD = re.compile(r"[A-Za-z]{2,}")


def english_in(line: str) -> list[str]:
    """The English words a Chinese evidence line still holds, once its data is taken out."""
    return [w for w in _WORD.findall(_DATA.sub(" ", line)) if w not in _NAMES]


def assert_evidence_chinese(where: str, lines) -> None:
    left = [(line, english_in(line)) for line in lines if english_in(line)]
    assert not left, (where, left[:5])


def _report_lines(report) -> list[str]:
    return [e for c in report.checks for e in c.evidence] + [e for f in report.findings for e in f.evidence]


def _rendered_evidence(text: str, lines: list[str]) -> list[str]:
    """The evidence lines as the text report shows them: each line the report holds, found in the output (its
    first words, since long lines wrap)."""
    flat = "".join(text.split())  # a Chinese line may wrap after its full-width colon, where it had no space
    shown = [line for line in lines if "".join(line.split())[:30] in flat]
    assert len(shown) == len(lines), [line for line in lines if line not in shown][:3]
    return shown


def _json_lines(report) -> list[str]:
    data = json.loads(render(report, "json", RenderOptions(verbose=True)))
    return [e for c in data["checks"] for e in c["evidence"]] + [e for f in data["findings"] for e in f["evidence"]]


def _assert_report(where: str, report) -> None:
    lines = _report_lines(report)
    assert lines, where  # a report with evidence: the test reads something
    text = render(report, "text", RenderOptions(verbose=True, width=80))
    assert_evidence_chinese(where + " text", _rendered_evidence(text, lines))
    assert_evidence_chinese(where + " json", _json_lines(report))


def test_the_check_fails_on_an_english_line():
    """The guard reads words, not data: an English line fails it, its Chinese passes, a bare URL passes."""
    line = Msg("answer capped at {n} output tokens", "回答上限为 {n} 个输出 token", n=16)
    assert english_in(line.text("en")) and not english_in(line.text("zh"))
    assert not english_in('POST http://127.0.0.1:1/v1/responses -> 404（3 ms），响应体：{"error": "Not Found"}')
    assert not english_in("Codex 0.171.0 的第一个请求：8,501 个 token（o200k_base）")
    assert english_in("$SIM_API_KEY: set, 28 chars, sha256:fbbb0b78")


@pytest.mark.simulator
def test_demo_scenarios_show_their_evidence_in_chinese():
    from codexdoctor.commands import demo

    for scenario in demo.SCENARIOS:
        zh = demo.run_scenario(scenario, lang="zh").report
        _assert_report(scenario.name, zh)
        redacted = sum("<redacted" in line for line in _report_lines(zh))
        en = demo.run_scenario(scenario, lang="en").report
        # The Chinese words never make the redactor mask what it shows in English (a variable's name).
        assert redacted <= sum("<redacted" in line for line in _report_lines(en)), scenario.name


STATIC = {
    "unset": (TAOTOKEN, {}),
    "near-miss": (TAOTOKEN, {"TAOTOKEN_KEY": "sk-x-0123456789"}),
    "newline": (TAOTOKEN, {"TAOTOKEN_API_KEY": "sk-x-0123456789\n"}),
    "no-table": (TAOTOKEN.replace('model_provider = "taotoken"', 'model_provider = "x"'), {}),
    "unknown-key": (TAOTOKEN + 'modle = "x"\n', {"TAOTOKEN_API_KEY": "sk-x-0123456789"}),
    "toml-error": (TAOTOKEN.replace('"responses"', "responses"), {}),
    "login": ('model_provider = "gw"\n[model_providers.gw]\nname = "g"\nbase_url = "https://gw.example"\n', {}),
}


@pytest.mark.parametrize("name", sorted(STATIC))
def test_static_evidence_in_chinese(home, name):
    config, env = STATIC[name]
    write_config(home, config)
    _assert_report(name, offline_report(home, {"OPENAI_API_KEY": "sk-o-0123456789abcdef", **env}, lang="zh"))


def test_sessions_and_pastes_in_chinese(home):
    from codexdoctor.commands.diagnose import run_diagnose
    from codexdoctor.commands.options import CheckOptions
    from codexdoctor.commands.sessions import run_sessions

    report, _ = run_sessions({"HOME": str(home)}, home, (FIXTURES,), None, None, None, False, "zh")
    _assert_report("sessions", report)
    for paste in (
        "Missing environment variable: `TAOTOKEN_API_KEY`.",
        "stream disconnected before completion: idle timeout waiting for SSE",
        "Reconnecting... 1/5 (stream disconnected before completion: Internal server error)\n"
        "stream disconnected before completion: Internal server error",
        'unexpected status 401 Unauthorized: {"error":{"message":"Incorrect API key provided"}}',
        "something else",
    ):
        opts = CheckOptions(
            env={"HOME": str(home), "TAOTOKEN_KEY": "x"}, home=home, cwd=Path.cwd(), system_config=None, lang="zh"
        )
        _assert_report(paste[:30], run_diagnose(opts, paste)[0])


def test_the_ticket_says_its_evidence_in_chinese(home, run, tmp_path):
    """The ticket's folded evidence, and its judged session, in Chinese."""
    from tests.rollout_factory import RolloutWriter

    write_config(home, TAOTOKEN)
    w = RolloutWriter(home / ".codex" / "sessions", provider="taotoken", model="m")
    w.turn(9_000)
    w.turn(12_000, error="unexpected status 502 Bad Gateway: upstream failed")
    w.close()
    target = tmp_path / "t.md"
    assert run("report", "--offline", "--lang", "zh", "-o", str(target))[0] in (0, 1)
    text = target.read_text(encoding="utf-8")
    folded = re.findall(r"<details><summary>(?:证据|全部检查的证据)</summary>\n\n```\n(.*?)```", text, re.S)
    lines = [line.strip() for block in folded for line in block.splitlines() if line.startswith("  ")]
    assert lines, text
    assert_evidence_chinese("ticket", lines)
    judged = next(line for line in text.splitlines() if line.startswith("- 判定："))
    assert not english_in(judged), judged


@pytest.mark.simulator
def test_the_probe_says_its_evidence_in_chinese(home, sim_server):
    from codexdoctor.checks.probe import ProbeSettings
    from codexdoctor.commands.options import CheckOptions
    from codexdoctor.commands.probe import run_probe

    key = "sk-sim-probe-0123456789ab"
    s = sim_server(api_key=key, context_window=8192, token_interval_ms=0)
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    opts = CheckOptions(
        env={"HOME": str(home), "SIM_API_KEY": key},
        home=home,
        cwd=Path.cwd(),
        system_config=None,
        codex_version=(0, 171, 0),
        lang="zh",
    )
    settings = ProbeSettings(max_context=12000, cache_step=False, repeat=1)
    report, _ = run_probe(opts, settings, lambda plan: True, lambda line: None)
    assert any(c.id == "ctx.probe" and c.evidence for c in report.checks)
    _assert_report("probe", report)
