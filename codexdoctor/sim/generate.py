"""POST: the generation routes. Admission (route, key, body, faults, refused fields, model), the window
(error or silent truncation), the prefix cache and timing, then the answer as JSON or a stream."""

from __future__ import annotations

import json
from typing import Any

from codexdoctor.common import outside_json as outside
from codexdoctor.sim.chat import ChatBodies
from codexdoctor.sim.config import RequestRecord
from codexdoctor.sim.errors import LANDING, TOO_LARGE, context_error, model_error, quota_error, tpm_error
from codexdoctor.sim.prompt import cache_text, count_input
from codexdoctor.sim.responses import ResponsesBodies

Usage = tuple[int, int | None, int]  # input tokens, cached tokens (None: not reported), output tokens


class GenerationRoutes(ResponsesBodies, ChatBodies):
    """POST /responses and /chat/completions."""

    def do_POST(self) -> None:
        """Each step answers the request itself when it ends it (an error, a fault), and says so."""
        rec = self._record()
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self._turned_away(rec, raw):
            return
        route = self._generation_route(rec)
        if route is None:
            return
        body = self._admitted_body(rec, raw)
        if body is None:
            return
        chat = route == "/chat/completions"
        turn_two = not chat and any(
            isinstance(i, dict) and i.get("type") in ("function_call", "function_call_output")
            for i in body.get("input") or []
        )
        if self._refused(rec, body, chat, turn_two):
            return
        model = str(body.get("model", ""))
        if self.cfg.error_style != "llamacpp" and model not in self.cfg.models:
            status, err = model_error(self.cfg.error_style, model)
            return self._send_json(rec, status, err, "model_not_found")
        measured = self._measure(rec, body, chat, model)
        if measured is None:
            return
        usage, n_out, ttft = measured
        self._sleep(ttft)
        if self.cfg.stream_fault and self._stream_fault(rec, model, n_out, usage, chat):
            return
        if not body.get("stream"):
            rec.outcome = rec.outcome or "ok"
            return self._send_json(
                rec, 200, self._chat_json(model, n_out, usage) if chat else self._response_json(model, n_out, usage)
            )
        self._stream(rec, model, n_out, usage, chat, turn_two)

    def _turned_away(self, rec: RequestRecord, raw: bytes) -> bool:
        """Before the route is looked at: the faults of every request, a proxy's body limit, the rate limit."""
        if self._common(rec):
            return True
        if self.cfg.max_body_bytes is not None and len(raw) > self.cfg.max_body_bytes:
            self._send_html(rec, 413, TOO_LARGE, "too_large")
            return True
        if self.server.take_rate_limit():
            self._rate_limited(rec)
            return True
        return False

    def _rate_limited(self, rec: RequestRecord) -> None:
        """OpenAI's 429 with a Retry-After header."""
        data = json.dumps(
            {
                "error": {
                    "message": "Rate limit reached for requests. Please try again in 1s.",
                    "type": "requests",
                    "param": None,
                    "code": "rate_limit_exceeded",
                }
            }
        ).encode()
        rec.status, rec.outcome = 429, "rate_limited"
        self.send_response(429)
        self.send_header("Content-Type", "application/json")
        self.send_header("Retry-After", f"{self.cfg.retry_after_s:g}")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _generation_route(self, rec: RequestRecord) -> str | None:
        """/responses or /chat/completions, or None after a 404 (an HTML one when the server has a landing page)."""
        route = self._route()
        if route not in ("/responses", "/chat/completions") or (route == "/responses" and self.cfg.chat_only):
            if self.cfg.landing_page:
                self._send_html(rec, 404, LANDING, "not_found")
                return None
            self._send_json(
                rec,
                404,
                {"error": {"message": f"Not Found: {self.path.split('?', 1)[0]}", "type": "not_found", "code": None}},
                "not_found",
            )
            return None
        return route

    def _admitted_body(self, rec: RequestRecord, raw: bytes) -> dict[str, Any] | None:
        """The request's JSON object once the key is accepted, or None after a 401 or a 400."""
        if not self._authorized(rec):
            return None
        if self.cfg.quota_exhausted:  # the key is known, its balance is not
            auth = self.headers.get("Authorization", "")
            status, err = quota_error(self.cfg.quota_exhausted, auth.removeprefix("Bearer "))
            self._send_json(rec, status, err, "quota_exhausted")
            return None
        body = outside.parse(raw or b"{}").value  # depth-limited: a client's nesting bomb is one more bad body
        if not isinstance(body, dict):
            self._send_json(
                rec,
                400,
                {
                    "error": {
                        "message": "We could not parse the JSON body of your request.",
                        "type": "invalid_request_error",
                        "code": None,
                    }
                },
                "bad_json",
            )
            return None
        if self.cfg.keep_bodies:
            rec.body = body
        return body

    def _refused(self, rec: RequestRecord, body: dict[str, Any], chat: bool, turn_two: bool) -> bool:
        """A drawn fault, the faults of the request after a tool call, and the fields a gateway refuses."""
        if self._drawn_fault(rec):
            return True
        if turn_two and self._empty_call_id(rec, body):
            return True
        if turn_two and self.cfg.turn_two_fault and self._turn_two_fault(rec, body):
            return True
        refused = next((f for f in self.cfg.reject_fields if f in body), None)
        if refused:
            self._send_json(
                rec,
                400,
                {
                    "error": {
                        "message": f"Unsupported parameter: '{refused}' is not supported with this model.",
                        "type": "invalid_request_error",
                        "param": refused,
                        "code": "unsupported_parameter",
                    }
                },
                "rejected_field",
            )
            return True
        if (
            self.cfg.reject_developer
            and not chat
            and any(isinstance(i, dict) and i.get("role") == "developer" for i in body.get("input") or [])
        ):
            self._send_json(
                rec,
                400,
                {
                    "error": {
                        "message": "Conversation roles must alternate user/assistant/user/"
                        "assistant/... (got role 'developer')",
                        "type": "BadRequestError",
                        "param": None,
                        "code": "400",
                    }
                },
                "rejected_developer",
            )
            return True
        return False

    def _measure(
        self, rec: RequestRecord, body: dict[str, Any], chat: bool, model: str
    ) -> tuple[Usage, int, float] | None:
        """The prompt against a per-request token-rate limit and the window (an error, or ollama's silent truncation),
        the prefix cache, the output cap: the usage to report, the output tokens and the time to first token; None
        after a 429 or a context error."""
        used, text = count_input(body, chat)
        used = int(used * self.cfg.usage_scale)
        rec.input_tokens = used
        if self.cfg.tpm_limit is not None and used > self.cfg.tpm_limit:
            self._send_json(rec, *tpm_error(model, self.cfg.tpm_limit, used), "tpm_too_large")
            return None
        window = self.cfg.context_window
        reported_input = used
        if window is not None and used > window:
            if self.cfg.error_style == "ollama":
                reported_input = window  # silently truncated, answered 200
                rec.outcome = "truncated"
            else:
                status, err = context_error(self.cfg.error_style, window, used, model)
                if self.cfg.context_in_stream:
                    self._context_in_stream(rec, model, err)
                else:
                    self._send_json(rec, status, err, "context_exceeded")
                return None
        cached = self.server.cached_prefix_tokens(cache_text(body, chat)) if self.cfg.prefix_cache else 0
        uncached = max(0, reported_input - cached)
        ttft = (
            self.cfg.latency_ms + self.cfg.latency_per_1k_ms * (uncached + cached * self.cfg.cache_speedup) / 1000
        ) / 1000
        max_out = (
            body.get("max_output_tokens") if not chat else (body.get("max_tokens") or body.get("max_completion_tokens"))
        )
        n_out = (
            min(self.cfg.output_tokens, int(max_out))
            if isinstance(max_out, int) and max_out > 0
            else self.cfg.output_tokens
        )
        return (reported_input, cached if self.cfg.report_cached_tokens else None, n_out), n_out, ttft

    def _stream(self, rec: RequestRecord, model: str, n_out: int, usage: Usage, chat: bool, turn_two: bool) -> None:
        """The answer as server-sent events (a tool call first, when the simulator asks for one), paced by
        token_interval_ms; a client that went away ends it."""
        rec.status, rec.outcome = 200, rec.outcome or "ok"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        if not chat and self.cfg.ask_tool_call and not turn_two:
            rec.outcome = "tool_call"
            events = self._tool_call_events(model, usage, self.cfg.ask_tool_call)
        else:
            events = self._chat_events(model, n_out, usage) if chat else self._response_events(model, n_out, usage)
        try:
            for index, chunk in enumerate(events):
                self.wfile.write(chunk)
                self.wfile.flush()
                if index and self.cfg.token_interval_ms:
                    self._sleep(self.cfg.token_interval_ms / 1000)
                if self.server.stopping.is_set():
                    return
        except (BrokenPipeError, ConnectionResetError):
            rec.outcome = "client_gone"
