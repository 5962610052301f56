"""Values a guide writes where the user's own belongs: `YOUR_API_KEY`, `sk-xxxx`, `<your key>`, `YOUR_MODEL_ID`.

Codex 0.171 sends such a value as it is (checked with the real CLI: a 401 `Incorrect API key provided` after five
retries for a key, a 404 `The model … does not exist` for a model; docs/codex-behaviour.md, "What users paste"), so the
provider's refusal hides the cause. Each pattern matches the whole value, case-insensitively, after trimming. What is
returned is the pattern's own label, never the value: a report may show it even when the value is a real key.
"""

from __future__ import annotations

import re

# (label shown to the user, pattern for the whole value)
KEY_PLACEHOLDERS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (label, re.compile(pattern, re.I))
    for label, pattern in (
        ("YOUR_API_KEY", r"(?:sk-)?your[_\- ]?(?:api[_\- ]?|openai[_\- ]?|secret[_\- ]?)?keys?(?:[_\- ]?here)?"),
        ("<your key>", r"<[^>]*key[^>]*>|<[^>]*密钥[^>]*>"),
        ("{your key}", r"\{[^}]*key[^}]*\}|\[[^\]]*key[^\]]*\]"),
        ("sk-xxxx", r"sk-(?:proj-)?(?:x{3,}|\.{3,}|…|\*+)"),
        ("xxxxxxxx", r"x{8,}|\.{3,}|…"),
        ("API_KEY_HERE", r"(?:api[_\- ]?key|key|token)[_\- ]?here|(?:insert|put|paste)[_\- ].*key.*"),
        ("你的密钥", r"(?:替换为?|填入|在此|这里).*(?:key|密钥|令牌)|你的.*(?:key|密钥|令牌)"),
    )
)
MODEL_PLACEHOLDERS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (label, re.compile(pattern, re.I))
    for label, pattern in (
        ("YOUR_MODEL_ID", r"your[_\- ]?model(?:[_\- ]?(?:id|name))?"),
        ("<model>", r"<[^>]*model[^>]*>|<[^>]*模型[^>]*>|\{[^}]*model[^}]*\}"),
        ("MODEL_NAME", r"model[_\- ]?(?:name|id)(?:[_\- ]?here)?"),
        ("模型名称", r"模型(?:名称|名字|id)|你的模型.*|(?:替换为?|填入).*模型.*"),
    )
)


def _match(value: object, patterns: tuple[tuple[str, re.Pattern[str]], ...]) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip().strip("\"'")
    return next((label for label, pattern in patterns if pattern.fullmatch(text)), None)


def key_placeholder(value: object) -> str | None:
    """The label of the guide placeholder an API key value is (`YOUR_API_KEY`, `sk-xxxx`, …), or None."""
    return _match(value, KEY_PLACEHOLDERS)


def model_placeholder(value: object) -> str | None:
    """The label of the guide placeholder a model value is (`YOUR_MODEL_ID`, `<model>`, …), or None."""
    return _match(value, MODEL_PLACEHOLDERS)
