"""Issue 40: every `[✗]` line has a finding below it in the same text output ("[✗] Provider: taotoken (custom)" once
had only a JUnit CFG011). A failed check row with nothing under it leaves the user with a red mark and no reason.

Over the demo scenarios (live, against the simulator) and the bad configs the static tests use, in both languages:
each failed check is among the checks of a finding the text output shows."""

from __future__ import annotations

import re

import pytest

from codexdoctor.model import Report, Status
from codexdoctor.report.render import render
from tests.conftest import TAOTOKEN, offline_report, write_config

KEY = "sk-tt-0123456789abcdefghijklmnopqrstuv"
FAILED_ROW = re.compile(r"^\[✗\] ", re.M)


def uncovered(report: Report, lang: str) -> list[str]:
    """The failed checks no finding in the text output stands for, as 'id: summary'."""
    text = render(report, "text")
    shown = [f for f in report.findings if re.search(rf"^\S+ {f.code} ", text, re.M)]
    failed = [c for c in report.checks if c.status is Status.FAIL]
    assert len(FAILED_ROW.findall(text)) == len(failed), text  # every failed check has its row, and only those
    return [f"{c.id}: {c.summary}" for c in failed if not any(c.id in f.checks for f in shown)]


def taotoken(old: str, new: str) -> str:
    assert old in TAOTOKEN
    return TAOTOKEN.replace(old, new)


# The bad configs of tests/checks/test_static_checks.py, tests/codex/ and the seed guide's setup, one of a kind each.
BAD_CONFIGS = {
    "no config": (None, {}),
    "key unset": (TAOTOKEN, {}),
    "key with a newline": (TAOTOKEN, {"TAOTOKEN_API_KEY": KEY + "\n"}),
    "key placeholder": (TAOTOKEN, {"TAOTOKEN_API_KEY": "YOUR_API_KEY"}),
    "near-miss variable": (TAOTOKEN, {"TAOTOKEN_KEY": KEY}),
    "unterminated string": ('model = "gpt-5\nmodel_provider = "taotoken"\n', {}),
    "wire_api chat": (taotoken('wire_api = "responses"', 'wire_api = "chat"'), {"TAOTOKEN_API_KEY": KEY}),
    "wire_api unknown": (taotoken('wire_api = "responses"', 'wire_api = "grpc"'), {"TAOTOKEN_API_KEY": KEY}),
    "missing provider table": ('model = "m"\nmodel_provider = "nope"\n', {}),
    "provider without base_url": (
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\nenv_key = "GW_KEY"\n',
        {"GW_KEY": KEY},
    ),
    "provider without name": (taotoken('name = "TaoToken"\n', ""), {"TAOTOKEN_API_KEY": KEY}),
    "empty model": (taotoken('model = "gpt-5"', 'model = ""'), {"TAOTOKEN_API_KEY": KEY}),
    "builtin redefined": (
        'model_provider = "openai"\n[model_providers.openai]\nname = "x"\nbase_url = "https://x.example/v1"\n',
        {},
    ),
    "base_url ftp": (taotoken("https://taotoken.net/api", "ftp://x.example/api"), {"TAOTOKEN_API_KEY": KEY}),
    "base_url no scheme": (taotoken("https://taotoken.net/api", "taotoken.net/api"), {"TAOTOKEN_API_KEY": KEY}),
    "base_url space": (taotoken("https://taotoken.net/api", "https://taotoken.net/api "), {"TAOTOKEN_API_KEY": KEY}),
    "base_url doubled path": (
        taotoken("https://taotoken.net/api", "https://taotoken.net/api/responses"),
        {"TAOTOKEN_API_KEY": KEY},
    ),
    "base_url userinfo": (
        taotoken("https://taotoken.net/api", "https://user:pw@taotoken.net/api"),
        {"TAOTOKEN_API_KEY": KEY},
    ),
    "base_url query": (
        taotoken("https://taotoken.net/api", "https://taotoken.net/api?utm_source=x"),
        {"TAOTOKEN_API_KEY": KEY},
    ),
    "provider value of the wrong type": (TAOTOKEN + 'request_max_retries = "2"\n', {"TAOTOKEN_API_KEY": KEY}),
    "top-level value of the wrong type": ('model_context_window = "4096"\n' + TAOTOKEN, {"TAOTOKEN_API_KEY": KEY}),
    "legacy profile selector": (
        taotoken('model = "gpt-5"\n', 'model = "gpt-5"\nprofile = "big"\n') + '\n[profiles.big]\nmodel = "m"\n',
        {"TAOTOKEN_API_KEY": KEY},
    ),
    "header of the wrong type": (TAOTOKEN + 'http_headers = { "X-Retries" = 3 }\n', {"TAOTOKEN_API_KEY": KEY}),
    "unknown key": (TAOTOKEN + "api_base = 3\n", {"TAOTOKEN_API_KEY": KEY}),
    "gateway key as openai login": (
        'model = "m"\n[model_providers.gw]\nname = "gw"\nbase_url = "https://gw.example/v1"\n'
        'env_key = "OPENAI_API_KEY"\n',
        {"OPENAI_API_KEY": KEY},
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", sorted(BAD_CONFIGS))
def test_every_failed_row_of_a_bad_config_has_a_finding_below(home, name, lang):
    config, env = BAD_CONFIGS[name]
    if config is not None:
        write_config(home, config)
    report = offline_report(home, env, lang=lang)
    assert not uncovered(report, lang), (name, [(f.code, f.checks) for f in report.findings])


def test_the_seed_guides_setup_offline_names_its_provider_problem(home):
    """The setup of the issue: key in ~/.bashrc without export, wire_api = "chat", base_url without /v1."""
    write_config(
        home,
        'model = "gpt-4o-2024-11-20"\nmodel_provider = "taotoken"\n\n[model_providers.taotoken]\nname = "taotoken"\n'
        'base_url = "https://taotoken.net/api"\nenv_key = "TAOTOKEN_API_KEY"\nwire_api = "chat"\n',
    )
    (home / ".bashrc").write_text(f"TAOTOKEN_API_KEY={KEY}\n")
    for lang in ("en", "zh"):
        report = offline_report(home, {}, lang=lang)
        assert not uncovered(report, lang), [(f.code, f.checks) for f in report.findings]


@pytest.mark.simulator
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_failed_row_of_a_demo_scenario_has_a_finding_below(demo_reports, lang):
    from codexdoctor.commands import demo

    gaps = {}
    for scenario in demo.SCENARIOS:
        report = demo_reports[(scenario.name, lang)]
        if missing := uncovered(report, lang):
            gaps[scenario.name] = missing
    assert not gaps, gaps


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_seed_guides_setup_live_names_every_failed_row(home, sim_server, monkeypatch, lang):
    """The issue's own case, live: "[✗] Provider: taotoken (custom)" had no finding in text (only JUnit's CFG011)."""
    from tests.integration.test_one_run import KEY as SEED_KEY
    from tests.integration.test_one_run import seed_setup

    monkeypatch.delenv("TAOTOKEN_API_KEY", raising=False)
    s = sim_server(api_key=SEED_KEY, models=("sim-model",))
    seed_setup(home, s)
    from pathlib import Path

    from codexdoctor.commands.check import run_check
    from codexdoctor.commands.options import CheckOptions

    report, _ = run_check(
        CheckOptions(
            env={"HOME": str(home)},
            home=home,
            cwd=Path.cwd(),
            system_config=None,
            codex_version=(0, 171, 0),
            lang=lang,
        )
    )
    assert any(c.status is Status.FAIL for c in report.checks)
    assert not uncovered(report, lang), [(f.code, f.checks) for f in report.findings]
