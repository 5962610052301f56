"""Issue 40 review: what `check` finds now decides the verdict; Codex's session logs (what failed before) only when
nothing found now does. Before: with a key the provider rejected now, old logs that broke at one size gave
`Verdict: CONTEXT … CTX014`, listed above the live AUTH001, and the reason did not name AUTH001; the same with
nothing listening (NET002). The other order too: a live context error is not outranked by an old 401 in a log."""

from __future__ import annotations

import json
import socket
from datetime import datetime, timedelta, timezone

import pytest

from tests.conftest import write_config
from tests.rollout_factory import RolloutWriter

KEY = "sk-sim-verdict-0123456789abcdef"
WRONG = "sk-live-ZYXWVUTSRQPONMLKJIHGFEDCBA9876"
OVERFLOW = (
    "Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying."
)
AUTH = "unexpected status 401 Unauthorized: Incorrect API key provided: sk-*****0000."


def configure(home, base_url: str) -> None:
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{base_url}"\nenv_key = "SIM_API_KEY"\nwire_api = "responses"\n',
    )


def broke_at_one_size(home, n: int = 3) -> None:
    """`n` recent sessions of `sim` that broke at 15,500 tokens: CTX014 (the context) from the logs alone."""
    start = datetime.now(timezone.utc) - timedelta(hours=n + 1)
    for i in range(n):
        w = RolloutWriter(
            home / ".codex" / "sessions", provider="sim", model="sim-model", start=start + timedelta(hours=i)
        )
        for size in (9000, 12000, 15500):
            w.turn(size)
        w.turn(0, error=OVERFLOW, error_info="context_window_exceeded")
        w.close()


def rejected_once(home) -> None:
    """One recent session of `sim` that the provider answered 401: CTX013 (the channel) from the logs alone."""
    w = RolloutWriter(home / ".codex" / "sessions", provider="sim", model="sim-model", start=datetime.now(timezone.utc))
    w.turn(0, error=AUTH, error_info={"http_connection_failed": {"http_status_code": 401}})
    w.close()


def check_json(run, *args: str) -> dict:
    code, out, err = run("check", "--codex-version", "0.171.0", "--format", "json", *args)
    assert code in (0, 1), err
    return json.loads(out)


def error_codes(report: dict) -> list[str]:
    return [f["code"] for f in report["findings"] if f["severity"] == "error"]


@pytest.fixture
def logs(home, sim_server, monkeypatch):
    s = sim_server(api_key=KEY, token_interval_ms=0)
    configure(home, s.base_url)
    broke_at_one_size(home)
    rejected_once(home)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    return s


def test_a_key_rejected_now_decides_over_logs_that_broke_at_one_size(logs, run, monkeypatch):
    monkeypatch.setenv("SIM_API_KEY", WRONG)
    report = check_json(run)
    codes = error_codes(report)
    assert {"AUTH001", "CTX014"} <= set(codes), codes
    assert report["verdict"] == "channel", report["verdict_reason"]
    assert codes[0] == "AUTH001" and codes.index("AUTH001") < codes.index("CTX014"), codes
    reason = report["verdict_reason"]
    assert reason.startswith("1 error of kind `channel`: AUTH001; the session logs add"), reason
    assert "CTX014" in reason  # every error the list shows is counted (issue 29)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_verdict_line_leads_with_the_live_error_in_both_languages(logs, run, monkeypatch, lang):
    monkeypatch.setenv("SIM_API_KEY", WRONG)
    code, out, _ = run("check", "--codex-version", "0.171.0", "--lang", lang)
    listed = [line.split()[1] for line in out.splitlines() if line.startswith("✗ ")]
    assert listed.index("AUTH001") < listed.index("CTX014"), out
    verdict = " ".join(out[out.index("Verdict:" if lang == "en" else "结论：") :].split())
    if lang == "en":
        assert verdict.startswith("Verdict: CHANNEL — 1 error of kind `channel`: AUTH001; the session logs add"), (
            verdict
        )
    else:
        assert verdict.startswith(
            "结论：通道问题（channel） — 1 个通道类错误：AUTH001；会话日志另有 1 个通道类错误（CTX013）"
        ), verdict


def test_nothing_listening_now_decides_over_the_logs(logs, run):
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    report = check_json(run, "-c", f'model_providers.sim.base_url="http://127.0.0.1:{port}/v1"')
    codes = error_codes(report)
    assert codes[0] == "NET002" and "CTX014" in codes, codes
    assert report["verdict"] == "channel" and report["verdict_reason"].startswith("1 error of kind `channel`: NET002")


def test_with_the_channel_working_now_the_logs_decide(logs, run):
    report = check_json(run)
    assert "AUTH001" not in error_codes(report)
    assert report["verdict"] == "context", report["verdict_reason"]  # the majority of the logs, and the most recent
    assert error_codes(report)[0] == "CTX014"


def test_a_window_too_small_now_is_not_outranked_by_an_old_401(home, sim_server, run, monkeypatch):
    """The other order: the live error is the context's, the log's is the channel's (CHANNEL before CONTEXT in the
    fixed order used to let the old 401 decide)."""
    s = sim_server(api_key=KEY, token_interval_ms=0, context_window=4000)
    configure(home, s.base_url)
    rejected_once(home)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    report = check_json(run)
    codes = error_codes(report)
    assert "CTX013" in codes, codes
    assert report["verdict"] == "context", report["verdict_reason"]
    assert codes[-1] == "CTX013", codes
    assert "the session logs add 1 `channel` error (CTX013)" in report["verdict_reason"]


def broken_before(home) -> None:
    failed_once(home, "unexpected status 502 Bad Gateway: <html>bad gateway</html>, url: http://127.0.0.1/v1", 502)


def failed_once(home, error: str, status: int) -> None:
    w = RolloutWriter(home / ".codex" / "sessions", provider="sim", model="sim-model", start=datetime.now(timezone.utc))
    w.turn(0, error=error, error_info={"http_connection_failed": {"http_status_code": status}})
    w.close()


def test_an_old_401_that_the_canary_no_longer_meets_does_not_decide(home, sim_server, run, monkeypatch):
    """scripts/crosscheck_new_user.py, 2026-12-02: the key fixed in round 3, the real Codex answered, and `check` said
    `channel` (CTX013, "run `codexdoctor check`") for the session that the old key's 401 had ended in round 2."""
    s = sim_server(api_key=KEY, token_interval_ms=0)
    configure(home, s.base_url)
    rejected_once(home)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    report = check_json(run)
    assert "CTX013" not in error_codes(report), report["findings"]
    assert report["verdict"] == "ok", report["verdict_reason"]
    broken_before(home)  # with a session that still counts beside it, the one left out is named
    report = check_json(run, "--verbose")
    logs = next(c for c in report["checks"] if c["id"] == "ctx.sessions")
    assert any("1 failed session left out" in e for e in logs["evidence"]), logs["evidence"]


def test_an_old_failure_a_working_canary_cannot_rule_out_still_counts(home, sim_server, run, monkeypatch):
    """A 502 (or a stream cut) comes and goes: one request that works now says nothing about it (issue 39)."""
    s = sim_server(api_key=KEY, token_interval_ms=0)
    configure(home, s.base_url)
    failed_once(home, "unexpected status 502 Bad Gateway: <html>bad gateway</html>, url: http://127.0.0.1/v1", 502)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    report = check_json(run)
    assert "CTX013" in error_codes(report), report["findings"]
