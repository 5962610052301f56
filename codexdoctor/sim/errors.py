"""Error bodies exactly as each server family words them (codex-facts §5), and the HTML pages gateways serve."""

from __future__ import annotations

from typing import Any


def context_error(style: str, window: int, used: int, model: str) -> tuple[int, dict[str, Any]]:
    """The overflow error exactly as each server family words it (codex-facts §5)."""
    if style == "vllm":
        return 400, {
            "object": "error",
            "message": (
                f"This model's maximum context length is {window} tokens. However, your request has {used} input tokens. "
                f"Please reduce the length of the input messages. (parameter=input_tokens, value={used})"
            ),
            "type": "BadRequestError",
            "param": None,
            "code": 400,
        }
    if style == "llamacpp":
        return 400, {
            "error": {
                "code": 400,
                "message": "the request exceeds the available context size, try increasing it",
                "type": "exceed_context_size_error",
                "n_prompt_tokens": used,
                "n_ctx": window,
            }
        }
    if style == "litellm":
        return 400, {
            "error": {
                "message": (
                    f"litellm.ContextWindowExceededError: litellm.BadRequestError: ContextWindowExceededError: OpenAIException - "
                    f"This model's maximum context length is {window} tokens. However, your messages resulted in {used} tokens."
                    f" model={model}"
                ),
                "type": None,
                "param": None,
                "code": "400",
            }
        }
    return 400, {
        "error": {
            "message": "Your input exceeds the context window of this model. Please adjust your input and try again.",
            "type": "invalid_request_error",
            "param": "input",
            "code": "context_length_exceeded",
        }
    }


def model_error(style: str, model: str) -> tuple[int, dict[str, Any]]:
    if style == "ollama":
        return 404, {
            "error": {
                "message": f'model "{model}" not found, try pulling it first',
                "type": "api_error",
                "param": None,
                "code": None,
            }
        }
    if style == "litellm":
        return 400, {
            "error": {
                "message": f"{{'error': '/chat/completions: Invalid model name passed in model={model}. "
                f"Call `/v1/models` to view available models for your key.'}}",
                "type": "None",
                "param": "None",
                "code": "400",
            }
        }
    if style == "vllm":
        return 404, {
            "object": "error",
            "message": f"The model `{model}` does not exist.",
            "type": "NotFoundError",
            "param": None,
            "code": 404,
        }
    return 404, {
        "error": {
            "message": f"The model `{model}` does not exist or you do not have access to it.",
            "type": "invalid_request_error",
            "param": None,
            "code": "model_not_found",
        }
    }


LANDING = """<!DOCTYPE html><html><head><title>Sim Gateway - unified AI API</title></head>
<body><h1>Sim Gateway</h1><p>Sign up to get an API key.</p></body></html>"""
TOO_LARGE = """<html>
<head><title>413 Request Entity Too Large</title></head>
<body>
<center><h1>413 Request Entity Too Large</h1></center>
<hr><center>nginx/1.24.0</center>
</body>
</html>"""
BAD_GATEWAY = """<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx</center></body></html>"""


# SimConfig.turn_two_fault values: faults only the request after a tool call meets (issue 31, issue 38 item 4).
TURN_TWO_FAULTS = (
    "reject_fco",
    "no_tool_output",
    "tool_role_template",
    "bad_reasoning",
    "html_502",
    "single_tool_result",  # a chat bridge that refuses more than one tool output in a request
)


def turn_two_error(fault: str | None, items: list[Any]) -> tuple[int, dict[str, Any]] | None:
    """The JSON error a gateway or bridge answers the request after a tool call with (issue 31), by its fault name
    (SimConfig.turn_two_fault); None for a fault that is not a JSON error."""
    if fault == "reject_fco":
        at = next(n for n, i in enumerate(items) if isinstance(i, dict) and i.get("type") == "function_call_output")
        message = (
            "Invalid value: 'function_call_output'. Supported values are: 'message', 'reasoning', and 'function_call'."
        )
        return 400, _error(message, "invalid_request_error", f"input[{at}].type", "invalid_value")
    if fault == "no_tool_output":
        call = next((i for i in items if isinstance(i, dict) and i.get("type") == "function_call"), {})
        message = f"No tool output found for function call {call.get('call_id') or 'call_unknown'}."
        return 400, _error(message, "invalid_request_error", "input", None)
    if fault == "tool_role_template":
        return 500, _error(
            "Conversation roles must alternate user/assistant/user/assistant/...", "server_error", None, 500
        )
    if fault == "single_tool_result":  # a chat bridge that keeps only the first tool result of a parallel round
        outputs = [
            str(i.get("call_id")) for i in items if isinstance(i, dict) and i.get("type") == "function_call_output"
        ]
        if len(outputs) < 2:
            return None
        message = (
            "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
            f"'tool_call_id'. The following tool_call_ids did not have response messages: {', '.join(outputs[1:])}"
        )
        return 400, _error(message, "invalid_request_error", "messages", None)
    if fault == "bad_reasoning":
        message = "The encrypted content for item rs_sim_1 could not be verified."
        return 400, _error(message, "invalid_request_error", None, "invalid_encrypted_content")
    return None


def _error(message: str, kind: str, param: str | None, code: str | int | None) -> dict[str, Any]:
    """OpenAI's error body: message, type, param, code, in that order."""
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def quota_error(style: str, token: str) -> tuple[int, dict[str, Any]]:
    """A key whose quota is used up (SimConfig.quota_exhausted), as the gateway words it. new-api refuses the right
    key with 401 and names it by three characters each side, as its TokenAuth middleware does; OpenAI answers 429."""
    if style == "newapi":
        key = token.removeprefix("sk-")
        shown = f"sk-{key[:3]}***{key[-3:]}" if len(key) > 6 else "sk-***"
        return 401, {"error": {"message": f"该令牌额度已用尽 TokenStatusExhausted[{shown}]", "type": "new_api_error"}}
    message = (
        "You exceeded your current quota, please check your plan and billing details. For more information on this "
        "error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors."
    )
    return 429, _error(message, "insufficient_quota", None, "insufficient_quota")


def tpm_error(model: str, limit: int, requested: int) -> tuple[int, dict[str, Any]]:
    """OpenAI's per-request token-rate limit (SimConfig.tpm_limit): one request bigger than the whole minute's
    budget."""
    message = (
        f"Request too large for {model} in organization org-sim on tokens per min (TPM): Limit {limit}, Requested "
        f"{requested}. The input or output tokens must be reduced in order to run successfully. Visit "
        "https://platform.openai.com/account/rate-limits to learn more."
    )
    return 429, _error(message, "tokens", None, "rate_limit_exceeded")


# The message an OpenAI-compatible server sends with each `code` of a stream's error (response.failed's
# response.error, an `error` event): `--error-code` without `--error-message` (issue 40 review: a rate-limit code came
# with the generic "model crashed" text). The words as OpenAI's servers send them, seen in public reports and in
# client tests that quote them (docs/simulator.md, "Error codes and their messages"):
# - server_error: the Responses API's "An error occurred while processing your request. You can retry your request,
#   or contact us through our help center at help.openai.com if the error persists. Please include the request ID …"
# - rate_limit_exceeded: "Rate limit reached for <model> in organization <org> on tokens per min (TPM): Limit …,
#   Used …, Requested …. Please try again in <wait>. Visit https://platform.openai.com/account/rate-limits …"
#   (Codex 0.171 waits the "try again in" it names before retrying; the sim's numbers add up as a token bucket's
#   would: 21,510 used + 8,500 requested is 10 over 30,000, refilled at 500 a second in 20 ms)
# - insufficient_quota: "You exceeded your current quota, please check your plan and billing details. …"
# - server_is_overloaded: "Our servers are currently overloaded. Please try again later." (Codex's own tests)
# - context_length_exceeded: "Your input exceeds the context window of this model. Please adjust your input and
#   try again." (the Responses API's 400 and stream error)
# - usage_not_included: ChatGPT's backend sends this type with no message of its own; Codex shows its own sentence
#   ("To use Codex with your ChatGPT plan, upgrade to Plus…"), so the sim's words matter little.
# Another code keeps the generic text.
STREAM_ERROR_MESSAGES = {
    "server_error": (
        "An error occurred while processing your request. You can retry your request, or contact us through our help "
        "center at help.openai.com if the error persists. Please include the request ID {request_id} in your message."
    ),
    "rate_limit_exceeded": (
        "Rate limit reached for {model} in organization org-sim on tokens per min (TPM): Limit 30000, Used 21510, "
        "Requested 8500. Please try again in 20ms. Visit https://platform.openai.com/account/rate-limits to learn more."
    ),
    "insufficient_quota": (
        "You exceeded your current quota, please check your plan and billing details. For more information on this "
        "error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors."
    ),
    "server_is_overloaded": "Our servers are currently overloaded. Please try again later.",
    "context_length_exceeded": (
        "Your input exceeds the context window of this model. Please adjust your input and try again."
    ),
    "usage_not_included": "Not included in your plan.",
}
GENERIC_STREAM_ERROR = "The upstream model crashed while generating."


def stream_error_message(code: str, model: str, request_id: str = "req_sim") -> str:
    """The message that goes with `code` when the user gave none (above)."""
    template = STREAM_ERROR_MESSAGES.get(code, GENERIC_STREAM_ERROR)
    return template.replace("{model}", model).replace("{request_id}", request_id)
