"""Which language a run speaks, decided before anything else is imported.

Kept apart from `codexdoctor.i18n` (its tables and patterns cost 6-11 ms to import): `main` decides the language of
every run, `codexdoctor --version` included, and only a Chinese run needs the tables.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: the entry point loads this module before anything heavy
if TYPE_CHECKING:
    from collections.abc import Mapping


def detect_lang(env: Mapping[str, str]) -> str:
    """LC_ALL, then LC_MESSAGES, then LANG, as POSIX orders them; zh_* -> zh, anything else -> en."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def argv_lang(argv: list[str]) -> str | None:
    """`--lang zh` / `--lang=zh` on the command line, read before click parses it (its own errors need it)."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None
