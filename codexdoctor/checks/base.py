"""What every check receives and returns; side effects arrive injected in CheckContext."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codexdoctor.codex.config import Provider, Resolution
from codexdoctor.codex.secrets import fingerprint_said
from codexdoctor.common.redact import Redactor
from codexdoctor.common.shells import Shell
from codexdoctor.model import CheckResult, Line, Msg, Status


@dataclass(frozen=True)
class CheckContext:
    """Everything a check may look at. Tests build one with a fake env and a temp home."""

    resolution: Resolution
    env: Mapping[str, str]
    home: Path
    redactor: Redactor
    codex_version: tuple[int, ...] | None = None
    offline: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    shell: Shell = field(default_factory=lambda: Shell("bash", "linux"))

    def stamp(self, res: CheckResult) -> CheckResult:
        """Add the shell and platform to a result's facts, so remedies come out in the user's syntax; and say its
        key fingerprints (`key_fingerprint`, `shell_fp`, an env_key that is a key, …) in both languages, for the rules
        that quote them (issue 40: "（3 chars, sha256:…）" in a Chinese finding)."""
        from dataclasses import replace

        return replace(
            res,
            facts={**res.facts, "shell": self.shell.name, "platform": self.shell.platform},
            said={**fingerprints_said(res.facts), **res.said},
        )

    @property
    def provider(self) -> Provider:
        return self.resolution.provider

    def key_value(self) -> str | None:
        """The raw key Codex would send, or None. Never put this in facts or evidence."""
        env_key = self.provider.env_key
        if isinstance(env_key, str) and env_key:
            value = self.env.get(env_key)
            if value is not None:
                return value
        token = self.provider.get("experimental_bearer_token")
        if isinstance(token, str) and token:
            return token
        if self.uses_stored_login:
            from codexdoctor.codex.authfile import stored_api_key

            stored = stored_api_key(self.resolution.codex_home)
            if stored is None and self.provider.builtin:
                # `codex exec` sends $CODEX_API_KEY to the built-in provider then (checked with Codex 0.171.0); the
                # interactive CLI sends nothing, which ENV022 says.
                return (self.env.get("CODEX_API_KEY") or "").strip() or None
            return stored
        return None

    @property
    def uses_stored_login(self) -> bool:
        """The built-in openai provider, or requires_openai_auth: Codex sends the login stored in auth.json."""
        p = self.provider
        return (p.builtin and p.id == "openai") or p.get("requires_openai_auth") is True


@dataclass(frozen=True)
class Check:
    """A registered check: a stable id, a title, the function, and whether it needs the network."""

    id: str
    title: str
    run: Callable[[CheckContext], CheckResult]
    live: bool = False


def result(
    check_id: str, title: str, status: Status, summary: Msg, evidence: Iterable[Line] = (), /, **facts: Any
) -> CheckResult:
    """A check's result; its summary carries its Chinese with it (the English is the `summary` string)."""
    return CheckResult(
        id=check_id,
        title=title,
        status=status,
        summary=str(summary),
        facts=facts,
        evidence=tuple(evidence),
        message=summary,
    )


def crashed(check_id: str, title: str, exc: BaseException, redact: Callable[[str], str]) -> CheckResult:
    """The result of a check that raised: a bug in codexdoctor, so the report names it (and the run exits 3) rather
    than losing the other checks. The summary says what was raised and where, redacted (a message can quote a key)."""
    import traceback

    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f" at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}" if frame else ""
    said = Msg("internal error: {what}", "内部错误：{what}", what=redact(f"{type(exc).__name__}: {exc}{where}"))
    return CheckResult(check_id, title, Status.CRASH, str(said), facts={"exception": type(exc).__name__}, message=said)


def is_loopback_host(host: str | None) -> bool:
    """The host is this machine as Codex reaches it: its host parser first (`127。0。0。1`, `127.1`, `LOCALHOST`)."""
    from codexdoctor.common.hosts import is_loopback

    return host is not None and bool(host.strip()) and is_loopback(host.strip())


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance; names are short so the quadratic table is fine."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def normalise_name(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def fingerprints_said(facts: Mapping[str, Any]) -> dict[str, Msg]:
    """The facts that are a key's fingerprint, each in words (codex/secrets.fingerprint_said)."""
    said = {k: fingerprint_said(v) for k, v in facts.items() if isinstance(v, str)}
    return {k: m for k, m in said.items() if m is not None}
