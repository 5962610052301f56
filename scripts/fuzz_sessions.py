"""Fuzz `codexdoctor sessions` with damaged copies of the real Codex 0.171 rollouts in tests/fixtures.

Each round mutates the values of the fields the reader reads (wrong types, huge numbers, odd strings), flips bytes,
cuts lines, doubles and shuffles them, writes a codex-tui.log of mixed real stderr lines, and runs `sessions` in
every output format: in process (`run_sessions` + every renderer), or with --cli through the real command line, where
any exit code other than 0/1/2, or a traceback, is a bug. Seeded: a failing round is reproduced by its number.

Run: python scripts/fuzz_sessions.py [FIRST_SEED] [ROUNDS] [--cli]
(Found the crashes fixed on 2026-12-01: wrong-typed ids/timestamps/models and undecodable token_count timestamps.)
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
FIXTURES = sorted((ROOT / "tests" / "fixtures" / "rollouts" / "real-0.171.0").rglob("*.jsonl"))
STDERR = sorted((ROOT / "tests" / "fixtures" / "codex-stderr").glob("*.txt"))
VALUES = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    -2.5e308,
    10**25,
    -(10**25),
    "",
    "x",
    "2026-13-45T99:99:99Z",
    "中文",
    [],
    {},
    [1, 2],
    {"a": {"b": None}},
    "\u0000",
    "\ud800x",
    1e308,
    2**63,
    -(2**63),
    "ü" * 5000,
    # issue 26: terminal escapes (OSC title, OSC 52 clipboard, C1 CSI, DCS), nesting, numbers no count can be
    "x\x1b]0;title\x07",
    "\x1b]52;c;ZWNobyBoaQ==\x07",
    "\x9b2J",
    "\x1bPq\x1b\\",
    "\u202egnp.exe",
    [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]],
    10**299,
    10**320,
]
KEYS = {
    "timestamp",
    "type",
    "payload",
    "id",
    "cli_version",
    "model_provider",
    "model",
    "model_context_window",
    "info",
    "total_token_usage",
    "last_token_usage",
    "input_tokens",
    "cached_input_tokens",
    "output_tokens",
    "total_tokens",
    "error",
    "message",
    "codex_error_info",
    "http_status_code",
    "turn_id",
    "last_agent_message",
    "reasoning_output_tokens",
}


def mutate_value(o, rng, depth=0):
    if isinstance(o, dict):
        for k in list(o):
            if k in KEYS and rng.random() < 0.15:
                o[k] = (
                    rng.choice(VALUES)
                    if rng.random() < 0.8
                    else mutate_value(json.loads(json.dumps(o[k])), rng, depth + 1)
                )
            elif isinstance(o[k], (dict, list)) and depth < 6:
                mutate_value(o[k], rng, depth + 1)
        if rng.random() < 0.03:
            o[rng.choice(sorted(KEYS))] = rng.choice(VALUES)
    elif isinstance(o, list):
        for v in o:
            if isinstance(v, (dict, list)) and depth < 6:
                mutate_value(v, rng, depth + 1)
    return o


def mutate_file(text: str, rng: random.Random) -> bytes:
    out = []
    for line in text.splitlines(keepends=True):
        roll = rng.random()
        raw = line.encode("utf-8")
        if roll < 0.6:
            try:
                obj = mutate_value(json.loads(line), rng)
                raw = (
                    json.dumps(obj, ensure_ascii=rng.random() < 0.5, separators=(",", ":")).encode(
                        "utf-8", "surrogatepass"
                    )
                    + b"\n"
                )
            except ValueError:
                pass
        elif roll < 0.63 and raw:
            raw = bytearray(raw)
            raw[rng.randrange(len(raw))] = rng.randrange(256)
            raw = bytes(raw)
        elif roll < 0.65:
            raw = raw[: rng.randrange(len(raw) + 1)]
        elif roll < 0.66:
            raw = raw * 2
        out.append(raw)
    if rng.random() < 0.2:
        rng.shuffle(out)
    return b"".join(out)


def tui_log(rng: random.Random, ids: list[str]) -> bytes:
    lines = []
    for _ in range(rng.randint(0, 30)):
        when = rng.choice(
            [
                f"2026-11-30T00:46:2{rng.randint(0, 9)}.000000Z",
                "2026-11-30T00:46:26Z",
                "garbage",
                "2026-02-30T25:61:61Z",
                "9999-99-99T99:99:99Z",
                "2026-11-30 00:46:27.5",
            ]
        )
        body = rng.choice(STDERR).read_text(errors="replace").splitlines() or [""]
        status = rng.choice(["401", "429", "context_length_exceeded", "maximum context length is 8192 tokens", ""])
        lines.append(
            f"{when} ERROR codex_core::codex: thread_id={rng.choice(ids + ['zzzz', '0' * 36])} "
            f"{rng.choice(body)[: rng.randint(0, 400)]} {status}"
        )
    raw = "\n".join(lines).encode()
    return raw + (bytes(rng.randrange(256) for _ in range(50)) if rng.random() < 0.2 else b"")


def make_home(rng: random.Random) -> tuple[Path, list[str]]:
    home = Path(tempfile.mkdtemp(prefix="cdx-fuzz-"))
    codex_home = home / ".codex"
    ids = []
    for i, f in enumerate(rng.sample(FIXTURES, k=min(len(FIXTURES), rng.randint(1, 4)))):
        sid = f"01a229ea-d979-7860-a01a-325d7361{i:04d}"
        ids.append(sid)
        dst = codex_home / "sessions" / "2026" / "11" / "30" / f"rollout-2026-11-30T00-00-0{i}-{sid}.jsonl"
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(mutate_file(f.read_text(encoding="utf-8"), rng))
    (codex_home / "log").mkdir(parents=True)
    (codex_home / "log" / "codex-tui.log").write_bytes(tui_log(rng, ids))
    if rng.random() < 0.3:
        (codex_home / "config.toml").write_text(
            rng.choice(
                [
                    "model_auto_compact_token_limit = 5000\n",
                    'model_auto_compact_token_limit = "x"\n',
                    "model_auto_compact_token_limit = -3\n",
                    "model = [\n",
                    "",
                ]
            )
        )
    return home, ids


def in_process(rng: random.Random, home: Path, ids: list[str]) -> str | None:
    from codexdoctor.commands.sessions import run_sessions
    from codexdoctor.report.render import render

    env = {"HOME": str(home), "CODEX_HOME": str(home / ".codex")}
    try:
        report, _ = run_sessions(
            env, home, (), rng.choice([None, 1, 2]), None, None, rng.random() < 0.5, rng.choice(["en", "zh"])
        )
        for fmt in ("json", "text", "markdown", "junit", "github"):
            render(report, fmt)
    except Exception:
        trace = traceback.format_exc().strip().splitlines()
        return f"{trace[-1]} at {[line for line in trace if 'codexdoctor' in line][-1:]}"
    return None


def through_cli(rng: random.Random, home: Path, ids: list[str]) -> str | None:
    args = ["sessions", "--format", rng.choice(["json", "text", "markdown", "junit", "github"])]
    if rng.random() < 0.3:
        args += ["--last", str(rng.choice([0, 1, 2, 100]))]
    if rng.random() < 0.3:
        args += ["--since", rng.choice(["2026-11-29", "2026-12-01", "2026-11-30T00:46:00"])]
    if rng.random() < 0.3:
        args += ["--session", rng.choice(ids + ["01a2", "zz", ""])[: rng.randint(0, 36)]]
    args += [flag for flag in ("--show-content", "--verbose") if rng.random() < 0.3]
    args += ["--lang", "zh"] if rng.random() < 0.3 else []
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", ""), "CODEX_HOME": str(home / ".codex")}
    p = subprocess.run(
        [sys.executable, "-m", "codexdoctor", *args],
        env=env,
        capture_output=True,
        timeout=120,
        cwd=tempfile.gettempdir(),
    )
    err = p.stderr.decode(errors="replace").strip()
    if p.returncode not in (0, 1, 2) or "Traceback" in err:
        return f"exit {p.returncode} for {args}: {err.splitlines()[-1] if err else ''}"
    return None


def main() -> int:
    numbers = [int(a) for a in sys.argv[1:] if a.lstrip("-").isdigit()]
    first, rounds = (numbers + [0, 200])[:2]
    run = through_cli if "--cli" in sys.argv else in_process
    failures = 0
    for seed in range(first, first + rounds):
        rng = random.Random(seed)
        home, ids = make_home(rng)
        try:
            problem = run(rng, home, ids)
        finally:
            shutil.rmtree(home, ignore_errors=True)
        if problem:
            failures += 1
            print(f"round {seed}: {problem}")
    print(f"{failures} of {rounds} rounds failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
