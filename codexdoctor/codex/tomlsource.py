"""Read TOML the way Codex does, remembering on which line each key was written."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

TOMLDecodeError = tomllib.TOMLDecodeError

_POS = re.compile(r"\(at line (\d+), column (\d+)\)")
_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_ASSIGN = re.compile(r"^\s*((?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*'))*)\s*=")


@dataclass(frozen=True)
class TomlProblem:
    """A parse error with the position Codex would print (`path:line:col: message`)."""

    message: str
    line: int | None
    column: int | None


MAX_DEPTH = 64  # Codex's deepest real key is 4 levels; anything past this is hostile or broken


def depth(obj: Any) -> int:
    """How deeply tables and arrays nest, without recursion (so the check itself cannot overflow)."""
    deepest, stack = 0, [(obj, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, level + 1) for child in children)
    return deepest


def parse(text: str) -> tuple[dict[str, Any] | None, TomlProblem | None]:
    try:
        data = tomllib.loads(text)
    except RecursionError:
        return None, TomlProblem(f"nested too deeply to read (more than {MAX_DEPTH} levels)", None, None)
    except TOMLDecodeError as exc:
        msg = str(exc)
        m = _POS.search(msg)
        line = col = None
        if m:
            line, col = int(m.group(1)), int(m.group(2))
            msg = _POS.sub("", msg).strip()
        return None, TomlProblem(msg, line, col)
    if depth(data) > MAX_DEPTH:
        return None, TomlProblem(f"keys or arrays nested more than {MAX_DEPTH} levels deep", None, None)
    return data, None


def split_dotted(key: str) -> list[str]:
    parts: list[str] = []
    for raw in re.findall(r"\"[^\"]*\"|'[^']*'|[^.]+", key):
        raw = raw.strip()
        if raw[:1] in "\"'" and raw[-1:] == raw[:1]:
            raw = raw[1:-1]
        parts.append(raw)
    return parts


KEY_LINES_MAX = 5000


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """Map each dotted key path to the 1-based line where it is defined.

    A light line scanner, not a parser: good enough to say "config.toml:12"
    for every key a user writes in the usual styles (tables, dotted keys);
    keys inside inline tables point at the line of their parent.
    """
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    in_multiline: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if number > KEY_LINES_MAX:  # positions for the keys a real config has; a 100,000-line file gets the first ones
            break
        if in_multiline:
            if in_multiline in line:
                in_multiline = None
            continue
        header = _HEADER.match(line)
        if header:
            table = tuple(split_dotted(header.group(1)))
            lines.setdefault(table, number)
            continue
        assign = _ASSIGN.match(line)
        if assign:
            path = table + tuple(split_dotted(assign.group(1)))
            lines.setdefault(path, number)
            rest = line[assign.end():]
            for quote in ('"""', "'''"):
                if rest.count(quote) == 1:
                    in_multiline = quote
    return lines


def parse_override_value(raw: str) -> Any:
    """Codex parses `-c key=value` values as TOML, falling back to a plain string."""
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except (TOMLDecodeError, RecursionError):
        return raw
