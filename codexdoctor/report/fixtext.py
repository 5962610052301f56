"""The chosen edits applied to a config file's text, in memory: renames on the key's own line, values through
tomlkit (comments, order and spacing kept); the result verified (it parses, and differs only at the intended keys)
and shown as a diff before anything is written (report/fixwrite.py)."""

from __future__ import annotations

import copy
import difflib
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codexdoctor.codex import tomlsource
from codexdoctor.codex.config import lookup
from codexdoctor.report.fixes import Edit, FixError, toml_value
from codexdoctor.report.fixwrite import write_target


def apply_edit(text: str, edit: Edit) -> str:
    if edit.op == "rename":
        line_no = tomlsource.key_lines(text).get(edit.table + (edit.key,))
        if not line_no:
            raise FixError(f"cannot find `{edit.key}` in {edit.shown}")
        lines = text.splitlines(keepends=True)
        pattern = re.compile(
            rf"^(\s*)(?:\"{re.escape(edit.key)}\"|'{re.escape(edit.key)}'|{re.escape(edit.key)})(\s*=)"
        )
        new, count = pattern.subn(lambda m: f"{m.group(1)}{edit.new_key}{m.group(2)}", lines[line_no - 1], count=1)
        if not count:
            raise FixError(f"`{edit.key}` on line {line_no} of {edit.shown} is not a plain key; rename it by hand")
        lines[line_no - 1] = new
        return "".join(lines)
    import tomlkit

    doc = tomlkit.parse(text)
    cur: Any = doc
    for part in edit.table:
        if part not in cur:
            cur[part] = tomlkit.table()
        cur = cur[part]
    cur[edit.key] = edit.value
    return tomlkit.dumps(doc)


def _get(data: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    return lookup(data, path, None)


def verify(before: str, after: str, edits: list[Edit]) -> None:
    """The new text parses, and differs from the old one exactly at the intended keys."""
    old, problem = tomlsource.parse(before)
    new, problem_after = tomlsource.parse(after)
    if problem_after is not None or new is None:
        raise FixError(f"the edited file would not parse ({problem_after.message if problem_after else 'unknown'})")
    if old is None:
        raise FixError("the file does not parse now; fix the syntax first (see CFG002)")
    intended = {e.target for e in edits} | {e.table + (e.key,) for e in edits if e.op == "rename"}

    def strip(data: Mapping[str, Any]) -> Any:
        out = copy.deepcopy(data)
        for path in intended:
            parent = _get(out, path[:-1]) if path[:-1] else out
            if isinstance(parent, dict):
                parent.pop(path[-1], None)
        return out

    if strip(old) != strip(new):
        raise FixError("the edit would change more than the intended keys; nothing was written")
    for e in edits:
        if e.op == "set" and _get(new, e.target) != e.value:
            raise FixError(f"`{'.'.join(e.target)}` did not end up as {toml_value(e.value)}")


def unified_diff(before: str, after: str, shown: str, lang: str = "en") -> str:
    now, fixed = ("（现在）", "（修复后）") if lang == "zh" else (" (now)", " (fixed)")
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"{shown}{now}",
            tofile=f"{shown}{fixed}",
        )
    )


@dataclass(frozen=True)
class FileChange:
    path: Path
    shown: str
    original: bytes
    before: str
    after: str
    edits: tuple[Edit, ...]


def prepare(plan_edits: list[Edit]) -> list[FileChange]:
    """Apply the chosen edits in memory, per file, and verify each result."""
    changes = []
    by_file: dict[Path, list[Edit]] = {}
    for e in plan_edits:
        by_file.setdefault(e.layer_path, []).append(e)
    for path, edits in by_file.items():
        original = path.read_bytes()
        before = original.decode("utf-8")
        text = before
        for e in sorted(edits, key=lambda e: e.op != "rename"):  # renames first: a value may then be set on the new key
            text = apply_edit(text, e)
        verify(before, text, edits)
        shown = edits[0].shown
        if path.is_symlink():  # dotfile managers link config.toml: the edit goes to the file it points at
            from codexdoctor.common.redact import shorten_home

            shown = f"{shown} (symlink to {shorten_home(str(write_target(path)), os.path.expanduser('~'))})"
        changes.append(FileChange(path, shown, original, before, text, tuple(edits)))
    return changes
