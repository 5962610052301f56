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
        while printed[-1] and "SIM_API_KEY" not in printed[-1]:  # Ctrl-C once the whole snippet is out
            printed.append(proc.stdout.readline())
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
    out, err = "".join(printed) + proc.stdout.read(), proc.stderr.read()
    assert "[model_providers.sim]" in out and "stopped" in err
    assert "--api-key" in out and "sk-sim-abcdef123" not in out  # the key the user gave is never echoed
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
    assert "模拟器不检查密钥" in out and "已停止" in err and "serving" not in out


@pytest.mark.simulator
def test_cli_sim_single_tool_result_refuses_a_second_tool_output(home, tmp_path):
    """`codexdoctor sim --single-tool-result --tool-calls 2`: the bridge that keeps one tool result per round, for
    trying Codex (or check) against it by hand (issue 38 item 4)."""
    import signal
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "codexdoctor", "sim", "--port", "0", "--single-tool-result", "--tool-calls", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        url = proc.stdout.readline().split()[3]
        asked = httpx.post(
            url + "/responses", json={"model": "sim-model", "input": "run it", "stream": True}, timeout=30
        )
        calls = [e["item"] for e in sse_events(asked.text) if e["type"] == "response.output_item.done"]
        assert [c["call_id"] for c in calls] == ["call_sim_1", "call_sim_1_2"]
        outputs = [{"type": "function_call_output", "call_id": c["call_id"], "output": "hi"} for c in calls]
        one = {"model": "sim-model", "input": [*calls, outputs[0]], "stream": True}
        both = {"model": "sim-model", "input": [*calls, *outputs], "stream": True}
        assert httpx.post(url + "/responses", json=one, timeout=30).status_code == 200
        refused = httpx.post(url + "/responses", json=both, timeout=30)
        assert refused.status_code == 400 and "call_sim_1_2" in refused.json()["error"]["message"]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
    assert proc.returncode == 0


# Every way a stream ends (issue 38): the knobs that reproduce what Codex 0.171 judges (docs/codex-behaviour.md).


def stream(s, body=None, headers=AUTH):
    body = body or {"model": "sim-model", "input": "hello", "stream": True}
    r = post(s.base_url + "/responses", body, headers=headers)
    return r, [e["type"] for e in sse_events(r.text)]


@pytest.mark.parametrize("reason", ["max_output_tokens", "content_filter"])
def test_incomplete_sends_the_partial_text_then_the_reason(sim_server, reason):
    s = sim_server(api_key=KEY, stream_fault="incomplete", incomplete_reason=reason)
    r, kinds = stream(s)
    assert r.status_code == 200
    assert kinds[-1] == "response.incomplete" and "response.completed" not in kinds
    assert kinds.count("response.output_text.delta") == 24
    last = sse_events(r.text)[-1]["response"]
    assert last["status"] == "incomplete" and last["incomplete_details"] == {"reason": reason}
    assert last["usage"]["output_tokens"] == 24 and last["output"][0]["status"] == "incomplete"


@pytest.mark.parametrize("fault,kind", [("response_failed", "response.failed"), ("error_event", "error")])
def test_failed_and_error_events_carry_the_configured_code(sim_server, fault, kind):
    s = sim_server(api_key=KEY, stream_fault=fault, fault_code="insufficient_quota", fault_message="No credit left.")
    r, kinds = stream(s)
    assert kinds == ["response.created", kind]
    last = sse_events(r.text)[-1]
    error = last["response"]["error"] if kind == "response.failed" else last
    assert error["code"] == "insufficient_quota" and error["message"] == "No credit left."


def test_endings_without_a_completion(sim_server):
    s = sim_server(api_key=KEY, stream_fault="no_terminal")
    r, kinds = stream(s)
    assert kinds[-1] == "response.output_item.done" and "response.completed" not in kinds
    s.reconfigure(stream_fault="done_only")
    r, kinds = stream(s)
    assert r.text.rstrip().endswith("data: [DONE]") and "response.completed" not in kinds


def test_endings_that_complete(sim_server):
    s = sim_server(api_key=KEY, stream_fault="trailing_done")
    r, kinds = stream(s)
    assert kinds[-1] == "response.completed" and r.text.rstrip().endswith("data: [DONE]")
    s.reconfigure(stream_fault="error_then_completed", fault_code="server_error")
    r, kinds = stream(s)
    assert kinds.index("error") == 2 and kinds[-1] == "response.completed"


def test_the_endings_leave_chat_completions_alone(sim_server):
    s = sim_server(api_key=KEY, stream_fault="incomplete")
    body = {"model": "sim-model", "messages": [{"role": "user", "content": "hi"}], "stream": True}
    r = post(s.base_url + "/chat/completions", body)
    assert r.text.rstrip().endswith("data: [DONE]") and sse_events(r.text)[-1]["choices"][0]["finish_reason"] == "stop"


def test_parallel_tool_calls_and_a_bridge_that_keeps_one_result(sim_server):
    s = sim_server(api_key=KEY, ask_tool_call="echo hi", tool_calls=3, turn_two_fault="single_tool_result")
    r, _ = stream(s)
    calls = [e["item"] for e in sse_events(r.text) if e["type"] == "response.output_item.done"]
    assert [c["call_id"] for c in calls] == ["call_sim_1", "call_sim_1_2", "call_sim_1_3"]
    assert [c["output_index"] for c in sse_events(r.text) if c["type"] == "response.output_item.done"] == [0, 1, 2]
    assert len(sse_events(r.text)[-1]["response"]["output"]) == 3
    turn_two = [{"type": "message", "role": "user", "content": "run echo hi"}, *calls]
    one = [*turn_two, {"type": "function_call_output", "call_id": "call_sim_1", "output": "hi"}]
    ok, _ = stream(s, {"model": "sim-model", "input": one, "stream": True})
    assert ok.status_code == 200
    both = [*one, {"type": "function_call_output", "call_id": "call_sim_1_2", "output": "hi"}]
    refused = post(s.base_url + "/responses", {"model": "sim-model", "input": both, "stream": True})
    assert refused.status_code == 400
    assert "did not have response messages: call_sim_1_2" in refused.json()["error"]["message"]


def test_quota_exhausted_as_new_api_and_openai_word_it(sim_server):
    s = sim_server(api_key=KEY, quota_exhausted="newapi", request_id_in_text=True)
    r = post(s.base_url + "/responses", {"model": "sim-model", "input": "x"})
    message = r.json()["error"]["message"]
    assert r.status_code == 401 and message.startswith("该令牌额度已用尽 TokenStatusExhausted[sk-sim***def]")
    assert "(request id: req_sim_" in message and KEY not in r.text
    s.reconfigure(quota_exhausted="openai")
    r = post(s.base_url + "/responses", {"model": "sim-model", "input": "x"})
    assert r.status_code == 429 and r.json()["error"]["code"] == "insufficient_quota"
    wrong = post(s.base_url + "/responses", {"model": "sim-model", "input": "x"}, headers={"Authorization": "Bearer x"})
    assert wrong.json()["error"]["code"] == "invalid_api_key"  # a wrong key is still a wrong key


def test_tpm_limit_refuses_only_a_request_over_it(sim_server):
    s = sim_server(api_key=KEY, tpm_limit=500)
    assert post(s.base_url + "/responses", {"model": "sim-model", "input": "short"}).status_code == 200
    r = post(s.base_url + "/responses", {"model": "sim-model", "input": "word " * 1000})
    error = r.json()["error"]
    assert r.status_code == 429 and error["code"] == "rate_limit_exceeded" and error["type"] == "tokens"
    requested = s.records[-1].input_tokens
    assert f"on tokens per min (TPM): Limit 500, Requested {requested}." in error["message"] and requested > 500


def _serve(*args):
    """`codexdoctor sim` with these options, in a child process: its base URL and the process (Ctrl-C to stop)."""
    import signal
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "codexdoctor", "sim", "--port", "0", "--api-key", KEY, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    first = proc.stdout.readline()
    assert first.startswith("codexdoctor sim: serving http://127.0.0.1:"), first + proc.stderr.read()
    return first.split()[3], proc


def _stop(proc):
    import signal

    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=10)
    assert "Traceback" not in proc.stderr.read()


@pytest.mark.simulator
def test_cli_sim_ends_streams_as_told(home):
    """Issue 38: the stream endings are command-line options of `codexdoctor sim` too."""
    url, proc = _serve(
        "--stream-end",
        "response_failed",
        "--error-code",
        "rate_limit_exceeded",
        "--error-message",
        "Rate limit reached. Please try again in 1s.",
    )
    try:
        r = post(url + "/responses", {"model": "sim-model", "input": "hi", "stream": True})
        last = sse_events(r.text)[-1]
        assert last["type"] == "response.failed"
        assert last["response"]["error"] == {
            "code": "rate_limit_exceeded",
            "message": "Rate limit reached. Please try again in 1s.",
        }
    finally:
        _stop(proc)
    url, proc = _serve("--stream-end", "incomplete", "--incomplete-reason", "content_filter", "--output-tokens", "8")
    try:
        events = sse_events(post(url + "/responses", {"model": "sim-model", "input": "hi", "stream": True}).text)
        assert [e["type"] for e in events].count("response.output_text.delta") == 8
        assert events[-1]["type"] == "response.incomplete"
        assert events[-1]["response"]["incomplete_details"] == {"reason": "content_filter"}
    finally:
        _stop(proc)


def test_cli_sim_offers_every_stream_ending(run):
    from codexdoctor.cli.local import STREAM_ENDS
    from codexdoctor.sim.endings import ENDINGS

    assert set(STREAM_ENDS) == {*ENDINGS, "response_failed", "error_event"}
    code, _, err = run("sim", "--stream-end", "sideways")
    assert code == 2 and "sideways" in err
