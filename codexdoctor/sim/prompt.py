"""The prompt as the model would see it, counted in tokens with the project's offline tokenizer."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def fingerprint(secret: str) -> str:
    return "sha256:" + hashlib.sha256(secret.encode("utf-8", "surrogateescape")).hexdigest()[:8]


class Tokens:
    """Lazily loaded shared tokenizer (the same offline one the rest of the project uses)."""

    _tok = None

    @classmethod
    def count(cls, text: str) -> int:
        if cls._tok is None:
            from codexdoctor.common import tokens

            cls._tok = tokens.load("o200k_base")
        return cls._tok.count(text)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text_of(part) for part in content)
    if isinstance(content, dict):
        for key in ("text", "content", "output", "arguments"):
            if key in content:
                return _text_of(content[key])
    return ""


def input_text(body: dict[str, Any], chat: bool) -> str:
    """The prompt as the model would see it: instructions, every message, and the tool schemas."""
    parts: list[str] = []
    if chat:
        for msg in body.get("messages") or []:
            parts.append(_text_of(msg.get("content") if isinstance(msg, dict) else msg))
    else:
        if isinstance(body.get("instructions"), str):
            parts.append(body["instructions"])
        items = body.get("input")
        if isinstance(items, str):
            parts.append(items)
        elif isinstance(items, list):
            parts.extend(_text_of(item) for item in items)
    if body.get("tools"):
        parts.append(json.dumps(body["tools"]))
    return "\n".join(parts)


def cache_text(body: dict[str, Any], chat: bool) -> str:
    """The prompt in the order a provider's prefix cache sees it: the tool schemas first (they are rendered into the
    system part of the prompt, before any message), then the instructions and the messages. With the tools last, a
    session's next turn would share only its previous messages with the cache, never the tools after them."""
    rest = input_text({k: v for k, v in body.items() if k != "tools"}, chat)
    return (json.dumps(body["tools"]) + "\n" + rest) if body.get("tools") else rest


def count_input(body: dict[str, Any], chat: bool) -> tuple[int, str]:
    text = input_text(body, chat)
    n_items = (
        len(body.get("messages") or []) if chat else (len(body["input"]) if isinstance(body.get("input"), list) else 1)
    )
    return Tokens.count(text) + 3 * n_items, text


def common_prefix_len(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i
