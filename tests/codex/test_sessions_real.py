"""`sessions` on real Codex 0.171.0 rollouts (scripts/make_real_rollouts.py) and on log lines of concurrent sessions."""

from datetime import datetime, timezone
from pathlib import Path

import pytest

from codexdoctor.checks.sessions import AmbiguousSession, Selection, build_check, classify_session, load
from codexdoctor.codex.tui_log import read_tui_log
from codexdoctor.commands.sessions import run_sessions
from tests.rollout_factory import RolloutWriter

REAL = Path(__file__).parents[1] / "fixtures" / "rollouts" / "real-0.171.0"


def report_for(home, folder, lang="en"):
    report, _ = run_sessions({"HOME": str(home)}, home, (folder,), None, None, None, False, lang)
    return report


@pytest.mark.parametrize("family", ["vllm", "llamacpp", "litellm"])
def test_every_family_overflow_is_context_with_the_servers_window(home, family):
    report = report_for(home, REAL / f"overflow-{family}")
    assert report.verdict.value == "context"
    assert [f.code for f in report.findings if f.severity.value == "error"] == ["CTX012"]
    d = report.checks[0].facts["sessions"][0]
    assert d["kind"] == "context" and d["evidence"] == "the provider's context error"
    assert d["real_window"] == 16000  # stated in the provider's error, not guessed from the last turn
    assert "model_context_window = 16000" in report.findings[0].remedy[0]
    assert not d["error"].startswith("{") and "None" not in report.findings[0].diagnosis


def test_openai_style_overflow_is_codexs_own_message(home):
    report = report_for(home, REAL / "overflow-turn-2.jsonl")
    assert report.checks[0].facts["sessions"][0]["evidence"] in (
        "Codex's context-window error",
        "the overflow signature (a token_count whose total equals the window, other counters zero)",
    )


def test_silent_truncation_is_context_with_the_ceiling(home):
    report = report_for(home, REAL / "truncation-ollama")
    assert report.verdict.value == "context"
    assert [f.code for f in report.findings if f.severity.value == "error"] == ["CTX026"]
    f = report.findings[0]
    assert "14,000 tokens in turns 3, 4, 5" in f.diagnosis and "model_context_window = 14000" in f.remedy[0]


def test_stable_break_across_three_sessions_of_one_provider_mixed_with_another_failure(home):
    report = report_for(home, REAL / "stable-break-3")
    codes = [f.code for f in report.findings if f.severity.value == "error"]
    assert sorted(codes) == ["CTX013", "CTX014"]  # one window advice for the group, not one per session
    cluster = next(f for f in report.findings if f.code == "CTX014")
    assert "3 failed sessions of sim-model on `sim`" in cluster.diagnosis
    assert report.verdict.value == "context"  # the majority, and the most recent failure
    assert "3 failed sessions of kind `context` and 1 of kind `channel`" in report.verdict_reason
    # In Chinese, the kinds in the words of the verdict line and the table (上下文、通道), not `context` (issue 40).
    zh = report_for(home, REAL / "stable-break-3", lang="zh").verdict_reason
    assert "3 个失败会话是上下文问题，1 个是通道问题；最近一次失败（" in zh and "`" not in zh, zh
    groups = report.checks[0].facts["across"]["groups"]
    # The other provider's 401 names the channel itself: it is not compared as a break of any window (issue 39).
    assert {(g["provider"], g["pattern"]) for g in groups} == {("sim", "cluster")}


def test_short_ids_are_unique(home):
    report = report_for(home, REAL / "stable-break-3")
    ids = [d["short_id"] for d in report.checks[0].facts["sessions"]]
    assert len(set(ids)) == len(ids) == 4 and all(len(i) > 8 and not i.endswith("-") for i in ids)


def test_ambiguous_session_prefix_lists_the_matches(home, run):
    with pytest.raises(AmbiguousSession) as info:
        load([REAL / "stable-break-3"], Selection(session="01a22fca"), None)
    assert len(info.value.matches) == 4
    code, out, err = run("sessions", str(REAL / "stable-break-3"), "--session", "01a22fca")
    assert code == 2 and "matches 4 sessions" in out + err and "01a22fca-0190" in out + err


def test_concurrent_sessions_take_their_log_lines_by_thread_id(tmp_path):
    start = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)
    a = RolloutWriter(tmp_path / "sessions", start=start, session_id="01a22fca-0000-7000-8000-00000000000a")
    b = RolloutWriter(tmp_path / "sessions", start=start, session_id="01a22fca-0000-7000-8000-00000000000b")
    for w in (a, b):
        w.turn(10000)
        w.turn(11000, complete=False)
        w.close()
    log = tmp_path / "codex-tui.log"
    log.write_text(
        f"2026-11-20T09:00:05.429000Z ERROR session_loop{{thread_id={b.id}}}: codex_core::codex: unexpected status 401 "
        "Unauthorized: Incorrect API key provided\n"
        f"2026-11-20T09:00:06.000000Z ERROR session_loop{{thread_id={a.id}}}: codex_core::codex: Codex ran out of room in "
        "the model's context window.\n"
        "2026-11-20T09:00:07.429000Z INFO codex_core::codex: model_context_window=258400 for this turn\n"
    )
    sessions, _ = load([tmp_path / "sessions"], Selection(), log)
    by_id = {s.id: s for s in sessions}
    assert by_id[a.id].errors == ["Codex ran out of room in the model's context window."]
    assert by_id[b.id].errors == ["unexpected status 401 Unauthorized: Incorrect API key provided"]
    assert classify_session(by_id[a.id])["kind"] == "context" and classify_session(by_id[b.id])["kind"] == "channel"


def test_log_patterns_ignore_timestamps_and_the_word_context(tmp_path):
    log = tmp_path / "codex-tui.log"
    log.write_text(
        "2026-11-20T09:00:29.429Z INFO codex_core: turn started, model_context_window=258400\n"
        "2026-11-20T09:01:00.000Z WARN codex_core: using the default context for this model\n"
        "2026-11-20T09:02:00.000Z ERROR codex_core: unexpected status 429 Too Many Requests: slow down\n"
    )
    found = read_tui_log(log, [])
    assert [kind for _, kind, _, _ in found] == ["429"]


def test_chinese_sessions_report_for_a_group(home):
    report = report_for(home, REAL / "stable-break-3", lang="zh")
    assert "失败会话" in report.verdict_reason
    assert any("`sim` 上 sim-model 的 3 个失败会话" in f.diagnosis for f in report.findings)


def test_build_check_decision_only_when_both_causes(tmp_path):
    w = RolloutWriter(tmp_path)
    w.turn(10000)
    w.turn(0, error="Codex ran out of room in the model's context window.", error_info="context_window_exceeded")
    w.close()
    sessions, _ = load([tmp_path], Selection(), None)
    assert build_check(sessions, [], "x", "/home").facts["decision"] is None


def test_large_corpus_is_summarised_in_bounded_lists(tmp_path, monkeypatch):
    """Thousands of sessions: every one is counted, only the most recent are listed (memory stays bounded)."""
    from codexdoctor.checks.sessions import summary as sessions_mod  # LIST_MAX and BATCH are read there

    monkeypatch.setattr(sessions_mod, "LIST_MAX", 5)
    monkeypatch.setattr(sessions_mod, "BATCH", 7)
    for i in range(30):
        w = RolloutWriter(tmp_path, start=datetime(2026, 11, 1, 9, i, tzinfo=timezone.utc))
        w.turn(10000)
        if i % 10 == 0:
            w.turn(0, error="unexpected status 401 Unauthorized: bad key")
        w.close()
    summaries, _ = sessions_mod.summarize([tmp_path], Selection(), None)
    assert summaries.total == 30 and summaries.failed == 3 and len(summaries.listed) == 5
    assert [d["start"][:16] for d in summaries.listed] == [f"2026-11-01T09:{m:02d}" for m in range(25, 30)]
    check = build_check(summaries, [], "x", "/home")
    assert check.facts["count"] == 30 and check.facts["not_listed"] == 30 - len(check.facts["sessions"])


def _rewrite(text: str, how: str) -> str:
    """A real rollout as another writer (or a later Codex) could put the same content down."""
    import json

    out = []
    for line in text.splitlines():
        obj = json.loads(line)
        if how == "field after timestamp":  # a later Codex adding a field, as 0.171 added "ordinal"
            obj = {"timestamp": obj["timestamp"], "thread_seq": 7, **{k: v for k, v in obj.items() if k != "timestamp"}}
        elif how == "field before the payload type":
            payload = obj.get("payload")
            if isinstance(payload, dict):
                obj["payload"] = {"trace_id": "t-1", **payload}
        elif how == "keys sorted":  # jq -S, json.dumps(sort_keys=True)
            obj = json.loads(json.dumps(obj, sort_keys=True))
        elif how == "ascii escapes":
            out.append(json.dumps(obj, ensure_ascii=True, separators=(",", ":")))
            continue
        out.append(
            json.dumps(obj, separators=(",", ":") if how != "spaced" else (", ", ": "), ensure_ascii=False)
            + ("\r" if how == "crlf" else "")
        )
    return "\n".join(out) + "\n"


_SAME = (
    "kind",
    "failed_turn",
    "peak",
    "window",
    "turns",
    "ended",
    "server_window",
    "truncated_at",
    "error_info",
    "provider",
    "model",
    "cli_version",
    "start",
)


@pytest.mark.parametrize(
    "how", ["field after timestamp", "field before the payload type", "keys sorted", "spaced", "ascii escapes", "crlf"]
)
def test_the_same_content_written_another_way_reads_the_same(tmp_path, monkeypatch, how):
    """Found by rewriting the real rollouts: with a field before "type" (as a later Codex may add one) or its keys
    sorted, every line looked like one to skip and an overflow read as "no turns". The fast scan now checks that a
    file is in the field order it relies on, and reads it line by line, by parsed type, when it is not."""
    from codexdoctor.codex.rollouts import read_session

    for original in sorted(REAL.rglob("*.jsonl")):
        copy = tmp_path / how.replace(" ", "-") / original.name
        copy.parent.mkdir(exist_ok=True)
        copy.write_text(_rewrite(original.read_text(encoding="utf-8"), how), encoding="utf-8")
        want, got = classify_session(read_session(original)), classify_session(read_session(copy))
        assert {k: got[k] for k in _SAME} == {k: want[k] for k in _SAME}, original.name
        assert want["turns"] > 0


MORE = Path(__file__).parents[1] / "fixtures" / "rollouts" / "real-0.171.0-more"


@pytest.mark.parametrize(
    "scenario,words",
    [
        ("fault-502", "unexpected status 502 Bad Gateway: [HTML page: 502 Bad Gateway]"),
        ("fault-reset-mid-stream", "stream disconnected before completion: Transport error"),
        ("fault-error-event", "stream disconnected before completion"),
        ("fault-broken-sse", "stream disconnected before completion"),
        ("fault-stall", "idle timeout waiting for SSE"),
    ],
)
def test_real_channel_faults_are_channel_failures_in_plain_words(home, scenario, words):
    """Real Codex 0.171.0 sessions against a provider that fails in one way (scripts/make_real_rollouts.py)."""
    report = report_for(home, MORE / scenario)
    d = report.checks[0].facts["sessions"][0]
    assert report.verdict.value == "channel" and d["kind"] == "channel"
    assert [f.code for f in report.findings if f.severity.value == "error"] == ["CTX013"]
    assert words in d["error"] and "<" not in d["error"]  # an nginx error page is named by its title, not its markup


def test_real_compactions_then_overflow(home):
    """Codex compacted twice (model_auto_compact_token_limit under the window), then ran out of room."""
    report = report_for(home, MORE / "compact-ok")
    d = report.checks[0].facts["sessions"][0]
    assert d["compactions"] == 2 and d["kind"] == "context" and report.verdict.value == "context"
    assert d["evidence"] in (
        "Codex's context-window error",
        "the overflow signature (a token_count whose total equals the window, other counters zero)",
    )


def _breaking_session(root, index, break_at, error="context_length_exceeded: the request is longer than 15,500 tokens"):
    from datetime import timedelta

    w = RolloutWriter(
        root,
        start=datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc) + timedelta(hours=index),
        provider="gw",
        model="gw-model",
        window=258400,
    )
    for size in (9000, 12000, break_at):
        w.turn(size)
    w.turn(break_at + 2000, error=error)
    return w.close()


def test_one_outlier_does_not_undo_the_group_and_findings_are_one_per_group(home, tmp_path):
    """Issue 28: 7 of 8 sessions broke at 15.5K ± 2%; one outlier turned off the grouped advice (CTX014) and left
    eight CTX012 findings, each with its own window advice. Now: one CTX014 for the seven, one CTX012 for the rest,
    each citing its own sessions."""
    root = tmp_path / "sessions"
    for i, size in enumerate((15400, 15500, 15300, 15600, 15450, 15550, 15350)):
        _breaking_session(root, i, size)
    _breaking_session(root, 7, 6000)
    report = report_for(home, root)
    codes = [f.code for f in report.findings]
    assert codes.count("CTX014") == 1 and codes.count("CTX012") <= 1 and codes.count("CTX017") <= 1, codes
    cluster = next(f for f in report.findings if f.code == "CTX014")
    assert "7 of 8 failed sessions" in cluster.diagnosis and "± 1%" in cluster.diagnosis, cluster.diagnosis
    assert "1 other session broke elsewhere" in cluster.diagnosis
    assert len(cluster.evidence) == 7 and all(line.startswith("session ") for line in cluster.evidence)
    outlier = next(f for f in report.findings if f.code == "CTX012")
    assert len(outlier.evidence) == 1 and "6,000" in outlier.evidence[0]


def test_overflows_of_one_config_give_one_finding_and_one_pair_of_numbers(home, tmp_path):
    from codexdoctor.codex.sizes import window_settings

    root = tmp_path / "sessions"
    for i, size in enumerate((6000, 9000, 14000)):  # too scattered to cluster, all the same config
        _breaking_session(root, i, size, error="maximum context length is 16000 tokens")
    report = report_for(home, root)
    ctx012 = [f for f in report.findings if f.code == "CTX012"]
    assert len(ctx012) == 1, [f.code for f in report.findings]
    assert "2 more sessions of this provider, model and window" in ctx012[0].diagnosis
    window, compact = window_settings(16000)
    assert f"\nmodel_context_window = {window}\nmodel_auto_compact_token_limit = {compact}" in ctx012[0].remedy[0]
    assert len(ctx012[0].evidence) == 3


# Issue 39: real Codex 0.171.0 sessions against a gateway that reports its window as an `error` event inside a 200
# stream (Codex says only "stream closed before response.completed"), and channels that cut streams at no size
# (scripts/make_real_rollouts.py: stable-stream-cut-3, single-stream-cut, wandering-cuts-3, first-turn-stream-cut).
STREAM_CLOSED = "stream disconnected before completion: stream closed before response.completed"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stable_stream_cut_break_is_the_context_and_its_errors_fold_under_it(home, lang):
    report = report_for(home, MORE / "stable-stream-cut-3", lang)
    codes = [f.code for f in report.findings]
    assert codes == ["CTX014"], codes  # never CTX013 beside it: the same sessions are not also a channel error
    assert report.verdict.value == "context"
    cluster = report.findings[0]
    sessions = report.checks[0].facts["sessions"]
    assert all(d["kind"] == "context" and d["settled"] == "cluster" for d in sessions)
    assert STREAM_CLOSED in cluster.diagnosis and "×3" in cluster.diagnosis
    assert ("This is also why" if lang == "en" else "这也是") in cluster.diagnosis
    assert "model_context_window = 18073\nmodel_auto_compact_token_limit = 14400" in cluster.remedy[0]


def test_wandering_stream_cuts_are_the_channel(home):
    report = report_for(home, MORE / "wandering-cuts-3")
    codes = [f.code for f in report.findings if f.severity.value == "error"]
    assert codes == ["CTX015"] and report.verdict.value == "channel"
    assert "messages that alone do not say which broke" in report.findings[0].diagnosis
    failed = [d for d in report.checks[0].facts["sessions"] if d["kind"] != "none"]
    assert len(failed) == 2 and all(d["settled"] == "scattered" and d["kind"] == "channel" for d in failed)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_first_turn_stream_cut_is_the_channel(home, lang):
    report = report_for(home, MORE / "first-turn-stream-cut", lang)
    assert {f.code for f in report.findings} == {"CTX013"} and report.verdict.value == "channel"
    text = report.findings[0].diagnosis
    assert ("a single question fails too" if lang == "en" else "单次提问也会失败") in text
    assert "%" not in text  # no share of a window that nobody measured


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_single_stream_cut_is_inconclusive_and_says_what_would_decide(home, lang):
    report = report_for(home, MORE / "single-stream-cut", lang)
    assert [f.code for f in report.findings] == ["CTX031"] and report.verdict.value == "inconclusive"
    text = report.findings[0].diagnosis + " ".join(report.findings[0].remedy)
    assert "codexdoctor probe" in text and "codexdoctor check" in text
    # The share is said against the window Codex assumes, as such; never "not a full context" on that basis.
    if lang == "en":
        assert "of Codex's effective window, 258,400; the provider's window is unknown" in text
        assert "not a full context" not in text
    else:
        assert "Codex 有效窗口 258,400" in text and "提供方的窗口未知" in text


def test_no_session_is_both_a_cluster_and_a_channel_error(home, tmp_path):
    """The contradictory pair of issue 39 (CTX013 "not a full context" beside CTX014 "a stable break point" for the
    same sessions, and the verdict CHANNEL) cannot be produced, whatever the words of the errors."""
    words = (
        STREAM_CLOSED,
        "We're currently experiencing high demand, which may cause temporary errors.",
        "exceeded retry limit, last status: 429 Too Many Requests",
        "stream disconnected before completion: idle timeout waiting for SSE",
    )
    root = tmp_path / "sessions"
    for i, error in enumerate(words * 2):
        _breaking_session(root, i, 12941 + i, error=error)
    report = report_for(home, root)
    codes = [f.code for f in report.findings if f.severity.value == "error"]
    assert codes == ["CTX014"] and report.verdict.value == "context", codes


@pytest.mark.simulator
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_check_knows_the_sessions_broke_at_one_size_though_a_single_request_works(
    home, run, sim_server, monkeypatch, lang
):
    """Issue 39 point 4: `check` right after three sessions broke at one size says CONTEXT, not OK: the canary fits the
    gateway's 20K window, the sessions that outgrew it are in the user's own logs."""
    import shutil

    from codexdoctor.commands import check as check_mod
    from tests.conftest import write_config

    monkeypatch.setattr(check_mod, "RECENT_DAYS", 100_000)  # the recorded sessions' dates, whatever today is
    s = sim_server(api_key="sk-rollouts-0123456789abcdef", context_window=20000, context_in_stream=True)
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    monkeypatch.setenv("SIM_API_KEY", "sk-rollouts-0123456789abcdef")
    day = home / ".codex" / "sessions" / "2026" / "12" / "02"
    day.mkdir(parents=True)
    for f in (MORE / "stable-stream-cut-3").iterdir():
        shutil.copy(f, day / f.name)
    code, out, err = run("check", "--format", "json", "--lang", lang, "--no-turn-two")
    import json

    report = json.loads(out)
    codes = [f["code"] for f in report["findings"] if f["severity"] == "error"]
    canary = next(c for c in report["checks"] if c["id"] == "api.canary")
    assert canary["status"] == "pass"  # a single request works …
    assert codes == ["CTX014"] and report["verdict"] == "context", codes  # … and the sessions decide
    assert code == 1
    # Without the logs it is the canary alone.
    code, out, err = run("check", "--format", "json", "--no-turn-two", "--no-sessions")
    assert json.loads(out)["verdict"] == "ok" and code == 0


@pytest.mark.parametrize(
    ("records", "expected"),
    [
        (("item", "event"), 1),  # one compaction as Codex's policy.rs persists it: the item and the event
        (("item",), 1),  # 0.171.0: the item alone
        (("event",), 1),
        (("item", "event", "item", "event"), 2),
        (("item", "item"), 2),
    ],
)
def test_a_compaction_written_as_item_and_event_counts_once(tmp_path, records, expected):
    """codex-rs/core/src/rollout/policy.rs keeps both `RolloutItem::Compacted` and `EventMsg::ContextCompacted`: a
    reader that counted every record said "2 compactions" for one (issue 40 remainder)."""
    from codexdoctor.codex.rollouts import read_session

    w = RolloutWriter(tmp_path)
    w.turn(5000)
    for record in records:
        if record == "item":
            w.compacted()
        else:
            w.event({"type": "context_compacted"})
    w.turn(6000)
    assert read_session(w.close()).compactions == expected
