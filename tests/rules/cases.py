"""Rule cases as data: a check's facts, changed from a healthy run, and whether a code fires (ruff's fixtures)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from codexdoctor.model import CheckResult, Finding, Status
from codexdoctor.rules import RULES_BY_CODE, evaluate
from tests.rules.healthy import HEALTHY

ABSENT: Any = object()  # a change that takes the key out of the healthy facts (a key the check sets on some runs only)

_UNFILLED = re.compile(r"\{([a-z_0-9]+)(?::[^}]*)?\}")

# Texts that use a value their check never gives, found by these tests and left as they are (this change keeps
# behaviour as it was; issue 37 has them): (code, placeholder) -> what the user sees.
KNOWN_GAPS = {
    ("CFG027", "user_config"): "cfg.files has no user_config fact: both remedy steps show a literal {user_config}",
    ("CTX002", "first_text"): "ctx.window has no first_parts fact: it always says (instructions plus tool schemas)",
    ("CTX002", "docs_step"): "ctx.window has no first_parts fact: its step never names the user's own instructions",
}


@dataclass(frozen=True)
class Case:
    code: str
    changes: Mapping[str, Any]  # keys of the rule's check whose values differ from the healthy run
    fires: bool
    says: tuple[str, ...] = ()  # each appears in the English finding: title, diagnosis or a remedy step
    count: int = 1  # findings it gives
    # Other checks that ran, as changes to their healthy facts: the settlers a rule names (settled_by).
    others: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    why: str = ""  # what the case shows, when the changes do not say it
    # Placeholders the finding leaves as they are: a text that reads a fact its check does not give (a known gap,
    # said in KNOWN_GAPS or by the case's `why`). Empty for every case that works as it should.
    unfilled: tuple[str, ...] = ()

    def __str__(self) -> str:
        keys = ",".join(self.changes) or "healthy"
        return f"{self.code}-{'fires' if self.fires else 'silent'}-{self.why or keys}"

    def facts(self, check: str | None = None) -> dict[str, Any]:
        """The facts of the rule's check (or of another check this case runs)."""
        check = check or RULES_BY_CODE[self.code].check
        changes = self.changes if check == RULES_BY_CODE[self.code].check else self.others[check]
        return {k: v for k, v in {**HEALTHY[check], **changes}.items() if v is not ABSENT}


def fires(code: str, changes: Mapping[str, Any], *says: str, count: int = 1, **kw: Any) -> Case:
    return Case(code, changes, True, says, count, **kw)


def silent(code: str, changes: Mapping[str, Any], **kw: Any) -> Case:
    return Case(code, changes, False, **kw)


def run(case: Case, lang: str = "en") -> list[Finding]:
    """The rule of the case over its facts (and the other checks it names), as the engine applies it."""
    rule = RULES_BY_CODE[case.code]
    results = [CheckResult(rule.check, rule.check, Status.FAIL, "", case.facts())]
    results += [CheckResult(cid, cid, Status.PASS, "", case.facts(cid)) for cid in case.others]
    return evaluate(results, [rule], lang)


def text(finding: Finding) -> str:
    return "\n".join((finding.title, finding.diagnosis, *finding.remedy))


def check(case: Case) -> None:
    """Fires with what it says, in both languages and with every placeholder filled; or stays silent."""
    found = run(case)
    if not case.fires:
        assert found == [], [text(f) for f in found]
        return
    assert len(found) == case.count, [text(f) for f in found]
    for said in case.says:
        assert any(said in text(f) for f in found), (said, [text(f) for f in found])
    chinese = run(case, "zh")
    assert len(chinese) == case.count
    for f in found + chinese:
        assert set(_UNFILLED.findall(text(f))) == set(case.unfilled), text(f)
