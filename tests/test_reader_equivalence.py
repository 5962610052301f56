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
        out.append({k: v for k, v in s.items() if k not in ("lines", "skipped_items", "parsed", "compact", "careful")})
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
    # numbers too long for the compiled scanner (its lines go to the regex), first in a file and after another line
    huge = ('{"timestamp":"2026-11-22T09:00:0%d.000Z","type":"event_msg","payload":{"type":"token_count","info":'
            '{"total_token_usage":{"input_tokens":%s,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,'
            '"total_tokens":5001},"last_token_usage":{"input_tokens":%s,"cached_input_tokens":0,"output_tokens":1,'
            '"reasoning_output_tokens":0,"total_tokens":5001},"model_context_window":%s},"rate_limits":null}}\n')
    big = root / "2026" / "11" / "22" / "rollout-2026-11-22T09-00-00-00000000-0000-0000-0000-000000000003.jsonl"
    big.parent.mkdir(parents=True, exist_ok=True)
    big.write_text(huge % (1, "5000", "9" * 20, "9000") +
                   '{"timestamp":"2026-11-22T09:00:02.000Z","type":"event_msg","payload":{"type":"task_started","model_context_window":9000}}\n'
                   + huge % (3, "0" * 19 + "6000", "6000", "1" + "0" * 19) + huge % (4, "7000", "7000", "9000"), encoding="utf-8")
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


@pytest.mark.skipif(rollouts._linescan is None, reason="the optional C scanner was not built here")
def test_compiled_scanner_on_edge_lines():
    """Lines to parse come back whole, token counts as numbers, unreadable lines counted as the regex counts them."""
    lines = rollouts._linescan.lines
    env = b'{"timestamp":"2026-11-20T09:00:00.000Z",'
    usage = (b'"info":{"total_token_usage":{"input_tokens":5,"cached_input_tokens":1,"output_tokens":2,'
             b'"reasoning_output_tokens":0,"total_tokens":7},"last_token_usage":{"input_tokens":5,"cached_input_tokens":1,'
             b'"output_tokens":2,"reasoning_output_tokens":0,"total_tokens":7},"model_context_window":%s}}')
    rows = [env + b'"type":"event_msg","payload":{"type":"token_count","info":null}}',
            env + b'"ordinal":12,"type":"turn_context","payload":{"model":"m"}}',
            env + b'"type":"response_item","payload":{"type":"message"}}',
            b"", b"\r", b"garbage", b'{"timestamp',
            env + b'"type":"event_msg","payload":{"type":"agent_message_delta"}}',
            env + b'"type":"event_msg","payload":{"type":"token_count",' + usage % b"9000",
            env + b'"type":"event_msg","payload":{"type":"token_count",' + usage % b"null",
            env + b'"type":"event_msg","payload":{"type":"token_count",' + usage % (b"9" * 19)]
    buf = b"\n".join(rows) + b"\n"
    items, bad = lines(buf, 0, len(buf))
    ts = b"2026-11-20T09:00:00.000Z"
    assert items == [rows[0], rows[1], (ts, 5, 1, 2, 0, 7, 5, 1, 2, 9000), (ts, 5, 1, 2, 0, 7, 5, 1, 2, None),
                     buf.index(rows[10])] and bad == 2  # "garbage" and the cut-off envelope
    with pytest.raises(ValueError):
        lines(buf, 5, len(buf) + 1)


_ENV = '{"timestamp":"2026-11-20T09:00:00.000Z",'
_NAMES = [n.decode() for n in (*rollouts.TOP_TYPES, *rollouts.WANTED_EVENTS)] + [
    "task_startedx", "t", "", "event_msg", "response_item", "agent_message_delta", "errors", "user", "é"]
_BAD_NUMBERS = ["007", "9" * 18, "9" * 19, "0" * 19 + "1", "", "x", "-1", "1.5"]


def _number(rng) -> str:
    return rng.choice(_BAD_NUMBERS) if rng.random() < 0.08 else str(rng.randrange(10 ** rng.randrange(1, 9)))


def _pick(rng, usual: str, *odd: str) -> str:
    """Mostly the form Codex writes (a tail is read only when every part of it is), now and then a broken one."""
    return rng.choice(odd) if odd and rng.random() < 0.1 else usual


def _token_tail(rng) -> str:
    cache = lambda: _pick(rng, rng.choice([",", ',"cache_write_input_tokens":3,']), ',"cache_write_input_tokens":,', ",,")
    extra = "".join(rng.choice([',"rate_limits":null', ',"flag":true', ',"n":false', ',"k":12', ',"k":', ',"K":1', ',"":1',
                                ',"model_context_window_x":1', ',"a_b":tru', ',"x":{}'])
                    for _ in range(rng.choice([0, 0, 1, 2])))
    return "".join([
        _pick(rng, ',"info":{"total_token_usage":{"input_tokens":', ',"info":{"total_token_usage":{"input_tokens" :', ""),
        _number(rng), ',"cached_input_tokens":', _number(rng), cache(), '"output_tokens":', _number(rng),
        ',"reasoning_output_tokens":', _number(rng), ',"total_tokens":', _number(rng),
        '},"last_token_usage":{"input_tokens":', _number(rng), ',"cached_input_tokens":', _number(rng), cache(),
        '"output_tokens":', _number(rng),
        _pick(rng, ',"reasoning_output_tokens":0,"total_tokens":7}', ",}", ',"x":{}}', ',"x":{1}', "}", ',"a":1\n}', ","),
        extra, _pick(rng, ',"model_context_window":', ',"model_context_window" :', ',"model_context_window":"'),
        "null" if rng.random() < 0.1 else _number(rng), _pick(rng, rng.choice(["}", ",", "}}"]), "x", "", " }")])


def _line(rng) -> str:
    roll = rng.random()
    if roll < 0.1:
        return rng.choice(["", "\r", "garbage", "{}", '{"timestamp', "é"])
    head = "".join([_pick(rng, _ENV, '{"timestamp":"x",', "{", "", "x", '{"timestamp":"' + "1" * 41 + '",',
                          '{"timestamp":"2026-11-20T09:00:0\\u0030Z",', '{"timestamp":"2026-11-20T09:00:00é",',
                          '{"timestamp":"2026-11-20\tT09",'),
                    _pick(rng, rng.choice(["", '"ordinal":7,']), '"ordinal":,', '"ordinal":' + "9" * 20 + ",", '"ordinal":1'),
                    _pick(rng, '"type":"', '"type": "', '"kind":"')])
    if roll < 0.55:
        name = _pick(rng, 'event_msg","payload":{"type":"token_count"', 'event_msg","payload":{"type":"task_started"',
                     'turn_context"', 'event_msg","payload":{"type":"token_count')
        return head + name + (_token_tail(rng) if rng.random() < 0.9 else "")
    event = rng.random() < 0.6
    return head + ('event_msg","payload":{"type":"' if event else "") + rng.choice(_NAMES) + \
        rng.choice(['"', '"}}', "", "x", '"\r', '",' + '"payload":{}}'])


def _by_regex(buf: bytes) -> tuple[list, int]:
    """What `_SCAN` makes of each line start of buf (the reference the compiled scanner must equal)."""
    head = b"\n" + buf
    items, bad = [], 0
    starts = [0] + [i + 1 for i, c in enumerate(buf[:-1]) if c == 10]
    for at in starts:
        m = rollouts._SCAN.match(head, at)
        if m is None:
            continue
        if m.group(13) is not None:
            bad += 1
        elif m.group(12) is not None and rollouts._plain(m.group(1)):
            numbers = m.groups()[3:11]
            if max(len(n) for n in (*numbers, m.group(12))) > 18:
                items.append(at)
            else:
                window = None if m.group(12) == b"null" else int(m.group(12))
                items.append((m.group(1), *map(int, numbers), window))
        else:
            items.append(buf[at:buf.index(b"\n", at)])
    return items, bad


@pytest.mark.skipif(rollouts._linescan is None, reason="the optional C scanner was not built here")
@pytest.mark.parametrize("seed", range(4))
def test_compiled_scanner_reads_what_the_pattern_reads(seed):
    """Line by line, the compiled scanner's items and unreadable count equal `_SCAN`'s groups, converted as `_lines`
    converts them: whatever the type names, the token tail's shape, its extra keys and its numbers. 4 x 400 windows
    of 1-12 generated lines (seeded: the same lines every run), each part now and then broken."""
    import random

    rng = random.Random(seed)
    tuples = 0
    for _ in range(400):
        buf = "\n".join(_line(rng) for _ in range(rng.randrange(1, 13))).encode() + b"\n"
        expected = _by_regex(buf)
        assert rollouts._linescan.lines(buf, 0, len(buf)) == tuple(expected), buf
        tuples += sum(isinstance(i, tuple) for i in expected[0])
    assert tuples > 150  # the generator does produce readable token lines, not only broken ones
