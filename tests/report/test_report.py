"""Verdict decisions and exit codes from the report alone."""

from codexdoctor.model import CheckResult, Finding, Severity, Status, Verdict
from codexdoctor.report.build import decide_verdict


def check(cid, status, **facts):
    return CheckResult(cid, cid, status, "s", facts)


def finding(code, severity, verdict, cid):
    return Finding(code, severity, verdict, "t", "d", ("r",), (cid,))


def test_config_before_channel_before_context():
    fs = [
        finding("CTX002", Severity.ERROR, Verdict.CONTEXT, "ctx.window"),
        finding("AUTH001", Severity.ERROR, Verdict.CHANNEL, "api.canary"),
        finding("URL004", Severity.ERROR, Verdict.CONFIG, "url.base_url"),
    ]
    assert decide_verdict(fs, [], True)[0] is Verdict.CONFIG
    assert decide_verdict(fs[:2], [], True)[0] is Verdict.CHANNEL
    assert decide_verdict(fs[:1], [], True)[0] is Verdict.CONTEXT


def test_warnings_alone_are_ok_when_live_ran():
    fs = [finding("URL007", Severity.WARNING, Verdict.CONFIG, "url.base_url")]
    assert decide_verdict(fs, [check("url.base_url", Status.WARN)], True)[0] is Verdict.OK
    assert decide_verdict(fs, [check("url.base_url", Status.WARN)], False)[0] is Verdict.INCONCLUSIVE


def test_failed_check_without_finding_is_never_ok():
    verdict, reason = decide_verdict([], [check("api.canary", Status.FAIL, kind="weird")], True)
    assert verdict is Verdict.INCONCLUSIVE and "api.canary" in reason


def test_crash_is_inconclusive():
    assert decide_verdict([], [check("cfg.keys", Status.CRASH)], True)[0] is Verdict.INCONCLUSIVE


def test_skipped_canary_is_inconclusive():
    verdict, reason = decide_verdict(
        [], [check("api.catalog", Status.PASS), check("api.canary", Status.SKIP, skipped=True)], True
    )
    assert verdict is Verdict.INCONCLUSIVE and "--no-canary" in reason


def test_everything_skipped_is_inconclusive():
    verdict, reason = decide_verdict([], [check("ctx.sessions", Status.SKIP)], True)
    assert verdict is Verdict.INCONCLUSIVE and "nothing could be checked" in reason


def test_warnings_decide_for_pasted_errors():
    fs = [finding("API003", Severity.WARNING, Verdict.CHANNEL, "api.canary")]
    assert decide_verdict(fs, [check("api.canary", Status.FAIL)], True)[0] is Verdict.OK
    assert decide_verdict(fs, [check("api.canary", Status.FAIL)], True, warnings_decide=True)[0] is Verdict.CHANNEL


def test_a_consequence_is_folded_under_its_cause_in_every_format(home, sim_server, monkeypatch):
    """A key saved with `Bearer ` in front: ENV007 is the cause, the provider's 401 (AUTH001) is why, not a second
    cause with its own four generic remedies (issue 28). The relation is catalog data (rules/catalog.py)."""
    import json as jsonlib
    from pathlib import Path

    from codexdoctor.commands.check import run_check
    from codexdoctor.commands.options import CheckOptions
    from codexdoctor.report.render import render
    from tests.conftest import write_config

    key = "sk-fold-0123456789abcdef"
    s = sim_server(api_key=key)
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    report, _ = run_check(
        CheckOptions(
            env={"HOME": str(home), "SIM_API_KEY": "Bearer " + key},
            home=home,
            cwd=Path.cwd(),
            system_config=None,
            codex_version=(0, 171, 0),
        )
    )
    codes = [f.code for f in report.findings]
    assert "ENV007" in codes and "AUTH001" not in codes, codes
    cause = next(f for f in report.findings if f.code == "ENV007")
    assert [c for c, _ in cause.explains] == ["AUTH001"]
    assert any("-> 401" in e for e in cause.evidence)  # the consequence's evidence backs the cause
    assert report.verdict.value == "config"
    for fmt in ("text", "markdown", "junit", "github"):
        assert "AUTH001" in render(report, fmt), fmt
    data = jsonlib.loads(render(report, "json"))
    assert next(f for f in data["findings"] if f["code"] == "ENV007")["explains"][0][0] == "AUTH001"


def test_a_redefined_builtin_provider_is_one_cause(home):
    from tests.conftest import codes, offline_report, write_config

    write_config(
        home,
        'model = "gpt-5"\nmodel_provider = "openai"\n[model_providers.openai]\nname = "mine"\n'
        'base_url = "https://gw.example/v1"\nenv_key = "GW_KEY"\n',
    )
    report = offline_report(home, {"OPENAI_API_KEY": "sk-gw-0123456789abcdef", "GW_KEY": "sk-gw-0123456789abcdef"})
    assert "CFG005" in codes(report) and not {"ENV011", "ENV012", "ENV013"} & set(codes(report)), codes(report)


def test_what_fails_now_decides_before_the_session_logs():
    """Issue 40 review: old logs never outrank this run's findings, in either order of kinds."""
    past_context = finding("CTX014", Severity.ERROR, Verdict.CONTEXT, "ctx.sessions")
    past_channel = finding("CTX013", Severity.ERROR, Verdict.CHANNEL, "ctx.sessions")
    now_channel = finding("AUTH001", Severity.ERROR, Verdict.CHANNEL, "api.canary")
    now_context = finding("CTX002", Severity.ERROR, Verdict.CONTEXT, "ctx.window")
    decision = check("ctx.sessions", Status.FAIL, decision={"verdict": "context", "reason": "most were context"})
    verdict, reason = decide_verdict([past_context, past_channel, now_channel], [decision], True)
    assert verdict is Verdict.CHANNEL and reason.startswith("1 error of kind `channel`: AUTH001; the session logs")
    assert decide_verdict([past_channel, now_context], [], True)[0] is Verdict.CONTEXT
    # nothing now: the logs decide, by their own decision
    assert decide_verdict([past_context, past_channel], [decision], True)[0] is Verdict.CONTEXT
    assert decide_verdict([past_channel], [], True)[0] is Verdict.CHANNEL


def test_a_live_check_failed_without_a_diagnosis_is_not_decided_by_old_logs():
    past = finding("CTX014", Severity.ERROR, Verdict.CONTEXT, "ctx.sessions")
    verdict, reason = decide_verdict(
        [past], [check("api.canary", Status.FAIL), check("ctx.sessions", Status.FAIL)], True
    )
    assert verdict is Verdict.INCONCLUSIVE and "api.canary" in reason and "CTX014" in reason


def test_the_logs_decision_cites_only_the_findings_about_the_latest_failure():
    """Issue 40 review: `the most recent failure (2026-12-01 04:08) was `context`: CTX012, CTX014, CTX026` while that
    session (01a22fca-9) is in CTX014 alone; CTX012 is about 01a229ea-d, CTX026 about 01a22fc9-9. CTX014 names
    01a229ea-d in its diagnosis as a session that broke elsewhere: its own are in its evidence."""
    from dataclasses import replace

    cluster = replace(
        finding("CTX014", Severity.ERROR, Verdict.CONTEXT, "ctx.sessions"),
        diagnosis="6 broke at 15,512 tokens. 1 other session broke elsewhere (01a229ea-d at 8,477)",
        evidence=("session 01a22fc8-c (2026-12-01 04:06)", "session 01a22fca-9 (2026-12-01 04:08)"),
    )
    ran_out = replace(
        finding("CTX012", Severity.ERROR, Verdict.CONTEXT, "ctx.sessions"),
        diagnosis="Session 01a229ea-d (2026-11-30 00:46) failed at turn 2",
        evidence=("session 01a229ea-d (2026-11-30 00:46)",),
    )
    cut = replace(
        finding("CTX026", Severity.ERROR, Verdict.CONTEXT, "ctx.sessions"),
        diagnosis="In session 01a22fc9-9 (2026-12-01 04:07) the input stayed at 14,000 tokens",
        evidence=("11 sessions read from ~/.codex/sessions",),
    )
    channel = replace(
        finding("CTX013", Severity.ERROR, Verdict.CHANNEL, "ctx.sessions"), diagnosis="Session 01a229ea-4 failed"
    )
    sessions = [{"short_id": s} for s in ("01a229ea-4", "01a229ea-d", "01a22fc8-c", "01a22fc9-9", "01a22fca-9")]
    reason = "8 of kind `context` and 2 of kind `channel`; the most recent failure (2026-12-01 04:08) was `context`"
    for latest, cited in (("01a22fca-9", "CTX014"), ("01a229ea-d", "CTX012"), ("01a229ea-4", "CTX013")):
        decision = check(
            "ctx.sessions",
            Status.FAIL,
            decision={"verdict": "context", "reason": reason, "latest": latest},
            sessions=sessions,
        )
        verdict, said = decide_verdict([cluster, ran_out, cut, channel], [decision], True)
        assert verdict is Verdict.CONTEXT and said.endswith(f"`context`: {cited}"), (latest, said)
