"""The record shapes inside the checks' facts (a session, a recorded call, a config file…), apart from the table of
which check holds them (facts/__init__.py)."""

from __future__ import annotations

from codexdoctor.facts.shapes import Maybe, Nullable

URL_ANSWER = {"url": str, "status": int, "message": str}
DOC = {"path": str, "tokens": int}  # an AGENTS.md file in Codex's first request
CONFIG_FILE = {
    "path": str,
    "kind": str,
    "exists": bool,
    "encoding": str,
    "crlf": bool,
    "ignored": Maybe(str),
    "keys": Maybe(list[str]),
    "read_error": Maybe(str),
    "toml_error": Maybe({"message": str, "line": int | None, "column": int | None, "backslash_in_string": bool}),
}
WHERE_KEY = {"key": str, "where": str}
WATCH_CALL = {  # one model request `codexdoctor watch` recorded
    "number": int,
    "started": str,  # UTC, ISO 8601
    "status": int | None,
    "ending": str,
    "input_tokens": int | None,
    "cached_tokens": int | None,
    "output_tokens": int | None,
    "body_bytes": int,
    "first_output_ms": float | None,
    "longest_gap_ms": float | None,
    "request_id": str | None,
    "after_tool": bool,
    "cached_share": float | None,  # cached / input tokens, None when the provider did not report cached tokens
}
CACHE_RUN = {"sent": int, "cached": int | None, "ok": bool, "ttft_ms": float}
OUTLIER = {"id": str, "size": int}
GROUP = {
    "provider": str,
    "model": str,
    "window": int | None,
    "failures": int,
    "sizes": list[int],
    "ids": list[str],
    "outliers": [OUTLIER],
    "compactions": int,  # compactions the logs of the group's sessions record (of its core, for a cluster)
    "pattern": str | None,  # "cluster", "scattered" or None
    "core": Maybe(int),
    "low": Maybe(int),
    "high": Maybe(int),
    "median": Maybe(int),
    "spread": Maybe(float),
    "within": Maybe(float),
    "low_usage": Maybe(bool),  # a scattered group whose breaks all came under half the window
    "unclear": Maybe(bool),  # … whose messages alone decided nothing (issue 39)
}
NEED = {
    "first_request": int,
    "first_counted": bool,
    "tool_round": int,
    "total": int,
}  # what Codex needs of a window (codex/sizes.py)
WINDOW = {  # the one window of a provider and model for the run (checks/sessions/windows.py)
    "provider": str | None,
    "model": str | None,
    "window": int,
    "basis": str,  # "served", "stated", "truncated", "break" or "answered"
    "source": str | None,  # the short id of the session it comes from
    "larger_stated": int | None,  # a larger window another session stated or cut at
    "in_cluster": bool,  # it comes from sessions that broke at one size (their finding is the cluster's)
    "current": bool,  # the current config uses this provider and model
    "defined": bool,  # the current config defines (or Codex builds in) this provider
    "need": NEED,
}
SESSION = {  # one rollout as checks/sessions/classify.py classifies it
    "id": str,
    "short_id": str,
    "start": str | None,
    "cli_version": str | None,
    "provider": str | None,
    "model": str | None,
    "window": int | None,
    "turns": int,
    "ended": str,
    "kind": str,  # "none", "context", "channel" or "unknown"
    "evidence": str,
    "failed_turn": int | None,
    "error": str | None,
    "error_info": str | None,
    "failed_at": Maybe(str | None),  # the time of the failing request's error line
    "server_window": int | None,
    "server_request": Maybe(int | None),  # the failed request's size, as the provider's error states it
    "truncated_at": int | None,
    "truncated_turns": list[int],
    "peak": int | None,
    "last_ok": int | None,
    "share": float | None,
    "compactions": int,
    "median_growth": float | None,
    "outsized": [{"turn": int, "added": int}],
    "compact_at": int | None,
    "compaction_would_fire": bool,
    "real_window": int | None,
    "turns_per_session": int | None,
    "legacy": bool,
    "bad_lines": int,
    "huge_lines": int,
    "decode_errors": int,
    "truncated_tail": bool,
    "read_error": str | None,
    "contexts": list[int],
    "cache": {
        "reported": bool,
        "turns": [(int, float)],
        "collapse": Nullable({"turn": int, "before": float, "after": float, "context": int}),
        "late_share": float | None,
        "late_uncached": bool,
    },
    "log_errors": list[str],
    "previews": list[str],
    "in_cluster": bool,
    "user_config": str,
    # Issue 39: the session's message alone does not say which broke (a stream cut, "high demand", a timeout) …
    "unclear": bool,
    # … and what its provider's other sessions decided: "cluster" (the context) or "scattered" (the channel).
    "settled": Maybe(str),
}
