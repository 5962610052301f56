"""Which model entries Codex 0.171 looks a name up in: its embedded catalog, a `model_catalog_json`, a provider's /models.

The entries and the rules Codex applies to them are data from Codex itself (data/codex-models-0.171.0.json, written by
scripts/regen_codex_catalog.py from the binary; each rule names its source file): nothing here is typed by hand, so a
new Codex is a regenerated file, not an edit. Observed with the real client (docs/codex-behaviour.md, "Model
metadata"): a `model_catalog_json` replaces the embedded catalog (gpt-5.5 then falls back), an entry Codex cannot
parse stops it before any request, and a provider's /models is read only when the provider gets its key from an `auth`
command; its entries are then merged into the embedded ones by slug.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

CATALOG_FILE = Path(__file__).resolve().parents[1] / "data" / "codex-models-0.171.0.json"
Entry = Mapping[str, Any]


@functools.lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    """The regenerated file, read once (a few KB; only the commands that need a window load it)."""
    data: dict[str, Any] = json.loads(CATALOG_FILE.read_text(encoding="utf-8"))
    return data


def rules() -> Mapping[str, Any]:
    """What Codex does with the entries (lookup, fallback, config overrides, window arithmetic), with sources."""
    found: Mapping[str, Any] = _data()["rules"]
    return found


def catalog() -> tuple[Entry, ...]:
    """The embedded catalog's entries (`codex-rs/models-manager/models.json` as compiled into 0.171.0)."""
    return tuple(m for m in _data()["models"] if isinstance(m, dict) and isinstance(m.get("slug"), str))


def i64_problem(value: object) -> str | None:
    """serde's words for a value Codex wants as an i64, or None when it is one (TOML and JSON booleans are not):
    `invalid type: string "32000", expected i64` (observed for a config setting)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return None
    if isinstance(value, bool):
        return f"invalid type: boolean `{str(value).lower()}`, expected i64"
    if isinstance(value, str):
        return f'invalid type: string "{value}", expected i64'
    if isinstance(value, float):
        return f"invalid type: floating point `{value}`, expected i64"
    return f"invalid type: {type(value).__name__}, expected i64"


def entry_problem(entry: object, index: int) -> str | None:
    """Why Codex would refuse this entry (serde's words, as far as the window goes), or None.

    Codex parses every entry as its ModelInfo: a required field missing, or a window field that is not a whole
    number, fails the whole catalog. Only the fields that decide the window and the required ones' presence are
    checked here; a wrong type elsewhere is refused by Codex and passed by this check."""
    where = f" (models[{index}])"
    if not isinstance(entry, Mapping):
        return f"invalid type: expected struct ModelInfo{where}"
    for name in rules()["catalogs"]["required_fields"]:
        if name not in entry:
            return f"missing field `{name}`{where}"
    if not isinstance(entry["slug"], str):
        return f"invalid type: expected a string for `slug`{where}"
    for name in (
        "context_window",
        "max_context_window",
        "auto_compact_token_limit",
        "effective_context_window_percent",
    ):
        problem = i64_problem(entry[name]) if entry.get(name) is not None else None
        if problem:
            return f"{problem}{where}"
    policy = entry["truncation_policy"]
    if not (
        isinstance(policy, Mapping)
        and policy.get("mode") in ("tokens", "bytes")
        and i64_problem(policy.get("limit")) is None
    ):
        return f"invalid value for `truncation_policy`, expected {{mode: tokens|bytes, limit: integer}}{where}"
    return None


def parse_catalog(obj: object) -> tuple[tuple[Entry, ...], str | None]:
    """A Codex-format catalog (`{"models": [ModelInfo, ...]}`) as Codex reads it: its entries, or none and why.

    The same shape serves a `model_catalog_json` file and a provider's /models answer; an OpenAI-style list
    (`{"data": [{"id": ...}]}`) is not one, and Codex takes nothing from it."""
    models = obj.get("models") if isinstance(obj, Mapping) else None
    if not isinstance(models, list):
        return (), "missing field `models`"
    for index, entry in enumerate(models):
        problem = entry_problem(entry, index)
        if problem:
            return (), problem
    return tuple(models), None


def reads_provider_models(provider: Mapping[str, Any]) -> bool:
    """should_refresh_models(): Codex asks a custom provider's /models only when the provider has an `auth` command.

    With `env_key` (the usual setup) Codex never sends GET /models, so nothing a gateway's /models says changes the
    window Codex assumes (observed: no GET at all; with an `auth` command, two GETs of /models?client_version=0.171.0
    before the first POST)."""
    return isinstance(provider.get("auth"), Mapping)


def active_catalog(
    model_catalog: Sequence[Entry] | None = None, provider_models: Sequence[Entry] | None = None
) -> tuple[tuple[Entry, str], ...]:
    """The entries Codex looks a model up in, each with where it comes from: `model_catalog_json` (which wins: Codex
    then reads nothing else), `provider_models` (a provider's /models, merged into the embedded ones by slug) or
    `catalog` (the embedded catalog). Pass `provider_models` only when reads_provider_models() says Codex reads it."""
    if model_catalog is not None:
        return tuple((e, "model_catalog_json") for e in model_catalog)
    tagged = [(e, "catalog") for e in catalog()]
    for entry in provider_models or ():
        at = next((i for i, (old, _) in enumerate(tagged) if old.get("slug") == entry.get("slug")), None)
        if at is None:
            tagged.append((entry, "provider_models"))
        else:
            tagged[at] = (entry, "provider_models")
    return tuple(tagged)


def catalog_path(value: str, codex_home: Path) -> Path:
    """Where Codex reads `model_catalog_json = "…"` from: a relative path is taken from CODEX_HOME (the folder of
    config.toml), not from the folder Codex runs in (observed: `rel.json` in CODEX_HOME is read; the same file in the
    working folder is "No such file or directory"). Whether Codex expands a leading `~` was not checked."""
    path = Path(value)
    return path if path.is_absolute() else codex_home / path


def read_catalog_file(path: Path) -> tuple[tuple[Entry, ...] | None, str | None]:
    """A `model_catalog_json` file as Codex loads it at start: its entries, or None and Codex's reason for stopping
    (after "Error: "; exit 1, no request sent): a missing file is the system's words (`No such file or directory
    (os error 2)`), a refused entry ``failed to parse model_catalog_json path `…` as JSON: missing field
    `display_name` …``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        return None, f"{exc.strerror or type(exc).__name__} (os error {exc.errno})"
    except UnicodeDecodeError:
        return None, f"failed to parse model_catalog_json path `{path}` as JSON: not UTF-8"
    try:
        obj = json.loads(text)
    except ValueError as exc:
        return None, f"failed to parse model_catalog_json path `{path}` as JSON: {type(exc).__name__}"
    entries, problem = parse_catalog(obj)
    if problem:
        return None, f"failed to parse model_catalog_json path `{path}` as JSON: {problem}"
    return entries, None
