"""Issue 40 (review): the Chinese said "tokens", an English plural, in places ("9,999 tokens"), beside "个 token"
and "token 数" elsewhere. The house style, the one most Chinese texts already used: `{n} 个 token` for a count,
`token 数` for "the number of tokens", never the English plural ("令牌" is kept for a gateway's key, as new-api
calls it)."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u4e00-\u9fff]")
PLURAL = re.compile(r"(?<![\w_])tokens\b")
SPANS = re.compile(r"`[^`]*`|\{[^{}]*\}")  # code and placeholders keep their names


def chinese_strings(path: Path):
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline):
        if tok.type == tokenize.STRING and CJK.search(tok.string):
            yield tok.start[0], tok.string


def test_no_chinese_text_in_the_code_says_tokens():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text[:80]}"
        for path in sorted((ROOT / "codexdoctor").rglob("*.py"))
        for line, text in chinese_strings(path)
        if PLURAL.search(SPANS.sub("", text))
    ]
    assert found == []


def test_the_chinese_rules_and_snapshots_do_not_say_tokens():
    texts = [ROOT / "docs" / "rules.zh.md", *sorted((ROOT / "tests" / "snapshots").rglob("*.zh.*.txt"))]
    for path in texts:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if CJK.search(line):
                assert not PLURAL.search(SPANS.sub("", line)), f"{path.relative_to(ROOT)}:{n}: {line}"
