"""The rule catalog: stable codes, each with when it fires, a diagnosis and numbered remedies.

`codexdoctor explain`, `codexdoctor rules` and docs/rules.md are all generated
from RULES, so they cannot drift. A code is never reused or renumbered.

One module per family (cfg, env, url, net, auth, api, model, ctx); each rule holds its English and Chinese texts;
`catalog` puts them together, `engine` applies them.
"""

from codexdoctor.model import NO_URL_IN_PASTE
from codexdoctor.rules.base import CODE_RE, MINIMAL_CONFIG, Loc, Rule, Text, settlers
from codexdoctor.rules.catalog import RULES, RULES_BY_CODE
from codexdoctor.rules.ctx.probe import STOPPED_WORDS
from codexdoctor.rules.engine import PHRASE_KEYS, evaluate, fmt

__all__ = [
    "CODE_RE",
    "MINIMAL_CONFIG",
    "NO_URL_IN_PASTE",
    "PHRASE_KEYS",
    "RULES",
    "RULES_BY_CODE",
    "STOPPED_WORDS",
    "Loc",
    "Rule",
    "Text",
    "evaluate",
    "fmt",
    "settlers",
]
