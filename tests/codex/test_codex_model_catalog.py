"""Which entries Codex 0.171 looks a model up in, and the data file they come from (issue 38, item 1)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from codexdoctor.codex.model_catalog import (
    CATALOG_FILE,
    active_catalog,
    catalog,
    catalog_path,
    entry_problem,
    parse_catalog,
    read_catalog_file,
    reads_provider_models,
    rules,
)

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "regen_codex_catalog.py"
FULL = {
    "slug": "my-model",
    "display_name": "my-model",
    "supported_reasoning_levels": [],
    "shell_type": "shell_command",
    "visibility": "list",
    "supported_in_api": True,
    "priority": 1,
    "support_verbosity": False,
    "truncation_policy": {"mode": "tokens", "limit": 10000},
    "experimental_supported_tools": [],
    "context_window": 64000,
}


def _regen():
    spec = importlib.util.spec_from_file_location("regen_codex_catalog", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_file_is_the_scripts_output_with_a_source_for_every_rule():
    data = json.loads(CATALOG_FILE.read_text(encoding="utf-8"))
    assert data["regenerated_by"] == "scripts/regen_codex_catalog.py" and len(data["binary_sha256"]) == 64
    assert data["rules"] == json.loads(json.dumps(_regen().RULES))  # not edited after the script wrote it
    for name, rule in rules().items():
        assert "codex-rs/" in rule["source"], name
    assert rules()["fallback"]["context_window"] == 272000 and rules()["window"]["auto_compact_numerator"] == 9


def test_the_script_finds_the_catalog_inside_a_binary():
    models = {"models": [{"slug": "a", "context_window": 1}, {"slug": "b"}]}
    blob = b'\x00ELF junk {"models": 3} more ' + json.dumps(models).encode() + b'\x00 tail {"x": 1}'
    offset, found = _regen().embedded_catalog(blob)
    assert found == models and blob[offset:].startswith(b'{"models"')


def test_a_full_entry_parses_and_a_short_one_is_refused_in_codexs_words():
    assert parse_catalog({"models": [FULL]}) == ((FULL,), None)
    short = {"slug": "my-model", "context_window": 64000}
    assert parse_catalog({"models": [FULL, short]}) == ((), "missing field `display_name` (models[1])")
    assert entry_problem({**FULL, "context_window": "64000"}, 0) == (
        'invalid type: string "64000", expected i64 (models[0])'
    )
    assert entry_problem({**FULL, "truncation_policy": {"mode": "lines", "limit": 1}}, 2).endswith("(models[2])")
    assert entry_problem({**FULL, "context_window": None}, 0) is None  # null is an Option's None


def test_reading_a_model_catalog_json_file(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"models": [FULL]}), encoding="utf-8")
    assert read_catalog_file(good) == ((FULL,), None)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"models": [{"slug": "x"}]}), encoding="utf-8")
    entries, problem = read_catalog_file(bad)
    assert entries is None and problem == (
        f"failed to parse model_catalog_json path `{bad}` as JSON: missing field `display_name` (models[0])"
    )
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert (
        read_catalog_file(broken)[1] == f"failed to parse model_catalog_json path `{broken}` as JSON: JSONDecodeError"
    )
    assert read_catalog_file(tmp_path / "missing.json") == (None, "No such file or directory (os error 2)")


def test_a_relative_catalog_path_is_read_from_codex_home(tmp_path):
    assert catalog_path("rel.json", tmp_path) == tmp_path / "rel.json"
    assert catalog_path(str(tmp_path / "abs.json"), Path("/elsewhere")) == tmp_path / "abs.json"


@pytest.mark.parametrize(
    "provider, reads",
    [
        ({"env_key": "SIM_API_KEY"}, False),
        ({"auth": {"command": "printf", "args": ["%s", "k"]}}, True),
        ({"auth": "printf"}, False),  # not a table: Codex refuses the config, it reads no /models
        ({}, False),
    ],
)
def test_codex_reads_a_providers_models_only_with_an_auth_command(provider, reads):
    assert reads_provider_models(provider) is reads


def test_the_active_catalog_tags_where_each_entry_comes_from():
    embedded = active_catalog()
    assert len(embedded) == len(catalog()) == 14 and {o for _, o in embedded} == {"catalog"}
    merged = active_catalog(provider_models=[FULL, {**FULL, "slug": "gpt-5.5"}])
    origins = {e["slug"]: o for e, o in merged}
    assert origins["my-model"] == origins["gpt-5.5"] == "provider_models" and origins["gpt-6.1-sol"] == "catalog"
    assert len(merged) == 15  # gpt-5.5 replaced in place, my-model added
    assert [o for _, o in active_catalog([FULL], [FULL])] == ["model_catalog_json"]
    assert active_catalog([]) == ()  # an empty model_catalog_json: every name falls back
