"""What Codex 0.171 makes of a model name: the entry it finds, or the fallback, and the window arithmetic on top.

Codex decides the window, the compaction point and how much of a tool's output it keeps from this metadata, not
from the provider: a window typed into codexdoctor by hand (gpt-4o 128,000) disagreed with the 258,400 the same
user's session log showed. The entries come from `model_catalog` (Codex's embedded catalog, a `model_catalog_json`, a
provider's /models); the rules (lookup, fallback, 95% effective share, 9/10 compaction point) are read from the same
regenerated data file, which names their source files: `codex-rs/models-manager/src/manager.rs`
(`construct_model_info_from_candidates`), `src/model_info.rs` (`model_info_from_slug`, `with_config_overrides`) and
`codex-rs/protocol/src/openai_models.rs` (`resolved_context_window`, `auto_compact_token_limit`). Each is confirmed
with the real client by scripts/crosscheck_catalog.py (docs/codex-behaviour.md, "Model metadata").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from codexdoctor.codex.model_catalog import CATALOG_FILE, Entry, active_catalog, catalog, i64_problem, rules

__all__ = [
    "CATALOG_FILE",
    "SOURCES",
    "AssumedWindow",
    "ModelMeta",
    "Windows",
    "assumed_window",
    "catalog",
    "compaction_for_logged_window",
    "lookup",
    "setting_problem",
    "tool_output_budget_bytes",
    "windows",
]

BYTES_PER_TOKEN = 4  # APPROX_BYTES_PER_TOKEN (codex-rs/utils/string)
EXEC_DEFAULT_MAX_OUTPUT_TOKENS = 10_000  # unified_exec DEFAULT_MAX_OUTPUT_TOKENS: the command's own cap
# Where the full window Codex assumes came from. `model_context_window*`: the config set it (capped: lowered to the
# entry's max_context_window); otherwise the entry's own window and where the entry came from, or the fallback.
SOURCES = (
    "model_context_window",
    "model_context_window_capped",
    "catalog",
    "model_catalog_json",
    "provider_models",
    "fallback",
)


def _int(value: object) -> int | None:
    """A setting Codex reads as a number: a positive whole number (TOML booleans are not)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _whole(value: object) -> int | None:
    """A setting or field Codex reads as an i64: any whole number, zero and negatives included (TOML booleans are
    not numbers)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _div(a: int, b: int) -> int:
    """Rust's integer division, which truncates toward zero (Python's // floors: -475 // 100 is -5, Rust's -4)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def setting_problem(value: object) -> str | None:
    """Why Codex refuses to start over a model_context_window / model_auto_compact_token_limit value (serde's words
    after "Error loading config.toml: "), or None: it must be a TOML integer, any integer (observed: `"32000"` gives
    `invalid type: string "32000", expected i64`)."""
    return None if value is None else i64_problem(value)


@dataclass(frozen=True)
class ModelMeta:
    """What Codex knows of a model: its catalog entry, or the fallback (`fallback` True, with Codex's warning)."""

    model: str  # as the user wrote it
    slug: str | None  # the catalog entry it matched, None for the fallback
    context_window: int | None  # None only for an entry (model_catalog_json, /models) that gives no window at all
    max_context_window: int | None
    auto_compact_token_limit: int | None
    truncation_mode: str  # tokens | bytes
    truncation_limit: int
    fallback: bool
    origin: str = "catalog"  # catalog | model_catalog_json | provider_models | fallback
    effective_percent: int = 95

    @property
    def warning(self) -> str | None:
        """Codex's own words when it falls back (printed on stderr by `codex exec`)."""
        if not self.fallback:
            return None
        return str(rules()["fallback"]["warning"]).format(model=self.model)


def _longest_prefix(model: str, entries: Sequence[tuple[Entry, str]]) -> tuple[Entry, str] | None:
    """find_model_by_longest_prefix: the longest slug the name starts with, case-sensitive, no separator needed
    (`gpt-6.2-sol-2026-01-01` and `gpt-6.2-solx` are `gpt-6.2-sol`; `GPT-6.2-SOL` and ` gpt-6.2-sol` are nothing).
    On a tie the first entry wins (Codex keeps the first of equal length)."""
    best: tuple[Entry, str] | None = None
    for entry, origin in entries:
        slug = str(entry.get("slug", ""))
        if model.startswith(slug) and (best is None or len(slug) > len(str(best[0].get("slug", "")))):
            best = (entry, origin)
    return best


def _namespace_suffix(model: str) -> str | None:
    """find_model_by_namespaced_suffix: `ns/model` with one segment of letters, digits, `_` or `-` gives `model`."""
    namespace, sep, suffix = model.partition("/")
    if not sep or "/" in suffix or not re.fullmatch(str(rules()["lookup"]["namespace_pattern"]), namespace):
        return None
    return suffix


def _fallback(model: str) -> ModelMeta:
    fb = rules()["fallback"]
    policy = fb["truncation_policy"]
    return ModelMeta(
        model,
        None,
        int(fb["context_window"]),
        int(fb["max_context_window"]),
        _int(fb["auto_compact_token_limit"]),
        str(policy["mode"]),
        int(policy["limit"]),
        True,
        "fallback",
        int(fb["effective_context_window_percent"]),
    )


def lookup(
    model: str, model_catalog: Sequence[Entry] | None = None, provider_models: Sequence[Entry] | None = None
) -> ModelMeta:
    """Codex's metadata for `model`: the longest-prefix entry, else the same after one `namespace/` segment
    (`openrouter/gpt-6.2-sol`; not `a.b/…` nor `x/y/…`), else the fallback. The entries are the embedded catalog,
    or `model_catalog` (a `model_catalog_json`, which replaces it), with `provider_models` merged in by slug."""
    entries = active_catalog(model_catalog, provider_models)
    found = _longest_prefix(model, entries)
    if found is None:
        suffix = _namespace_suffix(model)
        found = _longest_prefix(suffix, entries) if suffix is not None else None
    if found is None:
        return _fallback(model)
    entry, origin = found
    policy = entry.get("truncation_policy")
    fb_policy = rules()["fallback"]["truncation_policy"]
    mode, limit = str(fb_policy["mode"]), int(fb_policy["limit"])
    if (
        isinstance(policy, Mapping)
        and policy.get("mode") in ("tokens", "bytes")
        and _whole(policy.get("limit")) is not None
    ):
        mode, limit = str(policy["mode"]), int(str(policy["limit"]))
    percent = _whole(entry.get("effective_context_window_percent"))
    return ModelMeta(
        model,
        str(entry["slug"]),
        _whole(entry.get("context_window")),
        _whole(entry.get("max_context_window")),
        _whole(entry.get("auto_compact_token_limit")),
        mode,
        limit,
        False,
        origin,
        percent if percent is not None else int(rules()["window"]["effective_context_window_percent_default"]),
    )


@dataclass(frozen=True)
class Windows:
    """The numbers Codex works with for one model and config: all derived here, so every command quotes the same.

    `window` is None only when an entry from a `model_catalog_json` or a provider's /models gives no window and the
    config sets none: Codex then has no window and never compacts on its own."""

    meta: ModelMeta
    window: int | None  # the full window Codex assumes (context_window after the config, capped at the maximum)
    effective: int | None  # its usable share (95%): what Codex writes as model_context_window in its session log
    compact_at: int | None  # where it compacts: min(model_auto_compact_token_limit, 9/10 of the full window)
    configured_window: int | None  # model_context_window as set, before the cap
    configured_compact: int | None  # model_auto_compact_token_limit as set, before the clamp
    source: str  # one of SOURCES: where `window` came from

    @property
    def window_capped(self) -> bool:
        """model_context_window was set above the model's maximum and silently lowered (272,000 for every model
        Codex has no metadata for: a 1,000,000 typed in config.toml still gives 258,400)."""
        return self.source == "model_context_window_capped"

    @property
    def compact_clamped(self) -> bool:
        """model_auto_compact_token_limit was set above 9/10 of the window: Codex compacts at 9/10 anyway."""
        return (
            self.configured_compact is not None
            and self.compact_at is not None
            and (self.configured_compact > self.compact_at)
        )

    def triple(self) -> tuple[int | None, int | None, str]:
        """(full window, compaction point, source): the three numbers a report quotes."""
        return self.window, self.compact_at, self.source


AssumedWindow = Windows


def assumed_window(
    model: str,
    model_context_window: object = None,
    model_auto_compact_token_limit: object = None,
    *,
    model_catalog: Sequence[Entry] | None = None,
    provider_models: Sequence[Entry] | None = None,
) -> Windows:
    """The window Codex 0.171 assumes for `model` with this config, exactly as it computes it.

    lookup() (embedded catalog, or `model_catalog_json`, plus a provider's /models when Codex reads it), then
    with_config_overrides() (model_context_window capped at the entry's max_context_window when it has one;
    model_auto_compact_token_limit replaces the entry's), then the protocol's arithmetic: the full window is
    context_window or else max_context_window; the effective one is its effective_context_window_percent (95) share,
    truncated; the compaction point is min(limit, full * 9 / 10). Codex takes any whole number as it is, zero and
    negatives included (model_context_window = 0 logs a window of 0 and compacts before every turn); a value that is
    not a number stops Codex at start (setting_problem()) and is ignored here. Seen with the real client: gpt-5.5 with
    400000 → 258,400; gpt-4o with 32000 → 30,400; -5 → -4."""
    meta = lookup(model, model_catalog, provider_models)
    w = rules()["window"]
    configured = _whole(model_context_window)
    base = meta.context_window
    source = meta.origin
    if configured is not None:
        base = min(configured, meta.max_context_window) if meta.max_context_window is not None else configured
        source = "model_context_window_capped" if base < configured else "model_context_window"
    full = base if base is not None else meta.max_context_window
    configured_limit = _whole(model_auto_compact_token_limit)
    limit = configured_limit if configured_limit is not None else meta.auto_compact_token_limit
    ceiling = (
        _div(full * int(w["auto_compact_numerator"]), int(w["auto_compact_denominator"])) if full is not None else None
    )
    if ceiling is None:
        compact = limit
    else:
        compact = min(limit, ceiling) if limit is not None else ceiling
    effective = _div(full * meta.effective_percent, 100) if full is not None else None
    return Windows(meta, full, effective, compact, configured, configured_limit, source)


def windows(model: str, model_context_window: object = None, auto_compact_token_limit: object = None) -> Windows:
    """assumed_window() with the embedded catalog only (the common case: a provider with `env_key`)."""
    return assumed_window(model, model_context_window, auto_compact_token_limit)


def compaction_for_logged_window(effective: int, compact_limit: object = None) -> int:
    """Where Codex compacts, from the effective window a session log shows (`model_context_window`) and the
    session's model_auto_compact_token_limit: the full window is the smallest one whose 95% share is that number,
    so `sessions` quotes the same point as `check` (258,400 → 272,000 → 244,800; 30,400 → 32,000 → 28,800)."""
    w = rules()["window"]
    percent = int(w["effective_context_window_percent_default"])
    full = max(0, -(-effective * 100 // percent))
    while full > 0 and (full - 1) * percent // 100 == effective:
        full -= 1
    ceiling = _div(full * int(w["auto_compact_numerator"]), int(w["auto_compact_denominator"]))
    limit = _whole(compact_limit)
    return min(limit, ceiling) if limit is not None else ceiling


def tool_output_budget_bytes(meta: ModelMeta, tool_output_token_limit: object = None) -> tuple[int, str]:
    """How many bytes of one command's output Codex keeps in the next request, and in which mode it cuts.

    The exec budget is the smaller of the model's truncation policy (after `tool_output_token_limit`, which keeps the
    mode) and the command's own 10,000-token default, compared in bytes (4 a token); the smaller one's mode is used
    (codex-rs/core/src/unified_exec, utils/output-truncation). Catalog models keep about 40 KB, cut by tokens; models
    without metadata about 10 KB, cut by bytes."""
    mode, limit = meta.truncation_mode, meta.truncation_limit
    override = _int(tool_output_token_limit)
    if override:
        limit = override * BYTES_PER_TOKEN if mode == "bytes" else override
    policy_bytes = limit * BYTES_PER_TOKEN if mode == "tokens" else limit
    exec_bytes = EXEC_DEFAULT_MAX_OUTPUT_TOKENS * BYTES_PER_TOKEN
    return (policy_bytes, mode) if policy_bytes <= exec_bytes else (exec_bytes, "tokens")
