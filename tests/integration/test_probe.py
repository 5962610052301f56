"""`codexdoctor probe` against the simulator: stable windows, flaky channels, stages, truncation, budget."""

import re
from pathlib import Path

import pytest

from codexdoctor.checks.probe import ProbeSettings, estimate, schedule
from codexdoctor.commands.options import CheckOptions
from codexdoctor.commands.probe import ProbeRefused, run_probe
from codexdoctor.model import Verdict
from tests.conftest import write_config
from tests.timing import assert_within

KEY = "sk-sim-probe-0123456789ab"


def configure(home, server, extra=""):
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{server.base_url}"\nenv_key = "SIM_API_KEY"\n{extra}',
    )


def probe(home, settings, confirm=lambda plan: True, env=None):
    lines = []
    opts = CheckOptions(
        env={"HOME": str(home), "SIM_API_KEY": KEY, **(env or {})},
        home=home,
        cwd=Path.cwd(),
        system_config=None,
        codex_version=(0, 171, 0),
    )
    report, _ = run_probe(opts, settings, confirm, lines.append)
    return report, lines


def facts(report):
    return next(c for c in report.checks if c.id == "ctx.probe").facts


def codes(report):
    return {f.code for f in report.findings}


def sent_tokens(server):
    return sum(r.input_tokens or 0 for r in server.records)


def test_stable_8k_window_is_context(home, sim_server):
    s = sim_server(api_key=KEY, context_window=8192, token_interval_ms=0)
    configure(home, s)
    report, lines = probe(home, ProbeSettings(max_context=20000))
    f = facts(report)
    assert report.verdict is Verdict.CONTEXT and "CTX006" in codes(report)
    assert f["stable"] is True
    assert abs(f["last_ok"] - 8192) / 8192 <= 0.02 and f["first_fail"] > 8192
    ctx006 = next(x for x in report.findings if x.code == "CTX006")
    # The measured window, through the one function every command uses (issue 28), and labelled as measured.
    from codexdoctor.codex.sizes import window_settings

    # 8,192 tokens cannot hold Codex's first request: the one conclusion every command gives, no window lines
    # below what Codex needs (issue 40)
    assert "no setting makes Codex work with it" in ctx006.remedy[0] and "model_context_window" not in ctx006.remedy[0]
    assert f["suggest_from"] == "measured" and f["suggest_window"] == window_settings(f["usable"])[0]
    assert lines[0].startswith("Probe budget: 300,000 input tokens")  # at once, before the lookups (issue 40)
    assert lines[1].startswith("Probe plan: at most")  # announced before anything was sent
    assert f["spent"] == sent_tokens(s)  # our count is what the provider counted


def test_flaky_channel_is_unstable(home, sim_server):
    s = sim_server(api_key=KEY, failure_rate=0.3, failure_kinds=("502", "reset"), failure_seed=5, token_interval_ms=0)
    configure(home, s)
    report, _ = probe(home, ProbeSettings(max_context=16000))
    assert report.verdict is Verdict.CHANNEL
    assert codes(report) & {"CTX007", "CTX011"}
    assert facts(report)["stable"] is not True


def test_wrong_key_single_fails_with_auth_code(home, sim_server):
    s = sim_server(api_key=KEY)
    configure(home, s)
    report, _ = probe(home, ProbeSettings(max_context=16000), env={"SIM_API_KEY": "sk-wrong-000000000000"})
    assert report.verdict is Verdict.CHANNEL and "AUTH001" in codes(report)
    assert all(r.input_tokens is None for r in s.records)  # no session was grown after the single question failed
    assert facts(report)["singles_ok"] == 0


def test_rising_latency_is_stage_1(home, sim_server):
    s = sim_server(api_key=KEY, latency_per_1k_ms=50, token_interval_ms=0)
    configure(home, s)
    report, _ = probe(home, ProbeSettings(max_context=16000))
    f = facts(report)
    assert "CTX004" in codes(report) and f["stage1"] and f["slope_ms_per_1k"] > 30
    assert f["no_break"] and "CTX009" in codes(report)


def test_stalls_are_stage_2(home, sim_server):
    s = sim_server(api_key=KEY, stall_after_tokens=2, stall_seconds=0.35, token_interval_ms=0)
    configure(home, s)
    report, _ = probe(home, ProbeSettings(max_context=2048, stall_threshold_s=0.3, singles=1))
    f = facts(report)
    assert "CTX005" in codes(report) and f["stall_count"] >= 2 and f["longest_stall_ms"] >= 300


def test_ollama_silent_truncation_is_detected(home, sim_server):
    s = sim_server(api_key=KEY, context_window=8192, error_style="ollama", token_interval_ms=0)
    configure(home, s)
    report, _ = probe(home, ProbeSettings(max_context=20000))
    f = facts(report)
    assert "CTX008" in codes(report) and f["truncated"] and f["reported_at_truncation"] == 8192
    assert report.verdict is Verdict.CONTEXT


def test_budget_refusal_sends_nothing(home, sim_server):
    s = sim_server(api_key=KEY)
    configure(home, s)
    with pytest.raises(ProbeRefused):
        probe(home, ProbeSettings(max_context=200_000, budget=50_000), confirm=lambda plan: False)
    assert s.records == []


def test_budget_stops_mid_run_and_is_never_exceeded(home, sim_server):
    s = sim_server(api_key=KEY, context_window=8192, token_interval_ms=0)
    configure(home, s)
    report, lines = probe(home, ProbeSettings(max_context=20000, budget=20_000))
    f = facts(report)
    assert f["stopped"] == "budget" and f["spent"] <= 20_000 and sent_tokens(s) <= 20_000
    assert report.verdict is Verdict.INCONCLUSIVE and "CTX010" in codes(report)
    assert "works up to" in next(x for x in report.findings if x.code == "CTX010").diagnosis


def test_cli_refuses_without_terminal_and_yes(home, sim_server, run, monkeypatch):
    s = sim_server(api_key=KEY)
    configure(home, s)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    code, out, err = run("probe", "--max-context", "300000", "--codex-version", "0.171.0")
    assert code == 2 and "--yes" in err and "Probe plan:" in err
    assert s.records == []


def test_cli_probe_json(home, sim_server, run, monkeypatch):
    import json

    s = sim_server(api_key=KEY, context_window=4096, token_interval_ms=0)
    configure(home, s)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    code, out, err = run("probe", "--max-context", "8000", "--format", "json", "-q", "--codex-version", "0.171.0")
    data = json.loads(out)
    assert code == 1 and data["verdict"] == "context" and err == ""
    steps = next(x for x in data["sections"] if x["id"] == "probe.steps")
    assert steps["rows"] and steps["chart"]
    assert KEY not in out


def test_schedule_and_estimate():
    assert schedule(1024, 10000) == [1024, 2048, 4096, 8192, 10000]
    requests, tokens = estimate(ProbeSettings(repeat=3), 10000, 20)
    assert requests >= 3 + 5 + 6 and tokens > sum([1024, 2048, 4096, 8192, 10000])


def test_static_problems_stop_the_probe_before_spending(home, sim_server):
    s = sim_server(api_key=KEY)
    configure(home, s)
    report, _ = probe(home, ProbeSettings(max_context=4096), env={"SIM_API_KEY": ""})
    assert "ENV002" in codes(report) and s.records == []


def cache_probe(home, sim_server, **sim_options):
    s = sim_server(api_key=KEY, token_interval_ms=0, latency_per_1k_ms=40, **sim_options)
    configure(home, s)
    report, _ = probe(home, ProbeSettings(max_context=4096, repeat=1))
    return report, facts(report)


def test_prefix_cache_works(home, sim_server):
    report, f = cache_probe(home, sim_server, prefix_cache=True)
    runs = f["cache"]["runs"]
    assert f["cache_verdict"] == "works"
    assert runs["repeat"]["cached"] >= 0.5 * runs["repeat"]["sent"] and runs["changed_start"]["cached"] < 256
    assert runs["repeat"]["ttft_ms"] < runs["first"]["ttft_ms"]  # a hit is faster, by construction of the simulator
    assert not codes(report) & {"CTX022", "CTX023"}


def test_prefix_cache_not_working_with_server_specific_fix(home, sim_server):
    report, f = cache_probe(home, sim_server, prefix_cache=False, error_style="vllm")
    assert f["cache_verdict"] == "not working" and f["family"] == "vllm"
    ctx022 = next(x for x in report.findings if x.code == "CTX022")
    assert "--enable-prefix-caching" in ctx022.remedy[1]


def test_prefix_cache_not_reported(home, sim_server):
    report, f = cache_probe(home, sim_server, prefix_cache=True, report_cached_tokens=False)
    assert f["cache_verdict"] == "not reported" and "CTX023" in codes(report)


def test_same_origin_redirect_resends_count_and_never_pass_the_budget(home, sim_server):
    """Every hop of a same-origin redirect sends the whole body again: it is counted, and refused past --budget."""
    s = sim_server(api_key=KEY)
    s.reconfigure(redirect_to=s.url + "/loop")  # every request answers 307 to the same origin, again and again
    configure(home, s)
    report, _ = probe(home, ProbeSettings(max_context=20000, budget=50_000, repeat=1))
    f = facts(report)
    posts = len([r for r in s.records if r.method == "POST"])
    per_request = f["spent"] / posts
    assert posts >= 2 and per_request == int(per_request)  # every POST on the wire was paid for, in whole bodies
    tight, _ = probe(home, ProbeSettings(max_context=20000, budget=int(per_request * 1.5), repeat=1))
    tight_posts = len([r for r in s.records if r.method == "POST"]) - posts
    assert tight_posts == 1 and facts(tight)["spent"] <= int(per_request * 1.5)  # the resend would pass the budget


def test_published_window_plans_within_the_default_budget(home, sim_server, run, monkeypatch):
    """A 32K window the provider publishes: with no --max-context and no --yes the plan fits 300,000 tokens, the
    break is found where the provider says, and nothing is spent past the budget."""
    s = sim_server(api_key=KEY, context_window=32768, publish_window=True, token_interval_ms=0)
    configure(home, s)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    code, out, err = run("probe", "--codex-version", "0.171.0")
    assert code == 1, err
    err = " ".join(err.split())  # fitted to 100 columns in a pipe (issue 29): read as prose
    assert "publishes a 32,768-token window" in err and "field max_model_len" in err
    planned = int(err.split("about ")[1].split(" input tokens")[0].replace(",", ""))
    assert planned <= 300_000 and sent_tokens(s) <= planned
    assert "CTX006" in out and "32,853" in out and "32,454" in out  # turns carry a tool round (issue 31)


def test_cache_step_is_sized_to_the_window_or_skipped(home, sim_server):
    s = sim_server(api_key=KEY, context_window=8192, publish_window=True, prefix_cache=True, token_interval_ms=0)
    configure(home, s)
    report, _ = probe(home, ProbeSettings())
    cache_steps = [r for r in report.sections[0].rows if r[1] == "prefix cache"]
    assert len(cache_steps) == 3 and all(int(r[2].replace(",", "")) <= 8192 // 4 + 64 for r in cache_steps)
    s2 = sim_server(api_key=KEY, context_window=2048, publish_window=True, token_interval_ms=0)
    configure(home, s2)
    report, _ = probe(home, ProbeSettings())
    assert not [r for r in report.sections[0].rows if r[1] == "prefix cache"]  # 512 tokens would prove nothing


def test_ctrl_c_prints_the_partial_result_and_exits_130(home, sim_server, run, monkeypatch):
    from codexdoctor.checks import probe as probe_mod

    s = sim_server(api_key=KEY, context_window=8192, token_interval_ms=0)
    configure(home, s)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    real = probe_mod.Probe.request
    calls = []

    def interrupted_on_the_sixth(self, *args, **kwargs):
        calls.append(args[0])
        if len(calls) == 6:
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)

    monkeypatch.setattr(probe_mod.Probe, "request", interrupted_on_the_sixth)
    code, out, err = run("probe", "--max-context", "20000", "--no-cache-step", "-q", "--codex-version", "0.171.0")
    assert code == 130
    flat = " ".join(out.split())  # a pipe gets the 100-column layout (issue 29): read it as prose
    assert "Stopped by Ctrl-C after 5 requests" in flat and "works up to 1,936 tokens" in flat  # 1K and 2K answered
    assert "let it finish" in out and "Turns per session" not in out  # no advice drawn from a partial run
    assert "Session probe steps" in out and len([r for r in s.records if r.method == "POST"]) == 5


def test_falling_latency_is_never_growth():
    from codexdoctor.checks.probe import ProbeOutcome, Step, analyse

    def step(phase, sent, ttft):
        return Step(phase, sent, sent, True, "ok", "", 200, ttft, ttft + 5, 1.0, sent, "")

    # one slow request at the largest size after a falling trend: the ratio is high, the trend is not
    steps = (
        step("single", 20, 100.0),
        step("grow", 1024, 2000.0),
        step("grow", 2048, 900.0),
        step("grow", 4096, 500.0),
        step("grow", 8192, 450.0),
        step("grow", 16384, 400.0),
    )
    outcome = ProbeOutcome(steps, None, 16384, None, None, None, 0, 0, 0, 16384, "o200k_base", True)
    f = analyse(outcome, ProbeSettings())
    assert f["slope_ms_per_1k"] < 0 and f["stage1"] is False


def test_a_published_window_that_is_wrong_is_searched_below(home, sim_server):
    """The provider says 32K but serves 8K: half the published size fails, and the probe searches below it."""
    from codexdoctor.checks.probe import Probe, analyse
    from codexdoctor.commands.options import make_context
    from codexdoctor.common import tokens

    s = sim_server(api_key=KEY, context_window=8192, token_interval_ms=0)
    configure(home, s)
    opts = CheckOptions(
        env={"HOME": str(home), "SIM_API_KEY": KEY},
        home=home,
        cwd=Path.cwd(),
        system_config=None,
        codex_version=(0, 171, 0),
    )
    probe_run = Probe(
        make_context(opts), ProbeSettings(cache_step=False), tokens.for_model("sim-model"), published=32768
    )
    try:
        outcome = probe_run.run()
    finally:
        probe_run.client.close()
    f = analyse(outcome, ProbeSettings())
    assert f["stable"] is True and abs(f["last_ok"] - 8192) / 8192 <= 0.03 and f["first_fail"] > 8192


def test_timeout_covers_the_whole_command(home, sim_server, run, monkeypatch):
    """issue 26 (7): the window and server lookups before the probe run on the same clock as the probe."""
    import time

    s = sim_server(api_key=KEY, hang=True, hang_seconds=30)
    configure(home, s)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    started = time.monotonic()
    code, out, err = run("probe", "--request-timeout", "2", "--timeout", "3", "--yes", "--codex-version", "0.171.0")
    elapsed = time.monotonic() - started
    assert_within(elapsed, 3, "probe --timeout 3")  # the server would hold on for 30 s
    assert code in (0, 1) and "internal error" not in err


def test_a_session_that_fails_on_tool_items_is_the_channel_not_a_window(home, sim_server):
    """The probe's turns carry a tool call and its output as Codex's do (issue 31): a gateway that refuses
    function_call_output fails the growing session at its smallest size while single questions pass. That is a
    fault on an item kind at any size (channel), not a break at a stable size (context)."""
    s = sim_server(api_key=KEY, turn_two_fault="reject_fco", token_interval_ms=0)
    configure(home, s)
    report, _ = probe(home, ProbeSettings(max_context=8000, cache_step=False))
    f = facts(report)
    assert report.verdict is Verdict.CHANNEL and "API023" in codes(report), report.findings
    assert f["item_fault"]["item"] == "function_call_output" and f["stable"] is None
    assert not {"CTX006", "CTX007"} & codes(report)


def test_the_probe_session_is_codex_shaped():
    from codexdoctor.checks.filler import Conversation
    from codexdoctor.common import tokens

    items, sent = Conversation(tokens.load("o200k_base")).build(3000)
    kinds = [i.get("type") for i in items]
    assert "function_call" in kinds and "function_call_output" in kinds
    outputs = [i["output"] for i in items if i.get("type") == "function_call_output"]
    assert outputs[0].startswith("Chunk ID: ") and "\nOutput:\n" in outputs[0]
    calls = [i for i in items if i.get("type") == "function_call"]
    assert all(
        c["call_id"] == o["call_id"]
        for c, o in zip(calls, [i for i in items if i.get("type") == "function_call_output"])
    )


def test_the_providers_count_decides_the_usable_window(home, sim_server):
    """A provider whose tokenizer counts 5% fewer tokens than o200k: its window (8,192 in its own count) is what
    Codex's token_count and model_context_window are measured in, so the probe reports that (issue 31)."""
    s = sim_server(api_key=KEY, context_window=8192, usage_scale=0.95, token_interval_ms=0)
    configure(home, s)
    report, _ = probe(home, ProbeSettings(max_context=20000, cache_step=False))
    f = facts(report)
    assert f["usable_counted_by"] == "provider"
    assert f["last_ok"] > 8300  # o200k's count of the largest request that worked
    assert abs(f["usable"] - 8192) / 8192 <= 0.02, f["usable"]


def test_no_break_within_the_budget_is_inconclusive_with_the_command_to_go_further(home, sim_server):
    """Issue 28: with no published window the probe stops where its budget ends; "no break up to N" is not OK."""
    s = sim_server(api_key=KEY, token_interval_ms=0)
    configure(home, s)
    report, _ = probe(home, ProbeSettings(budget=60000, cache_step=False))
    f = facts(report)
    assert f["no_break"] and report.verdict is Verdict.INCONCLUSIVE, report.verdict_reason
    assert "range ended" in report.verdict_reason
    ctx009 = next(x for x in report.findings if x.code == "CTX009")
    cmd = next(line for step in ctx009.remedy for line in step.splitlines() if line.startswith("codexdoctor probe"))
    # twice the range, and at least twice Codex's first request (review 1, point 32), in thousands
    further = max(f["max_context"] * 2, -(-2 * f["first_request"] // 1000) * 1000)
    assert f"--max-context {further}" in cmd and "--budget" in cmd
    assert next(c for c in report.checks if c.id == "ctx.probe").status.value == "warn"


def test_a_published_window_that_holds_is_not_inconclusive():
    """Past the published window with no break: the provider's number holds, and that is an answer."""
    from codexdoctor.checks.probe import ProbeOutcome, Step, analyse

    def step(phase, sent):
        return Step(phase, sent, sent, True, "ok", "", 200, 5.0, 9.0, None, sent, "POST … 200")

    steps = (
        step("single", 40),
        step("single", 40),
        step("single", 40),
        step("grow", 8192),
        step("grow", 16100),
        step("grow", 16700),
    )
    settings = ProbeSettings(cache_step=False)
    past = analyse(
        ProbeOutcome(steps, None, 16700, None, None, None, 41000, 41000, 6, 16700, "o200k", True, published=16384),
        settings,
    )
    short = analyse(ProbeOutcome(steps, None, 16700, None, None, None, 41000, 41000, 6, 16700, "o200k", True), settings)
    assert past["no_break"] and "inconclusive_reason" not in past and "further_cmd" not in past
    assert "inconclusive_reason" in short and "--max-context 33400" in short["further_cmd"]


def test_a_located_break_is_not_also_stopped_before_locating_it(home, sim_server):
    """Issue 28: one report held CTX006 ("the same result every time") and CTX010 ("stopped before locating the
    break"). A break confirmed on both sides is located, whatever stopped the probe after it."""
    s = sim_server(api_key=KEY, context_window=8192, token_interval_ms=0)
    configure(home, s)
    report, _ = probe(home, ProbeSettings(max_context=40000))
    f = facts(report)
    assert "CTX006" in codes(report) and f["stable"] is True
    assert not {"CTX006", "CTX010"} <= codes(report)
    # the rule itself: stopped after the break was confirmed on both sides
    from codexdoctor.model import CheckResult, Status
    from codexdoctor.rules import evaluate

    stopped = CheckResult("ctx.probe", "Session probe", Status.FAIL, "x", {**f, "stopped": "budget"})
    assert "CTX010" not in {x.code for x in evaluate([stopped])}


def test_channel_failures_above_the_break_are_channel_evidence(home, sim_server):
    """Issue 28: 502s and resets above the break were counted as "the same result" and called stable."""
    from codexdoctor.checks.probe import CONTEXT_KINDS

    for seed in range(1, 40):
        s = sim_server(
            api_key=KEY,
            context_window=8192,
            token_interval_ms=0,
            failure_rate=0.35,
            failure_kinds=("502", "reset"),
            failure_seed=seed,
        )
        configure(home, s)
        report, _ = probe(home, ProbeSettings(max_context=20000, cache_step=False))
        f = facts(report)
        if f["singles_ok"] == f["singles"] and f["channel_above"]:
            break
    else:
        pytest.fail("no seed gave channel failures above the break with healthy single questions")
    assert "CTX030" in codes(report)
    ctx030 = next(x for x in report.findings if x.code == "CTX030")
    assert "server_error" not in ctx030.diagnosis and (
        "server error (5xx)" in ctx030.diagnosis or "connection reset" in ctx030.diagnosis
    )
    if "CTX006" in codes(report):  # a stable claim rests on context errors only
        assert all(k in CONTEXT_KINDS for k in f["context_kinds"])
        ctx006 = next(x for x in report.findings if x.code == "CTX006")
        assert "reset" not in ctx006.diagnosis and "5xx" not in ctx006.diagnosis


def test_a_hanging_provider_gets_a_line_every_few_seconds(home, sim_server, monkeypatch):
    """Issue 29: in a pipe, a hanging provider left the probe silent for 30 s per request."""
    from codexdoctor.checks.probe import search

    monkeypatch.setattr(search, "STILL_WAITING_EVERY", 0.2)
    s = sim_server(api_key=KEY, hang=True, hang_seconds=2.0)
    configure(home, s)
    report, lines = probe(
        home, ProbeSettings(max_context=4000, request_timeout_s=1.5, total_timeout_s=10.0, singles=1, cache_step=False)
    )
    waiting = [line for line in lines if "still waiting" in line]
    steps = next(c for c in report.checks if c.id == "ctx.probe")
    assert len(waiting) >= 2, (lines, steps.evidence)
    assert waiting[0].startswith("  … step 1")


def test_chinese_progress_columns_line_up(home, sim_server):
    """Issue 29: the zh progress lines padded by characters, so columns drifted; they are padded by cells now."""
    from codexdoctor.report.render.text import display_width

    s = sim_server(api_key=KEY, context_window=8192, token_interval_ms=0)
    configure(home, s)
    opts = CheckOptions(
        env={"HOME": str(home), "SIM_API_KEY": KEY},
        home=home,
        cwd=Path.cwd(),
        system_config=None,
        codex_version=(0, 171, 0),
        lang="zh",
    )
    lines: list[str] = []
    run_probe(opts, ProbeSettings(max_context=4000, cache_step=False, repeat=1), lambda plan: True, lines.append)
    # issue 40 review: rows under one header (checks/probe/progress.py); tests/integration/test_probe_progress.py
    steps = [line for line in lines if re.match(r"  \S.* +[\d,]+ +\d+ ms +[\d,]+  ", line)]
    starts = {display_width(line[: re.search(r"([\d,]+) +\d+ ms", line).end(1)], "zh") for line in steps}
    firsts = {display_width(line[: line.index(" ms ") + 3], "zh") for line in steps}
    assert len(steps) >= 3 and len(starts) == 1 and len(firsts) == 1, steps


@pytest.mark.simulator
@pytest.mark.parametrize("tty,answer,spent", [(True, False, False), (True, True, True), (False, False, True)])
def test_a_terminal_is_asked_before_the_probe_spends_tokens(home, sim_server, run, monkeypatch, tty, answer, spent):
    """Issue 40: on a terminal the probe started spending its plan without asking; it asks as `fix` does, and never
    asks without a terminal (CI runs it as it did)."""
    import sys

    import click

    s = sim_server(api_key=KEY, context_window=8192, token_interval_ms=0)
    configure(home, s)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    asked: list[str] = []

    def confirm(text, default=True, err=False):
        asked.append(text)
        return answer

    monkeypatch.setattr(sys.stdin, "isatty", lambda: tty, raising=False)
    monkeypatch.setattr(click, "confirm", confirm)
    code, out, err = run("probe", "--max-context", "12000", "--codex-version", "0.171.0")
    posts = [r for r in s.records if r.method == "POST"]
    assert bool(asked) is tty
    assert bool(posts) is spent, (code, err)
    if not spent:
        assert code == 2 and "no tokens spent" in err


def probe_in(home, settings, lang, progress, env=None):
    opts = CheckOptions(
        env={"HOME": str(home), "SIM_API_KEY": KEY, **(env or {})},
        home=home,
        cwd=Path.cwd(),
        system_config=None,
        codex_version=(0, 171, 0),
        lang=lang,
    )
    return run_probe(opts, settings, lambda plan: True, progress)[0]


@pytest.mark.parametrize(
    "lang,said", [("en", "Probe budget: 300,000 input tokens"), ("zh", "探测预算：300,000 个输入 token")]
)
def test_the_budget_line_comes_before_any_lookup(home, sim_server, lang, said):
    """Issue 40: nothing was printed for the first second (the window lookup and the tokenizer came first)."""
    s = sim_server(api_key=KEY, context_window=8192, publish_window=True, token_interval_ms=0)
    configure(home, s)
    seen: list[tuple[str, int]] = []
    probe_in(home, ProbeSettings(cache_step=False, repeat=1), lang, lambda line: seen.append((line, len(s.records))))
    first, records = seen[0]
    assert first.startswith(said) and records == 0, seen[:2]  # not even the window's GETs had gone out
    assert "--budget" in first


def interrupt_on(monkeypatch, nth):
    """A Ctrl-C while the nth probe request is on the wire (after it was sent and counted)."""
    from codexdoctor.checks.probe import search

    real = search.Probe._send
    calls: list[int] = []

    def send(self, items, sent):
        calls.append(sent)
        if len(calls) == nth:
            real(self, items, sent)  # on the wire: the provider saw it
            raise KeyboardInterrupt
        return real(self, items, sent)

    monkeypatch.setattr(search.Probe, "_send", send)


@pytest.mark.parametrize(
    "lang,said",
    [
        ("en", "Ctrl-C: the probe stopped after 3 requests; 57 input tokens spent so far."),
        ("zh", "Ctrl-C：探测已停止；已发送 3 个请求，共消耗 57 个输入 token。"),
    ],
)
def test_ctrl_c_says_at_once_what_was_spent(home, sim_server, monkeypatch, lang, said):
    """Issue 40: after Ctrl-C the probe said nothing of the tokens it had spent; the request cut short counts (it was
    sent), in the line, the note and the finding alike. The single questions that were answered settle URL003."""
    s = sim_server(api_key=KEY, context_window=8192, token_interval_ms=0)
    configure(home, s)
    interrupt_on(monkeypatch, 3)
    lines: list[str] = []
    report = probe_in(home, ProbeSettings(max_context=8000, cache_step=False), lang, lines.append)
    assert any(line.startswith(said) for line in lines), lines
    assert sent_tokens(s) == 57 and facts(report)["spent"] == 57 and facts(report)["requests"] == 3
    note = " ".join(str(n) for n in report.notes)
    assert ("in 3 requests" in note) if lang == "en" else ("3 次请求共消耗 57" in note), report.notes
    assert "URL003" not in codes(report) and any(c.id == "api.canary" for c in report.checks)


@pytest.mark.parametrize("lang,said", [("en", "Ctrl-C: no tokens were spent."), ("zh", "Ctrl-C：没有花费任何 token。")])
def test_ctrl_c_before_the_first_request_says_nothing_was_spent(home, sim_server, monkeypatch, lang, said):
    from codexdoctor.checks import live

    s = sim_server(api_key=KEY, context_window=8192, token_interval_ms=0)
    configure(home, s)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(live, "published_window", interrupted)
    lines: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        probe_in(home, ProbeSettings(cache_step=False), lang, lines.append)
    assert lines[-1] == said and not [r for r in s.records if r.method == "POST"]


@pytest.mark.parametrize("lang,said", [("en", "No request was sent in this run"), ("zh", "本次运行没有发送任何请求")])
def test_a_probe_that_did_not_run_does_not_say_live_checks_tried(home, sim_server, lang, said):
    """Issue 40: URL003 said "the live checks could not settle it" beside "Probe not run … no tokens spent"."""
    s = sim_server(api_key=KEY)
    configure(home, s)  # base_url ends in /v1; the key is unset, so Codex would send nothing
    report = probe_in(home, ProbeSettings(max_context=4096), lang, lambda line: None, env={"SIM_API_KEY": ""})
    url003 = next(f for f in report.findings if f.code == "URL003")
    assert (
        said in url003.remedy[0] and "could not settle" not in url003.remedy[0] and "没能判断" not in url003.remedy[0]
    )
    assert s.records == []
