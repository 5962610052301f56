"""Issue 40, "every word in the user's language": what a Chinese finding quotes of its facts is said in Chinese too,
the facts' data (numbers, digests, status codes) as they came. The English findings stay as they were."""

from __future__ import annotations

from codexdoctor.model import CheckResult, Status
from codexdoctor.rules import RULES_BY_CODE, evaluate
from tests.conftest import TAOTOKEN, offline_report, write_config


def _finding(code: str, facts: dict, lang: str):
    rule = RULES_BY_CODE[code]
    (found,) = evaluate([CheckResult(rule.check, rule.check, Status.FAIL, "", facts)], [rule], lang)
    return found


def test_a_key_fingerprint_is_said_in_chinese(home):
    """ENV021 quoted env.key's `key_fingerprint` as it is: "$K（16 chars, sha256:…）" in a Chinese report."""
    write_config(home, TAOTOKEN)
    env = {"OPENAI_API_KEY": "sk-o-0123456789abcdef", "TAOTOKEN_API_KEY": "sk-x-0123456789\n"}
    zh = offline_report(home, env, lang="zh")
    en = offline_report(home, env, lang="en")
    (said,) = [f.diagnosis for f in zh.findings if "sha256:" in f.diagnosis]
    assert "16 个字符，sha256:" in said and "chars" not in said, said
    (english,) = [f.diagnosis for f in en.findings if "sha256:" in f.diagnosis]
    assert "(16 chars, sha256:" in english, english


def test_every_fingerprint_fact_is_said():
    """Every fact in a fingerprint's shape is said (a shell's value, an env_key that is itself a key); a value of
    another shape is not."""
    from codexdoctor.checks.base import fingerprints_said

    facts = {"shell_fp": "40 chars, sha256:0a1b2c3d", "env_key": "<51 chars, sha256:1a2b3c4d>", "source": "environment"}
    said = fingerprints_said(facts)
    assert {k: m.text("zh") for k, m in said.items()} == {
        "shell_fp": "40 个字符，sha256:0a1b2c3d",
        "env_key": "<51 个字符，sha256:1a2b3c4d>",
    }
    assert {k: m.text("en") for k, m in said.items()} == {k: facts[k] for k in said}
