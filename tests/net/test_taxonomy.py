"""Error taxonomy: each entry with realistic bodies from several server families (respx, exact HTTP shapes)."""

import json

import httpx
import pytest
import respx

from codexdoctor.common.redact import Redactor
from codexdoctor.net.classify import classify
from codexdoctor.net.client import make_client
from codexdoctor.net.deadline import Deadline
from codexdoctor.net.send import send

URL = "https://gw.example/v1/responses"
KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz012345"
HTML_502 = "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>"
CLOUDFLARE = "<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head><body>Sorry, you have been blocked</body></html>"


def j(obj):
    return json.dumps(obj)


def sse(*events):
    out = ""
    for name, data in events:
        out += (f"event: {name}\n" if name else "") + f"data: {data if isinstance(data, str) else j(data)}\n\n"
    return out


# The least Codex 0.171 reads as a completion: an `id`, and usage (when sent) with all three counts (issue 36).
COMPLETED = (
    "response.completed",
    {
        "type": "response.completed",
        "response": {
            "id": "resp_1",
            "status": "completed",
            "usage": {"input_tokens": 9, "output_tokens": 2, "total_tokens": 11},
        },
    },
)
DELTA = ("response.output_text.delta", {"type": "response.output_text.delta", "delta": "ok"})

# (family, status, content-type, body) per kind
CASES = {
    "auth_rejected": [
        (
            "openai",
            401,
            "application/json",
            j(
                {
                    "error": {
                        "message": f"Incorrect API key provided: sk-proj-****{KEY[-4:]}. You can find your API key at https://platform.openai.com/account/api-keys.",
                        "type": "invalid_request_error",
                        "param": None,
                        "code": "invalid_api_key",
                    }
                }
            ),
        ),
        (
            "litellm",
            401,
            "application/json",
            j(
                {
                    "error": {
                        "message": "Authentication Error, Invalid proxy server token passed. Received API Key = sk-...2345",
                        "type": "auth_error",
                        "param": "None",
                        "code": "401",
                    }
                }
            ),
        ),
        (
            "litellm-no-db",
            400,
            "application/json",
            j({"error": {"message": "No connected db.", "type": "no_db_connection", "param": "None", "code": "400"}}),
        ),
        ("openrouter", 401, "application/json", j({"error": {"message": "User not found.", "code": 401}})),
        (
            "azure",
            401,
            "application/json",
            j(
                {
                    "error": {
                        "code": "401",
                        "message": "Access denied due to invalid subscription key or wrong API endpoint.",
                    }
                }
            ),
        ),
        (
            "llamacpp",
            401,
            "application/json",
            j({"error": {"code": 401, "message": "Invalid API Key", "type": "authentication_error"}}),
        ),
    ],
    "auth_missing": [
        (
            "openai",
            401,
            "application/json",
            j(
                {
                    "error": {
                        "message": "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth.",
                        "type": "invalid_request_error",
                        "param": None,
                        "code": None,
                    }
                }
            ),
        ),
        ("openrouter", 401, "application/json", j({"error": {"message": "No auth credentials found", "code": 401}})),
        (
            "litellm",
            401,
            "application/json",
            j(
                {
                    "error": {
                        "message": "Authentication Error, No api key passed in.",
                        "type": "auth_error",
                        "param": "None",
                        "code": "401",
                    }
                }
            ),
        ),
    ],
    "forbidden": [
        (
            "openai",
            403,
            "application/json",
            j(
                {
                    "error": {
                        "message": "You are not allowed to sample from this model",
                        "type": "invalid_request_error",
                        "param": None,
                        "code": None,
                    }
                }
            ),
        ),
        (
            "azure",
            403,
            "application/json",
            j({"error": {"code": "PermissionDenied", "message": "Principal does not have access to API/Operation."}}),
        ),
        (
            "litellm",
            403,
            "application/json",
            j(
                {
                    "error": {
                        "message": "team not allowed to access model. This team can only access models=['gpt-4o']",
                        "type": "team_model_access_denied",
                        "param": "model",
                        "code": "403",
                    }
                }
            ),
        ),
    ],
    "blocked": [
        ("cloudflare", 403, "text/html", CLOUDFLARE),
        (
            "openai-region",
            403,
            "application/json",
            j(
                {
                    "error": {
                        "code": "unsupported_country_region_territory",
                        "message": "Country, region, or territory not supported",
                        "param": None,
                        "type": "request_forbidden",
                    }
                }
            ),
        ),
        (
            "nginx",
            403,
            "text/html",
            "<html><head><title>403 Forbidden</title></head><body><center><h1>403 Forbidden</h1></center><hr><center>nginx</center></body></html>",
        ),
    ],
    "payment": [
        (
            "openrouter",
            402,
            "application/json",
            j(
                {
                    "error": {
                        "message": "Insufficient credits. Add more using https://openrouter.ai/credits",
                        "code": 402,
                    }
                }
            ),
        ),
        ("generic", 402, "application/json", j({"error": {"message": "Payment Required"}})),
        (
            "anthropic-style",
            400,
            "application/json",
            j(
                {
                    "type": "error",
                    "error": {
                        "type": "invalid_request_error",
                        "message": "Your credit balance is too low to access the API.",
                    },
                }
            ),
        ),
        # DashScope in arrears answers 400, not 402: it read as a generic bad request
        (
            "dashscope",
            400,
            "application/json",
            j(
                {
                    "error": {
                        "message": "Access denied, please make sure your account is in good standing. For details, see: https://help.aliyun.com/zh/model-studio/error-code#overdue-payment",
                        "type": "Arrearage",
                        "code": "Arrearage",
                    }
                }
            ),
        ),
    ],
    "model_not_found": [
        (
            "openai",
            404,
            "application/json",
            j(
                {
                    "error": {
                        "message": "The model `gpt-5-codx` does not exist or you do not have access to it.",
                        "type": "invalid_request_error",
                        "param": None,
                        "code": "model_not_found",
                    }
                }
            ),
        ),
        (
            "ollama",
            404,
            "application/json",
            j(
                {
                    "error": {
                        "message": 'model "qwen3-coder" not found, try pulling it first',
                        "type": "api_error",
                        "param": None,
                        "code": None,
                    }
                }
            ),
        ),
        (
            "litellm",
            400,
            "application/json",
            j(
                {
                    "error": {
                        "message": "{'error': '/chat/completions: Invalid model name passed in model=gpt-5. Call `/v1/models` to view available models for your key.'}",
                        "type": "None",
                        "param": "None",
                        "code": "400",
                    }
                }
            ),
        ),
        (
            "vllm",
            404,
            "application/json",
            j(
                {
                    "object": "error",
                    "message": "The model `Qwen/Qwen3` does not exist.",
                    "type": "NotFoundError",
                    "param": None,
                    "code": 404,
                }
            ),
        ),
        (
            "openrouter",
            400,
            "application/json",
            j({"error": {"message": "qwen/qwen3-codr is not a valid model ID", "code": 400}}),
        ),
        # Moonshot: a 404 about the model, not the path (it read as a wrong base_url, API001)
        (
            "moonshot",
            404,
            "application/json",
            j(
                {
                    "error": {
                        "message": "Not found the model kimi-latest or Permission denied",
                        "type": "resource_not_found_error",
                    }
                }
            ),
        ),
        # one-api / new-api: 503, but the gateway's own answer about the model, not an outage (middleware/distributor.go)
        (
            "new-api",
            503,
            "application/json",
            j(
                {
                    "error": {
                        "message": "当前分组 default 下对于模型 gpt-5-codex 无可用渠道 (request id: 20261201093011123)",
                        "type": "new_api_error",
                    }
                }
            ),
        ),
        (
            "new-api-en",
            503,
            "application/json",
            j(
                {
                    "error": {
                        "message": "No available channel for model gpt-5-codex under group default",
                        "type": "new_api_error",
                        "code": "model_not_found",
                    }
                }
            ),
        ),
    ],
    "deployment_not_found": [
        (
            "azure",
            404,
            "application/json",
            j(
                {
                    "error": {
                        "code": "DeploymentNotFound",
                        "message": "The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.",
                    }
                }
            ),
        ),
        (
            "azure-inner",
            404,
            "application/json",
            j(
                {
                    "error": {
                        "code": "404",
                        "message": "Resource not found",
                        "innererror": {"code": "DeploymentNotFound"},
                    }
                }
            ),
        ),
    ],
    "path_not_found": [
        (
            "openai",
            404,
            "application/json",
            j(
                {
                    "error": {
                        "message": "Invalid URL (POST /v1/v1/responses)",
                        "type": "invalid_request_error",
                        "param": None,
                        "code": None,
                    }
                }
            ),
        ),
        ("vllm-fastapi", 404, "application/json", j({"detail": "Not Found"})),
        ("ollama", 404, "text/plain", "404 page not found"),
        ("nginx", 404, "text/html", "<html><head><title>404 Not Found</title></head><body>404 Not Found</body></html>"),
        ("llamacpp", 404, "text/plain", "File Not Found"),
        ("method", 405, "application/json", j({"detail": "Method Not Allowed"})),
    ],
    "context_exceeded": [
        (
            "openai",
            400,
            "application/json",
            j(
                {
                    "error": {
                        "message": "Your input exceeds the context window of this model. Please adjust your input and try again.",
                        "type": "invalid_request_error",
                        "param": "input",
                        "code": "context_length_exceeded",
                    }
                }
            ),
        ),
        (
            "vllm",
            400,
            "application/json",
            j(
                {
                    "object": "error",
                    "message": "This model's maximum context length is 8192 tokens. However, your request has 9000 input tokens. (parameter=input_tokens, value=9000)",
                    "type": "BadRequestError",
                    "param": None,
                    "code": 400,
                }
            ),
        ),
        (
            "llamacpp",
            400,
            "application/json",
            j(
                {
                    "error": {
                        "code": 400,
                        "message": "the request exceeds the available context size, try increasing it",
                        "type": "exceed_context_size_error",
                        "n_prompt_tokens": 4454,
                        "n_ctx": 4096,
                    }
                }
            ),
        ),
        (
            "litellm",
            400,
            "application/json",
            j(
                {
                    "error": {
                        "message": "litellm.ContextWindowExceededError: ContextWindowExceededError: This model's maximum context length is 8192 tokens.",
                        "type": None,
                        "param": None,
                        "code": "400",
                    }
                }
            ),
        ),
        # Providers Chinese developers put behind Codex (docs/provider-errors.md): each names the overflow its own way
        (
            "kimi",
            400,
            "application/json",
            j(
                {
                    "error": {
                        "message": "Invalid request: Your request exceeded model token limit: 262144 (requested: 291351)",
                        "type": "invalid_request_error",
                    }
                }
            ),
        ),
        (
            "minimax",
            400,
            "application/json",
            j(
                {
                    "error": {
                        "message": "invalid params, context window exceeds limit (2013)",
                        "type": "invalid_request_error",
                    }
                }
            ),
        ),
        (
            "dashscope",
            400,
            "application/json",
            j(
                {
                    "error": {
                        "message": "<400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 30720]",
                        "type": "invalid_request_error",
                        "code": "invalid_parameter_error",
                    }
                }
            ),
        ),
        (
            "zai",
            400,
            "application/json",
            j(
                {
                    "error": {
                        "code": "1261",
                        "message": "Prompt exceeds max length",
                        "type": "model_context_window_exceeded",
                    }
                }
            ),
        ),
        (
            "lmstudio",
            400,
            "application/json",
            j(
                {
                    "error": "The number of tokens to keep from the initial prompt is greater than the context length. Try to load the model with a larger context length."
                }
            ),
        ),
        (
            "gemini",
            400,
            "application/json",
            j(
                [
                    {
                        "error": {
                            "code": 400,
                            "message": "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).",
                            "status": "INVALID_ARGUMENT",
                        }
                    }
                ]
            ),
        ),
        (
            "xai",
            400,
            "application/json",
            j(
                {
                    "code": "Client specified an invalid argument",
                    "error": "This model's maximum prompt length is 131072 but the request contains 537812 tokens.",
                }
            ),
        ),
    ],
    "rate_limited": [
        (
            "openai",
            429,
            "application/json",
            j(
                {
                    "error": {
                        "message": "Rate limit reached for gpt-5 in organization org-x on tokens per min (TPM): Limit 30000, Used 29000.",
                        "type": "tokens",
                        "param": None,
                        "code": "rate_limit_exceeded",
                    }
                }
            ),
        ),
        (
            "openrouter",
            429,
            "application/json",
            j({"error": {"message": "Rate limit exceeded: free-models-per-min.", "code": 429}}),
        ),
        (
            "azure",
            429,
            "application/json",
            j(
                {
                    "error": {
                        "code": "429",
                        "message": "Requests to the ChatCompletions_Create Operation under Azure OpenAI API have exceeded call rate limit.",
                    }
                }
            ),
        ),
    ],
    "quota": [
        (
            "openai",
            429,
            "application/json",
            j(
                {
                    "error": {
                        "message": "You exceeded your current quota, please check your plan and billing details.",
                        "type": "insufficient_quota",
                        "param": None,
                        "code": "insufficient_quota",
                    }
                }
            ),
        ),
        ("one-api", 403, "application/json", j({"error": {"message": "该令牌额度已用尽", "type": "one_api_error"}})),
        (
            "litellm",
            429,
            "application/json",
            j(
                {
                    "error": {
                        "message": "Budget has been exceeded! Current cost: 10.2, Max budget: 10.0",
                        "type": "budget_exceeded",
                        "param": None,
                        "code": "400",
                    }
                }
            ),
        ),
    ],
    "server_error": [
        (
            "openai",
            500,
            "application/json",
            j(
                {
                    "error": {
                        "message": "The server had an error while processing your request.",
                        "type": "server_error",
                        "param": None,
                        "code": None,
                    }
                }
            ),
        ),
        ("nginx", 502, "text/html", HTML_502),
        (
            "llamacpp",
            503,
            "application/json",
            j({"error": {"code": 503, "message": "Loading model", "type": "unavailable_error"}}),
        ),
    ],
    "stream_error": [
        (
            "openai-failed",
            200,
            "text/event-stream",
            sse(
                (
                    "response.failed",
                    {
                        "type": "response.failed",
                        "response": {"status": "failed", "error": {"code": "server_error", "message": "boom"}},
                    },
                )
            ),
        ),
        (
            "gateway-failed",  # a response.failed whose code Codex does not know: retried, then its message shown
            200,
            "text/event-stream",
            sse(
                (
                    "response.failed",
                    {
                        "type": "response.failed",
                        "response": {
                            "error": {"code": "upstream_error", "message": "upstream error: connection reset"}
                        },
                    },
                )
            ),
        ),
        ("json-200", 200, "application/json", j({"error": {"message": "internal upstream failure", "code": 500}})),
    ],
    "stream_closed": [
        # Codex 0.171 ignores a standalone error event (its process_sse has no arm for it) and reads on to the end.
        (
            "openai-error-event-then-eof",
            200,
            "text/event-stream",
            sse(
                ("response.created", {"type": "response.created", "response": {}}),
                (
                    "error",
                    {
                        "type": "error",
                        "code": "server_error",
                        "message": "The server had an error while processing your request.",
                    },
                ),
            ),
        ),
        (
            "chat-gateway-error-chunk",
            200,
            "text/event-stream",
            sse((None, {"error": {"message": "upstream error: connection reset", "code": 502}})),
        ),
        (
            "responses",
            200,
            "text/event-stream",
            sse(("response.created", {"type": "response.created", "response": {}}), DELTA),
        ),
        (
            "chat",
            200,
            "text/event-stream",
            sse((None, {"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": None}]})),
        ),
        ("empty", 200, "text/event-stream", ""),
    ],
    "not_json": [
        ("plain", 200, "text/plain", "OK"),
        ("broken-json", 200, "application/json", '{"id": '),
        ("garbage-sse", 200, "text/event-stream", "this is not sse\nnor this\n\n"),
    ],
    "html": [
        (
            "landing",
            200,
            "text/html",
            "<!DOCTYPE html><html><head><title>TaoToken</title></head><body>Sign up</body></html>",
        ),
        ("spa", 200, "text/html; charset=utf-8", "<html><body><div id=app></div></body></html>"),
        ("no-ctype", 200, "", "<!doctype html><html><body>gateway console</body></html>"),
    ],
    "stream_incomplete": [
        (
            "content-filter",
            200,
            "text/event-stream",
            sse(
                DELTA,
                (
                    "response.incomplete",
                    {
                        "type": "response.incomplete",
                        "response": {"status": "incomplete", "incomplete_details": {"reason": "content_filter"}},
                    },
                ),
            ),
        ),
    ],
    # A gateway's own output cap, below the 16 tokens the request asked for (Codex asks for none).
    "output_capped": [
        (
            "gateway-cap",
            200,
            "text/event-stream",
            sse(
                DELTA,
                (
                    "response.incomplete",
                    {
                        "type": "response.incomplete",
                        "response": {
                            "incomplete_details": {"reason": "max_output_tokens"},
                            "usage": {"input_tokens": 9, "output_tokens": 8, "total_tokens": 17},
                        },
                    },
                ),
            ),
        ),
    ],
    "usage_not_included": [
        (
            "openai-failed",
            200,
            "text/event-stream",
            sse(
                (
                    "response.failed",
                    {
                        "type": "response.failed",
                        "response": {"error": {"code": "usage_not_included", "message": "Not in your plan"}},
                    },
                )
            ),
        ),
    ],
    "key_quota": [
        (
            "new-api",
            401,
            "application/json",
            j({"error": {"message": "该令牌额度已用尽 TokenStatusExhausted[sk-abc***xyz]", "type": "new_api_error"}}),
        ),
        (
            "one-api",
            401,
            "application/json",
            j({"error": {"message": "pre_consume_token_quota_failed", "type": "one_api_error"}}),
        ),
    ],
    "tpm_too_large": [
        (
            "openai",
            429,
            "application/json",
            j(
                {
                    "error": {
                        "message": "Request too large for gpt-4o in organization org-x on tokens per min (TPM): "
                        "Limit 8000, Requested 9000. The input or output tokens must be reduced.",
                        "type": "tokens",
                        "code": "rate_limit_exceeded",
                    }
                }
            ),
        ),
    ],
    "wire_mismatch": [
        (
            "azure-old",
            400,
            "application/json",
            j(
                {
                    "error": {
                        "message": "Unrecognized request argument supplied: input",
                        "type": "invalid_request_error",
                        "param": None,
                        "code": None,
                    }
                }
            ),
        ),
        (
            "vllm",
            400,
            "application/json",
            j(
                {
                    "object": "error",
                    "message": "[{'type': 'extra_forbidden', 'loc': ('body', 'input'), 'msg': 'Extra inputs are not permitted'}]",
                    "type": "BadRequestError",
                    "code": 400,
                }
            ),
        ),
        (
            "proxy",
            422,
            "application/json",
            j(
                {
                    "detail": [
                        {
                            "loc": ["body", "messages"],
                            "msg": "field required: unknown field input",
                            "type": "value_error.missing",
                        }
                    ]
                }
            ),
        ),
    ],
    "bad_request": [
        (
            "openai",
            400,
            "application/json",
            j(
                {
                    "error": {
                        "message": "Invalid value for 'reasoning.effort'.",
                        "type": "invalid_request_error",
                        "param": "reasoning.effort",
                        "code": "invalid_value",
                    }
                }
            ),
        ),
        ("teapot", 418, "text/plain", "I'm a teapot"),
    ],
}
OK_CASES = [
    ("completed", 200, "text/event-stream", sse(DELTA, COMPLETED)),
    (
        "max-output",
        200,
        "text/event-stream",
        sse(
            DELTA,
            (
                "response.incomplete",
                {"type": "response.incomplete", "response": {"incomplete_details": {"reason": "max_output_tokens"}}},
            ),
        ),
    ),
    (
        "chat-done",
        200,
        "text/event-stream",
        sse((None, {"choices": [{"delta": {"content": "ok"}, "finish_reason": "stop"}]}), (None, "[DONE]")),
    ),
]


def exchange(status, ctype, body, key=KEY):
    redact = Redactor([key])
    with respx.mock(assert_all_called=True) as mock:
        mock.post(URL).mock(
            return_value=httpx.Response(status, headers={"content-type": ctype} if ctype else {}, content=body.encode())
        )
        with make_client({}) as client:
            return send(
                client,
                "POST",
                URL,
                headers={"Authorization": f"Bearer {key}"},
                deadline=Deadline(5),
                redact=redact,
                json_body={"model": "m", "stream": True, "max_output_tokens": 16},
                stream=True,
            )


@pytest.mark.parametrize(
    "kind,family,status,ctype,body",
    [(k, *case) for k, cases in CASES.items() for case in cases],
    ids=[f"{k}-{c[0]}" for k, cases in CASES.items() for c in cases],
)
def test_taxonomy(kind, family, status, ctype, body):
    ex = exchange(status, ctype, body)
    assert classify(ex).kind == kind
    assert KEY[-8:] not in str(ex.line()) and KEY not in json.dumps(ex.body_json)


def test_every_error_kind_has_three_families_where_it_exists():
    single_vendor = {
        "deployment_not_found",
        "stream_incomplete",
        "bad_request",
        # Codex 0.171's own endings and the gateways that answer these (issue 38)
        "output_capped",
        "usage_not_included",
        "key_quota",
        "tpm_too_large",
    }
    for kind, cases in CASES.items():
        if kind not in single_vendor:
            assert len({c[0] for c in cases}) >= 3, kind


@pytest.mark.parametrize("family,status,ctype,body", OK_CASES, ids=[c[0] for c in OK_CASES])
def test_success_shapes(family, status, ctype, body):
    assert classify(exchange(status, ctype, body), "chat" if family == "chat-done" else "responses").kind == "ok"


@pytest.mark.parametrize(
    "ctype, body, kind",
    [
        # Checked with Codex 0.171.0 (scripts/crosscheck_wire.py): both end as "stream closed before response.completed".
        (
            "text/event-stream",
            sse((None, {"choices": [{"delta": {"content": "ok"}, "finish_reason": "stop"}]}), (None, "[DONE]")),
            "wrong_stream_grammar",
        ),
        (
            "application/json",
            json.dumps({"id": "resp_1", "object": "response", "status": "completed", "output": []}),
            "not_a_stream",
        ),
    ],
)
def test_answers_codex_cannot_read_on_responses(ctype, body, kind):
    """On /responses, with stream: true, only Responses events ending in response.completed will do."""
    ex = exchange(200, ctype, body)
    assert ex.requested_stream
    assert classify(ex, "responses").kind == kind
    assert classify(ex, "chat").kind == "ok" or kind == "not_a_stream"


def test_401_without_key_sent_is_missing_key():
    with respx.mock() as mock:
        mock.post(URL).mock(return_value=httpx.Response(401, json={"error": {"message": "Unauthorized"}}))
        with make_client({}) as client:
            ex = send(client, "POST", URL, headers={}, deadline=Deadline(5), redact=Redactor())
    assert classify(ex).kind == "auth_missing"


@pytest.mark.parametrize(
    "exc,kind",
    [
        (httpx.ConnectError("[Errno -2] Name or service not known"), "dns"),
        (httpx.ConnectError("[Errno 111] Connection refused"), "refused"),
        (
            httpx.ConnectError(
                "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate (_ssl.c:1006)"
            ),
            "tls",
        ),
        (
            httpx.ConnectError(
                "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: certificate has expired (_ssl.c:1006)"
            ),
            "tls",
        ),
        (httpx.ConnectTimeout("timed out"), "timeout"),
        (httpx.ReadTimeout("timed out"), "timeout"),
        (httpx.RemoteProtocolError("Server disconnected without sending a response."), "reset"),
        (httpx.ReadError("[Errno 104] Connection reset by peer"), "reset"),
        (httpx.ProxyError("407 Proxy Authentication Required"), "proxy"),
    ],
)
def test_network_failures(exc, kind):
    with respx.mock() as mock:
        mock.post(URL).mock(side_effect=exc)
        with make_client({}) as client:
            ex = send(client, "POST", URL, headers={}, deadline=Deadline(5), redact=Redactor(), sleep=lambda s: None)
    assert ex.status is None and classify(ex).kind == kind


def test_transient_retried_permanent_not():
    with respx.mock() as mock:
        route = mock.post(URL).mock(
            side_effect=[
                httpx.Response(502, text=HTML_502),
                httpx.Response(429, json={"error": {"code": "rate_limit_exceeded"}}),
                httpx.Response(200, json={"ok": True}),
            ]
        )
        with make_client({}) as client:
            ex = send(
                client,
                "POST",
                URL,
                headers={},
                deadline=Deadline(5),
                redact=Redactor(),
                retries=3,
                sleep=lambda s: None,
            )
        assert ex.status == 200 and ex.attempts == 3 and route.call_count == 3
    for status, body in (
        (401, {"error": {"code": "invalid_api_key"}}),
        (404, {"error": {"code": "model_not_found"}}),
        (429, {"error": {"code": "insufficient_quota"}}),
        (403, {"error": {"message": "no"}}),
    ):
        with respx.mock() as mock:
            route = mock.post(URL).mock(return_value=httpx.Response(status, json=body))
            with make_client({}) as client:
                ex = send(
                    client,
                    "POST",
                    URL,
                    headers={},
                    deadline=Deadline(5),
                    redact=Redactor(),
                    retries=3,
                    sleep=lambda s: None,
                )
            assert route.call_count == 1 and ex.attempts == 1


def test_canary_request_is_exactly_what_codex_sends(home):
    from pathlib import Path

    from codexdoctor.checks.live import make_plan
    from codexdoctor.checks.live.gather import Gatherer
    from codexdoctor.commands.options import CheckOptions, make_context
    from tests.conftest import write_config

    write_config(
        home,
        'model = "gw-model"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/openai/"\nenv_key = "GW_KEY"\n'
        'query_params = { api-version = "2025-04-01-preview" }\nhttp_headers = { "X-Team" = "blue" }\n'
        'env_http_headers = { "X-Org" = "GW_ORG" }\n',
    )
    ctx = make_context(
        CheckOptions(env={"GW_KEY": KEY, "GW_ORG": "org-7"}, home=home, cwd=Path.cwd(), system_config=None)
    )
    with respx.mock() as mock:
        route = mock.post("https://gw.example/openai/responses", params={"api-version": "2025-04-01-preview"}).mock(
            return_value=httpx.Response(
                200, headers={"content-type": "text/event-stream"}, content=sse(DELTA, COMPLETED).encode()
            )
        )
        run = Gatherer(ctx, make_plan(ctx), Deadline(5))
        ex = run.canary()
    req = route.calls.last.request
    assert ex.ok and req.headers["authorization"] == f"Bearer {KEY}"
    assert req.headers["x-team"] == "blue" and req.headers["x-org"] == "org-7"
    assert req.headers["accept"] == "text/event-stream"
    body = json.loads(req.content)
    assert body["model"] == "gw-model" and body["stream"] is True and body["max_output_tokens"] == 16
    assert body["input"][0]["content"][0]["type"] == "input_text"
    assert KEY not in str(ex.line())


def test_key_with_newline_is_not_sent_like_codex(home):
    from pathlib import Path

    from codexdoctor.checks.live import make_plan
    from codexdoctor.commands.options import CheckOptions, make_context
    from tests.conftest import TAOTOKEN, write_config

    write_config(home, TAOTOKEN)
    ctx = make_context(
        CheckOptions(env={"TAOTOKEN_API_KEY": KEY + "\n"}, home=home, cwd=Path.cwd(), system_config=None)
    )
    assert "Authorization" not in make_plan(ctx).headers


def test_an_html_error_page_in_an_error_text_is_named_by_its_title():
    """Codex writes a gateway's 502 page into its message, newlines and all; the last line was `</html>, url: …`."""
    from codexdoctor.net.classify import summarize_text

    text = (
        "unexpected status 502 Bad Gateway: <html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
        "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n, "
        "url: http://127.0.0.1:9/v1/responses"
    )
    assert summarize_text(text).startswith("unexpected status 502 Bad Gateway: [HTML page: 502 Bad Gateway]")
    assert summarize_text("upstream said: <!DOCTYPE html><html><body>no title").endswith("[HTML page]")
    assert summarize_text("plain <b>not a page</b>") == "plain <b>not a page</b>"
