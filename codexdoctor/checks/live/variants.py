"""api.variants: after a 404 at the configured path, which nearby base_url (with or without /v1, ...) serves the API."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from codexdoctor.checks.base import CheckContext, result
from codexdoctor.checks.live.exchanges import Exchanges
from codexdoctor.checks.live.read import human, path_404, user_config, working_variant
from codexdoctor.model import CheckResult, Msg, Status
from codexdoctor.net.classify import classify

if TYPE_CHECKING:
    from codexdoctor.checks.live.plan import Plan
    from codexdoctor.net.exchange import Exchange

ID = "api.variants"
TITLE = "base_url variants"
TITLE_ZH = "base_url 变体"


def interpret(ctx: CheckContext, plan: Plan, ex: Exchanges) -> CheckResult:
    if not path_404(plan, ex):
        # Only a path that answered can be said to have answered: no answer means the variants were not needed
        # for that reason, and a row must not claim otherwise.
        configured = ex.canary if ex.canary is not None else ex.catalog
        if configured.status is None:
            said = Msg("not tried: the configured URL did not answer", "未尝试：配置的地址没有响应")
            return result(ID, TITLE, Status.SKIP, said, working=None)
        return result(ID, TITLE, Status.SKIP, Msg("the configured path answered", "配置的路径有响应"), working=None)
    working, working_index, evidence = _working(ctx, plan, ex.variants)
    facts = {
        "working": working,
        "tried": [ctx.redactor(b) for b, _ in ex.variants],
        "configured": ctx.redactor(plan.base_url),
        "request_url": ctx.redactor(plan.request_url),
        "chat_works": ex.chat is not None and classify(ex.chat, "chat").kind == "ok",
        "working_index": working_index,
        "base_url_where": ctx.resolution.provider_field_origin("base_url"),
        "user_config": user_config(ctx),
    }
    where = {"base_url_where": ctx.resolution.provider_field_said("base_url")}
    if working:
        said = Msg("{url} serves the API", "{url} 提供该 API", url=working["base_url"])
        return replace(result(ID, TITLE, Status.PASS, said, evidence, **facts), said=where)
    said = Msg("no variant of base_url serves the API", "base_url 的各个变体都不提供该 API")
    return replace(result(ID, TITLE, Status.FAIL, said, evidence, **facts), said=where)


def _working(
    ctx: CheckContext, plan: Plan, variants: tuple[tuple[str, Exchange], ...]
) -> tuple[dict[str, Any] | None, int | None, list[Msg]]:
    """The first variant that serves the API (redacted, with its kind), its index and one evidence line a variant.

    The index is what `fix` rebuilds the URL from, with the raw base_url, never from the redacted copy."""
    working: dict[str, Any] | None = None
    evidence: list[Msg] = []
    index = working_variant(variants, plan.wire)
    for i, (base, ex) in enumerate(variants):
        kind = classify(ex, plan.wire)
        evidence.append(Msg("{line} => {kind}", "{line} => {kind}", line=ex.line(), kind=human(kind.kind, kind.said)))
        if i == index:
            working = {"base_url": ctx.redactor(base), "kind": kind.kind, "status": ex.status}
            if kind.kind == "model_not_found":  # the next problem, seen now: MODEL001 names it in this run
                working["model_not_found"] = {
                    "url": ctx.redactor(ex.url),
                    "status": ex.status,
                    "message": ctx.redactor(kind.message or kind.detail or ""),
                }
    return working, index, evidence


def model_not_found(ctx: CheckContext, plan: Plan, ex: Exchanges) -> dict[str, Any] | None:
    """The model error the variant that works gave (issue 28): the canary's row says it in this run."""
    if not path_404(plan, ex):
        return None
    working, _, _ = _working(ctx, plan, ex.variants)
    found = (working or {}).get("model_not_found")
    return found if isinstance(found, dict) else None
