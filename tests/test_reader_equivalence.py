"""The single-pass reader gives the same report as the reader it replaced, on every corpus we have.

`tests/old_reader.py` is the previous reader, kept only for this comparison. The corpora: the real Codex 0.171
rollouts in tests/fixtures, bench's generated corpus (tool output and reasoning dominate), and damaged files
(garbage, non-UTF-8, an overlong line, a half-written last line, a legacy file, a re-serialised one).
"""

from __future__ import annotations

import json
from dataclasses import asdict
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codexdoctor.codex import rollouts
from codexdoctor.checks import sessions
from codexdoctor.commands.sessions import run_sessions
from codexdoctor.report.render import render
from tests import old_reader
from tests.rollout_factory import RolloutWriter

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "rollouts" / "real-0.171.0"


def _report(home: Path, corpus: Path, reader) -> dict:
    original = sessions.read_session
    sessions.read_session = reader
    try:
        report, _ = run_sessions({"HOME": str(home)}, home, (corpus,), None, None, None, True)
    finally:
        sessions.read_session = original
    data = json.loads(render(report, "json"))
    for check in data["checks"]:
        check.pop("duration_ms", None)  # the one field that is a timing, not a reading
    return data


def _sessions(corpus: Path, reader) -> list:
    out = []
    for path in rollouts.find_rollouts([corpus], []):
        s = asdict(reader(path, keep_content=True))  # plain data: the two readers have their own classes
        out.append({k: v for k, v in s.items() if k not in ("lines", "skipped_items", "parsed", "compact")})
    return out


def _damaged(root: Path) -> Path:
    w = RolloutWriter(root)
    w.turn(10000)
    w.raw("this is not json\n\n")
    w.raw(b'{"timestamp":"2026-11-20T09:00:09.000Z","type":"event_msg","payload":{"type":"token_count","info":\xff\xfe}}\n')
    w.raw('{"timestamp":"2026-11-20T09:00:10.000Z","type":"response_item","payload":{"type":"function_call_output","output":"'
          + "x" * (9 << 20) + '"}}\n')
    w.turn(12000)
    w.raw('{"timestamp":"2026-11-20T09:01:00.000Z","type":"event_msg","payload":{"type":"token_co')
    w.close()
    pretty = root / "2026" / "11" / "21" / "rollout-2026-11-21T09-00-00-00000000-0000-0000-0000-000000000001.jsonl"
    pretty.parent.mkdir(parents=True, exist_ok=True)
    pretty.write_text('{"timestamp": "2026-11-21T09:00:00.000Z", "type": "session_meta", "payload": {"id": "p", "cli_version": "0.171.0"}}\n'
                      '{"timestamp": "2026-11-21T09:00:01.000Z", "type": "event_msg", "payload": {"type": "task_started", "model_context_window": 9000}}\n'
                      '{"timestamp": "2026-11-21T09:00:02.000Z", "type": "event_msg", "payload": {"type": "token_count", "info": '
                      '{"total_token_usage": {"input_tokens": 5000, "total_tokens": 5100}, "last_token_usage": {"input_tokens": 5000}, '
                      '"model_context_window": 9000}}}\n', encoding="utf-8")
    legacy = root / "2025" / "08" / "01" / "rollout-2025-08-01T09-00-00-00000000-0000-0000-0000-000000000002.jsonl"
    legacy.parent.mkdir(parents=True, exist_ok=True)
    legacy.write_text('{"id":"legacy","timestamp":"2025-08-01T09:00:00Z","instructions":"x"}\n'
                      '{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}\n', encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    corpus = tmp_path_factory.mktemp("corpus")
    subprocess.run([sys.executable, str(ROOT / "bench" / "make_corpus.py"), str(corpus), "6"], check=True,
                   capture_output=True)
    return corpus / "sessions"


@pytest.mark.parametrize("scanner", ["compiled", "python"])
@pytest.mark.parametrize("mode", ["mapped", "read"])
@pytest.mark.parametrize("which", ["fixtures", "generated", "damaged"])
def test_new_reader_gives_the_old_report(home, tmp_path, generated, monkeypatch, which, mode, scanner):
    """Both ways the new reader reads a file (mmap windows for large settled files, read() for the others), with the
    compiled line-start prefilter and with the pure-Python scan that stands in where it could not be built."""
    if scanner == "compiled" and rollouts._linescan is None:
        pytest.skip("the optional C prefilter was not built here (no compiler)")
    if scanner == "python":
        monkeypatch.setattr(rollouts, "_linescan", None)
    monkeypatch.setattr(rollouts, "LIVE_SECONDS", 0 if mode == "mapped" else 10 ** 9)
    monkeypatch.setattr(rollouts, "MAP_MIN_BYTES", 0 if mode == "mapped" else 1 << 60)
    corpus = {"fixtures": FIXTURES, "generated": generated}.get(which) or _damaged(tmp_path / "damaged")
    assert _sessions(corpus, rollouts.read_session) == _sessions(corpus, old_reader.read_session)
    assert _report(home, corpus, rollouts.read_session) == _report(home, corpus, old_reader.read_session)


def test_two_process_read_equals_one_process_read(generated, monkeypatch):
    files = rollouts.find_rollouts([generated], [])
    serial = [asdict(s) for s in sessions.read_all(files, True)]
    monkeypatch.setattr(sessions, "PARALLEL_MIN_BYTES", 0)
    forked = [asdict(s) for s in sessions.read_all(files, True)]
    assert forked == serial and len(forked) == len(files)
    # no fork (or a child that fails): this process reads the other half itself, with the same result
    monkeypatch.setattr(sessions, "_read_in_child", lambda fs, one: sessions._Child(fs, one, None, None))
    assert [asdict(s) for s in sessions.read_all(files, True)] == serial


def test_classified_in_both_processes_as_in_one(home, generated, monkeypatch):
    """The report is the same whether each reading process classifies its own sessions or this one does all."""
    serial = _report(home, generated, rollouts.read_session)
    monkeypatch.setattr(sessions, "PARALLEL_MIN_BYTES", 0)
    assert _report(home, generated, rollouts.read_session) == serial


@pytest.mark.parametrize("which", ["fixtures", "damaged"])
def test_reader_without_orjson_reads_the_same(tmp_path, monkeypatch, which):
    corpus = FIXTURES if which == "fixtures" else _damaged(tmp_path / "damaged")
    fast = _sessions(corpus, rollouts.read_session)
    monkeypatch.setattr(rollouts, "_orjson", None)
    assert _sessions(corpus, rollouts.read_session) == fast


def test_a_live_file_is_read_not_mapped(tmp_path, monkeypatch):
    """A session written in the last minutes may still be growing: it is read with read(), never mapped."""
    import os
    import time

    path = _damaged(tmp_path / "live")
    files = rollouts.find_rollouts([path], [])
    monkeypatch.setattr(rollouts, "MAP_MIN_BYTES", 0)  # the fixture's files are small: sized as if large
    mapped = []
    real_mmap = rollouts.mmap.mmap
    monkeypatch.setattr(rollouts.mmap, "mmap", lambda *a, **k: mapped.append(1) or real_mmap(*a, **k))
    live = [asdict(rollouts.read_session(f)) for f in files]
    assert not mapped
    old = time.time() - 3600
    for f in files:
        os.utime(f, (old, old))
    assert [asdict(rollouts.read_session(f)) for f in files] == live and mapped


def test_a_small_settled_file_is_read_a_large_one_mapped(tmp_path, monkeypatch):
    """Below MAP_MIN_BYTES a copy is cheaper than faulting a mapping in; above it the file is mapped."""
    import os
    import time

    path = _damaged(tmp_path / "settled")
    files = rollouts.find_rollouts([path], [])
    old = time.time() - 3600
    for f in files:
        os.utime(f, (old, old))
    mapped = []
    real_mmap = rollouts.mmap.mmap
    monkeypatch.setattr(rollouts.mmap, "mmap", lambda *a, **k: mapped.append(1) or real_mmap(*a, **k))
    small = [asdict(rollouts.read_session(f)) for f in files]
    assert not mapped and max(f.stat().st_size for f in files) < rollouts.MAP_MIN_BYTES
    monkeypatch.setattr(rollouts, "MAP_MIN_BYTES", 1)
    assert [asdict(rollouts.read_session(f)) for f in files] == small and mapped


def test_a_stuck_child_is_killed_and_its_half_read_here(generated, monkeypatch):
    import os
    import time

    files = rollouts.find_rollouts([generated], [])
    serial = [asdict(s) for s in sessions.read_all(files, True)]
    parent = os.getpid()
    real = rollouts.read_session

    def stuck_in_child(path, keep_content=False):
        if os.getpid() != parent:
            time.sleep(60)  # a child that never answers
        return real(path, keep_content=keep_content)

    monkeypatch.setattr(sessions, "read_session", stuck_in_child)
    monkeypatch.setattr(sessions, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(sessions, "CHILD_MIN_SECONDS", 0.5)
    started = time.monotonic()
    assert [asdict(s) for s in sessions.read_all(files, True)] == serial
    assert time.monotonic() - started < 20


@pytest.mark.skipif(rollouts._linescan is None, reason="the optional C prefilter was not built here")
def test_compiled_prefilter_on_edge_lines():
    """Candidates are a superset of the lines the regex takes; unreadable lines are counted exactly as the regex does."""
    scan = rollouts._linescan.scan
    env = b'{"timestamp":"2026-11-20T09:00:00.000Z",'
    lines = [env + b'"type":"event_msg","payload":{"type":"token_count","info":null}}',
             env + b'"ordinal":12,"type":"turn_context","payload":{"model":"m"}}',
             env + b'"type":"response_item","payload":{"type":"message"}}',
             b"", b"\r", b"garbage", b'{"timestamp', env + b'"type":"event_msg","payload":{"type":"agent_message_delta"}}']
    buf = b"\n".join(lines) + b"\n"
    candidates, bad = scan(buf, 0, len(buf))
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    assert candidates == [starts[0], starts[1]] and bad == 2  # "garbage" and the cut-off envelope
    with pytest.raises(ValueError):
        scan(buf, 5, len(buf) + 1)


_ENV = '{"timestamp":"2026-11-20T09:00:00.000Z",'
_NAMES = [n.decode() for n in (*rollouts.TOP_TYPES, *rollouts.WANTED_EVENTS)] + [
    "task_startedx", "t", "", "event_msg", "response_item", "agent_message_delta", "errors", "user", "é"]
_ENVELOPE_LINE = st.tuples(
    st.sampled_from([_ENV, _ENV, '{"timestamp":"x",', "{", "", "x"]), st.sampled_from(["", '"ordinal":7,', '"ordinal":,']),
    st.sampled_from(['"type":"', '"type": "', '"kind":"']), st.sampled_from(["", "", 'event_msg","payload":{"type":"']),
    st.sampled_from(_NAMES), st.sampled_from(['"', '"}}', "", "x", '"\r'])).map("".join)
_LINE_PARTS = st.one_of(_ENVELOPE_LINE, st.sampled_from(["", "\r", "garbage", "{}", '{"timestamp']))


@pytest.mark.skipif(rollouts._linescan is None, reason="the optional C prefilter was not built here")
@settings(max_examples=500, deadline=None)
@given(st.lists(_LINE_PARTS, min_size=1, max_size=12))
def test_compiled_prefilter_finds_every_line_the_pattern_takes(lines):
    """The C prefilter's candidates, confirmed by `_SCAN`, are exactly the line starts where `_SCAN` matches, and its
    count of non-envelope lines is the pattern's: whatever the type names and their first letters."""
    buf = "\n".join(lines).encode() + b"\n"
    candidates, bad = rollouts._linescan.scan(buf, 0, len(buf))
    starts = [0] + [i + 1 for i, c in enumerate(buf[:-1]) if c == 10]
    head = b"\n" + buf
    by_pattern = [at for at in starts if (m := rollouts._SCAN.match(head, at)) is not None and m.group(13) is None]
    by_scan = [at for at in candidates if (m := rollouts._SCAN.match(head, at)) is not None and m.group(13) is None]
    assert by_scan == by_pattern
    assert bad == sum(1 for at in starts if (m := rollouts._SCAN.match(head, at)) is not None and m.group(13) is not None)
