"""Deterministic multi-turn conversation text, sized in tokens, for the session probe.

A growing Codex session resends every earlier turn, so the probe grows a
conversation the same way: question/answer turns on one technical topic,
always the same turns in the same order (a stable prefix, as in a real
session), cut where the token target is reached.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from codexdoctor.codex.request import exec_output
from codexdoctor.common.tokens import Tokenizer

TOPICS = (
    "the KV cache",
    "prefix caching",
    "self-attention cost",
    "context windows",
    "rotary position embeddings",
    "speculative decoding",
    "batching at inference time",
    "quantisation",
    "tokenisers",
    "sampling temperature",
    "mixture of experts",
    "retrieval-augmented generation",
    "streaming responses",
    "rate limits",
    "fine-tuning",
)
QUESTIONS = (
    "Explain {t} in a few sentences, as you would in an interview.",
    "What goes wrong with {t} when the session gets very long?",
    "How would you measure the effect of {t} on latency?",
    "Give one common misconception about {t} and correct it.",
    "Which configuration knob matters most for {t}, and why?",
)
SENTENCES = (
    "The cost grows with the length of the sequence, so doubling the history roughly doubles the work for every new token.",
    "A provider that reuses the prefix only computes the new part of the request, which keeps the first token fast.",
    "Each turn resends the whole conversation, including side questions that are no longer relevant.",
    "When the window is exceeded, the server either rejects the request or silently drops the oldest part.",
    "Measuring time to first token against the request size separates prefill cost from generation speed.",
    "A stable breakpoint points at the window; a wandering one points at capacity, rate limits or the network.",
    "Keeping instructions and tool definitions identical across turns lets the cache match the longest prefix.",
    "Summaries carried into a new session cost a few hundred tokens instead of the entire history.",
    "Output tokens count against the window too, so a long answer near the limit can push the next turn over.",
    "Latency that climbs turn after turn is the first sign; stalls in the middle of an answer come next.",
)
INSTRUCTIONS = (
    "You are answering a series of interview questions about large language models. "
    "Keep each answer short and technical."
)


@dataclass(frozen=True)
class Turn:
    """One made-up turn the probe grows a context with, shaped as Codex's turns are (issue 31): the question, a tool
    call and its output (where the answer's text is, in Codex's exec_command output format), a short reply."""

    question: str
    answer: str
    tokens: int  # of every text, plus per-item overhead
    call: str = ""  # the function_call's arguments
    reply: str = ""


class Conversation:
    """The same deterministic turns every time; `build(n)` returns the first turns that fill n tokens."""

    ITEM_OVERHEAD = 3  # per message, as providers count chat formatting

    def __init__(self, tokenizer: Tokenizer, seed: int = 34) -> None:
        self.tok = tokenizer
        self.rng = random.Random(seed)  # noqa: S311 - reproducible filler text, not a secret
        self.turns: list[Turn] = []
        self.instructions_tokens = tokenizer.count(INSTRUCTIONS)

    def _make_turn(self, index: int) -> Turn:
        topic = TOPICS[index % len(TOPICS)]
        question = f"Question {index + 1}: " + QUESTIONS[(index // len(TOPICS)) % len(QUESTIONS)].format(t=topic)
        picks = [SENTENCES[self.rng.randrange(len(SENTENCES))] for _ in range(3 + self.rng.randrange(4))]
        answer = f"About {topic}: " + " ".join(picks)
        call = json.dumps({"cmd": f"cat notes/{index + 1:03d}.md"})
        output = exec_output(answer, max(1, len(answer) // 4), chunk=f"{index:06x}")
        reply = f"Noted {topic}."
        tokens = (
            self.tok.count(question)
            + self.tok.count(call)
            + self.tok.count(output)
            + self.tok.count(reply)
            + 4 * self.ITEM_OVERHEAD
        )
        return Turn(question, output, tokens, call, reply)

    def _extend_to(self, tokens: int) -> None:
        total = self.instructions_tokens + sum(t.tokens for t in self.turns)
        while total < tokens:
            turn = self._make_turn(len(self.turns))
            self.turns.append(turn)
            total += turn.tokens

    def count_items(self, items: list[dict[str, Any]]) -> int:
        """Tokens of instructions plus these items, counted as `build` counts them."""
        return self.instructions_tokens + sum(self.tok.count(_item_text(i)) + self.ITEM_OVERHEAD for i in items)

    def build(
        self, target: int, final_question: str = "Continue with the next question, briefly."
    ) -> tuple[list[dict[str, Any]], int]:
        """Input items (Responses shape) for about `target` tokens, and their counted size."""
        final_tokens = self.tok.count(final_question) + self.ITEM_OVERHEAD
        total = self.instructions_tokens + final_tokens
        self._extend_to(target)
        items: list[dict[str, Any]] = []
        for turn in self.turns:
            if total + turn.tokens > target:
                break
            n = len(items)
            call_id = f"call_probe_{n:05d}"
            items.append(
                {"type": "message", "role": "user", "content": [{"type": "input_text", "text": turn.question}]}
            )
            items.append({"type": "function_call", "name": "exec_command", "arguments": turn.call, "call_id": call_id})
            items.append({"type": "function_call_output", "call_id": call_id, "output": turn.answer})
            items.append(
                {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": turn.reply}]}
            )
            total += turn.tokens
        items.append({"type": "message", "role": "user", "content": [{"type": "input_text", "text": final_question}]})
        return items, total


def _item_text(item: dict[str, Any]) -> str:
    if item.get("type") == "function_call":
        return str(item["arguments"])
    if item.get("type") == "function_call_output":
        return str(item["output"])
    return str(item["content"][0]["text"])


def as_chat_messages(items: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The same conversation for a Chat Completions endpoint: the tool round as the text it carries (wire_api =
    "chat" is for Codex before 0.97, which sent tool results this way too)."""
    messages = [{"role": "system", "content": INSTRUCTIONS}]
    for item in items:
        role = {"function_call": "assistant", "function_call_output": "user"}.get(
            item.get("type", ""), str(item.get("role") or "user")
        )
        messages.append({"role": role, "content": _item_text(item)})
    return messages
