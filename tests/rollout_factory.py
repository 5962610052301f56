"""Write rollouts in Codex's documented format (codex-facts §7), compact JSON as Codex writes it."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path


def dumps(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class RolloutWriter:
    def __init__(
        self,
        root: Path,
        *,
        session_id: str | None = None,
        start: datetime | None = None,
        cli_version: str = "0.171.0",
        provider: str = "gw",
        model: str = "gw-model",
        window: int = 258400,
        nested: bool = True,
    ):
        self.id = session_id or str(uuid.uuid4())
        self.t = start or datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)
        self.window = window
        stamp = self.t.strftime("%Y-%m-%dT%H-%M-%S")
        folder = root / self.t.strftime("%Y/%m/%d") if nested else root
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / f"rollout-{stamp}-{self.id}.jsonl"
        self.fh = open(self.path, "a", encoding="utf-8")  # append: raw() writes through another handle
        self.total = {
            "input_tokens": 0,
            "cached_input_tokens": 0,
            "output_tokens": 0,
            "reasoning_output_tokens": 0,
            "total_tokens": 0,
        }
        self.line(
            "session_meta",
            {
                "id": self.id,
                "timestamp": self.ts(),
                "cwd": "/home/dev/project",
                "originator": "codex_cli_rs",
                "cli_version": cli_version,
                "model_provider": provider,
            },
        )
        self.model = model

    def ts(self) -> str:
        return self.t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.t.microsecond // 1000:03d}Z"

    def tick(self, seconds: float = 1.0) -> None:
        self.t += timedelta(seconds=seconds)

    def line(self, kind: str, payload: dict) -> None:
        self.fh.write(dumps({"timestamp": self.ts(), "type": kind, "payload": payload}) + "\n")

    def event(self, payload: dict) -> None:
        self.line("event_msg", payload)

    def token_count(self, context: int, cached: int = 0, output: int = 200) -> None:
        last = {
            "input_tokens": context,
            "cached_input_tokens": cached,
            "output_tokens": output,
            "reasoning_output_tokens": 0,
            "total_tokens": context + output,
        }
        for k in ("input_tokens", "cached_input_tokens", "output_tokens"):
            self.total[k] += last[k]
        self.total["total_tokens"] = self.total["input_tokens"] + self.total["output_tokens"]
        self.event(
            {
                "type": "token_count",
                "info": {
                    "total_token_usage": dict(self.total),
                    "last_token_usage": last,
                    "model_context_window": self.window,
                },
                "rate_limits": None,
            }
        )

    def turn(
        self,
        context: int,
        *,
        cached: int = 0,
        output: int = 200,
        error: str | None = None,
        error_info=None,
        tool_output: int = 0,
        reasoning: int = 0,
        message: str = "next question please",
        complete: bool = True,
    ) -> None:
        self.tick(5)
        self.event({"type": "task_started", "turn_id": str(uuid.uuid4()), "model_context_window": self.window})
        self.line("turn_context", {"cwd": "/home/dev/project", "model": self.model, "approval_policy": "never"})
        self.line(
            "response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": message}]}
        )
        self.event({"type": "user_message", "message": message, "images": []})
        if reasoning:
            self.line("response_item", {"type": "reasoning", "summary": [], "encrypted_content": "x" * reasoning})
        if tool_output:
            self.line(
                "response_item",
                {"type": "function_call", "name": "shell", "arguments": '{"command":["ls"]}', "call_id": "c1"},
            )
            self.line("response_item", {"type": "function_call_output", "call_id": "c1", "output": "o" * tool_output})
        if error is None:
            self.line(
                "response_item",
                {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "answer"}]},
            )
            self.token_count(context, cached, output)
            if complete:
                self.event({"type": "task_complete", "last_agent_message": "answer"})
        else:
            if error_info == "context_window_exceeded":
                self.event(
                    {
                        "type": "token_count",
                        "info": {
                            "total_token_usage": {
                                "input_tokens": 0,
                                "cached_input_tokens": 0,
                                "output_tokens": 0,
                                "reasoning_output_tokens": 0,
                                "total_tokens": self.window,
                            },
                            "last_token_usage": {
                                "input_tokens": 0,
                                "cached_input_tokens": 0,
                                "output_tokens": 0,
                                "reasoning_output_tokens": 0,
                                "total_tokens": self.window,
                            },
                            "model_context_window": self.window,
                        },
                        "rate_limits": None,
                    }
                )
            self.event(
                {
                    "type": "task_complete",
                    "last_agent_message": None,
                    "error": {"message": error, "codex_error_info": error_info},
                }
            )

    def compacted(self) -> None:
        self.line("compacted", {"message": "summary of earlier turns"})

    def raw(self, text: str | bytes) -> None:
        self.fh.flush()
        with open(self.path, "ab") as fh:
            fh.write(text if isinstance(text, bytes) else text.encode())

    def close(self) -> Path:
        self.fh.close()
        return self.path


def legacy_rollout(root: Path) -> Path:
    """Before Sep 2025: a bare header line, then bare items, no token counts."""
    root.mkdir(parents=True, exist_ok=True)
    path = root / "rollout-2025-06-01T10-00-00-0b5c1f9e-1111-2222-3333-444455556666.jsonl"
    lines = [
        {
            "id": "0b5c1f9e-1111-2222-3333-444455556666",
            "timestamp": "2025-06-01T10:00:00.000Z",
            "instructions": None,
            "git": {"branch": "main"},
        },
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "hi"}]},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "again"}]},
    ]
    path.write_text("\n".join(dumps(l) for l in lines) + "\n")
    return path
