"""Issue 40 (review): `demo`'s table had a column whose header was empty (a lone `-` under it): every column has a
header in both languages."""

from __future__ import annotations

import pytest

from codexdoctor.commands.demo import SCENARIOS, Outcome, table
from codexdoctor.model import Report, Verdict


def report_of(verdict: str) -> Report:
    return Report("1", "0", "check", Verdict(verdict), "", (), (), {}, None)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [80, 120])
def test_every_column_has_a_header(lang, width):
    outcomes = [Outcome(s, report_of(s.expected)) for s in SCENARIOS[:3]]
    lines = table(outcomes, lang=lang, width=width).splitlines()
    rule = next(i for i, line in enumerate(lines) if set(line) <= {"-", " "} and "-" in line)
    header, dashes = " ".join(lines[:rule]), lines[rule]
    columns = [part for part in dashes.split("  ") if part.strip()]
    assert all(set(c.strip()) == {"-"} for c in columns)
    assert len(columns) == 6 and ("match" in header if lang == "en" else "一致" in header), lines[: rule + 1]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_narrow_screen_names_the_column_on_each_block(lang):
    """At 60 columns each row is a block of "header  value" lines: the ✓ had no name before it."""
    outcomes = [Outcome(s, report_of(s.expected)) for s in SCENARIOS[:3]]
    lines = table(outcomes, lang=lang, width=60).splitlines()
    marks = [line for line in lines if line.rstrip().endswith(("✓", "✗"))]
    assert len(marks) == 3 and all(line.startswith("match" if lang == "en" else "一致") for line in marks), lines
