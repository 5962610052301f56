"""api.catalog: the configured model against GET /models, and the catalog read where the API really is."""

from codexdoctor.checks.live import catalog
from codexdoctor.model import Status
from tests.live.answers import BASE, context, gathered, not_found, plan_of
from tests.live.answers import catalog as listing


def test_the_model_listed_exactly_passes(home):
    ctx = context(home)
    res = catalog.interpret(ctx, plan_of(ctx), gathered(catalog=listing("m", "other")))
    assert res.status is Status.PASS and res.summary == '2 models, "m" listed' and res.facts["match"] == "exact"


def test_a_model_listed_with_other_capitals_warns_and_names_it(home):
    ctx = context(home, model="Sim-Model")
    res = catalog.interpret(ctx, plan_of(ctx), gathered(catalog=listing("sim-model")))
    assert res.status is Status.WARN and res.summary == '1 model, "Sim-Model" listed with different capitals'
    assert res.facts["closest"] == ["sim-model"]


def test_the_catalog_at_the_working_variant_is_read_and_said(home):
    ctx = context(home)
    moved = ("http://127.0.0.1:9/api", listing("m", base="http://127.0.0.1:9/api"))
    ex = gathered(catalog=not_found(BASE + "/models", "GET"), moved_catalog=moved)
    res = catalog.interpret(ctx, plan_of(ctx), ex)
    assert res.summary == '1 model, "m" listed (at http://127.0.0.1:9/api)' and res.facts["read_at"] == moved[0]
