"""Bounds against hostile providers: wall time over --timeout per hang stage, and peak RSS of `check`.

Each stage is a loopback server that misbehaves in one way; `codexdoctor check --timeout T` runs as a separate
process (`/usr/bin/time -f %e %M` measures it from outside). Prints one row per stage.

    python bench/bench_hostile.py [--timeout 1]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

STAGES = {
    "accept, never answer": lambda c, stop: stop.wait(30),
    "headers one byte at a time": lambda c, stop: _drip(c, stop, b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 2000),
    "body one byte at a time": lambda c, stop: _drip(
        c, stop, b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n", b" " * 2000
    ),
    "endless fast SSE stream": lambda c, stop: _endless(
        c,
        stop,
        b"event: response.output_text.delta\ndata: "
        b'{"type":"response.output_text.delta","delta":"' + b"x" * 2000 + b'"}\n\n',
    ),
    "SSE line that never ends": lambda c, stop: (
        c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: "),
        _endless(c, stop, b"y" * 65536, header=False),
    ),
    "gzip bomb (64 MB of zeros)": lambda c, stop: _bomb(c),
}


def _drip(conn, stop, data, tail=b""):
    """`data` one byte every 50 ms (after `tail`'s head is sent whole, when given: then the tail drips)."""
    if tail:
        conn.sendall(data)
        data = tail
    for byte in data:
        if stop.is_set():
            return
        conn.send(bytes([byte]))
        time.sleep(0.05)


def _endless(conn, stop, chunk, header=True):
    if header:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n")
    while not stop.is_set():
        conn.sendall(chunk * 32)


def _bomb(conn):
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    body = packer.compress(b"\0" * (64 << 20)) + packer.flush()
    conn.sendall(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body) + body
    )


def serve(behave, stop):
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(32)
    sock.settimeout(0.2)

    def loop():
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except OSError:
                continue

            def one(c=conn):
                try:
                    c.recv(1 << 20)
                    behave(c, stop)
                except OSError:
                    pass
                finally:
                    c.close()

            threading.Thread(target=one, daemon=True).start()
        sock.close()

    threading.Thread(target=loop, daemon=True).start()
    return sock.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=1.0)
    args = parser.parse_args()
    exe = str(Path(sys.executable).with_name("codexdoctor"))
    print(f"codexdoctor check --timeout {args.timeout:g} against each hostile server (limit: --timeout + 0.5 s)")
    print(f"{'stage':30} {'wall s':>7} {'over --timeout':>15} {'peak RSS MB':>12}")
    for name, behave in STAGES.items():
        stop = threading.Event()
        port = serve(behave, stop)
        home = Path(tempfile.mkdtemp(prefix="cdx-bench-"))
        (home / ".codex").mkdir()
        (home / ".codex" / "config.toml").write_text(
            f'model = "m"\nmodel_provider = "h"\n[model_providers.h]\nname = "h"\nbase_url = "http://127.0.0.1:{port}/v1"\n'
            'env_key = "H_KEY"\n'
        )
        env = {**os.environ, "HOME": str(home), "H_KEY": "sk-bench-0123456789"}
        env.pop("CODEX_HOME", None)
        proc = subprocess.run(
            ["/usr/bin/time", "-f", "%e %M", exe, "check", "--timeout", str(args.timeout)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        stop.set()
        wall, rss_kb = proc.stderr.strip().splitlines()[-1].split()
        print(f"{name:30} {float(wall):7.2f} {float(wall) - args.timeout:+14.2f}s {int(rss_kb) / 1024:12.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
