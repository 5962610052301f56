"""Each network fault against a real loopback server maps to a specific finding, within the deadline."""

import time
from pathlib import Path

import pytest

from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.model import Verdict
from tests.conftest import write_config
from tests.timing import assert_within

KEY = "sk-fault-0123456789abcdef"


def check(home, server, timeout=4.0, suffix="/v1", first_token_timeout=120.0):
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{server.url}{suffix}"\nenv_key = "SIM_API_KEY"\n',
    )
    started = time.perf_counter()
    report, _ = run_check(
        CheckOptions(
            env={"HOME": str(home), "SIM_API_KEY": KEY},
            home=home,
            cwd=Path.cwd(),
            system_config=None,
            codex_version=(0, 171, 0),
            timeout=timeout,
            first_token_timeout=first_token_timeout,
        )
    )
    return report, time.perf_counter() - started


def errors(report):
    return [f.code for f in report.findings if f.severity.value == "error"]


@pytest.mark.parametrize(
    "fault,code",
    [
        ("reset_mid_stream", "API008"),
        ("broken_sse", "API011"),
        ("error_event", "API008"),  # Codex ignores the error event and then meets the end of the stream
        ("gzip_garbage", "NET008"),
    ],
)
def test_stream_faults(home, sim_server, fault, code):
    s = sim_server(api_key=KEY, stream_fault=fault)
    report, elapsed = check(home, s)
    assert code in errors(report), report.findings
    assert report.verdict is Verdict.CHANNEL
    assert_within(elapsed, 4.0, f"check against {fault}")


def findings(report):
    return {f.code: f for f in report.findings}


# Every way a stream ends, as Codex 0.171 judges it (docs/codex-behaviour.md, "How a stream ends"): the sim's knobs,
# the verdict, the code and words of Codex's that the finding must hold.
ENDINGS = [
    (
        {"stream_fault": "incomplete", "incomplete_reason": "content_filter"},
        Verdict.CHANNEL,
        "API012",
        "content_filter",
    ),
    ({"stream_fault": "incomplete", "output_tokens": 8}, Verdict.CHANNEL, "API026", "after 8 output tokens"),
    ({"stream_fault": "error_then_completed"}, Verdict.OK, "API025", "Codex 0.171 ignores standalone error events"),
    # server_error's message is the one OpenAI sends with it (sim/errors.py STREAM_ERROR_MESSAGES)
    ({"stream_fault": "error_event"}, Verdict.CHANNEL, "API008", "An error occurred while processing your request"),
    (
        {"stream_fault": "error_event", "fault_code": "context_length_exceeded"},
        Verdict.CONTEXT,
        "CTX003",
        "stream closed before response.completed",
    ),
    (
        {"stream_fault": "response_failed", "fault_code": "context_length_exceeded"},
        Verdict.CONTEXT,
        "CTX003",
        "",
    ),
    ({"stream_fault": "response_failed", "fault_code": "insufficient_quota"}, Verdict.CHANNEL, "API004", "Quota"),
    (
        {"stream_fault": "response_failed", "fault_code": "usage_not_included"},
        Verdict.CHANNEL,
        "API027",
        "To use Codex with your ChatGPT plan",
    ),
    (
        {"stream_fault": "response_failed", "fault_code": "server_error"},
        Verdict.CHANNEL,
        "API007",
        "An error occurred while processing your request",
    ),
    ({"stream_fault": "no_terminal"}, Verdict.CHANNEL, "API008", "stream closed before response.completed"),
    ({"stream_fault": "done_only"}, Verdict.CHANNEL, "API018", ""),
    ({"stream_fault": "trailing_done"}, Verdict.OK, None, ""),
    # A provider that honours the canary's own 16-token cap (the sim's answer is 24 tokens): not a gateway's cap.
    ({"stream_fault": "incomplete"}, Verdict.OK, None, ""),
]


@pytest.mark.parametrize("knobs,verdict,code,words", ENDINGS, ids=lambda v: str(v) if not isinstance(v, dict) else "")
def test_every_stream_ending_is_judged_as_codex_judges_it(home, sim_server, knobs, verdict, code, words):
    report, _ = check(home, sim_server(api_key=KEY, **knobs))
    assert report.verdict is verdict, [(f.code, f.title) for f in report.findings]
    found = findings(report)
    if code is None:
        assert not errors(report) and not any(c.startswith("API0") for c in found), list(found)
        return
    assert code in found, list(found)
    f = found[code]
    assert words in f.title + f.diagnosis + " ".join(f.remedy) + " ".join(f.evidence), (f.diagnosis, f.evidence)


def test_one_byte_per_second_is_cut_at_the_deadline(home, sim_server):
    s = sim_server(api_key=KEY, stream_fault="drip")
    # The provider answered (it is alive), so the canary may wait past --timeout: --first-token-timeout bounds it.
    report, elapsed = check(home, s, timeout=1.0, first_token_timeout=1.0)
    assert errors(report) and report.verdict is Verdict.CHANNEL
    assert_within(elapsed, 1.0, "check against a drip")  # a whole answer at 1 byte/s takes minutes


def test_reset_during_headers(home, sim_server):
    s = sim_server(api_key=KEY, failure_rate=1.0, failure_kinds=("reset",))
    report, _ = check(home, s)
    assert "NET005" in errors(report)


def test_html_502_from_proxy(home, sim_server):
    s = sim_server(api_key=KEY, failure_rate=1.0, failure_kinds=("502",))
    report, _ = check(home, s)
    f = next(x for x in report.findings if x.code == "API005")
    assert "HTML" in f.diagnosis and "4 attempts" in f.diagnosis


def test_accepts_and_never_answers(home, sim_server):
    s = sim_server(hang=True, hang_seconds=30)
    report, elapsed = check(home, s, timeout=1.0)
    assert "NET004" in errors(report)
    assert_within(elapsed, 1.0, "check against a server that never answers")  # it would hold on for 30 s


# What users paste (issue 38 item 5), against the simulator's gateways: the sim's knobs, the verdict, the code and the
# words the finding must hold (docs/codex-behaviour.md, "What users paste").
PASTES = [
    ({"quota_exhausted": "newapi"}, Verdict.CHANNEL, "AUTH007", "Do not copy the key again"),
    ({"quota_exhausted": "openai"}, Verdict.CHANNEL, "API004", "exceeded your current quota"),
    ({"tpm_limit": 8000}, Verdict.CHANNEL, "API028", "limit is 8,000 tokens per minute"),
    ({"tpm_limit": 30000}, Verdict.OK, None, ""),
]


@pytest.mark.parametrize("knobs,verdict,code,words", PASTES, ids=lambda v: str(v) if not isinstance(v, dict) else "")
def test_a_quota_or_rate_limit_is_named_as_what_it_is(home, sim_server, knobs, verdict, code, words):
    report, _ = check(home, sim_server(api_key=KEY, **knobs))
    assert report.verdict is verdict, [(f.code, f.title) for f in report.findings]
    found = findings(report)
    if code is None:
        assert not errors(report), list(found)
        return
    assert code in found and "AUTH001" not in found, list(found)
    f = found[code]
    assert words in f.title + f.diagnosis + " ".join(f.remedy), f.diagnosis
    if code == "AUTH007":
        assert not any("Copy the key again" in step for step in f.remedy)
