"""Issue 40 (second review of `codexdoctor watch`): a recorded 401 diagnosed, no internal check id in the verdict,
window advice only from measured evidence, the per-request lines in the run's language and width."""

from __future__ import annotations

import pytest

from codexdoctor.model import Status, Verdict
from codexdoctor.report.build import verdict_and_reason
from codexdoctor.rules import evaluate
from codexdoctor.watch import diagnosis
from tests.integration.test_watch import rec_of

UNAUTHORIZED = '{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}'


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_recorded_401_is_the_key_rejected_a_channel_error(lang):
    reqs = [
        rec_of(1, input_tokens=9000),
        rec_of(2, status=401, ending="http_error", error=UNAUTHORIZED, request_id="req_7"),
    ]
    result = diagnosis.check(reqs, "~/r.jsonl", None, lang=lang)
    findings = evaluate([result], lang=lang)
    assert [f.code for f in findings] == ["CTX046"]
    assert "Incorrect API key provided" in findings[0].diagnosis and "req_7" in findings[0].diagnosis
    verdict, reason = verdict_and_reason(findings, [result], live_ran=False)
    assert verdict is Verdict.CHANNEL and "CTX046" in reason.text(lang)


def test_a_check_failed_without_a_diagnosis_is_named_by_its_title_in_the_reports_language():
    reqs = [rec_of(1, status=404, ending="http_error", error='{"error":{"message":"not here"}}')]
    result = diagnosis.check(reqs, "~/r.jsonl", None)
    assert result.status is Status.FAIL and evaluate([result]) == []
    verdict, reason = verdict_and_reason([], [result], live_ran=False)
    assert verdict is Verdict.INCONCLUSIVE
    assert reason.text("en") == "a check failed without a known diagnosis: Watched session"
    assert reason.text("zh") == "有检查项失败但没有已知诊断：记录的会话"
