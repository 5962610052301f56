"""`codexdoctor watch`: the recorder between Codex and the provider, against the simulator over real sockets.

What Codex receives must be what the provider sent, byte for byte and as it arrives; every ending of a stream is
recorded as what it was; a dead provider is a quick 502; no piece of the key reaches a recording."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import httpx
import pytest

from codexdoctor.common.redact import Redactor
from codexdoctor.watch import child, diagnosis, override, store
from codexdoctor.watch.meter import Meter
from codexdoctor.watch.record import Recorded
from codexdoctor.watch.record import line as record_line
from codexdoctor.watch.recorder import Recorder, Upstream
from tests.conftest import write_config

KEY = "sk-watch-0123456789abcdefXYZ"
BODY = {
    "model": "sim-model",
    "stream": True,
    "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]}],
}
TOOL_BODY = {
    **BODY,
    "input": [
        *BODY["input"],
        {"type": "function_call", "call_id": "c1", "name": "exec_command", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "ok"},
    ],
}


class Tap:
    """A TCP relay in front of the simulator that keeps every byte the simulator sent back: what "the bytes the
    provider sent" means, measured on the wire."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.sent_back: list[bytes] = []
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            record = bytearray()
            self.sent_back.append(record)  # type: ignore[arg-type]
            threading.Thread(target=self._pump, args=(client, upstream, None), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, record), daemon=True).start()

    @staticmethod
    def _pump(src: socket.socket, dst: socket.socket, record: bytearray | None) -> None:
        try:
            while data := src.recv(65536):
                if record is not None:
                    record += data
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def recorded(sim_server):
    """Start a simulator (with the given knobs) and a recorder in front of it; yields (recorder, records, sim)."""
    running: list[Recorder] = []

    def _start(base_url: str | None = None, keep_bodies: bool = False, **knobs):
        s = sim_server(api_key=KEY, **knobs) if base_url is None else None
        records: list[Recorded] = []
        rec = Recorder(
            Upstream(base_url or s.base_url, {}), Redactor([]), records.append, keep_bodies=keep_bodies
        ).start()
        running.append(rec)
        return rec, records, s

    yield _start
    for rec in running:
        rec.stop()


def post(url: str, body=BODY, **kw) -> httpx.Response:
    return httpx.post(url + "/responses", json=body, headers={"Authorization": f"Bearer {KEY}"}, timeout=20, **kw)


def wait_for(records: list, n: int = 1) -> None:
    deadline = time.monotonic() + 10
    while len(records) < n and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(records) >= n


# The passthrough


@pytest.mark.simulator
def test_codex_receives_the_bytes_the_provider_sent(sim_server):
    s = sim_server(api_key=KEY)
    host, port = s.url.removeprefix("http://").split(":")
    tap = Tap((host, int(port)))
    records: list[Recorded] = []
    rec = Recorder(Upstream(f"http://127.0.0.1:{tap.port}/v1", {}), Redactor([]), records.append).start()
    try:
        got = post(rec.base_url)
        wait_for(records)
    finally:
        rec.stop()
        tap.close()
    wire = bytes(tap.sent_back[0])
    head, _, body = wire.partition(b"\r\n\r\n")
    assert got.status_code == 200 and len(body) > 1000
    assert got.content == body  # byte for byte (the recorder re-frames, never re-writes)
    assert got.headers["content-type"] == "text/event-stream"
    assert got.headers["x-request-id"] == records[0].request_id
    r = records[0]
    assert (r.ending, r.status, r.input_kinds) == ("completed", 200, ("message:user",))
    assert r.input_tokens and r.output_tokens == 24 and r.events > 5
    assert r.response_bytes == len(body)


@pytest.mark.simulator
def test_events_reach_codex_as_they_arrive(recorded):
    """A stream that pauses 1.5 s mid-way: its first event must be with the client long before the stream ends."""
    rec, records, _ = recorded(stall_after_tokens=3, stall_seconds=1.5)
    t0 = time.monotonic()
    first = None
    with httpx.stream(
        "POST", rec.base_url + "/responses", json=BODY, headers={"Authorization": f"Bearer {KEY}"}, timeout=20
    ) as resp:
        for chunk in resp.iter_raw():
            if first is None and b"response.created" in chunk:
                first = time.monotonic() - t0
    end = time.monotonic() - t0
    assert first is not None and end - first >= 1.2, (first, end)
    wait_for(records)
    assert records[0].longest_gap_ms is not None and records[0].longest_gap_ms >= 1400
    assert records[0].ending == "completed"


@pytest.mark.simulator
@pytest.mark.parametrize(
    ("knobs", "ending", "status"),
    [
        ({}, "completed", 200),
        ({"stream_fault": "response_failed"}, "failed", 200),
        ({"stream_fault": "error_event"}, "error_event", 200),
        ({"stream_fault": "chat_chunks"}, "eof", 200),
        ({"stream_fault": "reset_mid_stream"}, "reset", 200),
        ({"stream_fault": "json_body"}, "not_sse", 200),
        ({"rate_limited_posts": 5}, "http_error", 429),
        ({"context_window": 200}, "http_error", 400),
    ],
    ids=lambda v: str(v),
)
def test_every_ending_of_a_stream_is_recorded(recorded, knobs, ending, status):
    rec, records, _ = recorded(**knobs)
    big = {
        **BODY,
        "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello " * 400}]}],
    }
    try:
        post(rec.base_url, big)
    except httpx.HTTPError:
        assert ending == "reset"  # the client sees the provider's break as its own
    wait_for(records)
    r = records[0]
    assert (r.ending, r.status) == (ending, status), (r.failure, r.error)
    if ending in ("failed", "error_event", "http_error"):
        assert r.error
    if status == 429:
        assert diagnosis.is_masked(r)
    if status == 400:
        assert diagnosis.is_context(r)


def test_an_incomplete_response_and_its_reason():
    m = Meter(0.0, "text/event-stream", "")
    m.headers(0.1)
    m.feed(b'event: response.created\r\ndata: {"type":"response.created"}\r\n\r\n: keep-alive\n\n', 0.2)
    m.feed(b'data:{"type":"response.output_text.delta","delta":"x"}\n\n', 0.5)
    m.feed(b'event: response.incomplete\ndata: {"response":{"incomplete_details":{"reason":"max_output_tokens"},', 2.5)
    m.feed(b'"usage":{"input_tokens":10,"input_tokens_details":{"cached_tokens":4},"output_tokens":7}}}', 2.6)
    m.finish(2.7)  # no blank line after the last event: it still counts
    assert (m.ending, m.incomplete_reason, m.events) == ("incomplete", "max_output_tokens", 3)
    assert m.tokens() == (10, 4, 7)
    assert m.ms_since_sent(m.first_output_at) == 500.0
    assert round(m.longest_gap, 1) == 2.2  # the comment is no event


def test_a_gzip_stream_is_read_through_its_compression():
    import gzip

    data = gzip.compress(b'event: response.completed\ndata: {"response":{"usage":{"input_tokens":5}}}\n\n')
    m = Meter(0.0, "text/event-stream", "gzip")
    m.headers(0.0)
    for i in range(0, len(data), 7):
        m.feed(data[i : i + 7], 0.1)
    assert m.ending == "completed" and m.tokens()[0] == 5


@pytest.mark.simulator
def test_a_dead_provider_is_a_quick_502_and_is_recorded():
    with socket.create_server(("127.0.0.1", 0)) as s:
        port = s.getsockname()[1]
    records: list[Recorded] = []
    rec = Recorder(Upstream(f"http://127.0.0.1:{port}/v1", {}), Redactor([]), records.append).start()
    try:
        t0 = time.monotonic()
        got = post(rec.base_url)
        assert got.status_code == 502 and time.monotonic() - t0 < 5
        assert "could not be reached (refused)" in got.json()["error"]["message"]
        wait_for(records)
    finally:
        rec.stop()
    assert (records[0].ending, records[0].status, records[0].failure) == ("unreachable", None, "refused")


@pytest.mark.simulator
def test_only_base_urls_origin_is_ever_contacted():
    """A request line naming another host (absolute form) is refused, not forwarded."""
    records: list[Recorded] = []
    rec = Recorder(Upstream("http://127.0.0.1:9/v1", {}), Redactor([]), records.append).start()
    try:
        with socket.create_connection(("127.0.0.1", rec.port)) as c:
            c.sendall(b"GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\nContent-Length: 0\r\n\r\n")
            answer = c.recv(4096)
        wait_for(records)  # recorded after the answer is sent: under load the assertion below came first (issue 37)
    finally:
        rec.stop()
    assert answer.startswith(b"HTTP/1.1 400")
    assert records[0].ending == "http_error" and records[0].error == "absolute URL"


# Redaction and the store


@pytest.mark.simulator
def test_no_piece_of_the_key_reaches_a_recording(recorded, tmp_path):
    """A gateway that echoes the bearer token in its error, and --keep-bodies: the recording holds no piece of it."""
    rec, records, _ = recorded(keep_bodies=True, stream_fault="error_event", fault_message="bad key {auth}")
    post(rec.base_url)
    rec2, records2, _ = recorded(keep_bodies=True, rate_limited_posts=3)
    post(rec2.base_url)
    wait_for(records)
    wait_for(records2)
    st = store.Store(tmp_path / "rec")
    for r in records + records2:
        st.request(r)
    text = st.path.read_text(encoding="utf-8")
    assert "bad key" in text and "request" in text  # the bodies are there, redacted
    for piece in (KEY, KEY[3:], KEY[-12:], KEY[:12]):
        assert piece not in text, piece
    assert stat.S_IMODE(st.path.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "rec").stat().st_mode) == 0o700


def test_recordings_are_bounded_and_never_under_codex_home(tmp_path, monkeypatch):
    folder = tmp_path / "rec"
    folder.mkdir()
    for n in range(store.MAX_RECORDINGS + 5):
        (folder / f"watch-2026010{n:02d}T000000Z-1.jsonl").write_text("{}\n")
    st = store.Store(folder)
    assert len(list(folder.glob("watch-*.jsonl"))) == store.MAX_RECORDINGS - 1
    monkeypatch.setattr(store, "MAX_BYTES", 600)
    r = Recorded(
        number=1, method="POST", path="/v1/responses", started="t", status=200, ending="completed", body_bytes=1
    )
    results = [st.request(r) for _ in range(5)]
    assert results[0] and not results[-1] and st.dropped >= 1
    assert st.path.stat().st_size <= 600
    with pytest.raises(store.Unusable):
        store.Store(tmp_path / ".codex" / "recordings", codex_home=tmp_path / ".codex")
    assert store.recordings_dir({"XDG_STATE_HOME": "/s"}, Path("/h")) == Path("/s/codexdoctor/recordings")
    assert store.recordings_dir({"XDG_STATE_HOME": "rel"}, Path("/h")) == Path("/h/.local/state/codexdoctor/recordings")
    back = store.read(st.path)
    assert back.requests and back.requests[0] == r


# Pointing Codex at the recorder


def resolved(home: Path, text: str, env: dict[str, str] | None = None):
    from codexdoctor.codex.config import resolve

    write_config(home, text)
    return resolve({"HOME": str(home), **(env or {})}, home, home, system_config=None)


def test_the_key_codex_reads_for_each_kind_of_provider(home):
    custom = resolved(
        home, 'model_provider = "gw"\n[model_providers.gw]\nname = "g"\nbase_url = "https://gw.example/api/v1/"\n'
    )
    p = override.pointing(custom)
    assert (p.upstream, p.config_key) == ("https://gw.example/api/v1/", "model_providers.gw.base_url")
    assert p.override("http://127.0.0.1:5/api/v1") == 'model_providers.gw.base_url="http://127.0.0.1:5/api/v1"'
    openai = override.pointing(resolved(home, 'model = "gpt-5.5"\n'))
    assert (openai.upstream, openai.config_key) == ("https://api.openai.com/v1", "openai_base_url")
    moved = override.pointing(resolved(home, 'openai_base_url = "http://10.0.0.2:8000/v1"\n'))
    assert moved.upstream == "http://10.0.0.2:8000/v1"
    oss = override.pointing(resolved(home, 'model_provider = "ollama"\n', {"CODEX_OSS_BASE_URL": "http://h:1/v1"}))
    assert (oss.upstream, oss.env_var, oss.config_key) == ("http://h:1/v1", "CODEX_OSS_BASE_URL", None)
    assert override.pointing(resolved(home, 'model_provider = "amazon-bedrock"\n')).problem
    assert override.pointing(resolved(home, 'model_provider = "nope"\n')).problem
    dotted = resolved(home, 'model_provider = "a.b"\n[model_providers."a.b"]\nname = "x"\nbase_url = "http://h/v1"\n')
    assert "cannot be named" in str(override.pointing(dotted).problem or "")


def test_codex_command_lines_are_read_and_given_one_override():
    args = child.read_args(["codex", "-c", 'model="x"', "--profile=work", "exec", "-m", "m1", "--config=a=1", "hi"])
    assert args == child.CodexArgs(('model="x"', "a=1"), "work", "m1", "exec")
    assert child.read_args(["npx", "@openai/codex", "resume"]).subcommand == "resume"
    assert child.with_override(["codex", "exec", "hi"], "k=1") == ["codex", "-c", "k=1", "exec", "hi"]
    assert child.with_override(["npx", "@openai/codex", "exec"], "k=1") == ["npx", "@openai/codex", "-c", "k=1", "exec"]
    assert override.no_proxy_for_loopback({"HTTPS_PROXY": "http://p:1", "NO_PROXY": "corp"}) == {
        "NO_PROXY": "corp,127.0.0.1",
        "no_proxy": "127.0.0.1",
    }
    assert override.no_proxy_for_loopback({}) == {}


# The diagnosis


def rec_of(n: int, **kw) -> Recorded:
    base = dict(method="POST", path="/v1/responses", started="t", status=200, ending="completed", body_bytes=100)
    return Recorded(number=n, **{**base, **kw})


def test_the_diagnosis_finds_the_break_the_stall_and_the_growth():
    from codexdoctor.rules import evaluate

    reqs = [
        rec_of(1, input_tokens=9000, first_output_ms=500.0, longest_gap_ms=100.0),
        rec_of(2, input_tokens=20000, first_output_ms=1500.0, longest_gap_ms=25000.0),
        rec_of(3, input_tokens=30000, first_output_ms=4000.0, longest_gap_ms=100.0),
        rec_of(
            4,
            status=400,
            ending="http_error",
            error='{"error":{"message":"maximum context length is 32768 tokens","code":"context_length_exceeded"}}',
        ),
    ]
    result = diagnosis.check(reqs, "~/rec.jsonl", 1)
    from codexdoctor.facts import mismatches

    assert mismatches("ctx.watch", {**result.facts, "shell": "bash", "platform": "linux"}) == []
    codes = sorted(f.code for f in evaluate([result]))
    assert codes == ["CTX041", "CTX042", "CTX043"]
    assert result.facts["context_break"]["before_tokens"] == 30000
    assert result.facts["context_break"]["server_window"] == 32768


def test_a_masked_429_and_a_failure_after_a_tool_call():
    from codexdoctor.rules import evaluate

    reqs = [
        rec_of(1, input_kinds=("message:user",), input_tokens=9000),
        rec_of(
            2,
            input_kinds=("message:user", "function_call", "function_call_output"),
            status=429,
            ending="http_error",
            error='{"error":{"message":"Your balance is too low to use this model","type":"insufficient_quota"}}',
            request_id="req_9",
        ),
    ]
    findings = evaluate([diagnosis.check(reqs, "~/r.jsonl", 1)], lang="zh")
    by = {f.code: f for f in findings}
    assert set(by) == {"CTX040", "CTX044"}
    assert "Your balance is too low" in by["CTX040"].diagnosis and "req_9" in by["CTX040"].diagnosis


# Prefix-cache reuse (seed 003)


def growing(turns: int, session: str = "0199a1b0-5c3e-7d2f-9a41-8b6c2e1f0d3a") -> list[dict]:
    """Codex's requests of one session turn by turn: each begins with the one before (the history resent)."""

    def said(text: str) -> dict:
        return {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}

    items = [said(" ".join(f"word{i}" for i in range(1500)))]  # instructions, AGENTS.md: the stable prefix
    bodies = []
    for turn in range(turns):
        items = [*items, said(f"question {turn}: " + " ".join(f"q{turn}w{i}" for i in range(60)))]
        bodies.append({**BODY, "input": items, "prompt_cache_key": session})
    return bodies


def cache_run(recorded, turns: int = 4, **knobs) -> list[Recorded]:
    rec, records, _ = recorded(**knobs)
    for body in growing(turns):
        assert post(rec.base_url, body=body).status_code == 200
    wait_for(records, turns)
    return sorted(records, key=lambda r: r.number)


@pytest.mark.simulator
def test_a_provider_that_caches_is_reused_turn_by_turn(recorded):
    from codexdoctor.rules import evaluate

    records = cache_run(recorded, prefix_cache=True)
    shares = [r.cached_share for r in records]
    assert shares[0] == 0 and all(s is not None and s > 0.5 for s in shares[1:]), shares
    assert all(r.session == "0199a1b0-5c3e-7d2f-9a41-8b6c2e1f0d3a" for r in records)
    result = diagnosis.check(records, "~/r.jsonl", 0)
    assert result.facts["cache_reuse"] is None and [c["cached_share"] for c in result.facts["calls"]] == shares
    assert "CTX045" not in {f.code for f in evaluate([result])}
    assert "cached, " in record_line(records[1]) and "%)" in record_line(records[1])
    (table,) = diagnosis.sections(records)
    assert table.headers[4] == "reused" and table.rows[1][4].endswith("%")


@pytest.mark.simulator
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_cache_that_drops_to_zero_mid_session_is_found(recorded, lang):
    from codexdoctor.rules import evaluate

    records = cache_run(recorded, prefix_cache=True, cache_stops_after=2)
    assert [bool(r.cached_tokens) for r in records] == [False, True, False, False]
    facts = diagnosis.facts_of(records, "~/r.jsonl", 0)
    assert facts["cache_reuse"]["pattern"] == "dropped" and facts["cache_reuse"]["number"] == 3
    (finding,) = [f for f in evaluate([diagnosis.check(records, "~/r.jsonl", 0)], lang=lang) if f.code == "CTX045"]
    said = {
        "en": ("on request #2 to 0% on request #3", "It stayed under 5% on the next request.", "input tokens"),
        "zh": ("降到第 3 个请求的 0%", "下一个请求也低于 5%", "输入"),
    }[lang]
    assert said[0] in finding.diagnosis and said[1] in finding.diagnosis
    assert len(finding.evidence) == 4 and said[2] in finding.evidence[2] and "0 cached" not in finding.evidence[1]


@pytest.mark.simulator
def test_a_provider_that_never_caches_is_found_and_one_that_never_says_is_not_judged(recorded):
    from codexdoctor.rules import evaluate

    never = cache_run(recorded, prefix_cache=False)
    assert [r.cached_tokens for r in never] == [0, 0, 0, 0]
    finding = next(f for f in evaluate([diagnosis.check(never, "~/r.jsonl", 0)]) if f.code == "CTX045")
    assert "every one of the 3 requests from #2 on" in finding.diagnosis
    silent = cache_run(recorded, prefix_cache=True, report_cached_tokens=False)
    assert [r.cached_share for r in silent] == [None] * 4
    assert diagnosis.facts_of(silent, "~/r.jsonl", 0)["cache_reuse"] is None


def test_cache_reuse_is_not_judged_across_sessions_compactions_or_long_pauses():
    def r(n: int, inp: int, cached: int, **kw) -> Recorded:
        return rec_of(n, input_tokens=inp, cached_tokens=cached, started=f"2026-12-02T10:0{n}:00Z", **kw)

    # Two sessions through one `--serve` recorder: the second's first request shares nothing with the first's.
    two = [r(1, 9000, 0, session="aaaaaaaa"), r(2, 10000, 8960, session="aaaaaaaa"), r(3, 9000, 0, session="bbbbbbbb")]
    assert diagnosis.facts_of(two, "w", 0)["cache_reuse"] is None
    # A compaction: the context shrank, so the new request does not begin with the old one.
    compacted = [r(1, 9000, 0), r(2, 30000, 28000), r(3, 6000, 0)]
    assert diagnosis.facts_of(compacted, "w", 0)["cache_reuse"] is None
    # Ten minutes idle: the provider may have let the prefix go.
    idle = [
        r(1, 9000, 0),
        r(2, 10000, 8960),
        rec_of(3, input_tokens=11000, cached_tokens=0, started="2026-12-02T10:20:00Z"),
    ]
    assert diagnosis.facts_of(idle, "w", 0)["cache_reuse"] is None
    assert diagnosis.facts_of(idle[:2] + [r(3, 11000, 0)], "w", 0)["cache_reuse"]["pattern"] == "dropped"
    # Prompts under 1,024 tokens are never cached by OpenAI: nothing to judge.
    assert diagnosis.facts_of([r(1, 900, 0), r(2, 950, 0), r(3, 1000, 0)], "w", 0)["cache_reuse"] is None


# The command, end to end, with a stand-in for Codex


FAKE_CODEX = textwrap.dedent(
    """
    import json, os, signal, sys, time, httpx
    signal.signal(signal.SIGINT, lambda *_: sys.exit(130))  # as Codex: Ctrl-C ends it with 130
    args = sys.argv[1:]
    url = next(json.loads(a.split("=", 1)[1]) for a in args if "base_url=" in a)
    if os.environ.get("FAKE_SLEEP"):
        open(os.environ["FAKE_SLEEP"], "w").write(str(os.getpid()))
        time.sleep(60)
    body = {"model": "sim-model", "stream": True, "input": [{"type": "message", "role": "user", "content": []}]}
    body["prompt_cache_key"] = os.environ.get("FAKE_SESSION", "")
    for _ in range(2):
        r = httpx.post(url + "/responses", json=body, headers={"Authorization": "Bearer " + os.environ["SIM_API_KEY"]})
        sys.stdout.write(r.text[:20])
    sys.exit(int(os.environ.get("FAKE_EXIT", "0")))
    """
)


def watch_env(home: Path, base_url: str, **extra: str) -> dict[str, str]:
    from codexdoctor.sim.config import config_snippet

    write_config(home, config_snippet(base_url, "sim-model"))
    fake = home / "fake-codex.py"
    fake.write_text(FAKE_CODEX, encoding="utf-8")
    root = Path(__file__).resolve().parents[2]
    return {
        **os.environ,
        "HOME": str(home),
        "SIM_API_KEY": KEY,
        "XDG_STATE_HOME": str(home / "state"),
        "PYTHONPATH": str(root),
        "LANG": "C.UTF-8",
        **extra,
    }


@pytest.mark.simulator
def test_watch_runs_codex_through_the_recorder_and_passes_its_exit_code(home, sim_server):
    s = sim_server(api_key=KEY)
    env = watch_env(home, s.base_url, FAKE_EXIT="7")
    fake = str(home / "fake-codex.py")
    config_before = (home / ".codex" / "config.toml").read_bytes()
    proc = subprocess.run(
        [sys.executable, "-m", "codexdoctor", "watch", "--", sys.executable, fake, "exec", "hi"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 7, proc.stderr
    assert proc.stdout.count("event: response.") == 2  # Codex's stdout is its own
    assert proc.stderr.count("codexdoctor watch: #") == 2  # one status line per request (codex exec)
    assert "Watched session: 2 requests, 0 failed" in proc.stderr
    (recording,) = (home / "state" / "codexdoctor" / "recordings").glob("watch-*.jsonl")
    lines = [json.loads(x) for x in recording.read_text().splitlines()]
    assert [x["kind"] for x in lines] == ["start", "request", "request", "end"] and lines[-1]["codex_exit"] == 7
    assert KEY not in recording.read_text() and not (home / ".codex" / "recordings").exists()
    assert (home / ".codex" / "config.toml").read_bytes() == config_before  # the user's files are never touched
    assert sorted(p.name for p in (home / ".codex").iterdir()) == ["config.toml"]
    assert all(r.auth is not None for r in s.records)  # the key went through, in Codex's own header


@pytest.mark.simulator
def test_watch_runs_codex_direct_when_the_provider_cannot_be_watched(home, sim_server):
    env = watch_env(home, "http://127.0.0.1:9/v1")
    write_config(home, 'model_provider = "nope"\n')
    proc = subprocess.run(
        [sys.executable, "-m", "codexdoctor", "watch", "--", sys.executable, "-c", "import sys; sys.exit(3)"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 3
    assert "Codex runs without the recorder" in proc.stderr


@pytest.mark.simulator
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_ends_codex_and_the_recorder_cleanly(home, sim_server, sig):
    s = sim_server(api_key=KEY)
    ready = home / "pid"
    env = watch_env(home, s.base_url, FAKE_SLEEP=str(ready))
    fake = str(home / "fake-codex.py")
    proc = subprocess.Popen(
        [sys.executable, "-m", "codexdoctor", "watch", "--", sys.executable, fake, "exec", "hi"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # no terminal: the signal reaches codexdoctor alone, which passes it on
        # A suite started in the background (`pytest &` from a script) has SIGINT ignored, and the child would
        # inherit that (see tests/sim/test_sim.py).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 30
    while not (ready.exists() and ready.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    child_pid = int(ready.read_text())
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + sig, err
    with pytest.raises(ProcessLookupError):
        os.kill(child_pid, 0)
    assert "Traceback" not in err
    assert "Codex sent no model request through the recorder" in err


@pytest.mark.simulator
def test_a_request_still_waiting_when_the_run_ends_is_recorded_once(sim_server):
    s = sim_server(api_key=KEY, hang=True, hang_seconds=30)
    records: list[Recorded] = []
    rec = Recorder(Upstream(s.base_url, {}), Redactor([]), records.append).start()

    def ask() -> None:
        try:
            post(rec.base_url)
        except httpx.HTTPError:
            pass  # the recorder went away under it: what Codex sees when the run ends first

    threading.Thread(target=ask, daemon=True).start()
    deadline = time.monotonic() + 10
    while not rec._open and time.monotonic() < deadline:
        time.sleep(0.02)
    rec.stop()
    time.sleep(0.3)
    assert [(r.number, r.ending, r.status) for r in records] == [(1, "client_gone", None)]
    assert records[0].input_kinds == ("message:user",)


def test_the_watch_report_renders_in_every_format_and_language(home):
    """The diagnosis goes through the normal renderers: json valid against the report schema, text in Chinese."""
    from importlib.resources import files

    import jsonschema

    from codexdoctor.commands.options import CheckOptions, make_context
    from codexdoctor.commands.watch import Session, report_of
    from codexdoctor.report.render import render

    write_config(home, 'model_provider = "gw"\n[model_providers.gw]\nname = "g"\nbase_url = "https://gw.example/v1"\n')
    ctx = make_context(CheckOptions(env={"HOME": str(home)}, home=home, cwd=home, system_config=None))
    reqs = (
        rec_of(1, input_tokens=9000, first_output_ms=400.0),
        rec_of(2, status=503, ending="http_error", error='{"error":{"message":"upstream overloaded, retry later"}}'),
    )
    schema = json.loads(files("codexdoctor").joinpath("data/report.schema.json").read_text(encoding="utf-8"))
    for lang in ("en", "zh"):
        report = report_of(Session(ctx, reqs, "~/.local/state/codexdoctor/recordings/w.jsonl", 1), lang)
        data = json.loads(render(report, "json"))
        jsonschema.validate(data, schema)
        assert [f["code"] for f in data["findings"]] == ["CTX040"]
        assert "upstream overloaded" in render(report, "markdown")
    assert "提供方自己的报错" in render(report, "text") and "记录的会话" in render(report, "text")


@pytest.mark.simulator
def test_report_includes_the_last_recording_redacted_in_both_languages(home, sim_server, tmp_path):
    s = sim_server(api_key=KEY, rate_limited_posts=1, fault_message=None)
    env = watch_env(home, s.base_url)
    fake = str(home / "fake-codex.py")
    watched = subprocess.run(
        [sys.executable, "-m", "codexdoctor", "watch", "--", sys.executable, fake, "exec", "hi"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert watched.returncode == 0, watched.stderr
    rid = next(r.request_id for r in s.records if r.status == 429)
    texts = {}
    for lang, fmt in (("en", "markdown"), ("zh", "markdown"), ("en", "json")):
        target = tmp_path / f"ticket-{lang}.{fmt}"
        proc = subprocess.run(
            [sys.executable, "-m", "codexdoctor", "report", "--offline", "--lang", lang, "--format", fmt]
            + ["-o", str(target)],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
        texts[lang, fmt] = target.read_text()
        assert KEY not in texts[lang, fmt] and KEY[8:20] not in texts[lang, fmt]
    en, zh = texts["en", "markdown"], texts["zh", "markdown"]
    assert "## The last run codexdoctor watch recorded" in en
    assert "| # | status | input | cached | reused | output |" in en and "CTX040" in en
    assert "Rate limit reached" in en  # the provider's own words, which Codex never shows
    assert "| codexdoctor watch, request #1 |" in en and rid in en  # the 429's id, for the provider's logs
    assert "codexdoctor watch recorded the user's last Codex run" in en and "it found CTX040" in en
    assert "## codexdoctor watch 最近记录的一次运行" in zh and "| # | 状态 | 输入 | 缓存 | 复用 |" in zh
    assert "提供方自己的报错" in zh and "codexdoctor watch 记录了该用户最近一次" in zh
    data = json.loads(texts["en", "json"])
    assert [f["code"] for f in data["watch"]["report"]["findings"]] == ["CTX040"]
    assert data["watch"]["program"].startswith("python")  # the program name, never its arguments
    assert data["watch"]["subcommand"] == "exec" and data["watch"]["codex_exit"] == 0
    assert any(r["request_id"] == rid for r in data["requests"])


@pytest.mark.simulator
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_sessions_puts_a_recording_beside_the_log_of_the_same_session(home, sim_server, lang):
    from tests.rollout_factory import RolloutWriter

    sid = "0199a1b0-5c3e-7d2f-9a41-8b6c2e1f0d3a"
    s = sim_server(api_key=KEY, rate_limited_posts=1)
    env = watch_env(home, s.base_url, FAKE_SESSION=sid)
    fake = str(home / "fake-codex.py")
    watched = subprocess.run(
        [sys.executable, "-m", "codexdoctor", "watch", "--", sys.executable, fake, "exec", "hi"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert watched.returncode == 0, watched.stderr
    (recording,) = (home / "state" / "codexdoctor" / "recordings").glob("watch-*.jsonl")
    assert all(x.get("session") == sid for x in map(json.loads, recording.read_text().splitlines()[1:-1]))
    w = RolloutWriter(home / ".codex" / "sessions", session_id=sid)
    w.turn(9_000)
    w.close()
    other = RolloutWriter(home / ".codex" / "sessions")
    other.turn(5_000)
    other.close()
    proc = subprocess.run(
        [sys.executable, "-m", "codexdoctor", "sessions", "--lang", lang, "--format", "json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    data = json.loads(proc.stdout)
    (table,) = [x for x in data["sections"] if x["id"] == "watch-recordings"]
    (row,) = table["rows"]
    short = next(d["short_id"] for d in data["checks"][0]["facts"]["sessions"] if d["id"] == sid)
    assert row[0] == recording.name and row[1] == short and row[2:4] == [2, 1] and row[6] == "CTX040"
    assert table["title"] == {"en": "Recorded by codexdoctor watch", "zh": "codexdoctor watch 的记录"}[lang]
    text = subprocess.run(
        [sys.executable, "-m", "codexdoctor", "sessions", "--lang", lang], env=env, capture_output=True, text=True
    ).stdout
    assert recording.name in text and ("`codexdoctor report`" in text)
    assert KEY not in text and KEY not in proc.stdout


def test_sessions_says_when_a_recordings_log_was_not_read(home):
    from codexdoctor.report import recordings as sessionview

    folder = store.recordings_dir({}, home)
    folder.mkdir(parents=True)
    line = {"kind": "request", **rec_of(1, input_tokens=9000, session="0199ffff-0000-7000-8000-000000000000").to_json()}
    (folder / "watch-20261202T000000Z-1.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    (folder / "watch-20261202T000001Z-2.jsonl").write_text("garbage\n", encoding="utf-8")
    table = sessionview.section({}, home, {}, "zh")
    assert table is not None and [r[1] for r in table.rows] == ["-", "0199ffff-0000 (日志未读到)"]
    assert sessionview.section({}, home / "nowhere", {}) is None


def test_report_without_a_recording_says_so(home, run, tmp_path):
    write_config(home, 'model_provider = "gw"\n[model_providers.gw]\nname = "g"\nbase_url = "https://gw.example/v1"\n')
    target = tmp_path / "t.md"
    code, _, err = run("report", "--offline", "-o", str(target))
    assert "No run was recorded with `codexdoctor watch` on this machine." in target.read_text(), err


def test_a_recording_read_back_skips_lines_that_are_not_what_the_recorder_wrote(tmp_path):
    good = rec_of(1, input_tokens=9000, cached_tokens=0).to_json()
    lines = [
        {"kind": "start", "provider": "sim"},
        {"kind": "request", **good},
        {"kind": "request", **good, "number": 2, "input_tokens": "9000"},  # a string where a count goes
        {"kind": "request", **good, "number": 3, "ending": "made_up"},
        {"kind": "request", **good, "number": 4, "input_kinds": [1, 2]},
        {"kind": "request", **good, "number": 5, "first_output_ms": True},
        {"kind": "request", **good, "number": 6, "cached_tokens": -5},
        {"kind": "end", "codex_exit": 0},
    ]
    path = tmp_path / "watch-20261202T000000Z-1.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\nnot json\n", encoding="utf-8")
    recording = store.read(path)
    assert [r.number for r in recording.requests] == [1] and recording.end == {"codex_exit": 0}


@pytest.mark.simulator
def test_serve_prints_the_line_to_use_records_and_diagnoses_on_ctrl_c(home, sim_server):
    s = sim_server(api_key=KEY, rate_limited_posts=1)
    env = watch_env(home, s.base_url)
    proc = subprocess.Popen(
        [sys.executable, "-m", "codexdoctor", "watch", "--serve"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # A suite started in the background has SIGINT ignored, and the child would inherit that: the Ctrl-C below
        # went unseen and the test waited 30 s (issue 37).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    lines = [proc.stdout.readline() for _ in range(2)]
    assert lines[1].strip() == "Run Codex with:"
    use = proc.stdout.readline().strip()
    assert use.startswith("codex -c 'model_providers.sim.base_url=\"http://127.0.0.1:") and use.endswith("/v1\"'")
    url = json.loads(use.split("=", 1)[1].rstrip("'"))
    assert post(url).status_code == 429 and post(url).status_code == 200
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "CTX040" in out and "Watched session: 2 requests, 1 failed" in out
    assert err.count("codexdoctor watch: #") == 2 and "Traceback" not in err
