"""The one place where the HTTP library's exceptions become codexdoctor's failure kinds (as httpx's own
`map_httpcore_exceptions` is for httpcore's): nothing else in net/ names an httpx exception, and none leaves net/.

A failure is evidence, not a traceback: `dns`, `refused`, `tls`, `timeout`, `reset`, `proxy` or `protocol`, with a
short detail in words a user can act on.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from codexdoctor.common.untrusted import clip
from codexdoctor.net.body import Oversize, StreamCut, Undecodable
from codexdoctor.net.kinds import FailureKind


class Failed(Exception):
    """A request failed in the transport: its kind and a short detail (not yet redacted)."""

    def __init__(self, kind: FailureKind, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


@contextmanager
def mapped_failures() -> Iterator[None]:
    """Any exception raised inside (the library's, or the OS's under it) as `Failed`; codexdoctor's own reading
    errors (Oversize, Undecodable, StreamCut) pass through."""
    try:
        yield
    except (Oversize, Undecodable, StreamCut, Failed):
        raise
    except Exception as exc:
        raise Failed(*classify_exception(exc)) from None


def mapped_reads(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """A streamed body's bytes, the library's read errors as StreamCut: `idle` (a read waited the idle limit) or
    `closed` (the connection went away; the stream's reader says `deadline` when that was the watchdog)."""
    try:
        yield from chunks
    except httpx.ReadTimeout:
        raise StreamCut("idle") from None
    except (httpx.RemoteProtocolError, httpx.ReadError, httpx.StreamClosed):
        raise StreamCut("closed") from None


def join_url(base: httpx.URL, location: str) -> str | None:
    """A redirect's target, or None when the library refuses it as a URL (a port out of range, a broken host)."""
    try:
        return str(base.join(location))
    except (ValueError, httpx.InvalidURL):
        return None


_TIMEOUT_PHASES = {
    "ConnectTimeout": "connecting",
    "ReadTimeout": "waiting for the response",
    "WriteTimeout": "sending",
    "PoolTimeout": "waiting for a connection",
}
_DNS_WORDS = (
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


def classify_exception(exc: Exception) -> tuple[FailureKind, str]:
    """Turn an httpx/OS error into (failure kind, short detail) — never a traceback."""
    text = str(exc) or type(exc).__name__
    low = text.lower()
    if isinstance(exc, httpx.ProxyError):
        return FailureKind.PROXY, clip(text, 200)
    if isinstance(exc, (httpx.ConnectTimeout, httpx.ReadTimeout, httpx.WriteTimeout, httpx.PoolTimeout)):
        return FailureKind.TIMEOUT, f"no answer while {_TIMEOUT_PHASES[type(exc).__name__]}"
    if "certificate" in low or "ssl" in low or "tls" in low:
        return FailureKind.TLS, _tls_detail(low, text)
    if any(s in low for s in _DNS_WORDS):
        return FailureKind.DNS, "the host name does not resolve"
    if "connection refused" in low or "errno 111" in low or "actively refused" in low:
        return FailureKind.REFUSED, "nothing listens on that host and port (connection refused)"
    if "network is unreachable" in low or "no route to host" in low:
        return FailureKind.REFUSED, "the network cannot reach that host"
    if (
        isinstance(exc, (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError))
        or "reset" in low
        or "disconnected" in low
    ):
        return FailureKind.RESET, "the connection was closed by the server: " + clip(text, 160)
    if isinstance(exc, httpx.DecodingError):
        return (
            FailureKind.PROTOCOL,
            "the body could not be decoded (declared compression does not match): " + clip(text, 120),
        )
    if isinstance(exc, httpx.UnsupportedProtocol):
        return FailureKind.PROTOCOL, "unsupported URL scheme"
    if isinstance(exc, httpx.InvalidURL):
        return FailureKind.PROTOCOL, "invalid URL"
    return FailureKind.PROTOCOL, f"{type(exc).__name__}: {clip(text, 160)}"


def _tls_detail(low: str, text: str) -> str:
    """What a TLS error says, in words that name the likely cause."""
    if "self-signed" in low or "self signed" in low:
        return "the server's certificate is self-signed (not trusted)"
    if "expired" in low:
        return "the server's certificate has expired"
    if "hostname" in low or "doesn't match" in low or "not valid for" in low or "ip address mismatch" in low:
        return "the certificate is for a different host name"
    if "unable to get local issuer" in low or "unknown ca" in low:
        return "the certificate is issued by an unknown authority (corporate proxy or private CA?)"
    if "wrong version number" in low or "record layer" in low:
        return "the server does not speak TLS on this port (http:// vs https://?)"
    return clip(text, 200)
