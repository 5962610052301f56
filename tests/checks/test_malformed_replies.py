"""A provider that answers with JSON of the wrong shape or depth (issue 36, item 4): every live check still reports,
the wrong shape is evidence a rule turns into a finding, and a check that crashes anyway exits 3 and is named.

The answers are served byte for byte from a loopback server (the simulator only speaks well-formed JSON)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.model import Status, Verdict
from codexdoctor.report.build import exit_code
from codexdoctor.report.render import FORMATS, RenderOptions, render
from tests.conftest import write_config

KEY = "sk-malformed-0123456789abcdef"
DEEP = "[" * 100_000 + "]" * 100_000
USAGE = {"input_tokens": 12, "output_tokens": 1, "total_tokens": 13}
MODELS = json.dumps({"object": "list", "data": [{"id": "m"}]})


def sse(*events: str) -> str:
    head = (
        json.dumps({"type": "response.created", "response": {"id": "r1"}}),
        json.dumps({"type": "response.output_text.delta", "delta": "ok"}),
    )
    return "".join(f"data: {e}\n\n" for e in (*head, *events))


def completed(response: object) -> str:
    return json.dumps({"type": "response.completed", "response": response})


GOOD_STREAM = sse(completed({"id": "r1", "usage": USAGE}))


class ExactServer:
    """/v1/models and POST answer with the bytes given; anything else is a JSON 404."""

    def __init__(self, post: tuple[int, str, str], models: tuple[int, str] = (200, MODELS)):
        answers = {"POST": post, "GET /v1/models": (models[0], "application/json", models[1])}

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _answer(self, status, ctype, body):
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._answer(*answers.get(f"GET {self.path}", (404, "application/json", '{"error": "no"}')))

            def do_POST(self):
                self.rfile.read(int(self.headers.get("content-length") or 0))
                self._answer(*answers["POST"])

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True).start()  # shutdown() waits a poll

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def exact_server():
    servers = []

    def start(post, models=(200, MODELS)):
        servers.append(ExactServer(post, models))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def check(home, url, lang="en", model="m"):
    write_config(
        home,
        f'model = "{model}"\nmodel_provider = "p"\n[model_providers.p]\nname = "p"\nbase_url = "{url}"\nenv_key = "P_KEY"\n',
    )
    report, _ = run_check(
        CheckOptions(
            env={"HOME": str(home), "P_KEY": KEY},
            home=home,
            cwd=Path.cwd(),
            system_config=None,
            codex_version=(0, 171, 0),
            timeout=5.0,
            lang=lang,
        )
    )
    return report


def by_id(report, cid):
    return next(c for c in report.checks if c.id == cid)


def assert_no_crash(report):
    crashed = [(c.id, c.summary) for c in report.checks if c.status is Status.CRASH]
    assert not crashed, crashed


@pytest.mark.parametrize(
    ("event", "says"),
    [
        (completed("ok"), "the provider sent `response` as a string, not an object"),
        (completed({"id": "r1", "usage": "n/a"}), "the provider sent `response.usage` as a string, not an object"),
        (
            completed({"id": "r1", "usage": {**USAGE, "input_tokens": "12"}}),
            "the provider sent `response.usage.input_tokens` as a string, not a 64-bit integer",
        ),
        (completed({"usage": USAGE}), "the provider left out `response.id`"),
    ],
)
def test_a_completed_event_codex_cannot_read_is_api024(home, exact_server, event, says):
    """Each of these ended every live check in AttributeError or ValueError; Codex 0.171.0 fails each turn with
    `failed to parse ResponseCompleted: …` (checked with the real CLI)."""
    server = exact_server((200, "text/event-stream", sse(event)))
    report = check(home, server.url)
    assert_no_crash(report)
    canary = by_id(report, "api.canary")
    assert canary.status is Status.FAIL and canary.facts["kind"] == "unreadable_completion"
    assert says in canary.summary and says in canary.facts["shapes"]
    api024 = next(f for f in report.findings if f.code == "API024")
    assert says in api024.diagnosis and "failed to parse ResponseCompleted" in api024.diagnosis
    assert report.verdict is Verdict.CHANNEL and exit_code(report, "error") == 1


def test_a_completed_event_without_response_is_skipped_as_codex_skips_it(home, exact_server):
    """`response` null: Codex reads on past the event, and the stream ends without a completion."""
    server = exact_server((200, "text/event-stream", sse(completed(None))))
    report = check(home, server.url)
    assert_no_crash(report)
    api024 = next(f for f in report.findings if f.code == "API024")
    assert "`response` as null, not an object" in api024.diagnosis
    assert "stream closed before response.completed" in api024.diagnosis


def test_a_chat_chunk_whose_choice_is_a_number_is_evidence(home, exact_server):
    """`{"choices":[1]}` on /responses: the chunk grammar is the finding (API018), the number is evidence."""
    server = exact_server((200, "text/event-stream", 'data: {"choices":[1]}\n\ndata: [DONE]\n\n'))
    report = check(home, server.url)
    assert_no_crash(report)
    canary = by_id(report, "api.canary")
    assert "the provider sent `choices[0]` as an integer, not an object" in canary.facts["shapes"]
    assert any("`choices[0]` as an integer" in line for line in canary.evidence)
    assert [f.code for f in report.findings if f.severity.value == "error"] == ["API018"]
    assert exit_code(report, "error") == 1


def test_an_event_nested_100000_deep_is_an_unreadable_event(home, exact_server):
    """The completed event nested 100,000 deep: Codex drops it (serde_json stops at 128) and the stream closes."""
    server = exact_server((200, "text/event-stream", sse(DEEP)))
    report = check(home, server.url)
    assert_no_crash(report)
    canary = by_id(report, "api.canary")
    assert canary.facts["kind"] == "stream_closed"
    assert any("an unreadable event: JSON nested 100,000 levels deep" in line for line in canary.evidence)
    assert "API008" in [f.code for f in report.findings] and exit_code(report, "error") == 1


def test_a_400_body_nested_100000_deep_is_a_rejected_request(home, exact_server):
    server = exact_server((400, "application/json", DEEP))
    report = check(home, server.url)
    assert_no_crash(report)
    api010 = next(f for f in report.findings if f.code == "API010")
    assert "answered 400: the body is JSON nested 100,000 levels deep (Codex reads at most 127)" in api010.diagnosis
    assert by_id(report, "api.canary").facts["body_malformed"].startswith("JSON nested 100,000 levels deep")
    assert exit_code(report, "error") == 1


def test_a_models_answer_nested_100000_deep_is_no_catalog(home, exact_server):
    server = exact_server((200, "text/event-stream", GOOD_STREAM), models=(200, '{"data":' + DEEP + "}"))
    report = check(home, server.url)
    assert_no_crash(report)
    catalog = by_id(report, "api.catalog")
    assert catalog.status is Status.SKIP
    assert catalog.summary == "not usable: the body is JSON nested 100,001 levels deep (Codex reads at most 127)"
    assert by_id(report, "api.canary").status is Status.PASS
    assert exit_code(report, "error") == 0


def test_a_catalog_whose_data_is_a_string_says_so(home, exact_server):
    server = exact_server((200, "text/event-stream", GOOD_STREAM), models=(200, '{"data": "m"}'))
    report = check(home, server.url)
    assert_no_crash(report)
    catalog = by_id(report, "api.catalog")
    assert catalog.facts["shapes"] == ["the provider sent `data` as a string, not an array"]
    assert "the provider sent `data` as a string, not an array" in catalog.evidence


def test_the_evidence_reads_in_chinese_too(home, exact_server):
    server = exact_server((200, "text/event-stream", sse(completed("ok"))))
    report = check(home, server.url, lang="zh")
    canary = by_id(report, "api.canary")
    assert canary.summary == "一个 Codex 读不了的 response.completed 事件：提供方发来的 `response` 是字符串，而不是对象"
    api024 = next(f for f in report.findings if f.code == "API024")
    assert api024.title == "Codex 读不了提供方发来的 response.completed 事件" and "字符串" in api024.diagnosis


# ---- a check that crashes anyway ---------------------------------------------------------------------------------
def test_a_crashing_live_check_exits_3_and_is_named_in_every_format(home, sim_server, monkeypatch, run):
    """Only that check crashes (the others still report), and every format says which one, so CI notices it."""
    from codexdoctor.checks.live import window

    def boom(*args, **kwargs):
        raise RuntimeError("kaboom " + KEY)

    monkeypatch.setattr(window, "interpret", boom)
    s = sim_server(api_key=KEY)
    report = check(home, s.base_url, model="sim-model")
    crashed = [c.id for c in report.checks if c.status is Status.CRASH]
    assert crashed == ["ctx.window"]
    assert by_id(report, "api.canary").status is Status.PASS
    assert report.verdict is Verdict.INCONCLUSIVE
    assert report.verdict_reason.startswith("codexdoctor bug: check ctx.window crashed (RuntimeError: kaboom")
    assert report.verdict_reason.endswith("; please report it") and KEY not in report.verdict_reason
    for fmt in FORMATS:
        out = render(report, fmt, RenderOptions())
        assert "codexdoctor bug: check ctx.window crashed" in out, fmt
    assert exit_code(report, "error") == exit_code(report, "never") == 3

    monkeypatch.setenv("P_KEY", KEY)
    code, out, _ = run("check", "--timeout", "5", "--format", "json")
    assert code == 3 and "codexdoctor bug: check ctx.window crashed" in json.loads(out)["verdict_reason"]


def test_a_crash_is_said_after_the_errors_that_decide_the_verdict(home, exact_server, monkeypatch):
    from codexdoctor.checks.live import reach

    def boom(*args, **kwargs):
        raise ValueError("boom")

    monkeypatch.setattr(reach, "interpret", boom)
    server = exact_server((200, "text/event-stream", sse(completed("ok"))))
    report = check(home, server.url)
    assert [c.id for c in report.checks if c.status is Status.CRASH] == ["net.reach"]
    assert report.verdict is Verdict.CHANNEL
    assert "API024" in report.verdict_reason and "; codexdoctor bug: check net.reach crashed (ValueError: boom" in (
        report.verdict_reason
    )
    assert exit_code(report, "error") == 3
    zh = check(home, server.url, lang="zh")
    assert "codexdoctor 的缺陷：检查项 net.reach 崩溃了" in zh.verdict_reason


def test_a_crashing_static_check_exits_3(home, monkeypatch):
    import codexdoctor.commands.check as command
    from codexdoctor.checks import STATIC_CHECKS
    from codexdoctor.checks.base import Check
    from tests.conftest import TAOTOKEN, offline_report

    def boom(ctx):
        raise RuntimeError("kaboom")

    write_config(home, TAOTOKEN)
    monkeypatch.setattr(command, "STATIC_CHECKS", STATIC_CHECKS[:-1] + (Check("url.base_url", "base_url", boom),))
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert "codexdoctor bug: check url.base_url crashed" in report.verdict_reason
    assert exit_code(report, "never") == 3


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_codexs_own_line_for_an_unreadable_completion_is_api024_when_pasted(home, lang):
    """What Codex 0.171.0 printed for `"response":"ok"` (scripts/crosscheck_shapes.py), pasted into diagnose-error."""
    from codexdoctor.commands.diagnose import run_diagnose

    line = (
        'ERROR: stream disconnected before completion: failed to parse ResponseCompleted: invalid type: string "ok", '
        "expected struct ResponseCompleted"
    )
    report, _ = run_diagnose(
        CheckOptions(
            env={"HOME": str(home)}, home=home, cwd=Path.cwd(), system_config=None, codex_version=(0, 171, 0), lang=lang
        ),
        line,
    )
    assert_no_crash(report)
    assert [f.code for f in report.findings if f.severity.value == "error"] == ["API024"]
    assert "failed to parse ResponseCompleted: …" in report.findings[0].diagnosis
    assert report.verdict is Verdict.CHANNEL
