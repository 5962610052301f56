"""A real LiteLLM proxy in front of the simulator, and the real Codex CLI 0.171 through `codexdoctor watch` against
LiteLLM (issue 41): what LiteLLM did to Codex's requests and the answers (headers, stream shape, usage and cached
tokens, errors passed through) and what watch diagnosed.

Usage (inside a network namespace with only loopback: Codex and LiteLLM also try outside hosts):
    PYTHONPATH=$PWD ../shared/tools/in-netns python scripts/crosscheck_watch_litellm.py VENV [CODEX_BINARY]
VENV holds `litellm[proxy]` (python3 -m venv /work/venvs/litellm && /work/venvs/litellm/bin/pip install
'litellm[proxy]'). Results are recorded in docs/watch.md.

LiteLLM's models, each in front of its own simulator:
  sim-responses  /responses passed through (LiteLLM's default for an openai/ model), the simulator's prefix cache on
  sim-chat       `use_chat_completions_api: true`: LiteLLM bridges Codex's /responses to /chat/completions
  sim-429        a simulator that answers every POST 429 with a body
  sim-small      a simulator with a 10,000-token window
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crosscheck_config_semantics import last_line

from codexdoctor import sim

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/work/venvs/litellm")
CODEX = sys.argv[2] if len(sys.argv) > 2 else "/work/shared/tools/real-codex"
MASTER = "sk-litellm-master-0123456789abcdef"
PORT = 4000
SIMS = {
    "sim-responses": {"prefix_cache": True, "keep_bodies": True},
    "sim-chat": {"prefix_cache": True, "keep_bodies": True},
    "sim-429": {"rate_limited_posts": 1000},
    "sim-small": {"context_window": 10_000},
}
CHAT = {"sim-chat"}


def litellm_yaml(bases: dict[str, str]) -> str:
    out = ["model_list:"]
    for name, base in bases.items():
        out += [
            f"  - model_name: {name}",
            "    litellm_params:",
            "      model: openai/sim-model",
            f"      api_base: {base}",
            "      api_key: sk-upstream-0123456789",
        ]
        if name in CHAT:
            out.append("      use_chat_completions_api: true")
    out += ["general_settings:", f"  master_key: {MASTER}", "litellm_settings:", "  num_retries: 0"]
    return "\n".join(out) + "\n"


def config(model: str) -> str:
    return (
        f'model = "{model}"\nmodel_provider = "litellm"\n[model_providers.litellm]\nname = "LiteLLM"\n'
        f'base_url = "http://127.0.0.1:{PORT}/v1"\nenv_key = "LITELLM_KEY"\n'
    )


def raw_look(model: str) -> None:
    """One streamed request straight to LiteLLM: its status, headers and the first events, as Codex receives them."""
    body = {
        "model": model,
        "stream": True,
        "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi " * 1500}]}],
    }
    with httpx.stream(
        "POST",
        f"http://127.0.0.1:{PORT}/v1/responses",
        json=body,
        headers={"Authorization": f"Bearer {MASTER}"},
        timeout=60,
    ) as r:
        text = r.read().decode("utf-8", "replace")
    heads = {k: v for k, v in r.headers.items() if not k.startswith("x-litellm-response-cost")}
    kinds: list[str] = []
    usage = None
    for x in text.splitlines():
        data = x[5:].strip() if x.startswith("data:") else ""
        value = json.loads(data) if data.startswith("{") else None
        if isinstance(value, dict) and isinstance(value.get("type"), str):
            kinds.append(value["type"])
            if value["type"] == "response.completed":
                usage = (value.get("response") or {}).get("usage")
    shape = "event: lines" if "\nevent: " in "\n" + text else "data: lines only"
    print(f"  raw {model}: {r.status_code} {json.dumps(heads)[:900]}")
    print(f"    stream: {shape}; event types: {list(dict.fromkeys(kinds))[:14] or text[:300]}")
    print(f"    usage: {json.dumps(usage)[:300] if usage else '-'}")


def watch(home: Path, env: dict[str, str], argv: list[str]) -> tuple[int, str, dict]:
    report = home / f"report-{time.monotonic_ns()}.json"
    cmd = [sys.executable, "-m", "codexdoctor", "watch", "--format", "json", "-o", str(report), "--", *argv]
    proc = subprocess.run(cmd, env=env, cwd=home, capture_output=True, text=True, timeout=300)
    data = json.loads(report.read_text()) if report.exists() else {}
    return proc.returncode, proc.stderr, data


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="cdx-litellm-"))
    running = {name: sim.start(api_key="sk-upstream-0123456789", **knobs) for name, knobs in SIMS.items()}
    (work / "litellm.yaml").write_text(litellm_yaml({n: s.base_url for n, s in running.items()}))
    proxy = subprocess.Popen(
        [
            str(VENV / "bin" / "litellm"),
            "--config",
            str(work / "litellm.yaml"),
            "--host",
            "127.0.0.1",
            "--port",
            str(PORT),
        ],
        env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
        stdout=open(work / "litellm.log", "w"),
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if (
                    httpx.get(
                        f"http://127.0.0.1:{PORT}/v1/models", headers={"Authorization": f"Bearer {MASTER}"}, timeout=2
                    ).status_code
                    == 200
                ):
                    break
            except httpx.HTTPError:
                pass
            time.sleep(1)
        version = subprocess.run([str(VENV / "bin" / "pip"), "show", "litellm"], capture_output=True, text=True)
        print("LiteLLM", next((x.split()[1] for x in version.stdout.splitlines() if x.startswith("Version")), "?"))
        for model in SIMS:
            try:
                raw_look(model)
            except httpx.HTTPError as exc:
                print(f"  raw {model}: {type(exc).__name__} {exc}")
        for model in SIMS:
            home = work / model
            (home / ".codex").mkdir(parents=True)
            (home / ".codex" / "config.toml").write_text(config(model))
            env = {
                "PATH": os.environ["PATH"],
                "HOME": str(home),
                "CODEX_HOME": str(home / ".codex"),
                "LITELLM_KEY": MASTER,
                "XDG_STATE_HOME": str(home / "state"),
                "PYTHONPATH": str(ROOT),
                "LANG": "C.UTF-8",
                "CODEX_CLI_CACHE": os.environ.get(
                    "CODEX_CLI_CACHE", str(Path.home() / ".cache" / "codexdoctor-dev" / "codex-cli")
                ),
            }
            turns = 3 if model in ("sim-responses", "sim-chat", "sim-small") else 1
            prompt = "Please remember this list. " + " ".join(f"item-{n}" for n in range(300))
            for turn in range(1, turns + 1):
                argv = [CODEX, "exec", "--skip-git-repo-check"] + (["resume", "--last"] if turn > 1 else []) + [prompt]
                code, err, data = watch(home, env, argv)
                check = next((c for c in data.get("checks", []) if c["id"] == "ctx.watch"), {})
                calls = check.get("facts", {}).get("calls", [])
                shown = "; ".join(
                    f"{c['status']} {c['ending']} {c['input_tokens'] or '-'} in/{c['cached_tokens']} cached"
                    for c in calls[-3:]
                )
                codes = ",".join(sorted({f["code"] for f in data.get("findings", [])})) or "-"
                leaked = MASTER in err or any(MASTER in p.read_text() for p in (home / "state").rglob("*.jsonl"))
                codex_said = last_line("\n".join(x for x in err.splitlines() if not x.startswith("codexdoctor watch")))
                print(
                    f"{model:14} turn {turn} exit {code} {data.get('verdict', '-'):12} {codes:14} {len(calls)}: "
                    f"{shown[:150]} | {codex_said[:160]}" + ("  KEY LEAKED" if leaked else "")
                )
                for f in data.get("findings", []):
                    print(f"    {f['code']}: {f['diagnosis'][:300]}")
                if code != 0:
                    break
        for name, s in running.items():
            posts = [r for r in s.records if r.method == "POST"]
            bodies = [r.body for r in posts if r.body]
            if len(bodies) >= 3:  # the last two turns as the simulator's prefix cache saw them: where they part
                from codexdoctor.sim.prompt import cache_text

                a, b = (cache_text(x, name in CHAT) for x in bodies[-2:])
                n = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
                kept = {k: k in bodies[-1] for k in ("prompt_cache_key", "instructions", "tools", "input", "messages")}
                print(f"  {name}: fields of the last request LiteLLM sent: {kept}")
                print(
                    f"  {name}: the last two requests share {n:,} of {len(a):,} characters; then "
                    f"{a[max(0, n - 60) : n + 80]!r} vs {b[max(0, n - 60) : n + 80]!r}"
                )
            if posts:
                h = posts[-1].headers
                print(
                    f"  upstream {name}: {len(posts)} POSTs to {sorted({r.path for r in posts})}; headers LiteLLM "
                    f"sent: {sorted(k.lower() for k in h)[:30]}"
                )
    finally:
        proxy.terminate()
        try:
            proxy.wait(10)
        except subprocess.TimeoutExpired:
            proxy.kill()
        for s in running.values():
            s.stop()
    print(f"(work folder: {work})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
