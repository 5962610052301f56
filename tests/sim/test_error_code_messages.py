"""Issue 40 (review): `sim --error-code X` without `--error-message` sent the generic "model crashed" text whatever
the code (a rate limit with a crash's words). The default is the message an OpenAI-compatible server sends with X."""

from __future__ import annotations

import pytest

from tests.sim.test_sim import KEY, sse_events, stream

EXPECTED = {
    "rate_limit_exceeded": ("Rate limit reached for sim-model", "Please try again in 20ms."),
    "insufficient_quota": ("You exceeded your current quota",),
    "server_is_overloaded": ("Our servers are currently overloaded",),
    "context_length_exceeded": ("Your input exceeds the context window of this model",),
    "server_error": ("An error occurred while processing your request",),
}


@pytest.mark.parametrize("fault,kind", [("response_failed", "response.failed"), ("error_event", "error")])
@pytest.mark.parametrize("code", sorted(EXPECTED))
def test_the_default_message_matches_the_code(sim_server, fault, kind, code):
    s = sim_server(api_key=KEY, stream_fault=fault, fault_code=code)
    r, kinds = stream(s)
    last = sse_events(r.text)[-1]
    error = last["response"]["error"] if kind == "response.failed" else last
    assert error["code"] == code and all(words in error["message"] for words in EXPECTED[code]), error
    assert "crashed" not in error["message"]


def test_a_code_of_its_own_keeps_the_generic_words_and_a_given_message_wins(sim_server):
    s = sim_server(api_key=KEY, stream_fault="response_failed", fault_code="made_up")
    assert (
        sse_events(stream(s)[0].text)[-1]["response"]["error"]["message"]
        == "The upstream model crashed while generating."
    )
    s.reconfigure(fault_code="rate_limit_exceeded", fault_message="mine")
    assert sse_events(stream(s)[0].text)[-1]["response"]["error"]["message"] == "mine"


def test_the_rate_limit_message_adds_up():
    """Issue 40 (review): "Limit 30000, Used 30000, Requested 8500. Please try again in 20ms." contradicts itself (a
    full bucket frees 8,500 tokens in 17 s, not 20 ms). The default says what a token bucket would: the tokens over
    the limit, refilled at Limit per minute, take the wait it names."""
    import re

    from codexdoctor.sim.errors import STREAM_ERROR_MESSAGES

    said = STREAM_ERROR_MESSAGES["rate_limit_exceeded"]
    numbers = re.search(r"Limit (\d+), Used (\d+), Requested (\d+)\. Please try again in (\d+)ms", said)
    assert numbers, said
    limit, used, requested, wait_ms = map(int, numbers.groups())
    over = used + requested - limit
    assert over > 0 and over / (limit / 60_000) == pytest.approx(wait_ms, abs=1), said
