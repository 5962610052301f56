"""`codexdoctor config`: the resolved provider and where each value came from.

Values are shown the way config.toml spells them (`true`, not `True`); a value that is not set is `null` in
JSON and words in text, in the user's language. Keys and file paths stay as they are in every language.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from codexdoctor.checks.base import CheckContext
from codexdoctor.i18n import localize
from codexdoctor.model import Msg, ProviderSummary
from codexdoctor.report.build import provider_summary
from codexdoctor.report.fixes import toml_value

DEFAULT = "Codex default"
_WORDS_ZH = {
    "key": "键",
    "value": "值",
    "from": "来源",
    "request URL": "请求地址",
    DEFAULT: "Codex 默认值",
    "not set": "未设置",
    "missing": "缺失",
    "(not found)": "（不存在）",
    "Config layers (lowest precedence first):": "配置层（优先级从低到高）：",
    "system": "系统",
    "user": "用户",
    "profile": "profile",
    "project": "项目",
    "override": "-c 覆盖",
    "API key": "密钥",
    "default": "默认值",
}
# Row labels that are words, not config keys (the JSON keeps the machine value).
_ROW_LABELS = {"request URL": "request URL", "key": "API key"}


def _word(text: str, lang: str) -> str:
    return _WORDS_ZH.get(text, text) if lang == "zh" else text


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    return toml_value(value) if isinstance(value, bool) else str(value)


def _said(s: ProviderSummary, name: str) -> dict[str, Msg]:
    """A row's value in words, both languages, under `said` (a row as JSON leaves it out: see `plain`)."""
    return {"said": s.said[name]} if name in s.said else {}


def plain(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row as JSON shows it: the values, without the words that say them."""
    return {k: v for k, v in row.items() if k != "said"}


def rows(ctx: CheckContext) -> list[dict[str, Any]]:
    r = ctx.resolution
    p = r.provider
    s = provider_summary(ctx)
    out: list[dict[str, Any]] = [
        {
            "key": "CODEX_HOME",
            "value": r.show(r.codex_home),
            "source": "$CODEX_HOME" if r.codex_home_from_env else DEFAULT,
        },
        {"key": "profile", "value": r.profile or None, "source": r.profile_origin or DEFAULT},
        {"key": "model_provider", "value": p.id, "source": r.provider_origin},
        {"key": "model", "value": s.model, "source": r.model_origin, **_said(s, "model")},
    ]
    if not p.defined:
        out.append({"key": f"[model_providers.{p.id}]", "value": "missing", "source": "-"})
        return out
    path = "/chat/completions" if s.wire_api == "chat" else "/responses"
    out += [
        {"key": "base_url", "value": s.base_url, "source": r.provider_field_origin("base_url"), **_said(s, "base_url")},
        {"key": "wire_api", "value": s.wire_api, "source": r.provider_field_origin("wire_api")},
        {"key": "env_key", "value": s.env_key, "source": r.provider_field_origin("env_key")},
        {"key": "key", "value": s.key, "source": f"${s.env_key}" if s.env_key else "-", **_said(s, "key")},
        {"key": "request URL", "value": "POST " + s.request_url, "source": f"base_url + {path}"},
    ]
    for key in (
        "query_params",
        "http_headers",
        "env_http_headers",
        "requires_openai_auth",
        "stream_idle_timeout_ms",
        "request_max_retries",
        "stream_max_retries",
    ):
        if key in p.table:
            value = p.table[key]
            if key == "http_headers" and isinstance(value, dict):
                value = {k: "<redacted>" for k in value}
            out.append({"key": key, "value": ctx.redactor(_shown(value)), "source": r.provider_field_origin(key)})
    for key in ("model_context_window", "model_auto_compact_token_limit"):
        if key in r.merged:
            out.append({"key": key, "value": _shown(r.merged[key]), "source": r.origin(key)})
    return out


def row_words(d: Mapping[str, Any], lang: str) -> tuple[str, str, str]:
    """A config row as a person reads it, in `lang`: its label, value and source (`config` and the ticket)."""
    label = _word(_ROW_LABELS[d["key"]], lang) if d["key"] in _ROW_LABELS else str(d["key"])
    if d["value"] is None:
        value = _word("not set", lang)
    else:
        said = d.get("said")
        value = (
            _word(d["value"], lang)
            if d["value"] == "missing"
            else said.text(lang)
            if isinstance(said, Msg)
            else localize(str(d["value"]), lang)
        )
    source = DEFAULT if d["source"] == "default" else str(d["source"])
    return label, value, _word(source, lang) if source in _WORDS_ZH else localize(source, lang)


def render_config(ctx: CheckContext, fmt: str, lang: str = "en", width: int | None = None) -> str:
    data = [{**d, "source": DEFAULT if d["source"] == "default" else d["source"]} for d in rows(ctx)]
    if fmt == "json":
        data = [plain(d) for d in data]
        layers = [{"kind": layer.kind, "path": layer.label, "exists": layer.exists} for layer in ctx.resolution.layers]
        return json.dumps({"values": data, "layers": layers}, indent=2, ensure_ascii=False) + "\n"
    from codexdoctor.report.render.text import display_width, table_lines, wrap

    kinds = [_word(layer.kind, lang) for layer in ctx.resolution.layers]
    pad = max((display_width(k, lang) for k in kinds), default=0) + 2
    layer_lines = "\n".join(
        line
        for k, layer in zip(kinds, ctx.resolution.layers, strict=True)
        for line in wrap(
            f"{layer.label}{'' if layer.exists else ' ' + _word('(not found)', lang)}",
            width,
            f"  {k}{' ' * (pad - display_width(k, lang))}",
            " " * (pad + 4),
            lang,
        )
    )

    table = "\n".join(
        table_lines(
            tuple(_word(h, lang) for h in ("key", "value", "from")),
            tuple(row_words(d, lang) for d in data),
            width,
            cut=False,
            lang=lang,
        )
    )
    return f"{_word('Config layers (lowest precedence first):', lang)}\n{layer_lines}\n\n{table}\n"
