"""The redactor's last pass over a rendered report: CPU time per KB on a realistic report and on a hostile one.

Every output goes through `Redactor.__call__` whole before it is printed (commands/output.emit), and so does every
string of a report (report/build.clean_report). Issue 37 measured that final pass as a quarter of the test suite's
CPU in its leak sweeps. This times it outside the suite, on:

- realistic: the golden snapshots (text, markdown, JSON, GitHub, JUnit; the verbose ones too): the words, URLs,
  `<redacted …>` marks and tables a report holds;
- hostile: the same size of text full of what wakes the scanner: `key=`/`token:`/`Bearer` words with placeholder
  values, prefixes such as `sk-` and `api_`, 32-character runs, percent escapes and URLs with queries, with a few
  real secrets among them.

Each is timed three ways: "fresh", the whole text with a unique line added each call (the cost of redacting one
rendered output); "repeated", the same whole text again; "strings", its lines one by one (as clean_report redacts a
report's strings) by a new redactor of the same secrets after an earlier one saw them (a second run, or a sweep's
next case: most strings are the same).

Run: python bench/bench_redact.py                       (PYTHONPATH=<checkout> to measure a worktree)
     python bench/bench_redact.py --baseline /work/main  (also times that checkout, prints after/before ratios)
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.append(str(HERE))  # PYTHONPATH, when set, wins

ROUNDS = 7
KEY = "Zq9Xw2Ev4Rt6Yu8Io1Pa3Sd5Fg7Hj9Kl2Zx4Cv6Bn8Mq"


def realistic() -> str:
    snaps = sorted((HERE / "tests" / "snapshots").glob("golden*.txt"))
    return "\n".join(p.read_text(encoding="utf-8") for p in snaps)


def hostile(size: int) -> str:
    lines = [
        "export OPENAI_API_KEY=${OPENAI_API_KEY} token: <your token> password = required api_key: null",
        "Authorization: Bearer <redacted 51 chars, sha256:1a2b3c4d> basic auth is off; bearer tokens: 3",
        "sk-project-settings key-value api-version tt-shirt ak-47 sess-count rk-mode pk-id xai-grok",
        "ChatCompletionRequestSystemMessageContentPartText ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop",
        "GET https://gw.example.com/v1/responses?api-version=2024&utm_source=blog&sig=abc%2Fdef%3D&x=1 -> 401",
        "postgres://app@db.internal:5432/main redis://cache:6379 max_tokens=4096 tokens_used: 8,488",
        '{"error": {"message": "Incorrect API key provided: sk-proj-****abcd", "type": "invalid_request_error"}}',
        "path=%2Fhome%2Fuser%2Fproject%20dir query=%E4%BD%A0 \\u0041\\u0042 \\/v1\\/models",
    ]
    secrets = [
        f"leaked: AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY {KEY[5:25]}",
        "ghp_1234567890abcdefghijABCDEFGHIJ123456 and https://u:p4ss@host.example/x?token=abc123def456ghi789",
    ]
    out: list[str] = []
    n = 0
    while sum(len(s) + 1 for s in out) < size:
        out.append(lines[n % len(lines)] if n % 37 else secrets[(n // 37) % 2])
        n += 1
    return "\n".join(out)


def timed(redactor, texts: list[str]) -> float:
    """Median seconds over ROUNDS for redacting every text once."""
    times = []
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        for t in texts:
            redactor(t)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def measure() -> dict[str, float]:
    from codexdoctor.common.redact import Redactor

    results: dict[str, float] = {}
    for name, text in (("realistic", realistic()), ("hostile", hostile(len(realistic())))):
        kb = len(text.encode()) / 1024
        # Fresh: a new text each call (a unique suffix defeats any cache of identical strings), a new redactor per
        # round as a run builds one.
        fresh = [f"{text}\n#{i}" for i in range(ROUNDS * 3)]
        r = Redactor([KEY, "sk-test-0123456789abcdef0123"], home="/home/user")
        times = []
        for i in range(ROUNDS):
            t0 = time.perf_counter()
            for t in fresh[i * 3 : i * 3 + 3]:
                r(t)
            times.append((time.perf_counter() - t0) / 3)
        results[f"{name} fresh"] = statistics.median(times) * 1e6 / kb
        results[f"{name} repeated"] = timed(r, [text] * 3) / 3 * 1e6 / kb
        results[f"{name} KB"] = kb
        # A report's strings one by one, as clean_report redacts them, by a second run's redactor of the same
        # secrets (a sweep's next offset, or `check` rendered in another format): mostly the same strings again.
        lines = [f"{line} " for line in text.splitlines() if line.strip()]
        first = Redactor([KEY, "sk-test-0123456789abcdef0123"], home="/home/user")
        for line in lines:
            first(line)
        times = []
        for _ in range(ROUNDS):
            again = Redactor([KEY, "sk-test-0123456789abcdef0123"], home="/home/user")
            t0 = time.perf_counter()
            for line in lines:
                again(line)
            times.append(time.perf_counter() - t0)
        results[f"{name} strings"] = statistics.median(times) * 1e6 / kb
    return results


def run(checkout: str) -> dict[str, float]:
    """One measurement of a checkout, in its own interpreter."""
    env = {**os.environ, "PYTHONPATH": checkout}
    out = subprocess.run([sys.executable, __file__, "--json"], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    if "--json" in sys.argv:
        print(json.dumps(measure()))
        return
    here = os.environ.get("PYTHONPATH", str(HERE))
    base = sys.argv[sys.argv.index("--baseline") + 1] if "--baseline" in sys.argv else None
    # The two checkouts alternate, three runs each, and each keeps its best: on a shared machine the load moves
    # between runs, and the best of three is the one it disturbed least.
    afters, befores = [], []
    for _ in range(3 if base else 1):
        afters.append(run(here))
        if base:
            befores.append(run(base))
    after = {k: min(r[k] for r in afters) for k in afters[0]}
    before = {k: min(r[k] for r in befores) for k in befores[0]} if befores else None
    print(f"{'text':<22} {'KB':>6} {'µs/KB':>9}" + (f" {'before':>9} {'after/before':>13}" if before else ""))
    for key in (
        "realistic fresh",
        "realistic repeated",
        "realistic strings",
        "hostile fresh",
        "hostile repeated",
        "hostile strings",
    ):
        kb = after[key.split()[0] + " KB"]
        line = f"{key:<22} {kb:>6.0f} {after[key]:>9.1f}"
        if before:
            line += f" {before[key]:>9.1f} {after[key] / before[key]:>13.2f}"
        print(line)


if __name__ == "__main__":
    main()
