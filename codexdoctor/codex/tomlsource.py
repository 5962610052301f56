"""Read TOML the way Codex does, remembering on which line each key was written."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Any

from codexdoctor.model import Msg

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

TOMLDecodeError = tomllib.TOMLDecodeError

_POS = re.compile(r"\(at line (\d+), column (\d+)\)")
_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_ASSIGN = re.compile(
    r"^\s*((?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*'))*)\s*="
)


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
            children = list(value.values())
        elif isinstance(value, list):
            children = value
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, level + 1) for child in children)
    return deepest


KEYS_MAX = 50_000  # keys and tables together; a real config has a few hundred at most
DIGITS_MAX = 4300  # Python's int() refuses longer numbers (sys.get_int_max_str_digits), and no setting needs one

# What the shape scan looks at: strings and comments (skipped whole), brackets, braces, `=`, `,`, `.` and line ends.
_SHAPE = re.compile(
    r'"""(?:[^\\]|\\.)*?(?:"""|\Z)|\'\'\'.*?(?:\'\'\'|\Z)|"(?:[^"\\\n]|\\.)*"?|\'[^\'\n]*\'?'
    r"|#[^\n]*|[\[\]{}=,.\n]",
    re.S,
)
_LONG_NUMBER = re.compile(rf"[0-9_]{{{DIGITS_MAX + 1},}}")


def prescan(text: str) -> TomlProblem | None:
    """Refuse, before parsing, a file whose shape would cost Python's TOML reader minutes and gigabytes.

    The reader's cost grows with the square of the nesting (dotted keys 20,000 deep: 10.8 s and 1.6 GB; 100,000
    deep did not finish in 24 GB), so depth is measured here in one linear pass: the brackets and braces a value
    is inside, plus the dotted segments of the key being written. Keys and tables are counted too. The limits are
    far above any real config; the problem names the line where the limit was passed."""
    return shape(text)[0]


def shape(text: str, keys_max: int = KEYS_MAX) -> tuple[TomlProblem | None, int]:
    """prescan's one linear pass: the problem (depth past MAX_DEPTH, more than `keys_max` keys and tables) and the
    number of keys and tables counted, so `-c` overrides can share one budget (codex/config.py)."""
    stack: list[str] = []
    dots = 0  # dots in the key being written
    key_mode = True  # at a statement's start, inside a table header, or after { or , in an inline table
    header = False
    count = 0
    line, line_start = 1, 0

    def problem(what: str, at: int) -> TomlProblem:
        return TomlProblem(what, line, at - line_start + 1)

    for m in _SHAPE.finditer(text):
        tok = m.group(0)
        first = tok[0]
        if first in "\"'#":
            breaks = tok.count("\n")
            if breaks:
                line += breaks
                line_start = m.start() + tok.rindex("\n") + 1
            continue
        if tok == "\n":
            line, line_start = line + 1, m.end()
            if not stack:
                key_mode, dots, header = True, 0, False
            continue
        if tok == "." and key_mode:
            dots += 1
        elif tok == "[" and key_mode and not stack and not header and dots == 0:
            header = True  # [table] or [[array of tables]]
            count += 1
        elif tok == "[" and header:
            continue
        elif tok in "[{":
            stack.append(tok)
            key_mode, dots = tok == "{", 0
        elif tok in "]}":
            if header and not stack:
                key_mode = False
            elif stack:
                stack.pop()
            key_mode = False
        elif tok == "=":
            count += 1
            key_mode, dots = False, 0
        elif tok == ",":
            key_mode, dots = bool(stack) and stack[-1] == "{", 0
        if len(stack) + dots + 1 > MAX_DEPTH:
            return problem(f"keys or arrays nested more than {MAX_DEPTH} levels deep", m.start()), count
        if count > keys_max:
            return problem(f"more than {KEYS_MAX:,} keys and tables", m.start()), count
    return None, count


def parse(text: str) -> tuple[dict[str, Any] | None, TomlProblem | None]:
    shape = prescan(text)
    if shape is not None:
        return None, shape
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
    except ValueError:  # a value Python refuses to convert (a 5,000-digit integer): bad input, not a crash
        long = _LONG_NUMBER.search(text)
        if long is None:
            return None, TomlProblem("a value Python cannot convert", None, None)
        start = text.rfind("\n", 0, long.start()) + 1
        return None, TomlProblem(
            f"a number longer than {DIGITS_MAX:,} digits",
            text.count("\n", 0, long.start()) + 1,
            long.start() - start + 1,
        )
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
            rest = line[assign.end() :]
            for quote in ('"""', "'''"):
                if rest.count(quote) == 1:
                    in_multiline = quote
    return lines


def parse_override_value(raw: str) -> Any:
    """Codex parses `-c key=value` values as TOML, falling back to a plain string."""
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except (ValueError, RecursionError):  # TOMLDecodeError is a ValueError; so is a number int() refuses
        return raw


def limit_said(problem: TomlProblem) -> Msg:
    """A shape limit `shape` found, in both languages (a `-c` override's error names it)."""
    if problem.message.startswith("keys or arrays nested"):
        return Msg("keys or arrays nested more than {n} levels deep", "键或数组嵌套超过 {n} 层", n=MAX_DEPTH)
    if problem.message.endswith("keys and tables"):
        return Msg("more than {n:,} keys and tables", "键和表超过 {n:,} 个", n=KEYS_MAX)
    return Msg.pair(problem.message, problem.message)
