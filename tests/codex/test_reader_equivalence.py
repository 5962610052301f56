"""The single-pass reader gives the same report as the reader it replaced, on every corpus we have.

`tests/old_reader.py` is the previous reader, kept only for this comparison. The corpora: the real Codex 0.171
rollouts in tests/fixtures, bench's generated corpus (tool output and reasoning dominate), and damaged files
(garbage, non-UTF-8, an overlong line, a half-written last line, a legacy file, a re-serialised one).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from codexdoctor.checks.sessions import read as sessions  # read_all and the child it forks
from codexdoctor.codex import rollout_lines, rollouts
from codexdoctor.commands.sessions import run_sessions
from codexdoctor.report.render import render
from tests import old_reader
from tests.rollout_factory import RolloutWriter

ROOT = Path(__file__).resolve().parents[2]
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
        out.append({k: v for k, v in s.items() if k not in ("lines", "skipped_items", "parsed", "compact", "careful")})
    return out


def _damaged(root: Path) -> Path:
    w = RolloutWriter(root)
    w.turn(10000)
    w.raw("this is not json\n\n")
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
    w.close()
    pretty = root / "2026" / "11" / "21" / "rollout-2026-11-21T09-00-00-00000000-0000-0000-0000-000000000001.jsonl"
    pretty.parent.mkdir(parents=True, exist_ok=True)
    pretty.write_text(
        '{"timestamp": "2026-11-21T09:00:00.000Z", "type": "session_meta", "payload": {"id": "p", "cli_version": "0.171.0"}}\n'
        '{"timestamp": "2026-11-21T09:00:01.000Z", "type": "event_msg", "payload": {"type": "task_started", "model_context_window": 9000}}\n'
        '{"timestamp": "2026-11-21T09:00:02.000Z", "type": "event_msg", "payload": {"type": "token_count", "info": '
        '{"total_token_usage": {"input_tokens": 5000, "total_tokens": 5100}, "last_token_usage": {"input_tokens": 5000}, '
        '"model_context_window": 9000}}}\n',
        encoding="utf-8",
    )
    # numbers of any length, first in a file and after another line
    huge = (
        '{"timestamp":"2026-11-22T09:00:0%d.000Z","type":"event_msg","payload":{"type":"token_count","info":'
        '{"total_token_usage":{"input_tokens":%s,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,'
        '"total_tokens":5001},"last_token_usage":{"input_tokens":%s,"cached_input_tokens":0,"output_tokens":1,'
        '"reasoning_output_tokens":0,"total_tokens":5001},"model_context_window":%s},"rate_limits":null}}\n'
    )
    big = root / "2026" / "11" / "22" / "rollout-2026-11-22T09-00-00-00000000-0000-0000-0000-000000000003.jsonl"
    big.parent.mkdir(parents=True, exist_ok=True)
    big.write_text(
        huge % (1, "5000", "9" * 20, "9000")
        + '{"timestamp":"2026-11-22T09:00:02.000Z","type":"event_msg","payload":{"type":"task_started","model_context_window":9000}}\n'
        + huge % (3, "0" * 19 + "6000", "6000", "1" + "0" * 19)
        + huge % (4, "7000", "7000", "9000"),
        encoding="utf-8",
    )
    legacy = root / "2025" / "08" / "01" / "rollout-2025-08-01T09-00-00-00000000-0000-0000-0000-000000000002.jsonl"
    legacy.parent.mkdir(parents=True, exist_ok=True)
    legacy.write_text(
        '{"id":"legacy","timestamp":"2025-08-01T09:00:00Z","instructions":"x"}\n'
        '{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}\n',
        encoding="utf-8",
    )
    return root


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    corpus = tmp_path_factory.mktemp("corpus")
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "make_corpus.py"), str(corpus), "6"], check=True, capture_output=True
    )
    return corpus / "sessions"


@pytest.mark.parametrize("mode", ["mapped", "read"])
@pytest.mark.parametrize("which", ["fixtures", "generated", "damaged"])
def test_new_reader_gives_the_old_report(home, tmp_path, generated, monkeypatch, which, mode):
    """Both ways the new reader reads a file (mmap windows for large settled files, read() for the others)."""
    monkeypatch.setattr(rollouts, "LIVE_SECONDS", 0 if mode == "mapped" else 10**9)
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
    monkeypatch.setattr(rollout_lines, "_orjson", None)
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
    assert time.monotonic() - started < 60 / 2  # killed after CHILD_MIN_SECONDS, not waited for: it sleeps 60 s
