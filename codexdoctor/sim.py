"""A local OpenAI-compatible provider that misbehaves on demand.

Real sockets, real SSE, real token counts: the live checks, the probe and
`codexdoctor demo` are tested against it, and the real Codex CLI can talk to
it. Faults are opt-in via SimConfig; the defaults are a healthy provider.
"""

from __future__ import annotations

import hashlib
import json
import random
import socket
import ssl
import struct
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator

ERROR_STYLES = ("openai", "vllm", "llamacpp", "litellm", "ollama")
FAULTS = ("502", "reset", "timeout")
ANSWER = ("The simulator answers deterministically. Each reply repeats this sentence so that token counts, "
          "timings and failures are reproducible across runs. ")


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
    report_cached_tokens: bool = True
    cache_speedup: float = 0.1  # fraction of the per-token latency paid for cached tokens
    # Faults in the answer itself: reset_mid_stream | broken_sse | error_event | gzip_garbage | drip (1 byte/s)
    stream_fault: str | None = None
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


def _fp(secret: str) -> str:
    return "sha256:" + hashlib.sha256(secret.encode("utf-8", "surrogateescape")).hexdigest()[:8]


class _Tokens:
    """Lazily loaded shared tokenizer (the same offline one the rest of the project uses)."""

    _tok = None

    @classmethod
    def count(cls, text: str) -> int:
        if cls._tok is None:
            from codexdoctor.common import tokens

            cls._tok = tokens.load("o200k_base")
        return cls._tok.count(text)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text_of(part) for part in content)
    if isinstance(content, dict):
        for key in ("text", "content", "output", "arguments"):
            if key in content:
                return _text_of(content[key])
    return ""


def input_text(body: dict[str, Any], chat: bool) -> str:
    """The prompt as the model would see it: instructions, every message, and the tool schemas."""
    parts: list[str] = []
    if chat:
        for msg in body.get("messages") or []:
            parts.append(_text_of(msg.get("content") if isinstance(msg, dict) else msg))
    else:
        if isinstance(body.get("instructions"), str):
            parts.append(body["instructions"])
        items = body.get("input")
        if isinstance(items, str):
            parts.append(items)
        elif isinstance(items, list):
            parts.extend(_text_of(item) for item in items)
    if body.get("tools"):
        parts.append(json.dumps(body["tools"]))
    return "\n".join(parts)


def count_input(body: dict[str, Any], chat: bool) -> tuple[int, str]:
    text = input_text(body, chat)
    n_items = len(body.get("messages") or []) if chat else (len(body["input"]) if isinstance(body.get("input"), list) else 1)
    return _Tokens.count(text) + 3 * n_items, text


def context_error(style: str, window: int, used: int, model: str) -> tuple[int, dict[str, Any]]:
    """The overflow error exactly as each server family words it (codex-facts §5)."""
    if style == "vllm":
        return 400, {"object": "error", "message": (
            f"This model's maximum context length is {window} tokens. However, your request has {used} input tokens. "
            f"Please reduce the length of the input messages. (parameter=input_tokens, value={used})"),
            "type": "BadRequestError", "param": None, "code": 400}
    if style == "llamacpp":
        return 400, {"error": {"code": 400, "message": "the request exceeds the available context size, try increasing it",
                               "type": "exceed_context_size_error", "n_prompt_tokens": used, "n_ctx": window}}
    if style == "litellm":
        return 400, {"error": {"message": (
            f"litellm.ContextWindowExceededError: litellm.BadRequestError: ContextWindowExceededError: OpenAIException - "
            f"This model's maximum context length is {window} tokens. However, your messages resulted in {used} tokens."
            f" model={model}"), "type": None, "param": None, "code": "400"}}
    return 400, {"error": {"message": "Your input exceeds the context window of this model. Please adjust your input and try again.",
                           "type": "invalid_request_error", "param": "input", "code": "context_length_exceeded"}}


def model_error(style: str, model: str) -> tuple[int, dict[str, Any]]:
    if style == "ollama":
        return 404, {"error": {"message": f'model "{model}" not found, try pulling it first', "type": "api_error",
                               "param": None, "code": None}}
    if style == "litellm":
        return 400, {"error": {"message": f"{{'error': '/chat/completions: Invalid model name passed in model={model}. "
                                          f"Call `/v1/models` to view available models for your key.'}}",
                               "type": "None", "param": "None", "code": "400"}}
    if style == "vllm":
        return 404, {"object": "error", "message": f"The model `{model}` does not exist.", "type": "NotFoundError",
                     "param": None, "code": 404}
    return 404, {"error": {"message": f"The model `{model}` does not exist or you do not have access to it.",
                           "type": "invalid_request_error", "param": None, "code": "model_not_found"}}


LANDING = """<!DOCTYPE html><html><head><title>Sim Gateway - unified AI API</title></head>
<body><h1>Sim Gateway</h1><p>Sign up to get an API key.</p></body></html>"""
BAD_GATEWAY = """<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx</center></body></html>"""


class SimServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def __init__(self, config: SimConfig) -> None:
        self.config = config
        self.records: list[RequestRecord] = []
        self.stopping = threading.Event()
        self._rng = random.Random(config.failure_seed)
        self._lock = threading.Lock()
        self._cache: list[str] = []  # prefixes seen, for the optional prefix cache
        self.counter = 0
        super().__init__((config.host, config.port), _Handler)
        if config.tls_certfile:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(config.tls_certfile, config.tls_keyfile)
            self.socket = context.wrap_socket(self.socket, server_side=True)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"{'https' if self.config.tls_certfile else 'http'}://{host}:{port}"

    @property
    def base_url(self) -> str:
        return self.url + self.config.prefix

    def draw_fault(self) -> str | None:
        with self._lock:
            if self.config.failure_rate <= 0 or self._rng.random() >= self.config.failure_rate:
                return None
            return self._rng.choice(self.config.failure_kinds)

    def cached_prefix_tokens(self, text: str) -> int:
        """Longest previously seen prefix (in tokens), then remember this prompt."""
        with self._lock:
            best = ""
            for seen in self._cache:
                n = _common_prefix_len(seen, text)
                if n > len(best):
                    best = text[:n]
            self._cache.append(text)
            del self._cache[:-32]
        # Providers cache in blocks; report whole 128-token blocks like OpenAI does.
        tokens = _Tokens.count(best) if best else 0
        return (tokens // 128) * 128

    def next_id(self) -> int:
        with self._lock:
            self.counter += 1
            return self.counter

    def handle_error(self, request, client_address) -> None:  # noqa: D401 - quiet on client disconnects
        if not self.config.quiet:
            super().handle_error(request, client_address)


def _common_prefix_len(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


class _Handler(BaseHTTPRequestHandler):
    server: SimServer
    protocol_version = "HTTP/1.0"

    # ---- plumbing -------------------------------------------------------------------------------
    def log_message(self, fmt: str, *args: Any) -> None:
        if not self.server.config.quiet:
            from codexdoctor.common.redact import redact_url

            line = fmt % args
            if "?" in line:  # query values may carry tokens; the Authorization header is never logged
                parts = line.split(" ")
                line = " ".join(redact_url("http://h" + p)[len("http://h"):] if p.startswith("/") else p for p in parts)
            sys.stderr.write("sim: " + line + "\n")

    @property
    def cfg(self) -> SimConfig:
        return self.server.config

    def _record(self) -> RequestRecord:
        if self.path.startswith(("http://", "https://")):
            # Absolute-form request line: we were used as an HTTP proxy; serve the request ourselves.
            from urllib.parse import urlsplit

            parts = urlsplit(self.path)
            self.path = parts.path + (f"?{parts.query}" if parts.query else "")
            self.via_proxy = True
        auth = self.headers.get("Authorization")
        token = auth[7:] if auth and auth.startswith("Bearer ") else auth
        rec = RequestRecord(self.command, self.path, auth=_fp(token) if token else None,
                            headers={k.lower(): ("<redacted>" if k.lower() == "authorization" else v)
                                     for k, v in self.headers.items()},
                            via_proxy=getattr(self, "via_proxy", False))
        self.server.records.append(rec)
        return rec

    def _send_json(self, rec: RequestRecord, status: int, body: Any, outcome: str = "") -> None:
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

    def _sleep(self, seconds: float) -> None:
        if seconds > 0:
            self.server.stopping.wait(seconds)

    def _authorized(self, rec: RequestRecord) -> bool:
        if self.cfg.api_key is None:
            return True
        auth = self.headers.get("Authorization", "")
        if not auth.startswith("Bearer ") or not auth[7:].strip():
            self._send_json(rec, 401, {"error": {
                "message": "You didn't provide an API key. You need to provide your API key in an Authorization header "
                           "using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
                "type": "invalid_request_error", "param": None, "code": None}}, "no_key")
            return False
        token = auth[7:]
        if token != self.cfg.api_key:
            shown = f"{token[:3]}*****{token[-4:]}" if len(token) > 8 else "*****"
            self._send_json(rec, 401, {"error": {
                "message": f"Incorrect API key provided: {shown}. You can find your API key at https://sim.invalid/keys.",
                "type": "invalid_request_error", "param": None, "code": "invalid_api_key"}}, "bad_key")
            return False
        return True

    def _route(self) -> str | None:
        """The path below the prefix, or None when the request is outside it."""
        path = self.path.split("?", 1)[0]
        prefix = self.cfg.prefix.rstrip("/")
        if prefix and not (path == prefix or path.startswith(prefix + "/")):
            return None
        return path[len(prefix):] or "/"

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

    # ---- routes ---------------------------------------------------------------------------------
    def do_HEAD(self) -> None:  # noqa: N802
        rec = self._record()
        rec.status = 200 if self.cfg.landing_page else 404
        self.send_response(rec.status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:  # noqa: N802
        rec = self._record()
        if self._common(rec):
            return
        path = self.path.split("?", 1)[0]
        if path in ("/", "") and self.cfg.landing_page:
            return self._send_html(rec, 200, LANDING, "landing")
        if path == "/props" and self.cfg.publish_window:
            return self._send_json(rec, 200, self._props(), "props")
        route = self._route()
        if route == "/models" and self.cfg.models_route:
            if not self.cfg.models_unauthenticated and not self._authorized(rec):
                return
            return self._send_json(rec, 200, self._models(), "models")
        if route == "/props" and self.cfg.publish_window:
            return self._send_json(rec, 200, self._props(), "props")
        if self.cfg.landing_page:
            return self._send_html(rec, 404, LANDING.replace("Sign up", "Page not found. Sign up"), "not_found")
        self._send_json(rec, 404, {"error": {"message": f"Not Found: {path}", "type": "not_found", "code": None}}, "not_found")

    def do_POST(self) -> None:  # noqa: N802
        rec = self._record()
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self._common(rec):
            return
        route = self._route()
        if route not in ("/responses", "/chat/completions") or (route == "/responses" and self.cfg.chat_only):
            if self.cfg.landing_page:
                return self._send_html(rec, 404, LANDING, "not_found")
            return self._send_json(rec, 404, {"error": {"message": f"Not Found: {self.path.split('?', 1)[0]}",
                                                        "type": "not_found", "code": None}}, "not_found")
        if not self._authorized(rec):
            return
        try:
            body = json.loads(raw or b"{}")
            if not isinstance(body, dict):
                raise ValueError("body is not an object")
        except ValueError:
            return self._send_json(rec, 400, {"error": {"message": "We could not parse the JSON body of your request.",
                                                        "type": "invalid_request_error", "code": None}}, "bad_json")
        fault = self.server.draw_fault()
        if fault == "502":
            return self._send_html(rec, 502, BAD_GATEWAY, "fault_502")
        if fault == "reset":
            return self._reset(rec)
        if fault == "timeout":
            return self._hang(rec)
        chat = route == "/chat/completions"
        refused = next((f for f in self.cfg.reject_fields if f in body), None)
        if refused:
            return self._send_json(rec, 400, {"error": {"message": f"Unsupported parameter: '{refused}' is not supported with this model.",
                                                        "type": "invalid_request_error", "param": refused,
                                                        "code": "unsupported_parameter"}}, "rejected_field")
        if self.cfg.reject_developer and not chat and any(isinstance(i, dict) and i.get("role") == "developer"
                                                          for i in body.get("input") or []):
            return self._send_json(rec, 400, {"error": {"message": "Conversation roles must alternate user/assistant/user/"
                                                                   "assistant/... (got role 'developer')",
                                                        "type": "BadRequestError", "param": None, "code": "400"}},
                                   "rejected_developer")
        model = str(body.get("model", ""))
        if self.cfg.error_style != "llamacpp" and model not in self.cfg.models:
            status, err = model_error(self.cfg.error_style, model)
            return self._send_json(rec, status, err, "model_not_found")
        used, text = count_input(body, chat)
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
        ttft = (self.cfg.latency_ms + self.cfg.latency_per_1k_ms * (uncached + cached * self.cfg.cache_speedup) / 1000) / 1000
        max_out = body.get("max_output_tokens") if not chat else (body.get("max_tokens") or body.get("max_completion_tokens"))
        n_out = min(self.cfg.output_tokens, int(max_out)) if isinstance(max_out, int) and max_out > 0 else self.cfg.output_tokens
        usage = (reported_input, cached if self.cfg.report_cached_tokens else None, n_out)
        stream = bool(body.get("stream"))
        self._sleep(ttft)
        if self.cfg.stream_fault and self._stream_fault(rec, model, n_out, usage, chat):
            return
        if not stream:
            rec.outcome = rec.outcome or "ok"
            return self._send_json(rec, 200, self._chat_json(model, n_out, usage) if chat else self._response_json(model, n_out, usage))
        rec.status, rec.outcome = 200, rec.outcome or "ok"
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
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

    def _stream_fault(self, rec: RequestRecord, model: str, n_out: int, usage, chat: bool) -> bool:
        """Answer 200 and then misbehave, as broken gateways and proxies do. True when it answered."""
        fault = self.cfg.stream_fault
        rec.status, rec.outcome = 200, f"fault_{fault}"
        self.send_response(200)
        if fault == "gzip_garbage":
            data = b"\x13\x37 this is not gzip at all \x00\xff" * 8
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return True
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        events = list(self._chat_events(model, n_out, usage) if chat else self._response_events(model, n_out, usage))
        try:
            if fault == "reset_mid_stream":
                for chunk in events[:4]:
                    self.wfile.write(chunk)
                self.wfile.flush()
                self._reset(rec)
            elif fault == "broken_sse":
                self.wfile.write(b"data: {not json\n\nevent response.created\ndata {}\n\ngarbage without a colon\n\n")
            elif fault == "error_event":
                self.wfile.write(events[0])
                err = {"type": "error", "code": "server_error", "message": "The upstream model crashed while generating."}
                self.wfile.write(f"event: error\ndata: {json.dumps(err)}\n\n".encode())
            elif fault == "drip":
                for byte in events[0]:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    self._sleep(1.0)
                    if self.server.stopping.is_set():
                        break
        except (BrokenPipeError, ConnectionResetError, OSError):
            rec.outcome = "client_gone"
        return True

    # ---- bodies ---------------------------------------------------------------------------------
    def _models(self) -> dict[str, Any]:
        data = []
        for mid in self.cfg.models:
            # Real servers say who they are here: vLLM owned_by "vllm", llama.cpp "llamacpp", Ollama "library".
            owner = {"vllm": "vllm", "llamacpp": "llamacpp", "ollama": "library"}.get(self.cfg.error_style, "codexdoctor-sim")
            entry: dict[str, Any] = {"id": mid, "object": "model", "created": 1700000000, "owned_by": owner}
            if self.cfg.publish_window and self.cfg.context_window:
                entry["max_model_len"] = self.cfg.context_window
            data.append(entry)
        return {"object": "list", "data": data}

    def _props(self) -> dict[str, Any]:
        return {"default_generation_settings": {"n_ctx": self.cfg.context_window}, "n_ctx": self.cfg.context_window,
                "total_slots": 1}

    def _pieces(self, n_out: int) -> list[str]:
        from codexdoctor.common import tokens

        tok = tokens.load("o200k_base")
        text = ANSWER * (1 + n_out // 20)
        if tok.exact:
            ids = tok.encode(text)[:n_out]
            return [tok.decode([i]) for i in ids]
        return text.split(" ")[:n_out]

    @staticmethod
    def _usage(usage: tuple[int, int | None, int], chat: bool) -> dict[str, Any]:
        inp, cached, out = usage
        if chat:
            u: dict[str, Any] = {"prompt_tokens": inp, "completion_tokens": out, "total_tokens": inp + out}
            if cached is not None:
                u["prompt_tokens_details"] = {"cached_tokens": cached}
            return u
        u = {"input_tokens": inp, "output_tokens": out, "total_tokens": inp + out,
             "output_tokens_details": {"reasoning_tokens": 0}}
        if cached is not None:
            u["input_tokens_details"] = {"cached_tokens": cached}
        return u

    def _response_obj(self, rid: str, model: str, status: str, text: str | None, usage=None) -> dict[str, Any]:
        obj: dict[str, Any] = {"id": rid, "object": "response", "created_at": int(time.time()), "status": status,
                               "model": model, "output": []}
        if text is not None:
            obj["output"] = [{"id": rid.replace("resp", "msg"), "type": "message", "status": "completed", "role": "assistant",
                              "content": [{"type": "output_text", "text": text, "annotations": []}]}]
        if usage is not None:
            obj["usage"] = self._usage(usage, chat=False)
        return obj

    def _response_json(self, model: str, n_out: int, usage) -> dict[str, Any]:
        rid = f"resp_sim_{self.server.next_id()}"
        return self._response_obj(rid, model, "completed", "".join(self._pieces(n_out)), usage)

    def _response_events(self, model: str, n_out: int, usage) -> Iterator[bytes]:
        rid = f"resp_sim_{self.server.next_id()}"
        mid = rid.replace("resp", "msg")
        seq = iter(range(10**6))

        def ev(kind: str, **data: Any) -> bytes:
            payload = {"type": kind, "sequence_number": next(seq), **data}
            return f"event: {kind}\ndata: {json.dumps(payload)}\n\n".encode()

        yield ev("response.created", response=self._response_obj(rid, model, "in_progress", None))
        yield ev("response.in_progress", response=self._response_obj(rid, model, "in_progress", None))
        item = {"id": mid, "type": "message", "status": "in_progress", "role": "assistant", "content": []}
        yield ev("response.output_item.added", output_index=0, item=item)
        yield ev("response.content_part.added", item_id=mid, output_index=0, content_index=0,
                 part={"type": "output_text", "text": "", "annotations": []})
        pieces = self._pieces(n_out)
        for i, piece in enumerate(pieces):
            if self.cfg.stall_after_tokens is not None and i == self.cfg.stall_after_tokens:
                self._sleep(self.cfg.stall_seconds)
            yield ev("response.output_text.delta", item_id=mid, output_index=0, content_index=0, delta=piece)
        text = "".join(pieces)
        yield ev("response.output_text.done", item_id=mid, output_index=0, content_index=0, text=text)
        done_item = {**item, "status": "completed", "content": [{"type": "output_text", "text": text, "annotations": []}]}
        yield ev("response.content_part.done", item_id=mid, output_index=0, content_index=0, part=done_item["content"][0])
        yield ev("response.output_item.done", output_index=0, item=done_item)
        yield ev("response.completed", response=self._response_obj(rid, model, "completed", text, usage))

    def _chat_json(self, model: str, n_out: int, usage) -> dict[str, Any]:
        return {"id": f"chatcmpl-sim{self.server.next_id()}", "object": "chat.completion", "created": int(time.time()),
                "model": model, "choices": [{"index": 0, "message": {"role": "assistant", "content": "".join(self._pieces(n_out))},
                                             "finish_reason": "stop"}], "usage": self._usage(usage, chat=True)}

    def _chat_events(self, model: str, n_out: int, usage) -> Iterator[bytes]:
        cid = f"chatcmpl-sim{self.server.next_id()}"

        def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
            body = {"id": cid, "object": "chat.completion.chunk", "created": int(time.time()), "model": model,
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **extra}
            return f"data: {json.dumps(body)}\n\n".encode()

        yield chunk({"role": "assistant", "content": ""})
        for i, piece in enumerate(self._pieces(n_out)):
            if self.cfg.stall_after_tokens is not None and i == self.cfg.stall_after_tokens:
                self._sleep(self.cfg.stall_seconds)
            yield chunk({"content": piece})
        yield chunk({}, "stop", usage=self._usage(usage, chat=True))
        yield b"data: [DONE]\n\n"


class RunningSim:
    """A simulator serving in a background thread; use as a context manager or call stop()."""

    def __init__(self, config: SimConfig) -> None:
        self.server = SimServer(config)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                       name="codexdoctor-sim", daemon=True)

    @property
    def config(self) -> SimConfig:
        return self.server.config

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def base_url(self) -> str:
        return self.server.base_url

    @property
    def records(self) -> list[RequestRecord]:
        return self.server.records

    def reconfigure(self, **changes: Any) -> None:
        self.server.config = replace(self.server.config, **changes)

    def start(self) -> "RunningSim":
        if not self.thread.is_alive():
            self.thread.start()
        return self

    def stop(self) -> None:
        self.server.stopping.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    def __enter__(self) -> "RunningSim":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def start(config: SimConfig | None = None, **kwargs: Any) -> RunningSim:
    return RunningSim(replace(config or SimConfig(), **kwargs)).start()


def config_snippet(sim_base_url: str, model: str, env_key: str = "SIM_API_KEY", provider: str = "sim") -> str:
    return (f'model = "{model}"\nmodel_provider = "{provider}"\n\n[model_providers.{provider}]\n'
            f'name = "codexdoctor simulator"\nbase_url = "{sim_base_url}"\nenv_key = "{env_key}"\nwire_api = "responses"\n')
