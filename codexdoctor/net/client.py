"""The HTTP client as Codex would connect: its CA files, its proxy, and nothing read behind the report's back.

httpx's own environment handling is off (`trust_env=False`): the client gets exactly the certificate store and the
proxies this module names, so what the report says is what was used, and ~/.netrc credentials are never read.
"""

from __future__ import annotations

import os
import ssl
from collections.abc import Mapping
from urllib.parse import urlsplit

import httpx

from codexdoctor import __version__

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
