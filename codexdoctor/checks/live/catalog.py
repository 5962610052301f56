"""api.catalog: what GET /models lists, and whether the configured model is among it (exactly, or nearly)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from codexdoctor.checks.base import CheckContext, result
from codexdoctor.checks.live.exchanges import Exchanges
from codexdoctor.checks.live.read import (
    catalog_entries,
    catalog_shapes,
    human,
    kind_of_canary,
    match_model,
    model_where,
    user_config,
)
from codexdoctor.common.words import plural
from codexdoctor.model import CheckResult, Line, Msg, Status
from codexdoctor.net.classify import classify
from codexdoctor.net.said import shape_said

if TYPE_CHECKING:
    from codexdoctor.checks.live.plan import Plan
    from codexdoctor.net.exchange import Exchange

ID = "api.catalog"
TITLE = "Model catalog"
TITLE_ZH = "模型列表"


def _how_listed(match: str, model: str) -> Msg:
    """How the configured model is listed: `"<model>" listed`, `包含 "<model>"` (Chinese puts the words first)."""
    return {
        "exact": Msg('"{model}" listed', '包含 "{model}"', model=model),
        "whitespace": Msg(
            '"{model}" listed without its stray whitespace', '包含去掉多余空白后的 "{model}"', model=model
        ),
        "case": Msg('"{model}" listed with different capitals', '包含大小写不同的 "{model}"', model=model),
        "dated": Msg(
            '"{model}" listed without its date or version suffix', '包含去掉日期或版本后缀的 "{model}"', model=model
        ),
        "missing": Msg('"{model}" not listed', '没有 "{model}"', model=model),
    }[match]


# How the configured model matched the catalog (read.match_model's `match`), in Chinese.
_MATCH_ZH = {
    "exact": "完全一致",
    "whitespace": "去掉多余空白后一致",
    "case": "大小写不同",
    "dated": "去掉日期或版本后缀后一致",
    "missing": "不在列表中",
}


def _match_line(n: int, model: str, match: str, closest: list[str]) -> Msg:
    """`2 models; configured "m": missing; closest: a, b`: the catalog's size and how the model matched."""
    line = Msg(
        '{models}; configured "{model}": {match}',
        '{n:,} 个模型；配置的 "{model}"：{match}',
        models=plural(n, "model"),
        n=n,
        model=model,
        match=Msg.pair(match, _MATCH_ZH.get(match, match)),
    )
    if not closest:
        return line
    return Msg("{line}; closest: {closest}", "{line}；最接近的：{closest}", line=line, closest=Msg.join(list(closest)))


def listed(ctx: CheckContext, ex: Exchanges) -> tuple[Exchange, str | None]:
    """The catalog the results read, and where it was read when not at the configured base_url: the one at the
    variant that works, when the configured path had none (issue 28)."""
    if ex.moved_catalog is not None:
        base, moved = ex.moved_catalog
        return moved, ctx.redactor(base)
    return ex.catalog, None


def interpret(ctx: CheckContext, plan: Plan, ex: Exchanges) -> CheckResult:
    catalog, read_at = listed(ctx, ex)
    kind = classify(catalog, "models")
    canary = kind_of_canary(plan, ex)
    entries = catalog_entries(catalog.body_json) if catalog.ok else []
    ids = [e["id"] for e in entries]
    open_entries = catalog_entries(ex.open_catalog.body_json) if ex.open_catalog.ok else []
    model = plan.model
    facts: dict[str, Any] = {
        "status": catalog.status,
        "kind": kind.kind,
        "message": kind.message,
        "count": len(ids),
        "ids": ids[:50],
        "model": model,
        "open_without_key": bool(open_entries),
        "match": None,
        "closest": [],
        "canary_ran": canary is not None,
        "canary_kind": canary.kind if canary else None,
        "url": catalog.url,
        "user_config": user_config(ctx),
        "model_origin": ctx.resolution.model_origin,
        "model_where": model_where(ctx),
    }
    shapes = catalog_shapes(catalog.body_json) if catalog.ok else []
    facts["shapes"] = [shape.sentence() for shape in shapes]
    evidence: list[Line] = [
        catalog.line(),
        Msg("without key: {line}", "不带密钥：{line}", line=ex.open_catalog.line()),
        *(shape_said(shape) for shape in shapes),
    ]
    if not entries:
        summary = Msg("not usable: {why}", "无法使用：{why}", why=human(kind.kind, kind.said))  # not its title again
        status = Status.SKIP if kind.kind in ("path_not_found", "not_json", "ok", "html") else Status.WARN
        return result(ID, TITLE, status, summary, evidence, **facts)
    facts.update(match_model(model, ids))
    evidence.append(_match_line(len(ids), model, facts["match"], facts["closest"]))
    status = Status.PASS if facts["match"] == "exact" else Status.WARN
    summary = Msg(
        "{models}, {how}",
        "{n:,} 个模型，{how}",
        models=plural(len(ids), "model"),
        n=len(ids),
        how=_how_listed(facts["match"], model),
    )
    if read_at:
        summary = Msg("{what} (at {where})", "{what}（位于 {where}）", what=summary, where=read_at)
        facts["read_at"] = read_at
    return result(ID, TITLE, status, summary, evidence, **facts)


def closest(ctx: CheckContext, plan: Plan, ex: Exchanges) -> tuple[list[str], int]:
    """The catalog's IDs nearest the configured model, and how many it lists: the canary's remedy names them."""
    catalog, _ = listed(ctx, ex)
    ids = [e["id"] for e in catalog_entries(catalog.body_json)] if catalog.ok else []
    return (list(match_model(plan.model, ids)["closest"]) if ids else []), len(ids)
