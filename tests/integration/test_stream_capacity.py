"""A provider that refuses inside the stream for capacity or rate (issue 38 item 3), judged as Codex 0.171 judges it:
server_is_overloaded / slow_down stop Codex at once ("Selected model is at capacity…"), rate_limit_exceeded is
retried after the wait its message names and then stops Codex with `rate limit exceeded: <message>`,
insufficient_quota stops it with `Quota exceeded…`. Each was run with the real CLI (docs/codex-behaviour.md)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from codexdoctor.commands.check import run_check
from codexdoctor.commands.diagnose import run_diagnose
from codexdoctor.commands.options import CheckOptions
from codexdoctor.model import Verdict
from codexdoctor.net.codex_words import codex_ending, failed_says, try_again_in
from tests.conftest import write_config

KEY = "sk-zq-0123456789abcdef"


def options(home, base_url):
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    return CheckOptions(
        env={"HOME": str(home), "SIM_API_KEY": KEY},
        home=home,
        cwd=Path.cwd(),
        system_config=None,
        codex_version=(0, 171, 0),
        timeout=4.0,
    )


def findings(report):
    return {f.code: f for f in report.findings if f.severity.value != "info"}


def text(f):
    return " ".join((f.title, f.diagnosis, *f.remedy, *f.evidence))


@pytest.mark.simulator
def test_a_model_at_capacity_is_not_retried_and_named_in_codex_words(home, sim_server):
    s = sim_server(
        api_key=KEY, stream_fault="response_failed", fault_code="server_is_overloaded", fault_message="Overloaded."
    )
    report, _ = run_check(options(home, s.base_url))
    found = findings(report)
    assert report.verdict is Verdict.CHANNEL and set(found) == {"API029"}, report.findings
    assert "Selected model is at capacity. Please try a different model." in text(found["API029"])
    assert "another model" in " ".join(found["API029"].remedy)
    sizes = [r.input_tokens for r in s.records if r.method == "POST"]
    assert len(sizes) == len(set(sizes))  # as Codex: no request sent twice (the others are different requests)


@pytest.mark.simulator
@pytest.mark.parametrize("code", ["rate_limit_exceeded", "slow_down"])
def test_a_rate_limit_inside_the_stream_at_every_attempt_is_the_channel(home, sim_server, code):
    s = sim_server(
        api_key=KEY,
        stream_fault="response_failed",
        fault_code=code,
        fault_message="Rate limit reached for requests. Please try again in 20ms.",
    )
    report, _ = run_check(options(home, s.base_url))
    found = findings(report)
    assert report.verdict is Verdict.CHANNEL and "API030" in found and "API003" not in found, report.findings
    said = text(found["API030"])
    assert "rate limit exceeded: Rate limit reached for requests. Please try again in 20ms." in said
    assert "all 6 attempts" in said and "higher rate limit" in said
    assert len([r for r in s.records if r.method == "POST"]) >= 6  # retried as Codex retries (stream_max_retries 5)
    # The code the provider sent, not both (issue 40: "rate_limit_exceeded (or slow_down)" for a rate_limit_exceeded).
    assert f"response.failed with code {code} at all 6 attempts" in said, said
    zh, _ = run_check(replace(options(home, s.base_url), lang="zh"))
    (api030,) = [f for f in zh.findings if f.code == "API030"]
    assert f"错误码为 {code} 的 response.failed" in api030.diagnosis and "或" not in api030.diagnosis, api030.diagnosis


@pytest.mark.simulator
def test_insufficient_quota_inside_the_stream_sends_to_billing(home, sim_server):
    s = sim_server(
        api_key=KEY, stream_fault="response_failed", fault_code="insufficient_quota", fault_message="No credit."
    )
    report, _ = run_check(options(home, s.base_url))
    found = findings(report)
    assert report.verdict is Verdict.CHANNEL and set(found) == {"API004"}, report.findings
    assert "Quota exceeded. Check your plan and billing details." in text(found["API004"])
    sizes = [r.input_tokens for r in s.records if r.method == "POST"]
    assert len(sizes) == len(set(sizes))  # not retried


@pytest.mark.parametrize(
    "message,wait",
    [
        ("Please try again in 1s.", 1.0),
        ("Please try again in 1.5 seconds", 1.5),
        ("try again in 250ms", 0.25),
        ("Try Again In 2 second", 2.0),
        ("try again later", None),
        (None, None),
    ],
)
def test_the_wait_codex_reads_in_a_rate_limit_message(message, wait):
    assert try_again_in(message) == wait


def test_codex_lines_for_capacity_and_rate():
    assert failed_says("server_is_overloaded", "x") == "Selected model is at capacity. Please try a different model."
    assert failed_says("slow_down", "Slow down.") == "rate limit exceeded: Slow down."
    ending = codex_ending("ERROR: Selected model is at capacity. Please try a different model.")
    assert ending is not None and ending.kind == "server_overloaded"
    ending = codex_ending("ERROR: rate limit exceeded: Rate limit reached for requests. Please try again in 1s.")
    assert ending is not None and ending.kind == "stream_rate_limited"
    assert ending.message == "Rate limit reached for requests. Please try again in 1s."


@pytest.mark.parametrize(
    "line,code",
    [
        ("ERROR: Selected model is at capacity. Please try a different model.", "API029"),
        ("ERROR: rate limit exceeded: Rate limit reached for requests. Please try again in 1s.", "API030"),
        ("ERROR: Quota exceeded. Check your plan and billing details.", "API004"),
    ],
)
def test_diagnose_error_reads_codex_s_lines(home, line, code):
    report = run_diagnose(options(home, "http://127.0.0.1:9/v1"), line)[0]
    assert report.verdict is Verdict.CHANNEL and code in findings(report), report.findings


@pytest.mark.parametrize(
    "code,message,retried,wait",
    [
        ("rate_limit_exceeded", "Please try again in 2s.", True, 2.0),
        ("slow_down", "Please try again in 2s.", True, None),  # Codex reads the wait for rate_limit_exceeded only
        ("server_is_overloaded", "Please try again in 2s.", False, None),
        ("insufficient_quota", "Please try again in 2s.", False, None),
    ],
)
def test_which_in_stream_failures_are_waited_out(code, message, retried, wait):
    from codexdoctor.net.exchange import Exchange, StreamStats
    from codexdoctor.net.send import _try_again_in, is_transient, stream_rate_limited

    stats = StreamStats(terminal="response.failed", error={"code": code, "message": message})
    ex = Exchange("POST", "http://127.0.0.1:9/v1/responses", status=200, stream=stats)
    assert stream_rate_limited(ex) is retried and is_transient(ex) is retried
    assert _try_again_in(ex) == wait


@pytest.mark.simulator
def test_probe_retries_a_rate_limited_stream_as_check_does(home, sim_server):
    """Issue 40: probe's single question stopped at its first rate_limit_exceeded stream and called it a 429 that
    codexdoctor's time had run out on; it is the canary, re-sent as Codex re-sends it, and reads as check does."""
    from codexdoctor.checks.probe import ProbeSettings
    from codexdoctor.commands.probe import run_probe

    s = sim_server(
        api_key=KEY,
        stream_fault="response_failed",
        fault_code="rate_limit_exceeded",
        fault_message="Rate limit reached for requests. Please try again in 20ms.",
    )
    lines: list[str] = []
    report, _ = run_probe(options(home, s.base_url), ProbeSettings(budget=20000), lambda plan: True, lines.append)
    found = findings(report)
    assert report.verdict is Verdict.CHANNEL and "API030" in found and "API003" not in found, report.findings
    assert "all 6 attempts" in text(found["API030"])
    assert len([r for r in s.records if r.method == "POST" and r.path.endswith("/responses")]) == 6
    assert not any("429" in line for line in lines), lines  # no 429 was sent
    probe_facts = next(c for c in report.checks if c.id == "ctx.probe").facts
    assert probe_facts["requests"] == 6 and probe_facts["single_kinds"] == ["stream_rate_limited"]


@pytest.mark.parametrize(
    "limited,en,zh",
    [
        (1, "at the only attempt codexdoctor had time for;", "提供方在 codexdoctor 来得及做的唯一一次尝试中返回"),
        (3, "at each of the 3 attempts;", "提供方在 codexdoctor 来得及做的 3 次尝试中都返回"),
    ],
)
def test_a_rate_limit_cut_short_by_codexdoctors_time_counts_its_attempts(limited, en, zh):
    """Issue 40: "at each of 1 attempts" / "在 1 次尝试中都返回": one attempt is said as one."""
    from codexdoctor.checks.live.canary import _waiting_unproven

    said = _waiting_unproven({"rate_limited_attempts": limited, "codex_attempts": 6}, in_stream=True)
    assert en in str(said) and "a rate_limit_exceeded stream (response.failed)" in str(said)
    assert zh in said.text("zh") and "each of 1 " not in str(said)
