"""CTX: context and session, one module per theme.

Chinese texts keep the English placeholders; config keys, commands, product names and codes stay untranslated.
"""

from __future__ import annotations

from codexdoctor.rules.base import Rule, in_order
from codexdoctor.rules.ctx import pasted, probe, sessions, tooloutput, usage, watch, window

# The order `codexdoctor rules` and docs/rules.md list the family in: a new code goes next to its kin.
ORDER = (
    "CTX001",
    "CTX033",
    "CTX027",
    "CTX028",
    "CTX029",
    "CTX034",
    "CTX025",
    "CTX002",
    "CTX004",
    "CTX005",
    "CTX006",
    "CTX007",
    "CTX008",
    "CTX009",
    "CTX010",
    "CTX030",
    "CTX011",
    "CTX012",
    "CTX013",
    "CTX014",
    "CTX015",
    "CTX031",
    "CTX026",
    "CTX016",
    "CTX017",
    "CTX018",
    "CTX019",
    "CTX020",
    "CTX021",
    "CTX022",
    "CTX023",
    "CTX003",
    "CTX024",
    "CTX032",
    "CTX040",
    "CTX046",
    "CTX047",
    "CTX041",
    "CTX042",
    "CTX043",
    "CTX044",
    "CTX045",
)
RULES: tuple[Rule, ...] = in_order(
    ORDER, window.RULES, tooloutput.RULES, probe.RULES, sessions.RULES, usage.RULES, pasted.RULES, watch.RULES
)
