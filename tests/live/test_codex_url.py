"""The URL Codex builds, the URL codexdoctor sends and the ticket's curl are one URL (issue 40 review).

Codex 0.171 builds it as a string (codex-rs/codex-api/src/provider.rs, `Provider::url_for_path`): base_url with
trailing slashes trimmed, `/` + the path, then `?` + query_params joined by `&`. A query already in base_url stays
where it is, so the path lands inside it: `…/v1?key=K/responses?api-version=V`. codexdoctor took the whole query of
that URL as the "configured query" and appended it again: `…/v1?key=K/responses?key=K/responses?api-version=V`."""

from __future__ import annotations

from codexdoctor.checks.live.plan import canary_url, catalog_url
from codexdoctor.commands.options import CheckOptions, make_context
from tests.conftest import write_config
from tests.live.answers import context, plan_of

K = "sk-test-0123456789abcdefABCDEF"
PARAMS = 'query_params = { "api-version" = "2025-04-01" }\n'


def test_a_query_in_base_url_and_query_params_give_codexs_url(home):
    write_config(
        home, 'model = "m"\nmodel_provider = "p"\n[model_providers.p]\nname = "p"\nenv_key = "P_KEY"\n' + PARAMS
    )
    override = f'model_providers.p.base_url="http://127.0.0.1:8787/v1?key={K}"'  # the review's -c
    ctx = make_context(CheckOptions(env={"P_KEY": K}, home=home, cwd=home, system_config=None, overrides=(override,)))
    plan = plan_of(ctx)
    codex = f"http://127.0.0.1:8787/v1?key={K}/responses?api-version=2025-04-01"
    assert ctx.provider.request_url() == codex
    assert canary_url(plan) == codex
    assert catalog_url(plan) == f"http://127.0.0.1:8787/v1?key={K}/models?api-version=2025-04-01"


def test_query_params_alone_and_a_variant_base(home):
    ctx = context(home, extra=PARAMS)
    plan = plan_of(ctx)
    assert canary_url(plan) == ctx.provider.request_url() and canary_url(plan).endswith(
        "/responses?api-version=2025-04-01"
    )
    # a variant of base_url (the live check tries it, `fix` writes it) carries query_params only
    assert canary_url(plan, "http://other/v1") == "http://other/v1/responses?api-version=2025-04-01"


def test_httpx_sends_codexs_url_as_reqwest_does():
    """reqwest (url crate) and httpx both take everything after the first `?` as the query, `/` and `?` kept."""
    import httpx

    url = httpx.URL(f"http://127.0.0.1:8787/v1?key={K}/responses?api-version=V")
    assert url.raw_path == f"/v1?key={K}/responses?api-version=V".encode()
