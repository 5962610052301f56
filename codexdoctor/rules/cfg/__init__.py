"""CFG: finding and parsing the config, one module per theme.

Chinese texts keep the English placeholders; config keys, commands, product names and codes stay untranslated.
"""

from __future__ import annotations

from codexdoctor.rules.base import Rule, in_order
from codexdoctor.rules.cfg import files, keys, profile, provider

# The order `codexdoctor rules` and docs/rules.md list the family in: a new code goes next to its kin.
ORDER = (
    "CFG001",
    "CFG002",
    "CFG003",
    "CFG004",
    "CFG005",
    "CFG029",
    "CFG006",
    "CFG007",
    "CFG028",
    "CFG008",
    "CFG030",
    "CFG031",
    "CFG009",
    "CFG010",
    "CFG011",
    "CFG012",
    "CFG013",
    "CFG014",
    "CFG015",
    "CFG016",
    "CFG017",
    "CFG018",
    "CFG019",
    "CFG020",
    "CFG021",
    "CFG022",
    "CFG023",
    "CFG024",
    "CFG025",
    "CFG026",
    "CFG027",
)
RULES: tuple[Rule, ...] = in_order(ORDER, files.RULES, provider.RULES, keys.RULES, profile.RULES)
