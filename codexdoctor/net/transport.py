"""The names net/ had when it was one module, kept importable from here while callers move (issue 37).

net/ is now cut at its seams: `exchange` (the records), `deadline`, `kinds` (FailureKind), `body` (capped reads),
`sse` (the SSE parser object), `stream` (a stream timed), `errors` (the HTTP library's exceptions as failure kinds),
`client` (TLS and proxies) and `send`. New code imports from those; `checks/` still imports from here.
"""

from __future__ import annotations

from codexdoctor.net.body import MAX_BODY, MAX_STREAM_BYTES, Oversize, Undecodable, bounded_bytes
from codexdoctor.net.client import (
    CA_VARIABLES,
    IGNORED_CA_VARIABLES,
    is_ca_certificate,
    make_client,
    proxy_for,
    proxy_variable,
    ssl_context,
)
from codexdoctor.net.deadline import Deadline
from codexdoctor.net.errors import classify_exception
from codexdoctor.net.exchange import REQUEST_ID_HEADERS, Exchange, StreamStats, request_id_of, retry_after, utc_now
from codexdoctor.net.kinds import TRANSIENT_FAILURES
from codexdoctor.net.send import BODY_EXCERPT, HARD_GRACE_S, RETRY_AFTER_CAP_S, is_transient, send
from codexdoctor.net.sse import CODEX_COMPLETED, MAX_LINE, MAX_REASONING, bounded_lines
from codexdoctor.net.stream import MAX_EVENTS, MAX_TEXT, parse_sse

__all__ = [
    "BODY_EXCERPT",
    "CA_VARIABLES",
    "CODEX_COMPLETED",
    "HARD_GRACE_S",
    "IGNORED_CA_VARIABLES",
    "MAX_BODY",
    "MAX_EVENTS",
    "MAX_LINE",
    "MAX_REASONING",
    "MAX_STREAM_BYTES",
    "MAX_TEXT",
    "REQUEST_ID_HEADERS",
    "RETRY_AFTER_CAP_S",
    "TRANSIENT_FAILURES",
    "Deadline",
    "Exchange",
    "Oversize",
    "StreamStats",
    "Undecodable",
    "bounded_bytes",
    "bounded_lines",
    "classify_exception",
    "is_ca_certificate",
    "is_transient",
    "make_client",
    "parse_sse",
    "proxy_for",
    "proxy_variable",
    "request_id_of",
    "retry_after",
    "send",
    "ssl_context",
    "utc_now",
]
