"""POST /responses bodies: the JSON answer and the SSE event sequence of the Responses API."""

from __future__ import annotations

import json
import time
from collections.abc import Generator, Iterator
from typing import Any

from codexdoctor.sim.answer import Answer


class ResponsesBodies(Answer):
    """The Responses API as OpenAI streams it."""

    def _response_obj(
        self, rid: str, model: str, status: str, text: str | None, usage: tuple[int, int | None, int] | None = None
    ) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "id": rid,
            "object": "response",
            "created_at": int(time.time()),
            "status": status,
            "model": model,
            "output": [],
        }
        if text is not None:
            obj["output"] = [
                {
                    "id": rid.replace("resp", "msg"),
                    "type": "message",
                    "status": "completed",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": text, "annotations": []}],
                }
            ]
        if usage is not None:
            obj["usage"] = self._usage(usage, chat=False)
        return obj

    def _response_json(self, model: str, n_out: int, usage: tuple[int, int | None, int]) -> dict[str, Any]:
        rid = f"resp_sim_{self.server.next_id()}"
        return self._response_obj(rid, model, "completed", "".join(self._pieces(n_out)), usage)

    def _tool_call_events(self, model: str, usage: tuple[int, int | None, int], command: str) -> Iterator[bytes]:
        """An answer that asks for `tool_calls` `exec_command` calls (Codex's shell tool), optionally after a reasoning
        item."""
        rid = f"resp_sim_{self.server.next_id()}"
        seq = iter(range(10**6))

        def ev(kind: str, **data: Any) -> bytes:
            payload = {"type": kind, "sequence_number": next(seq), **data}
            return f"event: {kind}\ndata: {json.dumps(payload)}\n\n".encode()

        output: list[dict[str, Any]] = []
        yield ev("response.created", response=self._response_obj(rid, model, "in_progress", None))
        if self.cfg.reasoning_item:
            reasoning = {
                "id": "rs_sim_1",
                "type": "reasoning",
                "summary": [],
                "encrypted_content": "gAAAAABsimEncryptedReasoning0123456789",
            }
            yield ev("response.output_item.added", output_index=0, item={**reasoning, "encrypted_content": None})
            yield ev("response.output_item.done", output_index=0, item=reasoning)
            output.append(reasoning)
        for n in range(1, max(1, self.cfg.tool_calls) + 1):  # parallel calls: one output item each
            index = len(output)
            done = yield from self._one_call(ev, index, n, command)
            output.append(done)
        final = self._response_obj(rid, model, "completed", None, usage)
        final["output"] = output
        yield ev("response.completed", response=final)

    def _one_call(self, ev: Any, index: int, n: int, command: str) -> Generator[bytes, None, dict[str, Any]]:
        """The events of the n-th `exec_command` call (after the first, call_id gets `_<n>`: call_sim_1_2), ending in
        its done item, which it returns."""
        arguments = json.dumps({"cmd": command})
        call: dict[str, Any] = {
            "id": f"fc_sim_{n}",
            "type": "function_call",
            "status": "in_progress",
            "name": "exec_command",
            "arguments": "",
        }
        if self.cfg.call_id is not None:
            call["call_id"] = self.cfg.call_id if n == 1 or not self.cfg.call_id else f"{self.cfg.call_id}_{n}"
        yield ev("response.output_item.added", output_index=index, item=call)
        yield ev("response.function_call_arguments.delta", item_id=call["id"], output_index=index, delta=arguments)
        yield ev("response.function_call_arguments.done", item_id=call["id"], output_index=index, arguments=arguments)
        done = {**call, "status": "completed", "arguments": arguments}
        yield ev("response.output_item.done", output_index=index, item=done)
        return done

    def _response_events(self, model: str, n_out: int, usage: tuple[int, int | None, int]) -> Iterator[bytes]:
        rid = f"resp_sim_{self.server.next_id()}"
        mid = rid.replace("resp", "msg")
        seq = iter(range(10**6))

        def ev(kind: str, **data: Any) -> bytes:
            payload = {"type": kind, "sequence_number": next(seq), **data}
            return f"event: {kind}\ndata: {json.dumps(payload)}\n\n".encode()

        yield ev("response.created", response=self._response_obj(rid, model, "in_progress", None))
        yield ev("response.in_progress", response=self._response_obj(rid, model, "in_progress", None))
        item = {"id": mid, "type": "message", "status": "in_progress", "role": "assistant", "content": []}
        yield ev("response.output_item.added", output_index=0, item=item)
        yield ev(
            "response.content_part.added",
            item_id=mid,
            output_index=0,
            content_index=0,
            part={"type": "output_text", "text": "", "annotations": []},
        )
        pieces = self._pieces(n_out)
        for i, piece in enumerate(pieces):
            if self.cfg.stall_after_tokens is not None and i == self.cfg.stall_after_tokens:
                self._sleep(self.cfg.stall_seconds)
            yield ev("response.output_text.delta", item_id=mid, output_index=0, content_index=0, delta=piece)
        text = "".join(pieces)
        yield ev("response.output_text.done", item_id=mid, output_index=0, content_index=0, text=text)
        done_item = {
            **item,
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }
        yield ev(
            "response.content_part.done", item_id=mid, output_index=0, content_index=0, part=done_item["content"][0]
        )
        yield ev("response.output_item.done", output_index=0, item=done_item)
        yield ev("response.completed", response=self._response_obj(rid, model, "completed", text, usage))
