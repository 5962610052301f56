"""Issue 40, "every word in the user's language": every rule's Chinese text, filled with the facts of every rule case
that fires (tests/rules/cases.py), holds no English word that is not data.

Data is what the evidence guard (test_evidence_zh) takes out of a line, and the facts that are data as they came:
the provider's or Codex's own text, names and codes (DATA_FACTS). A fact a check says in both languages (the engine's
PHRASE_KEYS, a key's fingerprint) is said here as the runner gives it. What must stay English is listed with its
reason (NAMES); anything else fails."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from codexdoctor.checks.base import fingerprints_said
from codexdoctor.model import CheckResult, Msg, Status, item_key
from codexdoctor.rules import RULES_BY_CODE, evaluate
from codexdoctor.rules.engine import PHRASE_KEYS, RULE_PHRASES
from tests.i18n.test_evidence_zh import english_in
from tests.rules.cases import Case, text
from tests.rules.test_contract import CASES

FIRING = [c for c in CASES if c.fires]

# Facts that are data as they came, each value taken out of the text before its words are read.
DATA_FACTS = {
    # the provider's, Codex's, the OS's or a config file's own text, quoted as it came
    "message": "the provider's error message",
    "body_excerpt": "the provider's answer",
    "ignored_errors": "the provider's error events",
    "tool_break": "the provider's error text",
    # a probe step's detail: the provider's error text; when the provider sent none, the classifier's words, which
    # the probe's result does not say in Chinese yet (a follow-up: API023 quotes them inside its own sentence)
    "item_fault": "the provider's error text",
    "model_not_found_at": "the provider's answer at the URL that works (its message)",
    "incomplete_reason": "the provider's code for the incomplete answer",
    # names and codes
    "available": "provider ids",
    "provider": "a provider id",
    "selected": "a profile's name",
    "wire_api": "a config value",
    "files": "the config files' paths, and their TOML reader's own error text",
}


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def _phrases_said(facts: Mapping[str, Any]) -> dict[str, Msg]:
    """The said a check gives its phrase facts (the engine's PHRASE_KEYS), a fact of its own and an item's, here with a
    Chinese stand-in: what words it has is the check's (test_evidence_zh reads real reports)."""
    said: dict[str, Msg] = {}

    def walk(key: str | None, value: Any) -> None:
        if isinstance(value, str) and key in PHRASE_KEYS:
            said[key] = said.get(key) or Msg(value, "（短语）")
            said[item_key(key, value)] = Msg(value, "（短语）")
        elif isinstance(value, Mapping):
            for k, v in value.items():
                walk(k, v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(key, v)

    for k, v in facts.items():
        walk(k, v)
    return said


def _rule_phrases_said(case: Case, facts: Mapping[str, Any]) -> dict[str, Msg]:
    """The phrases a rule makes of a fact (RULE_PHRASES: API010's "the body is …"), which its check says too."""
    said: dict[str, Msg] = {}
    for params in RULES_BY_CODE[case.code].when(facts):
        for key in RULE_PHRASES:
            if isinstance(params.get(key), str):
                said[item_key(key, params[key])] = Msg(params[key], "（短语）")
    return said


def _chinese(case: Case) -> list[str]:
    """The case's findings in Chinese, as a run gives them: the check's said facts with the facts."""
    rule = RULES_BY_CODE[case.code]
    facts = case.facts()
    said = {**_phrases_said(facts), **_rule_phrases_said(case, facts), **fingerprints_said(facts)}
    results = [CheckResult(rule.check, rule.check, Status.FAIL, "", facts, said=said)]
    results += [CheckResult(cid, cid, Status.PASS, "", case.facts(cid)) for cid in case.others]
    return [text(f) for f in evaluate(results, [rule], "zh")]


# What else is data in a rule's text, beyond what the evidence guard takes out: Codex's own messages in ``…``, a
# command (a remedy's line of its own, or after a colon), a flag, a file's name, a Windows path, an issue's reference.
_COMMANDS = (
    r"export|unset|set -gx|setx|printf|printenv|echo|source|sed|mkdir|npm|pip|openssl|curl|ollama|codex|codexdoctor"
)
_MORE_DATA = re.compile(
    r"``.*?``"
    rf"|(?:^|(?<=：))\s*(?:{_COMMANDS})\b.*$"
    r"|\b(?:codexdoctor|codex)(?: (?:check|probe|login|report|sessions|-v|--[\w-]+(?: [\w.]+)?))+"
    r"|(?<![\w-])--?[A-Za-z][\w-]*"
    r"|(?<![\w/])\.[A-Za-z][\w.-]*"
    r"|[A-Z]:[\\/]\S*|%\w+%\S*"
    r"|\b[\w-]+/[\w-]+#\d+",
    re.M,
)


def _data_taken_out(said: str, facts: Mapping[str, Any]) -> str:
    values = {v for key in DATA_FACTS for value in _strings(facts.get(key)) for v in (value, value.rstrip(" .。"))}
    for value in sorted(values, key=len, reverse=True):  # the longest first: a name inside a message is the message's
        if len(value) > 1:  # a value whole, not a piece of a word, a URL or a name
            said = re.sub(rf"(?<![\w.:/-]){re.escape(value)}(?![\w/:-]|\.\w)", " ", said)
    return _MORE_DATA.sub(" ", said)


def english_of(line: str, facts: Mapping[str, Any], code: str = "") -> list[str]:
    """The English words of one line of a Chinese finding that are not data, nor a name that stays English."""
    for phrase in PHRASES:
        line = line.replace(phrase, " ")
    return [w for w in english_in(_data_taken_out(line, facts)) if w not in NAMES and (code, w) not in KNOWN_GAPS]


def english_left(case: Case) -> list[tuple[str, list[str]]]:
    facts = case.facts()
    lines = [line for finding in _chinese(case) for line in finding.splitlines()]
    return [(line, words) for line in lines if (words := english_of(line, facts, case.code))]


# Words that stay English in a Chinese text, and why.
_WHY = {
    "the name of a product, a program or a company": (
        "OpenAI Azure Ollama vLLM LiteLLM LM Studio nginx Cloudflare Clash Linux PowerShell cmd VS Code Modelfile"
    ),
    "the names of OpenAI's two APIs (Responses API, Chat Completions)": "Responses Chat Completions",
    "API Key: the term the Chinese report uses for it everywhere (check titles, i18n)": "Key",
    "the shell: the word a Chinese reader uses for it; export, a shell command": "shell export",
    "a URL scheme, a host name": "http https localhost",
    "a config key or table, as the user writes it (model, name, [profiles]); a YAML value (drop_params: true)": (
        "model name profiles true"
    ),
    "a field, item type or role of the request or answer's JSON, or an event's type": (
        "input include reasoning usage developer system tool error"
    ),
    "the protocol's name (server-sent events), an nginx block's (server, location)": "server events location",
    "an error code the provider sends (Azure's DeploymentNotFound)": "DeploymentNotFound",
}
NAMES = {word: why for why, words in _WHY.items() for word in words.split()}

# Phrases that stay as they are: quoted from another program, the way the English text quotes them.
PHRASES = {
    "is no longer supported": 'Codex\'s own error, quoted after its `wire_api = "chat"` as the English does',
    "UTF-8 with BOM": "the label VS Code's status bar shows",
}

# What a case still says in English that is not data, and why it is left (a follow-up): (code, word) -> why.
KNOWN_GAPS = {
    ("API021", "an"): "API021 quotes the check's `detail` (an HTML page …) inside its own sentence, where the check's "
    "said words cannot reach it",
    ("API021", "page"): "as above",
}


@pytest.mark.parametrize("case", FIRING, ids=str)
def test_every_rule_text_is_chinese(case):
    assert english_left(case) == []


def test_the_sweep_reads_words_not_data():
    """The provider's text, a URL, a command and a name pass; an English phrase of codexdoctor's own fails."""
    facts = {"message": "You exceeded your current quota."}
    line = "POST http://127.0.0.1:1/v1/responses：You exceeded your current quota。在 shell 中运行：export K=1"
    assert english_of(line, facts) == []
    assert english_of("`codexdoctor check --offline` 之后，OpenAI 的 Responses API 可用", {}) == []
    assert english_of("密钥（28 chars, sha256:fbbb0b78）", {}) == ["chars"]
    assert english_of("之前几次：reset、502", {}) == ["reset"]


# A space between two Chinese characters (`顶层 中的`, issue 40): a place or word filled in where the template keeps a
# space for a Latin value beside it. Full-width punctuation counts as Chinese here too.
_CJK_SPACE = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef] +[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


@pytest.mark.parametrize("case", FIRING, ids=str)
def test_no_space_between_two_chinese_characters(case):
    lines = [line for finding in _chinese(case) for line in finding.splitlines()]
    # the sweep's stand-in for a check's phrase (_phrases_said) is neither: the real one may be a URL
    assert [line for line in lines if _CJK_SPACE.search(line.replace("（短语）", "x"))] == []


def test_a_value_said_in_chinese_takes_no_space_a_latin_value_keeps_its_own():
    """The rule for the space beside a value (model.fill_zh), in a Msg as in a rule's text: cfg.keys' evidence line
    said `顶层 中的` as CFG008 did."""
    from codexdoctor.checks.cfglines import key_lines
    from codexdoctor.codex.config import TOP_LEVEL

    unknown = [{"key": "colour", "table": TOP_LEVEL, "where": "~/.codex/config.toml:2"}]
    assert key_lines(unknown, [])[0].text("zh") == "~/.codex/config.toml:2：顶层中的 `colour` 不是 Codex 会读取的键"
    assert Msg("{t}", "{t} 中的", t="[model_providers.gw]").text("zh") == "[model_providers.gw] 中的"
    assert Msg("{t}", "说 {t}", t="一 二").text("zh") == "说一 二"  # a space inside the value stays
    assert Msg("{n}", "每 {n} 轮", n=3).text("zh") == "每 3 轮"
