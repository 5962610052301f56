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


LANGS = ("en", "zh")


def argv_lang(argv: list[str]) -> str | None:
    """`--lang zh` / `--lang=zh` on the command line, read before click parses it (its own errors need it).

    It may come before the command (`codexdoctor --lang zh check`) or after it; given twice, the last one wins, as
    click's per-command option wins over the one before the command. A value that is not a language (`--lang fr`,
    which click refuses) leaves the locale to decide, so that the refusal is in the user's language."""
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":  # what follows is an argument, not an option
            break
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else arg[7:] if arg.startswith("--lang=") else None
        if value in LANGS:
            found = value
    return found
