"""A URL's host as Codex 0.171 sees it: the WHATWG URL host parser (rust-url 2.5.8 with idna 1.1.0, UTS #46).

Codex normalises the host before it connects and before it compares it with NO_PROXY: `127。0。0。1` (ideographic
full stops), full-width letters and upper case all reach the same machine as their plain forms, and `0x7f.1`,
`127.1`, `2130706433` are 127.0.0.1 (docs/codex-behaviour.md, "Hosts"). codexdoctor compares hosts the same way, so it
never warns that `127。0。0。1` is "not this machine".
"""

from __future__ import annotations

import ipaddress
import unicodedata

# UTS #46 maps these to "." (IDNA label separators).
_DOTS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})


def normalize_host(host: str) -> str:
    """The host Codex connects to: dot look-alikes to dots, NFKC (full-width to ASCII), lower case, an IPv4 address
    in any WHATWG form to its dotted quad (a trailing dot dropped on it; a name keeps its trailing dot), an IPv6
    literal without brackets."""
    h = unicodedata.normalize("NFKC", host.translate(_DOTS)).lower()
    if h.startswith("[") and h.endswith("]"):
        return h[1:-1]
    v4 = parse_ipv4(h)
    return v4 if v4 is not None else h


def _number(part: str) -> int | None:
    """One WHATWG IPv4 part: decimal, 0x hex or 0 octal."""
    if part[:2] in ("0x", "0X"):
        digits, base = part[2:], 16
    elif len(part) > 1 and part.startswith("0"):
        digits, base = part[1:], 8
    else:
        digits, base = part, 10
    if digits == "":
        return 0 if base == 16 else None
    try:
        return int(digits, base)
    except ValueError:
        return None


def parse_ipv4(host: str) -> str | None:
    """The dotted quad a WHATWG IPv4 host means (`127.1`, `0x7f.1`, `2130706433`, `127.0.0.1.`), or None when the
    host does not end in a number (then it is a name)."""
    parts = host.split(".")
    if parts and parts[-1] == "" and len(parts) > 1:
        parts = parts[:-1]
    if not parts or len(parts) > 4 or not parts[-1] or not (parts[-1][0].isdigit()):
        return None
    numbers = [_number(p) for p in parts]
    if any(n is None for n in numbers):
        return None
    values = [n for n in numbers if n is not None]
    if any(v > 255 for v in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        return None
    address = values[-1]
    for i, v in enumerate(values[:-1]):
        address += v << (8 * (3 - i))
    return str(ipaddress.IPv4Address(address))


def is_loopback(host: str) -> bool:
    """The host is this machine, as Codex would reach it (`localhost`, 127.0.0.0/8, ::1, in any spelling)."""
    h = normalize_host(host)
    if h == "localhost" or h.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False
