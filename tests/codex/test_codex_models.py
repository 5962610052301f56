"""Codex 0.171's own model metadata: the embedded catalog, its lookup rule, the fallback and the arithmetic, as the
real client showed them (scripts/crosscheck_catalog.py runs the client on these names; docs/codex-behaviour.md)."""

from __future__ import annotations

import json

import pytest

from codexdoctor.codex.model_catalog import parse_catalog
from codexdoctor.codex.models import (
    CATALOG_FILE,
    SOURCES,
    assumed_window,
    catalog,
    compaction_for_logged_window,
    lookup,
    setting_problem,
    tool_output_budget_bytes,
    windows,
)


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


def _entry(slug, **fields):
    """A full entry: the embedded gpt-5.5's required fields, another slug and window (as the cross-check writes)."""
    base = {
        "slug": slug,
        "display_name": slug,
        "supported_reasoning_levels": [],
        "shell_type": "shell_command",
        "visibility": "list",
        "supported_in_api": True,
        "priority": 1,
        "support_verbosity": False,
        "truncation_policy": {"mode": "tokens", "limit": 10000},
        "experimental_supported_tools": [],
    }
    return {**base, **fields}


MINE = _entry("my-model", context_window=64000, max_context_window=64000)


# (model, model_context_window, model_auto_compact_token_limit, model_catalog_json entries, a provider's /models
# entries) -> (full window, effective window in the rollout, compaction point, source, fallback?). The effective
# windows are what the real Codex 0.171 logged for these inputs (scripts/crosscheck_catalog.py).
ASSUMED = [
    ("gpt-5.5", None, None, None, None, (272000, 258400, 244800, "catalog", False)),
    ("gpt-5.5-2026-01-15", None, None, None, None, (272000, 258400, 244800, "catalog", False)),
    ("GPT-5.5", None, None, None, None, (272000, 258400, 244800, "fallback", True)),
    ("gpt-4o", None, None, None, None, (272000, 258400, 244800, "fallback", True)),
    ("gpt-4o", 32000, None, None, None, (32000, 30400, 28800, "model_context_window", True)),
    ("gpt-5.5", 400000, None, None, None, (272000, 258400, 244800, "model_context_window_capped", False)),
    ("gpt-6.2-sol", 1000000, None, None, None, (872000, 828400, 784800, "model_context_window_capped", False)),
    ("gpt-4o", 100000, 50000, None, None, (100000, 95000, 50000, "model_context_window", True)),
    ("gpt-4o", 100000, 200000, None, None, (100000, 95000, 90000, "model_context_window", True)),
    # any whole number is taken as it is: Codex logged 0 and -4 (Rust's division truncates toward zero)
    ("gpt-4o", 0, None, None, None, (0, 0, 0, "model_context_window", True)),
    ("gpt-4o", -5, None, None, None, (-5, -4, -4, "model_context_window", True)),
    ("gpt-4o", 100000, 0, None, None, (100000, 95000, 0, "model_context_window", True)),
    # a model_catalog_json replaces the embedded catalog, with the same lookup
    ("my-model", None, None, [MINE], None, (64000, 60800, 57600, "model_catalog_json", False)),
    ("my-model-2026-01-01", None, None, [MINE], None, (64000, 60800, 57600, "model_catalog_json", False)),
    ("gpt-5.5", None, None, [MINE], None, (272000, 258400, 244800, "fallback", True)),
    (
        "my-model",
        None,
        None,
        [{**MINE, "context_window": None}],
        None,
        (64000, 60800, 57600, "model_catalog_json", False),
    ),
    (
        "my-model",
        None,
        None,
        [{**MINE, "effective_context_window_percent": 50}],
        None,
        (64000, 32000, 57600, "model_catalog_json", False),
    ),
    ("my-model", 128000, None, [MINE], None, (64000, 60800, 57600, "model_context_window_capped", False)),
    # a provider's /models (read only with an auth command) is merged in by slug
    ("my-model", None, None, None, [MINE], (64000, 60800, 57600, "provider_models", False)),
    (
        "gpt-5.5",
        None,
        None,
        None,
        [_entry("gpt-5.5", context_window=100000)],
        (100000, 95000, 90000, "provider_models", False),
    ),
    ("gpt-6.1-sol", None, None, None, [MINE], (500000, 475000, 450000, "catalog", False)),
    # a model_catalog_json wins over a provider's /models
    (
        "my-model",
        None,
        None,
        [MINE],
        [_entry("my-model", context_window=8000)],
        (64000, 60800, 57600, "model_catalog_json", False),
    ),
]


@pytest.mark.parametrize("model, window, limit, user_catalog, served, expected", ASSUMED)
def test_assumed_window_follows_codex(model, window, limit, user_catalog, served, expected):
    w = assumed_window(model, window, limit, model_catalog=user_catalog, provider_models=served)
    assert (w.window, w.effective, w.compact_at, w.source, w.meta.fallback) == expected
    assert w.triple() == (expected[0], expected[2], expected[3]) and w.source in SOURCES


def test_an_entry_without_any_window_gives_none_and_no_compaction():
    bare = {**MINE, "context_window": None, "max_context_window": None}
    w = assumed_window("my-model", model_catalog=[bare])
    assert (w.window, w.effective, w.compact_at) == (None, None, None)
    assert assumed_window("my-model", None, 5000, model_catalog=[bare]).compact_at == 5000
    assert assumed_window("my-model", 40000, model_catalog=[bare]).effective == 38000


def test_on_equal_prefixes_the_longest_slug_wins_whatever_the_order():
    short, long = _entry("abc", context_window=1000), _entry("abc-def", context_window=2000)
    assert assumed_window("abc-def-1", model_catalog=[short, long]).window == 2000
    assert assumed_window("abc-def-1", model_catalog=[long, short]).window == 2000
    assert assumed_window("abc-x", model_catalog=[long, short]).window == 1000


@pytest.mark.parametrize(
    "value, words",
    [
        (32000, None),
        (0, None),
        (-5, None),
        (None, None),
        ("32000", 'invalid type: string "32000", expected i64'),  # seen with the real client
        (32000.0, "invalid type: floating point `32000.0`, expected i64"),
        (True, "invalid type: boolean `true`, expected i64"),
    ],
)
def test_settings_codex_refuses(value, words):
    assert setting_problem(value) == words


@pytest.mark.parametrize("window", [1, 19, 20, 4096, 32000, 100000, 128000, 131072, 200000, 272000, 1047576])
@pytest.mark.parametrize("limit", [None, 0, 5000, 10**9])
def test_sessions_and_check_quote_the_same_compaction_point(window, limit):
    """sessions knows only the logged (effective) window; check knows the full one: both give one number."""
    w = assumed_window("gpt-4o", window, limit)
    assert compaction_for_logged_window(w.effective, limit) == w.compact_at


def test_codex_reads_no_openai_style_list():
    assert parse_catalog({"object": "list", "data": [{"id": "my-model"}]}) == ((), "missing field `models`")
