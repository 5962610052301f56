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


def _cut(headers: bool):
    """The canary as codexdoctor stopped waiting for it past --timeout, the provider alive: no headers yet, or the
    headers and then only keep-alive comments (cut at --first-token-timeout)."""
    from dataclasses import replace

    from codexdoctor.checks.live.exchanges import Clocks
    from codexdoctor.net.exchange import StreamStats

    if headers:
        ex = replace(answer(200), stream=StreamStats(events=0), failure="deadline", content_type="text/event-stream")
    else:
        ex = answer(None, failure="timeout", failure_said=Msg.verbatim("no answer while waiting for the response"))
    alive = Msg("GET {p} answered 200 in 5 ms", "GET {p} 在 5 ms 内返回了 200", p="/v1/models")
    return gathered(canary=ex, clocks=Clocks(2.0, 4.0, str(alive), alive))


def test_an_alive_host_whose_first_token_was_cut_was_reached(home):
    """Issue 40 review: `[✗] Reachability: no answer while waiting for the response` beside `GET /v1/models -> 200`,
    and NET004's "did not answer". The host answered: the row passes, and the canary's NET010 says the rest."""
    from codexdoctor.checks.live import canary
    from codexdoctor.rules import evaluate

    ctx = context(home)
    for headers in (False, True):
        ex = _cut(headers)
        res = reach.interpret(ctx, plan_of(ctx), ex)
        assert res.status is Status.PASS and res.facts["failure"] is None, res.summary
        assert "no first token in time" in str(res.summary)
        row = canary.interpret(ctx, plan_of(ctx), ex)
        assert any("until --first-token-timeout 4 s" in str(e) for e in row.evidence), row.evidence
        assert row.reason is not None and "--first-token-timeout (4 s)" in str(row.reason)
        for lang in ("en", "zh"):
            found = [f.code for f in evaluate([res, row], lang=lang)]
            assert "NET010" in found and "NET004" not in found, (headers, found)


def test_times_of_a_second_or_more_carry_a_thousands_separator(home):
    """Issue 40, first review (27/14): `answered in 1112 ms` and `first token 12517 ms` beside `24,557 ms` on the same
    screen; every ms figure on check's and probe's rows is written as the rest of the report writes numbers."""
    from dataclasses import replace

    from codexdoctor.checks.live import canary
    from tests.live.answers import streamed

    ctx = context(home)
    slow = replace(streamed(), elapsed_ms=12541.0)
    slow = replace(slow, stream=replace(slow.stream, first_token_ms=12517.0))
    rows = [
        reach.interpret(ctx, plan_of(ctx), gathered(canary=slow)),
        canary.interpret(ctx, plan_of(ctx), gathered(canary=slow)),
    ]
    for lang in ("en", "zh"):
        said = " ".join(r.message.text(lang) for r in rows)
        assert "12,541 ms" in said and "12,517 ms" in said and "12541" not in said, said
