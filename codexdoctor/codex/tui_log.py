"""Codex's TUI log (`$CODEX_HOME/log/codex-tui.log`): the error lines in it, with their time and thread, for the
sessions report to set beside the rollouts."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from codexdoctor.codex.rollout_session import parse_time
from codexdoctor.common import safefile
from codexdoctor.common.untrusted import clip

_LOG_TIME = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?)")
# Matched against the message only (after the timestamp): a `429` inside `03:14:29.429Z` is not a rate limit, and
# `model_context_window=…` on an info line is not a context error.
LOG_PATTERNS = (
    ("401", re.compile(r"401 Unauthorized|status 401\b|invalid_api_key|Incorrect API key", re.I)),
    ("404", re.compile(r"404 Not Found|status 404\b", re.I)),
    ("model_not_found", re.compile(r"model .* does not exist|model_not_found|not found, try pulling", re.I)),
    (
        "context",
        re.compile(
            r"ran out of room|context_length_exceeded|maximum context length|exceed_context_size|"
            r"exceeds the available context size|ContextWindowExceeded|exceeds the context window|"
            r"max context length",
            re.I,
        ),
    ),
    ("stream", re.compile(r"stream disconnected before completion", re.I)),
    ("reconnecting", re.compile(r"Reconnecting\.\.\.", re.I)),
    ("missing_env", re.compile(r"Missing environment variable", re.I)),
    (
        "429",
        re.compile(r"\b429 Too Many Requests|status 429\b|rate_limit_exceeded|rate limit|insufficient_quota", re.I),
    ),
)
# Codex 0.171 writes the thread on its log lines: `session_loop{thread_id=01a2…}` or `thread_id="…"`.
_THREAD = re.compile(r"\b(?:thread_id|conversation_id|session_id)[=:]\s*\"?([0-9a-fA-F]{8}-[0-9a-fA-F-]{27,})")


def read_tui_log(
    path: Path, problems: list[str], max_lines: int = 2_000_000
) -> list[tuple[datetime, str, str, str | None]]:
    """(time, kind, message, thread id or None) for error lines in codex-tui.log."""
    out: list[tuple[datetime, str, str, str | None]] = []
    try:
        with safefile.open_regular(path) as fh:
            for n, raw in enumerate(fh):
                if n >= max_lines:
                    break
                line = raw.decode("utf-8", "replace").rstrip()
                m = _LOG_TIME.match(line)
                if not m:
                    continue
                message = line[m.end() :]
                for kind, pattern in LOG_PATTERNS:
                    if pattern.search(message):
                        when = parse_time(m.group(1))
                        thread = _THREAD.search(message)
                        if when:
                            out.append((when, kind, clip(message.strip(), 300), thread.group(1) if thread else None))
                        break
    except OSError as exc:
        problems.append(f"{path}: {exc.strerror or exc}")
    return out
