"""API: the request path and protocol, one module per theme.

Chinese texts keep the English placeholders; config keys, commands, product names and codes stay untranslated.
"""

from __future__ import annotations

from codexdoctor.rules.api import answer, capacity, path, stream, tools
from codexdoctor.rules.base import Rule, in_order

# The order `codexdoctor rules` and docs/rules.md list the family in: a new code goes next to its kin.
ORDER = (
    "API001",
    "API002",
    "API003",
    "API004",
    "API028",
    "API029",
    "API030",
    "API005",
    "API006",
    "API007",
    "API008",
    "API009",
    "API010",
    "API011",
    "API012",
    "API026",
    "API025",
    "API027",
    "API013",
    "API016",
    "API014",
    "API017",
    "API015",
    "API018",
    "API019",
    "API020",
    "API021",
    "API031",
    "API022",
    "API023",
    "API024",
)
RULES: tuple[Rule, ...] = in_order(ORDER, path.RULES, answer.RULES, stream.RULES, capacity.RULES, tools.RULES)
