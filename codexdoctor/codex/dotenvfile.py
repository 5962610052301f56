"""`$CODEX_HOME/.env`: variables Codex sets at start-up, over the shell's own (codex-rs/arg0 `load_dotenv`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

# Codex refuses to let .env create or change these (ILLEGAL_ENV_VAR_PREFIX in codex-rs/arg0).
RESERVED_PREFIX = "CODEX_"
MAX_BYTES = 1 << 20
_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*)$")
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\", "$": "$"}


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


def _unquote(raw: str) -> str:
    raw = raw.strip()
    if raw[:1] == "'":
        end = raw.find("'", 1)
        return raw[1:end] if end > 0 else raw[1:]
    if raw[:1] == '"':
        out, i = [], 1
        while i < len(raw):
            ch = raw[i]
            if ch == "\\" and i + 1 < len(raw):
                out.append(_ESCAPES.get(raw[i + 1], "\\" + raw[i + 1]))
                i += 2
                continue
            if ch == '"':
                break
            out.append(ch)
            i += 1
        return "".join(out)
    # Unquoted: a ` #` starts a comment; surrounding whitespace is not part of the value.
    return re.split(r"\s+#", raw, maxsplit=1)[0].strip()


def parse(text: str) -> tuple[dict[str, str], list[int]]:
    values: dict[str, str] = {}
    bad: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _LINE.match(line)
        if not m:
            bad.append(number)
            continue
        values[m.group(1)] = _unquote(m.group(2))
    return values, bad


def read(codex_home: Path) -> DotEnv:
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
    text = raw.decode("utf-8", errors="replace")
    # dotenvy (which Codex uses) does not skip a byte-order mark: it is part of the first line, whose name then does
    # not parse, so that line is not loaded (the lines after it are). Checked against Codex 0.171.0
    # (scripts/crosscheck_config_semantics.py, the ".env BOM" cases). Here it stays too, and the line is a bad one.
    bom_name = None
    if text.startswith("\ufeff"):
        first = _LINE.match(text[1:].split("\n", 1)[0])
        bom_name = first.group(1) if first else None
    values, bad = parse(text)
    reserved = tuple(k for k in values if k.startswith(RESERVED_PREFIX))
    kept = {k: v for k, v in values.items() if not k.startswith(RESERVED_PREFIX)}
    return DotEnv(path, exists=True, values=kept, reserved=reserved, bad_lines=tuple(bad), bom_name=bom_name)


def apply(env: Mapping[str, str], dotenv: DotEnv) -> dict[str, str]:
    """The environment Codex runs with: the shell's, then .env on top (it overrides, even with a blank value)."""
    return {**env, **dotenv.values}
