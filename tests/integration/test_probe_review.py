"""Issue 40, first review, on `codexdoctor probe` (notes review-1, points 10-14 and 32): what a probe that stopped or
found no break may conclude, what its rows are called, that its plan's "at most" holds, and what it says before
spending when its range cannot reach Codex's own first request."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codexdoctor.checks.probe import ProbeSettings
from codexdoctor.commands.options import CheckOptions
from codexdoctor.commands.probe import run_probe
from codexdoctor.report.render import RenderOptions, render
from tests.integration.test_probe import KEY, configure, facts, interrupt_on

pytestmark = pytest.mark.simulator


def probe_run(home, settings, lang="en", ask=None):
    """The probe in-process: its report, the progress lines, and how many lines had been said when it asked."""
    lines: list[str] = []
    asked: list[int] = []

    def ask_at(plan: str) -> bool:
        asked.append(len(lines))
        return True

    opts = CheckOptions(
        env={"HOME": str(home), "SIM_API_KEY": KEY},
        home=home,
        cwd=Path.cwd(),
        system_config=None,
        codex_version=(0, 171, 0),
        lang=lang,
    )
    report, _ = run_probe(opts, settings, ask_at, lines.append, ask or ask_at)  # over --budget, or not
    return report, lines, asked


def text(report) -> str:
    return " ".join(render(report, "text", RenderOptions(width=80)).split())


def finding(report, code):
    return next(f for f in report.findings if f.code == code)


def posts(server) -> int:
    return len([r for r in server.records if r.method == "POST"])


@pytest.mark.parametrize("window", [3000, 6000, 12000, 19000])
def test_the_plan_holds_its_at_most_request_count(home, sim_server, window):
    """Review point 12: "at most 22 requests" and 23 were sent (a 12,000 window under --max-context 20000): the
    narrowing in a wider gap than the last one took one more step than the plan counted."""
    s = sim_server(api_key=KEY, context_window=window, token_interval_ms=0)
    configure(home, s)
    report, lines, _ = probe_run(home, ProbeSettings(max_context=20000, budget=400_000))
    plan = next(line for line in lines if line.startswith("Probe plan:"))
    at_most = int(re.search(r"at most (\d+) requests", plan).group(1))
    f = facts(report)
    assert f["stable"] is True, report.verdict_reason  # the search finished
    assert posts(s) <= at_most and f["requests"] <= at_most, (posts(s), at_most)


@pytest.mark.parametrize(
    "lang,unknown,not_said",
    [
        ("en", "Turns per session to stay under 70% of the window: unknown", "no session fits"),
        ("zh", "保持在窗口 70% 以下的每会话轮数：未知", "放不下任何会话"),
    ],
)
def test_no_break_below_codex_first_request_leaves_turns_unknown(home, sim_server, lang, unknown, not_said):
    """Review point 10: no break up to 4,391 tokens, and the probe said "no session fits" from that lower bound."""
    s = sim_server(api_key=KEY, context_window=12000, token_interval_ms=0)
    configure(home, s)
    report, _, _ = probe_run(home, ProbeSettings(budget=60000), lang)
    f = facts(report)
    assert f["no_break"] and f["max_context"] < f["first_request"]
    out = text(report)
    assert unknown in out and not_said not in out
    assert f["further_cmd"] in out  # how to probe further


@pytest.mark.parametrize(
    "lang,title,canary", [("en", "Single question", "Canary request"), ("zh", "单次提问", "探测请求")]
)
def test_the_single_question_row_is_not_called_the_canary(home, sim_server, lang, title, canary):
    """Review point 11: on `check` the canary is Codex's own first request; the probe's row read the same title for its
    19-token single question."""
    s = sim_server(api_key=KEY, context_window=12000, token_interval_ms=0)
    configure(home, s)
    report, _, _ = probe_run(home, ProbeSettings(budget=1000), lang)
    out = render(report, "text", RenderOptions(width=80))
    colon = "：" if lang == "zh" else ":"
    assert f"[✓] {title}{colon}" in out and canary not in out


@pytest.mark.parametrize(
    "lang,said", [("en", "nothing yet: only the single question (19 tokens) was sent"), ("zh", "还什么都不知道")]
)
def test_a_probe_stopped_at_its_single_questions_says_nothing_was_learned(home, sim_server, lang, said):
    """Review point 13: CTX010 "works up to (none) tokens"."""
    s = sim_server(api_key=KEY, context_window=12000, token_interval_ms=0)
    configure(home, s)
    report, _, _ = probe_run(home, ProbeSettings(budget=1000), lang)
    diagnosis = finding(report, "CTX010").diagnosis
    assert said in diagnosis and "(none)" not in diagnosis and "（无）" not in diagnosis, diagnosis
    if lang == "zh":
        assert "19 个 token" in diagnosis


@pytest.mark.parametrize(
    "lang,works,interrupted",
    [("en", "works up to 4,043 tokens", "interrupted"), ("zh", "4,043 个 token 以内正常", "被中断")],
)
def test_ctrl_c_reports_the_largest_request_that_worked_and_lists_the_one_cut_short(
    home, sim_server, monkeypatch, lang, works, interrupted
):
    """Review point 14: after Ctrl-C during step 8, "works up to 1,004 tokens" while the prefix-cache requests of
    4,041-4,043 tokens had worked, and "after 8 requests" above a table of 7."""
    s = sim_server(api_key=KEY, context_window=12000, token_interval_ms=0)
    configure(home, s)
    interrupt_on(monkeypatch, 8)
    report, _, _ = probe_run(home, ProbeSettings(max_context=20000), lang)
    f = facts(report)
    assert f["stopped"] == "interrupted" and f["requests"] == 8
    diagnosis = finding(report, "CTX010").diagnosis
    assert works in diagnosis and ("8" in diagnosis), diagnosis
    steps = next(sec for sec in report.sections if sec.id == "probe.steps")
    assert len(steps.rows) == 8 and steps.rows[-1][-1] == interrupted, steps.rows[-1]
    assert "CTX011" not in {x.code for x in report.findings}  # the request cut short is no failure


@pytest.mark.parametrize(
    "lang,warned,wrong",
    [
        ("en", "cannot even reach the size of Codex's own first request", None),
        ("zh", "连 Codex 自己的第一个请求的大小都够不到", "默认预算"),
    ],
)
def test_a_range_below_codex_first_request_is_said_before_the_question(home, sim_server, lang, warned, wrong):
    """Review point 32: `--budget 60000` planned up to 4,514 tokens, under Codex's 8,497-token first request, without
    saying so (and the Chinese called the user's --budget "the default budget")."""
    s = sim_server(api_key=KEY, context_window=12000, token_interval_ms=0)
    configure(home, s)
    _, lines, asked = probe_run(home, ProbeSettings(budget=60000), lang)
    said = " ".join(lines[: asked[0]])
    assert warned in said, lines[: asked[0]]
    assert "--budget" in said and (wrong is None or wrong not in said)
    s2 = sim_server(api_key=KEY, context_window=12000, token_interval_ms=0)
    configure(home, s2)
    _, lines, asked = probe_run(home, ProbeSettings(max_context=4000, budget=60000), lang)
    assert warned in " ".join(lines[: asked[0]]) and "--max-context" in " ".join(lines[: asked[0]])
    # a budget too small for any session size: the plan keeps the whole range, none of which is reached
    _, lines, asked = probe_run(home, ProbeSettings(budget=1000), lang)
    said = " ".join(lines[: asked[0]])
    assert warned in said and "--budget 1,000" in said, lines[: asked[0]]


def test_a_range_past_codex_first_request_gives_no_warning(home, sim_server):
    s = sim_server(api_key=KEY, context_window=12000, token_interval_ms=0)
    configure(home, s)
    _, lines, asked = probe_run(home, ProbeSettings(max_context=20000, budget=400_000))
    assert not any("first request" in line for line in lines[: asked[0]])
