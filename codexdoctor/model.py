"""Frozen data objects that flow one way: CheckResult -> Finding -> Report."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# The `url` fact of a pasted error that names no URL: produced by checks/diagnose.py, read by the rule engine
# (which then writes "the request" instead of "POST <url>"). A fact value both stages share, so it lives here.
NO_URL_IN_PASTE = "(no URL in the paste)"


class Status(str, enum.Enum):
    """Closed set of check outcomes; `crash` keeps one broken check from killing the report."""

    PASS = "pass"  # noqa: S105 - a check status, not a password
    WARN = "warn"
    FAIL = "fail"
    SKIP = "skip"
    CRASH = "crash"


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 3, "warning": 2, "info": 1}[self.value]


class Verdict(str, enum.Enum):
    """The answer to the user's one question."""

    OK = "ok"
    CONFIG = "config"
    CHANNEL = "channel"
    CONTEXT = "context"
    INCONCLUSIVE = "inconclusive"


@dataclass(frozen=True)
class CheckResult:
    """Facts one check gathered. It never decides the diagnosis; rules do.

    `facts` are machine-readable (rules read them); `evidence` are short
    human-readable lines already redacted (status codes, redacted URLs,
    timings, token counts).
    """

    id: str
    title: str
    status: Status
    summary: str
    facts: Mapping[str, Any] = field(default_factory=dict)
    evidence: tuple[str, ...] = ()
    duration_ms: float | None = None


@dataclass(frozen=True)
class Finding:
    """A rule that fired, with its text rendered and the check results it cites."""

    code: str
    severity: Severity
    verdict: Verdict
    title: str
    diagnosis: str
    remedy: tuple[str, ...]
    checks: tuple[str, ...]
    evidence: tuple[str, ...] = ()
    references: tuple[str, ...] = ()
    # Findings this one explains ("this is why"), folded under it: (code, title) each. Their evidence is in `evidence`.
    explains: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ProviderSummary:
    """The resolved provider as it may be shown: every value already redacted."""

    id: str
    name: str
    builtin: bool
    base_url: str
    request_url: str
    wire_api: str
    model: str
    env_key: str | None
    key: str  # "set, 51 chars, sha256:1a2b3c4d" or "unset"
    config_path: str | None


@dataclass(frozen=True)
class Section:
    """Extra measured material a command shows (the probe's step table and chart); renderers lay it out."""

    id: str
    title: str
    headers: tuple[str, ...] = ()
    rows: tuple[tuple[Any, ...], ...] = ()
    chart: tuple[tuple[float, float], ...] = ()  # (x, y) points, e.g. (tokens sent, time to first token ms)
    chart_x: str = ""
    chart_y: str = ""
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Report:
    """The only object renderers see."""

    schema_version: str
    tool_version: str
    command: str
    verdict: Verdict
    verdict_reason: str
    checks: tuple[CheckResult, ...]
    findings: tuple[Finding, ...]
    environment: Mapping[str, Any]
    provider: ProviderSummary | None
    notes: tuple[str, ...] = ()
    lang: str = "en"
    sections: tuple[Section, ...] = ()

    def worst_severity(self) -> Severity | None:
        ranks = [f.severity for f in self.findings]
        return max(ranks, key=lambda s: s.rank) if ranks else None
