"""The latency `codexdoctor watch` adds per request: time to first byte and to the first output event, with and
without the recorder, against the simulator on loopback (issue 41's target: at most 5 ms at the median).

Run: python bench/bench_watch.py [REQUESTS]
Each request is a streamed POST /v1/responses with a Codex-sized body (~40 KB); one persistent connection each way,
as Codex keeps one. Direct and recorded requests alternate, so load on the machine hits both alike.
"""

from __future__ import annotations

import statistics
import sys
import time

import httpx

from codexdoctor import sim
from codexdoctor.common.redact import Redactor
from codexdoctor.watch.recorder import Recorder, Upstream

KEY = "sk-bench-0123456789abcdef"
BODY = {
    "model": "sim-model",
    "stream": True,
    "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "word " * 8000}]}],
}


def once(client: httpx.Client, url: str) -> tuple[float, float]:
    """(time to the first body byte, time to the first output event), in ms."""
    t0 = time.perf_counter()
    first_byte = first_output = None
    with client.stream("POST", url + "/responses", json=BODY, headers={"Authorization": f"Bearer {KEY}"}) as resp:
        for chunk in resp.iter_raw():
            now = time.perf_counter()
            first_byte = first_byte or now
            if first_output is None and b"output_text.delta" in chunk:
                first_output = now
    assert first_byte and first_output
    return (first_byte - t0) * 1000, (first_output - t0) * 1000


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))]


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    with sim.start(api_key=KEY, token_interval_ms=0.0) as server:
        recorder = Recorder(Upstream(server.base_url, {}), Redactor([KEY]), lambda rec: None).start()
        results: dict[str, list[tuple[float, float]]] = {"direct": [], "recorded": []}
        try:
            with httpx.Client(timeout=30) as direct, httpx.Client(timeout=30) as recorded:
                for _ in range(5):  # warm up: the simulator's tokenizer, both connections
                    once(direct, server.base_url)
                    once(recorded, recorder.base_url)
                for _ in range(n):
                    results["direct"].append(once(direct, server.base_url))
                    results["recorded"].append(once(recorded, recorder.base_url))
        finally:
            recorder.stop()
    print(f"{n} requests each, ~{len(str(BODY)) // 1000} KB body, simulator on loopback")
    print(f"{'':10} {'TTFB median':>12} {'TTFB p99':>10} {'first output median':>20} {'p99':>8}")
    for name, rows in results.items():
        fb, fo = [r[0] for r in rows], [r[1] for r in rows]
        print(
            f"{name:10} {statistics.median(fb):10.2f}ms {pct(fb, 0.99):8.2f}ms {statistics.median(fo):18.2f}ms "
            f"{pct(fo, 0.99):6.2f}ms"
        )
    added = [r[0] - d[0] for r, d in zip(results["recorded"], results["direct"], strict=True)]
    print(f"added per request (paired): median {statistics.median(added):.2f} ms, p99 {pct(added, 0.99):.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
