"""net.reach: the canary's way to the provider decides, not the catalog's."""

from codexdoctor.checks.live import reach
from codexdoctor.model import Msg, Status
from tests.live.answers import answer, context, gathered, plan_of


def test_an_answer_is_reach(home):
    ctx = context(home)
    res = reach.interpret(ctx, plan_of(ctx), gathered())
    assert res.status is Status.PASS and res.summary == "answered in 5 ms" and res.facts["failure"] is None


def test_a_canary_that_cannot_connect_fails_although_the_catalog_answered(home):
    ctx = context(home)
    dead = answer(None, failure="refused", failure_said=Msg.verbatim("connection refused by 127.0.0.1:9"))
    res = reach.interpret(ctx, plan_of(ctx), gathered(canary=dead))
    assert res.status is Status.FAIL and res.summary == "connection refused by 127.0.0.1:9"
    assert res.facts["failure"] == "refused"


def test_a_407_from_the_proxy_names_the_proxy_not_the_provider(home):
    ctx = context(home, env={"HTTP_PROXY": "http://proxy.example:3128"})
    res = reach.interpret(ctx, plan_of(ctx), gathered(canary=answer(407, {})))
    assert res.status is Status.FAIL and res.facts["failure"] == "proxy" and res.facts["proxy_status"] == 407
    assert res.summary.startswith("the proxy in $HTTP_PROXY (http://proxy.example:3128) asks for credentials")
