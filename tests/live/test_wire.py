"""api.wire, from hand-made exchanges: a Chat-only gateway is named only after a 404 at /responses."""

from codexdoctor.checks.live import wire
from codexdoctor.model import Status
from tests.live.answers import BASE, context, gathered, not_found, plan_of, streamed


def test_a_gateway_that_serves_only_chat_completions_fails_the_wire_check(home):
    ctx = context(home)
    ex = gathered(
        canary=not_found(BASE + "/responses"),
        variants=(("http://127.0.0.1:9", not_found("http://127.0.0.1:9/responses")),),
        chat=streamed(url=BASE + "/chat/completions"),
    )
    res = wire.interpret(ctx, plan_of(ctx), ex)
    assert res.status is Status.FAIL and res.summary == "serves /chat/completions but not /responses"
    assert res.facts["chat_works"] is True and res.facts["variants_work"] is False


def test_the_wire_check_is_not_needed_when_the_configured_path_answers(home):
    ctx = context(home)
    res = wire.interpret(ctx, plan_of(ctx), gathered())
    assert res.status is Status.SKIP and res.summary == "not needed" and res.facts["chat_works"] is None
