"""POST /chat/completions bodies: the JSON answer and the `data:` chunks ending in [DONE]."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from codexdoctor.sim.answer import Answer


class ChatBodies(Answer):
    """Chat Completions as OpenAI-compatible servers stream it."""

    def _chat_json(self, model: str, n_out: int, usage: tuple[int, int | None, int]) -> dict[str, Any]:
        return {
            "id": f"chatcmpl-sim{self.server.next_id()}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": "".join(self._pieces(n_out))},
                    "finish_reason": "stop",
                }
            ],
            "usage": self._usage(usage, chat=True),
        }

    def _chat_events(self, model: str, n_out: int, usage: tuple[int, int | None, int]) -> Iterator[bytes]:
        cid = f"chatcmpl-sim{self.server.next_id()}"

        def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
            body = {
                "id": cid,
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
                **extra,
            }
            return f"data: {json.dumps(body)}\n\n".encode()

        yield chunk({"role": "assistant", "content": ""})
        for i, piece in enumerate(self._pieces(n_out)):
            if self.cfg.stall_after_tokens is not None and i == self.cfg.stall_after_tokens:
                self._sleep(self.cfg.stall_seconds)
            yield chunk({"content": piece})
        yield chunk({}, "stop", usage=self._usage(usage, chat=True))
        yield b"data: [DONE]\n\n"
