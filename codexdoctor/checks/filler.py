"""Deterministic multi-turn conversation text, sized in tokens, for the session probe.

A growing Codex session resends every earlier turn, so the probe grows a
conversation the same way: question/answer turns on one technical topic,
always the same turns in the same order (a stable prefix, as in a real
session), cut where the token target is reached.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from codexdoctor.common.tokens import Tokenizer

TOPICS = ("the KV cache", "prefix caching", "self-attention cost", "context windows", "rotary position embeddings",
          "speculative decoding", "batching at inference time", "quantisation", "tokenisers", "sampling temperature",
          "mixture of experts", "retrieval-augmented generation", "streaming responses", "rate limits", "fine-tuning")
QUESTIONS = ("Explain {t} in a few sentences, as you would in an interview.",
             "What goes wrong with {t} when the session gets very long?",
             "How would you measure the effect of {t} on latency?",
             "Give one common misconception about {t} and correct it.",
             "Which configuration knob matters most for {t}, and why?")
SENTENCES = ("The cost grows with the length of the sequence, so doubling the history roughly doubles the work for every new token.",
             "A provider that reuses the prefix only computes the new part of the request, which keeps the first token fast.",
             "Each turn resends the whole conversation, including side questions that are no longer relevant.",
             "When the window is exceeded, the server either rejects the request or silently drops the oldest part.",
             "Measuring time to first token against the request size separates prefill cost from generation speed.",
             "A stable breakpoint points at the window; a wandering one points at capacity, rate limits or the network.",
             "Keeping instructions and tool definitions identical across turns lets the cache match the longest prefix.",
             "Summaries carried into a new session cost a few hundred tokens instead of the entire history.",
             "Output tokens count against the window too, so a long answer near the limit can push the next turn over.",
             "Latency that climbs turn after turn is the first sign; stalls in the middle of an answer come next.")
INSTRUCTIONS = ("You are answering a series of interview questions about large language models. "
                "Keep each answer short and technical.")


@dataclass(frozen=True)
class Turn:
    """One made-up question and answer pair the probe grows a context with, and its token count."""

    question: str
    answer: str
    tokens: int  # of both texts, plus per-item overhead


class Conversation:
    """The same deterministic turns every time; `build(n)` returns the first turns that fill n tokens."""

    ITEM_OVERHEAD = 3  # per message, as providers count chat formatting

    def __init__(self, tokenizer: Tokenizer, seed: int = 34) -> None:
        self.tok = tokenizer
        self.rng = random.Random(seed)
        self.turns: list[Turn] = []
        self.instructions_tokens = tokenizer.count(INSTRUCTIONS)

    def _make_turn(self, index: int) -> Turn:
        topic = TOPICS[index % len(TOPICS)]
        question = f"Question {index + 1}: " + QUESTIONS[(index // len(TOPICS)) % len(QUESTIONS)].format(t=topic)
        picks = [SENTENCES[self.rng.randrange(len(SENTENCES))] for _ in range(3 + self.rng.randrange(4))]
        answer = f"About {topic}: " + " ".join(picks)
        tokens = self.tok.count(question) + self.tok.count(answer) + 2 * self.ITEM_OVERHEAD
        return Turn(question, answer, tokens)

    def _extend_to(self, tokens: int) -> None:
        total = self.instructions_tokens + sum(t.tokens for t in self.turns)
        while total < tokens:
            turn = self._make_turn(len(self.turns))
            self.turns.append(turn)
            total += turn.tokens

    def count_items(self, items: list[dict[str, Any]]) -> int:
        """Tokens of instructions plus these items, counted as `build` counts them."""
        return self.instructions_tokens + sum(self.tok.count(_item_text(i)) + self.ITEM_OVERHEAD for i in items)

    def build(self, target: int, final_question: str = "Continue with the next question, briefly.") -> tuple[list[dict[str, Any]], int]:
        """Input items (Responses shape) for about `target` tokens, and their counted size."""
        final_tokens = self.tok.count(final_question) + self.ITEM_OVERHEAD
        total = self.instructions_tokens + final_tokens
        self._extend_to(target)
        items: list[dict[str, Any]] = []
        for turn in self.turns:
            if total + turn.tokens > target:
                break
            items.append({"type": "message", "role": "user", "content": [{"type": "input_text", "text": turn.question}]})
            items.append({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": turn.answer}]})
            total += turn.tokens
        items.append({"type": "message", "role": "user", "content": [{"type": "input_text", "text": final_question}]})
        return items, total


def _item_text(item: dict[str, Any]) -> str:
    return item["content"][0]["text"]


def as_chat_messages(items: list[dict[str, Any]]) -> list[dict[str, str]]:
    messages = [{"role": "system", "content": INSTRUCTIONS}]
    for item in items:
        messages.append({"role": item["role"], "content": item["content"][0]["text"]})
    return messages
