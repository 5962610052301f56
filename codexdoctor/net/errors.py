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
from codexdoctor.model import Msg
from codexdoctor.net.body import Oversize, StreamCut, Undecodable
from codexdoctor.net.kinds import FailureKind


class Failed(Exception):
    """A request failed in the transport: its kind and a short detail in both languages (not yet redacted)."""

    def __init__(self, kind: FailureKind, detail: Msg) -> None:
        super().__init__(str(detail))
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
    "ConnectTimeout": Msg("no answer while connecting", "连接时没有响应"),
    "ReadTimeout": Msg("no answer while waiting for the response", "等待响应超时"),
    "WriteTimeout": Msg("no answer while sending", "发送时没有响应"),
    "PoolTimeout": Msg("no answer while waiting for a connection", "等待连接时没有响应"),
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


def classify_exception(exc: Exception) -> tuple[FailureKind, Msg]:
    """Turn an httpx/OS error into (failure kind, short detail) — never a traceback. The error's own words are quoted
    as they are, in every language."""
    text = str(exc) or type(exc).__name__
    low = text.lower()
    if isinstance(exc, httpx.ProxyError):
        return FailureKind.PROXY, Msg.verbatim(clip(text, 200))
    if isinstance(exc, (httpx.ConnectTimeout, httpx.ReadTimeout, httpx.WriteTimeout, httpx.PoolTimeout)):
        return FailureKind.TIMEOUT, _TIMEOUT_PHASES[type(exc).__name__]
    if "certificate" in low or "ssl" in low or "tls" in low:
        return FailureKind.TLS, _tls_detail(low, text)
    if any(s in low for s in _DNS_WORDS):
        return FailureKind.DNS, Msg("the host name does not resolve", "主机名无法解析")
    if "connection refused" in low or "errno 111" in low or "actively refused" in low:
        return FailureKind.REFUSED, Msg(
            "nothing listens on that host and port (connection refused)", "该主机端口上没有服务在监听（连接被拒绝）"
        )
    if "network is unreachable" in low or "no route to host" in low:
        return FailureKind.REFUSED, Msg("the network cannot reach that host", "网络无法到达该主机")
    if (
        isinstance(exc, (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError))
        or "reset" in low
        or "disconnected" in low
    ):
        return FailureKind.RESET, Msg(
            "the connection was closed by the server: {why}", "连接被服务器关闭：{why}", why=clip(text, 160)
        )
    if isinstance(exc, httpx.DecodingError):
        return FailureKind.PROTOCOL, Msg(
            "the body could not be decoded (declared compression does not match): {why}",
            "响应体无法解码（声明的压缩格式不符）：{why}",
            why=clip(text, 120),
        )
    if isinstance(exc, httpx.UnsupportedProtocol):
        return FailureKind.PROTOCOL, Msg("unsupported URL scheme", "不支持的 URL 协议")
    if isinstance(exc, httpx.InvalidURL):
        return FailureKind.PROTOCOL, Msg("invalid URL", "无效的 URL")
    return FailureKind.PROTOCOL, Msg.verbatim(f"{type(exc).__name__}: {clip(text, 160)}")


def _tls_detail(low: str, text: str) -> Msg:
    """What a TLS error says, in words that name the likely cause."""
    if "self-signed" in low or "self signed" in low:
        return Msg("the server's certificate is self-signed (not trusted)", "服务器证书是自签名的（不受信任）")
    if "expired" in low:
        return Msg("the server's certificate has expired", "服务器证书已过期")
    if "hostname" in low or "doesn't match" in low or "not valid for" in low or "ip address mismatch" in low:
        return Msg("the certificate is for a different host name", "证书对应的是另一个主机名")
    if "unable to get local issuer" in low or "unknown ca" in low:
        return Msg(
            "the certificate is issued by an unknown authority (corporate proxy or private CA?)",
            "证书由未知机构签发（公司代理或私有 CA？）",
        )
    if "wrong version number" in low or "record layer" in low:
        return Msg(
            "the server does not speak TLS on this port (http:// vs https://?)",
            "该端口上的服务不使用 TLS（http:// 还是 https://？）",
        )
    return Msg.verbatim(clip(text, 200))
