"""api.canary: what the answer to Codex's request says, and what the minimal request contrasts it with."""

from codexdoctor.checks.live import canary
from codexdoctor.model import Status
from tests.live.answers import BASE, answer, context, gathered, not_found, plan_of, streamed


def test_a_streamed_answer_passes(home):
    ctx = context(home)
    res = canary.interpret(ctx, plan_of(ctx), gathered())
    assert res.status is Status.PASS and res.summary == "streamed answer in 5 ms, first token 3 ms"
    assert res.facts["kind"] == "ok" and res.facts["deadline_s"] == 10.0 and res.facts["first_token_timeout_s"] == 120.0


def test_a_refusal_a_minimal_request_does_not_get_is_codex_rejected(home):
    ctx = context(home)
    refused = answer(400, {"error": {"message": "Unsupported parameter: 'store'", "param": "store"}})
    res = canary.interpret(ctx, plan_of(ctx), gathered(canary=refused, minimal=streamed(), field="store"))
    assert res.status is Status.FAIL and res.facts["kind"] == "codex_rejected"
    assert res.summary == "the provider rejects Codex's request (store)" and res.facts["minimal_kind"] == "ok"


def test_the_model_error_at_the_working_variant_is_on_the_canary_row(home):
    ctx = context(home)
    unknown = answer(
        404,
        {"error": {"message": "The model `m` does not exist", "code": "model_not_found"}},
        url="http://127.0.0.1:9/api/responses",
    )
    ex = gathered(canary=not_found(BASE + "/responses"), variants=(("http://127.0.0.1:9/api", unknown),))
    res = canary.interpret(ctx, plan_of(ctx), ex)
    assert res.facts["kind"] == "path_not_found" and res.facts["model_not_found_at"]["status"] == 404


def test_no_canary_is_a_skip(home):
    ctx = context(home)
    res = canary.interpret(ctx, plan_of(ctx), gathered(canary=None))
    assert res.status is Status.SKIP and res.summary == "skipped (--no-canary)"
