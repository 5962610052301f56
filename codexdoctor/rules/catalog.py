"""The whole catalog, family by family in code order: `explain`, `rules` and docs/rules.md are generated from it."""

from __future__ import annotations

from codexdoctor.rules import api, auth, cfg, ctx, env, model, net, url
from codexdoctor.rules.base import Rule

FAMILIES = (cfg, env, url, net, auth, api, model, ctx)
RULES: tuple[Rule, ...] = tuple(rule for family in FAMILIES for rule in family.RULES)
RULES_BY_CODE: dict[str, Rule] = {r.code: r for r in RULES}
ZH: dict[str, tuple[str, str, tuple[str, ...]]] = {code: text for family in FAMILIES for code, text in family.ZH.items()}
