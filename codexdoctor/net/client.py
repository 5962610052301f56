"""The HTTP client as Codex would connect: its CA files, its proxy, and nothing read behind the report's back.

httpx's own environment handling is off (`trust_env=False`): the client gets exactly the certificate store this
module builds, and each request goes through the proxy Codex 0.171 would use for its URL, decided by Codex's rules
(net.proxy) and passed to httpx explicitly. So what the report says is what was used, a SOCKS URL is spoken to as an
HTTP proxy exactly as Codex does (no socksio, no crash), no NO_PROXY entry can crash a run, and ~/.netrc credentials
are never read.
"""

from __future__ import annotations

import os
import ssl
import threading
from collections.abc import Iterable, Mapping
from typing import cast

import httpx

from codexdoctor import __version__
from codexdoctor.common.redact import redact_url
from codexdoctor.model import Msg
from codexdoctor.net.errors import Failed
from codexdoctor.net.kinds import FailureKind
from codexdoctor.net.proxy import ProxyChoice, decide

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


def proxy_for(url: str, env: Mapping[str, str]) -> str | None:
    """The proxy Codex sends a request for this URL through, as the user wrote it (may hold credentials: redact it
    before showing), or None."""
    choice = decide(url, env).proxy
    return choice.value if choice else None


def proxy_variable(url: str, env: Mapping[str, str]) -> str | None:
    """The name of the variable whose proxy this URL goes through, as the user spelled it (HTTP_PROXY, http_proxy,
    ALL_PROXY…), or None: Codex 0.171's own rules (net.proxy.decide): the scheme's own variable, else ALL_PROXY, even
    for 127.0.0.1; HTTPS_PROXY is not used for http:// URLs; NO_PROXY matches host names as written (localhost is not
    127.0.0.1) and IP literals by IP or CIDR."""
    choice = decide(url, env).proxy
    return choice.variable if choice else None


def shown_proxy(value: str) -> str:
    """A proxy variable's value fit to show: its credentials dropped (`user:pass@host:port`, with or without a
    scheme), the rest as written."""
    if "://" in value:
        return redact_url(value)
    return redact_url("http://" + value).removeprefix("http://")


# What a socks5:// proxy does for an https:// URL in Codex 0.171 (no connection at all), as a failure's detail.
SOCKS_FOR_HTTPS = Msg(
    "cannot carry an https:// request: Codex has no SOCKS support, so it connects nowhere (not even to a port that "
    "also speaks HTTP)",
    "无法转发 https:// 请求：Codex 不支持 SOCKS，所以它哪里也连不上（即使端口也支持 HTTP）",
)

# The request extension under which CodexProxyRoutes notes the ProxyChoice (or None: direct) it sent a request by.
PROXY_EXTENSION = "codexdoctor.proxy"


class CodexProxyRoutes(httpx.BaseTransport):
    """Each request sent the way Codex 0.171 sends it: through the proxy `net.proxy.decide` names for its URL, or
    direct. A `socks5://`/`socks5h://` proxy is spoken to as an HTTP proxy (decide gives its http:// URL), as Codex's
    reqwest, built without SOCKS, does: behind a SOCKS-only port that fails at once, behind a mixed port it works."""

    def __init__(self, env: Mapping[str, str], verify: ssl.SSLContext | bool) -> None:
        self._env = dict(env)
        self._verify = verify
        self._lock = threading.Lock()
        self._transports: dict[str | None, httpx.HTTPTransport] = {}  # by proxy URL; None: direct

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        choice = decide(str(request.url), self._env).proxy
        request.extensions[PROXY_EXTENSION] = choice
        if choice is not None and choice.socks and request.url.scheme == "https":
            # Codex's reqwest has no SOCKS: an https:// URL through a socks5:// proxy fails before any byte is sent,
            # even to a mixed port that would answer HTTP (the real CLI loops "Reconnecting…"; crosscheck_proxies).
            raise Failed(FailureKind.PROXY, SOCKS_FOR_HTTPS)
        return self._transport(choice).handle_request(request)

    def _transport(self, choice: ProxyChoice | None) -> httpx.HTTPTransport:
        key = choice.url if choice else None
        with self._lock:
            found = self._transports.get(key)
            if found is None:
                kind: type[httpx.HTTPTransport] = (
                    ForwardProxyTransport if key and key.startswith("http://") else httpx.HTTPTransport
                )
                found = kind(proxy=key, verify=self._verify)
                self._transports[key] = found
            return found

    def close(self) -> None:
        with self._lock:
            transports, self._transports = list(self._transports.values()), {}
        for transport in transports:
            transport.close()


class ForwardProxyTransport(httpx.HTTPTransport):
    """An HTTP proxy sent plain-http requests in absolute form, with an IPv6 literal in brackets as Codex writes it
    (`POST http://[::1]:8080/v1/responses`). httpcore 1.0 writes the host bare (`http://::1:8080/…`), which no proxy
    can parse: found by scripts/crosscheck_proxies.py. Any other request goes through httpx unchanged."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.scheme != "http" or b":" not in request.url.raw_host:
            return super().handle_request(request)
        import httpcore
        from httpx._transports.default import ResponseStream, map_httpcore_exceptions

        req = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=b"[" + request.url.raw_host + b"]",
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with map_httpcore_exceptions():
            resp = self._pool.handle_request(req)
        stream = cast("Iterable[bytes]", resp.stream)  # httpcore's sync pool streams an iterable (httpx asserts it)
        return httpx.Response(
            status_code=resp.status, headers=resp.headers, stream=ResponseStream(stream), extensions=resp.extensions
        )


def make_client(env: Mapping[str, str], tls: bool = True) -> httpx.Client:
    """trust_env=False: we apply exactly the proxy (Codex's, per request) and CA we report, and never read ~/.netrc
    credentials.

    `tls=False` (a plain-http provider and no proxy) skips building a certificate store nobody would use.
    """
    context: ssl.SSLContext | bool = ssl_context(env) if tls else False
    # httpx imports httpcore when the first transport is made, which CodexProxyRoutes does inside the first send,
    # after that request's read timeout was computed: the import (20-90 ms, more with trio installed) then ran on
    # the request's clock, and a hung provider's requests came back that much after the deadline. Imported here,
    # before any clock is read for a request.
    import httpcore  # noqa: F401

    return httpx.Client(
        verify=context,
        trust_env=False,
        follow_redirects=False,
        transport=CodexProxyRoutes(env, context),
        headers={"User-Agent": f"codexdoctor/{__version__}"},
    )
