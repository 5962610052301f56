"""`codexdoctor diagnose-error`: classify a pasted Codex or provider error with the same catalog as `check`.

Codex prints provider failures in a few fixed shapes (codex-facts §6); each is
turned into the facts a live check would have gathered, so the same rules,
codes and remedies apply.
"""

from __future__ import annotations

import json
import re
from typing import Any

from codexdoctor.checks.base import CheckContext, result
from codexdoctor.model import CheckResult, Status

UNEXPECTED = re.compile(r"unexpected status (\d{3})(?: [A-Za-z ]+)?:\s*(.*?)(?:,\s*url:\s*(\S+))?\s*$", re.S)
RETRY_LIMIT = re.compile(r"exceeded retry limit, last status:\s*(\d{3})", re.I)
MISSING_ENV = re.compile(r"Missing environment variable:\s*`?([A-Za-z_][A-Za-z0-9_]*)`?")
RECONNECTING = re.compile(r"Reconnecting\.\.\.\s*\d+/\d+\s*\((.*)\)\s*$", re.S)
STREAM = re.compile(r"stream disconnected before completion:\s*(.*)", re.S | re.I)


def _exchange(status: int | None, message: str, url: str | None, stream_kind: str | None = None):
    from codexdoctor.transport import Exchange, StreamStats

    body_json: Any = None
    text = message.strip()
    if text.startswith("{"):
        try:
            body_json = json.loads(text)
        except ValueError:
            body_json = None
    if body_json is None and text:
        body_json = {"error": {"message": text}}
    stream = None
    if stream_kind:
        stream = StreamStats(events=1, terminal=None, cut=stream_kind)
    return Exchange("POST", url or "(from the pasted error)", status, 0.0,
                    "text/event-stream" if stream else "application/json", " ".join(text.split())[:300], body_json,
                    stream=stream, sent_key=True)


def _status_from_body(body: Any) -> int:
    if isinstance(body, dict):
        err = body.get("error", body)
        code = err.get("code") if isinstance(err, dict) else None
        if isinstance(code, int) and 400 <= code < 600:
            return code
        if isinstance(code, str) and code.isdigit() and 400 <= int(code) < 600:
            return int(code)
    return 400


def interpret(text: str) -> tuple[str, Any]:
    """(kind of input, parsed detail) for a pasted error."""
    text = text.strip()
    m = RECONNECTING.search(text)
    if m:
        return interpret(m.group(1))
    m = MISSING_ENV.search(text)
    if m:
        return "missing_env", m.group(1)
    if "ran out of room in the model's context window" in text:
        return "context", None
    m = UNEXPECTED.search(text)
    if m:
        return "http", (int(m.group(1)), m.group(2), m.group(3))
    m = RETRY_LIMIT.search(text)
    if m:
        return "http", (int(m.group(1)), text, None)
    m = STREAM.search(text)
    if m:
        detail = m.group(1).lower()
        if "idle timeout" in detail:
            return "stream", "idle"
        if "incomplete response" in detail:
            return "incomplete", m.group(1)
        return "stream", "closed"
    if text.startswith("{"):
        try:
            body = json.loads(text)
            return "http", (_status_from_body(body), text, None)
        except ValueError:
            pass
    if re.search(r"does not exist or you do not have access|not found, try pulling it|Invalid model name", text, re.I):
        return "http", (404, text, None)
    return "unknown", None


def checks_for(text: str, ctx: CheckContext) -> list[CheckResult]:
    from codexdoctor.checks import env as env_checks
    from codexdoctor.checks.live import LiveRun
    from codexdoctor.classify import Classified, classify
    from codexdoctor.transport import Deadline

    kind, detail = interpret(text)
    shown = ctx.redactor(" ".join(text.split())[:300])
    evidence = (f"pasted: {shown}",)
    if kind == "missing_env":
        var = detail
        near = env_checks.near_miss_names(var, ctx.env)
        hits = env_checks.find_in_rc_files(var, ctx.home)
        where = ctx.resolution.provider_field_origin("env_key") if ctx.provider.env_key == var else "env_key in config.toml"
        state = "blank" if var in ctx.env else "missing"
        return [result("env.key", "API key variable", Status.FAIL, f"${var} is {state}", evidence + tuple(
            f"${n} is set" for n in near), env_key=var, state=state, near_miss=near, rc_hits=hits,
            env_key_where=where, problems=[], provider=ctx.provider.id, builtin=False, local=False,
            bearer_token=False, requires_openai_auth=False, user_config="~/.codex/config.toml", env_key_looks_like_key=False)]
    if kind == "context":
        return [result("ctx.pasted", "Pasted error", Status.FAIL, "context window exhausted", evidence, kind="context",
                       user_config=_user_config(ctx))]
    if kind == "unknown":
        return [result("ctx.pasted", "Pasted error", Status.WARN, "not a known Codex or provider error shape", evidence,
                       kind="unknown", inconclusive_reason="the pasted text is not a known Codex or provider error")]
    if kind == "http":
        status, message, url = detail
        ex = _exchange(status, message, ctx.redactor(url) if url else None)
        classified = classify(ex)
    elif kind == "incomplete":
        ex = _exchange(200, detail, None)
        classified = Classified("stream_incomplete", detail)
    else:
        ex = _exchange(200, "", None, stream_kind=detail)
        classified = classify(ex)
    if classified.kind == "context_exceeded":
        return [result("ctx.pasted", "Pasted error", Status.FAIL, "context window exceeded", evidence, kind="context",
                       user_config=_user_config(ctx))]
    runner = LiveRun(ctx, Deadline(1), client=_NoClient())
    canary = runner.canary_result(ex, classified)
    return [CheckResult(canary.id, "Pasted error", canary.status, canary.summary, canary.facts, evidence)]


def _user_config(ctx: CheckContext) -> str:
    layer = ctx.resolution.user_layer
    return layer.label if layer else "~/.codex/config.toml"


class _NoClient:
    """diagnose-error sends nothing; LiveRun only needs a client-shaped object it never uses."""

    def close(self) -> None:
        pass
