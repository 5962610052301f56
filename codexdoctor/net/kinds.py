"""The closed set of kinds an exchange can end in: the transport's failures and the error taxonomy's verdicts.

A string enum (`str` first, so a kind equals its value): checks and rules compare kinds with plain strings
(`f["kind"] == "quota"`), facts carry them into JSON as their value, and both keep working. What is closed is the
set: `FailureKind("qouta")` raises, so a typo in the vocabulary fails at once instead of never matching.
"""

from __future__ import annotations

import enum


class FailureKind(str, enum.Enum):
    """Every kind `net.classify` can name, the transport's own failures among them (Python 3.10: no StrEnum)."""

    # What the transport itself ends an exchange with (Exchange.failure): library exceptions mapped in net.errors.
    DNS = "dns"
    REFUSED = "refused"
    TLS = "tls"
    TIMEOUT = "timeout"
    RESET = "reset"
    PROXY = "proxy"
    PROTOCOL = "protocol"
    REDIRECT = "redirect"
    DEADLINE = "deadline"
    # What an answer means (net.classify).
    OK = "ok"
    HTML = "html"
    NOT_JSON = "not_json"
    NOT_A_STREAM = "not_a_stream"
    PROXY_AUTH = "proxy_auth"
    AUTH_MISSING = "auth_missing"
    AUTH_REJECTED = "auth_rejected"
    PAYMENT = "payment"
    QUOTA = "quota"
    BLOCKED = "blocked"
    FORBIDDEN = "forbidden"
    RATE_LIMITED = "rate_limited"
    MODEL_NOT_FOUND = "model_not_found"
    SERVER_ERROR = "server_error"
    DEPLOYMENT_NOT_FOUND = "deployment_not_found"
    CONTEXT_EXCEEDED = "context_exceeded"
    TOO_LARGE = "too_large"
    PATH_NOT_FOUND = "path_not_found"
    WIRE_MISMATCH = "wire_mismatch"
    BAD_REQUEST = "bad_request"
    STREAM_ERROR = "stream_error"
    WRONG_STREAM_GRAMMAR = "wrong_stream_grammar"
    UNREADABLE_COMPLETION = "unreadable_completion"
    CALL_ID_LOST = "call_id_lost"
    STREAM_INCOMPLETE = "stream_incomplete"
    OUTPUT_CAPPED = "output_capped"  # response.incomplete: max_output_tokens before any cap the request asked for
    USAGE_NOT_INCLUDED = "usage_not_included"  # response.failed with code usage_not_included
    KEY_QUOTA = "key_quota"  # a 401 whose body says the key's quota is used up (new-api/one-api): the key is right
    TPM_TOO_LARGE = "tpm_too_large"  # a 429 for one request larger than the key's whole tokens-per-minute limit
    # response.failed with code server_is_overloaded or slow_down: Codex 0.171 stops at once ("Selected model is at
    # capacity. Please try a different model.", not retried)
    SERVER_OVERLOADED = "server_overloaded"
    STREAM_IDLE = "stream_idle"
    STREAM_CLOSED = "stream_closed"
    # What the live checks conclude from several exchanges (checks/live.py names them through Classified).
    CODEX_REJECTED = "codex_rejected"
    RATE_LIMIT_EXHAUSTED = "rate_limit_exhausted"
    # response.failed rate_limit_exceeded at every attempt Codex makes: it stops with `rate limit exceeded: <message>`
    STREAM_RATE_LIMITED = "stream_rate_limited"

    def __str__(self) -> str:
        """The value, as the plain string this kind replaced printed (Enum's own is `FailureKind.DNS`)."""
        return str(self.value)

    def __format__(self, spec: str) -> str:
        """The value in f-strings too (Python 3.12 changed a mixed-in enum's format() to Enum.__str__)."""
        return format(str(self.value), spec)


# The kinds an exchange's transport can fail with (Exchange.failure); the rest need an answer to read.
TRANSPORT_FAILURES = frozenset(
    {
        FailureKind.DNS,
        FailureKind.REFUSED,
        FailureKind.TLS,
        FailureKind.TIMEOUT,
        FailureKind.RESET,
        FailureKind.PROXY,
        FailureKind.PROTOCOL,
        FailureKind.REDIRECT,
        FailureKind.DEADLINE,
    }
)
# The transport failures worth another attempt (with 429 and 5xx answers: net.send.is_transient).
TRANSIENT_FAILURES = (FailureKind.TIMEOUT, FailureKind.RESET)


def failure_kind(value: str) -> FailureKind:
    """A transport failure named by its string (what callers outside net/ still write), checked against the set."""
    kind = FailureKind(value)
    if kind not in TRANSPORT_FAILURES:
        raise ValueError(f"{value!r} is not a transport failure (one of {sorted(TRANSPORT_FAILURES)})")
    return kind
