"""Sending one logical request: transient retries, same-origin redirects only, one hard deadline, always an Exchange.

Each attempt runs on a daemon thread that is abandoned at the deadline, whatever phase it is in; a watchdog closes a
response that drips; a redirect to another origin is not followed with the key. The HTTP library's errors become
failure kinds in net.errors, and a stream's bytes are read through net.body's caps and timed in net.stream.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any
from urllib.parse import urlsplit

import httpx

from codexdoctor.common import outside_json as outside
from codexdoctor.common.untrusted import clip
from codexdoctor.model import Msg
from codexdoctor.net.body import MAX_BODY, MAX_STREAM_BYTES, Oversize, Undecodable, bounded_bytes
from codexdoctor.net.client import PROXY_EXTENSION, is_ca_certificate, shown_proxy
from codexdoctor.net.deadline import Deadline
from codexdoctor.net.errors import Failed, join_url, mapped_failures, mapped_reads
from codexdoctor.net.exchange import Exchange, request_id_of, retry_after, utc_now
from codexdoctor.net.kinds import TRANSIENT_FAILURES, FailureKind
from codexdoctor.net.proxy import ProxyChoice
from codexdoctor.net.said import malformed_said
from codexdoctor.net.sse import bounded_lines
from codexdoctor.net.stream import MAX_TEXT, parse_sse

BODY_EXCERPT = 300
RETRY_AFTER_CAP_S = 60.0  # a Retry-After longer than this is not waited out (Codex waits whatever it says)
HARD_GRACE_S = 0.05
# Past the deadline, how long an attempt is still given before it is abandoned and said as a drip (or a connection
# or a send that hangs): a server that sends nothing trips the read timeout (at most the deadline) by then.
LATE_READ_S = 0.25


class _Phase:
    """How far one attempt got (httpcore's trace events), so that an attempt abandoned at the deadline is said as
    what it was: connecting, sending, or a server that sent nothing or only part of its headers (issue 40 review:
    "still sending its headers" was said of a server that had sent nothing)."""

    def __init__(self) -> None:
        self.events: list[str] = []

    def __call__(self, name: str, info: Mapping[str, Any]) -> None:
        self.events.append(name)

    def reached(self, step: str) -> bool:
        return any(e.endswith(step) for e in self.events)


@dataclass(frozen=True)
class _Request:
    """What every attempt and every redirect hop of one logical request shares."""

    method: str
    url: str
    headers: Mapping[str, str]
    deadline: Deadline
    redact: Callable[[str], str]
    json_body: Any
    stream: bool
    idle_s: float
    cap_s: float | None
    clock: Callable[[], float]
    resend_ok: Callable[[], bool] | None
    on_headers: Callable[[int], None] | None

    @property
    def sent_key(self) -> bool:
        return "Authorization" in self.headers


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
    request = _Request(
        method, url, headers, deadline, redact, json_body, stream, idle_s, cap_s, clock, resend_ok, on_headers
    )
    plan = _Retries(retries, backoff, rate_limit_retries)
    attempt = 0
    waited = 0.0
    earlier: list[str] = []
    while True:
        attempt += 1
        phase, started = _Phase(), request.clock()
        ex = _bounded(partial(_send_once, client, request, phase), deadline, cap_s, phase)
        if ex is None:  # alive past the deadline: no read timeout ever fired (a drip), or still connecting or sending
            return _still_sending(request, attempt, earlier, waited, phase, started)
        ex = replace(ex, attempts=attempt, earlier=tuple(earlier), waited_s=round(waited, 1))
        pause = plan.pause(ex, attempt, deadline) if is_transient(ex) else None
        if pause is None:
            return ex
        earlier.append(
            str(ex.stream.error.get("code"))  # rate_limit_exceeded or slow_down: the code as it came
            if ex.stream and ex.stream.error and stream_rate_limited(ex)
            else str(ex.status)
            if ex.status is not None
            else str(ex.failure)
        )
        sleep(pause)
        waited += pause


class _Retries:
    """When another attempt is worth it, and how long to wait first: a 429 after its Retry-After (as Codex), the rest
    with a doubling backoff, never past the deadline."""

    def __init__(self, retries: int, backoff: float, rate_limit_retries: int | None) -> None:
        self.retries = retries
        self.backoff = backoff
        self.rate_limit_retries = rate_limit_retries
        self.limited = 0

    def pause(self, ex: Exchange, attempt: int, deadline: Deadline) -> float | None:
        """The wait before the next attempt, or None: no next attempt."""
        if (ex.status == 429 or stream_rate_limited(ex)) and self.rate_limit_retries is not None:
            self.limited += 1
            wait = ex.retry_after_s if ex.status == 429 else _try_again_in(ex)
            pause = min(wait if wait is not None else self.backoff, RETRY_AFTER_CAP_S)
            if self.limited > self.rate_limit_retries or deadline.remaining() < pause + 0.05:
                return None
            return pause
        pause = min(self.backoff, deadline.remaining() / 2)
        if attempt - self.limited > self.retries or deadline.remaining() < self.backoff * 2:
            return None
        self.backoff *= 2
        return pause


def _still_sending(
    request: _Request, attempt: int, earlier: list[str], waited: float, phase: _Phase, started: float
) -> Exchange:
    return Exchange(
        request.method,
        request.redact(request.url),
        elapsed_ms=round((request.clock() - started) * 1000, 1),
        failure=FailureKind.TIMEOUT,
        sent_key=request.sent_key,
        failure_said=_abandoned_said(phase),
        attempts=attempt,
        earlier=tuple(earlier),
        requested_stream=request.stream,
        waited_s=round(waited, 1),
    )


def _abandoned_said(phase: _Phase) -> Msg:
    """What an attempt still running past the deadline was doing: its status line and headers arriving (reads kept
    succeeding: a silent server's read timeout would have fired), the request still going out, or the connection
    still being made."""
    if phase.reached("receive_response_headers.started"):
        return Msg(
            "no complete answer at the deadline: the server had started its status line and headers but was still "
            "sending them",
            "到时限时仍没有完整的响应：服务器已经开始发送状态行和响应头，但还没有发完",
        )
    if phase.reached("send_request_headers.started"):
        return Msg("no answer at the deadline: the request was still being sent", "到时限时没有响应：请求还没有发送完")
    if phase.events:
        return Msg("no connection by the deadline", "到时限时还没有建立连接")
    return Msg("no answer at the deadline: the server sent nothing", "到时限时没有响应：服务器什么也没有发送")


def _bounded(
    fn: Callable[[], Exchange], deadline: Deadline, cap_s: float | None, phase: _Phase | None = None
) -> Exchange | None:
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
    if worker.is_alive() and phase is not None:
        worker.join(LATE_READ_S)  # a server that sent nothing: its read timeout fires now, and says so
    if worker.is_alive():
        return None
    if "exc" in box:
        raise box["exc"]
    done: Exchange = box["ex"]
    return done


def stream_rate_limited(ex: Exchange) -> bool:
    """A 200 stream that ended in response.failed with code rate_limit_exceeded (or slow_down): Codex 0.171 retries it (up to
    stream_max_retries) after the wait its message names, as it waits a 429's Retry-After."""
    s = ex.stream
    codes = ("rate_limit_exceeded", "slow_down")  # both end in `rate limit exceeded: …` after Codex's retries
    return bool(s and s.terminal == "response.failed" and s.error and s.error.get("code") in codes)


def _try_again_in(ex: Exchange) -> float | None:
    """The wait a rate_limit_exceeded message names; Codex reads none in any other code's (slow_down: its backoff)."""
    from codexdoctor.net.codex_words import try_again_in

    error = ex.stream.error if ex.stream else None
    return try_again_in(error.get("message")) if error and error.get("code") == "rate_limit_exceeded" else None


def is_transient(ex: Exchange) -> bool:
    """429 rate limits (in the status or inside the stream), 5xx and dropped connections get retried;
    401/403/404/quota do not."""
    if ex.failure in TRANSIENT_FAILURES or stream_rate_limited(ex):
        return True
    if ex.status == 429:
        return "insufficient_quota" not in ex.body_excerpt
    return ex.status is not None and ex.status >= 500


@dataclass(frozen=True)
class _Attempt:
    """One attempt's clock: when it started (the clock's reading, and UTC for the ticket) and its body's size."""

    request: _Request
    started: float
    sent_at: str
    size: int | None

    def elapsed_ms(self) -> float:
        return round((self.request.clock() - self.started) * 1000, 1)


def _send_once(client: httpx.Client, request: _Request, phase: _Phase | None = None) -> Exchange:
    """One attempt, with the proxy its last request went through (net.client notes it on the request); `phase`
    follows how far its connection got."""
    sent: list[httpx.Request] = []
    ex = _hops(client, request, sent, phase)
    choice = sent[-1].extensions.get(PROXY_EXTENSION) if sent else None
    if not isinstance(choice, ProxyChoice):
        return ex
    return replace(
        ex,
        proxy_variable=choice.variable,
        proxy_url=request.redact(shown_proxy(choice.value)),
        proxy_socks_as_http=choice.socks,
    )


_BEFORE_DEADLINE = Msg("the check's deadline was reached before this request", "在发出这个请求之前已到达检查时限")


def _not_resent(at: _Attempt, current: str, sends: int) -> Exchange:
    """A same-origin redirect of a request that spends tokens, not followed: the budget would not hold it."""
    r = at.request
    return Exchange(
        r.method,
        r.redact(current),
        None,
        at.elapsed_ms(),
        failure="redirect",
        failure_said=Msg(
            "same-origin redirect not followed: it would send the request again past the budget",
            "未跟随同源重定向：它会再次发送请求，超出预算",
        ),
        sent_key=r.sent_key,
        body_sends=sends,
    )


def _hops(client: httpx.Client, request: _Request, sent: list[httpx.Request], phase: _Phase | None) -> Exchange:
    """Up to three same-origin redirect hops, then the answer read whole or as a stream."""
    r = request
    shown = r.redact(r.url)
    started = r.clock()
    size = len(json.dumps(r.json_body).encode()) if r.json_body is not None else None
    at = _Attempt(r, started, utc_now(), size)
    if r.deadline.expired:
        return Exchange(r.method, shown, failure="deadline", failure_said=_BEFORE_DEADLINE)
    current = r.url
    sends = 0
    for _hop in range(3):
        if sends and r.json_body is not None and r.resend_ok is not None and not r.resend_ok():
            return _not_resent(at, current, sends)
        sends += 1
        try:
            with mapped_failures():
                resp, headers_at, cert_ca = _open(client, r, current, sent, phase)
        except Failed as failed:
            return _failed(at, current, failed)
        # A server that drips one byte per second never trips a read timeout: close the response at the
        # deadline from a watchdog, so no request outlives the check.
        watchdog = threading.Timer(max(0.0, r.deadline.remaining()), resp.close)
        watchdog.daemon = True
        watchdog.start()
        try:
            if resp.is_redirect and resp.headers.get("location"):
                followed = _redirect(at, resp, current, sends)
                if isinstance(followed, Exchange):
                    return followed
                current = followed
                continue
            ctype = resp.headers.get("content-type", "")
            if r.stream and resp.status_code == 200 and "text/event-stream" in ctype:
                return _streamed(at, resp, current, sends, headers_at, cert_ca)
            return _whole(at, resp, current, sends, cert_ca)
        finally:
            watchdog.cancel()
            resp.close()
    return Exchange(
        r.method,
        r.redact(current),
        None,
        at.elapsed_ms(),
        failure="redirect",
        failure_said=Msg("too many redirects", "重定向次数过多"),
    )


def _open(
    client: httpx.Client, r: _Request, url: str, sent: list[httpx.Request], phase: _Phase | None = None
) -> tuple[httpx.Response, float, bool | None]:
    """Send the request (noted in `sent`) and wait for its status line and headers: (the response, when they came,
    whether the server's certificate is a CA's)."""
    # Only encodings bounded_bytes decodes with a cap (httpx would also offer br/zstd when installed).
    # Waiting for the headers is bounded by the deadline alone: Codex's stream_idle_timeout_ms starts counting
    # once they have arrived (a server that thinks before answering passes a short idle limit in Codex).
    waits = r.deadline.timeout(r.cap_s)
    req = client.build_request(
        r.method,
        url,
        headers={"Accept-Encoding": "gzip, deflate", **r.headers},
        json=r.json_body,
        timeout=httpx.Timeout(waits.total, connect=waits.connect, read=waits.read),
        extensions={"trace": phase} if phase is not None else None,
    )
    sent.append(req)
    resp = client.send(req, stream=True)
    headers_at = r.clock()
    cert_ca = _server_cert_is_ca(resp) if url.startswith("https:") else None
    if r.on_headers is not None:
        r.on_headers(resp.status_code)
    if r.stream and r.idle_s:  # from here on, each read waits at most the idle limit (httpcore reads it now)
        req.extensions["timeout"] = {
            **req.extensions["timeout"],
            "read": max(0.05, min(r.idle_s, r.deadline.remaining())),
        }
    return resp, headers_at, cert_ca


def _failed(at: _Attempt, url: str, failed: Failed) -> Exchange:
    r = at.request
    return Exchange(
        r.method,
        r.redact(url),
        elapsed_ms=at.elapsed_ms(),
        failure=failed.kind,
        failure_said=failed.detail.redacted(r.redact),
        sent_key=r.sent_key,
        requested_stream=r.stream,
        request_bytes=at.size,
        started_at=at.sent_at,
    )


def _redirect(at: _Attempt, resp: httpx.Response, current: str, sends: int) -> Exchange | str:
    """The URL to follow (same origin), or the Exchange that ends here: a target that is no URL, another origin."""
    r = at.request
    location = resp.headers["location"]
    target = join_url(resp.url, location)
    try:
        other_origin = target is not None and _origin(target) != _origin(current)
    except ValueError:  # a port out of range
        target = None
    if target is None:  # a port out of range, a broken host: nothing to follow
        return Exchange(
            r.method,
            r.redact(current),
            resp.status_code,
            at.elapsed_ms(),
            failure="redirect",
            failure_said=Msg("redirect to an invalid URL (not followed)", "重定向到无效的 URL（未跟随）"),
            location=clip(r.redact(location), 200),
            sent_key=r.sent_key,
            body_sends=sends,
        )
    if other_origin:
        return Exchange(
            r.method,
            r.redact(current),
            resp.status_code,
            at.elapsed_ms(),
            failure="redirect",
            failure_said=Msg(
                "redirect to another origin (not followed with the key)", "重定向到其他站点（未携带密钥跟随）"
            ),
            location=r.redact(target),
            sent_key=r.sent_key,
        )
    return target


def _streamed(
    at: _Attempt, resp: httpx.Response, current: str, sends: int, headers_at: float, cert_ca: bool | None
) -> Exchange:
    """A 200 event stream, read event by event under Codex's idle limit and the caps."""
    r = at.request
    lines = bounded_lines(mapped_reads(bounded_bytes(resp, MAX_STREAM_BYTES)))
    stats = parse_sse(lines, at.started, r.clock, r.idle_s, r.deadline, headers_at)
    failure: FailureKind | None = None
    detail: Msg | None = None
    if stats.cut == "deadline":
        failure, detail = (
            FailureKind.DEADLINE,
            Msg(
                "still streaming at the deadline after {n} events",
                "收到 {n} 个事件后到达时限，流仍在继续",
                n=stats.events,
            ),
        )
    elif stats.cut == "undecodable":
        encoding = str(resp.headers.get("content-encoding"))
        failure, detail = (
            FailureKind.PROTOCOL,
            Msg(
                "the answer says Content-Encoding: {encoding}, but cannot be decoded",
                "响应声明了 Content-Encoding: {encoding}，但无法解码",
                encoding=r.redact(encoding),
            ),
        )
    # The stream's own words (its error event, its answer) are redacted whole here, before anything downstream cuts
    # them for a finding.
    stats = replace(
        stats,
        error=_redact_json(stats.error, r.redact),
        ignored_errors=tuple(_redact_json(dict(e), r.redact) for e in stats.ignored_errors),
        text=clip(r.redact(stats.text), MAX_TEXT),
    )
    return Exchange(
        r.method,
        r.redact(current),
        resp.status_code,
        at.elapsed_ms(),
        resp.headers.get("content-type", ""),
        stream=stats,
        sent_key=r.sent_key,
        failure=failure,
        failure_said=detail,
        body_sends=sends,
        requested_stream=r.stream,
        request_bytes=at.size,
        output_cap=_output_cap(r.json_body),
        server_cert_ca=cert_ca,
        request_id=request_id_of(resp.headers, json.dumps(stats.error or stats.ignored_errors or {})),
        started_at=at.sent_at,
    )


def _whole(at: _Attempt, resp: httpx.Response, current: str, sends: int, cert_ca: bool | None) -> Exchange:
    """Any other answer, its body read whole up to MAX_BODY, parsed when it is JSON."""
    r = at.request
    body, failure, detail = _read_body(resp, r.deadline)
    parsed = outside.parse(body) if body.strip() else outside.Parsed()
    # Only a body that looks like JSON is worth a word when it cannot be read: HTML and plain text never were.
    malformed = malformed_said(parsed) if body.lstrip()[:1] in ("{", "[") else None
    # Redact first, then cut: a key straddling the cut would otherwise leave its first characters behind.
    excerpt = clip(r.redact(" ".join(body.split())), BODY_EXCERPT)
    return Exchange(
        r.method,
        r.redact(current),
        resp.status_code,
        at.elapsed_ms(),
        resp.headers.get("content-type", ""),
        excerpt,
        _redact_json(parsed.value, r.redact),
        malformed,
        failure,
        detail.redacted(r.redact) if detail is not None else None,
        sent_key=r.sent_key,
        body_sends=sends,
        requested_stream=r.stream,
        retry_after_s=retry_after(resp.headers.get("retry-after")),
        request_bytes=at.size,
        server_cert_ca=cert_ca,
        request_id=request_id_of(resp.headers, excerpt),
        started_at=at.sent_at,
    )


def _output_cap(body: Any) -> int | None:
    """The output-token cap a request body asked for (Responses max_output_tokens, Chat max_tokens), or None."""
    if not isinstance(body, Mapping):
        return None
    for key in ("max_output_tokens", "max_tokens", "max_completion_tokens"):
        value = body.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _origin(url: str) -> tuple[str, str, int | None]:
    p = urlsplit(url)
    return p.scheme, (p.hostname or ""), p.port or (443 if p.scheme == "https" else 80)


def _server_cert_is_ca(resp: httpx.Response) -> bool | None:
    try:
        stream = resp.extensions.get("network_stream")
        ssl_object = stream.get_extra_info("ssl_object") if stream is not None else None
        der = ssl_object.getpeercert(True) if ssl_object is not None else None  # binary_form, positional only
    except (AttributeError, TypeError, ValueError, OSError):
        return None
    return is_ca_certificate(der) if der else None


def _read_body(resp: httpx.Response, deadline: Deadline) -> tuple[str, FailureKind | None, Msg | None]:
    chunks: list[bytes] = []
    try:
        with mapped_failures():
            for chunk in bounded_bytes(resp, MAX_BODY):
                chunks.append(chunk)
                if deadline.expired:
                    break
    except Oversize:
        pass  # the first MAX_BODY bytes are all a report needs
    except Undecodable as exc:
        return b"".join(chunks).decode("utf-8", "replace"), FailureKind.PROTOCOL, exc.said
    except Failed as failed:
        if deadline.expired:
            return (
                b"".join(chunks).decode("utf-8", "replace"),
                FailureKind.DEADLINE,
                Msg("the answer was still arriving at the deadline", "到时限时响应仍在传输"),
            )
        return b"".join(chunks).decode("utf-8", "replace"), failed.kind, failed.detail
    return b"".join(chunks).decode("utf-8", "replace"), None, None


def _redact_json(obj: Any, redact: Callable[[str], str]) -> Any:
    if isinstance(obj, str):
        return redact(obj)
    if isinstance(obj, list):
        return [_redact_json(v, redact) for v in obj[:200]]
    if isinstance(obj, dict):
        return {k: _redact_json(v, redact) for k, v in obj.items()}
    return obj
