"""What Codex 0.171's own sentence about a failed turn says of how the provider's stream ended.

Codex prints (and writes into the rollout's `task_complete` error) a fixed sentence for each ending it knows
(docs/codex-behaviour.md, "How a stream ends", from codex-rs/protocol/src/error.rs and real runs): the partial answer's
`Incomplete response returned, reason: …`, `Quota exceeded. …` for insufficient_quota, the ChatGPT upgrade line for
usage_not_included, and, after `stream disconnected before completion:`, either one of Codex's own phrases or the
provider's message from a `response.failed`. `diagnose-error` and `sessions` both read a line here, so a pasted line
and a session log that carry the same sentence get the same kind.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codexdoctor.model import Msg
from codexdoctor.net.kinds import FailureKind

INCOMPLETE = re.compile(r"Incomplete response returned, reason:\s*(\w+)", re.I)
QUOTA = "Quota exceeded. Check your plan and billing details."
USAGE_NOT_INCLUDED = "To use Codex with your ChatGPT plan, upgrade to Plus"
STREAM = re.compile(r"stream disconnected before completion:\s*(.*)", re.S | re.I)
# What Codex itself writes after `stream disconnected before completion:` (anything else there is the provider's
# message from a response.failed, Codex's Retryable { message }).
CODEX_PHRASES = (
    "stream closed before response.completed",
    "idle timeout waiting for sse",
    "transport error",
    "failed to parse responsecompleted",
    "incomplete response returned",
    "error sending request",
    "error decoding response body",
)


# What Codex 0.171 prints for a response.failed, by its error.code (codex-rs/protocol/src/error.rs; each seen in a real
# run): evidence beside the provider's own error. Any other code: `stream disconnected before completion: <message>`.
FAILED_SAYS = {
    "context_length_exceeded": "Codex ran out of room in the model's context window. Start a new thread or clear "
    "earlier history before retrying.",
    "insufficient_quota": QUOTA,
    "usage_not_included": USAGE_NOT_INCLUDED + ": https://chatgpt.com/explore/plus.",
    "rate_limit_exceeded": "rate limit exceeded: {message}",
    "server_is_overloaded": "Selected model is at capacity. Please try a different model.",
    "slow_down": "rate limit exceeded: {message}",  # 0.171 retries it as a rate limit, then says so (the real CLI)
}
# Codex 0.171 retries a response.failed rate_limit_exceeded after the wait its message names (codex-api
# sse/responses.rs, try_parse_retry_after: this pattern, seconds or milliseconds); without one, after its backoff.
TRY_AGAIN_IN = re.compile(r"(?i)try again in\s*(\d+(?:\.\d+)?)\s*(s|ms|seconds?)")
OVERLOADED = "Selected model is at capacity. Please try a different model."
RATE_LIMIT = re.compile(r"(?:^|ERROR:\s*)rate limit exceeded:\s*(.*)", re.I | re.S)


def try_again_in(message: object) -> float | None:
    """The wait, in seconds, that Codex reads in a rate_limit_exceeded message ("Please try again in 1.5s"), or None."""
    m = TRY_AGAIN_IN.search(message) if isinstance(message, str) else None
    if m is None:
        return None
    value = float(m.group(1))
    return value / 1000 if m.group(2).lower() == "ms" else value


def failed_says(code: object, message: object) -> str:
    """Codex's line for a response.failed with this code and message (retried first unless the code is one Codex does
    not retry: context_length_exceeded, insufficient_quota, usage_not_included, server_is_overloaded)."""
    template = FAILED_SAYS.get(code) if isinstance(code, str) else None
    said = message if isinstance(message, str) else ""
    if template is None:
        return f"stream disconnected before completion: {said}"
    return template.replace("{message}", said)


@dataclass(frozen=True)
class Ending:
    """A stream ending named by Codex's sentence: its kind, a detail, and the provider's words when it carried any."""

    kind: FailureKind
    said: Msg  # the detail, in both languages
    message: str = ""

    @property
    def detail(self) -> str:
        return str(self.said)


def codex_ending(line: str) -> Ending | None:
    """The ending Codex's sentence names, or None when the line is none of these (other readers take it)."""
    m = INCOMPLETE.search(line)
    if m:
        reason = m.group(1)
        incomplete = Msg("response.incomplete: {reason}", "response.incomplete：{reason}", reason=reason)
        if reason == "max_output_tokens":
            return Ending(FailureKind.OUTPUT_CAPPED, incomplete)
        return Ending(FailureKind.STREAM_INCOMPLETE, incomplete)
    if QUOTA.lower() in line.lower():
        return Ending(FailureKind.QUOTA, Msg("quota or billing limit", "配额或账单限制"), QUOTA)
    if USAGE_NOT_INCLUDED.lower() in line.lower():
        return Ending(
            FailureKind.USAGE_NOT_INCLUDED,
            Msg("response.failed: {code}", "response.failed：{code}", code="usage_not_included"),
            USAGE_NOT_INCLUDED,
        )
    if OVERLOADED.lower() in line.lower():
        return Ending(
            FailureKind.SERVER_OVERLOADED,
            Msg("response.failed: {code}", "response.failed：{code}（模型容量已满）", code="server_is_overloaded"),
            OVERLOADED,
        )
    m = RATE_LIMIT.search(line.strip())
    if m:  # printed only once Codex's retries are spent
        said = " ".join(m.group(1).split())
        return Ending(
            FailureKind.STREAM_RATE_LIMITED,
            Msg("response.failed: {code}", "response.failed：{code}（限流）", code="rate_limit_exceeded"),
            said,
        )
    m = STREAM.search(line)
    if m:
        said = " ".join(m.group(1).split())
        if said and not any(p in said.lower() for p in CODEX_PHRASES):
            return Ending(
                FailureKind.STREAM_ERROR,
                Msg("an error inside a 200 stream (response.failed)", "200 流中出错（response.failed）"),
                said,
            )
    return None
