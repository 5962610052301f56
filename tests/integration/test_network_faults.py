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
        ("error_event", "API007"),
        ("gzip_garbage", "NET008"),
    ],
)
def test_stream_faults(home, sim_server, fault, code):
    s = sim_server(api_key=KEY, stream_fault=fault)
    report, elapsed = check(home, s)
    assert code in errors(report), report.findings
    assert report.verdict is Verdict.CHANNEL
    assert_within(elapsed, 4.0, f"check against {fault}")


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
