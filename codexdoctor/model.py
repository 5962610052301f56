"""Frozen data objects that flow one way: CheckResult -> Finding -> Report."""

from __future__ import annotations

import enum
import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar, Union

# The `url` fact of a pasted error that names no URL: produced by checks/diagnose.py, read by the rule engine
# (which then writes "the request" instead of "POST <url>"). A fact value both stages share, so it lives here.
NO_URL_IN_PASTE = "(no URL in the paste)"


Param = Union[str, int, float, "Msg"]
# One evidence line: a Msg (words, said in the report's language, its data in parameters), or a plain string that is
# data alone (a redacted URL, a path with its line), the same in every language.
Line = Union[str, "Msg"]


# A Chinese template keeps a space between a value and the Chinese around it for a Latin value (`返回 {status}`,
# `{table} 中的 `); a value said in Chinese takes none there (`顶层中的`, never `顶层 中的`: issue 40). Each value is
# marked while a Chinese template is filled, and a space at a mark between two Chinese characters (or full-width
# stops) goes; a space inside a value, or one the template keeps between its own words, stays.
_VALUE_IN, _VALUE_OUT = "\x0e", "\x0f"
_HAN = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
_SPACE_AT_VALUE = re.compile(f"(?<=[{_HAN}])({_VALUE_OUT}?) ({_VALUE_IN}?)(?=[{_HAN}])")


class MarkedFormatter(string.Formatter):
    """str.format that marks each value it fills in (fill_zh takes the marks out)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        return _VALUE_IN + str(super().format_field(value, format_spec)) + _VALUE_OUT


def unmark_zh(text: str) -> str:
    """A Chinese template's text filled by a MarkedFormatter: no space between a Chinese value and Chinese, no mark."""
    if _VALUE_IN not in text:
        return text
    text = _SPACE_AT_VALUE.sub(lambda m: m.group(1) + m.group(2) if m.group(1) or m.group(2) else " ", text)
    return text.replace(_VALUE_IN, "").replace(_VALUE_OUT, "")


def fill_zh(template: str, values: Mapping[str, Any]) -> str:
    """A Chinese template filled: `template.format_map(values)`, without the space a Latin value would have had
    beside a value said in Chinese (only a template with a space beside a placeholder takes the slower way)."""
    if " {" not in template and "} " not in template:
        return template.format_map(values)
    return unmark_zh(MarkedFormatter().vformat(template, (), values))


def item_key(key: str, english: str) -> str:
    """The key in CheckResult.said of a phrase inside a list fact (a file's `read_error`, a session's `evidence`):
    the fact's name and the phrase's English. A rule quotes such a phrase item by item (rules/engine.py)."""
    return f"{key}:{english}"


@dataclass(frozen=True)
class Msg:
    """What a check, a note or a verdict reason tells the user, in English and Chinese side by side, the way a rule's
    texts are (rules/base.py): two `str.format` templates and the parameters that fill them.

    `Msg("{path} does not exist", "{path} 不存在", path=shown)`. A parameter may be a Msg itself (a nested phrase,
    said in the same language), or a number (a spec such as `{n:,}` formats it). The English and Chinese templates
    may use different parameters (English plurals: `keys=plural(n, "key")` beside `{n:,} 个键`), but every
    placeholder is filled (tests/test_i18n.py renders every Msg in the code in both languages)."""

    en: str
    zh: str
    params: tuple[tuple[str, Param], ...] = ()

    # Written by hand (the dataclass keeps it) so parameters are keywords; `params` as a field keeps replace() working.
    def __init__(self, en: str, zh: str, params: tuple[tuple[str, Param], ...] = (), **named: Param) -> None:
        object.__setattr__(self, "en", en)
        object.__setattr__(self, "zh", zh)
        object.__setattr__(self, "params", tuple(params) + tuple(named.items()))

    @classmethod
    def join(cls, parts: Sequence[Param], en: str = ", ", zh: str = "、") -> Msg:
        """Phrases in a list: `a, b` in English, `a、b` in Chinese, each said in the language of the whole."""
        names = [f"p{i}" for i in range(len(parts))]
        return cls(
            en.join("{" + n + "}" for n in names),
            zh.join("{" + n + "}" for n in names),
            tuple(zip(names, parts, strict=True)),
        )

    @classmethod
    def tally(cls, parts: Sequence[Param], measure: Literal["次", "个"] = "次") -> Msg:
        """A list with each repeated phrase said once, after its count, in the order first seen: `reset, 2 × 502` in
        English, `连接被重置、2 次 502` in Chinese (`measure` the counting word: 次, 个); a phrase seen once as it is."""
        counts: dict[Param, int] = {}  # a dict keeps the order first seen
        for part in parts:
            counts[part] = counts.get(part, 0) + 1
        return cls.join([part if n == 1 else _counted(part, n, measure) for part, n in counts.items()])

    @classmethod
    def pair(cls, en: str, zh: str) -> Msg:
        """A finished English text and its Chinese (no placeholders: a brace in either is shown as it is)."""
        return cls("{en_}", "{zh_}", en_=en, zh_=zh)

    @classmethod
    def verbatim(cls, text: str) -> Msg:
        """Words from outside (an error's own text, an OS reason) or a value, the same in every language."""
        return cls("{text}", "{text}", text=text)

    def text(self, lang: str) -> str:
        """The message in `lang` (Chinese for zh, English otherwise)."""
        values = {k: v.text(lang) if isinstance(v, Msg) else v for k, v in self.params}
        return fill_zh(self.zh, values) if lang == "zh" else self.en.format_map(values)

    def redacted(self, redact: Callable[[str], str]) -> Msg:
        """The same message with every text parameter (outside words: an error's own text, a URL) through `redact`;
        the templates are codexdoctor's own."""
        params = tuple(
            (k, v.redacted(redact) if isinstance(v, Msg) else redact(v) if isinstance(v, str) else v)
            for k, v in self.params
        )
        return replace(self, params=params)

    def __str__(self) -> str:
        return self.text("en")


def _counted(part: Param, n: int, measure: Literal["次", "个"]) -> Msg:
    """`5 × rate_limit_exceeded`; `5 次 rate_limit_exceeded`, `2 次连接被重置`: a space before Latin or digits only."""
    latin = (part.text("zh") if isinstance(part, Msg) else str(part))[:1].isascii()
    if measure == "个":
        return (
            Msg("{n} × {part}", "{n} 个 {part}", n=n, part=part)
            if latin
            else Msg("{n} × {part}", "{n} 个{part}", n=n, part=part)
        )
    return (
        Msg("{n} × {part}", "{n} 次 {part}", n=n, part=part)
        if latin
        else Msg("{n} × {part}", "{n} 次{part}", n=n, part=part)
    )


def say(text: str | Msg, lang: str) -> str:
    """A text in `lang`: a Msg in its own words; a plain string (a value, a path) as it is."""
    return text.text(lang) if isinstance(text, Msg) else text


def redact_line(line: Line, redact: Callable[[str], str]) -> Line:
    """An evidence line through `redact`: a plain string whole, a Msg parameter by parameter (each outside text whole;
    the report redacts the line again whole once it is said, report/build.py)."""
    return line.redacted(redact) if isinstance(line, Msg) else redact(line)


ErrorT = TypeVar("ErrorT", bound=BaseException)


def said_error(exc: ErrorT, said: Msg) -> ErrorT:
    """An error whose message (its English) is said in both languages too: the command line's one error boundary
    (cli/__init__.py) shows `said` in the run's language."""
    setattr(exc, "said", said)  # noqa: B010 - an attribute every exception type may carry, typed by this function
    return exc


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
    timings, token counts), each a Msg said in the report's language (or a
    plain string that is data alone): the report holds them said (build.py).
    """

    id: str
    title: str
    status: Status
    summary: str
    facts: Mapping[str, Any] = field(default_factory=dict)
    evidence: tuple[Line, ...] = ()
    duration_ms: float | None = None
    # The summary in both languages (its English is `summary`); None for a check that still writes English only, which
    # the pattern table in codexdoctor/i18n translates. Not in the JSON report, whose summary is the chosen language.
    message: Msg | None = field(default=None, compare=False, metadata={"json": False})
    # `facts["inconclusive_reason"]` in both languages, for a check that writes it as a Msg (its English is the fact).
    reason: Msg | None = field(default=None, compare=False, metadata={"json": False})
    # Facts that are English phrases (a fact stays a plain JSON string), said in both languages: a rule that quotes
    # `facts[key]` quotes `said[key]` in the report's language instead.
    said: Mapping[str, Msg] = field(default_factory=dict, compare=False, metadata={"json": False})


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
    evidence: tuple[str, ...] = ()  # said in the report's language, as the texts above (rules/engine.py)
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
    # The values that are words rather than values ("unset", "(Codex default)"), by field, in both languages; not in
    # the JSON report, whose values are the English.
    said: Mapping[str, Msg] = field(default_factory=dict, compare=False, metadata={"json": False})

    def shown(self, name: str, lang: str) -> str:
        """A field as the report says it in `lang`: its words when it is words, else the value itself."""
        said = self.said.get(name)
        return said.text(lang) if said is not None else str(getattr(self, name))


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
