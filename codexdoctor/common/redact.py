"""Turn secrets, URLs and home paths into forms that are safe to paste anywhere."""

from __future__ import annotations

import functools
import re
from typing import Iterable
from urllib.parse import SplitResult, urlsplit, urlunsplit

_KEYLIKE = re.compile(
    r"\b(?:(?:sk|pk|rk|ak|tt|key|api|ghp|gsk|xai|sess)[-_][A-Za-z0-9_\-]{8,}"
    r"|Bearer\s+[A-Za-z0-9._\-]{8,}"
    # A long random run: keys have digits; identifiers in error bodies (ChatCompletionRequestSystemMessage) do not.
    # The first lookahead rejects a short word before the second looks for a digit (one \b for all three: faster).
    r"|(?=[A-Za-z0-9]{32})(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{32,}\b)"
)


def fingerprint(secret: str) -> str:
    """Length and the first 8 hex of sha256: enough to compare two keys, useless to an attacker."""
    import hashlib  # here, not at the top: OpenSSL's loading costs 2-3 ms a run that redacts no secret never needs

    digest = hashlib.sha256(secret.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return f"{len(secret)} chars, sha256:{digest}"


# Query parameters whose value is a credential by name; anything else is shown unless the value looks like a key.
# A landing page's ?utm_source=blog is a tracking tag the user must see to recognise it.
_SECRET_PARAM = re.compile(r"(key|token|secret|sig|signature|pass|password|pwd|auth|credential|session|code|jwt)",
                           re.I)


def is_secret_query_value(key: str, value: str) -> bool:
    """A query value that is a credential by its parameter's name or by its shape."""
    return bool(_SECRET_PARAM.search(key)) or bool(_KEYLIKE.search(value)) or (
        len(value) >= 20 and any(c.isdigit() for c in value) and any(c.isalpha() for c in value))


def redact_url(url: str) -> str:
    """Drop user-info and credential-looking query values; keep scheme, host, port, path and the rest."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparseable URL>"
    if not parts.scheme and not parts.netloc:
        return url
    netloc = parts.netloc
    if "@" in netloc:
        netloc = "***@" + netloc.rsplit("@", 1)[1]
    query = parts.query
    if query:
        # Keep each key and its `=`; mask every value that is not already empty or masked.
        masked = []
        for piece in query.split("&"):
            key, eq, value = piece.partition("=")
            secret = value and not value.startswith("<redacted") and is_secret_query_value(key, value)
            masked.append(f"{key}{eq}{'***' if secret else value}")
        query = "&".join(masked)
    fragment = "***" if parts.fragment else ""
    return urlunsplit(SplitResult(parts.scheme, netloc, parts.path, query, fragment))


def shorten_home(text: str, home: str | None) -> str:
    """Show the home directory as `~` (`%USERPROFILE%` on Windows) so reports do not carry user names."""
    if not home or home in ("/", ""):
        return text
    home = home.rstrip("/\\")
    return text.replace(home, "%USERPROFILE%" if "\\" in home else "~")


class Redactor:
    """Scrubs every known secret (and anything key-shaped) from text.

    Built once per run from the secrets the config resolution saw; renderers
    and error messages pass their final strings through it as a last line of
    defence, so a secret that slipped into evidence still never prints.
    """

    def __init__(self, secrets: Iterable[str] = (), home: str | None = None) -> None:
        cleaned = {s.strip() for s in secrets if s and len(s.strip()) >= 4}
        # Longest first so a key is replaced before a substring of it.
        self._secrets = sorted(cleaned, key=len, reverse=True)
        self._home = home

    def __call__(self, text: str) -> str:
        if not text:
            return text
        for secret in self._secrets:
            if secret in text:
                text = text.replace(secret, f"<redacted {fingerprint(secret)}>")
        text = _KEYLIKE.sub(_mask_keylike, text)
        text = redact_urls(text)
        return shorten_home(text, self._home)


_URL = re.compile(r"\bhttps?://[^\s'\"<>`]+")


@functools.lru_cache(maxsize=4096)
def _redacted_url_text(url: str) -> str:
    return redact_url(url)


def redact_urls(text: str) -> str:
    """Every URL `_URL` finds, redacted (each distinct URL once: a report repeats them, one per session or check).

    The same matches as `_URL.sub`, found without it: a pattern that begins with `\b` keeps the regex engine from
    jumping to its literal prefix, so `sub` tries every position of the text (16 ms for a 0.9 MB sessions report
    with no URL at all). A match can only start at an "http": jump there with str.find and try the pattern at that
    position (`match(text, pos)` sees the real character before pos, so the word boundary means the same)."""
    out: list[str] = []
    last = 0
    at = text.find("http")
    while at >= 0:
        m = _URL.match(text, at)
        if m is None:
            at = text.find("http", at + 1)
            continue
        out += (text[last:at], _redacted_url_text(m.group(0)))
        last = m.end()
        at = text.find("http", last)
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


def _mask_keylike(match: re.Match[str]) -> str:
    token = match.group(0)
    if token.startswith("<redacted"):
        return token
    # Hex digests we print ourselves (sha256:1a2b3c4d) are 8 chars, below the threshold.
    return f"<redacted {fingerprint(token)}>"
