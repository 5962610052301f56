"""Every simulator fault through real sockets."""

import json
import time

import httpx
import pytest

KEY = "sk-sim-0123456789abcdef"
AUTH = {"Authorization": f"Bearer {KEY}"}


def post(url, body, headers=AUTH, timeout=10.0):
    return httpx.post(url, json=body, headers=headers, timeout=timeout)


def sse_events(text):
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ") and line != "data: [DONE]"]


def test_responses_stream_grammar_and_usage(sim_server):
    s = sim_server(api_key=KEY)
    r = post(s.base_url + "/responses", {"model": "sim-model", "input": "hello", "stream": True})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    kinds = [e["type"] for e in sse_events(r.text)]
    assert kinds[0] == "response.created" and kinds[-1] == "response.completed"
    assert "response.output_text.delta" in kinds and "[DONE]" not in r.text
    usage = sse_events(r.text)[-1]["response"]["usage"]
    assert usage["input_tokens"] > 0 and usage["output_tokens"] == 24


def test_responses_non_streaming_and_output_budget(sim_server):
    s = sim_server()
    r = post(s.base_url + "/responses", {"model": "sim-model", "input": "hi", "max_output_tokens": 5})
    body = r.json()
    assert body["status"] == "completed" and body["usage"]["output_tokens"] == 5
    assert body["output"][0]["content"][0]["text"]


def test_deterministic_output(sim_server):
    s = sim_server()
    a = post(s.base_url + "/responses", {"model": "sim-model", "input": "x"}).json()["output"][0]["content"][0]["text"]
    b = post(s.base_url + "/responses", {"model": "sim-model", "input": "y"}).json()["output"][0]["content"][0]["text"]
    assert a == b


def test_chat_completions_stream_to_done(sim_server):
    s = sim_server()
    r = post(
        s.base_url + "/chat/completions",
        {"model": "sim-model", "messages": [{"role": "user", "content": "hi"}], "stream": True},
    )
    assert r.text.rstrip().endswith("data: [DONE]")
    events = sse_events(r.text)
    assert events[-1]["choices"][0]["finish_reason"] == "stop"


def test_key_required(sim_server):
    s = sim_server(api_key=KEY)
    missing = post(s.base_url + "/responses", {"model": "sim-model", "input": "x"}, headers={})
    assert missing.status_code == 401 and "didn't provide an API key" in missing.text
    wrong = post(
        s.base_url + "/responses",
        {"model": "sim-model", "input": "x"},
        headers={"Authorization": "Bearer sk-wrong-000000"},
    )
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "invalid_api_key"
    assert s.records[-1].auth.startswith("sha256:") and KEY not in repr(s.records)


def test_models_auth_and_unauthenticated(sim_server):
    s = sim_server(api_key=KEY, models=("a-1", "b-2"))
    assert httpx.get(s.base_url + "/models").status_code == 401
    assert [m["id"] for m in httpx.get(s.base_url + "/models", headers=AUTH).json()["data"]] == ["a-1", "b-2"]
    open_sim = sim_server(api_key=KEY, models_unauthenticated=True)
    assert httpx.get(open_sim.base_url + "/models").status_code == 200


@pytest.mark.parametrize(
    "style,status,marker",
    [
        ("openai", 400, '"code": "context_length_exceeded"'),
        ("vllm", 400, "maximum context length is 50 tokens"),
        ("llamacpp", 400, "exceed_context_size_error"),
        ("litellm", 400, "ContextWindowExceededError"),
    ],
)
def test_context_window_error_styles(sim_server, style, status, marker):
    s = sim_server(context_window=50, error_style=style)
    assert post(s.base_url + "/responses", {"model": "sim-model", "input": "short"}).status_code == 200
    r = post(s.base_url + "/responses", {"model": "sim-model", "input": "word " * 200})
    assert r.status_code == status and marker in r.text


def test_ollama_style_truncates_silently(sim_server):
    s = sim_server(context_window=50, error_style="ollama")
    r = post(s.base_url + "/responses", {"model": "sim-model", "input": "word " * 200})
    assert r.status_code == 200
    assert r.json()["usage"]["input_tokens"] == 50
    assert s.records[-1].input_tokens > 150 and s.records[-1].outcome == "truncated"


@pytest.mark.parametrize(
    "style,status,marker",
    [
        ("openai", 404, "model_not_found"),
        ("ollama", 404, "try pulling it first"),
        ("litellm", 400, "Invalid model name"),
        ("vllm", 404, "does not exist"),
    ],
)
def test_unknown_model(sim_server, style, status, marker):
    s = sim_server(error_style=style)
    r = post(s.base_url + "/responses", {"model": "gpt-nope", "input": "x"})
    assert r.status_code == status and marker in r.text


def test_latency_grows_with_prompt(sim_server):
    s = sim_server(latency_ms=0, latency_per_1k_ms=400)
    t0 = time.perf_counter()
    post(s.base_url + "/responses", {"model": "sim-model", "input": "word " * 1000})
    assert time.perf_counter() - t0 >= 0.35  # ~1000 tokens -> >= 0.4 s by construction


def test_stall_mid_stream(sim_server):
    s = sim_server(stall_after_tokens=3, stall_seconds=0.5)
    gaps, last = [], None
    with httpx.stream(
        "POST", s.base_url + "/responses", json={"model": "sim-model", "input": "x", "stream": True}
    ) as r:
        for line in r.iter_lines():
            now = time.perf_counter()
            if line.startswith("data: "):
                if last is not None:
                    gaps.append(now - last)
                last = now
    assert max(gaps) >= 0.45


@pytest.mark.parametrize("kind", ["502", "reset", "timeout"])
def test_failure_kinds(sim_server, kind):
    s = sim_server(failure_rate=1.0, failure_kinds=(kind,), hang_seconds=2.0)
    body = {"model": "sim-model", "input": "x"}
    if kind == "502":
        r = post(s.base_url + "/responses", body)
        assert r.status_code == 502 and "<html>" in r.text
    elif kind == "reset":
        with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError, httpx.ConnectError)):
            post(s.base_url + "/responses", body)
    else:
        with pytest.raises(httpx.ReadTimeout):
            post(s.base_url + "/responses", body, timeout=0.3)


def test_failure_rate_is_partial_and_seeded(sim_server):
    s = sim_server(failure_rate=0.5, failure_kinds=("502",), failure_seed=7)
    statuses = [post(s.base_url + "/responses", {"model": "sim-model", "input": "x"}).status_code for _ in range(20)]
    assert 0 < statuses.count(502) < 20


def test_chat_only(sim_server):
    s = sim_server(chat_only=True)
    assert post(s.base_url + "/responses", {"model": "sim-model", "input": "x"}).status_code == 404
    assert post(s.base_url + "/chat/completions", {"model": "sim-model", "messages": []}).status_code == 200


def test_landing_page_and_prefix(sim_server):
    s = sim_server(landing_page=True, prefix="/api")
    root = httpx.get(s.url + "/")
    assert root.status_code == 200 and "<title>" in root.text
    assert post(s.url + "/api/responses", {"model": "sim-model", "input": "x"}).status_code == 200
    wrong = post(s.url + "/api/v1/responses", {"model": "sim-model", "input": "x"})
    assert wrong.status_code == 404 and "text/html" in wrong.headers["content-type"]


def test_publish_window(sim_server):
    s = sim_server(context_window=4096, publish_window=True)
    assert httpx.get(s.url + "/props").json()["default_generation_settings"]["n_ctx"] == 4096
    assert httpx.get(s.base_url + "/models").json()["data"][0]["max_model_len"] == 4096


def test_hang_and_redirect(sim_server):
    hung = sim_server(hang=True, hang_seconds=2.0)
    with pytest.raises(httpx.ReadTimeout):
        httpx.get(hung.base_url + "/models", timeout=0.3)
    target = sim_server()
    red = sim_server(redirect_to=target.url)
    r = httpx.get(red.base_url + "/models")
    assert r.status_code == 307 and r.headers["location"].startswith(target.url)


def test_prefix_cache_reports_cached_tokens(sim_server):
    s = sim_server(prefix_cache=True)
    prefix = "A stable preamble that every turn repeats. " * 60
    post(s.base_url + "/responses", {"model": "sim-model", "input": prefix + "first"})
    second = post(s.base_url + "/responses", {"model": "sim-model", "input": prefix + "second"}).json()
    assert second["usage"]["input_tokens_details"]["cached_tokens"] >= 256


@pytest.mark.simulator
def test_cli_sim_prints_snippet(home, tmp_path):
    import signal
    import subprocess
    import sys

    # A suite started in the background (`pytest &` from a script) has SIGINT ignored, and a child would inherit that:
    # Python then never turns Ctrl-C into KeyboardInterrupt. The child gets the default disposition back.
    proc = subprocess.Popen(
        [sys.executable, "-m", "codexdoctor", "sim", "--port", "0", "--api-key", "sk-sim-abcdef123"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        first = proc.stdout.readline()
        assert first.startswith("codexdoctor sim: serving http://127.0.0.1:")
        url = first.split()[3]
        assert httpx.get(url + "/models", headers={"Authorization": "Bearer sk-sim-abcdef123"}).status_code == 200
        printed = [first]
        while not printed[-1].startswith("export SIM_API_KEY"):  # Ctrl-C once the whole snippet is out
            printed.append(proc.stdout.readline())
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
    out, err = "".join(printed) + proc.stdout.read(), proc.stderr.read()
    assert "[model_providers.sim]" in out and "stopped" in err
    assert proc.returncode == 0 and "Traceback" not in err


@pytest.mark.simulator
def test_cli_sim_speaks_chinese_with_lang_zh(home, tmp_path):
    """Issue 29: `sim`'s own lines were English in a zh run."""
    import signal
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "codexdoctor", "sim", "--port", "0", "--lang", "zh"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        printed = [proc.stdout.readline()]
        while not printed[-1].startswith("export SIM_API_KEY"):
            printed.append(proc.stdout.readline())
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
    out, err = "".join(printed), proc.stderr.read()
    assert printed[0].startswith("codexdoctor sim：正在 http://127.0.0.1:") and "粘贴到" in out
    assert "模拟器自己的密钥" in out and "已停止" in err and "serving" not in out
