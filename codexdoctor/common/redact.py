"""Turn secrets, URLs and home paths into forms that are safe to paste anywhere."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from urllib.parse import SplitResult, urlsplit, urlunsplit

_KEY_PREFIXES = ("sk", "pk", "rk", "ak", "tt", "key", "api", "ghp", "gsk", "xai", "sess")
_KEYLIKE = re.compile(
    r"\b(?:(?:" + "|".join(_KEY_PREFIXES) + r")[-_][A-Za-z0-9_\-]{8,}"
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
_SECRET_PARAM = re.compile(r"(key|token|secret|sig|signature|pass|password|pwd|auth|credential|session|code|jwt)", re.I)


def is_secret_query_value(key: str, value: str) -> bool:
    """A query value that is a credential by its parameter's name or by its shape."""
    return (
        bool(_SECRET_PARAM.search(key))
        or bool(_KEYLIKE.search(value))
        or (len(value) >= 20 and any(c.isdigit() for c in value) and any(c.isalpha() for c in value))
    )


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


SHORT_SECRET = 8  # real keys are far longer; a shorter secret is redacted where it stands alone


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
        # A short "key" (a wrong value such as "_KEY" or "test") is replaced only where it stands alone: inside a
        # longer word it would mangle the report ("GW_KEY" shown as "GW<redacted …>") and hide nothing.
        self._alone = {
            s: re.compile(r"(?<![A-Za-z0-9_])" + re.escape(s) + r"(?![A-Za-z0-9_])")
            for s in self._secrets
            if len(s) < SHORT_SECRET
        }
        # A piece of a key left by a cut made before redaction (a prefix cut at the end of an excerpt, a suffix cut
        # at its start) is neither the key nor key-shaped: it is found by the key's own first or last characters.
        # Only key-like values (a letter and a digit, no space): a header value such as "application/json" is in the
        # list too, and its first 8 characters must not be taken out of every other content type.
        self._pieced = [
            s
            for s in self._secrets
            if len(s) >= PIECE_MIN_SECRET
            and not any(c.isspace() for c in s)
            and any(c.isdigit() for c in s)
            and any(c.isalpha() for c in s)
        ]
        self._home = home

    def adding(self, secrets: Iterable[str]) -> Redactor:
        """The same redactor with more secrets: a value codexdoctor learns after the run began (a key read from a
        start-up file for the as-if-fixed live checks) is scrubbed from everything, earlier text included."""
        return Redactor([*self._secrets, *secrets], home=self._home)

    def __call__(self, text: str) -> str:
        if not text:
            return text
        for secret in self._secrets:
            if secret in text:
                alone = self._alone.get(secret)
                shown = f"<redacted {fingerprint(secret)}>"
                text = alone.sub(_constant(shown), text) if alone else text.replace(secret, shown)
        for secret in self._pieced:
            text = _redact_pieces(text, secret)
        text = redact_keylike(text)
        text = redact_urls(text)
        return shorten_home(text, self._home)


def _constant(mark: str) -> Callable[[re.Match[str]], str]:
    """A replacement function that returns the mark as it is (a `re.sub` template would read `\\` in it)."""
    return lambda _match: mark


PIECE = 8  # a run of this many characters of a known secret, at its start or its end, is redacted as the secret
PIECE_MIN_SECRET = 12


def _redact_pieces(text: str, secret: str) -> str:
    """Every run of `secret`'s first (or last) PIECE or more characters, replaced as the whole secret would be."""
    head, tail = secret[:PIECE], secret[-PIECE:]
    if head not in text and tail not in text:
        return text
    shown = f"<redacted {fingerprint(secret)}>"
    out: list[str] = []
    last = 0
    at = text.find(head)
    while at >= 0:  # a prefix: extend while the text goes on as the secret does
        end = at + PIECE
        while end < len(text) and end - at < len(secret) and text[end] == secret[end - at]:
            end += 1
        out += (text[last:at], shown)
        last = end
        at = text.find(head, end)
    out.append(text[last:])
    text = "".join(out)
    out, last = [], 0
    at = text.find(tail)
    while at >= 0:  # a suffix: extend backwards while the text matches the secret's end
        start, end = at, at + PIECE
        while start > last and end - start < len(secret) and text[start - 1] == secret[len(secret) - (end - start) - 1]:
            start -= 1
        out += (text[last:start], shown)
        last = end
        at = text.find(tail, end)
    out.append(text[last:])
    return "".join(out)


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


# 1 for a character a key-shaped match can hold ([A-Za-z0-9_-]), 0 for any other byte (`?` stands for non-ASCII)
_RUN_TABLE = bytes(1 if chr(i).isascii() and (chr(i).isalnum() or chr(i) in "_-") else 0 for i in range(256))
# A run of 11 or more: the shortest match without "Bearer" is a 2-letter prefix, a separator and 8 characters.
# Spelled as literals so the engine scans for its prefix at C speed (`\x01{11,}` is 3-7x slower).
_LONG_RUN = re.compile(b"\x01" * 11 + b"+")
_KEY_HEADS = tuple(prefix + sep for prefix in _KEY_PREFIXES for sep in "-_")
_SMALL_TEXT = 2048


def redact_keylike(text: str) -> str:
    """`_KEYLIKE.sub(_mask_keylike, text)`, without trying the pattern at every position of a long report.

    `sub` tries `_KEYLIKE` at each position in turn (no literal prefix lets the engine jump): 30-40 ms on a 0.9 MB
    sessions report. But a match either begins with "Bearer" or is a run of 11 or more of [A-Za-z0-9_-] that
    starts where `\b` holds: at the run's first character, or right after a `-` inside it (`-` is the only run
    character that is not a word character), and only where a key prefix or 32 characters without a `-` follow.
    Those positions are found with C-speed byte operations on a mask of the text (one byte per character: non-ASCII
    becomes `?`, so offsets are the text's), and the pattern is tried at each of them in order, on the real text,
    exactly as `sub` would there; every other position cannot match."""
    if len(text) < _SMALL_TEXT:
        return _KEYLIKE.sub(_mask_keylike, text)
    starts: list[int] = []
    for run in _LONG_RUN.finditer(text.encode("ascii", "replace").translate(_RUN_TABLE)):
        at, end = run.span()
        while True:  # each piece between dashes: tried if a prefixed key or a 32-character run can start there
            dash = text.find("-", at, end)
            stop = end if dash < 0 else dash
            if stop - at >= 32 or text.startswith(_KEY_HEADS, at):
                starts.append(at)
            if dash < 0:
                break
            at = dash + 1
    at = text.find("Bearer")
    while at >= 0:
        starts.append(at)
        at = text.find("Bearer", at + 1)
    if not starts:
        return text
    starts.sort()
    out: list[str] = []
    last = 0
    for at in starts:
        if at < last:
            continue
        m = _KEYLIKE.match(text, at)
        if m is not None:
            out += (text[last:at], _mask_keylike(m))
            last = m.end()
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
