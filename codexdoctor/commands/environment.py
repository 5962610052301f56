"""What this process was started with: its environment, the home folder, the report language.

Kept apart from `options` (which resolves Codex's config and loads the checks) so that `explain`, `rules` and
`demo` need not import any of that to learn the language."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def environment() -> dict[str, str]:
    return dict(os.environ)


def home_of(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or env.get("USERPROFILE") or str(Path.home()))


def language(value: str | None) -> str:
    """--lang when given, else the locale's (LC_ALL / LC_MESSAGES / LANG)."""
    from codexdoctor.common.lang import detect_lang

    return value or detect_lang(os.environ)
