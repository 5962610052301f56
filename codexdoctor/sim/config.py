"""What the simulated provider is told to be (SimConfig) and what it saw (RequestRecord)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

ERROR_STYLES = ("openai", "vllm", "llamacpp", "litellm", "ollama")
FAULTS = ("502", "reset", "timeout")
ANSWER = (
    "The simulator answers deterministically. Each reply repeats this sentence so that token counts, "
    "timings and failures are reproducible across runs. "
)


@dataclass(frozen=True)
class SimConfig:
    """Every knob of the simulated provider. Defaults: healthy, fast, no key required."""

    host: str = "127.0.0.1"
    port: int = 0
    prefix: str = "/v1"
    api_key: str | None = None
    models: tuple[str, ...] = ("sim-model",)
    context_window: int | None = None
    error_style: str = "openai"
    latency_ms: float = 0.0  # time to first token, base
    latency_per_1k_ms: float = 0.0  # time to first token added per 1000 input tokens
    token_interval_ms: float = 1.0  # between streamed deltas
    output_tokens: int = 24
    stall_after_tokens: int | None = None
    stall_seconds: float = 2.0
    failure_rate: float = 0.0
    failure_kinds: tuple[str, ...] = FAULTS
    failure_seed: int = 1
    request_latency_ms: float = 0.0  # added before answering any request (network round trip + gateway)
    hang_seconds: float = 30.0  # how long a "timeout" fault or --hang keeps the client waiting
    chat_only: bool = False
    models_unauthenticated: bool = False
    models_route: bool = True
    landing_page: bool = False
    publish_window: bool = False
    hang: bool = False
    redirect_to: str | None = None
    prefix_cache: bool = False
    report_cached_tokens: bool = True  # False: usage carries no cached_tokens at all (a provider that never says)
    # The prefix cache serves the first N POSTs, then never hits again (a gateway that moves the session to a
    # backend without it): `cached_tokens` drops to 0 mid-session. None: it keeps working.
    cache_stops_after: int | None = None
    cache_speedup: float = 0.1  # fraction of the per-token latency paid for cached tokens
    # Faults in the answer itself: reset_mid_stream | broken_sse | error_event | response_failed | gzip_garbage |
    # drip (1 byte/s) | json_body (a plain JSON answer to `stream: true`) | chat_chunks (Chat Completions chunks and
    # [DONE] on /responses, as a gateway that streams the wrong grammar) | keepalive (200, then only SSE comments
    # `: keep-alive` every `keepalive_every_s`, as a proxy in front of a model still reading the prompt) |
    # slow_headers (the status line and headers one byte every 50 ms, never finished: no read timeout ever fires) |
    # the endings of sim/endings.py (ENDINGS): incomplete (the text, then response.incomplete with
    # `incomplete_reason`: max_output_tokens as a gateway's output cap, content_filter as Azure's filter) | no_terminal
    # (the text, then a clean EOF) | done_only (`data: [DONE]` instead of response.completed) | trailing_done (a
    # complete answer, then [DONE]) | error_then_completed (a bare `error` event inside an answer that completes)
    stream_fault: str | None = None
    incomplete_reason: str = "max_output_tokens"
    # The `code` of an error_event / response_failed fault: context_length_exceeded, insufficient_quota,
    # rate_limit_exceeded, usage_not_included, server_error (OpenAI's codes; Codex 0.171 treats some specially).
    fault_code: str = "server_error"
    keepalive_every_s: float = 0.5
    # The first N POSTs answer 429 with `Retry-After: retry_after_s` (a large N: a limit that never lifts).
    rate_limited_posts: int = 0
    retry_after_s: float = 1.0
    # A key whose quota is used up, as the gateway words it: "newapi" (new-api/one-api: 401 `该令牌额度已用尽`, the
    # right key refused), "openai" (429 insufficient_quota "You exceeded your current quota…").
    quota_exhausted: str | None = None
    # OpenAI's per-request token-rate limit: a POST whose input is over this many tokens gets 429 "Request too large
    # for <model> … on tokens per min (TPM): Limit N, Requested M" (type tokens, code rate_limit_exceeded). A short
    # request passes: the limit depends on the request's size.
    tpm_limit: int | None = None
    # A reverse proxy's body limit (nginx client_max_body_size): a POST body over this many bytes gets nginx's 413 page.
    max_body_bytes: int | None = None
    # Turn two (issue 31). `ask_tool_call`: a /responses request without a function_call_output is answered with one
    # `exec_command` call running this command (as a model that wants a tool), the next one with text.
    # `reasoning_item`: that answer starts with a reasoning item carrying encrypted_content, as reasoning models do.
    # `turn_two_fault`, only on a request that carries function_call / function_call_output items:
    #   reject_fco (400 "Invalid value: 'function_call_output'"), no_tool_output (400 "No tool output found for
    #   function call …"), tool_role_template (500 "Conversation roles must alternate …", a chat bridge's Jinja
    #   template), bad_reasoning (400 invalid_encrypted_content), html_502 (an nginx 502 page), single_tool_result
    #   (400 from OpenAI behind a chat bridge that keeps only the first tool result of a parallel round: "… tool_call_ids
    #   did not have response messages"; a request with one function_call_output passes).
    # `call_id`: what the streamed function_call carries as call_id ("" or None reproduce broken bridges).
    ask_tool_call: str | None = None
    tool_calls: int = 1  # how many exec_command calls that answer carries (parallel tool calls: 2 or more)
    reasoning_item: bool = False
    turn_two_fault: str | None = None
    call_id: str | None = "call_sim_1"
    keep_bodies: bool = False  # keep each POST's JSON body on its record (tests, captures)
    # A provider whose tokenizer counts differently: its count (usage, and its window) is o200k's times this.
    usage_scale: float = 1.0
    request_id_in_text: bool = False  # error messages end in "(request id: …)", as new-api and one-api write them
    # The message of an error_event / response_failed fault; "{auth}" stands for the bearer token the request
    # carried, as gateways that echo the rejected header write it (tests: no piece of it may reach a report).
    # Terminal escape sequences in it are sent as they are (tests: none may reach the terminal).
    fault_message: str | None = None
    # A gateway that reports an over-long prompt inside a 200 stream: `response.created`, then an `error` event whose
    # message is the window error in `error_style`'s words, then the end of the stream (issue 39). Codex ignores the
    # event and says only "stream closed before response.completed".
    context_in_stream: bool = False
    # Gateways that break on Codex's request: refuse these top-level fields with 400 "Unsupported parameter",
    # or refuse `developer` input items (a Responses-to-Chat translation whose template knows no such role).
    reject_fields: tuple[str, ...] = ()
    reject_developer: bool = False
    tls_certfile: str | None = None  # serve https with this certificate (tests: self-signed, wrong host)
    tls_keyfile: str | None = None
    quiet: bool = True


@dataclass
class RequestRecord:
    """What the simulator saw; the key only as a fingerprint."""

    method: str
    path: str
    status: int = 0
    auth: str | None = None  # "sha256:1a2b3c4d" of the bearer token, or None
    input_tokens: int | None = None
    outcome: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    via_proxy: bool = False
    at: float = field(default_factory=time.monotonic)  # when it arrived (retry timing)
    body: dict[str, Any] | None = None  # the JSON body, with keep_bodies
    request_id: str | None = None  # the id the simulator answered with (x-request-id)


def config_snippet(sim_base_url: str, model: str, env_key: str = "SIM_API_KEY", provider: str = "sim") -> str:
    return (
        f'model = "{model}"\nmodel_provider = "{provider}"\n\n[model_providers.{provider}]\n'
        f'name = "codexdoctor simulator"\nbase_url = "{sim_base_url}"\nenv_key = "{env_key}"\nwire_api = "responses"\n'
    )
