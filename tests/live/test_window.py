"""ctx.window: the published window against the one Codex assumes, or Codex's first request when none is."""

from codexdoctor.checks.live import window
from codexdoctor.model import Status
from tests.live.answers import BASE, answer, catalog, context, gathered, plan_of, streamed


def test_a_published_window_below_what_codex_needs_fails(home):
    ctx = context(home)
    res = window.interpret(ctx, plan_of(ctx), gathered(catalog=catalog("m", max_model_len=4096)))
    assert res.status is Status.FAIL and res.summary == "serves 4,096 tokens; Codex assumes 272,000"
    assert res.facts["source"] == "GET http://127.0.0.1:9/v1/models, field max_model_len"


def test_an_unpublished_window_says_so(home):
    ctx = context(home)
    res = window.interpret(ctx, plan_of(ctx), gathered())
    assert res.status is Status.SKIP and res.summary == "the provider does not publish its window"
    assert res.facts["unpublished"] is True and res.facts["served"] is None


def test_the_provider_count_of_the_first_request_wins_over_the_estimate(home):
    ctx = context(home)
    res = window.interpret(ctx, plan_of(ctx), gathered(canary=streamed(usage={"input_tokens": 4321})))
    assert res.facts["first_request"] == 4321 and res.facts["first_counted_by"] == "provider"


def test_a_provider_that_never_answered_has_not_said_it_publishes_no_window(home):
    """Issue 40 review: refused or hanging, `/props -> timeout` and `/model/info -> timeout` in the evidence and the
    summary said "the provider does not publish its window"."""
    ctx = context(home)

    def timed_out(url: str, method: str = "GET"):
        return answer(None, url=url, method=method, failure="timeout")

    res = window.interpret(
        ctx,
        plan_of(ctx),
        gathered(
            catalog=timed_out(BASE + "/models"),
            open_catalog=timed_out(BASE + "/models"),
            windows=(timed_out("http://127.0.0.1:9/props"), timed_out("http://127.0.0.1:9/model/info")),
            canary=timed_out(BASE + "/responses", "POST"),
        ),
    )
    assert res.status is Status.SKIP and res.summary == "not checked: the provider did not answer"
    assert res.message is not None and res.message.text("zh") == "未检查：提供方没有响应"
    assert res.facts["unpublished"] is False and res.facts["answered"] is False
