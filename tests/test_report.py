"""Verdict decisions and exit codes from the report alone."""

from codexdoctor.model import CheckResult, Finding, Severity, Status, Verdict
from codexdoctor.report.build import decide_verdict


def check(cid, status, **facts):
    return CheckResult(cid, cid, status, "s", facts)


def finding(code, severity, verdict, cid):
    return Finding(code, severity, verdict, "t", "d", ("r",), (cid,))


def test_config_before_channel_before_context():
    fs = [finding("CTX002", Severity.ERROR, Verdict.CONTEXT, "ctx.window"),
          finding("AUTH001", Severity.ERROR, Verdict.CHANNEL, "api.canary"),
          finding("URL004", Severity.ERROR, Verdict.CONFIG, "url.base_url")]
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
    verdict, reason = decide_verdict([], [check("api.catalog", Status.PASS), check("api.canary", Status.SKIP, skipped=True)], True)
    assert verdict is Verdict.INCONCLUSIVE and "--no-canary" in reason


def test_everything_skipped_is_inconclusive():
    verdict, reason = decide_verdict([], [check("ctx.sessions", Status.SKIP)], True)
    assert verdict is Verdict.INCONCLUSIVE and "nothing could be checked" in reason


def test_warnings_decide_for_pasted_errors():
    fs = [finding("API003", Severity.WARNING, Verdict.CHANNEL, "api.canary")]
    assert decide_verdict(fs, [check("api.canary", Status.FAIL)], True)[0] is Verdict.OK
    assert decide_verdict(fs, [check("api.canary", Status.FAIL)], True, warnings_decide=True)[0] is Verdict.CHANNEL
