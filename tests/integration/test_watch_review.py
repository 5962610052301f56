"""Issue 40 (second review of `codexdoctor watch`): a recorded 401 diagnosed, no internal check id in the verdict,
window advice only from measured evidence, the per-request lines in the run's language and width."""

from __future__ import annotations

import json
import time

import httpx
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


def serve(home, base_url: str, lang: str, columns: str = "80"):
    import signal
    import subprocess
    import sys

    from tests.integration.test_watch import watch_env

    env = watch_env(home, base_url, LANG="zh_CN.UTF-8" if lang == "zh" else "C.UTF-8", COLUMNS=columns)
    proc = subprocess.Popen(
        [sys.executable, "-m", "codexdoctor", "watch", "--serve"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    while line and "codex -c" not in line:
        line = proc.stdout.readline()
    url = json.loads(line.strip().split("=", 1)[1].rstrip("'"))
    return proc, url


def stop(proc) -> tuple[str, str]:
    import signal

    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    return out, err


@pytest.mark.simulator
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_serve_diagnoses_a_401_and_says_each_request_in_the_runs_language_and_width(home, sim_server, lang):
    """Issue 40 review: a 200 then a 401 through `watch --serve` at 80 columns gave `无法判定 … ctx.watch`, and the
    status lines were English (`46 B sent · headers 0.00 s · http_error`) and ran past 80 columns."""
    from codexdoctor.common.cells import cells
    from tests.integration.test_watch import KEY, post

    s = sim_server(api_key=KEY)
    proc, url = serve(home, s.base_url, lang)
    assert post(url).status_code == 200
    wrong = {"Authorization": "Bearer sk-wrong-0000000000000000000000 find your API key at https://example.com/k"}
    assert httpx.post(url + "/responses", json={"model": "sim-model"}, headers=wrong, timeout=20).status_code == 401
    out, err = stop(proc)
    assert "CTX046" in out and "ctx.watch" not in out and "ctx.watch" not in err, out
    status = [ln for ln in err.splitlines() if ln.strip()]
    assert status and all(cells(ln, lang) <= 80 for ln in status), status
    assert "http_error" not in err and "http_error" not in out
    if lang == "zh":
        assert err.count("codexdoctor watch：#") == 2 and "HTTP 错误" in err and "B sent" not in err, err
        assert "首字（秒）" in out and "完成" in out and "首个输出" not in out, out
    else:
        assert err.count("codexdoctor watch: #") == 2 and "HTTP error" in err, err
    table = out[out.index("#") :]
    assert "output s" not in table and "first output s" not in out


def test_the_diagnosis_starts_on_a_line_of_its_own_after_an_echoed_ctrl_c():
    import io

    from codexdoctor.commands.watch import after_ctrl_c

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty, pipe = Tty(), io.StringIO()
    after_ctrl_c(tty)
    after_ctrl_c(pipe)
    assert tty.getvalue() == "\n" and pipe.getvalue() == ""


def test_sessions_under_one_session_lists_only_its_recordings(home):
    """Issue 40 review: `sessions --session 01a229ea-d` listed three recordings of no Codex session (`Codex session
    -`) beside the one of that session."""
    import subprocess
    import sys

    from codexdoctor.watch import store
    from tests.integration.test_watch import watch_env
    from tests.rollout_factory import RolloutWriter

    sid, other = "0199a1b0-5c3e-7d2f-9a41-8b6c2e1f0d3a", "0199ffff-0000-7000-8000-000000000000"
    env = watch_env(home, "http://127.0.0.1:9/v1")
    folder = store.recordings_dir(env, home)
    folder.mkdir(parents=True)
    for i, session in enumerate([sid, None, other, None, None]):
        line = {"kind": "request", **rec_of(1, input_tokens=9000, session=session).to_json()}
        (folder / f"watch-20261202T00000{i}Z-{i}.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    for session in (sid, other):
        w = RolloutWriter(home / ".codex" / "sessions", session_id=session)
        w.turn(9_000)
        w.close()
    argv = [sys.executable, "-m", "codexdoctor", "sessions", "--format", "json", "--session", sid[:10]]
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    data = json.loads(proc.stdout)
    (table,) = [x for x in data["sections"] if x["id"] == "watch-recordings"]
    assert [r[0] for r in table["rows"]] == ["watch-20261202T000000Z-0.jsonl"], table["rows"]
    argv = [sys.executable, "-m", "codexdoctor", "sessions", "--format", "json"]
    data = json.loads(subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60).stdout)
    (table,) = [x for x in data["sections"] if x["id"] == "watch-recordings"]
    assert len(table["rows"]) == 5  # without --session, the newest recordings whatever their session


FORBIDDEN = (
    '{"error":{"message":"Project proj_abc does not have access to model gpt-5","type":"invalid_request_error"}}'
)
BLOCKED = "<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head><body>blocked</body></html>"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_recorded_403_is_a_channel_finding_with_the_url_and_the_providers_words(lang):
    """Issue 40 (remainder): a 401 through the recorder gave CTX046, a 403 gave no finding at all. A 403 is the key
    (or the account, or a firewall) refused: a channel error, said as `check` says it (AUTH003), with the request's
    URL (redacted: no user-info) and the provider's message."""
    reqs = [
        rec_of(1, input_tokens=9000),
        rec_of(2, status=403, ending="http_error", error=FORBIDDEN, model="gpt-5"),
        rec_of(3, status=403, ending="http_error", error=FORBIDDEN, request_id="req_9", model="gpt-5"),
    ]
    result = diagnosis.check(reqs, "~/r.jsonl", None, lang=lang, upstream="https://user:pw@gw.example:8443/v1")
    findings = evaluate([result], lang=lang)
    assert [f.code for f in findings] == ["CTX047"]
    said = "\n".join((findings[0].diagnosis, *findings[0].remedy))
    assert "https://***@gw.example:8443/v1/responses" in said and "pw" not in said, said
    assert "Project proj_abc does not have access to model gpt-5" in said and "req_9" in said, said
    assert "403" in said and "`gpt-5`" in said and "AUTH003" in said, said
    if lang == "en":
        assert "The key is recognised but lacks permission for this model or endpoint." in said, said
        assert "2 requests got a 403." in said, said
    else:
        assert "密钥被识别了，但没有访问这个模型或端点的权限。" in said, said
        assert "共有 2 个请求收到 403。" in said, said
    verdict, reason = verdict_and_reason(findings, [result], live_ran=False)
    assert verdict is Verdict.CHANNEL and "CTX047" in reason.text(lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_recorded_403_page_from_a_firewall_is_said_as_check_says_it(lang):
    reqs = [rec_of(1, status=403, ending="http_error", error=BLOCKED)]
    findings = evaluate([diagnosis.check(reqs, "~/r.jsonl", None, lang=lang, upstream="https://gw.example")], lang=lang)
    assert [f.code for f in findings] == ["CTX047"]
    said = "\n".join((findings[0].diagnosis, *findings[0].remedy))
    assert "https://gw.example/v1/responses" in said and "AUTH004" in said, said
    assert ("Cloudflare rule, IP allow-list" if lang == "en" else "防火墙、Cloudflare 规则、IP 白名单") in said, said


class _Forbids:
    """A provider that answers every request 403 with OpenAI's body for a project without the model, quoting the key
    it was sent (as some gateways do): the recording, the report and the finding must hold none of it."""

    def __init__(self) -> None:
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                key = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
                body = json.dumps({"error": {"message": f"Project proj_abc may not use this model (key {key})"}})
                data = body.encode()
                self.send_response(403)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("x-request-id", "req_forbidden_1")
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        import threading

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.simulator
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_serve_diagnoses_a_403_with_the_url_and_the_providers_redacted_words(home, lang):
    """Issue 40 (remainder): `watch --serve` in front of a provider that answers 403 printed no finding."""
    from tests.integration.test_watch import KEY, post

    provider = _Forbids()
    try:
        proc, url = serve(home, provider.base_url, lang)
        assert post(url).status_code == 403
        out, err = stop(proc)
    finally:
        provider.close()
    assert "CTX047" in out and f"{provider.base_url}/responses" in out.replace("\n    ", " "), out
    assert "Project proj_abc may not use this model" in out and "req_forbidden_1" in out, out
    assert KEY not in out and KEY not in err and KEY[-8:] not in out, out
    assert ("AUTH003" in out) and ("密钥被识别了" in out if lang == "zh" else "The key is recognised" in out), out
