"""Generate a realistic corpus of Codex rollouts: tool output and reasoning items dominate, as in real logs.

Run: python bench/make_corpus.py DIR [MEGABYTES]   (default 320 MB). Deterministic (seeded).
"""

from __future__ import annotations

import json
import random
import sys
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path


def dumps(obj) -> str:
    return json.dumps(obj, separators=(",", ":"))


WORDS = (
    "src",
    "tests",
    "main.py",
    "README.md",
    "def",
    "class",
    "return",
    "import",
    "error",
    "warning",
    "passed",
    "failed",
    "build",
    "config",
    "toml",
    "json",
    "line",
    "column",
    "value",
    "token",
    "cache",
    "window",
    "request",
    "response",
)


def tool_output(rng: random.Random, size: int) -> str:
    words = []
    total = 0
    while total < size:
        w = rng.choice(WORDS)
        words.append(w)
        total += len(w) + 1
    return " ".join(words)


def session(root: Path, rng: random.Random, start: datetime, target_bytes: int, compacting: bool = False) -> int:
    """One rollout of about target_bytes; with `compacting`, Codex's auto-compaction keeps a long session going."""
    sid = str(uuid.UUID(int=rng.getrandbits(128)))
    folder = root / start.strftime("%Y/%m/%d")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"rollout-{start.strftime('%Y-%m-%dT%H-%M-%S')}-{sid}.jsonl"
    t = start
    window = rng.choice((258400, 258400, 122400, 30400))
    lines = []

    def line(kind, payload):
        lines.append(dumps({"timestamp": t.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "type": kind, "payload": payload}))

    line(
        "session_meta",
        {
            "id": sid,
            "timestamp": t.isoformat(),
            "cwd": "/home/dev/project",
            "originator": "codex_cli_rs",
            "cli_version": "0.171.0",
            "model_provider": "gw",
            "instructions": "x" * 2000,
        },
    )
    size, context, total_in, turn = 0, 9000, 0, 0
    while size < target_bytes:
        turn += 1
        t += timedelta(seconds=rng.randint(5, 90))
        line(
            "event_msg",
            {
                "type": "task_started",
                "turn_id": str(uuid.UUID(int=rng.getrandbits(128))),
                "model_context_window": window,
            },
        )
        line(
            "turn_context",
            {
                "cwd": "/home/dev/project",
                "model": "gw-model",
                "approval_policy": "on-request",
                "sandbox_policy": {"mode": "workspace-write"},
            },
        )
        msg = f"question {turn}: " + tool_output(rng, rng.randint(40, 400))
        line("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": msg}]})
        line("event_msg", {"type": "user_message", "message": msg, "images": []})
        for _ in range(rng.randint(3, 14)):
            line(
                "response_item",
                {
                    "type": "reasoning",
                    "summary": [{"type": "summary_text", "text": tool_output(rng, 120)}],
                    "encrypted_content": "gAAAA" + "x" * rng.randint(400, 3000),
                },
            )
            for _ in range(rng.randint(1, 4)):
                line("event_msg", {"type": "agent_reasoning_delta", "delta": tool_output(rng, 40)})
            line("event_msg", {"type": "agent_reasoning", "text": tool_output(rng, 160)})
            call = f"call_{rng.getrandbits(48):x}"
            line(
                "response_item",
                {
                    "type": "function_call",
                    "name": "shell",
                    "arguments": dumps({"command": ["bash", "-lc", "pytest -q"]}),
                    "call_id": call,
                },
            )
            line(
                "event_msg",
                {
                    "type": "exec_command_begin",
                    "call_id": call,
                    "command": ["bash", "-lc", "pytest -q"],
                    "cwd": "/home/dev/project",
                },
            )
            out = tool_output(rng, rng.randint(150, 6000))
            line(
                "event_msg",
                {
                    "type": "exec_command_end",
                    "call_id": call,
                    "stdout": out[:2000],
                    "stderr": "",
                    "exit_code": 0,
                    "aggregated_output": out,
                    "duration": {"secs": 1, "nanos": 0},
                },
            )
            line(
                "response_item",
                {
                    "type": "function_call_output",
                    "call_id": call,
                    "output": dumps({"output": out, "metadata": {"exit_code": 0}}),
                },
            )
            context += len(out) // 4 // 2
            total_in += context
            # Codex writes a token_count after every model response, so once per tool round.
            line(
                "event_msg",
                {
                    "type": "token_count",
                    "info": {
                        "total_token_usage": {
                            "input_tokens": total_in,
                            "cached_input_tokens": total_in // 2,
                            "output_tokens": 120 * turn,
                            "reasoning_output_tokens": 60 * turn,
                            "total_tokens": total_in + 180 * turn,
                        },
                        "last_token_usage": {
                            "input_tokens": context,
                            "cached_input_tokens": context // 2,
                            "output_tokens": 120,
                            "reasoning_output_tokens": 60,
                            "total_tokens": context + 180,
                        },
                        "model_context_window": window,
                    },
                    "rate_limits": {
                        "primary": {"used_percent": 12.0, "window_minutes": 300, "resets_in_seconds": 3600}
                    },
                },
            )
        line(
            "response_item",
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": tool_output(rng, 800)}],
            },
        )
        line("event_msg", {"type": "agent_message", "message": tool_output(rng, 400)})
        total_in += context
        cached = int(context * rng.uniform(0.5, 0.95))
        if compacting and context > window * 0.8:
            line("compacted", {"message": tool_output(rng, 600)})
            line("event_msg", {"type": "context_compacted"})
            context = 12000
        if context > window:
            line(
                "event_msg",
                {
                    "type": "token_count",
                    "info": {
                        "total_token_usage": {
                            "input_tokens": 0,
                            "cached_input_tokens": 0,
                            "output_tokens": 0,
                            "reasoning_output_tokens": 0,
                            "total_tokens": window,
                        },
                        "last_token_usage": {
                            "input_tokens": 0,
                            "cached_input_tokens": 0,
                            "output_tokens": 0,
                            "reasoning_output_tokens": 0,
                            "total_tokens": window,
                        },
                        "model_context_window": window,
                    },
                    "rate_limits": None,
                },
            )
            line(
                "event_msg",
                {
                    "type": "task_complete",
                    "last_agent_message": None,
                    "error": {
                        "message": "Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying.",
                        "codex_error_info": "context_window_exceeded",
                    },
                },
            )
            break
        line(
            "event_msg",
            {
                "type": "token_count",
                "info": {
                    "total_token_usage": {
                        "input_tokens": total_in,
                        "cached_input_tokens": cached,
                        "output_tokens": 300 * turn,
                        "reasoning_output_tokens": 100 * turn,
                        "total_tokens": total_in + 400 * turn,
                    },
                    "last_token_usage": {
                        "input_tokens": context,
                        "cached_input_tokens": cached,
                        "output_tokens": 300,
                        "reasoning_output_tokens": 100,
                        "total_tokens": context + 400,
                    },
                    "model_context_window": window,
                },
                "rate_limits": {"primary": {"used_percent": 12.0, "window_minutes": 300}},
            },
        )
        line("event_msg", {"type": "task_complete", "last_agent_message": "done"})
        size = sum(len(line) + 1 for line in lines)
    data = "\n".join(lines) + "\n"
    path.write_text(data)
    return len(data)


def main() -> int:
    root = Path(sys.argv[1])
    megabytes = int(sys.argv[2]) if len(sys.argv) > 2 else 320
    rng = random.Random(2026)
    total, n = 0, 0
    start = datetime(2026, 9, 1, 8, tzinfo=timezone.utc)
    while total < megabytes * 1_000_000:
        total += session(root / "sessions", rng, start + timedelta(hours=7 * n), rng.randint(200_000, 4_000_000))
        n += 1
    print(f"{n} sessions, {total / 1e6:.0f} MB in {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
