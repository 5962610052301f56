"""`codexdoctor report`: one file for a support ticket (issue 30): request ids and times, client, config, the check,
the last failed session, a reproduction, all redacted."""

from __future__ import annotations

import json

from tests.conftest import write_config
from tests.test_untrusted import FILLER, leaked

KEY = "Q7w9E2r4T6y8U1i3O5p7A9s2Xk3mN8bV4cZ1"  # no known prefix: only the run's own secrets catch it


def configure(home, server, extra=""):
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{server.base_url}"\nenv_key = "SIM_API_KEY"\n{extra}',
    )


def test_the_report_names_the_request_ids_the_server_logged(home, sim_server, run, monkeypatch, tmp_path):
    s = sim_server(api_key=KEY)
    configure(home, s)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    target = tmp_path / "ticket.md"
    code, out, err = run("report", "-o", str(target), "--codex-version", "0.171.0")
    assert code == 0 and "report written to" in err and "Nothing was uploaded" in err
    text = target.read_text()
    logged = [r.request_id for r in s.records if r.method == "POST"]
    assert logged and all(rid in text for rid in logged)  # the canary's and turn two's ids, as the server logged them
    for heading in (
        "## Summary",
        "## Client",
        "## Config as Codex resolves it",
        "## Requests (for the provider's logs)",
        "## Reproduce",
        "## The check",
        "## The last failed Codex session",
    ):
        assert heading in text
    assert "No failed Codex session was found" in text  # a machine with no Codex sessions at all
    assert 'curl -sS -N "http://127.0.0.1' in text and "Authorization: Bearer $SIM_API_KEY" in text
    body = json.loads((tmp_path / "ticket.request.json").read_text())
    assert body["stream"] is True and body["input"][0]["role"] == "developer"
    assert not leaked(text) and not leaked((tmp_path / "ticket.request.json").read_text())
    sent = next(r for r in s.records if r.method == "POST")
    assert "Z |" in text and sent.request_id in text  # UTC times next to the ids


def test_request_ids_inside_error_texts_and_litellm_headers(home, sim_server, run, monkeypatch, tmp_path):
    s = sim_server(api_key=KEY, models=("other",), request_id_in_text=True, error_style="litellm")
    configure(home, s)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    target = tmp_path / "t.json"
    code, out, err = run("report", "--format", "json", "-o", str(target), "--codex-version", "0.171.0")
    data = json.loads(target.read_text())
    ids = [r["request_id"] for r in data["requests"]]
    assert any(rid.startswith("req_sim_") for rid in ids), data["requests"]
    canary = next(c for c in data["check"]["checks"] if c["id"] == "api.canary")
    assert canary["facts"]["request_id"] and canary["facts"]["started_at"].endswith("Z")


def test_the_last_failed_session_with_codexs_request_id(home, run, tmp_path):
    from tests.rollout_factory import RolloutWriter

    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/v1"\nenv_key = "GW_KEY"\n',
    )
    w = RolloutWriter(home / ".codex" / "sessions")
    w.turn(9_000)
    w.turn(
        12_000,
        error="unexpected status 502 Bad Gateway: upstream failed, url: https://gw.example/v1/responses, "
        "request id: 07120c03-aaaa-bbbb-cccc-0123456789ab",
    )
    w.close()
    target = tmp_path / "t.md"
    code, out, err = run("report", "--offline", "-o", str(target))
    text = target.read_text()
    assert "07120c03-aaaa-bbbb-cccc-0123456789ab" in text and "failed at turn 2" in text
    assert "context by turn (input tokens): 9,000" in text


def test_the_whole_file_is_redacted(home, sim_server, run, monkeypatch, tmp_path):
    s = sim_server(api_key=KEY, stream_fault="response_failed", fault_message=FILLER[:217] + "{auth} rejected")
    configure(home, s, 'query_params = { token = "qt-Z8x6C4v2B0n9M7k5" }\n')
    monkeypatch.setenv("SIM_API_KEY", KEY)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    for fmt in ("markdown", "json"):
        target = out_dir / f"t.{fmt}"
        run("report", "--format", fmt, "-o", str(target), "--codex-version", "0.171.0")
        for path in out_dir.iterdir():
            text = path.read_text()
            assert not leaked(text) and not leaked(text, "qt-Z8x6C4v2B0n9M7k5"), path
            assert str(home) not in text  # home folders as ~


def test_curl_in_each_shell():
    from codexdoctor.report.ticket import curl_command

    assert "Authorization: Bearer $K" in curl_command("bash", "https://h/v1/responses", "K", "b.json", {})
    ps = curl_command("powershell", "https://h/v1/responses", "K", "b.json", {})
    assert ps.startswith("curl.exe") and "$env:K" in ps and " `\n" in ps
    assert "%K%" in curl_command("cmd", "https://h/v1/responses", "K", "b.json", {})


def test_request_id_from_headers_or_text():
    from codexdoctor.net.transport import request_id_of

    assert request_id_of({"x-litellm-call-id": "abc-123-def"}) == "abc-123-def"
    assert request_id_of({"x-request-id": "req_1", "x-litellm-call-id": "other"}) == "req_1"
    assert (
        request_id_of({}, '{"error": {"message": "quota exceeded (request id: 2025120112345678abcd)"}}')
        == "2025120112345678abcd"
    )
    assert request_id_of({}, "no id here") is None


def test_report_in_chinese_keeps_the_support_summary_in_english(home, run, tmp_path):
    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/v1"\nenv_key = "GW_KEY"\n',
    )
    target = tmp_path / "t.md"
    run("report", "--offline", "--lang", "zh", "-o", str(target))
    text = target.read_text()
    assert "# Codex CLI 支持报告" in text and "## 最近一次失败的 Codex 会话" in text
    assert "A user of the Codex CLI" in text  # for the provider's support desk
