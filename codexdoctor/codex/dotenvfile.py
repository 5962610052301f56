"""`$CODEX_HOME/.env`: variables Codex sets at start-up, over the shell's own (codex-rs/arg0 `load_dotenv`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

# Codex refuses to let .env create or change these (ILLEGAL_ENV_VAR_PREFIX in codex-rs/arg0, compared on the
# upper-cased name).
RESERVED_PREFIX = "CODEX_"
MAX_BYTES = 1 << 20
# $NAME substitution can grow a 755-byte file without bound (A1=${A0}${A0}, A2=${A1}${A1}, …: 2^N characters).
# Codex 0.171 builds every value whole (dotenvy has no limit): a 512 MB value took it 19.7 s and 4.9 GB before its
# first request (scripts/crosscheck_config_semantics.py, ".env substitution doubling"). codexdoctor stops at these
# sizes, far past any real value, and says so (ENV023): a value is kept to VALUE_MAX characters, and the file is
# read until its values reach TOTAL_MAX.
VALUE_MAX = 64 << 10
TOTAL_MAX = 4 << 20
# A lenient `NAME=` (or the YAML-minded `NAME:`) at a line start: which variable a line that Codex cannot load was
# meant to set.
_NAME_AT = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*[=:]")


@dataclass(frozen=True)
class Unloaded:
    """A line of .env that Codex's reader rejects: where it starts, the names it was meant to set, and why."""

    line: int
    names: tuple[str, ...]
    reason: str  # "bom" | "unterminated" (a quote never closed: the rest of the file is one bad line) | "syntax"


@dataclass(frozen=True)
class DotEnv:
    """What Codex would load: names and values (values stay inside codexdoctor; never shown)."""

    path: Path
    exists: bool
    values: Mapping[str, str] = field(default_factory=dict)
    reserved: tuple[str, ...] = ()  # CODEX_* names Codex ignores
    bad_lines: tuple[int, ...] = ()
    read_error: str | None = None
    bom_name: str | None = None  # the variable on a first line behind a byte-order mark: Codex does not load it
    unloaded: tuple[Unloaded, ...] = ()
    substituted: Mapping[str, int] = field(default_factory=dict)  # name -> line, for values built from $OTHER
    unset_refs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # name -> the $NAMEs that were unset
    capped: Mapping[str, int] = field(default_factory=dict)  # name -> line, for values cut at VALUE_MAX
    stopped_at: int | None = None  # the line where the values reached TOTAL_MAX: it and the lines after are not read


class _LineError(ValueError):
    """dotenvy's LineParse: the logical line is skipped (Codex flattens the iterator: the next line is read)."""


class _Oversize(Exception):
    """A value past VALUE_MAX: carries the first VALUE_MAX characters (codexdoctor's bound, not Codex's)."""

    def __init__(self, head: str) -> None:
        super().__init__("value too long")
        self.head = head


# The states of dotenvy's `Lines` reader, which joins physical lines while a quote is open.
_COMPLETE, _ESCAPE, _STRONG, _STRONG_ESCAPE, _WEAK, _WEAK_ESCAPE, _COMMENT, _SPACE = range(8)


def _eval_end(state: int, text: str) -> tuple[int, int]:
    """dotenvy's `ParseState::eval_end`: the state after `text`, and where a trailing comment starts."""
    pos = 0
    for pos, c in enumerate(text):
        if state == _SPACE:
            if c == "#":
                return pos, _COMMENT
            state = _ESCAPE if c == "\\" else _WEAK if c == '"' else _STRONG if c == "'" else _COMPLETE
        elif state == _ESCAPE:
            state = _COMPLETE
        elif state == _COMPLETE:
            if c.isspace() and c not in "\n\r":
                state = _SPACE
            else:
                state = _ESCAPE if c == "\\" else _WEAK if c == '"' else _STRONG if c == "'" else _COMPLETE
        elif state == _WEAK:
            state = _WEAK_ESCAPE if c == "\\" else _COMPLETE if c == '"' else _WEAK
        elif state == _WEAK_ESCAPE:
            state = _WEAK
        elif state == _STRONG:
            state = _STRONG_ESCAPE if c == "\\" else _COMPLETE if c == "'" else _STRONG
        elif state == _STRONG_ESCAPE:
            state = _STRONG
    return pos, state


def logical_lines(text: str) -> Iterator[tuple[int, str | None, list[str]]]:
    """dotenvy's `Lines`: (first line number, the logical line or None when a quote is still open at the end of the
    file, the physical lines it took). Physical lines end at "\n" only, as `read_line` does."""
    parts = text.split("\n")
    physical = [p + "\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    i = 0
    while i < len(physical):
        first, buf, state = i, "", _COMPLETE
        while True:
            if i == len(physical):  # end of file inside a quote: one LineParse error for all of it
                yield first + 1, None, physical[first:i]
                return
            at = len(buf)
            buf += physical[i]
            i += 1
            # A comment line, skipped whole (quotes in it do not count). Only the first physical line can make it one:
            # a line of white space alone is complete, so a line that goes on has text on its first physical line
            # (and testing the whole growing buffer would be quadratic in a file whose quote is never closed).
            if at == 0 and buf.lstrip().startswith("#"):
                yield first + 1, "", physical[first:i]
                break
            pos, state = _eval_end(state, buf[at:])
            if state == _COMPLETE:
                if buf.endswith("\n"):
                    buf = buf[:-1]
                    if buf.endswith("\r"):
                        buf = buf[:-1]
                yield first + 1, buf, physical[first:i]
                break
            if state == _COMMENT:
                yield first + 1, buf[: at + pos], physical[first:i]
                break


def _take_key(rest: str) -> tuple[str, str]:
    if not rest or not (rest[0] == "_" or (rest[0].isascii() and rest[0].isalpha())):
        raise _LineError(rest)
    end = next(
        (k for k, c in enumerate(rest) if not (c == "_" or c == "." or (c.isascii() and c.isalnum()))), len(rest)
    )
    return rest[:end], rest[end:]


# One function, as dotenvy's parse_value is: a character state machine, read side by side with its Rust original.
def _parse_value(text: str, lookup: Callable[[str], str]) -> str:
    """dotenvy's `parse_value`: quotes, backslash escapes and $NAME / ${NAME} substitution (a name is letters and
    digits only: `$A_B` is $A then "_B")."""
    strong = weak = escaped = expecting_end = False
    out: list[str] = []
    mode, name = 0, []  # 0: none, 1: $NAME, 2: ${NAME}
    grown = 0  # characters substitution added: the only way a value outgrows its line

    def substitute(ref: str) -> str:
        nonlocal grown
        value = str(lookup(ref))
        grown += len(value)
        if grown > VALUE_MAX:
            raise _Oversize(("".join(out) + value)[:VALUE_MAX])
        return value

    for c in text:
        if expecting_end:
            if c in " \t":
                continue
            if c == "#":
                break
            raise _LineError(text)
        if escaped:
            if c in "\\'\"$ ":
                out.append(c)
            elif c == "n":
                out.append("\n")
            else:
                raise _LineError(text)
            escaped = False
        elif strong:
            if c == "'":
                strong = False
            else:
                out.append(c)
        elif mode:
            if c.isalnum():
                name.append(c)
            elif mode == 1:
                if c == "{" and not name:
                    mode = 2
                else:
                    out.append(substitute("".join(name)))
                    name = []
                    if c == "$":
                        mode = 1
                    else:
                        mode = 0
                        out.append(c)
            elif c == "}":
                mode = 0
                out.append(substitute("".join(name)))
                name = []
            else:
                name.append(c)
        elif c == "$":
            mode = 1
        elif weak:
            if c == '"':
                weak = False
            elif c == "\\":
                escaped = True
            else:
                out.append(c)
        elif c == "'":
            strong = True
        elif c == '"':
            weak = True
        elif c == "\\":
            escaped = True
        elif c in " \t":
            expecting_end = True
        else:
            out.append(c)
    if mode == 2 or strong or weak:
        raise _LineError(text)
    if mode == 1:
        out.append(substitute("".join(name)))
    return "".join(out)


def parse_line(line: str, lookup: Callable[[str], str]) -> tuple[str, str] | None:
    """dotenvy's `LineParser::parse_line`: (name, value), None for a blank or comment line; raises _LineError."""
    rest = line.rstrip().lstrip()
    if not rest or rest.startswith("#"):
        return None
    key, rest = _take_key(rest)
    rest = rest.lstrip()
    if key == "export" and not rest.startswith("="):  # `export NAME=value`; `export=value` sets "export"
        key, rest = _take_key(rest)
        rest = rest.lstrip()
    if not rest.startswith("="):
        raise _LineError(line)
    rest = rest[1:].lstrip()
    if not rest or rest.startswith("#"):
        return key, ""
    try:
        return key, _parse_value(rest, lookup)
    except _Oversize as exc:
        exc.key = key  # type: ignore[attr-defined]
        raise


# One pass, as Codex's reader makes one: each line sees the environment the lines before it left.
def parse(
    text: str, env: Mapping[str, str] | None = None
) -> tuple[
    dict[str, str],
    tuple[str, ...],
    tuple[Unloaded, ...],
    dict[str, int],
    dict[str, tuple[str, ...]],
    dict[str, int],
    int | None,
]:
    """The variables Codex 0.171 sets from this .env text, as dotenvy's `from_path_iter` reads it and Codex's
    `set_filtered` applies it: lines it cannot parse are skipped (the next ones still count), a quote left open
    swallows the rest of the file, a byte-order mark is not skipped, CODEX_* names are not set, and $NAME takes
    the environment as it stands at that line (the shell's, plus the lines set before), then earlier lines.

    Substitution is bounded (VALUE_MAX a value, TOTAL_MAX in all): see `capped` and `stopped_at` on DotEnv.

    Returns (values, reserved, unloaded, substituted, unset_refs, capped, stopped_at)."""
    process = dict(env or {})
    earlier: dict[str, str] = {}
    values: dict[str, str] = {}
    reserved: list[str] = []
    unloaded: list[Unloaded] = []
    substituted: dict[str, int] = {}
    unset_refs: dict[str, tuple[str, ...]] = {}
    unset: list[str] = []  # the names the current line substituted that nothing sets
    used = False  # whether the current line substituted anything
    capped: dict[str, int] = {}
    stopped_at: int | None = None
    total = 0

    def lookup(name: str) -> str:
        nonlocal used
        used = True
        if name in process:
            return process[name]
        if name not in earlier:
            unset.append(name)
        return earlier.get(name) or ""

    for number, line, taken in logical_lines(text):
        names = tuple(m.group(1) for raw in taken if (m := _NAME_AT.match(raw.lstrip("\ufeff"))))
        if line is None:
            unloaded.append(Unloaded(number, names, "unterminated"))
            continue
        used = False
        unset.clear()
        try:
            parsed = parse_line(line, lookup)
        except _LineError:
            reason = "bom" if number == 1 and line.startswith("\ufeff") else "syntax"
            unloaded.append(Unloaded(number, names[:1], reason))
            continue
        except _Oversize as exc:
            parsed = (exc.key, exc.head)  # type: ignore[attr-defined]
            capped[exc.key] = number  # type: ignore[attr-defined]
        if parsed is None:
            continue
        key, value = parsed
        total += len(value)
        if total > TOTAL_MAX:
            stopped_at = number
            break
        earlier[key] = value
        if used:
            substituted[key] = number
            if unset:
                unset_refs[key] = tuple(dict.fromkeys(unset))
        if key.upper().startswith(RESERVED_PREFIX):
            reserved.append(key)
            continue
        values[key] = value
        process[key] = value
    return values, tuple(reserved), tuple(unloaded), substituted, unset_refs, capped, stopped_at


def read(codex_home: Path, env: Mapping[str, str] | None = None) -> DotEnv:
    path = codex_home / ".env"
    try:
        if not path.is_file():
            return DotEnv(path, exists=path.exists(), read_error="not a regular file" if path.exists() else None)
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        return DotEnv(path, exists=True, read_error=exc.strerror or type(exc).__name__)
    if len(raw) > MAX_BYTES:
        return DotEnv(path, exists=True, read_error=f"larger than {MAX_BYTES:,} bytes")
    # dotenvy's iterator (which Codex uses) does not skip a byte-order mark: it is part of the first line, whose
    # name then does not parse, so that line is not loaded (the lines after it are). Checked against Codex 0.171.0
    # (scripts/crosscheck_config_semantics.py, the ".env BOM" and ".env syntax" cases).
    text = raw.decode("utf-8", errors="replace")
    values, reserved, unloaded, substituted, unset_refs, capped, stopped_at = parse(text, env)
    bom_name = next((u.names[0] for u in unloaded if u.reason == "bom" and u.names), None)
    return DotEnv(
        path,
        exists=True,
        values=values,
        reserved=reserved,
        bad_lines=tuple(u.line for u in unloaded),
        bom_name=bom_name,
        unloaded=unloaded,
        substituted=substituted,
        unset_refs=unset_refs,
        capped=capped,
        stopped_at=stopped_at,
    )


def apply(env: Mapping[str, str], dotenv: DotEnv) -> dict[str, str]:
    """The environment Codex runs with: the shell's, then .env on top (it overrides, even with a blank value)."""
    return {**env, **dotenv.values}
