"""The reverse proxy Codex talks to: 127.0.0.1, an ephemeral port, every request forwarded to base_url's origin.

The answer goes back unchanged and as it arrives: the provider's status, headers (but the hop-by-hop ones) and body
bytes, each chunk written and flushed before the recorder looks at its copy (meter.py). Only the origin of base_url
is ever contacted: a request line that names another host is refused. The key travels in Codex's own Authorization
header and is held only by the redactor, which scrubs it from every recorded byte.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable, Mapping
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import httpx

from codexdoctor.common import outside_json as outside
from codexdoctor.common.redact import Redactor
from codexdoctor.common.untrusted import clip, sanitize
from codexdoctor.net.client import make_client
from codexdoctor.net.errors import classify_exception
from codexdoctor.net.exchange import request_id_of
from codexdoctor.watch.meter import Meter
from codexdoctor.watch.record import Recorded, input_kinds, session_of

# Headers that belong to one connection, not to the message (RFC 9110 7.6.1): never forwarded either way.
HOP_BY_HOP = frozenset(
    ("connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer")
    + ("transfer-encoding", "upgrade", "host", "content-length")
)
CONNECT_TIMEOUT = 10.0  # a dead upstream gives Codex its 502 within this
# Past the connect, the recorder never gives up before Codex would: its idle limit is 300 s by default.
READ_TIMEOUT = 900.0
TIMEOUT = httpx.Timeout(connect=CONNECT_TIMEOUT, read=READ_TIMEOUT, write=60.0, pool=CONNECT_TIMEOUT)
MAX_REQUEST = 64 << 20  # a request body over this is refused (Codex's first request is ~40 KB; sessions grow to MBs)
KEEP_BODY = 256 << 10  # --keep-bodies keeps this much of each body


class Upstream:
    """Where requests go: base_url's origin (scheme, host, port), and the client that speaks to it as Codex would
    (its proxy variables, its CA files: net.client.make_client)."""

    def __init__(self, base_url: str, env: Mapping[str, str]) -> None:
        parts = urlsplit(base_url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("base_url is not an http(s) URL with a host")
        host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
        self.origin = f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port else "")
        self.base_path = parts.path.rstrip("/")
        self.client = make_client(env, tls=parts.scheme == "https")

    def close(self) -> None:
        self.client.close()


class Recorder:
    """The running proxy: `start()` binds (or raises OSError), `stop()` ends it. `on_record` is called once per
    request, from the request's own thread, with what it showed."""

    def __init__(
        self,
        upstream: Upstream,
        redactor: Redactor,
        on_record: Callable[[Recorded], None],
        keep_bodies: bool = False,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.upstream = upstream
        self.redactor = redactor
        self.on_record = on_record
        self.keep_bodies = keep_bodies
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()
        self._keys: dict[str, Redactor] = {}
        # Requests still waiting for the provider, recorded as `client_gone` when the run ends first (Ctrl-C while
        # a provider hangs): number -> (what is known of it, when it was sent).
        self._open: dict[int, tuple[dict[str, Any], float]] = {}
        self._recorded: set[int] = set()
        self._server = _Server((host, port), _Handler, self)
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """What Codex is told its provider's base_url is for this run: the recorder, with base_url's own path."""
        return f"http://127.0.0.1:{self.port}{self.upstream.base_path}"

    def start(self) -> Recorder:
        self._thread = threading.Thread(target=self._server.serve_forever, name="codexdoctor-watch", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        with self._lock:
            left = list(self._open.items())
        for known, sent in (value for _, value in left):
            total = round((time.monotonic() - sent) * 1000, 1)
            self.record(Recorded(**known, status=None, ending="client_gone", total_ms=total))
        self.upstream.close()

    def waiting(self, number: int, known: dict[str, Any], sent: float) -> None:
        with self._lock:
            self._open[number] = (known, sent)

    def record(self, rec: Recorded) -> None:
        """Hand one request's record on, once (a request the run's end recorded is not recorded again)."""
        with self._lock:
            self._open.pop(rec.number, None)
            if rec.number in self._recorded:
                return
            self._recorded.add(rec.number)
        self.on_record(rec)

    def next_number(self) -> int:
        with self._lock:
            return next(self._numbers)

    def redactor_for(self, authorization: str | None) -> Redactor:
        """The redactor that also knows the bearer token this request carried (one per token, built once)."""
        token = (authorization or "").strip()
        token = token[7:].strip() if token.lower().startswith("bearer ") else token
        if len(token) < 4:
            return self.redactor
        with self._lock:
            if token not in self._keys:
                self._keys[token] = self.redactor.adding([token])
            return self._keys[token]


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler], recorder: Recorder) -> None:
        self.recorder = recorder
        super().__init__(address, handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A broken client connection is not worth a traceback on Codex's terminal."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Each event goes out in its own small write: with Nagle's algorithm on, the delayed ACK held them ~40 ms
    # (bench/bench_watch.py measured 48 ms added per request before this).
    disable_nagle_algorithm = True
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: the terminal is Codex's."""

    def do_GET(self) -> None:
        self._forward()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = do_GET

    def _forward(self) -> None:
        rec = self.server.recorder
        number = rec.next_number()
        started = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        redact = rec.redactor_for(self.headers.get("Authorization"))
        path = urlsplit(self.path).path
        base: dict[str, Any] = {
            "number": number,
            "method": self.command,
            "path": clip(sanitize(path), 300),
            "started": started,
        }
        if not self.path.startswith("/"):  # absolute-form: another host; this recorder reaches base_url's only
            self._refuse(400, "the recorder forwards to the provider's base_url only")
            rec.record(Recorded(**base, status=400, ending="http_error", body_bytes=0, error="absolute URL"))
            return
        body = self._read_body()
        if body is None:
            self._refuse(413, "request body too large or unreadable")
            rec.record(Recorded(**base, status=413, ending="http_error", body_bytes=0, error="request body"))
            return
        parsed = outside.parse(body).value if body and "json" in self.headers.get("Content-Type", "json") else None
        fields: dict[str, Any] = {
            "body_bytes": len(body),
            "model": clip(sanitize(str(parsed.get("model"))), 120) if isinstance(parsed, dict) else None,
            "input_kinds": input_kinds(parsed),
            "session": session_of(parsed),
        }
        if rec.keep_bodies and body:
            fields["bodies"] = {"request": redact(body[:KEEP_BODY].decode("utf-8", "replace"))}
        sent = time.monotonic()
        rec.waiting(number, {**base, **fields}, sent)
        try:
            request = self._upstream_request(body)
            response = rec.upstream.client.send(request, stream=True)
        except httpx.HTTPError as exc:
            failure, said = classify_exception(exc)
            detail = str(said)  # the record and the refusal are English, as the rest of watch's log
            self._refuse(502, f"codexdoctor watch: the provider could not be reached ({failure}): {detail}")
            total = round((time.monotonic() - sent) * 1000, 1)
            rec.record(
                Recorded(
                    **base,
                    **fields,
                    status=None,
                    ending="unreachable",
                    failure=failure,
                    error=clip(sanitize(redact(detail)), 300),
                    total_ms=total,
                )
            )
            return
        meter = Meter(sent, response.headers.get("content-type", ""), response.headers.get("content-encoding", ""))
        meter.headers()
        ending = self._relay(response, meter)
        rec.record(self._recorded(base, fields, response, meter, ending, redact))

    def _read_body(self) -> bytes | None:
        try:
            if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                parts: list[bytes] = []
                size = 0
                while True:
                    length = int(self.rfile.readline(100).split(b";")[0].strip() or b"0", 16)
                    if length == 0:
                        while self.rfile.readline(8192).strip():
                            pass
                        return b"".join(parts)
                    size += length
                    if size > MAX_REQUEST:
                        return None
                    parts.append(self.rfile.read(length))
                    self.rfile.readline(10)
            length = int(self.headers.get("Content-Length") or 0)
            if length < 0 or length > MAX_REQUEST:
                return None
            return self.rfile.read(length) if length else b""
        except (ValueError, OSError):
            return None

    def _upstream_request(self, body: bytes) -> httpx.Request:
        """Codex's request as it sent it, to the origin: its own headers (Authorization included) and nothing the
        HTTP client would add on its own (an Accept-Encoding Codex did not ask for could change the bytes)."""
        up = self.server.recorder.upstream
        headers = [(k, v) for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP]
        request = up.client.build_request(
            self.command, up.origin + self.path, headers=headers, content=body or None, timeout=TIMEOUT
        )
        sent = {k.lower() for k, _ in headers}
        for name in list(request.headers.keys()):
            if name.lower() not in sent and name.lower() not in ("host", "content-length"):
                del request.headers[name]
        if "accept-encoding" not in sent:
            request.headers["Accept-Encoding"] = "identity"
        return request

    def _relay(self, response: httpx.Response, meter: Meter) -> str:
        """Status and headers, then each chunk written and flushed as it arrives. Returns how it ended."""
        framed = "content-length" in response.headers and "transfer-encoding" not in response.headers
        no_body = self.command == "HEAD" or response.status_code in (204, 304) or response.status_code < 200
        try:
            self.send_response_only(response.status_code, response.reason_phrase)
            for name, value in response.headers.multi_items():
                if name.lower() not in HOP_BY_HOP or (name.lower() == "content-length" and framed):
                    self.send_header(name, value)
            if not framed and not no_body:
                self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.flush()
        except OSError:
            response.close()
            self.close_connection = True
            return "client_gone"
        ending = "done"
        try:
            if not no_body:
                for chunk in response.iter_raw():
                    if not chunk:
                        continue
                    try:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk) if not framed else chunk)
                        self.wfile.flush()
                    except OSError:
                        ending = "client_gone"
                        break
                    meter.feed(chunk)
                if ending == "done" and not framed:
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
        except httpx.HTTPError:
            ending = "reset"  # the provider broke the stream: Codex sees its connection end the same way
        except OSError:
            ending = "client_gone"
        finally:
            response.close()
        if ending != "done":
            self.close_connection = True
        meter.finish()
        return ending

    def _recorded(
        self,
        base: dict[str, Any],
        fields: dict[str, Any],
        response: httpx.Response,
        meter: Meter,
        relay_ending: str,
        redact: Redactor,
    ) -> Recorded:
        status = response.status_code
        text = meter.head.decode("utf-8", "replace")
        error = meter.error
        if status >= 400:
            ending, error = "http_error", text
        elif meter.ending is not None:
            ending = meter.ending
        elif relay_ending in ("reset", "client_gone"):
            ending = relay_ending
        elif not meter.sse:
            ending = "not_sse"
        else:
            ending = "eof"
        code = meter.error_code
        if status >= 400 and code is None:
            from codexdoctor.net.classify import error_code

            code = error_code(outside.parse(text).value) or None
        inp, cached, out = meter.tokens()
        if self.server.recorder.keep_bodies:
            fields["bodies"] = {**fields.get("bodies", {}), "response": redact(text[:KEEP_BODY])}
        return Recorded(
            **base,
            **fields,
            status=status,
            ending=ending,
            response_bytes=meter.bytes,
            input_tokens=inp,
            cached_tokens=cached,
            output_tokens=out,
            headers_ms=meter.ms_since_sent(meter.headers_at),
            first_output_ms=meter.ms_since_sent(meter.first_output_at),
            longest_gap_ms=round(meter.longest_gap * 1000, 1) if meter.events else None,
            events=meter.events,
            total_ms=meter.ms_since_sent(time.monotonic()),
            request_id=request_id_of(response.headers, text if status >= 400 else ""),
            error=clip(sanitize(redact(error), newlines=True), 2000) if error else None,
            error_code=clip(sanitize(redact(code)), 80) if code else None,
            incomplete_reason=clip(sanitize(meter.incomplete_reason), 80) if meter.incomplete_reason else None,
        )

    def _refuse(self, status: int, message: str) -> None:
        """An answer of the recorder's own (a 502 for a provider it cannot reach), as a JSON error body."""
        body = json.dumps({"error": {"message": message, "type": "codexdoctor_watch", "code": None}}).encode()
        try:
            self.send_response_only(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
        except OSError:
            self.close_connection = True
