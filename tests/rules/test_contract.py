"""Rules and checks agree: every fact a rule reads is declared for its check and named in its `reads`, every code has a
case that fires and one that stays silent, and the cases' facts are facts a check can produce."""

import importlib
import string
from collections.abc import Mapping
from typing import Any

import pytest

from codexdoctor.facts import FACTS, declared, mismatches
from codexdoctor.facts.shapes import Maybe, Nullable
from codexdoctor.rules import RULES, RULES_BY_CODE, settlers
from codexdoctor.rules.base import causes
from codexdoctor.rules.engine import DERIVED, derived
from tests.rules.cases import KNOWN_GAPS, Case
from tests.rules.healthy import HEALTHY

FAMILIES = ("cfg", "env", "url", "net", "auth", "api", "model", "ctx")
CASES: list[Case] = [c for f in FAMILIES for c in importlib.import_module(f"tests.rules.test_{f}").CASES]
RUNNER = {"shell", "platform"}  # stamped on every result by the check runner; derived values use them unnamed


class Recording(Mapping[str, Any]):
    """Facts that note every key looked up, nested ones as paths ("sessions[].kind")."""

    def __init__(self, data: Mapping[str, Any], log: set[str], path: str = "") -> None:
        self._data, self._log, self._path = data, log, path

    def __getitem__(self, key: str) -> Any:
        self._log.add(self._path + key)
        return _wrap(self._data[key], self._log, self._path + key)

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def _wrap(value: Any, log: set[str], path: str) -> Any:
    if isinstance(value, Mapping):
        return Recording(value, log, path + ".")
    if isinstance(value, list):
        return [_wrap(v, log, path + "[]") for v in value]
    return value


def _declared_path(shape: Any, path: str) -> bool:
    """Whether a looked-up path ("across.groups[].pattern") is a key the declaration has."""
    for token in path.replace("[]", ".[]").split("."):
        while isinstance(shape, (Maybe, Nullable)):
            shape = shape.shape
        if shape is Any or getattr(shape, "__origin__", None) is dict:
            return True
        if token == "[]":
            if isinstance(shape, list):
                shape = shape[0]
            elif getattr(shape, "__origin__", None) is list:
                shape = shape.__args__[0]
            else:
                return False
        elif isinstance(shape, dict) and token in shape:
            shape = shape[token]
        else:
            return False
    return True


def top(paths: set[str]) -> set[str]:
    return {p.split(".")[0].split("[")[0] for p in paths}


def own_reads(rule) -> set[str]:
    return {k for k in rule.reads if ":" not in k}


def other_reads(rule, check: str) -> set[str]:
    return {k.split(":", 1)[1] for k in rule.reads if k.startswith(check + ":")}


def placeholders(rule) -> set[str]:
    texts = [t for text in (rule.en, rule.zh) for t in (text.title, text.diagnosis, *text.remedy)]
    return {name for t in texts for _, name, _, _ in string.Formatter().parse(t) if name}


def cases_of(code: str) -> list[Case]:
    return [c for c in CASES if c.code == code]


def when_reads(rule, case: Case) -> set[str]:
    log: set[str] = set()
    list(rule.when(Recording(case.facts(), log)))
    return log


def settler_reads(rule, case: Case) -> dict[str, set[str]]:
    logs: dict[str, set[str]] = {}
    for cid, pred in settlers(rule):
        log = logs.setdefault(cid, set())
        pred(Recording(case.facts(cid) if cid in case.others else HEALTHY[cid], log))
    for _code, pred in causes(rule):
        checks = {rule.check: case.facts(), **{cid: case.facts(cid) for cid in case.others}}
        recorded = {cid: Recording(f, logs.setdefault(cid, set())) for cid, f in checks.items()}
        pred(recorded)
    return logs


def text_needs(rule) -> set[str]:
    """The facts a rule's texts take from its check: placeholders its `when` does not fill, and for a DERIVED value
    the facts it is made from. Of a known gap, only the facts the check does give."""
    needs: set[str] = set()
    for case in (c for c in cases_of(rule.code) if c.fires):
        params = [p for p in rule.when(case.facts())]
        for name in placeholders(rule):
            if all(name in p for p in params):
                continue
            sources = set(DERIVED[name]) if name in DERIVED else {name}
            if (rule.code, name) in KNOWN_GAPS:
                sources &= declared(rule.check)
            needs |= sources
    return needs


def test_every_code_has_a_case_that_fires_and_one_that_stays_silent():
    for rule in RULES:
        kinds = {c.fires for c in cases_of(rule.code)}
        assert kinds == {True, False}, f"{rule.code} needs a case that fires and one that stays silent"
    assert {c.code for c in CASES} <= set(RULES_BY_CODE)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_case_facts_are_facts_a_check_can_produce(case):
    rule = RULES_BY_CODE[case.code]
    assert mismatches(rule.check, case.facts()) == []
    for cid in case.others:
        assert mismatches(cid, case.facts(cid)) == []


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_every_fact_a_rule_reads_is_declared_for_its_check(rule):
    assert rule.reads, f"{rule.code} names no facts"
    for key in rule.reads:
        check, _, name = key.rpartition(":")
        assert name in declared(check or rule.check), f"{rule.code} reads {key}, which {check or rule.check} never sets"


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_a_rule_reads_only_declared_facts_and_names_them(rule):
    used: set[str] = set()
    used_elsewhere: dict[str, set[str]] = {}
    for case in cases_of(rule.code):
        paths = when_reads(rule, case)
        undeclared = {p for p in paths if not _declared_path(FACTS[rule.check], p)}
        assert not undeclared, f"{rule.code} ({case}) reads {sorted(undeclared)}, not declared for {rule.check}"
        assert top(paths) <= own_reads(rule), f"{rule.code} reads {sorted(top(paths) - own_reads(rule))} unnamed"
        used |= top(paths)
        for cid, log in settler_reads(rule, case).items():
            assert all(_declared_path(FACTS[cid], p) for p in log), (rule.code, cid, log)
            named = own_reads(rule) if cid == rule.check else other_reads(rule, cid)
            assert top(log) <= named, f"{rule.code}'s settler reads {cid}:{sorted(top(log) - named)} unnamed"
            used_elsewhere.setdefault(cid, set()).update(top(log))
    needs = text_needs(rule)
    assert needs <= own_reads(rule), f"{rule.code}'s texts use {sorted(needs - own_reads(rule))}, not in its reads"
    stale = own_reads(rule) - used - needs - used_elsewhere.get(rule.check, set())
    assert not stale, f"{rule.code} names {sorted(stale)} in reads but never reads them"
    for key in {k for k in rule.reads if ":" in k}:
        cid, name = key.split(":", 1)
        assert name in used_elsewhere.get(cid, set()), f"{rule.code} names {key} but its settlers never read it"


def test_every_placeholder_is_filled_from_facts_params_or_derived_values():
    for rule in RULES:
        params = {k for c in cases_of(rule.code) if c.fires for p in rule.when(c.facts()) for k in p}
        for name in placeholders(rule) - params - set(DERIVED):
            if (rule.code, name) not in KNOWN_GAPS:
                assert name in declared(rule.check), f"{rule.code} uses {{{name}}}, which nothing gives"


def test_known_gaps_are_still_gaps():
    """When a check starts giving the missing fact, its entry goes (and the case's `unfilled` with it)."""
    for code, name in KNOWN_GAPS:
        rule = RULES_BY_CODE[code]
        sources = DERIVED.get(name, (name,))
        assert not all(s in declared(rule.check) for s in sources), f"{code} {{{name}}} is filled now"


def test_derived_values_are_the_ones_the_engine_lists():
    for case in CASES:
        log: set[str] = set()
        names = set(derived(Recording(case.facts(), log)))
        assert names <= set(DERIVED), sorted(names - set(DERIVED))
        sources = set().union(*DERIVED.values()) | RUNNER
        assert top(log) <= sources, f"derived() reads {sorted(top(log) - sources)}, which DERIVED does not list"
