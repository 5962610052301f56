"""`codexdoctor config`: the resolved provider and where each value came from."""

from __future__ import annotations

import json
from typing import Any

from codexdoctor.checks.base import CheckContext
from codexdoctor.report import provider_summary


def rows(ctx: CheckContext) -> list[dict[str, Any]]:
    r = ctx.resolution
    p = r.provider
    s = provider_summary(ctx)
    out = [
        {"key": "CODEX_HOME", "value": r.show(r.codex_home), "source": "$CODEX_HOME" if r.codex_home_from_env else "default"},
        {"key": "profile", "value": r.profile or "(none)", "source": r.profile_origin or "default"},
        {"key": "model_provider", "value": p.id, "source": r.provider_origin},
        {"key": "model", "value": s.model, "source": r.model_origin},
    ]
    if not p.defined:
        out.append({"key": f"[model_providers.{p.id}]", "value": "(missing)", "source": "-"})
        return out
    out += [
        {"key": "base_url", "value": s.base_url, "source": r.provider_field_origin("base_url")},
        {"key": "wire_api", "value": s.wire_api, "source": r.provider_field_origin("wire_api")},
        {"key": "env_key", "value": s.env_key or "(none)", "source": r.provider_field_origin("env_key")},
        {"key": "key", "value": s.key, "source": f"${s.env_key}" if s.env_key else "-"},
        {"key": "request URL", "value": "POST " + s.request_url, "source": "base_url + wire API path"},
    ]
    for key in ("query_params", "http_headers", "env_http_headers", "requires_openai_auth",
                "stream_idle_timeout_ms", "request_max_retries", "stream_max_retries"):
        if key in p.table:
            value = p.table[key]
            if key == "http_headers" and isinstance(value, dict):
                value = {k: "<redacted>" for k in value}
            out.append({"key": key, "value": ctx.redactor(str(value)), "source": r.provider_field_origin(key)})
    for key in ("model_context_window", "model_auto_compact_token_limit"):
        if key in r.merged:
            out.append({"key": key, "value": str(r.merged[key]), "source": r.origin(key)})
    return out


def render_config(ctx: CheckContext, fmt: str) -> str:
    data = rows(ctx)
    if fmt == "json":
        layers = [{"kind": l.kind, "path": l.label, "exists": l.exists} for l in ctx.resolution.layers]
        return json.dumps({"values": data, "layers": layers}, indent=2, ensure_ascii=False) + "\n"
    from codexdoctor.render.text import table_lines

    layers = "\n".join(f"  {l.kind:8} {l.label}{'' if l.exists else ' (not found)'}" for l in ctx.resolution.layers)
    table = "\n".join(table_lines(("key", "value", "from"), tuple((d["key"], d["value"], d["source"]) for d in data)))
    return f"Config layers (lowest precedence first):\n{layers}\n\n{table}\n"
