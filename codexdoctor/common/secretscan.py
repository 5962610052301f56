"""Other people's credentials in text from outside: one scanner, its detectors as data.

Session logs hold whatever a tool printed (`env`, `cat .env`, `printenv`), server bodies echo what they were sent,
and users paste whole terminals. None of those secrets is one codexdoctor knows by value, so they are found by
shape: the credential families below, each a detector with the literal keywords that must be in the text before its
pattern is tried (most texts carry none, so the scan costs one lower-casing and a few substring tests). Patterns
start with a literal where they can (the regex engine then jumps to it at C speed), case-insensitive ones are
matched on the lower-cased text, and the common keywords ("key", "token", "bearer") anchor their pattern: it is
tried only where the keyword occurs, never at every position of a report.

The shapes follow gitleaks' rule set (config/gitleaks.toml, commit 009e025a) and detect-secrets' plugins, each
detector naming the rule it follows. detect-secrets itself was weighed and not used: importing any of its plugins
costs about 170 ms (it imports requests for verification), it scans line by line at about 5 ms a line, and it has no
detector for Google API keys, Hugging Face tokens or fine-grained GitHub tokens.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Detector:
    """One credential family: the pattern, the group that holds the secret, and when to try it at all."""

    name: str
    family: str  # cloud | vcs | chat | provider | private-key | url-credentials | http-auth | assignment | generic
    pattern: str
    # Lower case; the pattern is tried only on a text that holds one of them. None: only on a text with a run of 32
    # letters and digits (the shapes that are such a run and have no literal to look for).
    keywords: tuple[str, ...] | None
    source: str  # the gitleaks rule id or detect-secrets plugin the shape follows
    group: str | int = 0  # the part of the match that is masked
    # The pattern is written in lower case and matched on the lower-cased text (case-insensitive, and 10x faster
    # than the engine's own IGNORECASE, which cannot jump to a literal).
    lower: bool = False
    # The pattern starts with one of the keywords and is tried only where a keyword occurs.
    anchored: bool = False
    # The character before the match is no letter or digit (the start of a token; `\b` at a pattern's start would
    # keep the engine from jumping to its literal).
    boundary: bool = False
    # A match is masked only when this says the value is a credential (assignments and auth schemes: a value that is
    # a count, a variable's name or a placeholder is what the report must show).
    accept: Callable[[re.Match[str]], bool] | None = None
    # What the secret is replaced by, when not the redactor's fingerprint mark: URL user-info becomes `***`, as
    # `redact_url` writes it, so a URL reads the same whichever pass saw it first.
    replacement: str | None = None


# Names that say their value is a credential, at the end of the name: `MYSQL_PWD`, `api_key`, `AWS_SECRET_ACCESS_KEY`,
# `"token"`. "tokens", "keys" and `max_tokens` are counts, not credentials: the name must end at the keyword.
_SECRET_NAME = r"(?:key|token|secret|passwd|password|pwd|credentials?|authorization|private[_-]?key)"  # noqa: S105  # a pattern of names, not a password
_PASSWORD_NAME = re.compile(r"(?:passwd|password|pwd)$", re.I)
_NUMBER = re.compile(r"[+-]?[\d][\d,._]*%?")
_VARIABLE_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")  # TAOTOKEN_API_KEY: the name of a variable, not a key
# A shell expression or a placeholder stands for a value without being one: `${TAOTOKEN_API_KEY#Bearer }` (a remedy's
# own command), `$(cat key.txt)`, `%KEY%`, `{{ secrets.KEY }}`, `<your key>`, `***`.
_REFERENCE = re.compile(
    r"\$\{[^}]*\}|\$\([^)]*\)|\$[A-Za-z_]\w*|%[A-Za-z_]\w*%|\{\{.*\}\}|<[^<>]*>|\*+|…|\.\.\.|x{3,}", re.I
)
# A lower-case name of words (`requires_openai_auth`, `model_providers.sim.base_url`): a config key, not a token.
_LOWER_NAME = re.compile(r"[a-z]+(?:[_.-][a-z]+)*")
_WORDS = frozenset(
    ("true", "false", "null", "none", "nil", "undefined", "unset", "set", "missing", "empty", "required", "redacted")
)


def looks_random(value: str) -> bool:
    """A value shaped like a generated credential: a digit, a case mix or base64/url punctuation, 8+ long. A word
    ("required", "authentication") is not one."""
    if len(value) < 8:
        return False
    return (
        any(c.isdigit() for c in value)
        or (any(c.isupper() for c in value) and any(c.islower() for c in value))
        or any(c in "+/=_-~." for c in value)
    )


# Variables' references joined by Codex's path and query (`%K%/responses?api-version=%K%`: a cmd curl of `report`,
# report/reproduce.py), no literal value in it: they stand for secrets without being one.
_CODEX_PATH = r"(?:/responses|/chat/completions|/models)?"
_REFERENCES_IN_A_URL = re.compile(
    rf"(?:{_REFERENCE.pattern}){_CODEX_PATH}(?:[?&][\w.~-]+=(?:{_REFERENCE.pattern}){_CODEX_PATH})*", re.I
)


def _is_shown_as_is(value: str) -> bool:
    """Values that name or stand for a secret without being one."""
    v = value.strip()
    return (
        not v
        or v.lower() in _WORDS
        or v.startswith(("<redacted", "<已脱敏"))
        or _REFERENCE.fullmatch(v) is not None
        or ("/" in v and _REFERENCES_IN_A_URL.fullmatch(v) is not None)
    )


def _original(match: re.Match[str], group: str) -> str:
    """A group's text as written (a `lower` detector matched the lower-cased copy; the case of a value is evidence
    of its randomness)."""
    start, end = match.span(group)
    value = match.string[start:end]
    return value[1:-1] if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'" else value


def _long_random(match: re.Match[str]) -> bool:
    return any(c.isdigit() for c in match.group(0))


_KEY_RUN = re.compile(r"[a-z0-9]{10,}")


def _prefixed_key(match: re.Match[str]) -> bool:
    """A gateway key after its prefix is one long generated run (`tt-3f9a8b7c6d5e…`); a model ID with the same
    prefix is words, versions and a date (`tt-model-2024-05-13`, `api-gpt-4o-mini`): short runs between separators.
    Masking it hid the model the report is about (issue 40 review: "Model: <redacted 19 chars>")."""
    tail = re.split(r"[-_]", match.group(0).lower(), maxsplit=1)[1]
    return any(len(run) >= 12 or any(c.isdigit() for c in run) for run in _KEY_RUN.findall(tail))


def _assignment_value(match: re.Match[str]) -> bool:
    value = _original(match, "value")
    if _is_shown_as_is(value):
        return False
    if _PASSWORD_NAME.search(match.group("kw")):
        return len(value) >= 3
    if _NUMBER.fullmatch(value) or _VARIABLE_NAME.fullmatch(value) or _LOWER_NAME.fullmatch(value):
        return False
    return looks_random(value)


def _auth_value(match: re.Match[str]) -> bool:
    value = _original(match, "value")
    return not _is_shown_as_is(value) and looks_random(value)


_VALUE = r"""(?P<value>"[^"\n]{1,400}"|'[^'\n]{1,400}'|[^\s"'<>,;`(){}\[\]|]{1,400})"""
_T = r"(?![A-Za-z0-9_])"  # the end of a token

DETECTORS: tuple[Detector, ...] = (
    # -- cloud
    Detector(
        "AWS access key id",
        "cloud",
        r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}" + _T,
        ("akia", "asia", "abia", "acca", "a3t"),
        "gitleaks aws-access-token; detect-secrets AWSKeyDetector",
        boundary=True,
    ),
    Detector("Google API key", "cloud", r"AIza[0-9A-Za-z_-]{35}" + _T, ("aiza",), "gitleaks gcp-api-key"),
    Detector(
        "Google OAuth access token", "cloud", r"ya29\.[0-9A-Za-z_-]{20,}", ("ya29.",), "gitleaks gcp (access token)"
    ),
    Detector(
        "Azure storage account key",
        "cloud",
        r"accountkey=(?P<value>[a-z0-9+/]{40,}={0,2})",
        ("accountkey=",),
        "detect-secrets AzureStorageKeyDetector",
        group="value",
        lower=True,
    ),
    Detector(
        "DigitalOcean token",
        "cloud",
        r"do[opr]_v1_[a-f0-9]{64}" + _T,
        ("_v1_",),
        "gitleaks digitalocean-pat / digitalocean-access-token / digitalocean-refresh-token",
    ),
    # -- version control and package registries
    Detector(
        "GitHub token",
        "vcs",
        r"gh[pousr]_[A-Za-z0-9]{20,255}" + _T,
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
        "gitleaks github-pat / github-oauth / github-app-token; detect-secrets GitHubTokenDetector",
    ),
    Detector(
        "GitHub fine-grained token",
        "vcs",
        r"github_pat_[A-Za-z0-9_]{22,255}",
        ("github_pat_",),
        "gitleaks github-fine-grained-pat",
    ),
    Detector(
        "GitLab token",
        "vcs",
        r"gl(?:pat|ptt|dt|rt|cbt|oas|soat|ft|imt|agent)-[A-Za-z0-9_-]{20,}",
        ("glpat-", "glptt-", "gldt-", "glrt-", "glcbt-", "gloas-", "glsoat-", "glft-", "glimt-", "glagent-"),
        "gitleaks gitlab-pat / gitlab-ptt / gitlab-deploy-token / gitlab-runner-authentication-token",
    ),
    Detector(
        "npm token",
        "vcs",
        r"npm_[A-Za-z0-9]{36}" + _T,
        ("npm_",),
        "gitleaks npm-access-token; detect-secrets NpmDetector",
    ),
    Detector(
        "PyPI token",
        "vcs",
        r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}",
        ("pypi-ageichlwas5vcmc",),
        "gitleaks pypi-upload-token; detect-secrets PypiTokenDetector",
    ),
    # -- chat and webhooks
    Detector(
        "Slack token",
        "chat",
        r"xox[abposre]-[A-Za-z0-9-]{10,}",
        ("xox",),
        "gitleaks slack-bot-token / slack-user-token / slack-legacy-token; detect-secrets SlackDetector",
    ),
    Detector(
        "Slack webhook",
        "chat",
        r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<value>[a-z0-9+/_-]{10,})",
        ("hooks.slack.com",),
        "gitleaks slack-webhook-url; detect-secrets SlackDetector",
        group="value",
        lower=True,
    ),
    Detector(
        "Discord webhook",
        "chat",
        r"discord(?:app)?\.com/api/webhooks/(?P<value>[0-9]+/[a-z0-9_-]+)",
        ("discord",),
        "gitleaks discord-webhook (shape); detect-secrets DiscordBotTokenDetector",
        group="value",
        lower=True,
    ),
    Detector(
        "Telegram bot token",
        "chat",
        r"[0-9]{5,16}:AA[A-Za-z0-9_-]{30,}" + _T,
        (":aa",),
        "gitleaks telegram-bot-api-token; detect-secrets TelegramBotTokenDetector",
        boundary=True,
    ),
    # -- API keys of model providers and other vendors
    Detector(
        "model provider API key",
        "provider",
        r"(?:sk|pk|rk)-(?:ant-(?:api|admin)\d+-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}",
        ("sk-", "pk-", "rk-"),
        "gitleaks openai-api-key / anthropic-api-key; detect-secrets OpenAIDetector",
        boundary=True,
    ),
    Detector(
        "Hugging Face token",
        "provider",
        r"(?:hf|api_org)_[A-Za-z0-9]{30,}" + _T,
        ("hf_", "api_org_"),
        "gitleaks huggingface-access-token / huggingface-organization-api-token",
        boundary=True,
    ),
    Detector(
        "vendor API key",
        "provider",
        r"(?:gsk_|xai-|pplx-|r8_|fw_|nvapi-|tvly-|csk-)[A-Za-z0-9_-]{20,}",
        ("gsk_", "xai-", "pplx-", "r8_", "fw_", "nvapi-", "tvly-", "csk-"),
        "gitleaks groq-api-key / xai-api-key / perplexity-api-key (shapes); Replicate, Fireworks, NVIDIA, Tavily",
        boundary=True,
    ),
    Detector(
        "Stripe key",
        "provider",
        r"(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}",
        ("_live_", "_test_"),
        "gitleaks stripe-access-token; detect-secrets StripeDetector",
    ),
    Detector(
        "SendGrid key",
        "provider",
        r"SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}",
        ("sg.",),
        "gitleaks sendgrid-api-token; detect-secrets SendGridDetector",
    ),
    Detector(
        "Twilio key",
        "provider",
        r"SK[0-9a-fA-F]{32}" + _T,
        None,
        "gitleaks twilio-api-key; detect-secrets TwilioKeyDetector",
    ),
    Detector(
        "prefixed key",
        "provider",
        # Prefixes gateways use (TaoToken tt-, generic key-/api-/ak-, session tokens) and earlier codexdoctor cases.
        r"(?:sk|pk|rk|ak|tt|key|api|ghp|gsk|xai|sess)[-_][a-z0-9_-]{8,}",
        tuple(
            f"{p}{sep}"
            for p in ("sk", "pk", "rk", "ak", "tt", "key", "api", "ghp", "gsk", "xai", "sess")
            for sep in "-_"
        ),
        "codexdoctor's list of gateway key prefixes",
        lower=True,
        anchored=True,
        boundary=True,
        accept=_prefixed_key,
    ),
    Detector(
        "JSON Web Token",
        "provider",
        r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        ("eyj",),
        "gitleaks jwt; detect-secrets JwtTokenDetector",
    ),
    # -- private keys: the whole block, to its end (or to the end of the text when the end was cut off)
    Detector(
        "private key block",
        "private-key",
        r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|\Z)",
        ("private key",),
        "gitleaks private-key; detect-secrets PrivateKeyDetector",
    ),
    Detector(
        "PuTTY private key",
        "private-key",
        r"PuTTY-User-Key-File-\d:[\s\S]*?(?:Private-MAC:\s*\S+|\Z)",
        ("putty-user-key-file",),
        "detect-secrets PrivateKeyDetector",
    ),
    # -- user-info in a URL of any scheme (postgres://, redis://, amqp://, mongodb+srv://, ftp://, https://)
    Detector(
        "URL credentials",
        "url-credentials",
        r"://(?P<value>[^\s/?#@\"'<>`]*:[^\s/?#@\"'<>`]*)@",
        ("://",),
        "gitleaks (URL user-info); detect-secrets BasicAuthDetector",
        group="value",
        replacement="***",
    ),
    # -- HTTP authorisation values: the whole token68 alphabet (RFC 9110 §11.2), `+`, `/` and `=` included
    Detector(
        "HTTP Basic or Bearer value",
        "http-auth",
        r"(?:basic|bearer)[ \t]+(?P<value>[a-z0-9\-._~+/=]{8,})",
        ("basic", "bearer"),
        "gitleaks curl-auth-header (authorization header shapes)",
        group="value",
        lower=True,
        anchored=True,
        boundary=True,
        accept=_auth_value,
    ),
    # -- NAME=value, name: value, "name": "value" where the name says key, token, secret, password or pwd
    Detector(
        "named credential",
        "assignment",
        "(?P<kw>" + _SECRET_NAME + r")(?P<q>[\"']?)[ \t]*(?:=>|:=|=|:(?!//))[ \t]*" + _VALUE,
        ("key", "token", "secret", "passw", "pwd", "credential", "authorization", "private"),
        "gitleaks generic-api-key (keyword assignment); detect-secrets KeywordDetector",
        group="value",
        lower=True,
        anchored=True,
        accept=_assignment_value,
    ),
    # -- a long random run: keys have digits; identifiers in error bodies (ChatCompletionRequestSystemMessage) do not
    Detector(
        "long random string",
        "generic",
        r"[A-Za-z0-9]{32,}" + _T,
        None,
        "detect-secrets Base64HighEntropyString / HexHighEntropyString (shape, without the entropy test)",
        boundary=True,
        accept=_long_random,
    ),
)


@functools.cache
def _regex(pattern: str) -> re.Pattern[str]:
    """Compiled on first use: a text that holds none of a detector's keywords never pays for its pattern."""
    return re.compile(pattern)


# The shapes without a literal are runs of 32 or more letters and digits (Twilio's SK…, a Mailchimp key's 32 hex
# digits, generated keys of no known prefix). They are found on a byte mask of the text, one byte a character (1 for a
# letter or digit), where a run is a literal the engine scans for at C speed; a pattern over the text itself would be
# tried at every position of every shorter run.
_ALNUM_TABLE = bytes(1 if chr(i).isascii() and chr(i).isalnum() else 0 for i in range(256))
_LONG_RUN = re.compile(b"\x01" * 32 + b"+")


def _long_runs(text: str) -> list[int]:
    """Where each run of 32 or more ASCII letters and digits starts."""
    mask = text.encode("ascii", "replace").translate(_ALNUM_TABLE)
    return [m.start() for m in _LONG_RUN.finditer(mask)]


@functools.lru_cache(maxsize=1)
def _trigger() -> tuple[re.Pattern[str], dict[str, frozenset[int]]]:
    """Every detector keyword in one pattern, and for each keyword the detectors it wakes.

    One pass of the pattern tells which keywords a text holds (a `k in text` per keyword would read a long report
    once per keyword). The pattern is a trie (`a(?:kia|pi_(?:org_)?|…)|b(?:asic|earer)|…`), so the engine tests one
    character class at each position and branches only where a keyword can start. A match hides the keywords inside
    it ("key" in "accountkey="), so a keyword wakes the detectors of every keyword it contains as well."""
    words = sorted({k for d in DETECTORS for k in d.keywords or ()})
    wakes: dict[str, frozenset[int]] = {}
    for word in words:
        wakes[word] = frozenset(i for i, d in enumerate(DETECTORS) if any(k in word for k in d.keywords or ()))
    return re.compile(_trie(words)), wakes


def _trie(words: list[str]) -> str:
    """A regex that matches any of `words`, branching on one character at a time (the longest word wins)."""
    tree: dict[str, dict] = {}  # type: ignore[type-arg]  # nested to any depth
    for word in words:
        node = tree
        for c in word:
            node = node.setdefault(c, {})
        node[""] = {}

    def emit(node: dict) -> str:  # type: ignore[type-arg]
        alternatives = [re.escape(c) + emit(sub) for c, sub in sorted(node.items()) if c]
        if not alternatives:
            return ""
        body = "(?:" + "|".join(alternatives) + ")"
        return body + "?" if "" in node else body

    return emit(tree)


def find(text: str) -> list[tuple[int, int, Detector]]:
    """Every credential in `text`: (start, end, detector), overlapping spans merged, in text order."""
    if len(text) < 8:
        return []
    low = text.lower()
    if len(low) != len(text):  # a character whose lower case is longer (U+0130): offsets would not line up
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    trigger, wakes = _trigger()
    woken = frozenset().union(*(wakes[w] for w in set(trigger.findall(low))))
    runs = _long_runs(text)  # the byte mask finds a run at C speed; a search for `[A-Za-z0-9]{32}` reads each 32 times
    long_run = bool(runs)
    if not woken and not long_run:
        return []
    spans: list[tuple[int, int, Detector]] = []
    for i, d in enumerate(DETECTORS):
        if (d.keywords is None and not long_run) or (d.keywords is not None and i not in woken):
            continue
        target = low if d.lower else text
        regex = _regex(d.pattern)
        for m in _matches(d, regex, target, low, runs):
            if d.boundary and m.start() and target[m.start() - 1].isalnum():
                continue
            if d.accept is not None and not d.accept(_with_original(m, text)):
                continue
            start, end = m.span(d.group)
            if d.group == "value":
                start, end = _unquoted(text, start, end)
            if end - start >= 3:
                spans.append((start, end, d))
    return _merged(spans)


def _matches(d: Detector, regex: re.Pattern[str], target: str, low: str, runs: list[int]) -> list[re.Match[str]]:
    """The pattern's matches where it can match: at each long run's start (no keywords), at each keyword (anchored),
    else wherever the engine finds it."""
    if d.keywords is None:
        return [m for m in (regex.match(target, at) for at in runs) if m is not None]
    if not d.anchored:
        return list(regex.finditer(target))
    found: list[re.Match[str]] = []
    for keyword in d.keywords:
        at = low.find(keyword)
        while at >= 0:
            m = regex.match(target, at)
            if m is not None:
                found.append(m)
            at = low.find(keyword, at + 1)
    return found


class _Original:
    """A match seen with the text as written: `accept` judges a value by its case too."""

    __slots__ = ("_m", "original")

    def __init__(self, m: re.Match[str], original: str) -> None:
        self._m = m
        self.original = original

    def group(self, name: str | int = 0) -> str:
        return self._m.group(name)

    def span(self, name: str | int = 0) -> tuple[int, int]:
        return self._m.span(name)

    @property
    def string(self) -> str:
        return self.original


def _with_original(m: re.Match[str], text: str) -> re.Match[str]:
    if m.string is text:
        return m
    return _Original(m, text)  # type: ignore[return-value]  # the two methods accept calls, with the original text


def _unquoted(text: str, start: int, end: int) -> tuple[int, int]:
    """A quoted value is masked inside its quotes, so the text around it still reads as JSON or shell."""
    if end - start >= 2 and text[start] == text[end - 1] and text[start] in "\"'":
        return start + 1, end - 1
    return start, end


def _merged(spans: list[tuple[int, int, Detector]]) -> list[tuple[int, int, Detector]]:
    """Overlapping finds become one span (the wider wins the detector: its replacement is the one shown)."""
    spans.sort(key=lambda s: (s[0], -s[1]))
    out: list[tuple[int, int, Detector]] = []
    for start, end, d in spans:
        if out and start < out[-1][1]:
            last = out[-1]
            out[-1] = (last[0], max(last[1], end), last[2] if last[1] >= end else d)
        else:
            out.append((start, end, d))
    return out


def scrub(text: str, mark: Callable[[str], str]) -> str:
    """`text` with every credential found replaced by `mark(credential)`."""
    spans = find(text)
    if not spans:
        return text
    out: list[str] = []
    last = 0
    for start, end, d in spans:
        piece = text[start:end]
        shown = piece if piece.startswith(("<redacted", "<已脱敏")) else d.replacement or mark(piece)
        out += (text[last:start], shown)
        last = end
    out.append(text[last:])
    return "".join(out)
