"""The rule catalog is a public contract: codes, texts, explain and docs/rules.md."""

from pathlib import Path

from codexdoctor.checks import STATIC_CHECKS
from codexdoctor.report.catalogview import explain_rule, list_rules, rules_markdown
from codexdoctor.rules import CODE_RE, RULES, RULES_BY_CODE

ROOT = Path(__file__).resolve().parents[2]


def test_codes_unique_and_well_formed():
    codes = [r.code for r in RULES]
    assert len(codes) == len(set(codes))
    assert all(CODE_RE.match(c) for c in codes)
    names = [r.name for r in RULES]
    assert len(names) == len(set(names))


def test_every_rule_has_diagnosis_and_remedy():
    for rule in RULES:
        for text in (rule.en, rule.zh):
            assert text.title.strip() and text.diagnosis.strip(), rule.code
            assert isinstance(text.remedy, tuple) and text.remedy, rule.code
        # A remedy step may be one placeholder filled in by the rule, but never a single character.
        assert all(isinstance(step, str) and len(step) > 10 for step in rule.en.remedy), rule.code


def test_every_rule_reads_a_known_check():
    from codexdoctor.checks import live_check_ids

    known = {c.id for c in STATIC_CHECKS} | set(live_check_ids())
    for rule in RULES:
        assert rule.check in known, f"{rule.code} reads unknown check {rule.check}"


def test_docs_rules_md_is_current():
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == rules_markdown(), "docs/rules.md is stale: codexdoctor rules --format markdown > docs/rules.md"


def test_explain_text_and_json():
    text = explain_rule("ENV003")
    assert text.startswith("ENV003 env-key-near-miss (error, verdict: config)")
    assert "How to fix:" in text
    import json

    data = json.loads(explain_rule("URL004", "json"))
    assert data["code"] == "URL004" and data["remedy"]
    assert explain_rule("NOPE999") is None


def test_rules_listing_has_every_code():
    text = list_rules()
    assert all(r.code in text for r in RULES)
    assert set(RULES_BY_CODE) == {r.code for r in RULES}


def test_every_chinese_placeholder_has_a_name():
    """Issue 40: `explain CTX034 --lang zh` showed <值> for three different things; each slot says what it holds."""
    from codexdoctor.report.catalogview import _PUNCTUATION_SLOTS, _SLOT, _SLOTS_ZH, explain_rule
    from codexdoctor.rules import RULES

    unnamed = sorted(
        {
            (rule.code, m.group(1))
            for rule in RULES
            for text in (rule.text("zh").diagnosis, *rule.text("zh").remedy)
            if not _SLOT.fullmatch(text.strip())
            for m in _SLOT.finditer(text)
            if m.group(1) not in _SLOTS_ZH and m.group(1) not in _PUNCTUATION_SLOTS
        }
    )
    assert not unnamed, unnamed
    said = explain_rule("CTX034", lang="zh") or ""
    assert "<切分规则>" in said and "<所需窗口>" in said and "<值>" not in said and "‹" not in said
