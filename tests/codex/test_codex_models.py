"""Codex 0.171's own model metadata: the embedded catalog, its lookup rule, the fallback and the arithmetic, as the
real client showed them (scripts/crosscheck_catalog.py runs the client on these names; docs/codex-behaviour.md)."""

from __future__ import annotations

import json

import pytest

from codexdoctor.codex.models import CATALOG_FILE, catalog, lookup, tool_output_budget_bytes, windows


def test_the_catalog_is_codex_0171s_own():
    data = json.loads(CATALOG_FILE.read_text(encoding="utf-8"))
    assert data["codex_version"] == "0.171.0" and data["regenerated_by"] == "scripts/regen_codex_catalog.py"
    slugs = {m["slug"] for m in catalog()}
    assert len(slugs) == 14 and {"gpt-5.5", "gpt-6.1-sol", "gpt-6.2-sol"} <= slugs
    assert not {"gpt-4o", "gpt-4.1", "o3", "deepseek-chat"} & slugs


# (model as written, model_context_window, model_auto_compact_token_limit) -> (effective window in the rollout,
# compaction point, fallback?): each row seen with the real client (the rollout's model_context_window).
OBSERVED = [
    ("gpt-6.2-sol", None, None, 475000, 450000, False),
    ("gpt-6.2-sol-2026-01-01", None, None, 475000, 450000, False),  # dated: the longest prefix
    ("gpt-6.2-solx", None, None, 475000, 450000, False),  # no separator needed
    ("openai/gpt-6.2-sol", None, None, 475000, 450000, False),  # one namespace segment
    ("gpt-6-sol-2026", None, None, 258400, 244800, False),
    ("gpt-5.5-mini", None, None, 258400, 244800, False),
    ("GPT-6.2-SOL", None, None, 258400, 244800, True),  # case-sensitive
    (" gpt-6.2-sol", None, None, 258400, 244800, True),  # not trimmed
    ("a.b/gpt-6.2-sol", None, None, 258400, 244800, True),
    ("x/y/gpt-6.2-sol", None, None, 258400, 244800, True),
    ("gpt-4o", None, None, 258400, 244800, True),
    ("gpt-daybreak-red-latest", None, None, 353400, 334800, False),
    ("gpt-5.5", 400000, None, 258400, 244800, False),  # capped at max_context_window 272000
    ("gpt-4o", 1000000, None, 258400, 244800, True),  # the fallback's maximum is 272000
    ("gpt-6.2-sol", 1000000, None, 828400, 784800, False),
    ("gpt-4o", 32000, None, 30400, 28800, True),
    ("gpt-5.5", 128000, None, 121600, 115200, False),
    ("gpt-4o", 100000, 200000, 95000, 90000, True),  # a limit above 90% is clamped
    ("gpt-4o", 100000, 50000, 95000, 50000, True),  # a lower one is honoured
]


@pytest.mark.parametrize("model, window, limit, effective, compact, fallback", OBSERVED)
def test_windows_are_codexs(model, window, limit, effective, compact, fallback):
    w = windows(model, window, limit)
    assert (w.effective, w.compact_at, w.meta.fallback) == (effective, compact, fallback)
    assert (w.meta.warning is not None) == fallback


def test_capped_and_clamped_settings_are_named():
    assert windows("gpt-4o", 1000000).window_capped and not windows("gpt-4o", 32000).window_capped
    assert windows("gpt-4o", 100000, 200000).compact_clamped and not windows("gpt-4o", 100000, 50000).compact_clamped
    assert "`gpt-4o`" in (lookup("gpt-4o").warning or "")


@pytest.mark.parametrize(
    "model, token_limit, kept",
    [
        ("gpt-5.5", None, (40000, "tokens")),  # 40,221 bytes seen: the 40,000 budget plus the header lines
        ("gpt-4o", None, (10000, "bytes")),  # 10,220 bytes seen
        ("gpt-4o", 2000, (8000, "bytes")),  # 8,220 seen
        ("gpt-4o", 50000, (40000, "tokens")),  # the exec default of 10,000 tokens still caps it
        ("gpt-5.5", 50000, (40000, "tokens")),
    ],
)
def test_tool_output_budget(model, token_limit, kept):
    assert tool_output_budget_bytes(lookup(model), token_limit) == kept
