"""`codexdoctor explain` / `rules` and docs/rules.md, all generated from the one catalog."""

from __future__ import annotations

import json

from codexdoctor.rules import RULES, RULES_BY_CODE, Rule, texts

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


def _rule_data(rule: Rule, lang: str = "en") -> dict:
    title, diagnosis, remedy = texts(rule, lang)
    return {"code": rule.code, "name": rule.name, "severity": rule.severity.value, "verdict": rule.verdict.value,
            "title": title, "check": rule.check, "diagnosis": diagnosis, "remedy": list(remedy),
            "explanation": rule.explanation if lang == "en" else "", "references": list(rule.references), "lang": lang}


def explain_rule(code: str, fmt: str = "text", lang: str = "en") -> str | None:
    rule = RULES_BY_CODE.get(code)
    if rule is None:
        return None
    if fmt == "json":
        return json.dumps(_rule_data(rule, lang), indent=2, ensure_ascii=False) + "\n"
    title, diagnosis, remedy = texts(rule, lang)
    zh = lang == "zh"
    lines = [f"{rule.code} {rule.name} ({rule.severity.value}, verdict: {rule.verdict.value})", "", title, ""]
    if rule.explanation and not zh:
        lines += [rule.explanation, ""]
    lines += ["codexdoctor 的报告（占位符会按你的配置填入）：" if zh else
              "What codexdoctor reports (placeholders are filled from your config):", f"  {diagnosis}", "",
              "修复方法：" if zh else "How to fix:"]
    for number, step in enumerate(remedy, 1):
        first, *rest = step.splitlines()
        lines.append(f"  {number}. {first}")
        lines += [f"       {line}" for line in rest]
    if rule.references:
        lines += ["", "References:"] + [f"  {ref}" for ref in rule.references]
    return "\n".join(lines) + "\n"


def list_rules(fmt: str = "text", lang: str = "en") -> str:
    if fmt == "json":
        return json.dumps([_rule_data(r, lang) for r in RULES], indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return rules_markdown(lang)
    from codexdoctor.render.text import table_lines

    return "\n".join(table_lines(("code", "severity", "verdict", "title"),
                                  tuple((r.code, r.severity.value, r.verdict.value, texts(r, lang)[0]) for r in RULES))) + "\n"


def rules_markdown(lang: str = "en") -> str:
    """The text of docs/rules.md and docs/rules.zh.md (a test fails when a committed file differs)."""
    zh = lang == "zh"
    target = "docs/rules.zh.md" if zh else "docs/rules.md"
    out = ["# 问题代码" if zh else "# Finding codes", "",
           f"Generated from `codexdoctor/rules.py` by `codexdoctor rules --format markdown{' --lang zh' if zh else ''} > {target}`; "
           "do not edit by hand.",
           "Codes are a public contract: a code is never reused or renumbered.", ""]
    for family, about in FAMILIES.items():
        members = [r for r in RULES if r.code.startswith(family)]
        if not members:
            continue
        out += [f"## {family}: {about}", ""]
        for r in members:
            title, diagnosis, remedy = texts(r, lang)
            out += [f"### {r.code} `{r.name}`", "",
                    f"**{title}** — severity `{r.severity.value}`, verdict `{r.verdict.value}`, from check `{r.check}`.", ""]
            if r.explanation and not zh:
                out += [r.explanation, ""]
            out += [f"{'诊断' if zh else 'Diagnosis'}: {diagnosis}", "", f"{'修复' if zh else 'Remedy'}:", ""]
            for number, step in enumerate(remedy, 1):
                first, *rest = step.splitlines()
                out.append(f"{number}. {first}")
                if rest:
                    out += ["   ```toml"] + [f"   {line}" for line in rest] + ["   ```"]
            out.append("")
    return "\n".join(out)
