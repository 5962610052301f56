"""The facts each check produces, with their types: what a rule may read (tests/rules/ hold both sides to it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.facts.records import (
    CACHE_RUN,
    CONFIG_FILE,
    DOC,
    GROUP,
    SESSION,
    URL_ANSWER,
    WATCH_CALL,
    WHERE_KEY,
    WINDOW,
)
from codexdoctor.facts.shapes import Maybe, Nullable, mismatches_of

# Each check's facts are a record shape (facts/shapes.py): a key with Maybe(...) is set on some runs only, a
# record lists every key the check may set. Derived from what the checks produce in the test suite's scenarios,
# the demo and the simulator; tests/test_facts.py runs the real checks against it.

# Stamped on every result the check runner returns (checks/base.py CheckContext.stamp): remedies use the user's shell.
RUNNER: dict[str, Any] = {"shell": str, "platform": str}
# `codexdoctor check` adds to each live result the certain fixes it assumed before sending (commands/check.py).
LIVE: dict[str, Any] = {**RUNNER, "as_if_fixed": Maybe(list[str]), "user_config": str}

FACTS: dict[str, dict[str, Any]] = {
    "cfg.home": {
        **RUNNER,
        "codex_home": str,
        "from_env": bool,
        "problem": str | None,  # "missing" or "not_dir"
        "literal_tilde": bool,
        "expanded": str | None,
    },
    "cfg.files": {
        **RUNNER,
        "files": [CONFIG_FILE],
        "untrusted": [{**CONFIG_FILE, "ignored": str, "keys": list[str]}],
        "user_missing": bool,
        "user_path": str | None,
        "provider_configured_elsewhere": bool,
        "project_root": str,
        "windows_configs": list[str],
    },
    "cfg.profile": {
        **RUNNER,
        "mode": str,
        "selected": str | None,
        "origin": str | None,
        "missing": bool,
        "available": list[str],
        "codex_version": str | None,  # None for a legacy [profiles] table when Codex's version is unknown
        "version_assumed": Maybe(bool),
        "codex_home": Maybe(str),
        "user_config": Maybe(str),
        "conflict": Maybe(bool),
        "file_missing": Maybe(bool),
        "profile_file": Maybe(str | None),
        "ignored_keys": Maybe([WHERE_KEY]),
        "legacy_selectors": Maybe([{"value": str, "where": str}]),
        "legacy_tables": Maybe([{"name": str, "where": str}]),
    },
    "cfg.provider": {
        **RUNNER,
        "provider": str,
        "origin": str,
        "builtin": bool,
        "defined": bool,
        "available": list[str],
        "did_you_mean": Maybe(str | None),
        "user_config": str,
        "table_where": str | None,
        "redefined_builtins": [{"id": str, "where": str}],
        # a [model_providers.amazon-bedrock] table with keys Codex does not let it change: `name`, `aws.x`
        "bedrock_refused": [{"where": str, "keys": str}],
        "missing_base_url": bool,
        "base_url_alias": Maybe(str | None),
        "missing_model": bool,
        "empty_model": Maybe(bool),
        "model_where": Maybe(str),
        # model is the guide's placeholder (YOUR_MODEL_ID, …): the pattern's label, and the model as written
        "model_placeholder": Maybe(str),
        "model": Maybe(str),
        "missing_name": bool,
        "wire_api": str | None,
        "wire_api_where": Maybe(str),
        "wire_api_invalid": str | None,
        "chat_rejected": bool | None,
        "codex_version": str | None,
        "codex_version_text": str,
        "wrong_types": [{**WHERE_KEY, "got": str, "expected": str, "kind": str, "codex_says": str}],
    },
    "cfg.keys": {
        **RUNNER,
        "user_config": str,
        "unknown": [{**WHERE_KEY, "table": str, "suggestion": str | None}],
        # A top-level key inside a provider table (TOML put it there): where, the table, and whether Codex gets the
        # setting from elsewhere all the same (a top-level line, a profile, a flag).
        "misplaced": Maybe(
            [
                {
                    **WHERE_KEY,
                    "table": str,
                    "suggestion": str | None,
                    "table_id": str,
                    "table_where": str,
                    "file": str,
                    "value": str | int | None,
                    "top_level_set": bool,
                }
            ]
        ),
        "project_provider_keys": [WHERE_KEY],
    },
    "env.key": {
        **RUNNER,
        "key_placeholder": Maybe(str | None),  # the label of the guide placeholder the value is (YOUR_API_KEY, …)
        "provider": str,
        "builtin": bool,
        "local": bool,
        "requires_openai_auth": bool,
        "bearer_token": bool,
        "user_config": str,
        "env_key": str | None,
        "env_key_where": str,
        "env_key_looks_like_key": bool,
        "state": str,  # "set", "missing", "blank", "invalid_name" …
        "source": Maybe(str),
        "key_fingerprint": Maybe(str),
        "problems": list[str],  # "newline", "quotes", "bearer prefix" …
        "near_miss": list[str],
        "rc_hits": [{"file": str, "line": int, "exported": bool, "fish": bool}],
        "rc_skipped": Maybe([{"file": str, "reason": str}]),
        "from_dotenv": Maybe(bool),
        "dotenv_path": Maybe(str),
        "dotenv_line": Maybe(int),
        "dotenv_bom": Maybe(bool),
        "dotenv_unloaded": Maybe(Nullable({"line": int, "reason": str})),
        "dotenv_unset_refs": Maybe(list[str]),
        "dotenv_capped": Maybe([{"name": str, "line": int}]),
        "dotenv_stopped_at": Maybe(int | None),
        "shell_differs": Maybe(bool),
        "shell_fp": Maybe(str | None),
    },
    "env.auth": {
        **RUNNER,
        "provider": str,
        "builtin": bool,
        "requires_openai_auth": bool,
        "auth_path": str,
        "auth": {
            "exists": bool,
            "error": Maybe(str),
            "mode": Maybe(str),
            "has_api_key": Maybe(bool),
            "has_tokens": Maybe(bool),
            "api_key_fp": Maybe(str),
        },
        "logged_in": Maybe(bool),
        "openai_api_key_env": bool,
        "openai_key_fp": Maybe(str),
        "codex_api_key_env": bool,
        "custom_without_env_key": bool,
        "env_differs_from_stored": bool,
        "gateway_key": str | None,
        "gateway_provider": Maybe(str),
    },
    "url.base_url": {
        **RUNNER,
        "provider": str,
        "builtin": bool,
        "offline": bool,
        "nothing_sent": Maybe(bool),  # live, but Codex would stop before any request, so none was sent (issue 40)
        "user_config": str,
        "where": str,
        "shown": str,
        "request_url": str,
        "scheme": str | None,  # None when base_url cannot be parsed
        "host": str | None,
        "malformed": str | None,
        "suggested": str | None,
        "whitespace": bool,
        "leading_whitespace": bool,
        "trailing_slash": bool,
        "ends_v1": bool,
        "doubled_path": str | None,
        "query": bool,
        "query_secrets": list[str],
        "fragment": bool,
        "userinfo": bool,
        "plain_http_remote": bool,
        "ignored_openai_base_url": str | None,
    },
    "net.reach": {
        **LIVE,
        "user_config": Maybe(str),
        "url": str,
        "base_url": str,
        "scheme": str | None,
        "host": str,
        "failure": str | None,  # a failure kind: "dns", "refused", "tls", "timeout", "proxy" …
        "detail": str,
        "html": bool,
        "redirect": str | None,
        "proxy": bool,
        "proxy_var": Maybe(str | None),
        "proxy_socks": Maybe(bool),
        "proxy_status": Maybe(int | None),
        "no_proxy_value": Maybe(str),
        "cert_ca": Maybe(bool),
        "ca_variables": Maybe(list[str]),
        "ignored_ca_file": Maybe(str | None),
        "ignored_ca_variable": Maybe(str | None),
        "first_token_timeout_s": Maybe(float),
        "waited_for_alive": Maybe(str | None),
    },
    "api.canary": {
        **LIVE,
        "url": str,
        "base_url_where": str,
        "provider_id": str,
        "model": str,
        "model_origin": str,
        "model_where": str,
        "wire": str,
        "env_key": str | None,
        "env_key_where": str,
        "sent_key": bool,
        "key_fp": str | None,
        "key_fp8": str | None,
        "codex_version": str | None,
        "codex_shaped": bool,
        "kind": str,  # a failure kind, or "ok"
        # An int, or "an error" when a pasted error names no status (checks/diagnose.py).
        "status": int | str | None,
        "message": str,
        "detail": str,
        "field": str | None,
        "location": str | None,
        "request_id": str | None,
        "started_at": str | None,
        "attempts": int,
        "earlier": list[str],
        "codex_retries": int,
        "codex_attempts": Maybe(int),
        "rate_limited_attempts": Maybe(int),
        "failed_codes": Maybe(list[str]),  # response.failed's codes of the rate-limited streams (rate_limit_exceeded)
        "retry_after_s": Maybe(float | None),
        "waited_s": Maybe(float),
        "waited_for_alive": str | None,
        "deadline_s": float,
        "first_token_timeout_s": float,
        "ttft_ms": float | None,
        "max_gap_ms": float | None,
        "total_ms": float,
        "terminal": str | None,
        "usage": Nullable(dict[str, Any]),  # the provider's usage object as it sent it
        "reported_input": int | None,
        # How the stream ended, as Codex reads it: response.incomplete's reason, the output tokens the usage counted,
        # and the messages of standalone error events (Codex ignores them and reads on).
        "incomplete_reason": Maybe(str | None),
        "output_tokens": Maybe(int | None),
        "ignored_errors": Maybe(list[str]),
        # A 429 for one request over the key's tokens-per-minute limit: the limit and the request, as the body says.
        "tpm_limit": Maybe(int),
        "tpm_requested": Maybe(int),
        # what in the answer's JSON had the wrong type, and why a body that looked like JSON could not be read
        "shapes": Maybe(list[str]),
        "body_malformed": Maybe(str | None),
        "request_bytes": int | None,
        "first_request": int | None,
        "first_parts": [{"part": str, "tokens": int}],
        "docs": [{**DOC, "bytes": int}],
        "server_request": int | None,
        "server_window": int | None,
        "minimal_kind": str | None,
        "minimal_status": int | None,
        "catalog_count": int,
        "catalog_closest": list[str],
        "model_not_found_at": Maybe(URL_ANSWER),
        "pasted_model": Maybe(str),
        "doubled": Maybe(str),
        "doubled_fix": Maybe(str),
        "inconclusive_reason": Maybe(str),
    },
    "api.variants": {
        **LIVE,
        "configured": str,
        "base_url_where": str,
        "request_url": str,
        "tried": list[str],
        "working": Nullable({"base_url": str, "kind": str, "status": int, "model_not_found": Maybe(URL_ANSWER)}),
        "working_index": int | None,
        "chat_works": bool,
    },
    "api.wire": {
        **LIVE,
        "wire": str,
        "codex_version": str | None,
        "chat_works": bool,
        "variants_work": bool,
    },
    "api.catalog": {
        **LIVE,
        "url": str,
        "kind": str,
        "status": int | None,
        "message": str,
        "model": str,
        "model_origin": str,
        "model_where": str,
        "count": int,
        "ids": list[str],
        "match": str | None,  # "exact", "case", "whitespace", "dated", "missing"
        "closest": list[str],
        "open_without_key": bool,
        # what in the catalog's JSON had the wrong type ("the provider sent `data` as a string, not an array")
        "shapes": Maybe(list[str]),
        "canary_ran": bool,
        "canary_kind": str | None,
        "read_at": Maybe(str),
    },
    "api.turn_two": {
        **LIVE,
        "url": str,
        "kind": str,
        "status": int | None,
        "message": str,
        "detail": str,
        "html": bool,
        "item_kinds": list[str],
        "named_item": str | None,
        "added_bytes": int | None,
        "request_bytes": int | None,
        "pasted": Maybe(bool),
        "high_demand": Maybe(bool),
        "model": Maybe(str),
        "attempts": Maybe(int),
        "request_id": Maybe(str),
        "started_at": Maybe(str),
        "first_request": Maybe(int | None),
        "first_counted_by": Maybe(str),
        "turn_two_tokens": Maybe(int),
        "turn_two_counted_by": Maybe(str),
        "reasoning_replayed": Maybe(bool),
        "server_request": Maybe(int | None),
        "server_window": Maybe(int | None),
        # issue 38 item 4: turn two carries Codex's parallel round (two calls, two outputs); when that is refused,
        # the same request with one call and one output is sent, and its answer says whether only the second
        # result was the trouble
        "calls": Maybe(int),
        "parallel_refused": Maybe(bool),
        "single_status": Maybe(int | None),
        "single_kind": Maybe(str | None),
        "body_excerpt": Maybe(str),
    },
    "ctx.window": {
        **LIVE,
        "model": str,
        "served": int | None,
        "source": str | None,
        "assumed": int,
        "assumed_source": str,
        "effective": int,
        "compact_at": int,
        "configured_compact_at": int,
        "configured_below_first": bool,
        "answered": bool,
        "unpublished": bool,
        "first_request": int,
        "first_counted": bool,
        "first_counted_by": str,
        "first_fit": bool | None,
        "min_usable": int,
        "room": int | None,
        # The first tool round at its worst (one call and the largest output Codex keeps for this model, counted
        # with the project's tokenizer) and with a typical output of the same size (issue 38 item 4)
        "tool_round": int,
        "tool_round_fits": bool | None,
        "tool_round_typical": int,
        "tool_round_typical_fits": bool | None,
        "tool_cut_bytes": int,
        "tool_cut_mode": str,
        "tool_cut_rule": str,
        "tool_output_limit": int | None,
        "suggest_window": int | None,
        "suggest_compact": int | None,
        "docs": [DOC],
        # `check` with the active provider's recent sessions (issue 39): the largest context one of them reached.
        "sessions_peak": Maybe(int),
        "sessions_peak_id": Maybe(str),
        # … and the window its logs show for this provider and model (the one ctx.sessions' findings advise)
        "sessions_window": Maybe(WINDOW),
    },
    "ctx.probe": {
        **RUNNER,
        "user_config": str,
        "budget": int,
        "max_context": int,
        "turn_tokens": int,
        "repeat": int,
        "tokenizer": str,
        "exact_tokens": bool,
        "precision_tokens": int | None,
        "estimate_requests": int,
        "estimate_tokens": int,
        "requests": int,
        "spent": int,
        "stopped": str | None,  # "budget", "deadline", "interrupted", "requests" (the plan's count, after rate limits)
        "further_cmd": Maybe(str),
        "published": int | None,
        "published_window": int | None,
        "singles": int,
        "singles_ok": int,
        "single_kinds": list[str],
        "baseline_ttft_ms": float | None,
        "largest_ok": int | None,
        "largest_ttft_ms": float | None,
        "ttft_ratio": float | None,
        "slope_ms_per_1k": float | None,
        "stall_count": int,
        "stall_threshold_s": float,
        "longest_stall_ms": float,
        "stage1": bool,
        "stage2": bool,
        "stage3": bool,
        "last_ok": int | None,
        "first_fail": int | None,
        "worked_up_to": int | None,  # the largest request that worked, any phase but the single question
        "single_tokens": int | None,  # the single question's size, when one was sent
        "larger_sent": bool,  # a request larger than the single question was sent
        "usable": int | None,
        "usable_counted_by": str,
        "no_break": bool,
        "stable": bool | None,
        "context_failure": bool,
        "failure_kinds": list[str],
        "context_kinds": list[str],
        "channel_above": [{"sent": int, "kind": str, "status": int | None}],
        "channel_above_kinds": list[str],
        "truncated": bool,
        "truncated_at": int | None,
        "reported_at_truncation": int | None,
        "suggest_window": Maybe(int),
        "suggest_compact": Maybe(int),
        "suggest_from": Maybe(str),  # "published" (a break where the provider says) or "measured"
        "turns_per_session": Maybe(int),
        "turns_bound": Maybe(str),  # "about" (a confirmed break) or "at least" (issue 40)
        "first_request": int,  # Codex's first request for this user, under the turns per session
        "family": str | None,  # the server family the probe recognised: "vllm", "llama.cpp" …
        "cache": Nullable(
            {
                "runs": {"first": CACHE_RUN, "repeat": CACHE_RUN, "changed_start": CACHE_RUN},
                "ttft_ratio": float,
                "verdict": str,
            }
        ),
        "cache_verdict": str | None,  # "working", "not working", "not reported"
        "item_fault": Maybe({"item": str, "sent": int, "status": int, "detail": str, "line": str}),
        "inconclusive_reason": Maybe(str),
    },
    "ctx.sessions": {
        "user_config": str,
        "where": str,
        "count": int,
        "failed": int,
        "not_listed": int,
        "unreadable_lines": int,
        "problems": list[str],
        "sessions": [SESSION],
        "across": {
            **{key: shape if isinstance(shape, Maybe) else Maybe(shape) for key, shape in GROUP.items()},
            "failures": int,
            "sizes": list[int],
            "ids": list[str],
            "pattern": str | None,
            "groups": [GROUP],
        },
        "decision": Nullable({"verdict": str, "reason": str, "latest": Maybe(str)}),
        "inconclusive_reason": Maybe(str),
        # One window per provider and model for the run (issue 40), and the provider and model the config uses now
        "windows": Maybe([WINDOW]),
        "current_provider": Maybe(str | None),
        "current_model": Maybe(str | None),
        "providers_defined": Maybe(list[str]),
        "pasted": Maybe(bool),  # read by diagnose-error for the message pasted (its remedies do not send back to it)
    },
    # `codexdoctor watch`: the requests Codex sent through the recorder (codexdoctor/watch/diagnosis.py).
    "ctx.watch": {
        **RUNNER,
        "where": str,  # the recording file, home shown as ~
        "user_config": str,  # the config file the window advice names
        "requests": int,  # model requests (POST …/responses)
        "failed": int,
        "codex_exit": int | None,  # None: --serve
        "calls": [WATCH_CALL],
        "stall_threshold_ms": float,
        "largest_ok": int | None,  # the largest input (tokens, from usage) of an answered request
        # Provider errors Codex does not show: 429 and 5xx bodies, a standalone `error` event.
        "masked": [{"number": int, "status": int | None, "ending": str, "message": str, "request_id": str | None}],
        # The newest 401 (the key refused) and how many requests got one.
        "key_rejected": Nullable({"number": int, "message": str, "request_id": str | None, "count": int}),
        # The newest 403 read as `check` reads one (net.classify's kind: forbidden, blocked, quota or payment), with
        # its URL (redacted) and how many requests got one.
        "forbidden": Nullable(
            {
                "number": int,
                "status": int,
                "kind": str,
                "url": str,
                "model": str | None,
                "message": str,
                "request_id": str | None,
                "count": int,
            }
        ),
        "stall": Nullable({"number": int, "gap_ms": float, "input_tokens": int | None, "count": int}),
        "context_break": Nullable(
            {
                "number": int,
                "before_tokens": int | None,
                "body_bytes": int,
                "message": str,
                "server_window": int | None,
                "server_request": int | None,
            }
        ),
        "ttft_growth": Nullable(
            {"first_tokens": int, "first_ms": float, "last_tokens": int, "last_ms": float, "ratio": float}
        ),
        "tool_break": Nullable({"number": int, "status": int | None, "ending": str, "message": str}),
        # The stable prefix not reused (seed 003): "dropped" mid-session, or "never" although cached_tokens is
        # reported; `requests` is [number, input tokens, cached tokens] per answered request, the newest 20.
        "cache_reuse": Nullable(
            {
                "pattern": str,
                "number": int,
                "previous": int,
                "before": float | None,
                "after": float,
                "input_tokens": int,
                "uncached": int,
                "compared": int,
                "reported_any": bool,
                "requests": [(int, int, int)],
            }
        ),
    },
    "ctx.pasted": {
        **RUNNER,
        "kind": str,
        "codex_message": Maybe(bool),
        # The provider's overflow came in a response.failed with another code: Codex's `stream disconnected …: <it>`.
        "in_stream": Maybe(bool),
        "server_window": Maybe(int | None),
        "server_request": Maybe(int | None),
        "user_config": Maybe(str),
        "inconclusive_reason": Maybe(str),
        # A message that decides nothing alone (issue 39): which one, and what the user's newest logs held of it.
        "family": Maybe(str),
        "logs_read": Maybe(int),
        "logs_matching": Maybe(int),
    },
}


def declared(check: str) -> set[str]:
    """The keys a check's facts may hold."""
    return set(FACTS.get(check, {}))


def mismatches(check: str, facts: Mapping[str, Any]) -> list[str]:
    """Where a check's facts depart from their declaration, one line each ("env.key.state: expected str, got int")."""
    if check not in FACTS:
        return [f"{check}: no facts declared for this check"]
    return mismatches_of(FACTS[check], facts, check)
