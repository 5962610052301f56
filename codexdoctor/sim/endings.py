"""How a Responses stream ends, when it does not end well: the good answer's events with the last one replaced.

Pure functions from the events a healthy answer would send (SSE bytes, the last one `response.completed`) to the
bytes a misbehaving provider or gateway sends instead. Each ending is one Codex 0.171 judges in its own way
(docs/codex-behaviour.md, "Every way a stream ends"): only `response.completed` is a finished turn.
"""

from __future__ import annotations

import json
from typing import Any

# SimConfig.stream_fault values handled here, with the real servers they imitate.
ENDINGS = (
    "incomplete",  # OpenAI's cut-off answer: the text so far, then response.incomplete (incomplete_reason)
    "no_terminal",  # the text, then the connection closes cleanly: no terminal event (a proxy's body timeout)
    "done_only",  # the text, then `data: [DONE]` instead of response.completed (a chat bridge's habit)
    "trailing_done",  # a complete answer followed by `data: [DONE]` (as Chat-minded gateways add it; Codex accepts it)
    "error_then_completed",  # a bare `error` event in the middle of an answer that then completes
)


def event(kind: str, **data: Any) -> bytes:
    """One SSE event as OpenAI writes it: an `event:` line and a `data:` line carrying the same type."""
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n".encode()


def data_of(chunk: bytes) -> dict[str, Any]:
    """The JSON object of one SSE event this simulator wrote (its `data:` line)."""
    for line in chunk.decode().splitlines():
        if line.startswith("data: "):
            value = json.loads(line[6:])
            return value if isinstance(value, dict) else {}
    return {}


def ending(fault: str, events: list[bytes], *, reason: str, code: str, message: str) -> list[bytes]:
    """The bytes of a stream that ends as `fault` says, built from a healthy answer's events."""
    body, last = events[:-1], data_of(events[-1])
    found = last.get("response")
    response: dict[str, Any] = found if isinstance(found, dict) else {}
    if fault == "incomplete":
        cut = {
            **response,
            "status": "incomplete",
            "incomplete_details": {"reason": reason},
            "output": [{**item, "status": "incomplete"} for item in response.get("output") or []],
        }
        return [*body, event("response.incomplete", response=cut)]
    if fault == "no_terminal":
        return body
    if fault == "done_only":
        return [*body, b"data: [DONE]\n\n"]
    if fault == "trailing_done":
        return [*events, b"data: [DONE]\n\n"]
    if fault == "error_then_completed":
        return [*body[:2], error_event(code, message), *body[2:], events[-1]]
    raise ValueError(f"not a stream ending: {fault}")


def error_event(code: str, message: str) -> bytes:
    """A standalone `error` event as OpenAI streams it (type, code, message, param at the top level)."""
    return event("error", code=code, message=message, param=None)


def failed_event(code: str, message: str) -> bytes:
    """`response.failed` with the provider's error inside the response object, as OpenAI streams it."""
    response = {"id": "resp_sim", "object": "response", "status": "failed", "error": {"code": code, "message": message}}
    return event("response.failed", response=response)
