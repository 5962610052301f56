"""Collect every secret the resolved config can reach, so the redactor can scrub them all."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from urllib.parse import parse_qsl, urlsplit

from codexdoctor.codex.authfile import display_env_key
from codexdoctor.codex.config import BUILTIN_PROVIDERS, TOP_LEVEL_ONLY, Resolution
from codexdoctor.common.redact import is_secret_query_value
from codexdoctor.model import Msg

# Provider keys whose string value is no secret: names and URLs (their credentials are taken apart below), and the
# numeric and boolean settings, where a string is a mistyped number ("300000") that a report must show to fix it.
_NOT_SECRET = (
    "name",
    "base_url",
    "wire_api",
    "env_key_instructions",
    "request_max_retries",
    "stream_max_retries",
    "stream_idle_timeout_ms",
    "websocket_connect_timeout_ms",
    "requires_openai_auth",
    "supports_websockets",
)


def collect(resolution: Resolution, env: Mapping[str, str]) -> list[str]:
    p = resolution.provider
    secrets: list[str] = []
    env_key = p.env_key
    if isinstance(env_key, str):
        if display_env_key(env_key) != env_key:
            secrets.append(env_key)
        if env.get(env_key):
            secrets.append(env[env_key])
    for key in ("OPENAI_API_KEY", "CODEX_API_KEY"):
        if env.get(key):
            secrets.append(env[key])
    from codexdoctor.codex.authfile import stored_api_key

    stored = stored_api_key(resolution.codex_home) if resolution.codex_home_problem is None else None
    if stored:
        secrets.append(stored)
    token = p.get("experimental_bearer_token")
    if isinstance(token, str):
        secrets.append(token)
    secrets += _table_values(p.get("query_params"))
    secrets += _table_values(p.get("http_headers"))
    env_headers = p.get("env_http_headers")
    if isinstance(env_headers, Mapping):
        secrets += [env[v] for v in env_headers.values() if isinstance(v, str) and env.get(v)]
    # Anything typed where a key should not be: misspelled api_key = "sk-…" in any provider table.
    # A provider id (a table's name, a built-in's) is no secret, nor a top-level setting written inside a table
    # (`model_provider = "taotoken"` appended after [model_providers.taotoken]): a report names them to fix them.
    tables = resolution.merged.get("model_providers")
    if isinstance(tables, Mapping):
        ids = {*tables, *BUILTIN_PROVIDERS}
        for table in tables.values():
            if isinstance(table, Mapping):
                for key, value in table.items():
                    if key == "env_key" and isinstance(value, str) and display_env_key(value) == value:
                        continue
                    if key in TOP_LEVEL_ONLY or (isinstance(value, str) and value in ids):
                        continue
                    if isinstance(value, str) and value.strip().lower().startswith(("http://", "https://")):
                        secrets += _url_secrets(value)  # a URL under a misspelled key: only its credentials are secret
                        continue
                    if isinstance(value, str) and key not in _NOT_SECRET:
                        secrets.append(value)
                    if key == "base_url" and isinstance(value, str):
                        secrets += _url_secrets(value)
    if isinstance(p.base_url, str):
        secrets += _url_secrets(p.base_url)
    return [s for s in secrets if isinstance(s, str) and len(s.strip()) >= 4]


def _table_values(table: object) -> Iterable[str]:
    if isinstance(table, Mapping):
        return [str(v) for v in table.values() if v is not None and len(str(v)) >= 8]
    return []


def _url_secrets(url: str) -> list[str]:
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return []
    found = [x for x in (parts.password, parts.username) if x]
    # Credentials by name or shape; a tracking tag (utm_source=blog_end) is no secret and must stay readable.
    found += [v for k, v in parse_qsl(parts.query) if len(v) >= 8 and is_secret_query_value(k, v)]
    return found


# A fingerprint as a fact holds it (`51 chars, sha256:1a2b3c4d`), alone or in <> (an env_key that is itself a key).
_FINGERPRINT = re.compile(r"(?P<open><?)(?P<n>\d+) chars, sha256:(?P<digest>[0-9a-f]{8})(?P<close>>?)")


def fingerprint_said(fp: str) -> Msg | None:
    """A fingerprint fact in words, `51 chars, sha256:1a2b3c4d` / `51 个字符，sha256:1a2b3c4d` (its English is the fact
    as it is); None for a value that is not one."""
    m = _FINGERPRINT.fullmatch(fp)
    if m is None or bool(m["open"]) != bool(m["close"]):
        return None
    return Msg(
        "{open}{n} chars, sha256:{digest}{close}",
        "{open}{n} 个字符，sha256:{digest}{close}",
        open=m["open"],
        n=int(m["n"]),
        digest=m["digest"],
        close=m["close"],
    )
