"""What every route needs: recording the request (key as a fingerprint), answering JSON or HTML, the key check."""

from __future__ import annotations

import json
import sys
from http.server import BaseHTTPRequestHandler
from typing import Any

from codexdoctor.sim.config import RequestRecord, SimConfig
from codexdoctor.sim.prompt import fingerprint


class Plumbing(BaseHTTPRequestHandler):
    """Request recording and answering; the routes and faults build on it."""

    server: Any  # the SimServer
    protocol_version = "HTTP/1.0"

    def log_message(self, fmt: str, *args: Any) -> None:
        if not self.server.config.quiet:
            from codexdoctor.common.redact import redact_url

            line = fmt % args
            if "?" in line:  # query values may carry tokens; the Authorization header is never logged
                parts = line.split(" ")
                line = " ".join(
                    redact_url("http://h" + p)[len("http://h") :] if p.startswith("/") else p for p in parts
                )
            sys.stderr.write("sim: " + line + "\n")

    @property
    def cfg(self) -> SimConfig:
        config: SimConfig = self.server.config  # the server class is socketserver's: its attribute is ours
        return config

    def _record(self) -> RequestRecord:
        if self.path.startswith(("http://", "https://")):
            # Absolute-form request line: we were used as an HTTP proxy; serve the request ourselves.
            from urllib.parse import urlsplit

            parts = urlsplit(self.path)
            self.path = parts.path + (f"?{parts.query}" if parts.query else "")
            self.via_proxy = True
        auth = self.headers.get("Authorization")
        token = auth[7:] if auth and auth.startswith("Bearer ") else auth
        rec = RequestRecord(
            self.command,
            self.path,
            auth=fingerprint(token) if token else None,
            headers={k.lower(): ("<redacted>" if k.lower() == "authorization" else v) for k, v in self.headers.items()},
            via_proxy=getattr(self, "via_proxy", False),
        )
        rec.request_id = f"req_sim_{self.server.next_id():06d}"
        self._request_id = rec.request_id
        self.server.records.append(rec)
        return rec

    def end_headers(self) -> None:
        """Every answer names its request, as OpenAI (`x-request-id`) and LiteLLM (`x-litellm-call-id`) do."""
        request_id = getattr(self, "_request_id", None)
        if request_id:
            self.send_header("x-request-id", request_id)
            if self.cfg.error_style == "litellm":
                self.send_header("x-litellm-call-id", request_id.replace("req_sim_", "litellm-call-"))
        super().end_headers()

    def _send_json(self, rec: RequestRecord, status: int, body: Any, outcome: str = "") -> None:
        error = body.get("error") if isinstance(body, dict) else None
        if self.cfg.request_id_in_text and isinstance(error, dict) and isinstance(error.get("message"), str):
            # new-api / one-api put the id into the message itself
            body = {**body, "error": {**error, "message": f"{error['message']} (request id: {rec.request_id})"}}
        data = json.dumps(body).encode()
        rec.status, rec.outcome = status, outcome or rec.outcome
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_html(self, rec: RequestRecord, status: int, html: str, outcome: str) -> None:
        data = html.encode()
        rec.status, rec.outcome = status, outcome
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sleep(self, seconds: float) -> None:
        if seconds > 0:
            self.server.stopping.wait(seconds)

    def _authorized(self, rec: RequestRecord) -> bool:
        if self.cfg.api_key is None:
            return True
        auth = self.headers.get("Authorization", "")
        if not auth.startswith("Bearer ") or not auth[7:].strip():
            self._send_json(
                rec,
                401,
                {
                    "error": {
                        "message": "You didn't provide an API key. You need to provide your API key in an Authorization header "
                        "using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
                        "type": "invalid_request_error",
                        "param": None,
                        "code": None,
                    }
                },
                "no_key",
            )
            return False
        token = auth[7:]
        if token != self.cfg.api_key:
            shown = f"{token[:3]}*****{token[-4:]}" if len(token) > 8 else "*****"
            self._send_json(
                rec,
                401,
                {
                    "error": {
                        "message": f"Incorrect API key provided: {shown}. You can find your API key at https://sim.invalid/keys.",
                        "type": "invalid_request_error",
                        "param": None,
                        "code": "invalid_api_key",
                    }
                },
                "bad_key",
            )
            return False
        return True

    def _route(self) -> str | None:
        """The path below the prefix, or None when the request is outside it."""
        path = self.path.split("?", 1)[0]
        prefix = self.cfg.prefix.rstrip("/")
        if prefix and not (path == prefix or path.startswith(prefix + "/")):
            return None
        return path[len(prefix) :] or "/"
