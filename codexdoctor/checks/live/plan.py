"""What the live checks send, computed once from the resolved config and nothing else: no request, no clock."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from codexdoctor.checks.base import CheckContext
from codexdoctor.model import Msg

if TYPE_CHECKING:  # built only when a canary is sent: reading a plan's constants stays light
    from codexdoctor.codex import request as codexrequest
    from codexdoctor.codex.models import ModelMeta, Windows
    from codexdoctor.codex.truncation import Cut

CANARY_INSTRUCTIONS = "You are a connectivity check. Answer with one short word."
CANARY_PROMPT = "Reply with: ok"
CANARY_MAX_OUTPUT = 16


@dataclass(frozen=True)
class Plan:
    """Everything the probes need, computed once from the resolved config."""

    base_url: str
    request_url: str
    wire: str  # responses | chat
    model: str
    headers: Mapping[str, str]
    query: str  # query_params as Codex appends them (a query inside base_url is part of base_url)
    idle_s: float
    first: codexrequest.FirstRequest | None = None  # Codex's first request for this user (responses wire only)
    # How often Codex re-sends its request after a 429: stream_max_retries (default 5), each after the answer's
    # Retry-After, then `exceeded retry limit, last status: 429 Too Many Requests` (checked with Codex 0.171.0:
    # request_max_retries = 0 changes nothing, stream_max_retries = 0 gives one request).
    stream_retries: int = 5
    # How Codex cuts a command's output for this model (its truncation policy, tool_output_token_limit): the outputs
    # of the request after a tool call are cut this way (issue 38 item 4). None when turn two is not built.
    tool_cut: Cut | None = None


def codex_windows(ctx: CheckContext, provider_models: Sequence[Mapping[str, Any]] | None = None) -> Windows:
    """The window Codex 0.171 assumes for this config, by its own rules (codex/models.py: the catalog it carries,
    model_catalog_json, a provider's /models when Codex reads it, the fallback, model_context_window capped at the
    model's maximum): the one number check, probe and sessions all quote (issue 38 item 1, issue 40)."""
    from codexdoctor.codex.model_catalog import catalog_path, read_catalog_file, reads_provider_models
    from codexdoctor.codex.models import assumed_window as codex_assumed_window

    r = ctx.resolution
    model_catalog = None
    path = r.merged.get("model_catalog_json")
    if isinstance(path, str) and path:
        model_catalog, _refused = read_catalog_file(catalog_path(path, r.codex_home))
    return codex_assumed_window(
        str(r.model or ""),
        r.merged.get("model_context_window"),
        r.merged.get("model_auto_compact_token_limit"),
        model_catalog=model_catalog,
        provider_models=provider_models if reads_provider_models(ctx.provider.table) else None,
    )


def window_source(ctx: CheckContext, w: Windows) -> Msg:
    """Where the assumed window comes from, as the evidence says it, in words (the `assumed_source` fact is its
    English)."""
    if w.source in ("model_context_window", "model_context_window_capped"):
        origin = str(ctx.resolution.origin("model_context_window"))
        said = Msg("model_context_window ({o})", "model_context_window（{o}）", o=origin)
        if w.source == "model_context_window":
            return said
        return Msg(
            "{said}, lowered to the model's maximum {n:,}",
            "{said}，已降到该模型的上限 {n:,}",
            said=said,
            n=w.window or 0,
        )
    if w.source == "fallback":
        return Msg("Codex's fallback metadata for unknown models", "Codex 对未知模型的默认元数据")
    where = {"model_catalog_json": " (model_catalog_json)", "provider_models": " (the provider's /models)"}
    return Msg(
        "Codex's metadata for {slug}{where}",
        "Codex 对 {slug}{where} 的模型元数据",
        slug=str(w.meta.slug),
        where=where.get(w.source, ""),
    )


def tool_cut(ctx: CheckContext, meta: ModelMeta) -> Cut:
    """How Codex 0.171 cuts one command's output for this model: its truncation policy, changed by
    tool_output_token_limit (codex/models.py tool_output_budget_bytes; docs/codex-behaviour.md)."""
    from codexdoctor.codex.models import tool_output_budget_bytes
    from codexdoctor.codex.truncation import Cut

    budget, mode = tool_output_budget_bytes(meta, ctx.resolution.merged.get("tool_output_token_limit"))
    return Cut(budget, mode)


def assumed_window(ctx: CheckContext) -> tuple[int, Msg]:
    """The full window Codex assumes and where it comes from (the probe's plan reads this)."""
    w = codex_windows(ctx)
    return w.window or 0, window_source(ctx, w)


def _headers(ctx: CheckContext, key: str | None) -> dict[str, str]:
    p = ctx.provider
    headers = {"Content-Type": "application/json"}
    # Codex drops a header value it cannot encode (a key with a newline is not sent at all).
    if key and not any(ch in key for ch in "\r\n") and key.isascii():
        headers["Authorization"] = f"Bearer {key}"
    static = p.get("http_headers")
    if isinstance(static, Mapping):
        headers.update({str(k): str(v) for k, v in static.items()})
    from_env = p.get("env_http_headers")
    if isinstance(from_env, Mapping):
        for name, var in from_env.items():
            value = ctx.env.get(str(var))
            if value:
                headers[str(name)] = value
    return headers


def _first_request(ctx: CheckContext, model: str) -> codexrequest.FirstRequest:
    """Codex's own first request for this user, counted with the model's tokenizer (imported only here)."""
    from codexdoctor.codex import request as codexrequest
    from codexdoctor.common import tokens

    def load_counter() -> tuple[Callable[[str], int], str]:
        tok = tokens.for_model(model)
        return tok.count, tok.name

    return codexrequest.build(
        ctx.resolution,
        model,
        CANARY_PROMPT,
        tokenizer=tokens.encoding_for_model(model),
        shell=ctx.shell.name,
        max_output_tokens=CANARY_MAX_OUTPUT,
        load_counter=load_counter,
    )


def make_plan(ctx: CheckContext, first: bool = True) -> Plan:
    """`first=False` when no canary is sent (diagnose-error, the probe's summary): Codex's request is not built."""
    p = ctx.provider
    request_url = p.request_url() or ""
    base = (p.base_url if isinstance(p.base_url, str) else "https://api.openai.com/v1").lstrip().rstrip("/")
    query = p.query_string()  # query_params only: a query in base_url is part of `base`, as in Codex's URL
    idle_ms = p.get("stream_idle_timeout_ms")
    idle_s = idle_ms / 1000 if isinstance(idle_ms, (int, float)) and idle_ms > 0 else 300.0
    wire = "chat" if p.wire_api == "chat" else "responses"
    model = str(ctx.resolution.model or "gpt-5")
    first_request = _first_request(ctx, model) if wire == "responses" and first else None
    cut = tool_cut(ctx, codex_windows(ctx).meta) if first_request is not None else None
    retries = p.get("stream_max_retries")
    stream_retries = retries if isinstance(retries, int) and not isinstance(retries, bool) and retries >= 0 else 5
    return Plan(
        base,
        request_url,
        wire,
        model,
        _headers(ctx, ctx.key_value()),
        query,
        idle_s,
        first_request,
        min(stream_retries, 100),
        cut,
    )


def canary_body(wire: str, model: str) -> dict[str, Any]:
    if wire == "chat":
        return {
            "model": model,
            "messages": [
                {"role": "system", "content": CANARY_INSTRUCTIONS},
                {"role": "user", "content": CANARY_PROMPT},
            ],
            "stream": True,
            "max_tokens": CANARY_MAX_OUTPUT,
        }
    return {
        "model": model,
        "instructions": CANARY_INSTRUCTIONS,
        "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": CANARY_PROMPT}]}],
        "stream": True,
        "store": False,
        "max_output_tokens": CANARY_MAX_OUTPUT,
    }


def with_query(url: str, query: str) -> str:
    return f"{url}?{query}" if query else url


def canary_url(plan: Plan, base: str | None = None, wire: str | None = None) -> str:
    """Where a canary goes: {base}/responses or {base}/chat/completions, with the configured query."""
    root = (base or plan.base_url).rstrip("/")
    return with_query(root + ("/chat/completions" if (wire or plan.wire) == "chat" else "/responses"), plan.query)


def catalog_url(plan: Plan, base: str | None = None) -> str:
    """GET {base}/models, with the configured query (the configured base_url keeps its own trailing form)."""
    root = base.rstrip("/") if base is not None else plan.base_url
    return with_query(root + "/models", plan.query)


def window_probe_urls(plan: Plan) -> list[str]:
    """Where servers publish their window: llama.cpp /props, LiteLLM /model/info (vLLM uses /models)."""
    parts = urlsplit(plan.base_url)
    origin = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    return [origin + "/props", origin + "/model/info"]


def base_url_variants(base: str) -> list[str]:
    """Same origin, /v1 removed or added, last segment dropped: how a wrong prefix is usually wrong."""
    parts = urlsplit(base)
    path = parts.path.rstrip("/")
    candidates = []
    if path.endswith("/v1"):
        candidates.append(path[:-3])
    else:
        candidates.append(path + "/v1")
    if "/" in path.strip("/"):
        parent = path.rsplit("/", 1)[0]
        candidates += [parent, parent + "/v1"]
    candidates += ["/v1", "/api", "/api/v1"]
    if parts.query or parts.fragment:  # a landing-page ?utm_… link: the same path without it comes first
        candidates.insert(0, path)
    seen, out = (set() if parts.query or parts.fragment else {path}), []
    for cand in candidates:
        cand = cand.rstrip("/")
        if cand not in seen:
            seen.add(cand)
            out.append(urlunsplit((parts.scheme, parts.netloc, cand, "", "")))
    return out[:5]


def variants_of(raw_base_url: str) -> list[str]:
    """The variants tried for a configured base_url, computed one way for the live check and for `fix`.

    Trailing whitespace reaches Codex's path as %20: the same URL without it is the first variant to try."""
    base = raw_base_url.strip().rstrip("/")
    variants = base_url_variants(base)
    if raw_base_url.rstrip() != raw_base_url:
        parts = urlsplit(base)
        bare = urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))
        variants = [bare] + [v for v in variants if v != bare][:4]
    return variants
