"""Faults on demand: for every request (latency, redirect, hang), per request drawn at random (502, reset,
timeout), and inside an answer that started well (reset mid-stream, broken SSE, an error event, bad gzip, a drip)."""

from __future__ import annotations

import json
import socket
import struct
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from codexdoctor.sim.config import RequestRecord
from codexdoctor.sim.endings import ENDINGS, ending, error_event, failed_event
from codexdoctor.sim.errors import BAD_GATEWAY, stream_error_message, turn_two_error
from codexdoctor.sim.plumbing import Plumbing


class Faults(Plumbing):
    """The misbehaviours a route can call on; each returns having answered (or not answered) the request."""

    if TYPE_CHECKING:  # the answer mixins this one is combined with (sim/handler.py) provide these
        Usage = tuple[int, int | None, int]

        def _chat_json(self, model: str, n_out: int, usage: Usage) -> dict[str, Any]: ...
        def _response_json(self, model: str, n_out: int, usage: Usage) -> dict[str, Any]: ...
        def _chat_events(self, model: str, n_out: int, usage: Usage) -> Iterator[bytes]: ...
        def _response_events(self, model: str, n_out: int, usage: Usage) -> Iterator[bytes]: ...

    def _common(self, rec: RequestRecord) -> bool:
        """Faults that apply to every request. Returns True when the request was already answered."""
        self._sleep(self.cfg.request_latency_ms / 1000)
        if self.cfg.redirect_to:
            rec.status, rec.outcome = 307, "redirect"
            self.send_response(307)
            self.send_header("Location", self.cfg.redirect_to.rstrip("/") + self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return True
        if self.cfg.hang:
            self._hang(rec)
            return True
        return False

    def _reset(self, rec: RequestRecord) -> None:
        rec.outcome = "reset"
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
        self.connection.close()
        self.close_connection = True

    def _hang(self, rec: RequestRecord) -> None:
        rec.outcome = "hang"
        self.server.stopping.wait(self.cfg.hang_seconds)
        self.close_connection = True

    def _stream_fault(
        self, rec: RequestRecord, model: str, n_out: int, usage: tuple[int, int | None, int], chat: bool
    ) -> bool:
        """Answer 200 and then misbehave, as broken gateways and proxies do. True when it answered."""
        fault = self.cfg.stream_fault
        if fault == "json_body":  # `stream: true` answered as if it were not asked for
            body = self._chat_json(model, n_out, usage) if chat else self._response_json(model, n_out, usage)
            self._send_json(rec, 200, body, "fault_json_body")
            return True
        if (fault == "chat_chunks" or fault in ENDINGS) and chat:
            return False  # the right grammar on its own route; the Responses endings are Responses events
        rec.status, rec.outcome = 200, f"fault_{fault}"
        if fault == "slow_headers":
            self._slow_headers(rec)
            return True
        self.send_response(200)
        if fault == "gzip_garbage":
            self._gzip_garbage()
            return True
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        events = list(
            self._chat_events(model, n_out, usage)
            if chat or fault == "chat_chunks"
            else self._response_events(model, n_out, usage)
        )
        try:
            self._misbehave(rec, fault, events)
        except (BrokenPipeError, ConnectionResetError, OSError):
            rec.outcome = "client_gone"
        return True

    def _gzip_garbage(self) -> None:
        """A body that says it is gzip and is not (a proxy that compresses twice, or corrupts)."""
        data = b"\x13\x37 this is not gzip at all \x00\xff" * 8
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _misbehave(self, rec: RequestRecord, fault: str | None, events: list[bytes]) -> None:
        """The stream fault after a 200 and its SSE headers, given the events a good answer would have sent."""
        if fault == "chat_chunks":
            for chunk in events:
                self.wfile.write(chunk)
        elif fault in ENDINGS:
            cfg = self.cfg
            for chunk in ending(
                fault, events, reason=cfg.incomplete_reason, code=cfg.fault_code, message=self._fault_message()
            ):
                self.wfile.write(chunk)
        elif fault == "reset_mid_stream":
            for chunk in events[:4]:
                self.wfile.write(chunk)
            self.wfile.flush()
            self._reset(rec)
        elif fault == "broken_sse":
            self.wfile.write(b"data: {not json\n\nevent response.created\ndata {}\n\ngarbage without a colon\n\n")
        elif fault == "error_event":
            self.wfile.write(events[0])
            self.wfile.write(error_event(self.cfg.fault_code, self._fault_message()))
        elif fault == "response_failed":
            self.wfile.write(events[0])
            self.wfile.write(failed_event(self.cfg.fault_code, self._fault_message()))
        elif fault == "keepalive":
            while not self.server.stopping.wait(self.cfg.keepalive_every_s):
                self.wfile.write(b": keep-alive\n\n")
                self.wfile.flush()
        elif fault == "drip":
            for byte in events[0]:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                self._sleep(1.0)
                if self.server.stopping.is_set():
                    break

    def _context_in_stream(self, rec: RequestRecord, model: str, err: dict[str, Any]) -> None:
        """An over-long prompt answered 200 with `response.created` and an `error` event carrying the window error,
        then the end of the stream: a gateway that reports the upstream's 400 inside a stream it already began."""
        nested = err.get("error")
        inner: dict[str, Any] = nested if isinstance(nested, dict) else err
        message = str(inner.get("message") or "context length exceeded")
        rec.status, rec.outcome = 200, "context_in_stream"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        created = {"type": "response.created", "response": {"id": "resp_sim", "status": "in_progress", "model": model}}
        event = {"type": "error", "code": "context_length_exceeded", "message": message}
        try:
            self.wfile.write(f"event: response.created\ndata: {json.dumps(created)}\n\n".encode())
            self.wfile.write(f"event: error\ndata: {json.dumps(event)}\n\n".encode())
        except OSError:
            rec.outcome = "client_gone"
        self.close_connection = True

    def _slow_headers(self, rec: RequestRecord) -> None:
        """A status line and headers that never end, one byte every 50 ms: each read gets a byte, so no read timeout
        fires and only a deadline that covers the whole exchange ends it."""
        try:
            for byte in b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Slow: " + b"a" * 1_000_000:
                if self.server.stopping.wait(0.05):
                    break
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
        except OSError:
            rec.outcome = "client_gone"
        self.close_connection = True

    def _turn_two_fault(self, rec: RequestRecord, body: dict[str, Any]) -> bool:
        """Faults of gateways and bridges that only the request after a tool call meets (issue 31)."""
        fault = self.cfg.turn_two_fault
        items = body.get("input") or []
        if fault == "html_502":
            self._send_html(rec, 502, BAD_GATEWAY, "turn_two_fault")
            return True
        if fault == "bad_reasoning" and not any(isinstance(i, dict) and i.get("type") == "reasoning" for i in items):
            return False
        answer = turn_two_error(fault, items)
        if answer is None:
            return False
        self._send_json(rec, *answer, "turn_two_fault")
        return True

    def _empty_call_id(self, rec: RequestRecord, body: dict[str, Any]) -> bool:
        """OpenAI's answer to a tool item whose call_id is empty (what a bridge that streams `call_id: ""` causes)."""
        for n, item in enumerate(body.get("input") or []):
            if (
                isinstance(item, dict)
                and item.get("type") in ("function_call", "function_call_output")
                and item.get("call_id") == ""
            ):
                self._send_json(
                    rec,
                    400,
                    {
                        "error": {
                            "message": f"Invalid 'input[{n}].call_id': empty string. Expected a "
                            "string with minimum length 1, but got an empty string instead.",
                            "type": "invalid_request_error",
                            "param": f"input[{n}].call_id",
                            "code": "empty_string",
                        }
                    },
                    "empty_call_id",
                )
                return True
        return False

    def _fault_message(self) -> str:
        template = self.cfg.fault_message or stream_error_message(self.cfg.fault_code, self.cfg.models[0])
        auth = self.headers.get("Authorization", "")
        return template.replace("{auth}", auth[7:] if auth.startswith("Bearer ") else auth)

    def _drawn_fault(self, rec: RequestRecord) -> bool:
        """A 502, a reset or a hang, drawn at --failure-rate. True when the request was answered that way."""
        fault = self.server.draw_fault()
        if fault == "502":
            self._send_html(rec, 502, BAD_GATEWAY, "fault_502")
        elif fault == "reset":
            self._reset(rec)
        elif fault == "timeout":
            self._hang(rec)
        return fault is not None
