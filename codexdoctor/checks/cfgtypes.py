"""The types Codex's config gives the keys codexdoctor reads, and Codex's own error for a value of another type
(serde's words: ``invalid type: string "4096", expected i64``), so cfg.provider can say what Codex will say."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.codex.config import TOP_LEVEL_ONLY
from codexdoctor.common.untrusted import clip

__all__ = ["PROVIDER_TYPES", "TOP_LEVEL_ONLY", "TOP_LEVEL_TYPES", "wrong_type"]

# The types Codex's config structs give these keys (serde's names). A value of another type makes Codex refuse the
# whole config: ``Error loading config.toml: invalid type: string "4096", expected i64`` (each kind checked with Codex
# 0.171.0: scripts/crosscheck_config_semantics.py, the "string:", "float:" and "number:" cases).
PROVIDER_TYPES = {
    "base_url": "str",
    "env_key": "str",
    "wire_api": "str",
    "name": "str",
    "experimental_bearer_token": "str",
    "query_params": "table",
    "http_headers": "table",
    "env_http_headers": "table",
    "request_max_retries": "u64",
    "stream_max_retries": "u64",
    "stream_idle_timeout_ms": "u64",
    "websocket_connect_timeout_ms": "u64",
    "requires_openai_auth": "bool",
    "supports_websockets": "bool",
}
TOP_LEVEL_TYPES = {
    "model_provider": "str",
    "openai_base_url": "str",
    "model_context_window": "i64",
    "model_auto_compact_token_limit": "i64",
    "hide_agent_reasoning": "bool",
    "show_raw_agent_reasoning": "bool",
}
_SERDE_EXPECTED = {"str": "a string", "table": "a map", "i64": "i64", "u64": "u64", "bool": "a boolean"}
_EXPECTED_WORDS = {
    "str": "a string",
    "table": "a table",
    "i64": "a whole number",
    "u64": "a whole number, 0 or more",
    "bool": "true or false",
}


def _serde_value(value: Any) -> str:
    """How serde names a value in its error (`string "4096"`, `integer `5``), as Codex prints it."""
    if isinstance(value, bool):
        return f"boolean `{str(value).lower()}`"
    if isinstance(value, int):
        return f"integer `{value}`"
    if isinstance(value, float):
        return f"floating point `{value}`"
    if isinstance(value, str):
        return f'string "{clip(value, 41)}"'
    if isinstance(value, Mapping):
        return "map"
    if isinstance(value, list):
        return "sequence"
    return type(value).__name__


def type_problem(value: Any, kind: str) -> str | None:
    """Codex's error for `value` where `kind` is expected, or None when Codex accepts it."""
    ok = {
        "str": isinstance(value, str),
        "table": isinstance(value, Mapping),
        "bool": isinstance(value, bool),
        "i64": isinstance(value, int) and not isinstance(value, bool),
        "u64": isinstance(value, int) and not isinstance(value, bool) and value >= 0,
    }[kind]
    if ok:
        return None
    if kind == "u64" and isinstance(value, int) and not isinstance(value, bool):
        return f"invalid value: integer `{value}`, expected u64"
    return f"invalid type: {_serde_value(value)}, expected {_SERDE_EXPECTED[kind]}"


def wrong_type(key: str, value: Any, kind: str, where: str) -> dict[str, Any] | None:
    says = type_problem(value, kind)
    if says is None:
        return None
    return {
        "key": key,
        "kind": kind,
        "expected": _EXPECTED_WORDS[kind],
        "got": _serde_value(value),
        "where": where,
        "codex_says": says,
    }
