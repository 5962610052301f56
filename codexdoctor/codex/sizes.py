"""Sizes measured from Codex itself that `sessions` and the rules need without building a request.

Kept apart from `request` (which builds Codex's first request and loads its template): importing that module
for one number cost `sessions` 5-6 ms of start-up."""

# Codex 0.171's first request before any AGENTS.md file, in o200k tokens (measured; docs/codex-behaviour.md):
# the fallback wherever the request is not built for the user (sessions, pasted errors, the probe's plan).
CODEX_FIRST_REQUEST_TOKENS = 8500
