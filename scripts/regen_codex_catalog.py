"""Regenerate codexdoctor/data/codex-models-<version>.json from the Codex CLI binary itself.

Codex carries its model catalog inside its binary: `codex-rs/models-manager/models.json`, embedded with
`include_str!` and loaded by `bundled_models_response()` (codex-rs/models-manager/src/manager.rs). This script finds
that JSON object in the installed binary (it starts with `{"models": [`; `json.JSONDecoder.raw_decode` stops exactly
at its end) and keeps, per slug, the fields that decide the window, compaction and tool-output truncation. The file
is data from Codex, never typed by hand; `codex/models.py` reads it.

    python scripts/regen_codex_catalog.py [BINARY]
BINARY defaults to the real-codex cache (../shared/tools/real-codex installs it: CODEX_CLI_CACHE, CODEX_CLI_VERSION).

Beside the catalog the file carries `rules`: what Codex does with it (the lookup, the fallback for a name it has no
entry for, the effective share of the window and the compaction point). Those are Rust code, not data in the binary,
so they are written here from the source files named in each rule (openai/codex at the commits given, the newest the
search index holds; their ModelInfo fields are the ones the 0.171 catalog entries carry), and the binary is checked
for the strings that prove the code is in it (the fallback warning, `model_catalog_json`). Each rule is confirmed
against the real client by scripts/crosscheck_catalog.py; docs/codex-behaviour.md ("Model metadata") has both.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path

VERSION = os.environ.get("CODEX_CLI_VERSION", "0.171.0")
CACHE = Path(os.environ.get("CODEX_CLI_CACHE", str(Path.home() / ".cache" / "codexdoctor-dev" / "codex-cli")))
OUT = Path(__file__).resolve().parents[1] / "codexdoctor" / "data" / f"codex-models-{VERSION}.json"
# What decides the window Codex assumes, when it compacts, and how much of a tool's output it keeps.
FIELDS = (
    "slug",
    "context_window",
    "max_context_window",
    "auto_compact_token_limit",
    "effective_context_window_percent",
    "truncation_policy",
    "supports_parallel_tool_calls",
    "visibility",
)

# Fields Codex's ModelInfo cannot do without (no serde default, not an Option): a catalog entry (model_catalog_json,
# a provider's /models) missing one is refused as a whole ("missing field `display_name`").
REQUIRED_FIELDS = (
    "slug",
    "display_name",
    "supported_reasoning_levels",
    "shell_type",
    "visibility",
    "supported_in_api",
    "priority",
    "support_verbosity",
    "truncation_policy",
    "experimental_supported_tools",
)
MANAGER = "codex-rs/models-manager/src/manager.rs@0301b5865bd9158232e792abebc6233ba9d3a444"
MODEL_INFO = "codex-rs/models-manager/src/model_info.rs@07587b746b7d8e1279a2c5a47836f976ac657401"
PROTOCOL = "codex-rs/protocol/src/openai_models.rs (ModelInfo, resolved_context_window, usable_context_window)"
RULES = {
    "lookup": {
        "order": ["longest_prefix", "one_namespace_segment"],
        "case_sensitive": True,
        "trimmed": False,
        "namespace_pattern": "[A-Za-z0-9_-]+",
        "source": f"{MANAGER} find_model_by_longest_prefix, find_model_by_namespaced_suffix, "
        "construct_model_info_from_candidates",
    },
    "fallback": {
        "context_window": 272000,
        "max_context_window": 272000,
        "auto_compact_token_limit": None,
        "effective_context_window_percent": 95,
        "truncation_policy": {"mode": "bytes", "limit": 10000},
        "warning": "Model metadata for `{model}` not found. Defaulting to fallback metadata; "
        "this can degrade performance and cause issues.",
        "source": f"{MODEL_INFO} model_info_from_slug",
    },
    "config": {
        "model_context_window": "min(model_context_window, max_context_window) when the entry has a maximum",
        "model_auto_compact_token_limit": "replaces the entry's auto_compact_token_limit",
        "source": f"{MODEL_INFO} with_config_overrides",
    },
    "window": {
        "resolved": "context_window, else max_context_window",
        "effective_context_window_percent_default": 95,
        "effective": "resolved * effective_context_window_percent // 100 (model_context_window in the rollout)",
        "auto_compact_numerator": 9,
        "auto_compact_denominator": 10,
        "auto_compact": "min(auto_compact_token_limit, resolved * 9 // 10), or the 9/10 alone",
        "source": f"{PROTOCOL}; codex-rs/core/src/session/turn_context.rs model_context_window",
    },
    "catalogs": {
        "model_catalog_json": "replaces the embedded catalog (StaticModelsManager); an entry Codex cannot parse "
        "stops Codex before any request",
        "provider_models": "GET {base_url}/models?client_version=<version> only for a provider with an `auth` "
        "command (or a ChatGPT login); its `models` are merged by slug into the embedded catalog",
        "required_fields": list(REQUIRED_FIELDS),
        "source": f"{MANAGER} should_refresh_models, apply_remote_models; "
        "codex-rs/models-manager/src/config.rs (ModelsManagerConfig.model_catalog)",
    },
}
# Strings of the code above that must be in the binary the catalog comes from.
PROOF_STRINGS = (b"Defaulting to fallback metadata", b"model_catalog_json")


def find_binary() -> Path:
    found = sorted((CACHE / VERSION / "node_modules").glob("@openai/codex-*/vendor/*/bin/codex"))
    if not found:
        sys.exit(f"no Codex {VERSION} binary under {CACHE}; run ../shared/tools/real-codex --version once")
    return found[-1]


def embedded_catalog(data: bytes) -> tuple[int, dict[str, object]]:
    """The first `{"models": [...]}` object in the binary whose entries all have a slug, and its offset."""
    for m in re.finditer(rb'\{\s*"models"\s*:\s*\[', data):
        text = data[m.start() : m.start() + 8_000_000].decode("utf-8", errors="replace")
        try:
            obj, _end = json.JSONDecoder().raw_decode(text)
        except json.JSONDecodeError:
            continue
        models = obj.get("models") if isinstance(obj, dict) else None
        if isinstance(models, list) and models and all(isinstance(x, dict) and "slug" in x for x in models):
            return m.start(), obj
    sys.exit("no embedded model catalog found in the binary")


def main() -> int:
    binary = Path(sys.argv[1]) if len(sys.argv) > 1 else find_binary()
    data = binary.read_bytes()
    missing = [p.decode() for p in PROOF_STRINGS if p not in data]
    if missing:
        sys.exit(f"{binary} lacks {missing}: not the Codex the rules were read for")
    offset, catalog = embedded_catalog(data)
    models = catalog["models"]
    assert isinstance(models, list)
    out = {
        "codex_version": VERSION,
        "source": "codex-rs/models-manager/models.json (include_str!, bundled_models_response in src/manager.rs)",
        "binary_sha256": hashlib.sha256(data).hexdigest(),
        "binary_offset": offset,
        "regenerated_by": "scripts/regen_codex_catalog.py",
        "rules": RULES,
        "models": [{k: m.get(k) for k in FIELDS if k in m} for m in models],
    }
    OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{OUT.name}: {len(models)} models from {binary} (offset {offset})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
