"""Hostile providers: every deadline and memory bound holds, and no piece of the key is ever printed."""

import socket
import threading
import time
import zlib
from pathlib import Path

import pytest

from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.net.body import MAX_STREAM_BYTES, Oversize, bounded_bytes
from codexdoctor.net.sse import MAX_LINE, bounded_lines
from codexdoctor.net.stream import MAX_EVENTS
from codexdoctor.report.render import FORMATS, RenderOptions, render
from tests.conftest import write_config
from tests.timing import assert_within

KEY = "sk-hostile-" + "0123456789abcdef" * 3


class RawServer:
    """A loopback TCP server that answers every connection with `behave(conn)`; stops itself at teardown."""

    def __init__(self, behave):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(32)
        self.sock.settimeout(0.2)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.stop = threading.Event()
        self.behave = behave
        threading.Thread(target=self._loop, daemon=True).start()

    def _loop(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        try:
            conn.settimeout(5)
            request = conn.recv(1 << 20)
            self.behave(conn, request, self.stop)
        except OSError:
            pass
        finally:
            conn.close()

    def close(self):
        self.stop.set()
        self.sock.close()


@pytest.fixture
def raw_server():
    servers = []

    def start(behave):
        servers.append(RawServer(behave))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def drip_headers(conn, _, stop):
    for ch in b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Slow: " + b"a" * 5000:
        if stop.is_set():
            return
        conn.send(bytes([ch]))
        time.sleep(0.05)


def endless_fast_stream(conn, _, stop):
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
    event = (
        b'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"'
        + b"x" * 2000
        + b'"}\n\n'
    ) * 64
    while not stop.is_set():
        conn.sendall(event)


def never_ending_line(conn, _, stop):
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: ")
    while not stop.is_set():
        conn.sendall(b"y" * 65536)


def gzip_bomb(conn, _, stop):
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = packer.compress(b"\0" * (64 << 20)) + packer.flush()  # 64 MB of zeros in ~64 KB
    conn.sendall(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\n"
        b"Content-Length: %d\r\n\r\n" % len(bomb) + bomb
    )


def echo_key_at(offset):
    """A 401 whose body puts the key it received at `offset`, around where the 300-character excerpt is cut."""

    def behave(conn, request, stop):
        auth = next(
            (line.split(b" ", 2)[2] for line in request.split(b"\r\n") if line.lower().startswith(b"authorization:")),
            b"",
        ).decode()
        head = '{"detail": "'
        body = head + "x" * (offset - len(head)) + auth + ' rejected"}'
        assert not auth or body.index(auth) == offset
        conn.sendall(
            b"HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(body.encode())
            + body.encode()
        )

    return behave


def configure_and_check(home, url, timeout=1.0):
    write_config(
        home,
        f'model = "m"\nmodel_provider = "evil"\n[model_providers.evil]\nname = "evil"\n'
        f'base_url = "{url}/v1"\nenv_key = "EVIL_KEY"\n',
    )
    started = time.perf_counter()
    report, ctx = run_check(
        CheckOptions(
            env={"HOME": str(home), "EVIL_KEY": KEY},
            home=home,
            cwd=Path.cwd(),
            system_config=None,
            codex_version=(0, 171, 0),
            timeout=timeout,
        )
    )
    return report, ctx, time.perf_counter() - started


@pytest.mark.parametrize("behave", [drip_headers, endless_fast_stream, never_ending_line, gzip_bomb])
def test_hostile_stream_ends_within_the_deadline_with_a_channel_finding(home, raw_server, behave):
    server = raw_server(behave)
    report, _, elapsed = configure_and_check(home, server.url, timeout=1.0)
    # Against the deadline, with a loaded machine's slack (before: `< 1.5`, which failed at 1.58 s on a busy 2-core
    # machine, issue 40); each of these servers would otherwise keep the check running until it is stopped.
    assert_within(elapsed, 1.0, f"check against {behave.__name__}")
    assert report.verdict.value == "channel", report.findings


@pytest.mark.parametrize("offset", [250, 280, 290, 295, 299, 300])
def test_key_echoed_at_the_excerpt_boundary_never_prints(home, raw_server, offset):
    server = raw_server(echo_key_at(offset))
    report, ctx, _ = configure_and_check(home, server.url, timeout=3.0)
    assert report.verdict.value == "channel"
    for fmt in FORMATS:
        for verbose in (False, True):
            out = render(report, fmt, RenderOptions(verbose=verbose))
            for i in range(len(KEY) - 7):
                assert KEY[i : i + 8] not in out, (fmt, verbose, KEY[i : i + 8])


def _chunks(*parts):
    yield from parts


def test_line_reader_caps_a_line_that_never_ends():
    with pytest.raises(Oversize):
        for _ in bounded_lines(_chunks(*([b"z" * 65536] * (MAX_LINE // 65536 + 2)))):
            pass
    assert list(bounded_lines(_chunks(b"a\r\nb\rc\n", b"d"))) == ["a", "b", "c", "d"]


class _FakeResponse:
    def __init__(self, body: bytes, encoding: str | None):
        self.headers = {"content-encoding": encoding} if encoding else {}
        self._body = body

    def iter_raw(self):
        for i in range(0, len(self._body), 65536):
            yield self._body[i : i + 65536]


def test_gzip_bomb_is_inflated_only_up_to_the_cap():
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    bomb = packer.compress(b"\0" * (MAX_STREAM_BYTES * 4)) + packer.flush()
    read = 0
    with pytest.raises(Oversize):
        for chunk in bounded_bytes(_FakeResponse(bomb, "gzip"), MAX_STREAM_BYTES):
            read += len(chunk)
            assert len(chunk) <= MAX_STREAM_BYTES
    assert read == MAX_STREAM_BYTES


def test_event_count_is_capped():
    from codexdoctor.net.deadline import Deadline
    from codexdoctor.net.stream import parse_sse

    lines = iter(['data: {"type":"response.in_progress"}', ""] * (MAX_EVENTS + 10))
    stats = parse_sse(lines, time.perf_counter(), time.perf_counter, 5.0, Deadline(30))
    assert stats.cut == "oversize" and stats.events == MAX_EVENTS


@pytest.mark.parametrize("location", [b"http://127.0.0.1:99999/v1/responses", b"http://[::1/v1", b"http://h\x00st/"])
def test_redirect_to_an_invalid_url_is_a_finding_not_a_crash(home, raw_server, location):
    def behave(conn, _, stop):
        conn.sendall(b"HTTP/1.1 307 Temporary Redirect\r\nLocation: " + location + b"\r\nContent-Length: 0\r\n\r\n")

    server = raw_server(behave)
    report, _, _ = configure_and_check(home, server.url, timeout=3.0)
    assert report.verdict.value == "channel", report.findings
    assert not [c for c in report.checks if c.status.value == "crash"]


def test_key_at_the_boundary_never_prints_in_chinese_either(home, raw_server):
    server = raw_server(echo_key_at(295))
    write_config(
        home,
        f'model = "m"\nmodel_provider = "evil"\n[model_providers.evil]\nname = "evil"\n'
        f'base_url = "{server.url}/v1"\nenv_key = "EVIL_KEY"\n',
    )
    report, _ = run_check(
        CheckOptions(
            env={"HOME": str(home), "EVIL_KEY": KEY},
            home=home,
            cwd=Path.cwd(),
            system_config=None,
            codex_version=(0, 171, 0),
            timeout=3.0,
            lang="zh",
        )
    )
    for fmt in FORMATS:
        out = render(report, fmt, RenderOptions(verbose=True))
        assert not [KEY[i : i + 8] for i in range(len(KEY) - 7) if KEY[i : i + 8] in out]
