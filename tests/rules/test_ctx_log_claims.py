"""Issue 40 (remainder): what the session-log findings say is what the log shows. A request the provider answered is
a size its window held, never where the session "overflowed"; "Codex never compacted" only when the log records no
compaction, the count otherwise. Rendered in both languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from codexdoctor.checks.sessions import build_check
from codexdoctor.codex.rollouts import read_session
from codexdoctor.rules import evaluate
from tests.rules.cases import Case, run
from tests.rules.test_ctx import CLUSTER, OVERFLOW, across, session

REAL = Path(__file__).parents[1] / "fixtures" / "rollouts" / "real-0.171.0"


def _real_findings(name: str, lang: str) -> dict[str, str]:
    result = build_check([read_session(REAL / name)], [], "~/.codex/sessions", "~")
    return {f.code: "\n".join((f.title, f.diagnosis, *f.remedy)) for f in evaluate([result], lang=lang)}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ctx017_calls_the_largest_answered_request_a_size_the_window_held(lang):
    """Codex 0.171's own log (tests/fixtures/rollouts/real-0.171.0/overflow-turn-2.jsonl): turn 1 was answered at
    8,477 tokens, turn 2 was refused, turn 3 compacted and failed again. CTX017 said "Session 01a229ea overflowed at
    8,477 tokens" (zh "在 8,477 个 token 时溢出") about the request that was answered, and nothing of the compaction."""
    said = _real_findings("overflow-turn-2.jsonl", lang)["CTX017"]
    if lang == "en":
        assert "overflowed" not in said, said
        assert "the largest request the provider answered held 8,477 tokens (its window holds at least that)" in said
        assert "the request of turn 2 then failed on the context" in said, said
        assert "Its log records one compaction, and the session still failed." in said, said
    else:
        assert "溢出" not in said, said
        assert (
            "提供方答复过的最大请求有 8,477 个 token（它的窗口至少有这么大），之后第 2 轮的请求因上下文失败" in said
        ), said
        assert "日志记录了 1 次压缩，会话仍然失败了。" in said, said


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ctx017_with_no_answered_request_and_no_compaction_claims_neither(lang):
    case = Case("CTX017", {"sessions": [session(**{**OVERFLOW, "peak": None, "last_ok": None})]}, True)
    said = run(case, lang)[0].diagnosis
    if lang == "en":
        assert "no request was answered before the request of turn 14 failed on the context" in said, said
        assert "compaction" not in said and "?" not in said, said
    else:
        assert "第 14 轮的请求因上下文失败，在此之前没有请求得到答复" in said, said
        assert "压缩了" not in said and "次压缩" not in said and "?" not in said, said


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ctx014_says_never_compacted_only_when_the_logs_record_no_compaction(lang):
    never = run(Case("CTX014", {"across": across({**CLUSTER, "compactions": 0})}, True), lang)[0].diagnosis
    twice = run(Case("CTX014", {"across": across({**CLUSTER, "compactions": 2})}, True), lang)[0].diagnosis
    unknown = run(Case("CTX014", {"across": across({**CLUSTER, "compactions": None})}, True), lang)[0].diagnosis
    if lang == "en":
        assert "Codex never compacted in them: it only compacts near the window it assumes." in never, never
        assert "never compacted" not in twice, twice
        assert "Their logs record 2 compactions, and the sessions still broke at that size" in twice, twice
        assert "compact" not in unknown, unknown
    else:
        assert "这些会话里 Codex 从未压缩：它只在接近自己假定的窗口时才压缩。" in never, never
        assert "从未压缩" not in twice, twice
        assert "日志记录了 2 次压缩，这些会话仍然断在这个大小" in twice, twice
        assert "压缩" not in unknown, unknown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ctx026_says_never_compacted_only_when_the_log_records_no_compaction(lang):
    cut = {"kind": "context", "truncated_at": 32768, "truncated_turns": [7, 8, 9], "real_window": 32768}
    never = run(Case("CTX026", {"sessions": [session(**cut, compactions=0)]}, True), lang)[0].diagnosis
    once = run(Case("CTX026", {"sessions": [session(**cut, compactions=1)]}, True), lang)[0].diagnosis
    if lang == "en":
        assert "Codex never saw an error and never compacted." in never, never
        assert "never compacted" not in once, once
        assert "Codex never saw an error, and its log records one compaction in this session." in once, once
    else:
        assert "Codex 没有看到任何错误，也从未压缩。" in never, never
        assert "从未压缩" not in once, once
        assert "Codex 没有看到任何错误，日志记录了这个会话中的 1 次压缩。" in once, once


def test_a_groups_compaction_count_is_its_sessions_own(tmp_path):
    """The count CTX014 quotes comes from the sessions' logs: `compacted` items, summed over the group's sessions."""
    from codexdoctor.checks.sessions.across import across as across_of

    def failed(n: int, compactions: int) -> dict:
        return session(n, **{**OVERFLOW, "peak": 8500 + n, "last_ok": 8500 + n, "share": 0.03}, compactions=compactions)

    group = across_of([failed(0, 0), failed(1, 1), failed(2, 2)])["groups"][0]
    assert group["pattern"] == "cluster" and group["compactions"] == 3
