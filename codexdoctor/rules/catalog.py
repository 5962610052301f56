"""The whole catalog, family by family in code order: `explain`, `rules` and docs/rules.md are generated from it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from codexdoctor.rules import api, auth, cfg, ctx, env, model, net, url
from codexdoctor.rules.base import Rule

FAMILIES = (cfg, env, url, net, auth, api, model, ctx)


def _only_base_url_misspelled(facts: Mapping[str, Mapping[str, Any]]) -> bool:
    """CFG008 repeats CFG006's rename when its one unknown key is base_url misspelled (`baseURL`, `api_base`…);
    other unknown keys stay findings of their own."""
    return [u.get("suggestion") for u in facts.get("cfg.keys", {}).get("unknown") or []] == ["base_url"]


# Cause -> consequence, as data (docs/findings.md): a finding whose cause fired too is shown under it as "this is
# why", not as a cause of its own. Each pair is a case seen with the real Codex 0.171 or the seed guide's setups.
EXPLAINED_BY: dict[str, tuple[Any, ...]] = {
    # 401 because the key's characters are wrong: the key is fine, the copy is not.
    "AUTH001": ("ENV026", "ENV005", "ENV006", "ENV007", "ENV008", "ENV021"),
    # The key is the guide's `<your key>` or 在此填入你的密钥: its spaces or non-ASCII are the placeholder's, not a slip.
    "ENV005": ("ENV026",),
    "ENV008": ("ENV026",),
    # No base_url because it was written as baseURL: CFG006 gives the rename; CFG008 would give it a second time.
    "CFG008": (("CFG006", _only_base_url_misspelled),),
    # A redefined [model_providers.openai] is why the built-in provider's login and OPENAI_API_KEY look wrong.
    # So is a model_provider written inside a provider table (CFG030): Codex falls back to the built-in `openai`.
    "ENV011": ("CFG005", "CFG030"),
    "ENV012": ("CFG005", "CFG030"),
    "ENV025": ("CFG005", "CFG030"),
    "ENV013": ("CFG005", "CFG030"),
    # 404 at the path Codex calls because base_url carries a query, the API path already, or a trailing space.
    "API016": ("URL002", "URL004", "URL005"),
    "API013": ("URL002", "URL004", "URL005"),
    "API001": ("URL002", "URL004", "URL005"),
    # The provider refuses the model because the ID is the catalog's with case, spaces or a date suffix changed.
    "MODEL001": ("MODEL006", "MODEL002"),
    # Nothing reaches a provider whose base_url Codex cannot use.
    "NET001": ("URL001",),
    "NET002": ("URL001",),
    "NET008": ("URL001",),
}

RULES: tuple[Rule, ...] = tuple(
    replace(rule, explained_by=EXPLAINED_BY.get(rule.code, rule.explained_by))
    for family in FAMILIES
    for rule in family.RULES
)
RULES_BY_CODE: dict[str, Rule] = {r.code: r for r in RULES}
