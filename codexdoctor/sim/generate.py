"""POST: the generation routes. Admission (route, key, body, faults, refused fields, model), the window
(error or silent truncation), the prefix cache and timing, then the answer as JSON or a stream."""

from __future__ import annotations

import json

from codexdoctor.common import outside_json as outside
from codexdoctor.sim.chat import ChatBodies
from codexdoctor.sim.errors import LANDING, TOO_LARGE, context_error, model_error
from codexdoctor.sim.prompt import count_input
from codexdoctor.sim.responses import ResponsesBodies


class GenerationRoutes(ResponsesBodies, ChatBodies):
    """POST /responses and /chat/completions."""

    def do_POST(self) -> None:
        rec = self._record()
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self._common(rec):
            return
        if self.cfg.max_body_bytes is not None and len(raw) > self.cfg.max_body_bytes:
            return self._send_html(rec, 413, TOO_LARGE, "too_large")
        if self.server.take_rate_limit():
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
            return
        route = self._route()
        if route not in ("/responses", "/chat/completions") or (route == "/responses" and self.cfg.chat_only):
            if self.cfg.landing_page:
                return self._send_html(rec, 404, LANDING, "not_found")
            return self._send_json(
                rec,
                404,
                {"error": {"message": f"Not Found: {self.path.split('?', 1)[0]}", "type": "not_found", "code": None}},
                "not_found",
            )
        if not self._authorized(rec):
            return
        body = outside.parse(raw or b"{}").value  # depth-limited: a client's nesting bomb is one more bad body
        if not isinstance(body, dict):
            return self._send_json(
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
        if self.cfg.keep_bodies:
            rec.body = body
        if self._drawn_fault(rec):
            return
        chat = route == "/chat/completions"
        turn_two = not chat and any(
            isinstance(i, dict) and i.get("type") in ("function_call", "function_call_output")
            for i in body.get("input") or []
        )
        if turn_two and self._empty_call_id(rec, body):
            return
        if turn_two and self.cfg.turn_two_fault and self._turn_two_fault(rec, body):
            return
        refused = next((f for f in self.cfg.reject_fields if f in body), None)
        if refused:
            return self._send_json(
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
        if (
            self.cfg.reject_developer
            and not chat
            and any(isinstance(i, dict) and i.get("role") == "developer" for i in body.get("input") or [])
        ):
            return self._send_json(
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
        model = str(body.get("model", ""))
        if self.cfg.error_style != "llamacpp" and model not in self.cfg.models:
            status, err = model_error(self.cfg.error_style, model)
            return self._send_json(rec, status, err, "model_not_found")
        used, text = count_input(body, chat)
        used = int(used * self.cfg.usage_scale)
        rec.input_tokens = used
        window = self.cfg.context_window
        reported_input = used
        if window is not None and used > window:
            if self.cfg.error_style == "ollama":
                reported_input = window  # silently truncated, answered 200
                rec.outcome = "truncated"
            else:
                status, err = context_error(self.cfg.error_style, window, used, model)
                return self._send_json(rec, status, err, "context_exceeded")
        cached = self.server.cached_prefix_tokens(text) if self.cfg.prefix_cache else 0
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
        usage = (reported_input, cached if self.cfg.report_cached_tokens else None, n_out)
        stream = bool(body.get("stream"))
        self._sleep(ttft)
        if self.cfg.stream_fault and self._stream_fault(rec, model, n_out, usage, chat):
            return
        if not stream:
            rec.outcome = rec.outcome or "ok"
            return self._send_json(
                rec, 200, self._chat_json(model, n_out, usage) if chat else self._response_json(model, n_out, usage)
            )
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
