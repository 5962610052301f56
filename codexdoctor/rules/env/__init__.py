"""ENV: the API key variable and stored logins, one module per theme.

Chinese texts keep the English placeholders; config keys, commands, product names and codes stay untranslated.
"""

from __future__ import annotations

from codexdoctor.rules.base import Rule, in_order
from codexdoctor.rules.env import dotenv, login, value, variable

# The order `codexdoctor rules` and docs/rules.md list the family in: a new code goes next to its kin.
ORDER = (
    "ENV001",
    "ENV002",
    "ENV003",
    "ENV004",
    "ENV024",
    "ENV026",
    "ENV005",
    "ENV006",
    "ENV007",
    "ENV008",
    "ENV009",
    "ENV010",
    "ENV011",
    "ENV012",
    "ENV025",
    "ENV013",
    "ENV014",
    "ENV015",
    "ENV016",
    "ENV017",
    "ENV018",
    "ENV022",
    "ENV019",
    "ENV020",
    "ENV021",
    "ENV023",
)
RULES: tuple[Rule, ...] = in_order(ORDER, variable.RULES, value.RULES, dotenv.RULES, login.RULES)
