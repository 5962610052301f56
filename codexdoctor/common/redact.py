"""Turn secrets, URLs and home paths into forms that are safe to paste anywhere."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from urllib.parse import SplitResult, urlsplit, urlunsplit

from codexdoctor.common.secretscan import find as find_credentials
from codexdoctor.common.secretscan import scrub


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
        or bool(find_credentials(value))
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
        # Keep each key and its `=`; mask every value that is not already empty, masked or a variable's reference.
        query = "&".join(_masked_piece(piece) for piece in query.split("&"))
    fragment = "***" if parts.fragment else ""
    return urlunsplit(SplitResult(parts.scheme, netloc, parts.path, query, fragment))


def _masked_piece(piece: str) -> str:
    key, eq, value = piece.partition("=")
    secret = (
        value and not value.startswith(MARK_STARTS) and not _is_reference(value) and is_secret_query_value(key, value)
    )
    return f"{key}{eq}{'***' if secret else value}"


# A shell's reference to a variable, as `report` writes a secret into its curl's URL (report/reproduce.py): bash and
# zsh `${K}`, fish `$K` (an upper-case name only: a password may begin with `$`), PowerShell `${env:K}`, cmd `%K%`.
# It stands for a secret without being one.
_REFERENCE_HEAD = re.compile(
    r"(?:\$\{(?:env:)?[A-Za-z_]\w*\}|\$[A-Z_][A-Z0-9_]*(?![\w$])|%[A-Za-z_]\w*%)(?:/responses|/chat/completions|/models)?"
)


def _is_reference(value: str) -> bool:
    """A query value that is a variable's reference, as Codex's URL holds it when base_url carries a query: the path
    and query_params Codex joined after it (`${K}/responses?api-version=…`), each of their values judged again."""
    head = _REFERENCE_HEAD.match(value)
    if head is None:
        return False
    rest = value[head.end() :]
    return not rest or (rest[0] == "?" and all(_masked_piece(p) == p for p in rest[1:].split("&")))


def shorten_home(text: str, home: str | None) -> str:
    """Show the home directory as `~` (`%USERPROFILE%` on Windows) so reports do not carry user names."""
    if not home or home in ("/", ""):
        return text
    home = home.rstrip("/\\")
    return text.replace(home, "%USERPROFILE%" if "\\" in home else "~")


# How a redaction mark begins, in each language (commands/output.in_language writes the Chinese one): what is
# already a mark is never masked again.
MARK_STARTS = ("<redacted", "<已脱敏")
SHORT_SECRET = 8  # real keys are far longer; a shorter secret is redacted where it stands alone
PIECE = 8  # no run of this many consecutive characters of a known secret is ever shown, wherever it starts
PIECE_MIN_SECRET = 12


def _mark(secret: str) -> str:
    return f"<redacted {fingerprint(secret)}>"


class Redactor:
    """Scrubs every known secret, every piece of one, and every credential-shaped string from text.

    Built once per run from the secrets the config resolution saw; text from outside passes through it where it
    enters, the report's strings at its boundary, and renderers' output as a last line of defence, so a secret that
    slipped into evidence still never prints. Four passes, each enough on its own for its class:

    1. a known secret, whole (a short one only where it stands alone);
    2. any run of PIECE or more consecutive characters of a known key-like secret, wherever in the secret it starts
       (a server that echoes `k[10:26]`, a key split across lines), also when the run is percent-encoded or
       JSON-escaped (`%5A%71…`, `\\u005a…`);
    3. other people's credentials by shape (`common/secretscan`: cloud keys, VCS tokens, webhooks, private keys,
       URL passwords of any scheme, Basic/Bearer values, NAME=value assignments);
    4. http(s) URLs with their credential-looking query values, and the home directory as `~`.
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
        self._pieces = _PieceIndex([s for p in self._secrets for s in _piece_parts(p)])
        self._home = home
        # Each distinct short text once: a run shows the same titles, evidence lines and URLs in many checks and
        # findings, and redacts them again at every boundary they cross. Redactors of the same secrets and home
        # share what they did (the result depends on nothing else: the secrets, which are matched only alone, the parts
        # whose pieces are looked for, the piece length and the home).
        self._done = _done_for(tuple(self._secrets), tuple(self._alone), tuple(self._pieces.secrets), PIECE, home)

    def adding(self, secrets: Iterable[str]) -> Redactor:
        """The same redactor with more secrets: a value codexdoctor learns after the run began (a key read from a
        start-up file for the as-if-fixed live checks) is scrubbed from everything, earlier text included."""
        return Redactor([*self._secrets, *secrets], home=self._home)

    def __call__(self, text: str) -> str:
        if not text:
            return text
        if len(text) > _CACHED_TEXT:
            return self._redacted(text)
        done = self._done.get(text)
        if done is None:
            done = self._redacted(text)
            if len(self._done) >= _CACHED_TEXTS:
                self._done.clear()  # bounded: a long run (a test worker) keeps learning what it sees now
            self._done[text] = done
        return done

    def _redacted(self, text: str) -> str:
        text = self._pieces.redact_encoded(text)
        for secret in self._secrets:
            if secret in text:
                alone = self._alone.get(secret)
                shown = _mark(secret)
                text = alone.sub(_constant(shown), text) if alone else text.replace(secret, shown)
        text = self._pieces.redact(text)
        text = _scrubbed(text) if len(text) <= _CACHED_TEXT else scrub(text, _mark)
        text = redact_urls(text)
        return shorten_home(text, self._home)


# Texts up to this many characters are remembered (a report's strings; not its whole rendered output), at most
# _CACHED_TEXTS of them for each set of secrets (4 sets) and in the scanner's cache shared by every redactor (the scan
# depends on the text alone, so a text seen by an earlier run's redactor is not scanned again): at most ~40 MB of
# ASCII text in the worst case.
_CACHED_TEXT = 2048
_CACHED_TEXTS = 2048


@functools.lru_cache(maxsize=4)
def _done_for(
    secrets: tuple[str, ...], alone: tuple[str, ...], parts: tuple[str, ...], piece: int, home: str | None
) -> dict[str, str]:
    return {}


@functools.lru_cache(maxsize=_CACHED_TEXTS)
def _scrubbed(text: str) -> str:
    return scrub(text, _mark)


def _constant(mark: str) -> Callable[[re.Match[str]], str]:
    """A replacement function that returns the mark as it is (a `re.sub` template would read `\\` in it)."""
    return lambda _match: mark


def _piece_parts(secret: str) -> list[str]:
    """The parts of a secret whose pieces are looked for: each white-space-separated word of it that is key-like
    (12+ characters, a letter and a digit, or a case mix). A header value such as "application/json" is a secret
    too, but its first 8 characters must not be taken out of every other content type; "Bearer sk-…" is looked for
    by its token."""
    out = []
    for part in secret.split():
        if len(part) < PIECE_MIN_SECRET or not any(c.isalpha() for c in part):
            continue
        if any(c.isdigit() for c in part) or (any(c.isupper() for c in part) and any(c.islower() for c in part)):
            out.append(part)
    return out


# A percent escape of one ASCII byte, a JSON \\u escape, or a JSON escape of one character (\\/ \\" \\\\).
_ESCAPE = re.compile(r"%[0-7][0-9A-Fa-f]|\\u00[0-7][0-9A-Fa-f]|\\[/\"\\\\]")


class _PieceIndex:
    """Every PIECE-character substring of the key-like secrets, for finding a run of any of them in a text.

    A text is cut into runs of the secrets' own characters (one C-speed regex); only a run of PIECE or more can hold
    a piece, and each of its PIECE-grams is looked up in one set. Most runs in a report (words, numbers, paths) are
    short or share no gram, so the cost is one set intersection per long run."""

    def __init__(self, secrets: list[str]) -> None:
        self._secrets = sorted(set(secrets), key=len, reverse=True)
        self.secrets = tuple(self._secrets)
        self._grams: dict[str, list[tuple[str, int]]] = {}
        for s in self._secrets:
            for i in range(len(s) - PIECE + 1):
                self._grams.setdefault(s[i : i + PIECE], []).append((s, i))
        chars = sorted({c for s in self._secrets for c in s})
        self._run = re.compile("[" + "".join(re.escape(c) for c in chars) + "]{" + str(PIECE) + ",}") if chars else None
        self._chars = frozenset(chars)

    def _spans(self, run: str) -> list[tuple[int, int, str]]:
        """(start, end, secret) of each maximal stretch of `run` that goes on as one secret does, PIECE or longer."""
        grams = self._grams
        found = {run[i : i + PIECE] for i in range(len(run) - PIECE + 1)} & grams.keys()
        if not found:
            return []
        spans: list[tuple[int, int, str]] = []
        i = 0
        while i <= len(run) - PIECE:
            hits = grams.get(run[i : i + PIECE]) if run[i : i + PIECE] in found else None
            if not hits:
                i += 1
                continue
            best_end, best_secret = i + PIECE, hits[0][0]
            for secret, offset in hits:
                end = i + PIECE
                while end < len(run) and offset + end - i < len(secret) and run[end] == secret[offset + end - i]:
                    end += 1
                if end > best_end:
                    best_end, best_secret = end, secret
            spans.append((i, best_end, best_secret))
            i = best_end
        return spans

    def redact(self, text: str) -> str:
        if self._run is None or len(text) < PIECE:
            return text
        out: list[str] = []
        last = 0
        for m in self._run.finditer(text):
            for start, end, secret in self._spans(m.group(0)):
                out += (text[last : m.start() + start], _mark(secret))
                last = m.start() + end
        if not out:
            return text
        out.append(text[last:])
        return "".join(out)

    def redact_encoded(self, text: str) -> str:
        """Pieces written percent-encoded or JSON-escaped: each stretch of escapes and the secrets' characters around
        them is decoded (with each decoded character's place in the text), searched as plain text, and the encoded
        stretch that matched is masked. Only stretches that hold an escape are looked at."""
        if not self._chars or ("%" not in text and "\\" not in text):
            return text
        out: list[str] = []
        last = 0
        for start, end in self._escaped_stretches(text):
            spans = self._spans(_ESCAPE.sub(_unescaped, text[start:end]))
            if not spans:
                continue  # most stretches (a URL's %2F, a JSON path's \/) hold no piece: no map of places needed
            decoded, where = _decode(text[start:end])
            for a, b, secret in spans:
                out += (text[last : start + where[a][0]], _mark(secret))
                last = start + where[b - 1][1]
        if not out:
            return text
        out.append(text[last:])
        return "".join(out)

    def _escaped_stretches(self, text: str) -> list[tuple[int, int]]:
        """(start, end) of each maximal stretch of escapes and secret characters that holds at least one escape."""
        chars = self._chars
        stretches: list[tuple[int, int]] = []
        for m in _ESCAPE.finditer(text):
            if stretches and m.start() < stretches[-1][1]:
                continue  # inside the stretch already found
            start = m.start()
            while start > 0 and text[start - 1] in chars:
                start -= 1
            end = m.end()
            while end < len(text):
                nxt = _ESCAPE.match(text, end)
                if nxt is not None:
                    end = nxt.end()
                elif text[end] in chars:
                    end += 1
                else:
                    break
            stretches.append((start, end))
        return stretches


def _unescaped(m: re.Match[str]) -> str:
    """The character one escape stands for (what `_decode` puts in its place)."""
    token = m.group(0)
    return chr(int(token[1:], 16)) if token[0] == "%" else chr(int(token[2:], 16)) if token[1] == "u" else token[1]


def _decode(run: str) -> tuple[str, list[tuple[int, int]]]:
    """`run` with its escapes decoded, and for each decoded character the (start, end) it came from."""
    chars: list[str] = []
    where: list[tuple[int, int]] = []
    i = 0
    while i < len(run):
        m = _ESCAPE.match(run, i)
        if m is None:
            chars.append(run[i])
            where.append((i, i + 1))
            i += 1
            continue
        chars.append(_unescaped(m))
        where.append(m.span())
        i = m.end()
    return "".join(chars), where


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
