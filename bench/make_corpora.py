"""Corpora of different shapes for bench/bench_sessions.py, each about the same size.

Run: python bench/make_corpora.py DIR [MEGABYTES]   (default 300 MB each; deterministic)

- typical:     bench/make_corpus.py as it is (tool output 150 B-6 KB, reasoning blobs, a token_count per tool round).
- real:        the real Codex 0.171.0 rollouts in tests/fixtures, copied over and over with new session ids and
               dates. Every line is a line real Codex wrote (`ordinal`, `world_state`, `token_usage_record`…): this
               corpus is generated independently of what the reader assumes about the format.
- few-huge:    4 sessions of a quarter each, tool output 1-9 KB per line (long lines, few files).
- short-lines: many small event lines (streaming deltas, ~100 B) between token_counts: the most lines per megabyte.
"""

from __future__ import annotations

import json
import os
import random
import sys
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import make_corpus  # noqa: E402

REAL = HERE.parent / "tests" / "fixtures" / "rollouts" / "real-0.171.0"
SHAPES = ("typical", "real", "few-huge", "short-lines")


def dumps(obj) -> str:
    return json.dumps(obj, separators=(",", ":"))


def typical(root: Path, megabytes: int) -> None:
    rng = random.Random(2026)
    total, n = 0, 0
    start = datetime(2026, 9, 1, 8, tzinfo=timezone.utc)
    while total < megabytes * 1_000_000:
        total += make_corpus.session(root, rng, start + timedelta(hours=7 * n), rng.randint(200_000, 4_000_000))
        n += 1


def real(root: Path, megabytes: int) -> None:
    sources = sorted(REAL.rglob("rollout-*.jsonl"))
    texts = [(p, p.read_text(encoding="utf-8")) for p in sources]
    rng = random.Random(7)
    total, n = 0, 0
    day = datetime(2026, 6, 1, tzinfo=timezone.utc)
    while total < megabytes * 1_000_000:
        path, text = texts[n % len(texts)]
        old_id = path.stem[-36:]
        new_id = str(uuid.UUID(int=rng.getrandbits(128)))
        when = day + timedelta(minutes=13 * n)
        folder = root / when.strftime("%Y/%m/%d")
        folder.mkdir(parents=True, exist_ok=True)
        out = text.replace(old_id, new_id)
        (folder / f"rollout-{when.strftime('%Y-%m-%dT%H-%M-%S')}-{new_id}.jsonl").write_text(out, encoding="utf-8")
        total += len(out.encode())
        n += 1


def few_huge(root: Path, megabytes: int) -> None:
    rng = random.Random(11)
    original = make_corpus.tool_output
    make_corpus.tool_output = lambda r, size: original(r, size if size < 1000 else r.randint(1000, 9000))
    try:
        start = datetime(2026, 10, 1, 8, tzinfo=timezone.utc)
        for n in range(4):
            make_corpus.session(root, rng, start + timedelta(days=n), megabytes * 1_000_000 // 4, compacting=True)
    finally:
        make_corpus.tool_output = original


def short_lines(root: Path, megabytes: int) -> None:
    rng = random.Random(13)
    words = make_corpus.WORDS
    total, n = 0, 0
    start = datetime(2026, 11, 1, 8, tzinfo=timezone.utc)
    while total < megabytes * 1_000_000:
        sid = str(uuid.UUID(int=rng.getrandbits(128)))
        t = start + timedelta(hours=3 * n)
        folder = root / t.strftime("%Y/%m/%d")
        folder.mkdir(parents=True, exist_ok=True)
        lines = []

        def line(kind, payload, lines=lines, t=t):  # bound now: called only inside this iteration
            lines.append(dumps({"timestamp": t.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "type": kind, "payload": payload}))

        line(
            "session_meta",
            {
                "id": sid,
                "timestamp": t.isoformat(),
                "cwd": "/w",
                "originator": "codex_cli_rs",
                "cli_version": "0.171.0",
                "model_provider": "gw",
            },
        )
        context, total_in = 9000, 0
        for turn in range(1, rng.randint(20, 120)):
            t += timedelta(seconds=rng.randint(5, 60))
            line("event_msg", {"type": "task_started", "model_context_window": 258400})
            line("turn_context", {"cwd": "/w", "model": "gw-model"})
            line("event_msg", {"type": "user_message", "message": f"question {turn}", "images": []})
            for _ in range(rng.randint(40, 400)):  # streamed answer: one small delta per line
                line(
                    "event_msg", {"type": "agent_message_delta", "delta": " ".join(rng.choice(words) for _ in range(4))}
                )
            context += rng.randint(200, 2000)
            total_in += context
            line(
                "event_msg",
                {
                    "type": "token_count",
                    "info": {
                        "total_token_usage": {
                            "input_tokens": total_in,
                            "cached_input_tokens": total_in // 2,
                            "output_tokens": 50 * turn,
                            "reasoning_output_tokens": 0,
                            "total_tokens": total_in + 50 * turn,
                        },
                        "last_token_usage": {
                            "input_tokens": context,
                            "cached_input_tokens": context // 2,
                            "output_tokens": 50,
                            "reasoning_output_tokens": 0,
                            "total_tokens": context + 50,
                        },
                        "model_context_window": 258400,
                    },
                    "rate_limits": None,
                },
            )
            line("event_msg", {"type": "task_complete", "last_agent_message": "ok"})
        data = "\n".join(lines) + "\n"
        (folder / f"rollout-{t.strftime('%Y-%m-%dT%H-%M-%S')}-{sid}.jsonl").write_text(data)
        total += len(data)
        n += 1


def make(shape: str, root: Path, megabytes: int) -> Path:
    sessions = root / shape / "sessions"
    if not sessions.is_dir():
        sessions.mkdir(parents=True)
        {"typical": typical, "real": real, "few-huge": few_huge, "short-lines": short_lines}[shape](sessions, megabytes)
        # Finished sessions are not written any more: old mtimes, as on a real machine (the reader treats a file
        # written in the last minutes as a live session and reads it the careful way).
        settled = datetime(2026, 10, 1, tzinfo=timezone.utc).timestamp()
        for path in sessions.rglob("*.jsonl"):
            os.utime(path, (settled, settled))
    return sessions.parent


def main() -> int:
    root = Path(sys.argv[1])
    megabytes = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    for shape in SHAPES:
        home = make(shape, root, megabytes)
        files = list((home / "sessions").rglob("*.jsonl"))
        print(f"{shape:12} {len(files):6} files {sum(f.stat().st_size for f in files) / 1e6:6.0f} MB  {home}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
