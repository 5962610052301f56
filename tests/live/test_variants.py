"""api.variants: which nearby base_url serves the API after a 404, and the model error it gave (issue 28)."""

from codexdoctor.checks.live import variants
from codexdoctor.model import Msg, Status
from tests.live.answers import BASE, answer, context, gathered, not_found, plan_of


def test_the_first_variant_that_answers_is_the_working_one(home):
    ctx = context(home)
    tried = (
        ("http://127.0.0.1:9", not_found("http://127.0.0.1:9/responses")),
        (
            "http://127.0.0.1:9/api/v1",
            answer(401, {"error": {"message": "bad key"}}, url="http://127.0.0.1:9/api/v1/responses"),
        ),
    )
    res = variants.interpret(ctx, plan_of(ctx), gathered(canary=not_found(BASE + "/responses"), variants=tried))
    assert res.status is Status.PASS and res.summary == "http://127.0.0.1:9/api/v1 serves the API"
    assert res.facts["working_index"] == 1 and res.facts["tried"] == ["http://127.0.0.1:9", "http://127.0.0.1:9/api/v1"]


def test_a_model_error_at_the_working_variant_is_kept_for_the_canary(home):
    ctx = context(home)
    unknown = answer(
        404,
        {"error": {"message": "The model `m` does not exist", "code": "model_not_found"}},
        url="http://127.0.0.1:9/api/responses",
    )
    ex = gathered(canary=not_found(BASE + "/responses"), variants=(("http://127.0.0.1:9/api", unknown),))
    found = variants.model_not_found(ctx, plan_of(ctx), ex)
    assert found is not None and found["status"] == 404 and found["url"] == "http://127.0.0.1:9/api/responses"


def test_no_variant_is_tried_when_the_configured_url_did_not_answer(home):
    ctx = context(home)
    dead = answer(None, failure="refused", failure_said=Msg.verbatim("connection refused"))
    res = variants.interpret(ctx, plan_of(ctx), gathered(canary=dead))
    assert res.status is Status.SKIP and res.summary == "not tried: the configured URL did not answer"
