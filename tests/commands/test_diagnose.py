"""`diagnose-error` on what users really paste: whole stderr of the real Codex 0.171.0, and each server family's words."""

import re
from pathlib import Path

import pytest

from codexdoctor.checks.diagnose import normalise, pick
from codexdoctor.commands.diagnose import run_diagnose
from codexdoctor.commands.options import CheckOptions

STDERR = Path(__file__).parents[1] / "fixtures" / "codex-stderr"


def diagnose(home, text, lang="en"):
    report, _ = run_diagnose(
        CheckOptions(
            env={"HOME": str(home)}, home=home, cwd=Path.cwd(), system_config=None, codex_version=(0, 171, 0), lang=lang
        ),
        text,
    )
    return report


# Whole stderr files of the real Codex CLI 0.171.0 against the simulator (tests/fixtures/codex-stderr, made with the
# collector described in docs/sessions.md): verdict and code.
@pytest.mark.parametrize(
    "name,verdict,code",
    [
        ("context-openai", "context", "CTX021"),
        ("context-vllm", "context", "CTX021"),
        ("context-litellm", "context", "CTX021"),
        ("model-not-found-openai", "channel", "MODEL001"),
        ("model-not-found-ollama", "channel", "MODEL001"),
        ("wrong-key", "channel", "AUTH001"),
        ("doubled-v1", "channel", "API016"),
        ("server-502", "channel", "API005"),
        ("stream-closed", "channel", "API008"),  # Codex could not decode the body: a transport fault
        ("error-event", "inconclusive", "CTX032"),  # issue 39: "stream closed" alone decides nothing
        ("html-page", "channel", "API016"),
        ("idle", "inconclusive", "CTX032"),
    ],
)
def test_real_codex_stderr(home, name, verdict, code):
    report = diagnose(home, (STDERR / f"{name}.txt").read_text())
    assert report.verdict.value == verdict, report.findings
    assert [f.code for f in report.findings][:1] == [code]


# Verbatim lines: Codex's own shapes with their decoration, and each server family's context words.
LINES = [
    (
        "ERROR: unexpected status 401 Unauthorized: Incorrect API key provided: sk-*****6789. You can find your API key "
        "at https://sim.invalid/keys., url: http://127.0.0.1:43973/v1/responses",
        "AUTH001",
    ),
    ("unexpected status 401 Unauthorized", "AUTH001"),
    ("unexpected status 401 Unauthorized, url: https://gw.example/v1/responses", "AUTH001"),
    ("⚠️ stream error: unexpected status 502 Bad Gateway: upstream connect error; retrying 1/5 in 212ms…", "API005"),
    ("ERROR: Reconnecting... 2/5 (unexpected status 503 Service Unavailable: overloaded)", "API005"),
    (
        "ERROR: unexpected status 404 Not Found: Not Found: /v1/v1/responses, url: http://127.0.0.1:34631/v1/v1/responses",
        "API016",
    ),
    ("ERROR: Missing environment variable: `SIM_API_KEY`.", "ENV001"),
    (
        "ERROR: Codex ran out of room in the model's context window. Start a new thread or clear earlier history before "
        "retrying.",
        "CTX021",
    ),
    (
        'ERROR: {"error": {"message": "Your input exceeds the context window of this model. Please adjust your input and '
        'try again.", "type": "invalid_request_error", "param": "input", "code": "context_length_exceeded"}}',
        "CTX021",
    ),
    (
        'ERROR: {"object": "error", "message": "This model\'s maximum context length is 6000 tokens. However, your request '
        'has 8481 input tokens. Please reduce the length of the input messages. (parameter=input_tokens, value=8481)", '
        '"type": "BadRequestError", "param": null, "code": 400}',
        "CTX021",
    ),
    (
        'ERROR: {"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it", '
        '"type": "exceed_context_size_error", "n_prompt_tokens": 8517, "n_ctx": 6000}}',
        "CTX021",
    ),
    (
        'ERROR: {"error":{"message":"litellm.ContextWindowExceededError: litellm.BadRequestError: ContextWindowExceededError:'
        ' OpenAIException - request (20145 tokens) exceeds the available context size (8192 tokens), try increasing it",'
        '"type":null,"param":null,"code":"400"}}',
        "CTX021",
    ),
    ('{"error":"prompt too long; exceeded max context length by 1204 tokens"}', "CTX021"),  # Ollama
    ("ERROR: The model `gpt-5-codx` does not exist or you do not have access to it.", "MODEL001"),
    (
        'ERROR: {"error": {"message": "Unsupported parameter: \'reasoning\' is not supported with this model.", '
        '"type": "invalid_request_error", "param": "reasoning", "code": "unsupported_parameter"}}',
        "API010",
    ),
    ("ERROR: stream disconnected before completion: idle timeout waiting for SSE", "CTX032"),
    ("ERROR: stream disconnected before completion: stream closed before response.completed", "CTX032"),
    ("exceeded retry limit, last status: 429 Too Many Requests", "CTX032"),
    (
        'unexpected status 429 Too Many Requests: {"error":{"code":"insufficient_quota","message":"You exceeded your '
        'current quota"}}',
        "API004",
    ),
    (
        "2026-12-01T03:16:00.875765Z ERROR codex_core::client: unexpected status 403 Forbidden: "
        "unsupported_country_region_territory",
        "AUTH004",
    ),
    # Codex 0.171's own words for how a stream ended (docs/codex-behaviour.md, "How a stream ends"; issue 38)
    ("ERROR: Incomplete response returned, reason: max_output_tokens", "API026"),
    (
        "ERROR: stream disconnected before completion: Incomplete response returned, reason: content_filter",
        "API012",
    ),
    ("ERROR: Quota exceeded. Check your plan and billing details.", "API004"),
    ("ERROR: To use Codex with your ChatGPT plan, upgrade to Plus: https://chatgpt.com/explore/plus.", "API027"),
    ("ERROR: Selected model is at capacity. Please try a different model.", "API029"),
    ("ERROR: rate limit exceeded: Rate limit reached for requests. Please try again in 1s.", "API030"),
    # the provider's own message from a response.failed, which Codex shows after retrying it
    ("ERROR: stream disconnected before completion: The upstream model crashed while generating.", "API007"),
    (
        "ERROR: stream disconnected before completion: Transport error: network error: error decoding response body",
        "API008",
    ),
    # a new-api/one-api 401 whose body says the key's quota is used up: not a wrong key
    (
        "ERROR: unexpected status 401 Unauthorized: 该令牌额度已用尽 TokenStatusExhausted[sk-cro***def] "
        "(request id: req_sim_000001), url: http://127.0.0.1:40000/v1/responses",
        "AUTH007",
    ),
]


@pytest.mark.parametrize("text,code", LINES)
def test_verbatim_lines(home, text, code):
    report = diagnose(home, text)
    assert [f.code for f in report.findings][:1] == [code], [f.code for f in report.findings]


def test_decoration_is_read_past():
    assert (
        normalise("\x1b[31mERROR:\x1b[0m unexpected status 401 Unauthorized; retrying 3/5 in 1.6s…")
        == "unexpected status 401 Unauthorized"
    )
    assert (
        normalise("⚠️ stream error: stream disconnected before completion: x")
        == "stream disconnected before completion: x"
    )


def test_whole_stderr_picks_codexs_final_error_and_counts_retries():
    text = (STDERR / "server-502.txt").read_text()
    kind, _, line, retries = pick(text)
    assert kind == "http" and "502" in line and retries >= 1


def test_context_is_not_a_word_match(home):
    report = diagnose(home, "warning: model_context_window is not set; using the default context for this model")
    assert report.verdict.value == "inconclusive"


def test_never_invents_a_url_or_status(home):
    report = diagnose(home, '{"error": {"message": "Invalid role developer", "type": "invalid_request_error"}}')
    f = report.findings[0]
    assert f.diagnosis.startswith("The request answered an error") and "http" not in f.diagnosis
    assert "400" not in f.diagnosis and "POST" not in f.diagnosis


def test_server_window_named_and_too_small_window_not_recommended(home):
    vllm = [t for t, _ in LINES if "parameter=input_tokens" in t][0]
    f = diagnose(home, vllm).findings[0]
    assert "8,481 tokens" in f.diagnosis and "6,000 tokens" in f.diagnosis
    assert "cannot hold Codex's first request" in f.remedy[1] and "model_context_window = 6000" not in f.remedy[1]
    big = vllm.replace("6000", "60000").replace("8481", "64000")
    assert "model_context_window = 60000" in diagnose(home, big).findings[0].remedy[1]


def test_doubled_v1_names_the_fixed_base_url(home):
    f = diagnose(home, LINES[5][0]).findings[0]
    assert "/v1 twice" in f.diagnosis and 'base_url = "http://127.0.0.1:34631/v1"' in f.remedy[0]


def test_html_body_is_summarised(home):
    from codexdoctor.net.classify import summarize

    assert summarize("<!DOCTYPE html><html><head><title>502 Bad Gateway</title>") == "an HTML page (502 Bad Gateway)"


def test_chinese_diagnosis_has_no_english_fallback(home):
    report = diagnose(home, LINES[9][0], lang="zh")
    assert "提供方的报错说请求" in report.findings[0].diagnosis


def test_file_option_and_fifo_refused(home, run, tmp_path):
    import os

    path = tmp_path / "stderr.txt"
    path.write_text((STDERR / "wrong-key.txt").read_text())
    rc, out, _ = run("diagnose-error", "--file", str(path), "--codex-version", "0.171.0")
    assert rc == 1 and "AUTH001" in out
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    rc, out, err = run("diagnose-error", "--file", str(fifo))
    assert rc == 2 and "not a regular file" in " ".join((out + err).split())  # wrapped to the terminal


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_new_api_no_channel_is_the_model_not_an_outage(home, lang):
    """one-api / new-api answer 503 "当前分组 X 下对于模型 Y 无可用渠道" (middleware/distributor.go): it was read as a
    provider outage (API005: wait and retry). It is the gateway saying no channel serves that model for the key's
    group, so the finding is MODEL001 with the two ways out; and the remedy names the config file, not "default",
    when the model is Codex's default."""
    paste = (
        "ERROR: unexpected status 503 Service Unavailable: 当前分组 default 下对于模型 gpt-5-codex 无可用渠道 "
        "(request id: 20261201093011123), url: https://api.example.cn/v1/responses"
    )
    report = diagnose(home, paste, lang)
    assert report.verdict.value == "channel" and [f.code for f in report.findings] == ["MODEL001"]
    remedy = " ".join(report.findings[0].remedy)
    assert "~/.codex/config.toml" in remedy and " default;" not in remedy and "在 default 中" not in remedy
    assert ("ask the gateway's admin" in remedy) if lang == "en" else ("联系网关管理员" in remedy)


@pytest.mark.parametrize(
    "body,window",
    [
        (
            '{"error":{"message":"Invalid request: Your request exceeded model token limit: 262144 (requested: 291351)",'
            '"type":"invalid_request_error"}}',
            262144,
        ),  # Moonshot Kimi
        (
            '{"error":{"message":"<400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 30720]",'
            '"type":"invalid_request_error","code":"invalid_parameter_error"}}',
            30720,
        ),  # Alibaba DashScope
        ('{"error":{"message":"invalid params, context window exceeds limit (2013)"}}', None),  # MiniMax
        (
            '{"error":{"code":"1261","message":"Prompt exceeds max length","type":"model_context_window_exceeded"}}',
            None,
        ),  # z.ai
        (
            '{"code":20015,"message":"length of prompt_tokens (40960) must be less than max_seq_len (32768).","data":null}',
            32768,
        ),  # hosted inference APIs
    ],
)
def test_chinese_providers_overflow_is_context(home, body, window):
    """These overflows were read as a generic 400 (API010: the channel); each provider names the overflow its own way.
    Where the body states the window, it is the number the report gives."""
    report = diagnose(
        home, f"ERROR: unexpected status 400 Bad Request: {body}, url: https://api.example.cn/v1/responses"
    )
    assert report.verdict.value == "context" and report.findings[0].code == "CTX021", report.findings
    assert report.checks[0].facts.get("server_window") == window


@pytest.mark.parametrize(
    "text,code,words",
    [
        # Seen in Codex 0.171.0's output in this project's runs (docs/codex-behaviour.md): DNS in a loopback-only namespace,
        # a reset mid-stream; the others are reqwest's, rustls' and the OS's fixed wording inside Codex's message.
        (
            "stream disconnected before completion: failed to lookup address information: Try again",
            "NET001",
            "failed to lookup address information",
        ),
        (
            "error sending request for url (http://10.0.0.5:8000/v1/responses): client error (Connect): tcp connect error: "
            "Connection refused (os error 111)",
            "NET002",
            "http://10.0.0.5:8000/v1/responses",
        ),
        (
            "stream disconnected before completion: error sending request for url (https://gw.example/v1/responses): "
            "invalid peer certificate: UnknownIssuer",
            "NET003",
            "gw.example",
        ),
        (
            "stream disconnected before completion: error sending request for url (https://gw.example/v1/responses): "
            "connection closed before message completed",
            "NET005",
            "connection closed before message completed",
        ),
    ],
)
def test_transport_failures_in_codexs_words_are_the_net_findings(home, text, code, words):
    report = diagnose(home, text)
    assert [f.code for f in report.findings] == [code] and report.verdict.value == "channel"
    assert words in report.findings[0].diagnosis
    assert "after 1 events" not in report.findings[0].diagnosis


def test_a_send_failure_that_says_no_cause_is_inconclusive_not_a_closed_stream(home):
    report = diagnose(
        home, "stream disconnected before completion: error sending request for url (https://gw.example/v1/responses)"
    )
    assert not report.findings and report.verdict.value == "inconclusive"
    assert "does not say why" in report.verdict_reason and not report.notes


def test_pasted_stream_errors_invent_no_event_count(home):
    for text in (
        "stream disconnected before completion: idle timeout waiting for SSE",
        "stream disconnected before completion: stream closed before response.completed",
    ):
        report = diagnose(home, text)
        assert not re.search(r"after \d+ events", report.findings[0].diagnosis)


def test_a_pasted_timeout_is_read_against_the_logs_not_called_the_channel(home):
    """Issue 39: a timeout can be a gateway's read limit during a long prefill as well as a dead channel."""
    report = diagnose(home, "stream disconnected before completion: operation timed out")
    assert [f.code for f in report.findings] == ["CTX032"] and report.verdict.value == "inconclusive"


@pytest.mark.parametrize("text,code", LINES[-7:])
def test_codexs_words_for_a_stream_ending_are_said_in_chinese(home, text, code):
    from tests.i18n.test_i18n import assert_chinese

    report = diagnose(home, text, lang="zh")
    assert [f.code for f in report.findings][:1] == [code]
    assert_chinese(report)


def _pastes() -> list[str]:
    from tests.integration.test_wire import CODEX_TURN_TWO_LINES

    files = [p.read_text() for p in sorted(STDERR.glob("*.txt"))]
    return [text for text, _ in LINES] + files + list(CODEX_TURN_TWO_LINES.values())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_paste_leaves_a_placeholder_in_what_the_user_reads(home, lang):
    """Issue 40: a pasted line lacks facts a live check counts (API030's `{rate_limited_attempts}`), which the rule
    cases give, so the cases' own placeholder check (tests/rules/cases.check) never saw the gap. Every paste the tests
    know is rendered here, as text and as JSON, in both languages."""
    from codexdoctor.report.render import RenderOptions, render

    slot = re.compile(r"(?<![{$])\{[a-z_][a-z_0-9]*(?::[^}\"]*)?\}")
    for text in _pastes():
        report = diagnose(home, text, lang=lang)
        for fmt in ("text", "json"):
            left = slot.findall(render(report, fmt, RenderOptions(verbose=True)))
            assert not left, (text[:80], fmt, left)


@pytest.mark.parametrize(("lang", "said"), [("en", "answered 401: (no message)."), ("zh", "（没有附带消息）")])
def test_a_status_with_no_message_says_so(home, run, lang, said):
    """Second review: a bare `unexpected status 401 Unauthorized` read "The request answered 401: ." """
    _, out, _ = run("diagnose-error", "--lang", lang, "unexpected status 401 Unauthorized")
    flat = " ".join(out.split())
    assert said in flat and "401: ." not in flat and "401：。" not in flat, out


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    "said,window",
    [
        ("This model's maximum context length is 16000 tokens. However, your request has 18070 input tokens.", 16000),
        ("Your input exceeds the context window of this model. Please adjust your input and try again.", None),
    ],
)
def test_an_overflow_behind_codexs_stream_prefix_is_the_context(home, said, window, lang):
    """Review 1 #24: a gateway that reports the overflow in a response.failed with a code other than
    context_length_exceeded makes Codex print `stream disconnected before completion: <its message>`
    (codex-api sse/responses.rs → ApiError::Retryable → CodexErr::Stream). It was API007 (CHANNEL: "retry, and report
    it to the provider"); the provider's words after the prefix are read as they are without it, as `sessions` does."""
    report = diagnose(home, f"ERROR: stream disconnected before completion: {said}", lang)
    assert report.verdict.value == "context" and [f.code for f in report.findings] == ["CTX021"], report.findings
    assert report.checks[0].facts.get("server_window") == window
    diagnosis = report.findings[0].diagnosis
    assert ("took it for a dropped stream" in diagnosis) if lang == "en" else ("当作断开的流重试" in diagnosis)
    bare = diagnose(home, said, lang)
    assert bare.verdict.value == "context" and [f.code for f in bare.findings] == ["CTX021"]
