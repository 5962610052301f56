"""Regenerate codexdoctor/data/codex-models-<version>.json from the Codex CLI binary itself.

Codex carries its model catalog inside its binary: `codex-rs/models-manager/models.json`, embedded with
`include_str!` and loaded by `bundled_models_response()` (codex-rs/models-manager/src/manager.rs). This script finds
that JSON object in the installed binary (it starts with `{"models": [`; `json.JSONDecoder.raw_decode` stops exactly
at its end) and keeps, per slug, the fields that decide the window, compaction and tool-output truncation. The file
is data from Codex, never typed by hand; `codex/models.py` reads it.

    python scripts/regen_codex_catalog.py [BINARY]
BINARY defaults to the real-codex cache (../shared/tools/real-codex installs it: CODEX_CLI_CACHE, CODEX_CLI_VERSION).
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
    offset, catalog = embedded_catalog(data)
    models = catalog["models"]
    assert isinstance(models, list)
    out = {
        "codex_version": VERSION,
        "source": "codex-rs/models-manager/models.json (include_str!, bundled_models_response in src/manager.rs)",
        "binary_sha256": hashlib.sha256(data).hexdigest(),
        "binary_offset": offset,
        "regenerated_by": "scripts/regen_codex_catalog.py",
        "models": [{k: m.get(k) for k in FIELDS if k in m} for m in models],
    }
    OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{OUT.name}: {len(models)} models from {binary} (offset {offset})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
