"""HTTP for the live checks: one deadline, classified failures, SSE timing, no key across origins.

httpx errors never leave this module: every request becomes an Exchange
(frozen facts: redacted URL, status, timings, a redacted body excerpt, or a
failure class such as `dns`, `refused`, `tls`, `timeout`, `reset`).
"""

from __future__ import annotations

import json
import os
import ssl
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

import httpx

from codexdoctor import __version__
from codexdoctor.common import outside_json as outside
from codexdoctor.common.outside_json import INT64, STRING, Fields, Shape
from codexdoctor.common.untrusted import clip, request_id_in_text

TRANSIENT_FAILURES = ("timeout", "reset")
BODY_EXCERPT = 300
MAX_BODY = 256 * 1024
# A stream may be endless, fast, one line that never ends, or a compression bomb: every read is capped.
MAX_STREAM_BYTES = 16 * 1024 * 1024  # decoded bytes of one answer
MAX_LINE = 1024 * 1024  # one SSE line
MAX_EVENTS = 100_000
MAX_TEXT = 200  # characters of answer text kept
MAX_REASONING = 64 * 1024  # characters of a reasoning item's encrypted_content kept for turn two


class Oversize(Exception):
    """The answer went past one of the caps above; what was read so far still counts."""


class Undecodable(Exception):
    """The answer declares a Content-Encoding its bytes do not follow."""


def bounded_bytes(resp: httpx.Response, limit: int) -> Iterator[bytes]:
    """Decoded body bytes, at most `limit`, decompressing gzip/deflate ourselves in 64 KB steps (httpx would inflate
    a whole chunk at once: a 64 KB bomb becomes 64 MB). Other encodings are not decoded: their bytes are no text we
    can use anyway. Raises Oversize past the limit, Undecodable for bytes that do not follow their encoding."""
    encoding = resp.headers.get("content-encoding", "").strip().lower()
    decoder = None
    if encoding in ("gzip", "x-gzip"):
        decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
    elif encoding == "deflate":
        decoder = zlib.decompressobj()
    produced = 0
    for raw in resp.iter_raw():
        data = raw
        while data:
            room = limit - produced
            if room <= 0:
                raise Oversize(f"more than {limit:,} bytes" + (" once decompressed" if decoder else ""))
            if decoder is None:
                out, data = data[:room], data[room:]
            else:
                try:
                    out = decoder.decompress(data, min(1 << 16, room))
                except zlib.error as exc:
                    raise Undecodable(
                        f"the answer says Content-Encoding: {encoding}, but its bytes are not ({exc})"
                    ) from None
                data = decoder.unconsumed_tail
            if not out:
                break
            produced += len(out)
            yield out


def bounded_lines(chunks: Iterator[bytes], max_line: int = MAX_LINE) -> Iterator[str]:
    """SSE lines (LF, CRLF or CR) from byte chunks; a line longer than max_line stops the stream."""
    buf = b""
    for chunk in chunks:
        buf += chunk
        while True:
            cut = min((i for i in (buf.find(b"\n"), buf.find(b"\r")) if i != -1), default=-1)
            if cut == -1:
                break
            line, rest = buf[:cut], buf[cut + 1 :]
            if buf[cut : cut + 2] == b"\r\n":
                rest = buf[cut + 2 :]
            buf = rest
            yield line.decode("utf-8", "replace")
        if len(buf) > max_line:
            raise Oversize(f"an SSE line longer than {max_line:,} bytes")
    if buf:
        yield buf.decode("utf-8", "replace")


class Deadline:
    """The whole `check` shares one clock; every request gets what is left of it."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.total = seconds
        self.end = clock() + seconds

    def remaining(self) -> float:
        return max(0.0, self.end - self._clock())

    @property
    def expired(self) -> bool:
        return self.remaining() <= 0.0

    def timeout(self, cap: float | None = None, read_cap: float | None = None) -> httpx.Timeout:
        """Connect within 5 s; each read waits at most `read_cap` (the stream idle limit)."""
        left = max(0.05, self.remaining())
        if cap is not None:
            left = min(left, cap)
        read = min(left, read_cap) if read_cap else left
        return httpx.Timeout(left, connect=min(left, 5.0), read=read)


@dataclass(frozen=True)
class StreamStats:
    """What a streamed answer looked like, event by event."""

    events: int = 0
    first_event_ms: float | None = None
    first_token_ms: float | None = None
    max_gap_ms: float = 0.0
    max_gap_after_token_ms: float = 0.0  # silences once text flows: stage 2 stalls, not prefill
    terminal: str | None = None  # response.completed | response.failed | response.incomplete | error | [DONE] | None
    error: Mapping[str, Any] | None = None  # error object carried inside the stream
    incomplete_reason: str | None = None
    usage: Mapping[str, Any] | None = None
    text: str = ""
    cut: str | None = None  # "closed" (EOF before terminal) | "idle" (no event for the idle limit) | "deadline"
    bad_lines: int = 0
    # The first reasoning item the answer carried with encrypted_content (opaque; Codex replays it in turn two).
    reasoning: Mapping[str, Any] | None = None
    # The call_id of each function_call item the answer carried ("" or None: a bridge that loses it).
    tool_call_ids: tuple[str | None, ...] = ()
    # Values the events had missing or of the wrong type (the first few): evidence, and never used as they came.
    shapes: tuple[Shape, ...] = ()
    # Why Codex cannot read the response.completed event the stream sent (CODEX_COMPLETED); empty when it can, or when
    # no such event came. With `terminal` "response.completed" Codex fails the turn on it; without, it skipped it.
    completion_problems: tuple[Shape, ...] = ()
    bad_detail: str | None = None  # why the first unreadable event was unreadable (broken or too deeply nested JSON)


@dataclass(frozen=True)
class Exchange:
    """One request and what came back, already redacted."""

    method: str
    url: str
    status: int | None = None
    elapsed_ms: float = 0.0
    content_type: str = ""
    body_excerpt: str = ""
    body_json: Any = None  # the body parsed (outside_json.parse: depth-limited), or None
    body_malformed: str | None = None  # why a body that looks like JSON ({ or [ first) could not be read
    failure: str | None = None  # dns | refused | tls | timeout | reset | proxy | protocol | redirect | deadline
    failure_detail: str = ""
    location: str | None = None
    stream: StreamStats | None = None
    attempts: int = 1
    sent_key: bool = False
    earlier: tuple[str, ...] = ()  # what the retried attempts got: "502", "reset", ...
    body_sends: int = 1  # how many times the request body went on the wire (same-origin redirects resend it)
    requested_stream: bool = False  # the request asked for server-sent events (`stream: true`)
    retry_after_s: float | None = None  # a 429's or 503's Retry-After, in seconds
    waited_s: float = 0.0  # time spent waiting between attempts (Retry-After or backoff)
    request_bytes: int | None = None  # the JSON body's size on the wire
    server_cert_ca: bool | None = None  # https: the server's own certificate says CA:TRUE (Codex refuses it)
    # What a gateway's support desk asks for first: the provider's own id for this request (a header, or `request
    # id: …` inside its error text) and when it was sent (UTC, to the millisecond).
    request_id: str | None = None
    started_at: str | None = None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300 and self.failure is None

    @property
    def is_html(self) -> bool:
        head = self.body_excerpt.lstrip()[:200].lower()
        return "text/html" in self.content_type or head.startswith(("<!doctype html", "<html"))

    def line(self) -> str:
        """One evidence line: `POST https://h/api/responses -> 401 (123 ms) {...}`, then when it was sent and the
        provider's request id, for the operator's logs."""
        out = self._line()
        if self.started_at or self.request_id:
            out += (
                " ["
                + ", ".join(
                    x
                    for x in (
                        f"sent {self.started_at}" if self.started_at else "",
                        f"request id {self.request_id}" if self.request_id else "",
                    )
                    if x
                )
                + "]"
            )
        return out

    def _line(self) -> str:
        if self.failure and self.status is None:
            out = f"{self.method} {self.url} -> {self.failure} after {self.elapsed_ms:.0f} ms: {self.failure_detail}"
        else:
            out = f"{self.method} {self.url} -> {self.status} ({self.elapsed_ms:.0f} ms)"
            if self.location:
                out += f" Location: {self.location}"
            if self.stream is not None:
                s = self.stream
                ttft = f"{s.first_token_ms:.0f} ms" if s.first_token_ms is not None else "none"
                out += f" stream: {s.events} events, first token {ttft}, longest gap {s.max_gap_ms:.0f} ms, end {s.terminal or s.cut}"
                if s.bad_detail:
                    out += f"; an unreadable event: {s.bad_detail}"
                if s.shapes:
                    out += "; " + "; ".join(shape.sentence() for shape in s.shapes)
            if self.body_excerpt and not self.ok:
                out += f" body: {self.body_excerpt}"
            if self.body_malformed:
                out += f" (unreadable: {self.body_malformed})"
        if self.attempts > 1:
            waited = f", {self.waited_s:.1f} s waited between them" if self.waited_s >= 0.5 else ""
            out += f" [{self.attempts} attempts; earlier: {', '.join(self.earlier)}{waited}]"
        return out


# The CA variables Codex 0.171 reads (both at once), and ones other tools read that Codex ignores (checked with the
# real CLI: scripts/crosscheck_wire.py, the "TLS:" cases).
CA_VARIABLES = ("CODEX_CA_CERTIFICATE", "SSL_CERT_FILE")
IGNORED_CA_VARIABLES = ("NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE")


def ssl_context(env: Mapping[str, str]) -> ssl.SSLContext:
    """System trust plus certifi, or the CA files the user points Codex at (every one of CA_VARIABLES that names a
    file: Codex reads both)."""
    files = [env[v] for v in CA_VARIABLES if env.get(v) and os.path.isfile(env[v])]
    if files:
        ctx = ssl.create_default_context(cafile=files[0])
        for extra in files[1:]:
            try:
                ctx.load_verify_locations(extra)
            except (ssl.SSLError, OSError):
                pass
        return ctx
    ctx = ssl.create_default_context()
    try:
        import certifi

        ctx.load_verify_locations(certifi.where())
    except (ImportError, OSError):
        pass
    return ctx


def proxy_for(url: str, env: Mapping[str, str]) -> str | None:
    """The proxy httpx will use for this URL (from the environment), or None."""
    found = proxy_variable(url, env)
    return env[found] if found else None


def proxy_variable(url: str, env: Mapping[str, str]) -> str | None:
    """The name of the variable whose proxy this URL goes through, as the user spelled it (HTTP_PROXY, http_proxy,
    ALL_PROXY…), or None. As Codex 0.171 does: the scheme's own variable, else ALL_PROXY, even for 127.0.0.1;
    HTTPS_PROXY is not used for http:// URLs; NO_PROXY matches host names as written (localhost is not 127.0.0.1)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    names = {k.lower(): k for k, v in env.items() if v}
    no_proxy = env.get(names.get("no_proxy", ""), "")
    host = parts.hostname or ""
    if no_proxy and (
        no_proxy.strip() == "*"
        or any(
            host == h.strip().lstrip(".") or host.endswith("." + h.strip().lstrip("."))
            for h in no_proxy.split(",")
            if h.strip()
        )
    ):
        return None
    return names.get(f"{parts.scheme}_proxy") or names.get("all_proxy")


def is_ca_certificate(der: bytes) -> bool:
    """Whether a DER certificate says basicConstraints CA:TRUE. rustls (Codex) refuses such a certificate as the
    server's own, even when the user's CA file names that very certificate (`openssl req -x509` makes one by
    default); Python accepts it. A small DER walk: the extension's OID, an optional `critical`, then the value."""
    at = der.find(b"\x06\x03\x55\x1d\x13")  # OID 2.5.29.19 basicConstraints
    if at < 0:
        return False
    i = at + 5
    if der[i : i + 2] == b"\x01\x01":  # critical BOOLEAN
        i += 3
    if der[i : i + 1] != b"\x04" or der[i + 2 : i + 3] != b"\x30":  # OCTET STRING { SEQUENCE {
        return False
    return der[i + 3] >= 3 and der[i + 4 : i + 6] == b"\x01\x01" and der[i + 6] != 0  # cA BOOLEAN TRUE


def make_client(env: Mapping[str, str], tls: bool = True) -> httpx.Client:
    """trust_env=False: we apply exactly the proxy and CA we report, and never read ~/.netrc credentials.

    `tls=False` (a plain-http provider and no proxy) skips building a certificate store nobody would use.
    """
    context: ssl.SSLContext | bool = ssl_context(env) if tls else False
    lowered = {k.lower(): v for k, v in env.items() if v}
    mounts: dict[str, httpx.BaseTransport | None] = {}
    for scheme in ("http", "https"):
        proxy = lowered.get(f"{scheme}_proxy") or lowered.get("all_proxy")
        if proxy:
            mounts[f"{scheme}://"] = httpx.HTTPTransport(proxy=proxy, verify=context)
    for host in lowered.get("no_proxy", "").split(","):
        host = host.strip().lstrip(".")
        if host == "*":
            mounts = {}
            break
        if host:
            mounts[f"all://{host}"] = None
            mounts[f"all://*.{host}"] = None
    return httpx.Client(
        verify=context,
        trust_env=False,
        follow_redirects=False,
        mounts=mounts or None,
        headers={"User-Agent": f"codexdoctor/{__version__}"},
    )


def classify_exception(exc: Exception) -> tuple[str, str]:
    """Turn an httpx/OS error into (failure class, short detail) — never a traceback."""
    text = str(exc) or type(exc).__name__
    low = text.lower()
    if isinstance(exc, httpx.ProxyError):
        return "proxy", clip(text, 200)
    if isinstance(exc, (httpx.ConnectTimeout, httpx.ReadTimeout, httpx.WriteTimeout, httpx.PoolTimeout)):
        phase = {
            "ConnectTimeout": "connecting",
            "ReadTimeout": "waiting for the response",
            "WriteTimeout": "sending",
            "PoolTimeout": "waiting for a connection",
        }[type(exc).__name__]
        return "timeout", f"no answer while {phase}"
    if "certificate" in low or "ssl" in low or "tls" in low:
        if "self-signed" in low or "self signed" in low:
            return "tls", "the server's certificate is self-signed (not trusted)"
        if "expired" in low:
            return "tls", "the server's certificate has expired"
        if "hostname" in low or "doesn't match" in low or "not valid for" in low or "ip address mismatch" in low:
            return "tls", "the certificate is for a different host name"
        if "unable to get local issuer" in low or "unknown ca" in low:
            return "tls", "the certificate is issued by an unknown authority (corporate proxy or private CA?)"
        if "wrong version number" in low or "record layer" in low:
            return "tls", "the server does not speak TLS on this port (http:// vs https://?)"
        return "tls", clip(text, 200)
    if any(
        s in low
        for s in (
            "name or service not known",
            "nodename nor servname",
            "getaddrinfo",
            "temporary failure in name resolution",
            "no address associated",
            "errno -2",
            "errno -3",
            "errno -5",
            "name resolution",
        )
    ):
        return "dns", "the host name does not resolve"
    if "connection refused" in low or "errno 111" in low or "actively refused" in low:
        return "refused", "nothing listens on that host and port (connection refused)"
    if "network is unreachable" in low or "no route to host" in low:
        return "refused", "the network cannot reach that host"
    if (
        isinstance(exc, (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError))
        or "reset" in low
        or "disconnected" in low
    ):
        return "reset", "the connection was closed by the server: " + clip(text, 160)
    if isinstance(exc, httpx.DecodingError):
        return "protocol", "the body could not be decoded (declared compression does not match): " + clip(text, 120)
    if isinstance(exc, httpx.UnsupportedProtocol):
        return "protocol", "unsupported URL scheme"
    if isinstance(exc, httpx.InvalidURL):
        return "protocol", "invalid URL"
    return "protocol", f"{type(exc).__name__}: {clip(text, 160)}"


def _origin(url: str) -> tuple[str, str, int | None]:
    p = urlsplit(url)
    return p.scheme, (p.hostname or ""), p.port or (443 if p.scheme == "https" else 80)


# What Codex 0.171 reads from a response.completed event's `response` (its ResponseCompleted struct). Anything else,
# and Codex ends the turn with `stream disconnected before completion: failed to parse ResponseCompleted: …`: `response`
# a string, `id` missing, `usage` "n/a", a count "12", 12.0, true or past 64 bits, `input_tokens_details` without
# cached_tokens (each checked with the real CLI). Extra fields are ignored; usage and the two details may be null.
CODEX_COMPLETED = Fields(
    required={"id": STRING},
    optional={
        "usage": Fields(
            required={"input_tokens": INT64, "output_tokens": INT64, "total_tokens": INT64},
            optional={
                "input_tokens_details": Fields(required={"cached_tokens": INT64}),
                "output_tokens_details": Fields(required={"reasoning_tokens": INT64}),
            },
        )
    },
)
# The other fields codexdoctor reads from an event, by its type, with the type each must have. A value of another type
# is noted as a shape and not used (Codex skips such a field or the whole event and reads on: checked for `delta` and
# `item`).
_EVENT_FIELDS = {
    "response.output_text.delta": Fields(optional={"delta": STRING}),
    "response.output_item.done": Fields(
        optional={"item": Fields(optional={"type": STRING, "call_id": STRING, "encrypted_content": STRING})}
    ),
    "response.failed": Fields(optional={"response": Fields(optional={"error": Fields()})}),
    "response.incomplete": Fields(
        optional={"response": Fields(optional={"incomplete_details": Fields(optional={"reason": STRING})})}
    ),
    "chat": Fields(optional={"usage": Fields()}),
}


def parse_sse(
    lines: Iterable[str],
    started: float,
    clock: Callable[[], float],
    idle_s: float,
    deadline: Deadline,
    headers_at: float | None = None,
) -> StreamStats:
    """Read an SSE stream (Responses or Chat grammar) and time it.

    `idle_s` is Codex's stream_idle_timeout_ms: no event for that long after the headers (or after the last event)
    ends the stream as `idle timeout waiting for SSE`. Comment keep-alives are no event: they do not reset it.
    Every event is parsed depth-limited and read through outside_json's typed accessors: a value of the wrong type
    is a shape in the result, never an exception."""
    events = 0
    first_event = first_token = None
    last = None
    max_gap = 0.0
    max_gap_after_token = 0.0
    terminal = cut = None
    error: Mapping[str, Any] | None = None
    usage: Mapping[str, Any] | None = None
    incomplete = None
    text: list[str] = []
    bad = 0
    bad_detail: str | None = None
    data_buf: list[str] = []
    event_name = None
    reasoning = None
    call_ids: list[str | None] = []
    shapes: list[Shape] = []
    completion: list[Shape] = []

    def dispatch(name: str | None, data: str) -> str | None:
        nonlocal events, first_event, first_token, last, max_gap, max_gap_after_token, error, usage, incomplete, bad
        nonlocal reasoning, bad_detail, completion
        now = clock()
        events += 1
        if first_event is None:
            first_event = now
        if last is not None:
            max_gap = max(max_gap, now - last)
            if first_token is not None:
                max_gap_after_token = max(max_gap_after_token, now - last)
        last = now
        if data.strip() == "[DONE]":
            return "[DONE]"
        parsed = outside.parse(data)
        event = outside.obj(parsed.value)
        if event is None:
            bad += 1
            bad_detail = bad_detail or parsed.malformed or f"{outside.kind(parsed.value)}, not an object"
            return None
        declared = event.get("type")
        if declared is not None and not isinstance(declared, str):  # Codex cannot read the event at all: skipped
            outside.keep(shapes, [Shape("type", "a string", outside.kind(declared))])
            return None
        kind = declared or name
        choices = "choices" in event
        outside.keep(
            shapes, outside.shape_problems(event, _EVENT_FIELDS.get("chat" if choices else kind or "", Fields()))
        )
        if kind == "response.output_item.done":
            item = outside.obj(event, "item")
            if outside.text(item, "type") == "function_call" and len(call_ids) < 100:
                call_ids.append(outside.text(item, "call_id"))
            content = outside.text(item, "encrypted_content")
            if (
                reasoning is None
                and outside.text(item, "type") == "reasoning"
                and content
                and len(content) <= MAX_REASONING
            ):
                reasoning = {k: outside.at(item, k) for k in ("id", "summary", "encrypted_content")}
        chat_delta = _chat_delta(event, shapes) if choices else None
        if kind == "response.output_text.delta" or chat_delta:
            if first_token is None:
                first_token = now
            if sum(map(len, text)) < MAX_TEXT:
                text.append(outside.text(event, "delta") or chat_delta or "")
        if "error" in event and kind in (None, "error") or kind == "error":
            error = outside.obj(event, "error") or event
            return "error"
        if kind == "response.completed" and event.get("response") is None:
            # Codex reads `response` as optional and skips an event without one: the stream goes on (checked with the
            # real CLI, which then ends as "stream closed before response.completed").
            completion = [Shape("response", "an object", "null" if "response" in event else None)]
            outside.keep(shapes, completion)
            return None
        if kind in ("response.completed", "response.failed", "response.incomplete"):
            resp = outside.obj(event, "response")
            usage = outside.obj(resp, "usage")
            if kind == "response.completed":
                completion = outside.shape_problems(event.get("response"), CODEX_COMPLETED, "response")
                outside.keep(shapes, completion)
            if kind == "response.failed":
                error = outside.obj(resp, "error") or {"message": "response.failed"}
            if kind == "response.incomplete":
                incomplete = outside.text(resp, "incomplete_details", "reason")
            return kind
        if choices:
            usage = outside.obj(event, "usage") or usage
            if outside.text(event, "choices", 0, "finish_reason") == "length":
                incomplete = "length"
        return None

    data_bytes = 0
    since = headers_at if headers_at is not None else started
    try:
        for line in lines:
            if deadline.expired:
                cut = "deadline"
                break
            if idle_s and clock() - (last if last is not None else since) > idle_s:
                cut = "idle"
                break
            if events >= MAX_EVENTS:
                cut = "oversize"
                break
            if line == "":
                if data_buf:
                    terminal = dispatch(event_name, "\n".join(data_buf)) or terminal
                    data_buf, event_name, data_bytes = [], None, 0
                    if terminal in ("[DONE]", "response.completed", "response.failed", "response.incomplete", "error"):
                        break
                continue
            if line.startswith(":"):
                continue  # comment keep-alive: Codex does not count it as an event
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "event":
                event_name = value
            elif name == "data":
                data_bytes += len(value)
                if data_bytes > MAX_LINE:  # one event's data lines without the blank line that ends it
                    cut = "oversize"
                    break
                data_buf.append(value)
            else:
                bad += 1
        else:
            if data_buf:
                terminal = dispatch(event_name, "\n".join(data_buf)) or terminal
    except Oversize:
        cut = "oversize"
    except Undecodable:
        cut = "undecodable"
    except httpx.ReadTimeout:
        cut = "idle"
    except (httpx.RemoteProtocolError, httpx.ReadError, httpx.StreamClosed):
        cut = "deadline" if deadline.expired else "closed"
    if terminal is None and cut is None:
        cut = "closed"

    def ms(t: float | None) -> float | None:
        return None if t is None else round((t - started) * 1000, 1)

    if last is not None and terminal is None and cut == "idle":
        max_gap = max(max_gap, clock() - last)
        if first_token is not None:
            max_gap_after_token = max(max_gap_after_token, clock() - last)
    return StreamStats(
        events,
        ms(first_event),
        ms(first_token),
        round(max_gap * 1000, 1),
        round(max_gap_after_token * 1000, 1),
        terminal,
        error,
        incomplete,
        usage,
        clip("".join(text), MAX_TEXT * 8),
        cut,
        bad,
        reasoning,
        tuple(call_ids),
        shapes=tuple(shapes),
        completion_problems=tuple(completion),
        bad_detail=bad_detail,
    )


_CHAT_CHOICE = Fields(optional={"delta": Fields(optional={"content": STRING}), "finish_reason": STRING})


def _chat_delta(event: Mapping[str, Any], shapes: list[Shape]) -> str | None:
    """The text a Chat Completions chunk carries (choices[0].delta.content); each value of the wrong type on the way
    is noted in `shapes`."""
    choices = event.get("choices")
    if choices is not None and not isinstance(choices, list):
        outside.keep(shapes, [Shape("choices", "an array", outside.kind(choices))])
    elif choices:
        outside.keep(shapes, outside.shape_problems(choices[0], _CHAT_CHOICE, "choices[0]"))
    return outside.text(choices, 0, "delta", "content")


RETRY_AFTER_CAP_S = 60.0  # a Retry-After longer than this is not waited out (Codex waits whatever it says)


def send(
    client: httpx.Client,
    method: str,
    url: str,
    *,
    headers: Mapping[str, str],
    deadline: Deadline,
    redact: Callable[[str], str],
    json_body: Any = None,
    stream: bool = False,
    idle_s: float = 8.0,
    cap_s: float | None = None,
    retries: int = 0,
    backoff: float = 0.2,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.perf_counter,
    resend_ok: Callable[[], bool] | None = None,
    rate_limit_retries: int | None = None,
    on_headers: Callable[[int], None] | None = None,
) -> Exchange:
    """One logical request with transient retries, same-origin redirects only, always an Exchange.

    `resend_ok`: asked before a redirect sends the body again (the probe's budget); False stops there.
    `rate_limit_retries`: how many times a 429 is retried (Codex: stream_max_retries), each after its Retry-After,
    as Codex 0.171 waits it out exactly; None: 429 counts against `retries` like any transient failure.
    `on_headers`: called with the status as soon as a status line arrives (the provider is alive)."""
    attempt = 0
    limited = 0
    waited = 0.0
    earlier: list[str] = []
    while True:
        attempt += 1
        ex = _bounded(
            lambda: _send_once(
                client,
                method,
                url,
                headers,
                deadline,
                redact,
                json_body,
                stream,
                idle_s,
                cap_s,
                clock,
                resend_ok,
                on_headers,
            ),
            deadline,
            cap_s,
        )
        if ex is None:  # headers still dripping in at the deadline: no read timeout ever fired
            return Exchange(
                method,
                redact(url),
                failure="timeout",
                sent_key="Authorization" in headers,
                failure_detail="no complete answer at the deadline (the server was still sending its headers)",
                attempts=attempt,
                earlier=tuple(earlier),
                requested_stream=stream,
                waited_s=round(waited, 1),
            )
        ex = replace(ex, attempts=attempt, earlier=tuple(earlier), waited_s=round(waited, 1))
        if not is_transient(ex):
            return ex
        if ex.status == 429 and rate_limit_retries is not None:
            limited += 1
            pause = min(ex.retry_after_s if ex.retry_after_s is not None else backoff, RETRY_AFTER_CAP_S)
            if limited > rate_limit_retries or deadline.remaining() < pause + 0.05:
                return ex
        else:
            pause = min(backoff, deadline.remaining() / 2)
            if attempt - limited > retries or deadline.remaining() < backoff * 2:
                return ex
            backoff *= 2
        earlier.append(str(ex.status) if ex.status is not None else str(ex.failure))
        sleep(pause)
        waited += pause


HARD_GRACE_S = 0.05


def _bounded(fn: Callable[[], Exchange], deadline: Deadline, cap_s: float | None) -> Exchange | None:
    """Run one exchange on a daemon thread and stop waiting at the deadline, whatever phase it is in.

    httpx's timeouts are per read, so a server that drips its status line and headers a byte at a time never trips
    them, and the response watchdog only exists once headers are complete. The abandoned thread is a daemon: it
    dies with the process and holds nothing the report needs."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["ex"] = fn()
        except BaseException as exc:
            box["exc"] = exc

    worker = threading.Thread(target=run, name="codexdoctor-request", daemon=True)
    worker.start()
    limit = deadline.remaining() if cap_s is None else min(deadline.remaining(), cap_s)
    worker.join(limit + HARD_GRACE_S)
    if worker.is_alive():
        return None
    if "exc" in box:
        raise box["exc"]
    done: Exchange = box["ex"]
    return done


def is_transient(ex: Exchange) -> bool:
    """429 rate limits, 5xx and dropped connections get retried; 401/403/404/quota do not."""
    if ex.failure in TRANSIENT_FAILURES:
        return True
    if ex.status == 429:
        return "insufficient_quota" not in ex.body_excerpt
    return ex.status is not None and ex.status >= 500


# Headers that carry the provider's id for a request: OpenAI and most gateways, LiteLLM, Azure/OpenAI, Anthropic-style
# proxies, Cloudflare. The first one present wins.
REQUEST_ID_HEADERS = (
    "x-request-id",
    "x-litellm-call-id",
    "apim-request-id",
    "x-ms-request-id",
    "request-id",
    "x-amzn-requestid",
    "cf-ray",
)


def request_id_of(headers: Mapping[str, str] | None, text: str = "") -> str | None:
    """The provider's id for this request: a header, else `request id: …` in its error text (new-api and one-api
    write it there, as Codex does in its own error lines)."""
    for name in REQUEST_ID_HEADERS:
        value = (headers or {}).get(name)
        if value and len(value) <= 120:
            return clip(" ".join(value.split()), 120)
    return request_id_in_text(text)


def utc_now() -> str:
    import datetime

    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def retry_after(value: str | None) -> float | None:
    """Retry-After in seconds: a number, or an HTTP date (RFC 9110 §10.2.3)."""
    if not value:
        return None
    try:
        return max(0.0, float(value.strip()))
    except ValueError:
        pass
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    import datetime

    return max(0.0, (when - datetime.datetime.now(datetime.timezone.utc)).total_seconds()) if when.tzinfo else None


def _send_once(
    client: httpx.Client,
    method: str,
    url: str,
    headers: Mapping[str, str],
    deadline: Deadline,
    redact: Callable[[str], str],
    json_body: Any,
    stream: bool,
    idle_s: float,
    cap_s: float | None,
    clock: Callable[[], float],
    resend_ok: Callable[[], bool] | None = None,
    on_headers: Callable[[int], None] | None = None,
) -> Exchange:
    shown = redact(url)
    started = clock()
    sent_at = utc_now()
    failure: str | None  # None once an answer is read whole
    size = len(json.dumps(json_body).encode()) if json_body is not None else None
    if deadline.expired:
        return Exchange(
            method, shown, failure="deadline", failure_detail="the check's deadline was reached before this request"
        )
    current = url
    sends = 0
    for _hop in range(3):
        if sends and json_body is not None and resend_ok is not None and not resend_ok():
            return Exchange(
                method,
                redact(current),
                None,
                round((clock() - started) * 1000, 1),
                failure="redirect",
                failure_detail="same-origin redirect not followed: it would send the request again past the budget",
                sent_key="Authorization" in headers,
                body_sends=sends,
            )
        sends += 1
        try:
            # Only encodings bounded_bytes decodes with a cap (httpx would also offer br/zstd when installed).
            # Waiting for the headers is bounded by the deadline alone: Codex's stream_idle_timeout_ms starts counting
            # once they have arrived (a server that thinks before answering passes a short idle limit in Codex).
            req = client.build_request(
                method,
                current,
                headers={"Accept-Encoding": "gzip, deflate", **headers},
                json=json_body,
                timeout=deadline.timeout(cap_s),
            )
            resp = client.send(req, stream=True)
            headers_at = clock()
            cert_ca = _server_cert_is_ca(resp) if current.startswith("https:") else None
            if on_headers is not None:
                on_headers(resp.status_code)
            if stream and idle_s:  # from here on, each read waits at most the idle limit (httpcore reads it now)
                req.extensions["timeout"] = {
                    **req.extensions["timeout"],
                    "read": max(0.05, min(idle_s, deadline.remaining())),
                }
        except Exception as exc:
            failure, detail = classify_exception(exc)
            return Exchange(
                method,
                redact(current),
                elapsed_ms=round((clock() - started) * 1000, 1),
                failure=failure,
                failure_detail=redact(detail),
                sent_key="Authorization" in headers,
                requested_stream=stream,
                request_bytes=size,
                started_at=sent_at,
            )
        # A server that drips one byte per second never trips a read timeout: close the response at the
        # deadline from a watchdog, so no request outlives the check.
        watchdog = threading.Timer(max(0.0, deadline.remaining()), resp.close)
        watchdog.daemon = True
        watchdog.start()
        try:
            if resp.is_redirect and resp.headers.get("location"):
                try:
                    target = str(resp.url.join(resp.headers["location"]))
                    other_origin = _origin(target) != _origin(current)
                except (ValueError, httpx.InvalidURL):  # a port out of range, a broken host: nothing to follow
                    return Exchange(
                        method,
                        redact(current),
                        resp.status_code,
                        round((clock() - started) * 1000, 1),
                        failure="redirect",
                        failure_detail="redirect to an invalid URL (not followed)",
                        location=clip(redact(resp.headers["location"]), 200),
                        sent_key="Authorization" in headers,
                        body_sends=sends,
                    )
                if other_origin:
                    return Exchange(
                        method,
                        redact(current),
                        resp.status_code,
                        round((clock() - started) * 1000, 1),
                        failure="redirect",
                        failure_detail="redirect to another origin (not followed with the key)",
                        location=redact(target),
                        sent_key="Authorization" in headers,
                    )
                current = target
                continue
            ctype = resp.headers.get("content-type", "")
            if stream and resp.status_code == 200 and "text/event-stream" in ctype:
                stats = parse_sse(
                    bounded_lines(bounded_bytes(resp, MAX_STREAM_BYTES)), started, clock, idle_s, deadline, headers_at
                )
                cut_at_deadline = stats.cut == "deadline"
                failure = "deadline" if cut_at_deadline else "protocol" if stats.cut == "undecodable" else None
                detail = (
                    f"still streaming at the deadline after {stats.events} events"
                    if cut_at_deadline
                    else f"the answer says Content-Encoding: {resp.headers.get('content-encoding')}, but cannot be decoded"
                    if failure == "protocol"
                    else ""
                )
                # The stream's own words (its error event, its answer) are redacted whole here, before anything
                # downstream cuts them for a finding.
                stats = replace(stats, error=_redact_json(stats.error, redact), text=clip(redact(stats.text), MAX_TEXT))
                return Exchange(
                    method,
                    redact(current),
                    resp.status_code,
                    round((clock() - started) * 1000, 1),
                    ctype,
                    stream=stats,
                    sent_key="Authorization" in headers,
                    failure=failure,
                    failure_detail=detail,
                    body_sends=sends,
                    requested_stream=stream,
                    request_bytes=size,
                    server_cert_ca=cert_ca,
                    request_id=request_id_of(resp.headers, json.dumps(stats.error or {})),
                    started_at=sent_at,
                )
            body, failure, detail = _read_body(resp, deadline)
            parsed = outside.parse(body) if body.strip() else outside.Parsed()
            # Only a body that looks like JSON is worth a word when it cannot be read: HTML and plain text never were.
            malformed = parsed.malformed if body.lstrip()[:1] in ("{", "[") else None
            # Redact first, then cut: a key straddling the cut would otherwise leave its first characters behind.
            excerpt = clip(redact(" ".join(body.split())), BODY_EXCERPT)
            return Exchange(
                method,
                redact(current),
                resp.status_code,
                round((clock() - started) * 1000, 1),
                ctype,
                excerpt,
                _redact_json(parsed.value, redact),
                malformed,
                failure,
                redact(detail),
                sent_key="Authorization" in headers,
                body_sends=sends,
                requested_stream=stream,
                retry_after_s=retry_after(resp.headers.get("retry-after")),
                request_bytes=size,
                server_cert_ca=cert_ca,
                request_id=request_id_of(resp.headers, excerpt),
                started_at=sent_at,
            )
        finally:
            watchdog.cancel()
            resp.close()
    return Exchange(
        method,
        redact(current),
        None,
        round((clock() - started) * 1000, 1),
        failure="redirect",
        failure_detail="too many redirects",
    )


def _server_cert_is_ca(resp: httpx.Response) -> bool | None:
    try:
        stream = resp.extensions.get("network_stream")
        ssl_object = stream.get_extra_info("ssl_object") if stream is not None else None
        der = ssl_object.getpeercert(True) if ssl_object is not None else None  # binary_form, positional only
    except (AttributeError, TypeError, ValueError, OSError):
        return None
    return is_ca_certificate(der) if der else None


def _read_body(resp: httpx.Response, deadline: Deadline) -> tuple[str, str | None, str]:
    chunks: list[bytes] = []
    size = 0
    try:
        for chunk in bounded_bytes(resp, MAX_BODY):
            chunks.append(chunk)
            size += len(chunk)
            if deadline.expired:
                break
    except Oversize:
        pass  # the first MAX_BODY bytes are all a report needs
    except Undecodable as exc:
        return b"".join(chunks).decode("utf-8", "replace"), "protocol", str(exc)
    except Exception as exc:
        failure, detail = classify_exception(exc)
        if deadline.expired:
            failure, detail = "deadline", "the answer was still arriving at the deadline"
        return b"".join(chunks).decode("utf-8", "replace"), failure, detail
    return b"".join(chunks).decode("utf-8", "replace"), None, ""


def _redact_json(obj: Any, redact: Callable[[str], str]) -> Any:
    if isinstance(obj, str):
        return redact(obj)
    if isinstance(obj, list):
        return [_redact_json(v, redact) for v in obj[:200]]
    if isinstance(obj, dict):
        return {k: _redact_json(v, redact) for k, v in obj.items()}
    return obj
