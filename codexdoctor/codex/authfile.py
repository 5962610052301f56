"""Codex's stored login ($CODEX_HOME/auth.json), read in one place; the key itself never leaves this module's callers' hands."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from codexdoctor.common import outside_json as outside
from codexdoctor.common import safefile
from codexdoctor.common.redact import fingerprint

VAR_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
KEY_SHAPED = re.compile(r"^(sk|pk|rk|tt|ak|gsk|xai)[-_]|^[A-Za-z0-9_\-]{32,}$")


def is_var_name(value: object) -> bool:
    return isinstance(value, str) and bool(VAR_NAME.match(value))


def display_env_key(env_key: str) -> str:
    """The env_key value as it may be shown: a name as is, a pasted key only as its fingerprint."""
    if VAR_NAME.match(env_key) and not KEY_SHAPED.search(env_key):
        return env_key
    return f"<{fingerprint(env_key)}>"


def read_auth_json(codex_home: Path) -> dict[str, Any]:
    """What the stored login is (mode, whether a key or tokens are stored), plus `_stored`: the raw key or None."""
    path = codex_home / "auth.json"
    try:
        parsed = outside.parse(safefile.read_capped(path).decode("utf-8"))  # a hand-edited file is outside text too
    except FileNotFoundError:
        return {"exists": False, "_stored": None}
    except safefile.Unreadable as exc:
        return {"exists": True, "error": str(exc), "_stored": None}
    except (OSError, UnicodeDecodeError) as exc:
        return {"exists": True, "error": type(exc).__name__, "_stored": None}
    data = outside.obj(parsed.value)
    if data is None:
        return {"exists": True, "error": parsed.malformed or "not a JSON object", "_stored": None}
    mode = outside.text(data, "auth_mode") or (
        "chatgpt" if data.get("tokens") else "apikey" if data.get("OPENAI_API_KEY") else None
    )
    stored = outside.text(data, "OPENAI_API_KEY")
    stored = stored if stored and stored.strip() else None
    return {
        "exists": True,
        "mode": mode,
        "has_api_key": stored is not None,
        "has_tokens": bool(data.get("tokens")),
        "api_key_fp": fingerprint(stored) if stored else None,
        "_stored": stored,
    }


def stored_api_key(codex_home: Path) -> str | None:
    """The API key `codex login --with-api-key` stored, or None (a ChatGPT sign-in stores tokens, not a key)."""
    stored = read_auth_json(codex_home)["_stored"]
    return stored if isinstance(stored, str) else None
