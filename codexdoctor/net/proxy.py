"""Which proxy Codex 0.171 sends a request through, decided by Codex's rules, not the HTTP library's.

Codex builds one reqwest 0.12.28 client with the system proxy (`codex-rs/login/src/auth/default_client.rs`), whose
rules are hyper-util 0.1.20's `client/proxy/matcher.rs` (`Matcher::from_system`). They differ from httpx's in ways
users hit: the upper-case variable wins even when it is set to nothing; `REQUEST_METHOD` (a CGI environment)
switches every proxy off; a proxy URL without a scheme is http; `socks5://` and `socks5h://` are used as plain HTTP
proxies for http:// URLs (reqwest is built without SOCKS), with their credentials dropped, and carry no https://
request at all (net.client fails it as Codex does); NO_PROXY matches IP literals only by IP or
CIDR (`*` and `localhost` never cover 127.0.0.1), never an entry with a port, never a bracketed IPv6. Each rule was
confirmed with the real client (docs/codex-behaviour.md, "Proxies"). httpx's own environment handling is off
(`trust_env=False`); the client is given exactly the proxy this module names.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit

from codexdoctor.common.hosts import normalize_host

SOCKS_SCHEMES = ("socks4", "socks4a", "socks5", "socks5h")


@dataclass(frozen=True)
class ProxyChoice:
    """The proxy Codex uses for one URL, and how it talks to it."""

    variable: str  # the variable it came from, as the user spelled it (HTTPS_PROXY, all_proxy, …)
    value: str  # its value as written (may hold credentials: redact before showing)
    url: str  # what codexdoctor connects to: scheme http or https, host, port, user-info when Codex sends it
    socks: bool  # written as socks*://: Codex speaks plain HTTP to it for http:// URLs, sends https:// ones nowhere

    @property
    def scheme(self) -> str:
        return urlsplit(self.url).scheme


@dataclass(frozen=True)
class ProxyDecision:
    """Codex's decision for one URL: a proxy, or none and why (so a report can say which variable did what)."""

    proxy: ProxyChoice | None
    bypassed_by: str | None = None  # the NO_PROXY entry that took the host out, as written
    no_proxy_variable: str | None = None  # NO_PROXY or no_proxy, whichever Codex read
    ignored: tuple[str, ...] = ()  # variables set that Codex does not use here, with the reason


def first_set(env: Mapping[str, str], *names: str) -> tuple[str, str] | None:
    """get_first_env: the first of `names` that is set at all; an empty value counts and hides the next name."""
    for name in names:
        if name in env:
            return name, env[name]
    return None


def proxy_url(value: str) -> tuple[str, bool] | None:
    """parse_env_uri: the proxy a variable's value names, as (http(s) URL to connect to, written as SOCKS), or None
    when Codex ignores it (another scheme, no host)."""
    raw = value
    if not raw or any(c in _NOT_IN_A_URI or not c.isascii() or not c.isprintable() for c in raw):
        return None  # http::Uri refuses it (a space around the value included): Codex ignores the variable
    if "://" not in raw:
        raw = "http://" + raw
    try:
        parts = urlsplit(raw)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if not parts.hostname:
        return None
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    netloc = host + (f":{port}" if port else "")
    if scheme in SOCKS_SCHEMES:
        # no socks feature in Codex's reqwest: the SOCKS URL is an HTTP proxy, its credentials ("raw" auth) dropped
        return f"http://{netloc}", True
    if scheme not in ("http", "https"):
        return None
    if parts.username is not None:
        user = unquote(parts.username)
        password = unquote(parts.password or "")
        netloc = f"{quote(user, safe='')}:{quote(password, safe='')}@{netloc}"
    return f"{scheme}://{netloc}", False


# Characters http::Uri refuses anywhere in a URI (besides controls, spaces and non-ASCII).
_NOT_IN_A_URI = frozenset(' "<>\\^`{|}')


def decide(url: str, env: Mapping[str, str]) -> ProxyDecision:
    """The proxy Codex sends a request for `url` through, with Matcher::from_system's rules."""
    try:
        target = urlsplit(url.strip())
        host = target.hostname or ""
    except ValueError:
        return ProxyDecision(None)
    scheme = target.scheme.lower()
    if "REQUEST_METHOD" in env:
        set_names = tuple(n for n in _PROXY_NAMES if env.get(n))
        return ProxyDecision(None, ignored=tuple(f"{n} (REQUEST_METHOD is set)" for n in set_names))
    own = first_set(env, f"{scheme.upper()}_PROXY", f"{scheme}_proxy") if scheme in ("http", "https") else None
    chosen = own if own and proxy_url(own[1]) else first_set(env, "ALL_PROXY", "all_proxy")
    ignored = _ignored(env, scheme, own, chosen)
    if chosen is None or proxy_url(chosen[1]) is None:
        return ProxyDecision(None, ignored=ignored)
    no_proxy = first_set(env, "NO_PROXY", "no_proxy")
    if no_proxy is not None:
        entry = bypass_entry(host, no_proxy[1])
        if entry is not None:
            return ProxyDecision(None, entry, no_proxy[0], ignored)
    parsed = proxy_url(chosen[1])
    if parsed is None:  # pragma: no cover - checked above
        return ProxyDecision(None, ignored=ignored)
    return ProxyDecision(ProxyChoice(chosen[0], chosen[1], parsed[0], parsed[1]), None, None, ignored)


_PROXY_NAMES = ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")


def _ignored(
    env: Mapping[str, str], scheme: str, own: tuple[str, str] | None, chosen: tuple[str, str] | None
) -> tuple[str, ...]:
    """Proxy variables that are set but that Codex does not use for this URL, each with why (a report names them:
    users set HTTPS_PROXY for an http:// gateway, or both spellings with different values)."""
    out = []
    for name in _PROXY_NAMES:
        if name not in env or (chosen and chosen[0] == name):
            continue
        kind = name.split("_")[0].lower()
        if kind in ("http", "https") and kind != scheme:
            out.append(f"{name} (only for {kind}:// URLs)")
        elif own and own[0] != name and own[0].lower() == name.lower():
            out.append(f"{name} ({own[0]} is set and wins)")
        elif chosen and chosen[0].lower() == name.lower():
            out.append(f"{name} ({chosen[0]} is set and wins)")
        elif proxy_url(env[name]) is None and env[name] != env[name].strip() and env[name].strip():
            out.append(f"{name} (a space around the value: Codex cannot read it)")
        elif proxy_url(env[name]) is None and env[name].strip():
            out.append(f"{name} (not an http, https or socks URL)")
    return tuple(out)


def bypass_entry(host: str, no_proxy: str) -> str | None:
    """The NO_PROXY entry that sends `host` direct, as written, or None (hyper-util's NoProxy::contains)."""
    h = normalize_host(host)
    try:
        ip = ipaddress.ip_address(h)
    except ValueError:
        ip = None
    for raw in no_proxy.split(","):
        entry = raw.strip()
        if not entry:
            continue
        if ip is not None:
            if _ip_entry_covers(entry, ip):
                return raw.strip()
            continue
        if entry == "*":
            return entry
        if _ip_entry(entry) is not None:
            continue
        name = entry.lower()[1:] if entry.startswith(".") else entry.lower()  # one dot, as strip_prefix('.')
        if ":" in name or "/" in name:
            continue  # an entry with a port (or a path) never matches
        if h == name or h.endswith("." + name):
            return raw.strip()
    return None


def _ip_entry(entry: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    """An IP or CIDR entry (`127.0.0.1`, `127.0.0.0/8`, `::1`, `::1/128`); a bracketed or ported one is not, nor a
    netmask (`127.0.0.0/255.0.0.0`) or a zone (`fe80::1%eth0`), which Rust's IpNet and IpAddr do not parse."""
    address, _, prefix = entry.partition("/")
    if "%" in address or (prefix and not prefix.isdigit()):
        return None
    try:
        return ipaddress.ip_network(entry, strict=False)
    except ValueError:
        return None


def _ip_entry_covers(entry: str, ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    net = _ip_entry(entry)
    return net is not None and net.version == ip.version and ip in net
