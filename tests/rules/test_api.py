"""API: each code from the facts of its check, firing with its parameters or staying silent."""

import pytest

from tests.rules.cases import check, fires, silent

URL = "http://127.0.0.1:8080/v1/responses"
POST = f"POST {URL}"
WORKING = {"base_url": "http://127.0.0.1:8080/api", "kind": "ok", "status": 200}
FAULT = {"item": "function_call_output", "sent": 9012, "status": 400, "detail": "unknown item type", "line": "POST …"}

CASES = [
    # The path and protocol Codex calls
    fires(
        "API001",
        {"working": WORKING, "working_index": 0, "chat_works": False},
        "POST http://127.0.0.1:8080/v1/responses finds nothing (404), but http://127.0.0.1:8080/api answers.",
        "wants a different prefix",
        'In ~/.codex/config.toml:6, set base_url = "http://127.0.0.1:8080/api"',
    ),
    fires(
        "API001",
        {"configured": "http://127.0.0.1:8080/api?utm_source=x", "working": WORKING},
        "The `?…` part of base_url breaks the URL",
        why="query",
    ),
    fires(
        "API001",
        {"configured": "http://127.0.0.1:8080/api ", "working": WORKING},
        "The space at the end of base_url reaches the path as %20",
        why="trailing-space",
    ),
    silent("API001", {"working": None}),
    fires("API002", {"chat_works": True}, "(installed: 0.171.0)", "npm install -g @openai/codex@0.96.0"),
    fires("API002", {"chat_works": True, "codex_version": None}, "(installed: unknown)", why="version-unknown"),
    silent("API002", {"chat_works": True, "variants_work": True}, why="a-variant-serves-responses"),
    fires(
        "API013",
        {"chat_works": False, "tried": ["http://127.0.0.1:8080", "http://127.0.0.1:8080/api"]},
        "neither do the usual variants (http://127.0.0.1:8080, http://127.0.0.1:8080/api)",
        "set base_url in ~/.codex/config.toml:6",
    ),
    fires("API013", {"chat_works": False, "tried": []}, "variants (none)", why="nothing-tried"),
    silent("API013", {"chat_works": True}, why="API002-says-it"),
    fires(
        "API014",
        {"kind": "wire_mismatch", "status": 400, "message": "unknown field `input`"},
        f"{POST} answered 400: unknown field `input`. The path exists but does not understand Responses",
    ),
    silent("API014", {"kind": "bad_request", "status": 400}),
    fires(
        "API016",
        {"kind": "path_not_found", "status": 404},
        f"{POST} answered 404",
        "it tries the base_url variants",
        "Check that base_url (~/.codex/config.toml:6)",
    ),
    fires(
        "API016",
        {"kind": "path_not_found", "status": 404, "doubled": "/v1", "doubled_fix": "http://127.0.0.1:8080/v1"},
        "The URL has /v1 twice: base_url already ends in it.",
        'Set base_url = "http://127.0.0.1:8080/v1" (~/.codex/config.toml:6), so that Codex calls http://127.0.0.1:8080/v1/responses',
        why="doubled-v1",
    ),
    silent("API016", {"kind": "path_not_found"}, others={"api.variants": {}}, why="api.variants-says-more"),
    fires(
        "API018",
        {"kind": "not_a_stream", "detail": "a JSON body (Chat Completions)"},
        f"{POST} answered 200, but with a JSON body (Chat Completions)",
        "(Codex retries it 5 times first)",
    ),
    fires(
        "API018",
        {"kind": "wrong_stream_grammar", "detail": "chat.completion.chunk events"},
        "chat.completion.chunk events",
        why="chat-chunks",
    ),
    silent("API018", {"kind": "stream_closed"}),
    # The provider's answer
    fires(
        "API003",
        {"kind": "rate_limited", "status": 429, "attempts": 3, "message": "slow down"},
        f"{POST} answered 429 after 3 attempts: slow down.",
    ),
    silent("API003", {"kind": "rate_limit_exhausted", "status": 429}),
    fires(
        "API004",
        {"kind": "quota", "status": 429, "message": "You exceeded your current quota"},
        f"{POST}: You exceeded your current quota.",
    ),
    silent("API004", {"kind": "rate_limited", "status": 429}),
    fires(
        "API005",
        {"kind": "server_error", "status": 502, "attempts": 1, "detail": "Bad Gateway (an HTML page)"},
        f"{POST} answered 502 after 1 attempt: Bad Gateway (an HTML page).",
    ),
    silent("API005", {"kind": "bad_request", "status": 400}),
    fires(
        "API006",
        {"kind": "payment", "status": 402, "message": "Insufficient balance"},
        f"{POST}: Insufficient balance.",
        "Top up",
    ),
    silent("API006", {"kind": "quota", "status": 429}),
    fires(
        "API007",
        {"kind": "stream_error", "message": "upstream model crashed"},
        f"{POST} started a 200 stream and then sent an error: upstream model crashed.",
    ),
    silent("API007", {"kind": "stream_closed"}),
    fires(
        "API008",
        {"kind": "stream_closed", "detail": "3 events, then the connection closed"},
        f"The stream from {URL} ended without response.completed (3 events, then the connection closed).",
    ),
    silent("API008", {"kind": "stream_idle"}),
    fires(
        "API009",
        {"kind": "stream_idle", "detail": "no event for 300 s"},
        f"The stream from {URL} stopped sending events (no event for 300 s).",
    ),
    silent("API009", {"kind": "stream_closed"}),
    fires(
        "API010",
        {"kind": "bad_request", "status": 400, "message": "Unsupported parameter: 'reasoning'"},
        f"{POST} answered 400: Unsupported parameter: 'reasoning'.",
    ),
    fires(
        "API010",
        {"kind": "bad_request", "status": 400, "message": "", "body_malformed": "JSON nested 100,000 levels deep"},
        f"{POST} answered 400: the body is JSON nested 100,000 levels deep.",
        why="unreadable-body",
    ),
    silent("API010", {"kind": "codex_rejected", "status": 400}),
    fires(
        "API011",
        {"kind": "not_json", "status": 200, "detail": "text/plain, 12 bytes"},
        f"{POST} answered 200 with a body that is neither JSON nor server-sent events (text/plain, 12 bytes).",
    ),
    silent("API011", {"kind": "html", "status": 200}),
    fires(
        "API012",
        {"kind": "stream_incomplete", "detail": "response.incomplete: content_filter", "incomplete_reason": None},
        f"The answer from {URL} ended with `response.incomplete` (reason content_filter).",
        "Incomplete response returned, reason: content_filter",
        "Ask the operator which filter is on",
    ),
    fires(
        "API012",
        {"kind": "stream_incomplete", "detail": "response.incomplete: other", "incomplete_reason": "other"},
        "`stream disconnected before completion: Incomplete response returned, reason: other`",
        "Report the reason to the provider",
        why="another-reason",
    ),
    silent("API012", {"kind": "ok"}),
    silent("API012", {"kind": "output_capped", "incomplete_reason": "max_output_tokens"}, why="its-own-code"),
    fires(
        "API025",
        {"kind": "ok", "ignored_errors": ["server_error: The upstream model crashed while generating."]},
        "carried an `error` event (server_error: The upstream model crashed while generating.) and then completed",
        "Nothing to change for Codex",
    ),
    silent("API025", {"kind": "ok", "ignored_errors": []}),
    silent("API025", {"kind": "stream_closed", "ignored_errors": ["server_error: boom"]}, why="it-did-not-complete"),
    fires(
        "API026",
        {"kind": "output_capped", "output_tokens": 8, "detail": "response.incomplete: max_output_tokens after 8"},
        f"{POST} stopped after 8 output tokens with `response.incomplete` (reason max_output_tokens)",
        "Incomplete response returned, reason: max_output_tokens",
        "raise or remove the output-token limit",
    ),
    silent("API026", {"kind": "ok", "output_tokens": 16, "detail": "output budget reached"}),
    fires(
        "API027",
        {"kind": "usage_not_included", "message": "Not included in your plan", "model": "gpt-5.5"},
        f"{POST} failed with code usage_not_included (Not included in your plan)",
        "Ask the provider which plan or key may use gpt-5.5",
    ),
    silent("API027", {"kind": "quota"}),
    fires(
        "API028",
        {"kind": "tpm_too_large", "status": 429, "tpm_limit": 8000, "tpm_requested": 9000, "first_request": 8512},
        f"{POST} answered 429: the request is 9,000 tokens and the key's limit is 8,000 tokens per minute.",
        "Codex's first request is about 8,512 tokens, so no turn can ever start",
        "smaller than 8,000 tokens",
    ),
    fires(
        "API028",
        {"kind": "tpm_too_large", "status": 429, "tpm_limit": 8000, "tpm_requested": 9000, "first_request": None},
        "Codex's first request is this request",
        why="first-request-unknown",
    ),
    silent("API028", {"kind": "rate_limited", "status": 429}),
    silent("API003", {"kind": "tpm_too_large", "tpm_limit": 8000, "tpm_requested": 9000}, why="API028-says-it"),
    fires(
        "API015",
        {"attempts": 3, "earlier": ["502 Bad Gateway", "connection reset"]},
        f"{POST} needed 3 attempts (earlier: 502 Bad Gateway, connection reset).",
    ),
    silent("API015", {"attempts": 1}),
    silent("API015", {"kind": "server_error", "attempts": 3, "earlier": ["502"]}, why="it-failed-API005"),
    fires(
        "API017",
        {"kind": "codex_rejected", "status": 400, "message": "Unknown parameter: 'include'", "field": "include"},
        f"{POST} rejected Codex's own request (400: Unknown parameter: 'include')",
        "does not accept include that Codex 0.171.0 sends",
        "drop_params: true",
    ),
    fires(
        "API017",
        {"kind": "codex_rejected", "status": 400, "message": "invalid role", "field": "input[0] (a developer message)"},
        "turns Codex's developer items into system messages",
        why="developer-item",
    ),
    fires(
        "API017",
        {"kind": "codex_rejected", "status": 422, "message": "bad"},
        "does not accept a field it did not name",
        why="no-field",
    ),
    silent("API017", {"kind": "bad_request", "field": "include"}),
    fires(
        "API019",
        {
            "kind": "rate_limit_exhausted",
            "status": 429,
            "message": "rate limit",
            "rate_limited_attempts": 6,
            "codex_attempts": 6,
            "retry_after_s": 2.0,
        },
        f"{POST} answered 429 at all 6 attempts Codex makes (stream_max_retries = 5, each after the answer's Retry-After of 2 s): rate limit.",
        "[model_providers.gw]",
    ),
    fires(
        "API019",
        {"kind": "rate_limit_exhausted", "status": 429, "message": "busy", "rate_limited_attempts": 6},
        "each after the answer's Retry-After): busy.",
        why="no-retry-after",
    ),
    silent("API019", {"kind": "rate_limited", "status": 429}),
    fires(
        "API020",
        {"kind": "too_large", "status": 413, "detail": "413 Request Entity Too Large (nginx)"},
        f"{POST} answered 413 to Codex's first request (40,017 bytes): 413 Request Entity Too Large (nginx).",
        "client_max_body_size",
    ),
    fires(
        "API020",
        {"kind": "too_large", "status": 413, "detail": "too big", "request_bytes": None},
        "(its size unknown)",
        why="size-unknown",
    ),
    silent("API020", {"kind": "bad_request", "status": 413}),
    # After a tool call
    fires(
        "API021",
        {
            "kind": "bad_request",
            "status": 400,
            "message": "unknown item type: function_call_output",
            "named_item": "function_call_output",
        },
        "Codex's first request worked, but its next one, which carries tool calls and their outputs "
        "(function_call, function_call, function_call_output, function_call_output, 11,200 bytes more than the "
        "first), answered 400: unknown item type",
        "The error names the function_call_output part of it.",
        "does not take function_call_output items",
        "unknown item type: function_call_output",
    ),
    fires(
        "API021",
        {"kind": "server_error", "status": 502, "message": "Bad Gateway", "html": True},
        "Only this larger request gets the proxy's error page",
        "(51,217 bytes)",
        "Raise the body size and timeout limits of the proxy",
        why="html-5xx",
    ),
    fires(
        "API021",
        {"kind": "server_error", "status": 500, "message": "Internal error"},
        "Codex retries it 30 times and then shows only `We're currently experiencing high demand",
        "Update the gateway",
        why="5xx",
    ),
    fires(
        "API021",
        {"kind": "server_error", "status": 500, "message": "high demand", "high_demand": True, "pasted": True},
        "Codex prints this for a 5xx from the provider, after 30 retries",
        why="the-high-demand-paste",
    ),
    fires(
        "API021",
        {
            "kind": "bad_request",
            "status": 400,
            "message": "tool role not supported",
            "pasted": True,
            "named_item": "tool_role",
        },
        "The pasted error is what a gateway answers",
        "The error names the tool role part of it.",
        why="pasted-tool-role",
    ),
    fires(
        "API021",
        {"kind": "server_error", "status": 502, "message": "", "detail": "an HTML page (nginx 502)", "html": True},
        "answered 502: an HTML page (nginx 502).",
        why="no-message-but-a-detail",
    ),
    silent("API021", {"kind": "context_exceeded", "status": 400}, why="CTX028-says-it"),
    silent(
        "API021",
        {"kind": "bad_request", "status": 400, "message": "did not have response messages", "parallel_refused": True},
        why="API029-says-it",
    ),
    fires(
        "API029",
        {
            "kind": "bad_request",
            "status": 400,
            "message": "The following tool_call_ids did not have response messages: call_codexdoctor_turn2_2",
            "parallel_refused": True,
            "single_status": 200,
            "single_kind": "ok",
        },
        "it sends both calls, then both outputs, in one request (function_call, function_call, "
        "function_call_output, function_call_output)",
        "answered 400: The following tool_call_ids did not have response messages: call_codexdoctor_turn2_2",
        "The same request with one call and one output answered 200.",
        "accepts parallel tool results",
        'wire_api = "chat" is no way around it',
    ),
    fires(
        "API029",
        {
            "kind": "server_error",
            "status": 500,
            "message": "",
            "body_excerpt": "tool results: expected 1",
            "parallel_refused": True,
            "single_status": 200,
        },
        "answered 500: tool results: expected 1.",
        why="the-body-when-no-message",
    ),
    fires(
        "API029",
        {
            "kind": "turn_two_fault",
            "status": 400,
            "message": "The following tool_call_ids did not have response messages: call_2",
            "parallel_refused": True,
            "pasted": True,
        },
        "The provider answered 400: The following tool_call_ids did not have response messages: call_2.",
        "The ids it names as unanswered are the calls after the first",
        why="pasted",
    ),
    silent(
        "API029",
        {"kind": "bad_request", "status": 400, "parallel_refused": False, "single_status": 400},
        why="one-result-refused-too",
    ),
    fires(
        "API022",
        {"kind": "call_id_lost", "detail": "a function_call with an empty call_id"},
        f"{POST} answered with a function_call with an empty call_id.",
    ),
    silent("API022", {"kind": "ok"}),
    fires(
        "API023",
        {"item_fault": FAULT},
        "failed already at 9,012 tokens (unknown item type)",
        "The error names the function_call_output items",
        "does not take function_call_output items",
    ),
    silent("API023", {"failure_kinds": ["context_exceeded"], "stable": True}, why="a-window-break"),
    fires(
        "API024",
        {
            "kind": "unreadable_completion",
            "terminal": "response.completed",
            "detail": "a response.completed event Codex cannot read: the provider sent `response` as a string",
            "codex_retries": 5,
        },
        "failed to parse ResponseCompleted",
        "Codex retries it 5 times first",
    ),
    fires(
        "API024",
        {"kind": "unreadable_completion", "terminal": None, "detail": "a response.completed event without `response`"},
        "stream closed before response.completed",
        why="skipped-event",
    ),
    silent("API024", {"kind": "ok", "terminal": "response.completed"}),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_api(case):
    check(case)
