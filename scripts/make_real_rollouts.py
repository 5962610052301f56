"""Make real Codex 0.171.0 session logs (rollouts) against the simulator, for tests/fixtures/rollouts/real-0.171.0/.

Each scenario is one CODEX_HOME; each session is `codex exec` then `codex exec resume --last` with a large pasted
prompt per turn, until a turn fails or the turns run out. Run inside a loopback-only namespace:
    ../shared/tools/in-netns python scripts/make_real_rollouts.py [OUT_DIR] [SCENARIO ...]
The channel faults and the compaction (fault-*, compact-ok) live in tests/fixtures/rollouts/real-0.171.0-more, so
that bench/make_corpora.py's `real` corpus (built from real-0.171.0) stays the one the benchmarks were run on:
    ../shared/tools/in-netns python scripts/make_real_rollouts.py tests/fixtures/rollouts/real-0.171.0-more \
        fault-502 fault-reset-mid-stream fault-error-event fault-broken-sse fault-stall compact-ok
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from codexdoctor import sim

CODEX = os.environ.get("REAL_CODEX") or next(
    (str(d / "shared" / "tools" / "real-codex") for d in Path(__file__).resolve().parents if (d / "shared").is_dir()),
    "real-codex",
)
CACHE = os.environ.get("CODEX_CLI_CACHE", str(Path.home() / ".cache" / "codexdoctor-dev" / "codex-cli"))
KEY = "sk-rollouts-0123456789abcdef"
WORDS = (
    "context window provider gateway session turn token cache prefix request answer model history summary "
    "question review refactor test commit branch config"
).split()


def paste(turn: int, words: int = 2200) -> str:
    """About 3,000 tokens of pasted material, different per turn."""
    body = " ".join(WORDS[(turn * 7 + i * 3) % len(WORDS)] for i in range(words))
    return f"Question {turn}: summarise the notes below in one word.\n\n{body}"


def config(base_url: str, model: str = "sim-model", provider: str = "sim", top: str = "", table: str = "") -> str:
    return (
        f'{top}model = "{model}"\nmodel_provider = "{provider}"\n[model_providers.{provider}]\nname = "{provider}"\n'
        f'base_url = "{base_url}"\nenv_key = "SIM_API_KEY"\n{table}'
    )


# Channel faults and a compaction that works (round 3): how the sessions of a broken channel look in Codex's own log.
# Retries are cut to one each so that a scenario takes seconds, not Codex's full back-off.
FAST_RETRIES = "request_max_retries = 1\nstream_max_retries = 1\n"
FAULTS = {
    "fault-502": dict(failure_rate=1.0, failure_kinds=("502",)),
    "fault-reset-mid-stream": dict(stream_fault="reset_mid_stream"),
    "fault-error-event": dict(stream_fault="error_event"),
    "fault-broken-sse": dict(stream_fault="broken_sse"),
    "fault-stall": dict(stall_after_tokens=3, stall_seconds=20.0),
}

# name: (sessions, turns at most, simulator knobs)
STREAM_CUT = {
    "stable-stream-cut-3": (3, 9, dict(context_window=20000, context_in_stream=True)),
    "single-stream-cut": (1, 9, dict(context_window=20000, context_in_stream=True)),
    "wandering-cuts-3": (3, 9, dict(failure_rate=0.3, failure_kinds=("reset",), failure_seed=7)),
    "first-turn-stream-cut": (2, 3, dict(stream_fault="error_event")),
}


def session(home: Path, turns: int, key: str = KEY) -> list[int]:
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "CODEX_HOME": str(home),
        "SIM_API_KEY": key,
        "CODEX_CLI_CACHE": CACHE,
    }
    codes = []
    for turn in range(1, turns + 1):
        args = [CODEX, "exec", "--skip-git-repo-check"] + (["resume", "--last"] if turn > 1 else []) + [paste(turn)]
        proc = subprocess.run(
            args, env=env, cwd=home, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
        )
        codes.append(proc.returncode)
        if proc.returncode != 0:
            break
    return codes


def scenario(name: str, out: Path) -> None:
    home = Path(tempfile.mkdtemp(prefix="cdx-rollouts-"))
    if name.startswith("overflow-"):
        style = name.split("-", 1)[1]
        with sim.start(api_key=KEY, context_window=16000, error_style=style) as s:
            (home / "config.toml").write_text(config(s.base_url))
            print(name, session(home, 5))
    elif name == "truncation-ollama":
        with sim.start(api_key=KEY, context_window=14000, error_style="ollama") as s:
            (home / "config.toml").write_text(config(s.base_url))
            print(name, session(home, 5))
    elif name in FAULTS:
        with sim.start(api_key=KEY, **FAULTS[name]) as s:
            table = FAST_RETRIES + ("stream_idle_timeout_ms = 3000\n" if name == "fault-stall" else "")
            (home / "config.toml").write_text(config(s.base_url, table=table))
            print(name, session(home, 2))
    elif name == "compact-ok":
        # A window that the third turn would overflow, and a compaction limit under it: Codex compacts and goes on.
        with sim.start(api_key=KEY, context_window=16000) as s:
            (home / "config.toml").write_text(
                config(s.base_url, top="model_auto_compact_token_limit = 11000\nmodel_context_window = 16000\n")
            )
            print(name, session(home, 5))
    elif name == "stable-break-3":
        # Three sessions of one provider that break at the same size, and a 401 from another provider between them.
        with sim.start(api_key=KEY, context_window=16000) as s, sim.start(api_key="sk-other-0123456789") as other:
            for n in range(3):
                (home / "config.toml").write_text(config(s.base_url))
                print(name, n, session(home, 5))
                if n == 1:
                    (home / "config.toml").write_text(config(other.base_url, "other-model", "other"))
                    print(name, "401", session(home, 1))
    elif name in STREAM_CUT:
        # Issue 39: a gateway that reports its window as an `error` event in a 200 stream ("stream closed before
        # response.completed" is all Codex says), and channels that cut streams at no particular size.
        sessions, turns, knobs = STREAM_CUT[name]
        with sim.start(api_key=KEY, **knobs) as s:
            (home / "config.toml").write_text(config(s.base_url, table=FAST_RETRIES))
            for n in range(sessions):
                print(name, n, session(home, turns))
    target = out / name
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for i, f in enumerate(sorted((home / "sessions").rglob("rollout-*.jsonl"))):
        shutil.copy(f, target / f.name)
    shutil.rmtree(home, ignore_errors=True)


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("tests/fixtures/rollouts/real-0.171.0")
    names = sys.argv[2:] or [
        "overflow-vllm",
        "overflow-llamacpp",
        "overflow-litellm",
        "truncation-ollama",
        "stable-break-3",
    ]
    for name in names:
        scenario(name, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
