"""Issue 40 (Chinese): the failure kinds' Chinese words lived in three tables (report/build.py's `_KIND_ZH`,
checks/sessions/across.py's `_KIND_WORDS`, i18n's `TABLE_WORDS`). One table now, i18n.KIND_WORDS, and every place
that says a kind in Chinese says that word: the verdict line, the finding counts, the sessions table and the reason
the sessions give when they failed both ways."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import codexdoctor
from codexdoctor.model import Finding, Msg, Severity, Verdict

KINDS = [v for v in Verdict if v not in (Verdict.OK, Verdict.INCONCLUSIVE)]
PACKAGE = Path(codexdoctor.__file__).parent


def test_every_kind_has_exactly_one_chinese_word():
    from codexdoctor.i18n import KIND_WORDS, TABLE_WORDS, ui

    assert set(KIND_WORDS) == {k.value for k in KINDS}
    assert len(set(KIND_WORDS.values())) == len(KIND_WORDS)  # one word each, no two kinds alike
    for kind in KINDS:
        word = KIND_WORDS[kind.value]
        assert TABLE_WORDS[kind.value] == (kind.value, word)
        assert ui(f"verdict_{kind.value}", "zh") == word + "问题"


def test_no_other_module_keeps_its_own_words_for_the_kinds():
    """The kinds' words as a string of their own appear in i18n only (a table elsewhere drifts)."""
    from codexdoctor.i18n import KIND_WORDS

    words = set(KIND_WORDS.values())
    found = []
    for path in PACKAGE.rglob("*.py"):
        if path == PACKAGE / "i18n" / "__init__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in words:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.value!r}")
    assert not found, found


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.value)
def test_the_finding_counts_and_the_sessions_reason_say_the_kind_in_its_word(kind):
    from codexdoctor.checks.sessions.across import decide
    from codexdoctor.i18n import KIND_WORDS
    from codexdoctor.report.build import _count, _past_counts

    word = KIND_WORDS[kind.value]
    codes = Msg.verbatim("API001")
    assert f"个{word}类错误" in _count(2, Severity.ERROR, kind, codes).text("zh")
    past = Finding("CTX014", Severity.ERROR, kind, "t", "d", (), ("ctx.sessions",))
    assert f"1 个{word}类错误" in _past_counts([past]).text("zh")
    if kind.value in ("context", "channel"):
        other = "channel" if kind.value == "context" else "context"
        failing = [
            {"kind": kind.value, "start": "2026-01-02T10:00", "id": "a"},
            {"kind": kind.value, "start": "2026-01-02T11:00", "id": "b"},
            {"kind": other, "start": "2026-01-02T09:00", "id": "c"},
        ]
        _, reason = decide(failing)  # type: ignore[misc]
        assert f"是{word}问题，1 个是{KIND_WORDS[other]}问题" in reason.text("zh"), reason.text("zh")
