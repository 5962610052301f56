"""`codexdoctor check` against real loopback servers (the project's simulator): verdict and code within the deadline."""

import socket
import threading
import time
from pathlib import Path

import pytest

from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.model import Verdict
from tests.conftest import write_config
from tests.timing import assert_within

KEY = "sk-sim-live-0123456789abcdef"
FIXTURES = Path(__file__).parents[1] / "fixtures"


def configure(home, base_url, model="sim-model", extra=""):
    write_config(
        home,
        f'model = "{model}"\nmodel_provider = "sim"\n\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{base_url}"\nenv_key = "SIM_API_KEY"\nwire_api = "responses"\n{extra}',
    )


def live(home, env=None, timeout=5.0, canary=True):
    env = {"HOME": str(home), "SIM_API_KEY": KEY, **(env or {})}
    env = {k: v for k, v in env.items() if v is not None}
    started = time.perf_counter()
    report, _ = run_check(
        CheckOptions(
            env=env,
            home=home,
            cwd=Path.cwd(),
            offline=False,
            system_config=None,
            codex_version=(0, 171, 0),
            timeout=timeout,
            canary=canary,
        )
    )
    return report, time.perf_counter() - started


def codes(report):
    """Codes of the errors and warnings (a /v1 warning stays when the network failed before settling it)."""
    return [f.code for f in report.findings if f.code != "URL003" or f.severity.value != "warning"]


def finding(report, code):
    return next(f for f in report.findings if f.code == code)


def test_healthy_provider_is_ok(home, sim_server):
    s = sim_server(api_key=KEY)
    configure(home, s.base_url)
    report, elapsed = live(home)
    assert report.verdict is Verdict.OK, report.findings
    # URL003's /v1 guess is settled by the live canary; the window is unpublished, which the report says (CTX025)
    assert [f.code for f in report.findings] == ["CTX025"]
    assert "room left for a session is unknown" in report.verdict_reason
    canary = next(c for c in report.checks if c.id == "api.canary")
    # The canary is Codex's own first request: ~8.5K tokens, developer items, Codex's tools and fields
    sent = next(r for r in s.records if r.method == "POST")
    assert (
        sent.input_tokens > 8000 and abs(sent.input_tokens - canary.facts["first_request"]) < 0.05 * sent.input_tokens
    )
    assert canary.status.value == "pass" and canary.facts["ttft_ms"] is not None
    assert any("POST http://127.0.0.1" in e and "-> 200" in e for e in canary.evidence)
    # Codex's first request, then (issue 31) its request after a tool call: two POSTs, nothing else
    assert [r.path for r in s.records if r.method == "POST"] == ["/v1/responses", "/v1/responses"]
    turn_two = next(c for c in report.checks if c.id == "api.turn_two")
    assert turn_two.status.value == "pass" and turn_two.facts["item_kinds"] == [
        "function_call",
        "function_call",
        "function_call_output",
        "function_call_output",
    ]
    assert_within(elapsed, 5, "a healthy check")


def test_key_unset_stops_before_any_request(home, sim_server):
    s = sim_server(api_key=KEY)
    configure(home, s.base_url)
    report, _ = live(home, {"SIM_API_KEY": None})
    assert codes(report) == ["ENV001"] and report.verdict is Verdict.CONFIG
    assert s.records == []  # Codex would not send anything either


def test_wrong_key(home, sim_server):
    s = sim_server(api_key=KEY)
    configure(home, s.base_url)
    report, _ = live(home, {"SIM_API_KEY": "sk-wrong-key-99999999"})
    assert report.verdict is Verdict.CHANNEL and codes(report) == ["AUTH001"]
    f = finding(report, "AUTH001")
    assert "Incorrect API key" in f.diagnosis
    assert "sk-wrong-key-99999999" not in f.diagnosis  # the echoed key piece is masked by the server and us
    assert len([r for r in s.records if r.path == "/v1/responses"]) == 1  # 401 is not retried


def test_v1_where_provider_serves_api(home, sim_server):
    s = sim_server(api_key=KEY, prefix="/api")
    configure(home, s.url + "/api/v1")
    report, _ = live(home)
    assert codes(report) == ["API001"] and report.verdict is Verdict.CHANNEL
    assert f'base_url = "{s.url}/api"' in finding(report, "API001").remedy[0]


def test_wrong_model_with_close_id(home, sim_server):
    s = sim_server(api_key=KEY, models=("qwen3-coder-plus", "qwen3-max", "deepseek-v3"))
    configure(home, s.base_url, model="qwen3-coder")
    report, _ = live(home)
    assert codes(report) == ["MODEL001"]
    assert "qwen3-coder-plus" in finding(report, "MODEL001").diagnosis


def test_chat_only_provider(home, sim_server):
    s = sim_server(api_key=KEY, chat_only=True)
    configure(home, s.base_url)
    report, _ = live(home)
    assert codes(report) == ["API002"] and report.verdict is Verdict.CHANNEL


def test_open_models_and_bad_key_is_not_green(home, sim_server):
    s = sim_server(api_key=KEY, models_unauthenticated=True)
    configure(home, s.base_url)
    report, _ = live(home, {"SIM_API_KEY": "sk-revoked-000000000000"})
    assert report.verdict is Verdict.CHANNEL and "AUTH001" in codes(report)
    report, _ = live(home, {"SIM_API_KEY": "sk-revoked-000000000000"}, canary=False)
    assert "AUTH005" in codes(report)
    assert report.verdict is Verdict.INCONCLUSIVE and "--no-canary" in report.verdict_reason


def test_models_404_with_working_model_is_ok(home, sim_server):
    s = sim_server(api_key=KEY, models_route=False)
    configure(home, s.base_url)
    report, _ = live(home)
    assert report.verdict is Verdict.OK and codes(report) == ["CTX025"]


def test_html_landing_page(home, sim_server):
    s = sim_server(api_key=KEY, landing_page=True, prefix="/api")
    configure(home, s.url)
    report, _ = live(home)
    assert codes(report) == ["API001"]
    reach = next(c for c in report.checks if c.id == "net.reach")
    assert reach.facts["html"] is True


def test_html_page_answering_200(home, sim_server):
    s = sim_server(api_key=KEY, landing_page=True)
    configure(home, s.url + "/")  # the root answers POST with HTML 404 and GET with the site
    report, _ = live(home)
    assert report.verdict is Verdict.CHANNEL


def test_hung_server_within_deadline(home, sim_server):
    s = sim_server(hang=True, hang_seconds=20)
    configure(home, s.base_url)
    report, elapsed = live(home, timeout=1.0)
    assert codes(report) == ["NET004"] and report.verdict is Verdict.CHANNEL
    assert_within(elapsed, 1.0, "check against a server that never answers")  # it would hold on for 20 s


def test_refused_port(home):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    configure(home, f"http://127.0.0.1:{port}/v1")
    report, elapsed = live(home, timeout=30)
    assert codes(report) == ["NET002"]
    assert elapsed < 30 / 2, f"{elapsed:.2f} s: a refused connection waited for the deadline"


def test_self_signed_tls(home, sim_server):
    s = sim_server(
        api_key=KEY, tls_certfile=str(FIXTURES / "selfsigned.pem"), tls_keyfile=str(FIXTURES / "selfsigned.key")
    )
    configure(home, s.base_url)
    report, _ = live(home)
    assert codes(report) == ["NET003"]
    assert "self-signed" in finding(report, "NET003").diagnosis
    # This certificate says CA:TRUE (a plain `openssl req -x509`): Codex (rustls) refuses it as the server's own even
    # when SSL_CERT_FILE names it, and loops "Reconnecting... waiting for network" (scripts/crosscheck_wire.py).
    refused, _ = live(home, {"SSL_CERT_FILE": str(FIXTURES / "selfsigned.pem")})
    assert codes(refused) == ["NET003"] and "CA:TRUE" in finding(refused, "NET003").diagnosis
    assert "basicConstraints=critical,CA:FALSE" in finding(refused, "NET003").remedy[0]


@pytest.mark.parametrize("variable", ["SSL_CERT_FILE", "CODEX_CA_CERTIFICATE"])
def test_a_ca_false_self_signed_certificate_named_by_a_codex_variable_is_ok(home, sim_server, variable):
    s = sim_server(
        api_key=KEY,
        tls_certfile=str(FIXTURES / "selfsigned-leaf.pem"),
        tls_keyfile=str(FIXTURES / "selfsigned-leaf.key"),
    )
    configure(home, s.base_url)
    report, _ = live(home, {variable: str(FIXTURES / "selfsigned-leaf.pem")})
    assert report.verdict is Verdict.OK, report.findings


@pytest.mark.parametrize("variable", ["NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE"])
def test_a_ca_variable_codex_ignores_is_named_in_the_remedy(home, sim_server, variable):
    s = sim_server(
        api_key=KEY,
        tls_certfile=str(FIXTURES / "selfsigned-leaf.pem"),
        tls_keyfile=str(FIXTURES / "selfsigned-leaf.key"),
    )
    configure(home, s.base_url)
    path = str(FIXTURES / "selfsigned-leaf.pem")
    report, _ = live(home, {variable: path})
    assert codes(report) == ["NET003"]
    step = finding(report, "NET003").remedy[0]
    assert f"${variable} is set, but Codex ignores it" in step and f"CODEX_CA_CERTIFICATE={path}" in step.replace(
        "'", ""
    )


@pytest.mark.parametrize(
    "variable, used", [("HTTP_PROXY", True), ("http_proxy", True), ("ALL_PROXY", True), ("HTTPS_PROXY", False)]
)
def test_a_dead_proxy_is_the_proxy_not_the_provider(home, sim_server, variable, used):
    """As Codex 0.171: HTTP_PROXY and ALL_PROXY even for 127.0.0.1; HTTPS_PROXY not for an http:// base_url."""
    s = sim_server(api_key=KEY)
    configure(home, s.base_url)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    dead = sock.getsockname()[1]
    sock.close()
    report, _ = live(home, {variable: f"http://127.0.0.1:{dead}"})
    if not used:
        assert report.verdict is Verdict.OK
        return
    assert codes(report) == ["NET007"]
    f = finding(report, "NET007")
    assert f"the proxy in ${variable}" in f.diagnosis and "refuses connections" in f.diagnosis
    assert "Reconnecting... waiting for network" in f.diagnosis
    assert "NO_PROXY=127.0.0.1" in f.remedy[1].replace("'", "")


def test_no_proxy_localhost_does_not_cover_127_0_0_1(home, sim_server):
    s = sim_server(api_key=KEY)
    configure(home, s.base_url)
    report, _ = live(home, {"HTTP_PROXY": "http://127.0.0.1:9", "NO_PROXY": "localhost"})
    assert codes(report) == ["NET007"]
    assert "NO_PROXY=localhost,127.0.0.1" in finding(report, "NET007").remedy[1].replace("'", "")
    bypassed, _ = live(home, {"HTTP_PROXY": "http://127.0.0.1:9", "NO_PROXY": "127.0.0.1"})
    assert bypassed.verdict is Verdict.OK


def test_a_proxy_asking_for_credentials_is_a_proxy_finding(home, sim_server):
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Refuse(BaseHTTPRequestHandler):
        def _refuse(self):
            body = b"<html><body><h1>407 Proxy Authentication Required</h1></body></html>"
            self.send_response(407)
            self.send_header("Proxy-Authenticate", 'Basic realm="corp"')
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _refuse

        def log_message(self, *args):
            pass

    proxy = ThreadingHTTPServer(("127.0.0.1", 0), Refuse)
    threading.Thread(target=proxy.serve_forever, args=(0.05,), daemon=True).start()  # shutdown() waits a poll
    try:
        s = sim_server(api_key=KEY)
        configure(home, s.base_url)
        report, _ = live(home, {"HTTP_PROXY": f"http://127.0.0.1:{proxy.server_address[1]}"})
    finally:
        proxy.shutdown()
    assert "NET007" in codes(report) and report.verdict is Verdict.CHANNEL
    f = finding(report, "NET007")
    assert "asks for credentials (407" in f.diagnosis and "unexpected status 407" in f.diagnosis


def test_wrong_host_tls(home, sim_server):
    s = sim_server(
        api_key=KEY, tls_certfile=str(FIXTURES / "wronghost.pem"), tls_keyfile=str(FIXTURES / "wronghost.key")
    )
    configure(home, s.base_url)
    report, _ = live(home, {"CODEX_CA_CERTIFICATE": str(FIXTURES / "ca.pem")})
    assert codes(report) == ["NET003"]
    assert "different host name" in finding(report, "NET003").diagnosis


def test_unresolvable_host(home):
    configure(home, "https://api.codexdoctor.invalid/v1")
    report, elapsed = live(home, timeout=3)
    assert codes(report) == ["NET001"]
    assert_within(elapsed, 3, "check against a host that does not resolve")


def test_window_smaller_than_codex_assumes(home, sim_server):
    s = sim_server(api_key=KEY, context_window=32768, publish_window=True)
    configure(home, s.base_url)
    report, _ = live(home)
    f = finding(report, "CTX001")
    assert "model_context_window = 32768" in f.remedy[0] and "model_auto_compact_token_limit = 26200" in f.remedy[0]
    s2 = sim_server(api_key=KEY, context_window=4096, publish_window=True)
    configure(home, s2.base_url)
    report, _ = live(home)
    assert "CTX002" in codes(report) and report.verdict is Verdict.CONTEXT


def test_redirect_to_other_origin_never_gets_the_key(home, sim_server):
    target = sim_server(api_key=KEY)
    s = sim_server(redirect_to=target.url)
    configure(home, s.base_url)
    report, _ = live(home)
    assert "NET006" in codes(report)
    assert target.records == []  # the second server never received anything, let alone the key


def test_flaky_provider_is_retried(home, sim_server):
    s = sim_server(api_key=KEY, failure_rate=0.5, failure_kinds=("502",), failure_seed=3)
    configure(home, s.base_url)
    report, _ = live(home)
    canary = next(c for c in report.checks if c.id == "api.canary")
    assert canary.facts["kind"] in ("ok", "server_error")
    assert canary.facts["attempts"] >= 1


def test_check_via_cli_json(home, sim_server, run, monkeypatch):
    import json

    s = sim_server(api_key=KEY)
    configure(home, s.base_url)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    code, out, err = run("check", "--format", "json", "--codex-version", "0.171.0")
    data = json.loads(out)
    assert code == 0 and data["verdict"] == "ok"
    assert KEY not in out


def test_stream_goes_idle_mid_answer(home, sim_server):
    s = sim_server(api_key=KEY, stall_after_tokens=3, stall_seconds=3.0)
    configure(home, s.base_url, extra="stream_idle_timeout_ms = 400\n")
    report, elapsed = live(home, timeout=5)
    assert "API009" in codes(report) and report.verdict is Verdict.CHANNEL
    assert_within(elapsed, 5, "check against a stream that stalls")


def test_reset_mid_request(home, sim_server):
    s = sim_server(api_key=KEY, failure_rate=1.0, failure_kinds=("reset",))
    configure(home, s.base_url)
    report, _ = live(home, timeout=4)
    assert "NET005" in codes(report)
    canary = next(c for c in report.checks if c.id == "api.canary")
    assert canary.facts["attempts"] == 4  # 1 + 3 retries for a transient failure


def test_builtin_openai_uses_the_stored_api_key(home, sim_server, run):
    s = sim_server(api_key=KEY, models=("gpt-5",))
    write_config(home, f'openai_base_url = "{s.base_url}"\nmodel = "gpt-5"\n')
    (home / ".codex" / "auth.json").write_text(f'{{"auth_mode": "apikey", "OPENAI_API_KEY": "{KEY}"}}')
    report, _ = live(home, {"SIM_API_KEY": None})
    assert report.verdict is Verdict.OK, report.findings
    assert any(r.auth for r in s.records if r.path == "/v1/responses")  # the stored key was sent, as Codex does
    code, out, err = run("check", "--verbose", "--codex-version", "0.171.0")
    assert KEY not in out and KEY[-12:] not in out


@pytest.mark.parametrize(
    "auth_json", [None, '{"auth_mode": "chatgpt", "OPENAI_API_KEY": null, "tokens": {"id_token": "x"}}']
)
def test_builtin_openai_without_api_key_sends_nothing(home, sim_server, auth_json):
    s = sim_server(api_key=KEY)
    write_config(home, f'openai_base_url = "{s.base_url}"\n')
    if auth_json:
        (home / ".codex" / "auth.json").write_text(auth_json)
    report, _ = live(home, {"SIM_API_KEY": None})
    assert s.records == []
    assert any("Live checks skipped" in n for n in report.notes)


def test_amazon_bedrock_is_not_sent_unsigned(home, sim_server):
    # Codex signs every request to the built-in amazon-bedrock with AWS SigV4 (the real 0.171.0 sent a signed POST to
    # a base_url set in its table); codexdoctor signs nothing, so an unsigned request would test nothing Codex does.
    s = sim_server(api_key=KEY)
    write_config(
        home,
        f'model = "gpt-5.5"\nmodel_provider = "amazon-bedrock"\n[model_providers.amazon-bedrock]\nbase_url = "{s.base_url}"\n',
    )
    report, _ = live(home, {"AWS_REGION": "us-east-1"})
    assert s.records == []
    assert report.verdict is Verdict.INCONCLUSIVE, report.findings
    assert any("AWS SigV4" in n for n in report.notes)


def test_http_proxy_is_honoured_reported_and_bypassed(home, sim_server):
    proxy = sim_server(api_key=KEY)  # serves absolute-form requests itself, like a forward proxy to the provider
    dead = socket.socket()
    dead.bind(("127.0.0.1", 0))
    port = dead.getsockname()[1]
    dead.close()
    configure(home, f"http://127.0.0.1:{port}/v1")  # nothing listens here: only the proxy can answer
    report, _ = live(home, {"HTTP_PROXY": proxy.url})
    assert report.verdict is Verdict.OK, report.findings
    assert proxy.records and all(r.via_proxy for r in proxy.records)
    assert report.environment["proxy"] is True
    assert any("proxy" in n for n in report.notes)
    bypass, _ = live(home, {"HTTP_PROXY": proxy.url, "NO_PROXY": "127.0.0.1"})
    assert "NET002" in codes(bypass)  # NO_PROXY: straight to the dead port


def test_slow_provider_prints_still_waiting(home, sim_server):
    s = sim_server(hang=True, hang_seconds=10)
    configure(home, s.base_url)
    lines = []
    report, _ = run_check(
        CheckOptions(
            env={"HOME": str(home), "SIM_API_KEY": KEY},
            home=home,
            cwd=Path.cwd(),
            system_config=None,
            codex_version=(0, 171, 0),
            timeout=2.6,
            extra={"progress": lambda msg, keep=False: lines.append((msg.text("en"), msg.text("zh"), keep))},
        )
    )
    # In the run's language, on the line a terminal rewrites in place (not kept): commands/check.py shows it.
    assert lines and lines[0][0].startswith("still waiting for 127.0.0.1 (2 s of 2.6 s)") and not lines[0][2]
    assert lines[0][1].startswith("仍在等待 127.0.0.1（已等 2 秒，最多 2.6 秒）"), lines[0][1]
    assert "NET004" in codes(report)


def test_chat_wire_on_an_older_codex_uses_chat_completions(home, sim_server):
    s = sim_server(api_key=KEY, chat_only=True)
    configure(home, s.base_url, extra="")
    path = home / ".codex" / "config.toml"
    path.write_text(path.read_text().replace('wire_api = "responses"', 'wire_api = "chat"'))
    report, _ = run_check(
        CheckOptions(
            env={"HOME": str(home), "SIM_API_KEY": KEY},
            home=home,
            cwd=Path.cwd(),
            system_config=None,
            codex_version=(0, 90, 0),
            timeout=5,
        )
    )
    assert [f.code for f in report.findings] == ["CFG012"] and report.verdict is Verdict.OK
    assert [r.path for r in s.records if r.method == "POST"] == ["/v1/chat/completions"]
