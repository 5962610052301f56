"""`codexdoctor explain` / `rules` and docs/rules.md, all generated from the one catalog."""

from __future__ import annotations

import json
import re

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


_SLOT = re.compile(r"\{([a-z_0-9]+)(?::[^}]*)?\}")
_SUFFIXES = ("_text", "_step", "_cmd", "_where")
# The slots a reader meets most, in Chinese; any other slot reads <…>, which a report fills in.
_SLOTS_ZH = {"url": "地址", "request_url": "请求地址", "working_url": "可用地址", "base_url": "base_url", "model": "模型",
             "where": "位置", "user_config": "配置文件", "served": "服务端窗口", "assumed": "Codex 假定的窗口",
             "message": "提供方的报错", "detail": "详情", "status": "状态码", "env_key": "env_key", "provider": "提供方",
             "first_request": "第一个请求的 token 数", "min_usable": "最小可用窗口", "attempts": "尝试次数",
             "key": "键", "value": "值", "path": "路径", "host": "主机", "codex_version": "Codex 版本"}
_SLOTS_EN = {"first_text": "its parts", "base_url_where": "where base_url is set", "source": "where it is published",
             "min_usable": "Codex's first request", "user_config": "your config.toml"}
_SLOTS_ZH["base_url_where"] = "base_url 所在位置"
_WHOLE_STEP = {"en": "(written for your setup when codexdoctor reports this)", "zh": "（报告时按你的配置写出这一步）"}


def _slot_name(name: str, lang: str) -> str:
    if lang == "zh":
        return f"<{_SLOTS_ZH.get(name, '…')}>"
    if name in _SLOTS_EN:
        return f"<{_SLOTS_EN[name]}>"
    for suffix in _SUFFIXES:
        if name.endswith(suffix) and name != suffix[1:]:
            name = name[: -len(suffix)]
    return f"<{name.replace('_', ' ')}>"


def fill_slots(text: str, lang: str = "en") -> str:
    """A template made readable: `{served}` becomes <served>, so `explain` never shows a raw placeholder."""
    if _SLOT.fullmatch(text.strip()):
        return _WHOLE_STEP.get(lang, _WHOLE_STEP["en"])
    return _SLOT.sub(lambda m: _slot_name(m.group(1), lang), text)


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
    diagnosis, remedy = fill_slots(diagnosis, lang), tuple(fill_slots(step, lang) for step in remedy)
    zh = lang == "zh"
    if zh:
        from codexdoctor.i18n import ui

        head = f"{rule.code} {rule.name}（{ui('sev_' + rule.severity.value, lang)}，结论：{ui('verdict_' + rule.verdict.value, lang)}）"
    else:
        head = f"{rule.code} {rule.name} ({rule.severity.value}, verdict: {rule.verdict.value})"
    lines = [head, "", title, ""]
    if rule.explanation and not zh:
        lines += [rule.explanation, ""]
    lines += ["codexdoctor 的报告（<…> 处会按你的配置填入）：" if zh else
              "What codexdoctor reports (each <…> is filled in from your setup):", f"  {diagnosis}", "",
              "修复方法：" if zh else "How to fix:"]
    for number, step in enumerate(remedy, 1):
        first, *rest = step.splitlines()
        lines.append(f"  {number}. {first}")
        lines += [f"       {line}" for line in rest]
    if rule.references:
        lines += ["", "参考资料：" if zh else "References:"] + [f"  {ref}" for ref in rule.references]
    return "\n".join(lines) + "\n"


def list_rules(fmt: str = "text", lang: str = "en") -> str:
    if fmt == "json":
        return json.dumps([_rule_data(r, lang) for r in RULES], indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return rules_markdown(lang)
    from codexdoctor.report.render.text import table_lines

    return "\n".join(table_lines(("code", "severity", "verdict", "title"),
                                  tuple((r.code, r.severity.value, r.verdict.value, texts(r, lang)[0]) for r in RULES))) + "\n"


def rules_markdown(lang: str = "en") -> str:
    """The text of docs/rules.md and docs/rules.zh.md (a test fails when a committed file differs)."""
    zh = lang == "zh"
    target = "docs/rules.zh.md" if zh else "docs/rules.md"
    out = ["# 问题代码" if zh else "# Finding codes", "",
           f"Generated from the catalog in `codexdoctor/rules/` by `codexdoctor rules --format markdown{' --lang zh' if zh else ''} > {target}`; "
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
