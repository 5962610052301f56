"""The words each server family puts in its error bodies, by what they mean (codex-facts §5, §6, §10): net.classify
reads a body for them; diagnose-error and the session reader read a pasted line or a log for some of them too.

Lower-case substrings (the text is lowered first), each family's real wording; the readers of a marker list that
needs more than "is it there" (the TPM numbers, the item a turn-two error names) sit beside it.
"""

from __future__ import annotations

import re

CONTEXT_MARKERS = (
    "context_length_exceeded",
    "maximum context length",
    "exceed_context_size_error",
    "contextwindowexceedederror",
    "exceeds the context window",
    "context window exceeded",
    "exceeds the available context size",
    "prompt is too long",
    "input is too long",
    "reduce the length of the messages",
    "too many tokens",
    "context_length",
    # Ollama: "prompt too long; exceeded max context length by N tokens"
    "prompt too long",
    "max context length",
    "context length exceeded",
    # Providers Chinese developers put behind Codex, and local servers (docs/provider-errors.md):
    "exceeded model token limit",  # Moonshot Kimi: "…exceeded model token limit: 262144 (requested: N)"
    "context window exceeds limit",  # MiniMax: "invalid params, context window exceeds limit"
    "model_context_window_exceeded",  # Zhipu z.ai
    "range of input length should be",  # Alibaba DashScope (Qwen): "…should be [1, 30720]"
    "greater than the context length",  # LM Studio
    "maximum model length is",  # vLLM, older wording
    "configured context size is",  # "prompt has N tokens, but the configured context size is M tokens"
    "prompt token count of",  # GitHub Copilot: "prompt token count of N exceeds the limit of M"
    "input token count",  # Google Gemini: "The input token count (N) exceeds the maximum number of tokens…"
    "maximum prompt length is",  # xAI: "This model's maximum prompt length is N but the request contains M"
    "must be less than max_seq_len",  # hosted APIs: "prompt_tokens (N) must be less than max_seq_len (M)"
    "输入长度超过",
    "上下文长度超",
    "超出最大长度",
    "超过最大长度",
    "prompt 超长",
)
MODEL_MARKERS = (
    "model_not_found",
    "does not exist",
    "try pulling it first",
    "invalid model name",
    "no such model",
    "unknown model",
    "model not found",
    "is not a valid model",
    "not a valid model id",
    "model_not_supported",
    "no endpoints found for",
    "unsupported model",
    "not supported model",
    "no available channel for model",
    "模型不存在",
    "无可用渠道",
    # Moonshot (Kimi), 404: "Not found the model kimi-latest or Permission denied" (not a wrong path)
    "not found the model",
    "无权访问模型",
)
# one-api / new-api and their forks answer 503 when no channel serves the model for the key's group: a reply of the
# gateway's own, the same for a mistyped model ID and for one whose channels are all disabled, never an outage to wait out.
NO_CHANNEL_MARKERS = ("无可用渠道", "no available channel")
NO_KEY_MARKERS = (
    "didn't provide an api key",
    "no api key",
    "missing api key",
    "missing authentication",
    "authorization header is missing",
    "missing bearer",
    "no auth credentials found",
    "api key is required",
    "未提供令牌",
    "未提供 api key",
)
AUTH_MARKERS = (
    "invalid_api_key",
    "incorrect api key",
    "invalid api key",
    "invalid token",
    "unauthorized",
    "authentication",
    "no connected db",
    "api key not valid",
    "invalid_authentication",
    "令牌",
    "无效的令牌",
)
BLOCK_MARKERS = (
    "cloudflare",
    "attention required",
    "cf-ray",
    "unsupported_country_region_territory",
    "country, region, or territory",
    "not available in your region",
    "access denied",
    "ip address",
    "your ip",
    "forbidden by administrative rules",
    "request blocked",
    "waf",
)
QUOTA_MARKERS = (
    "insufficient_quota",
    "exceeded your current quota",
    "quota exceeded",
    "billing",
    "budget has been exceeded",
    "exceeded budget",
    "额度不足",
    "余额不足",
    "额度已用尽",
)
# A gateway that knows the key but refuses it for its balance answers 401 with these words (new-api/one-api:
# "该令牌额度已用尽 TokenStatusExhausted[sk-abc***xyz]"; checked with Codex 0.171, which shows the body and retries it as
# a wrong key): read before a 401 is taken for a rejected key.
KEY_QUOTA_MARKERS = (
    *QUOTA_MARKERS,
    "tokenstatusexhausted",
    "pre_consume_token_quota_failed",
    "insufficient user quota",
    "credit balance is too low",
)
# OpenAI's per-request token-rate limit: "Request too large for gpt-4o … on tokens per min (TPM): Limit 8000,
# Requested 9000". Waiting never helps when the one request is over the whole minute's budget.
TPM_RE = re.compile(r"(?:tokens per min|\btpm\b).*?limit\s*([\d,]+),\s*requested\s*([\d,]+)", re.S)


def tpm_numbers(text: str) -> tuple[int, int] | None:
    """(limit, requested) of a tokens-per-minute refusal, or None when the text is none."""
    m = TPM_RE.search(text.lower())
    return (int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))) if m else None


PAYMENT_MARKERS = (
    "insufficient credits",
    "insufficient balance",
    "payment required",
    "requires more credits",
    "credit balance",
    "add credits",
    # Alibaba DashScope, an account in arrears: 400 "Access denied, please make sure your account is in
    # good standing" (code Arrearage, help page #overdue-payment)
    "arrearage",
    "overdue-payment",
)


# Errors that only the request after a tool call meets (issue 31), each seen from the real Codex 0.171.0 in front of
# a gateway that breaks that way (scripts/crosscheck_turn_two.py), with the item kind it points at. Specific enough to
# read in a pasted error or a session log; the live check, which knows turn one passed, also reads broader words.
TURN_TWO_MARKERS = (
    ("invalid value: 'function_call_output'", "function_call_output"),
    ("no tool output found for function call", "function_call_output"),
    ("conversation roles must alternate", "tool_role"),
    ("invalid_encrypted_content", "reasoning"),
    ("encrypted content", "reasoning"),
    (".call_id': empty string", "call_id"),
    # OpenAI's words when a chat bridge passed on only the first tool result of a parallel round (issue 38 item 4)
    ("did not have response messages", "parallel_results"),
)
# What Codex 0.171 prints for a 5xx after its 30 retries, whatever the provider said (seen for a chat template that
# refuses the tool role): read as a channel failure, most often at the request after a tool call.
HIGH_DEMAND = ("currently experiencing high demand",)


def turn_two_item(text: str, broad: bool = False) -> str | None:
    """The item kind a turn-two error names, or None. `broad`: also the bare words (the live check, where the
    request that failed is known to be the one after a tool call)."""
    lowered = text.lower().replace("\u2019", "'")
    found = next((item for marker, item in TURN_TWO_MARKERS if marker in lowered), None)
    if found or not broad:
        return found
    return next(
        (
            item
            for marker, item in (
                ("function_call_output", "function_call_output"),
                ("call_id", "call_id"),
                ("reasoning", "reasoning"),
                ("tool", "tool_role"),
                ("function_call", "function_call"),
            )
            if marker in lowered
        ),
        None,
    )
