"""JSON from outside (provider bodies and events, catalogs, session logs, pastes): parsed to a bounded depth and
read through total, typed accessors.

A provider, a gateway or a damaged log decides the types of what it sends. `{"response": "ok"}` where an object
belongs, `"12"` where a count belongs, or an array nested 100,000 deep must become evidence ("the provider sent
`response` as a string, not an object") that rules can use, never an AttributeError or a RecursionError inside a
check. So every reader of such JSON goes through this module:

- `parse` measures the nesting in one linear pass (string contents and their escapes skipped) before a JSON parser
  sees the text, and refuses anything deeper than MAX_DEPTH, as it refuses any other broken JSON: a `Parsed` whose
  `malformed` says why. It never raises.
- `at`, `obj`, `text`, `integer` and `items` read a path of keys and list indices and return None when a step is
  missing or of another type (`integer` takes no bool, no 12.0 and no "12"). They never raise either.
- `Shape` is a wrong or missing value as data; `shape_problems` checks a value against a small spec (`Fields`,
  `STRING`, `INT64`), the way Codex's typed structs accept or refuse what a provider sends.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from itertools import accumulate
from types import MappingProxyType
from typing import Any, NamedTuple, TypeAlias

# The depth Codex 0.171's own JSON reader (serde_json) stops at: an event nested 127 levels deep is read, one of 128
# is dropped (checked with the real CLI). codexdoctor reads no deeper, so what it refuses Codex refuses too, and every
# recursive walk over a parsed value (redaction, the JSON report) stays far from Python's recursion limit.
MAX_DEPTH = 127
MAX_SHAPES = 8  # problems kept per answer: the first few say what is wrong; a hostile stream cannot grow the report

# A JSON string from its opening quote to its closing one, escapes included; an unterminated one runs to the end.
# Every attempt matches (there is no way for it to fail and retry from the next quote), so the scan stays linear
# whatever the text holds. Then everything but brackets goes.
_STRING = r'"[^"\\]*(?:\\[\s\S]?[^"\\]*)*(?:"|\Z)'
_NOT_BRACKET = r"[^\[\]{}]+"
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_STEP_B = {0x5B: 1, 0x7B: 1, 0x5D: -1, 0x7D: -1}


@functools.cache
def _patterns(binary: bool) -> tuple[re.Pattern[Any], re.Pattern[Any]]:
    """The two patterns, compiled the first time text is deep enough to be scanned (most runs never are)."""
    if binary:
        return re.compile(_STRING.encode()), re.compile(_NOT_BRACKET.encode())
    return re.compile(_STRING), re.compile(_NOT_BRACKET)


def depth(data: str | bytes) -> int:
    """How deep the arrays and objects in `data` nest (0 for a scalar), in one pass that the regex engine and
    `accumulate` run in C: strings are dropped first, so brackets inside them do not count. Any text works, JSON or
    not."""
    strings, others = _patterns(isinstance(data, bytes))
    brackets = others.sub(data[:0], strings.sub(data[:0], data))
    steps = map((_STEP_B if isinstance(brackets, bytes) else _STEP).__getitem__, brackets)
    return max(0, max(accumulate(steps), default=0))


def too_deep(data: str | bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether `data` nests deeper than `limit`. Text with fewer opening brackets than that cannot, and is not
    scanned: the common case costs two counts."""
    if isinstance(data, bytes):
        openers = data.count(b"[") + data.count(b"{")
    else:
        openers = data.count("[") + data.count("{")
    return openers > limit and depth(data) > limit


# The value types are NamedTuples, not dataclasses: immutable and comparable alike, and ten times cheaper to define,
# which `check --offline` and `--version` pay at start-up (bench/bench_startup.py).
class Parsed(NamedTuple):
    """A JSON text from outside after reading: its value, or why it could not be read (then `value` is None)."""

    value: Any = None
    malformed: str | None = None
    # What `malformed` says, as data (net/ says it in both languages): how deep the text nests past the limit, or the
    # JSON reader's own error.
    depth: int | None = None
    limit: int | None = None
    error: str | None = None


def parse(data: str | bytes, limit: int = MAX_DEPTH, parse_int: Callable[[str], Any] | None = None) -> Parsed:
    """`data` as JSON, never deeper than `limit`; every failure is a `malformed` result, never an exception."""
    if too_deep(data, limit):
        deep = depth(data)
        return Parsed(
            malformed=f"JSON nested {deep:,} levels deep (Codex reads at most {limit})", depth=deep, limit=limit
        )
    try:
        return Parsed(json.loads(data, parse_int=parse_int))
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, bad UTF-8, more digits than int() takes
        return Parsed(malformed=f"not JSON ({str(exc)[:120]})", error=str(exc)[:120])


def first_object(text: str) -> Mapping[str, Any] | None:
    """The first JSON object inside a line (`… failed: {"error": …}`), or None. A line nesting deeper than
    MAX_DEPTH anywhere is not read at all: one check keeps the search linear."""
    if too_deep(text):
        return None
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
            value = None
        if isinstance(value, Mapping):
            return value
        start = text.find("{", start + 1)
    return None


# ---- total, typed accessors ---------------------------------------------------------------------------------------
def at(value: Any, *path: str | int) -> Any:
    """The value at `path` (object keys and array indices), or None when a step is missing or of another type."""
    for key in path:
        if isinstance(key, str):
            value = value.get(key) if isinstance(value, Mapping) else None
        elif isinstance(value, (list, tuple)) and -len(value) <= key < len(value):
            value = value[key]
        else:
            return None
        if value is None:
            return None
    return value


def obj(value: Any, *path: str | int) -> Mapping[str, Any] | None:
    """The object at `path`, or None."""
    found = at(value, *path)
    return found if isinstance(found, Mapping) else None


def items(value: Any, *path: str | int) -> Sequence[Any] | None:
    """The array at `path`, or None (a string is not an array)."""
    found = at(value, *path)
    return found if isinstance(found, (list, tuple)) else None


def text(value: Any, *path: str | int) -> str | None:
    """The string at `path`, or None."""
    found = at(value, *path)
    return found if isinstance(found, str) else None


def integer(value: Any, *path: str | int) -> int | None:
    """The integer at `path`, or None: true, 12.0 and "12" are not integers (a count that is one of them is a
    provider's bug to report, not a number to guess)."""
    found = at(value, *path)
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def kind(value: Any) -> str:
    """A JSON value's type in words, for evidence: `a string`, `an object`, `null`, …"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "an array"
    return type(value).__name__


# ---- shapes: a wrong or missing value as data -------------------------------------------------------------------
class Shape(NamedTuple):
    """One value from outside that is missing, or of another type than its reader (Codex, or codexdoctor) needs."""

    path: str  # `response.usage.input_tokens`; "" for the value itself
    expected: str  # "an object", "a 64-bit integer"
    got: str | None  # kind() of what came, or None when nothing came

    def sentence(self, who: str = "the provider") -> str:
        """`the provider sent `response` as a string, not an object` / `the provider left out `response.id``."""
        where = f"`{self.path}`" if self.path else "the value"
        if self.got is None:
            return f"{who} left out {where}"
        return f"{who} sent {where} as {self.got}, not {self.expected}"


class Scalar(NamedTuple):
    """A leaf of a spec: what it is called in a sentence, and the test a value must pass."""

    expected: str
    accepts: Callable[[Any], bool]


class Fields(NamedTuple):
    """An object whose `required` fields must be present and whose `optional` ones may be absent or null (serde's
    `Option`); other fields are ignored, as Codex ignores them."""

    required: Mapping[str, Spec] = MappingProxyType({})
    optional: Mapping[str, Spec] = MappingProxyType({})
    expected: str = "an object"


Spec: TypeAlias = "Fields | Scalar"
STRING = Scalar("a string", lambda v: isinstance(v, str))
ARRAY = Scalar("an array", lambda v: isinstance(v, (list, tuple)))
# serde's i64: no bool, no 12.0, no "12", nothing past 64 bits.
INT64 = Scalar("a 64-bit integer", lambda v: type(v) is int and -(2**63) <= v < 2**63)


def shape_problems(value: Any, spec: Spec, path: str = "") -> list[Shape]:
    """Every way `value` differs from `spec`, with the path of each (empty when it fits)."""
    if isinstance(spec, Scalar):
        return [] if spec.accepts(value) else [Shape(path, spec.expected, kind(value))]
    if not isinstance(value, Mapping):
        return [Shape(path, spec.expected, kind(value))]
    out: list[Shape] = []
    for name, sub in spec.required.items():
        where = f"{path}.{name}" if path else name
        out += shape_problems(value[name], sub, where) if name in value else [Shape(where, sub.expected, None)]
    for name, sub in spec.optional.items():
        if value.get(name) is not None:
            out += shape_problems(value[name], sub, f"{path}.{name}" if path else name)
    return out


def keep(found: list[Shape], new: Sequence[Shape]) -> None:
    """Add `new` to `found`, each problem once and at most MAX_SHAPES in all."""
    for shape in new:
        if len(found) >= MAX_SHAPES:
            return
        if shape not in found:
            found.append(shape)
