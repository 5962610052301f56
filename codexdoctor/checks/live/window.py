"""ctx.window: the context window the provider serves, against the one Codex assumes and Codex's first request."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from codexdoctor.checks.base import CheckContext, result
from codexdoctor.checks.live.exchanges import Exchanges
from codexdoctor.checks.live.plan import codex_windows, window_source
from codexdoctor.checks.live.read import (
    catalog_entries,
    first_request_count,
    first_request_lines,
    kind_of_canary,
    user_config,
    window_field,
)
from codexdoctor.codex.sizes import CODEX_FIRST_REQUEST_TOKENS, window_settings
from codexdoctor.common import outside_json as outside
from codexdoctor.model import CheckResult, Line, Msg, Status

if TYPE_CHECKING:
    from codexdoctor.checks.live.plan import Plan
    from codexdoctor.codex.models import Windows
    from codexdoctor.net.exchange import Exchange

ID = "ctx.window"
TITLE = "Served context window"
TITLE_ZH = "服务端上下文窗口"
MIN_USABLE_WINDOW = 12000


def _where(url: str, field: str) -> Msg:
    """Where a published window was read: the request and the field of its answer."""
    return Msg("GET {url}, field {field}", "GET {url}，字段 {field}", url=url, field=field)


def served_window(model: str, catalog: Exchange, probes: Sequence[Exchange]) -> tuple[int | None, Msg | None]:
    """The window the server publishes, and where: the catalog entry, llama.cpp /props or LiteLLM /model/info."""
    entries = catalog_entries(catalog.body_json) if catalog.ok else []
    for entry in entries:
        if entry["id"] == model or len(entries) == 1:
            found = window_field(entry)
            if found:
                return found[0], _where(catalog.url, found[1])
    props, info = probes
    if props.ok:
        n_ctx = outside.integer(props.body_json, "default_generation_settings", "n_ctx") or outside.integer(
            props.body_json, "n_ctx"
        )
        if n_ctx is not None and n_ctx > 0:
            return n_ctx, _where(props.url, "n_ctx")
    if info.ok:
        for entry in catalog_entries(info.body_json):
            if outside.text(entry, "model_name") == model or entry["id"] == model:
                found = window_field(entry)
                if found:
                    return found[0], _where(info.url, found[1])
    return None, None


def interpret(ctx: CheckContext, plan: Plan, ex: Exchanges) -> CheckResult:
    served, source = served_window(plan.model, ex.catalog, ex.windows)
    checked = _interpret(ctx, plan, ex, served, source)
    assumed_source = window_source(ctx, _windows(ctx, ex))
    return replace(checked, said={"assumed_source": assumed_source} | ({"source": source} if source else {}))


def _windows(ctx: CheckContext, ex: Exchanges) -> Windows:
    """The window Codex assumes, reading the provider's /models as Codex does when it reads them."""
    from codexdoctor.codex.model_catalog import parse_catalog

    provider_models = parse_catalog(ex.catalog.body_json)[0] if ex.catalog.ok else None
    return codex_windows(ctx, provider_models)


def _interpret(ctx: CheckContext, plan: Plan, ex: Exchanges, served: int | None, source: Msg | None) -> CheckResult:
    facts, evidence = _facts(ctx, plan, ex, served, source)
    first_tokens, assumed = facts["first_request"], facts["assumed"]
    if served is None:
        # Nobody publishes the window: Codex's own first request, sent as the canary, answers "will it fit".
        kind = kind_of_canary(plan, ex)
        if plan.first is not None and kind is not None and kind.kind == "ok":
            facts["first_fit"] = True
            summary = Msg(
                "not published; Codex's first request ({n:,} tokens) fit, headroom unknown",
                "未公布；Codex 的第一个请求（{n:,} 个 token）放得下，余量未知",
                n=first_tokens,
            )
            return result(ID, TITLE, Status.PASS, summary, evidence, **facts)
        if plan.first is not None and kind is not None and kind.kind == "context_exceeded":
            facts["first_fit"] = False
            summary = Msg(
                "not published; Codex's first request ({n:,} tokens) did not fit",
                "未公布；Codex 的第一个请求（{n:,} 个 token）放不下",
                n=first_tokens,
            )
            return result(ID, TITLE, Status.SKIP, summary, evidence, **facts)
        if not facts["answered"]:
            # Refused, timed out, unresolved: nothing answered, so nothing says the window is not published.
            said = Msg("not checked: the provider did not answer", "未检查：提供方没有响应")
            return result(ID, TITLE, Status.SKIP, said, evidence, **facts)
        said = Msg("the provider does not publish its window", "提供方没有公布上下文窗口")
        return result(ID, TITLE, Status.SKIP, said, evidence, **facts)
    evidence.append(
        Msg(
            "served window {n:,} tokens from {source}",
            "服务端窗口 {n:,} 个 token，来自 {source}",
            n=served,
            source=source or facts["source"],
        )
    )
    if served < facts["min_usable"] or served < facts["compact_at"]:
        status = Status.FAIL if served < facts["min_usable"] else Status.WARN
        said = Msg(
            "serves {n:,} tokens; Codex assumes {a:,}",
            "服务端窗口 {n:,} 个 token；Codex 假定 {a:,}",
            n=served,
            a=assumed,
        )
        return result(ID, TITLE, status, said, evidence, **facts)
    said = Msg(
        "serves {n:,} tokens (Codex assumes {a:,})",
        "服务端窗口 {n:,} 个 token（Codex 假定 {a:,}）",
        n=served,
        a=assumed,
    )
    return result(ID, TITLE, Status.PASS, said, evidence, **facts)


def _first_counted(plan: Plan, ex: Exchanges) -> int | None:
    """The provider's own count of Codex's first request wins over the local estimate: its tokenizer and chat
    template are the ones the window is measured in (a llama-server template that drops the tool schemas counted
    4,459 tokens where o200k counts 8,491). The one count of the run (read.first_request_count)."""
    counted, by = first_request_count(plan, ex.canary)
    return counted if by == "provider" else None


def _facts(
    ctx: CheckContext, plan: Plan, ex: Exchanges, served: int | None, source: Msg | None
) -> tuple[dict[str, Any], list[Line]]:
    w = _windows(ctx, ex)
    assumed, assumed_source = w.window or 0, window_source(ctx, w)
    first = plan.first
    reported = _first_counted(plan, ex)
    first_tokens = reported or (first.tokens if first else CODEX_FIRST_REQUEST_TOKENS)
    answered = any(e.status is not None for e in (ex.catalog, ex.open_catalog, *ex.windows))
    facts: dict[str, Any] = {
        "served": served,
        "source": str(source) if source is not None else None,
        "assumed": assumed,
        "assumed_source": str(assumed_source),
        "effective": w.effective or 0,
        "compact_at": w.compact_at or 0,
        "suggest_window": served,
        "suggest_compact": window_settings(served, first_tokens)[1] if served else None,
        "first_request": first_tokens,
        "first_counted": first is not None or reported is not None,
        "first_counted_by": "provider" if reported else "estimate",
        # The first turn fails only when Codex's first request itself does not fit (observed: a 9,000-token window
        # serves `codex exec` with an 8,517-token first request); what is left after it is what a session grows into.
        "min_usable": first_tokens if (first or reported) else MIN_USABLE_WINDOW,
        "docs": [{"path": d.path, "tokens": d.tokens} for d in first.docs] if first else [],
        "user_config": user_config(ctx),
        "model": plan.model,
        # Whether /models, /props or /model/info answered at all (any HTTP status): a provider that was never
        # reached has not said it publishes no window (issue 40 review: "not published" beside three timeouts).
        "answered": answered,
        "unpublished": served is None and answered,
        "first_fit": None,
        "room": served - first_tokens if served else None,
    }
    # A window (or compaction limit) set below Codex's first request: Codex still sends that request (checked
    # with Codex 0.171.0: model_context_window = 4000 answered), then compacts before every later turn.
    limit = w.configured_compact
    compact_at = facts["compact_at"]
    facts["configured_below_first"] = bool(
        first is not None
        and compact_at < first_tokens
        and (str(assumed_source).startswith("model_context_window") or compact_at == limit)
    )
    facts["configured_compact_at"] = compact_at
    facts |= _tool_round(ctx, w, served, first_tokens)
    evidence: list[Line] = [x.line() for x in ex.windows]
    evidence.append(
        Msg(
            "Codex assumes {n:,} tokens ({source}); its session logs show {effective:,} (95%), and it compacts at "
            "{compact:,}",
            "Codex 假定 {n:,} 个 token（{source}）；它的会话日志显示 {effective:,}（95%），并在 {compact:,} 处压缩",
            n=assumed,
            source=assumed_source,
            effective=w.effective or 0,
            compact=w.compact_at or 0,
        )
    )
    if first is not None:
        evidence += first_request_lines(first, reported)  # the provider's count, when it gave one, is the one used here
    return facts, evidence


def _tool_round(ctx: CheckContext, w: Windows, served: int | None, first_tokens: int) -> dict[str, Any]:
    """What Codex's first tool round adds to its first request (issue 38 item 4): at its worst, one call and the
    largest output Codex keeps for this model (its truncation rule, codex/truncation.py; a numeric output such as
    `seq`, a log or a test run); typically, an output of the same size in code or prose. A window with room for the
    typical round only breaks at the first large output; with room for neither, at the first command."""
    from codexdoctor.checks.live.plan import tool_cut
    from codexdoctor.codex.truncation import typical_round_tokens, worst_round_tokens
    from codexdoctor.common.tokens import encoding_for_model

    cut = tool_cut(ctx, w.meta)
    worst = worst_round_tokens(cut, encoding_for_model(str(ctx.resolution.model or "")))
    typical = typical_round_tokens(cut)
    limit = ctx.resolution.merged.get("tool_output_token_limit")
    room = served - first_tokens if served else None
    return {
        "tool_round": worst,
        "tool_round_fits": None if room is None else room >= worst,
        "tool_round_typical": typical,
        "tool_round_typical_fits": None if room is None else room >= typical,
        "tool_cut_bytes": cut.budget_bytes,
        "tool_cut_mode": cut.mode,
        "tool_cut_rule": cut.rule(),
        "tool_output_limit": limit if isinstance(limit, int) and not isinstance(limit, bool) else None,
    }
