"""api.turn_two: sent only after Codex's first request got its answer; a failure to build it is its own crash."""

import pytest

from codexdoctor.checks.live import turn_two
from codexdoctor.checks.live.plan import make_plan
from codexdoctor.codex import request as codexrequest
from codexdoctor.model import Status
from tests.live.answers import answer, context, gathered, plan_of, streamed


def test_turn_two_is_not_sent_after_a_failed_first_request(home):
    ctx = context(home)
    res = turn_two.interpret(ctx, plan_of(ctx), gathered(canary=answer(500, {"error": {"message": "boom"}})))
    assert res.status is Status.SKIP and res.summary == "not sent: Codex's first request did not get through"


def test_turn_two_that_streams_passes_with_its_size(home):
    ctx = context(home)
    plan = make_plan(ctx)
    assert plan.first is not None
    second = codexrequest.turn_two(plan.first.body, None)
    ex = gathered(turn_two=(second, streamed(usage={"input_tokens": 11000})))
    res = turn_two.interpret(ctx, plan, ex)
    assert res.status is Status.PASS and res.summary == "works with 2 tool calls and their outputs (11,000 tokens)"
    assert res.facts["turn_two_counted_by"] == "provider"


def test_an_exception_while_gathering_turn_two_is_raised_by_its_reader_only(home):
    ctx = context(home)
    with pytest.raises(ValueError, match="bad reasoning"):
        turn_two.interpret(ctx, plan_of(ctx), gathered(turn_two_error=ValueError("bad reasoning")))
