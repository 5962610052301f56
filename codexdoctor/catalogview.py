"""`codexdoctor explain` / `rules` and docs/rules.md, all generated from the one catalog."""

from __future__ import annotations

import json

from codexdoctor.rules import RULES, RULES_BY_CODE, Rule

FAMILIES = {
    "CFG": "Finding and parsing Codex config, profiles and provider tables",
    "ENV": "The API key variable and stored logins",
    "URL": "base_url",
    "NET": "Reaching the provider",
    "AUTH": "Key rejected",
    "API": "The request path and protocol",
    "MODEL": "Model ID",
    "CTX": "Context and session",
}


def _rule_data(rule: Rule) -> dict:
    return {"code": rule.code, "name": rule.name, "severity": rule.severity.value, "verdict": rule.verdict.value,
            "title": rule.title, "check": rule.check, "diagnosis": rule.diagnosis, "remedy": list(rule.remedy),
            "explanation": rule.explanation, "references": list(rule.references)}


def explain_rule(code: str, fmt: str = "text") -> str | None:
    rule = RULES_BY_CODE.get(code)
    if rule is None:
        return None
    if fmt == "json":
        return json.dumps(_rule_data(rule), indent=2, ensure_ascii=False) + "\n"
    lines = [f"{rule.code} {rule.name} ({rule.severity.value}, verdict: {rule.verdict.value})", "", rule.title, ""]
    if rule.explanation:
        lines += [rule.explanation, ""]
    lines += ["What codexdoctor reports (placeholders are filled from your config):", f"  {rule.diagnosis}", "", "How to fix:"]
    for number, step in enumerate(rule.remedy, 1):
        first, *rest = step.splitlines()
        lines.append(f"  {number}. {first}")
        lines += [f"       {line}" for line in rest]
    if rule.references:
        lines += ["", "References:"] + [f"  {ref}" for ref in rule.references]
    return "\n".join(lines) + "\n"


def list_rules(fmt: str = "text") -> str:
    if fmt == "json":
        return json.dumps([_rule_data(r) for r in RULES], indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return rules_markdown()
    from codexdoctor.render.text import table_lines

    return "\n".join(table_lines(("code", "severity", "verdict", "title"),
                                  tuple((r.code, r.severity.value, r.verdict.value, r.title) for r in RULES))) + "\n"


def rules_markdown() -> str:
    """The text of docs/rules.md (a test fails when the committed file differs)."""
    out = ["# Finding codes", "",
           "Generated from `codexdoctor/rules.py` by `codexdoctor rules --format markdown > docs/rules.md`; do not edit by hand.",
           "Codes are a public contract: a code is never reused or renumbered.", ""]
    for family, about in FAMILIES.items():
        members = [r for r in RULES if r.code.startswith(family)]
        if not members:
            continue
        out += [f"## {family}: {about}", ""]
        for r in members:
            out += [f"### {r.code} `{r.name}`", "",
                    f"**{r.title}** — severity `{r.severity.value}`, verdict `{r.verdict.value}`, from check `{r.check}`.", ""]
            if r.explanation:
                out += [r.explanation, ""]
            out += [f"Diagnosis: {r.diagnosis}", "", "Remedy:", ""]
            for number, step in enumerate(r.remedy, 1):
                first, *rest = step.splitlines()
                out.append(f"{number}. {first}")
                if rest:
                    out += ["   ```toml"] + [f"   {line}" for line in rest] + ["   ```"]
            out.append("")
    return "\n".join(out)
