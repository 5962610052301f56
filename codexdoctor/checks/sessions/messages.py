"""What a session's last message says: the words that decide for the context or the channel, the ones that decide
nothing alone (issue 39), and the evidence a session gets when Codex's own sentence names the ending. `diagnose-error`
reads a paste with the same lists, so a paste and a log line of one family are the same event."""

from __future__ import annotations

from codexdoctor.net.classify import CONTEXT_MARKERS, HIGH_DEMAND, turn_two_item

CHANNEL_INFO = ("http 401", "http 403", "http 404")
# Statuses whose message does not say which broke (issue 39): Codex's "high demand" mask of a 5xx, a 429 after its
# retries. A gateway that meets a full window can end a turn with any of them, and so can a flaky channel: alone they
# decide nothing; sessions breaking at one size decide the context, wandering breaks or a first question the channel.
UNCLEAR_INFO = ("http 429", "http 500", "http 502", "http 503", "http 504")
# Every server family's overflow words (the same list the live checks use); "context" alone is not one of them.
CODEX_CONTEXT_TEXT = ("ran out of room",)
CONTEXT_TEXT = tuple(m for m in CONTEXT_MARKERS if m not in ("context_length", "too many tokens")) + CODEX_CONTEXT_TEXT
# The messages that decide nothing alone (a stream cut, "high demand", a 429 after the retries, a timeout), by family:
# a paste and a session log line of one family are the same event.
UNCLEAR_FAMILIES = (
    ("stream_closed", ("stream closed before response.completed",)),
    ("high_demand", HIGH_DEMAND),
    ("retry_limit", ("exceeded retry limit",)),
    ("idle_timeout", ("idle timeout",)),
    ("timeout", ("timed out", "timeout")),
    ("stream_cut", ("stream disconnected",)),
)
# The families a paste is read against the logs for (issue 39's list); a bare "stream disconnected … error sending
# request" names a transport failure and keeps its own finding.
PASTE_FAMILIES = ("stream_closed", "high_demand", "retry_limit", "idle_timeout", "timeout")


# Words that decide for the channel even inside "stream disconnected before completion: …": the name, the connection,
# the certificate.
TRANSPORT_TEXT = (
    "lookup address",
    "dns error",
    "name or service not known",
    "connection refused",
    "certificate",
    "tls handshake",
    "invalid peer",
    "os error 111",
    "proxy",
)


# What a session's failure is when Codex's sentence names the ending (net.codex_words): the session's evidence.
ENDING_EVIDENCE = {
    "output_capped": "the provider cut the answer short (`Incomplete response returned, reason: max_output_tokens`)",
    "stream_incomplete": "the provider ended the answer incomplete (`Incomplete response returned`: a content filter "
    "or another reason)",
    "quota": "Codex's `Quota exceeded.`: the key's quota is used up",
    "usage_not_included": "the provider does not let this key use the model (usage_not_included)",
}


CHANNEL_TEXT = (
    "unexpected status",
    "Missing environment variable",
    "does not exist",
    "not found",
    "Unauthorized",
    "Forbidden",
)


def message_family(text: str) -> str | None:
    """Which undecided message a text is (a paste, a session's error line), or None when its words decide."""
    lowered = text.lower().replace("\u2019", "'")
    if turn_two_item(lowered) or any(m in lowered for m in CONTEXT_TEXT + TRANSPORT_TEXT):
        return None
    return next((family for family, markers in UNCLEAR_FAMILIES if any(m in lowered for m in markers)), None)
