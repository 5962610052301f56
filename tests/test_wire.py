"""The channel judged by Codex's clock and Codex's stream parser (issue 27), against the simulator on loopback.

Each case was first run against the real Codex 0.171.0 (scripts/crosscheck_wire.py; docs/codex-behaviour.md has its
own last line): the verdict here is what Codex then does.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.model import Verdict
from tests.conftest import write_config

KEY = "sk-wire-0123456789abcdef"


def check(home, server, extra="", top="", timeout=2.0, first_token_timeout=30.0, progress=None):
    write_config(home, f'{top}model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
                       f'base_url = "{server.base_url}"\nenv_key = "SIM_API_KEY"\n{extra}')
    started = time.perf_counter()
    opts = CheckOptions(env={"HOME": str(home), "SIM_API_KEY": KEY}, home=home, cwd=Path.cwd(), system_config=None,
                        codex_version=(0, 171, 0), timeout=timeout, first_token_timeout=first_token_timeout,
                        extra={"progress": progress} if progress else {})
    report, _ = run_check(opts)
    return report, time.perf_counter() - started


def codes(report, severity=None):
    return [f.code for f in report.findings if severity is None or f.severity.value == severity]


def canary(report):
    return next(c for c in report.checks if c.id == "api.canary")


# ---- Codex's clock -------------------------------------------------------------------------------------------

def test_a_slow_but_alive_provider_is_ok_with_its_first_token_time(home, sim_server):
    """llama-server on a CPU: 10-25 s before the headers of Codex's first request. Codex waits; so does the check,
    past --timeout, because /models answered at once."""
    s = sim_server(api_key=KEY, latency_ms=3000)
    lines: list[str] = []
    report, elapsed = check(home, s, timeout=1.0, progress=lines.append)
    assert report.verdict is Verdict.OK, report.findings
    assert codes(report, "error") == codes(report, "warning") == [] and "NET009" in codes(report, "info")
    finding = next(f for f in report.findings if f.code == "NET009")
    assert "after 3." in finding.diagnosis and "--timeout of 1 s" in finding.diagnosis
    assert canary(report).facts["ttft_ms"] >= 3000 and elapsed < 6
    assert any("the provider is alive (GET /v1/models answered 200" in line for line in lines)


def test_a_provider_that_never_answers_still_fails_at_the_deadline(home, sim_server):
    s = sim_server(api_key=KEY, hang=True, hang_seconds=20)
    report, elapsed = check(home, s, timeout=1.0)
    assert "NET004" in codes(report, "error") and elapsed < 2.5
    assert "nothing else from this host answered either" in canary(report).summary


def test_the_first_token_timeout_bounds_an_alive_provider(home, sim_server):
    s = sim_server(api_key=KEY, latency_ms=8000)
    report, elapsed = check(home, s, timeout=1.0, first_token_timeout=2.0)
    assert "NET004" in codes(report, "error") and elapsed < 4
    net004 = next(f for f in report.findings if f.code == "NET004")
    assert any("--first-token-timeout 300" in step for step in net004.remedy)


def test_headers_wait_is_not_the_idle_limit(home, sim_server):
    """Codex's stream_idle_timeout_ms starts counting at the headers: 1.5 s before them passes a 0.5 s limit."""
    s = sim_server(api_key=KEY, latency_ms=1500)
    report, _ = check(home, s, extra="stream_idle_timeout_ms = 500\n", timeout=3.0)
    assert report.verdict is Verdict.OK, report.findings


def test_silence_after_the_headers_is_the_idle_limit(home, sim_server):
    s = sim_server(api_key=KEY, stall_after_tokens=0, stall_seconds=2.0)
    report, _ = check(home, s, extra="stream_idle_timeout_ms = 500\n", timeout=3.0)
    assert "API009" in codes(report, "error")


def test_keep_alive_comments_do_not_reset_the_idle_limit():
    from codexdoctor.net.transport import Deadline, parse_sse

    now = [0.0]

    def lines():
        yield "event: response.created"
        yield 'data: {"type": "response.created"}'
        yield ""
        for _ in range(10):
            now[0] += 0.3
            yield ": keep-alive"

    stats = parse_sse(lines(), 0.0, lambda: now[0], 1.0, Deadline(30), headers_at=0.0)
    assert stats.cut == "idle" and stats.events == 1


# ---- Codex's stream parser -------------------------------------------------------------------------------------

@pytest.mark.parametrize("fault, words", [("json_body", "plain JSON body"), ("chat_chunks", "Chat Completions chunks")])
def test_answers_codex_cannot_read_are_channel_failures(home, sim_server, fault, words):
    s = sim_server(api_key=KEY, stream_fault=fault)
    report, _ = check(home, s)
    assert codes(report, "error") == ["API018"] and report.verdict is Verdict.CHANNEL
    finding = report.findings[0]
    assert words in finding.diagnosis and "stream closed before response.completed" in finding.diagnosis


# ---- rate limits as Codex retries them -----------------------------------------------------------------------

def test_a_429_that_outlasts_codexs_retries_is_an_error(home, sim_server):
    s = sim_server(api_key=KEY, rate_limited_posts=10_000, retry_after_s=0.2)
    report, _ = check(home, s, timeout=5.0)
    assert "API019" in codes(report, "error") and report.verdict is Verdict.CHANNEL
    assert canary(report).facts["rate_limited_attempts"] == 6  # 1 + stream_max_retries (5), as Codex 0.171 sends
    gaps = [b.at - a.at for a, b in zip([r for r in s.records if r.method == "POST"][:-1],
                                        [r for r in s.records if r.method == "POST"][1:])]
    assert all(g >= 0.18 for g in gaps[:5])  # each retry after Retry-After


def test_stream_max_retries_zero_means_one_request(home, sim_server):
    s = sim_server(api_key=KEY, rate_limited_posts=10_000, retry_after_s=5)
    report, elapsed = check(home, s, extra="stream_max_retries = 0\n", timeout=5.0)
    assert "API019" in codes(report, "error") and canary(report).facts["rate_limited_attempts"] == 1 and elapsed < 3


def test_a_429_that_lifts_is_waited_out(home, sim_server):
    s = sim_server(api_key=KEY, rate_limited_posts=1, retry_after_s=0.3)
    report, _ = check(home, s)
    assert report.verdict is Verdict.OK and "API019" not in codes(report)


def test_a_429_codexdoctor_cannot_wait_out_is_inconclusive(home, sim_server):
    s = sim_server(api_key=KEY, rate_limited_posts=10_000, retry_after_s=1.5)
    report, _ = check(home, s, timeout=1.0, first_token_timeout=2.0)
    assert report.verdict is Verdict.INCONCLUSIVE and "API003" in codes(report)
    assert "whether the limit lifts in time is unproven" in report.verdict_reason


# ---- size: bytes on the way, tokens in the config -------------------------------------------------------------

def test_a_413_from_a_proxy_is_a_body_limit_with_the_size(home, sim_server):
    s = sim_server(api_key=KEY, max_body_bytes=20_000)
    report, _ = check(home, s)
    assert codes(report, "error") == ["API020"]
    size = canary(report).facts["request_bytes"]
    assert size > 20_000 and f"{size:,} bytes" in report.findings[0].diagnosis


def test_instructions_replace_codexs_own_in_the_canary(home, sim_server):
    s = sim_server(api_key=KEY, context_window=12000)
    long = "Always answer in English. " * 1700
    report, _ = check(home, s, top=f'instructions = """{long}"""\n')
    assert "CTX024" in codes(report, "error") and report.verdict is Verdict.CONTEXT
    finding = next(f for f in report.findings if f.code == "CTX024")
    assert "`instructions` in ~/.codex/config.toml puts" in " ".join(finding.remedy)
    short, _ = check(home, s, top='instructions = "Be brief."\n')
    assert short.verdict is Verdict.OK  # the built-in 17 KB of instructions are gone: the request got smaller


def test_instructions_build_the_first_developer_item():
    from codexdoctor.codex import request as codexrequest
    from codexdoctor.codex.config import resolve

    home = Path("/nonexistent-home")
    r = resolve({"HOME": str(home)}, home, Path.cwd(), ("instructions=\"Be brief.\"",), None, None, None, (0, 171, 0))
    body = codexrequest.build(r, "m", "say hi", count=len).body
    assert body["input"][0]["content"][0]["text"] == "Be brief."
    assert "instructions" not in body  # Codex 0.171 sends them as the first developer item, not as a field


def test_a_window_below_the_first_request_costs_a_compaction_every_turn(home, sim_server):
    s = sim_server(api_key=KEY)
    report, _ = check(home, s, top="model_context_window = 4000\n")
    assert report.verdict is Verdict.OK and "CTX027" in codes(report, "warning")
    assert "compacts before every later turn" in next(f for f in report.findings if f.code == "CTX027").diagnosis
