"""One config file as read: a Layer, with whatever went wrong reading it (a FIFO, a folder, UTF-16, bad UTF-8, a
TOML error), and its keys' line numbers. codex.config merges the layers; the reasons carry their Chinese
(safefile.Reason), so a report says them in either language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codexdoctor.codex import tomlsource
from codexdoctor.common import safefile
from codexdoctor.common.redact import shorten_home
from codexdoctor.model import Msg


@dataclass(frozen=True)
class Layer:
    """One config file (or the -c overrides) as read, with whatever went wrong reading it."""

    kind: str  # system | user | profile | project | override
    label: str  # path shown to the user (home as ~), or "-c"
    path: Path | None
    exists: bool
    data: Mapping[str, Any] | None = None
    lines: Mapping[tuple[str, ...], int] = field(default_factory=dict)
    toml_problem: tomlsource.TomlProblem | None = None
    read_error: str | None = None  # a safefile.Reason (its Chinese beside it), or the operating system's words
    encoding: str = "utf-8"
    crlf: bool = False
    # 1-based lines of the TOML error that hold a backslash inside double quotes ("C:\Users\me")
    backslash_in_string: bool = False
    # Why Codex does not merge this layer (an untrusted project), or None when it does.
    ignored: str | None = None

    @property
    def read_error_said(self) -> Msg | None:
        """Why the file could not be read, in both languages."""
        if self.read_error is None:
            return None
        return Msg.pair(self.read_error, safefile.reason_zh(self.read_error))

    def where(self, path: tuple[str, ...]) -> str:
        if self.kind == "override":
            return "-c " + ".".join(path)
        line = self.lines.get(path)
        return f"{self.label}:{line}" if line else self.label


UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
# What Codex 0.171.0 says of a UTF-16 config (Rust's Utf8Error on the first byte of the BOM), checked with the real
# CLI: scripts/crosscheck_config_semantics.py, case "config UTF-16".
UTF16_ERROR = safefile.Reason(
    "saved as UTF-16, and Codex reads only UTF-8: it stops with `invalid utf-8 sequence of 1 bytes from index 0`",
    "以 UTF-16 保存，而 Codex 只读 UTF-8：它会报 `invalid utf-8 sequence of 1 bytes from index 0` 并停止",
)


def decode_config_bytes(raw: bytes) -> tuple[str, str]:
    """Decode a config file as Codex does; returns (text, encoding). Raises UnicodeDecodeError.

    A UTF-8 byte-order mark is skipped (Codex's TOML parser skips it too: checked with Codex 0.171.0); UTF-16 is not
    decoded, because Codex cannot read it: the caller reports it as unreadable."""
    if raw.startswith(b"\xef\xbb\xbf"):
        return raw[3:].decode("utf-8"), "utf-8-sig"
    return raw.decode("utf-8"), "utf-8"


def read_layer(kind: str, path: Path, home: Path) -> Layer:
    label = shorten_home(str(path), str(home))
    try:
        raw = safefile.read_capped(path)
    except FileNotFoundError:
        return Layer(kind, label, path, exists=False)
    except safefile.Unreadable as exc:  # a FIFO, device, socket, folder, symlink loop, or far too large
        return Layer(kind, label, path, exists=True, read_error=exc.reason)
    except OSError as exc:
        return Layer(kind, label, path, exists=True, read_error=exc.strerror or exc.__class__.__name__)
    if raw.startswith(UTF16_BOMS):  # Notepad's "Unicode"
        return Layer(kind, label, path, exists=True, encoding="utf-16", read_error=UTF16_ERROR)
    try:
        text, encoding = decode_config_bytes(raw)
    except UnicodeDecodeError as exc:
        return Layer(
            kind,
            label,
            path,
            exists=True,
            read_error=safefile.Reason(
                f"not valid UTF-8 (byte {exc.start})", f"不是合法的 UTF-8（第 {exc.start} 字节）"
            ),
        )
    data, problem = tomlsource.parse(text)
    backslash = False
    if problem is not None and problem.line:
        lines = text.splitlines()
        bad = lines[problem.line - 1] if 0 < problem.line <= len(lines) else ""
        backslash = "\\" in bad and '"' in bad
    return Layer(
        kind,
        label,
        path,
        exists=True,
        data=data,
        lines=tomlsource.key_lines(text),
        toml_problem=problem,
        encoding=encoding,
        crlf="\r\n" in text,
        backslash_in_string=backslash,
    )
