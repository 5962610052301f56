"""Readers the live results share: what a catalog lists, which variant works, what the canary's answer means.

All pure: an exchange (or a body) in, a value out; the gatherer uses some of them to decide what to send next."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from codexdoctor.checks.base import CheckContext
from codexdoctor.checks.live.exchanges import Exchanges
from codexdoctor.codex.request_words import DEVELOPER_AS_SYSTEM, DEVELOPER_ITEM, part_said
from codexdoctor.common import outside_json as outside
from codexdoctor.common.outside_json import ARRAY, Fields, Shape
from codexdoctor.model import Msg
from codexdoctor.net.classify import Classified, classify

if TYPE_CHECKING:
    from codexdoctor.checks.live.plan import Plan
    from codexdoctor.codex.request import FirstRequest
    from codexdoctor.net.exchange import Exchange

# Where a catalog keeps its entries: OpenAI's `data`, Ollama's `models`; a value of another type there is a shape.
CATALOG_FIELDS = Fields(optional={"data": ARRAY, "models": ARRAY})
WINDOW_FIELDS = (
    ("max_model_len",),
    ("context_length",),
    ("context_window",),
    ("max_context_length",),
    ("meta", "n_ctx"),
    ("meta", "n_ctx_train"),
    ("top_provider", "context_length"),
    ("model_info", "max_input_tokens"),
)
_VERSION_SUFFIX = re.compile(r"(?:[-_@:](?:\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|\d{2}-\d{2}|v\d+(?:\.\d+)*|latest|preview))+$")
# Kinds that show a path is not there: the configured one (phase two tries the variants) or a variant.
NO_ROUTE = ("path_not_found", "html")


def catalog_entries(body: Any) -> list[dict[str, Any]]:
    """Model entries from the OpenAI shape and the common variants (Ollama tags, bare lists, `models`)."""
    found = outside.items(body) or outside.items(body, "data") or outside.items(body, "models") or ()
    out = []
    for item in found:
        if isinstance(item, str):
            out.append({"id": item})
        elif isinstance(item, Mapping):
            # the first of these that is a string (LiteLLM /model/info names it `model_name`)
            mid = next((v for k in ("id", "name", "model", "model_name") if (v := outside.text(item, k))), None)
            if mid is not None:
                out.append({**item, "id": mid})
    return out


def catalog_shapes(body: Any) -> list[Shape]:
    """What a catalog answer has of the wrong type where entries belong (shape.sentence() in English for the facts,
    net.said.shape_said in both languages for the evidence)."""
    return outside.shape_problems(body, CATALOG_FIELDS) if isinstance(body, Mapping) else []


def window_field(entry: Mapping[str, Any]) -> tuple[int, str] | None:
    """The served window and the field it came from (`meta.n_ctx`), so the evidence names the one actually read."""
    for path in WINDOW_FIELDS:
        found = outside.integer(entry, *path)
        if found is not None and found > 0:
            return found, ".".join(path)
    return None


def window_from_entry(entry: Mapping[str, Any]) -> int | None:
    found = window_field(entry)
    return found[0] if found else None


def match_model(model: str, ids: list[str]) -> dict[str, Any]:
    if model in ids:
        return {"match": "exact", "closest": []}
    stripped = model.strip()
    if stripped in ids:
        return {"match": "whitespace", "closest": [stripped]}
    lowered = {i.lower(): i for i in ids}
    if stripped.lower() in lowered:
        return {"match": "case", "closest": [lowered[stripped.lower()]]}
    # A dated or versioned ID copied from a changelog or a docs page (gpt-5.1-codex-2025-11-13) where the catalog has
    # exactly one ID that is the same without that suffix (case and spaces normalised): a certain edit (issue 28).
    undated = _VERSION_SUFFIX.sub("", " ".join(stripped.split()).lower())
    same = [i for i in ids if i.lower() == undated] if undated != stripped.lower() else []
    if len(same) == 1:
        return {"match": "dated", "closest": same}
    close = difflib.get_close_matches(stripped, ids, n=3, cutoff=0.5)
    close += [
        i
        for i in ids
        if (stripped.lower() in i.lower() or i.lower().split("/")[-1] == stripped.lower()) and i not in close
    ]
    return {"match": "missing", "closest": close[:3]}


def rejected_field(ex: Exchange, message: str) -> str | None:
    """Which part of Codex's request a provider refused, from its error body: `param`, or a field it names."""
    from codexdoctor.codex import request as codexrequest  # only after a refusal: reading answers stays light

    err = outside.obj(ex.body_json, "error")
    param = outside.text(err if err is not None else ex.body_json, "param")
    text = f"{message} {ex.body_excerpt}".lower()
    if param is not None and param.split(".")[0].split("[")[0] in codexrequest.CODEX_FIELDS:
        return param
    if "developer" in text or "roles must alternate" in text or "system message" in text:
        return DEVELOPER_ITEM
    if "system" in text and "messages" in text:
        # A Responses-to-Chat gateway turns Codex's developer items into system messages the backend refuses.
        return DEVELOPER_AS_SYSTEM
    for tool_type in ("namespace", "web_search"):
        if tool_type in text:
            return f"a `{tool_type}` tool"
    for name in codexrequest.CODEX_FIELDS:
        # whole words only: "store" is not in "restore", "include" not in "included"
        if name not in ("input", "stream", "tools") and re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", text):
            return name
    return "tools" if re.search(r"\btools?\b", text) else None


def no_first_token(ex: Exchange) -> bool:
    """A request codexdoctor stopped waiting for before its first token: no headers yet, or headers and then nothing
    but keep-alive comments (issue 40 review: both are an alive provider cut by --first-token-timeout)."""
    return ex.failure in ("timeout", "deadline") and (ex.stream is None or ex.stream.first_token_ms is None)


def canary_kind(canary: Exchange, wire: str) -> Classified:
    """What the canary's answer means; a certificate Python accepted but Codex (rustls) refuses is a TLS failure
    (net.reach says why)."""
    if canary.server_cert_ca:
        return Classified(
            "tls", Msg("Codex refuses the server's certificate (CA:TRUE)", "Codex 拒绝服务端的证书（CA:TRUE）")
        )
    return classify(canary, wire)


def kind_of_canary(plan: Plan, ex: Exchanges) -> Classified | None:
    """The canary's kind as every result reads it, or None when no canary was sent (--no-canary)."""
    return canary_kind(ex.canary, plan.wire) if ex.canary is not None else None


def no_route(canary: Classified | None, catalog: Exchange) -> bool:
    """Nothing answers at the configured path: the canary says so, or the catalog when no canary was sent."""
    if canary is not None:
        return canary.kind in NO_ROUTE
    return classify(catalog, "models").kind in NO_ROUTE


def path_404(plan: Plan, ex: Exchanges) -> bool:
    """`no_route` of a gathered run: whether phase two (the variants, /chat/completions) was called for."""
    return no_route(kind_of_canary(plan, ex), ex.catalog)


def working_variant(variants: tuple[tuple[str, Exchange], ...] | list[tuple[str, Exchange]], wire: str) -> int | None:
    """The first variant whose route exists: it answers anything but 404/HTML (even 401 or a model error proves
    the path)."""
    for index, (_, ex) in enumerate(variants):
        if ex.status is not None and classify(ex, wire).kind not in (*NO_ROUTE, "not_json", "redirect"):
            return index
    return None


def first_request_count(plan: Plan, canary: Exchange | None) -> tuple[int | None, str]:
    """Codex's first request in one count per run, and who counted it: the provider's own count when it answered the
    canary (its tokenizer and template are the ones its window is measured in), else ours. Every row, note and
    finding of a run quotes this one (issue 40: the row said 8,488 and the note 8,489)."""
    if canary is not None and canary_kind(canary, plan.wire).kind == "ok":
        reported = reported_input(canary)
        if reported is not None and reported > 0:
            return reported, "provider"
    return (plan.first.tokens if plan.first is not None else None), "estimate"


def reported_input(ex: Exchange) -> int | None:
    """The provider's own count of the request's input tokens (its usage), when it gave one that is a number."""
    return outside.integer(ex.stream.usage, "input_tokens") if ex.stream else None


def human(kind: str | None, said: Msg | None) -> Msg:
    """A check row in words: what net/ said happened; the internal kind (`path_not_found`) stays in the facts. A kind
    net/ gave no words for is named in words of its own (never as `path_not_found`)."""
    if said is not None and str(said):
        return said
    if not kind:
        return Msg("failed", "失败")
    from codexdoctor.i18n import TABLE_WORDS

    words = kind.replace("_", " ")
    return Msg.pair(words, TABLE_WORDS[kind][1] if kind in TABLE_WORDS else words)


def user_config(ctx: CheckContext) -> str:
    layer = ctx.resolution.user_layer
    return layer.label if layer else "~/.codex/config.toml"


def model_where(ctx: CheckContext) -> str:
    """Where a remedy tells the user to set `model`: where it is set now, or their config file when it is
    Codex's default (the origin "default" is not a place to write to)."""
    origin = ctx.resolution.model_origin
    return user_config(ctx) if origin == "default" else origin


def first_request_lines(first: FirstRequest, provider_count: int | None = None) -> list[Msg]:
    """Codex's first request's evidence lines: its size and parts; `provider_count`, the provider's own count of it, is the one the run quotes
    (issue 40: the evidence said 8,487 beside a row that said 8,485), ours is named as the estimate beside it."""
    parts = Msg.join([Msg("{name} {n:,}", "{name} {n:,}", name=part_said(name), n=n) for name, n in first.parts])
    size = (
        Msg(
            "{n:,} tokens (the provider's count; {tokenizer} estimates {est:,})",
            "{n:,} 个 token（提供方的计数；{tokenizer} 估计为 {est:,}）",
            n=provider_count,
            tokenizer=first.tokenizer,
            est=first.tokens,
        )
        if provider_count is not None
        else Msg(
            "{n:,} tokens ({tokenizer})", "{n:,} 个 token（{tokenizer}）", n=first.tokens, tokenizer=first.tokenizer
        )
    )
    lines = [
        Msg(
            "Codex {version} first request: {size}: {parts}",
            "Codex {version} 的第一个请求：{size}：{parts}",
            version=first.codex_version,
            size=size,
            parts=parts,
        )
    ]
    cut = Msg(" (cut at project_doc_max_bytes)", "（在 project_doc_max_bytes 处截断）")
    lines += [
        Msg(
            "{path}: {bytes:,} bytes, {tokens:,} tokens{cut}",
            "{path}：{bytes:,} 字节，{tokens:,} 个 token{cut}",
            path=d.path,
            bytes=d.bytes,
            tokens=d.tokens,
            cut=cut if d.truncated else Msg.verbatim(""),
        )
        for d in first.docs
    ]
    return lines
