"""`codexdoctor sessions`: rollouts told apart by how and why they ended; tolerant of damaged logs."""

from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codexdoctor.checks.sessions import Selection, build_check, classify_session, load
from codexdoctor.codex.rollouts import read_session
from tests.rollout_factory import RolloutWriter, legacy_rollout

REAL = Path(__file__).parents[1] / "fixtures" / "rollouts" / "real-0.171.0"
OVERFLOW_MSG = (
    "Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying."
)
AUTH_MSG = "unexpected status 401 Unauthorized: Incorrect API key provided: sk-*****abcd., url: https://gw.example/v1/responses"


def overflowed(root, window=258400, start=None, sizes=(20000, 60000, 120000, 200000, 240000)):
    w = RolloutWriter(root, window=window, start=start)
    for size in sizes:
        w.turn(size)
    w.turn(0, error=OVERFLOW_MSG, error_info="context_window_exceeded")
    return w.close()


def auth_at_turn_2(root):
    w = RolloutWriter(root, start=datetime(2026, 11, 21, 9, 0, tzinfo=timezone.utc))
    w.turn(9000)
    w.turn(0, error=AUTH_MSG, error_info={"http_connection_failed": {"http_status_code": 401}})
    return w.close()


def compacted_and_survived(root):
    w = RolloutWriter(root, start=datetime(2026, 11, 22, 9, 0, tzinfo=timezone.utc))
    for size in (50000, 150000, 236000):
        w.turn(size)
    w.compacted()
    for size in (30000, 45000):
        w.turn(size)
    return w.close()


def summary(path):
    return classify_session(read_session(path))


def test_overflow_auth_and_compaction_told_apart(tmp_path):
    a = summary(overflowed(tmp_path / "a"))
    b = summary(auth_at_turn_2(tmp_path / "b"))
    c = summary(compacted_and_survived(tmp_path / "c"))
    assert (a["kind"], a["ended"], a["failed_turn"]) == ("context", "overflow", 6)
    assert a["peak"] == 240000 and a["share"] == pytest.approx(0.929, abs=0.001)
    assert (b["kind"], b["ended"], b["failed_turn"], b["error_info"]) == ("channel", "error", 2, "http 401")
    assert (c["kind"], c["ended"], c["compactions"]) == ("none", "completed", 1)


def test_real_codex_rollouts(tmp_path):
    kinds = {p.name: summary(p) for p in REAL.glob("*.jsonl")}
    assert kinds["healthy-3-turns.jsonl"]["kind"] == "none" and kinds["healthy-3-turns.jsonl"]["contexts"] == [
        8477,
        8512,
        8547,
    ]
    assert kinds["auth-401-turn-1.jsonl"]["kind"] == "channel"
    over = kinds["overflow-turn-2.jsonl"]
    assert over["kind"] == "context" and over["real_window"] == 8477  # far below Codex's 258,400: the #16140 case
    assert over["cli_version"] == "0.171.0" and over["window"] == 258400


def test_legacy_format_is_read_without_token_counts(tmp_path):
    s = read_session(legacy_rollout(tmp_path))
    assert s.legacy and len(s.turns) == 2 and s.contexts == [] and s.bad_lines == 0


def test_damaged_logs_are_counted_not_fatal(tmp_path):
    w = RolloutWriter(tmp_path)
    w.turn(10000)
    w.raw("this is not json\n")
    w.raw(
        b'{"timestamp":"2026-11-20T09:00:09.000Z","type":"event_msg","payload":{"type":"token_count","info":\xff\xfe}}\n'
    )
    w.raw(
        '{"timestamp":"2026-11-20T09:00:10.000Z","type":"response_item","payload":{"type":"function_call_output","output":"'
        + "x" * (9 << 20)
        + '"}}\n'
    )
    w.turn(12000)
    w.raw('{"timestamp":"2026-11-20T09:01:00.000Z","type":"event_msg","payload":{"type":"token_co')
    path = w.close()
    s = read_session(path)
    assert s.contexts == [10000, 12000]
    assert s.bad_lines >= 2 and s.huge_lines == 1 and s.truncated_tail


def test_unreadable_file_and_missing_dir(tmp_path):
    check = build_check([read_session(tmp_path / "nope.jsonl")], [], "x", "/home")
    assert check.facts["sessions"][0]["read_error"]
    sessions, problems = load([tmp_path / "does-not-exist"], Selection(), None)
    assert sessions == []


def test_symlink_loop_does_not_hang(tmp_path):
    root = tmp_path / "sessions"
    overflowed(root)
    (root / "2026" / "loop").symlink_to(root)
    sessions, problems = load([root], Selection(), None)
    assert len(sessions) == 1 and problems == []


def test_a_linked_folder_is_followed_once(tmp_path):
    """Sessions moved to another disk and linked back were skipped without a word ("no session logs found")."""
    elsewhere = tmp_path / "disk2" / "2026"
    overflowed(tmp_path / "disk2")
    root = tmp_path / "sessions"
    root.mkdir()
    (root / "2026").symlink_to(elsewhere)
    (root / "again").symlink_to(elsewhere)  # the same folder twice: read once
    sessions, problems = load([root], Selection(), None)
    assert len(sessions) == 1 and problems == [] and sessions[0].turns


def test_breakpoints_cluster_means_context(tmp_path):
    root = tmp_path / "s"
    for day in range(3):
        start = datetime(2026, 11, 10 + day, 9, tzinfo=timezone.utc)
        overflowed(root, window=258400, start=start, sizes=(9000, 30000, 31000 + day * 500))
    sessions, _ = load([root], Selection(), None)
    check = build_check(sessions, [], "x", "/home")
    assert check.facts["across"]["pattern"] == "cluster"


def test_scattered_low_failures_mean_channel(tmp_path):
    root = tmp_path / "s"
    for day, size in enumerate((9000, 30000, 60000)):
        w = RolloutWriter(root, start=datetime(2026, 11, 10 + day, tzinfo=timezone.utc))
        w.turn(size)
        w.turn(0, error="stream disconnected before completion: stream closed before response.completed")
        w.close()
    sessions, _ = load([root], Selection(), None)
    assert build_check(sessions, [], "x", "/home").facts["across"]["pattern"] == "scattered"


def test_outsized_turn_and_advice(tmp_path):
    w = RolloutWriter(tmp_path)
    for size in (10000, 12000, 14000, 30000, 32000, 34000):
        w.turn(size)
    d = summary(w.close())
    assert d["outsized"] == [{"turn": 4, "added": 16000}]
    assert d["turns_per_session"] == int((0.7 * 258400 - 10000) // 2000)


def test_tui_log_errors_matched_by_time(tmp_path):
    codex_home = tmp_path / "codex"
    w = RolloutWriter(codex_home / "sessions", start=datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc))
    w.turn(10000)
    w.turn(11000, complete=False)
    w.close()
    log = codex_home / "log" / "codex-tui.log"
    log.parent.mkdir(parents=True)
    log.write_text(
        "2026-11-20T09:00:12.000000Z ERROR codex_core::codex: stream disconnected before completion: "
        "idle timeout waiting for SSE\n2026-11-25T09:00:00.000000Z ERROR unrelated 401 Unauthorized\n"
    )
    sessions, _ = load([codex_home / "sessions"], Selection(), log)
    assert len(sessions[0].errors) == 1 and "idle timeout" in sessions[0].errors[0]
    # An idle timeout alone does not say which broke (issue 39): unknown until other sessions decide it.
    summary = classify_session(sessions[0])
    assert summary["kind"] == "unknown" and summary["unclear"] is True


def test_selection_last_since_session(tmp_path):
    root = tmp_path / "s"
    paths = [overflowed(root, start=datetime(2026, 11, d, tzinfo=timezone.utc)) for d in (1, 2, 3)]
    ids = [read_session(p).id for p in paths]
    assert [s.id for s in load([root], Selection(last=2), None)[0]] == ids[1:]
    assert [s.id for s in load([root], Selection(since=datetime(2026, 11, 3, tzinfo=timezone.utc)), None)[0]] == ids[2:]
    assert [s.id for s in load([root], Selection(session=ids[0][:8]), None)[0]] == ids[:1]


def test_prefix_cache_healthy_vs_collapsed(tmp_path):
    healthy = RolloutWriter(tmp_path / "h")
    for size in (20000, 30000, 40000, 50000, 60000, 70000):
        healthy.turn(size, cached=int(size * 0.85))
    collapsed = RolloutWriter(tmp_path / "c")
    for i, size in enumerate((20000, 30000, 40000, 50000, 60000, 70000)):
        collapsed.turn(size, cached=int(size * 0.85) if i < 3 else 512)
    h, c = summary(healthy.close()), summary(collapsed.close())
    assert h["cache"]["collapse"] is None and not h["cache"]["late_uncached"]
    assert c["cache"]["collapse"]["turn"] == 4 and c["cache"]["late_uncached"]


def test_cli_sessions_default_location_and_findings(home, run, monkeypatch):
    codex_home = home / ".codex"
    overflowed(codex_home / "sessions")
    auth_at_turn_2(codex_home / "archived_sessions")
    code, out, err = run("sessions")
    assert code == 1
    assert "CTX012" in out and "CTX013" in out and "2 sessions, 2 failed" in out
    assert "next question please" not in out  # message contents only with --show-content
    code, out, _ = run("sessions", "--show-content", "--format", "json")
    assert "next question please" in out


def test_cli_sessions_nothing_found(home, run):
    code, out, _ = run("sessions")
    assert code == 0 and "INCONCLUSIVE" in out and "no session logs found in ~/.codex/sessions" in out


@pytest.mark.parametrize(
    "text,code",
    [
        (
            "unexpected status 401 Unauthorized: Incorrect API key provided: sk-*****abcd, url: https://gw.example/v1/responses",
            "AUTH001",
        ),
        ("Missing environment variable: `TAOTOKEN_API_KEY`.", "ENV001"),
        (
            "Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying.",
            "CTX021",
        ),
        ("stream disconnected before completion: idle timeout waiting for SSE", "CTX032"),
        ("stream disconnected before completion: stream closed before response.completed", "CTX032"),
        ("exceeded retry limit, last status: 429 Too Many Requests", "CTX032"),
        (
            'unexpected status 429 Too Many Requests: {"error":{"code":"insufficient_quota","message":"You exceeded your current quota"}}',
            "API004",
        ),
        ("ERROR: The model `gpt-5-codx` does not exist or you do not have access to it.", "MODEL001"),
        ("unexpected status 404 Not Found: Not Found: /api/v1/responses, url: http://gw/api/v1/responses", "API016"),
        (
            '{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}',
            "CTX021",
        ),
        (
            "Reconnecting... 2/5 (unexpected status 502 Bad Gateway: upstream connect error, url: https://gw/v1/responses)",
            "API005",
        ),
    ],
)
def test_diagnose_error(home, run, text, code):
    rc, out, err = run("diagnose-error", text, "--codex-version", "0.171.0")
    assert code in out, out
    assert rc in (0, 1)


def test_diagnose_error_stdin_and_unknown(home, run, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("Missing environment variable: `X_API_KEY`."))
    rc, out, _ = run("diagnose-error", "-")
    assert rc == 1 and "ENV001" in out
    rc, out, _ = run("diagnose-error", "something odd happened")
    assert rc == 0 and "INCONCLUSIVE" in out


def test_configured_compaction_limit_is_used(tmp_path):
    from codexdoctor.checks.sessions import classify_session

    d = classify_session(read_session(overflowed(tmp_path / "a", sizes=(20000, 60000))), compact_limit=50000)
    assert d["compact_at"] == 50000 and d["compaction_would_fire"]
    d = classify_session(read_session(overflowed(tmp_path / "b", sizes=(20000, 60000))))
    assert d["compact_at"] == int(258400 / 0.95 * 0.9) and not d["compaction_would_fire"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(st.integers(-(10**9), 10**9), st.floats(-1e9, 1e9, allow_nan=False)), min_size=1, max_size=30)
)
def test_local_median_and_mean_are_the_standard_librarys(values):
    """sessions avoids importing statistics at start-up; its two stand-ins must give the very same numbers."""
    import statistics

    from codexdoctor.checks.sessions import _fmean, _median

    assert _median(values) == statistics.median(values)
    assert type(_median(values)) is type(statistics.median(values))
    assert _fmean(iter(values)) == statistics.fmean(values)


def test_a_kimi_overflow_in_a_log_is_context_with_its_window(tmp_path):
    """Moonshot's "exceeded model token limit: N (requested: M)" was read as a channel error; it is the context,
    and N is the window to configure."""
    w = RolloutWriter(tmp_path / "s", window=258400)  # Codex assumed its default window; the model holds 131,072
    for size in (20000, 70000, 125000):
        w.turn(size)
    w.turn(
        0,
        error='unexpected status 400 Bad Request: {"error":{"message":"Invalid request: Your request exceeded model '
        'token limit: 131072 (requested: 140210)","type":"invalid_request_error"}}',
        error_info={"http_connection_failed": {"http_status_code": 400}},
    )
    session = read_session(w.close())
    d = classify_session(session)
    assert d["kind"] == "context" and d["server_window"] == 131072 and d["real_window"] == 131072


@pytest.mark.parametrize(
    "error,words",
    [
        ("Incomplete response returned, reason: max_output_tokens", "cut the answer short"),
        (
            "stream disconnected before completion: Incomplete response returned, reason: content_filter",
            "ended the answer incomplete",
        ),
        ("Quota exceeded. Check your plan and billing details.", "quota is used up"),
        ("Selected model is at capacity. Please try a different model.", "model is at capacity"),
        ("rate limit exceeded: Rate limit reached for requests. Please try again in 1s.", "rate-limited every attempt"),
    ],
)
def test_codexs_words_for_a_stream_ending_make_the_session_a_channel_failure(tmp_path, error, words):
    """0.171 writes the ending into the rollout's task_complete error (issue 38): read as diagnose-error reads it,
    the channel at any size, not a context symptom nor undecided."""
    w = RolloutWriter(tmp_path)
    w.turn(9000)
    w.turn(20000)
    w.turn(0, error=error)
    d = classify_session(read_session(w.close()))
    assert d["kind"] == "channel" and words in d["evidence"], d["evidence"]
