"""Issue 40: one number for one fact. One provider (the simulator, a 12,000-token window it publishes, vLLM's error
bodies) and a Codex session log of it that broke at its window: `check`, `probe`, `sessions` and `report`, each in text
and JSON, quote the same Codex first request, the same request after a tool call, the same window Codex assumes, the
same served window and the same two config lines, wherever they appear.

Before: one `check` screen said 8,488 and 8,489 for Codex's first request; `sessions` said Codex assumes 258,400 where
`check` said 272,000; `check` advised 12000 / 9600, `probe` 11918 / 9500 and `sessions` 11000 / 8800."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone

import pytest

from tests.conftest import write_config
from tests.rollout_factory import RolloutWriter

KEY = "sk-sim-numbers-0123456789ab"
WINDOW = 12000
VLLM_400 = (
    'unexpected status 400 Bad Request: {"object": "error", "message": "This model\'s maximum context length is '
    f'{WINDOW} tokens. However, your request has 12431 input tokens. Please reduce the length of the input messages.", '
    '"type": "BadRequestError", "param": null, "code": 400}'
)

NUMBER = r"(\d{1,3}(?:,\d{3})+|\d{4,})"
PATTERNS = {
    # "first request: 8,485 tokens", "first request for you (8,485 tokens)", "own first request: 8,485 input tokens"
    "first request": re.compile(rf"first request(?P<between>\D{{0,40}}?){NUMBER} (?:input )?tokens"),
    "request after a tool call": re.compile(
        rf"(?:its output|tool call and its output|their outputs|cut as Codex cuts it)\D{{0,30}}?{NUMBER} (?:input )?tokens"
    ),
    "window Codex assumes": re.compile(rf"Codex assumes {NUMBER}"),
    "served window": re.compile(rf"(?:serves|real window is about|publishes a) {NUMBER}(?:-token| tokens)"),
    "advice": re.compile(r"model_context_window = (\d+)\s+model_auto_compact_token_limit = (\d+)"),
}


def strings(value) -> list[str]:
    """Every string of a JSON document (its texts, evidence, notes): where a number can be quoted."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def quoted(text: str) -> dict[str, set]:
    found: dict[str, set] = {name: set() for name in PATTERNS}
    text = " ".join(text.split())  # read as prose: a screen wraps "12,000" and "tokens" onto two lines
    for name, pattern in PATTERNS.items():
        for m in pattern.finditer(text):
            if name == "first request" and "turn" in m.group("between"):
                continue  # "Codex's first request and one turn (about 2,000 tokens)": the turn's size
            groups = [g for i, g in enumerate(m.groups()) if pattern.groupindex.get("between") != i + 1]
            found[name].add(tuple(int(g.replace(",", "")) for g in groups))
    return found


@pytest.fixture
def provider(home, sim_server, monkeypatch):
    s = sim_server(api_key=KEY, context_window=WINDOW, publish_window=True, error_style="vllm", token_interval_ms=0)
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    monkeypatch.setenv("SIM_API_KEY", KEY)
    w = RolloutWriter(
        home / ".codex" / "sessions",
        provider="sim",
        model="sim-model",
        window=258400,
        start=datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc),
    )
    for size in (8600, 9800, 11000):
        w.turn(size)
    w.turn(0, error=VLLM_400)
    w.close()
    return s


def test_every_command_and_format_quotes_one_number_per_fact(home, provider, run, tmp_path):
    v = ("--codex-version", "0.171.0")
    outputs: dict[str, str] = {}
    facts: dict[str, dict] = {}
    for command, extra in (("check", ()), ("probe", ("--yes", "-q")), ("sessions", ())):
        code, out, err = run(command, *v, *extra) if command != "sessions" else run(command)
        assert code in (0, 1), (command, err)
        outputs[f"{command} text"] = out
        code, out, err = (
            run(command, *v, *extra, "--format", "json") if command != "sessions" else run(command, "--format", "json")
        )
        data = json.loads(out)
        outputs[f"{command} json"] = "\n".join(strings(data))
        facts[command] = {c["id"]: c.get("facts") or {} for c in data.get("checks", [])}
    for fmt, name in (("markdown", "ticket.md"), ("json", "ticket.json")):
        code, _, err = run("report", *v, "--format", fmt, "-o", str(tmp_path / name))
        text = (tmp_path / name).read_text(encoding="utf-8")
        outputs[f"report {fmt}"] = "\n".join(strings(json.loads(text))) if fmt == "json" else text

    check = facts["check"]
    expected = {
        "first request": {(check["api.canary"]["first_request"],)},
        "request after a tool call": {(check["api.turn_two"]["turn_two_tokens"],)},
        "window Codex assumes": {(check["ctx.window"]["assumed"],)},
        "served window": {(WINDOW,)},
        "advice": {(WINDOW, check["ctx.window"]["suggest_compact"])},
    }
    # the facts themselves agree: one count of the first request per run, one advice per window
    assert check["ctx.window"]["first_request"] == check["api.canary"]["first_request"]
    assert check["api.turn_two"]["first_request"] == check["api.canary"]["first_request"]
    assert facts["probe"]["ctx.probe"]["suggest_window"] == WINDOW
    assert facts["probe"]["ctx.probe"]["suggest_compact"] == check["ctx.window"]["suggest_compact"]

    seen: dict[str, list[str]] = {name: [] for name in PATTERNS}
    for where, text in outputs.items():
        for name, values in quoted(text).items():
            assert values <= expected[name], (where, name, values, expected[name])
            if values:
                seen[name].append(where)
    # each fact is quoted where a user reads it: not a test that passes because nothing was said
    assert {"check text", "check json", "report markdown"} <= set(seen["first request"]), seen
    assert {"check text", "report markdown"} <= set(seen["request after a tool call"]), seen
    assert {"check text", "report markdown"} <= set(seen["window Codex assumes"]), seen
    assert {"check text", "probe text", "sessions text", "report markdown"} <= set(seen["advice"]), seen
    assert {"check text", "sessions text"} <= set(seen["served window"]), seen


def test_one_check_screen_gives_one_advice_when_the_log_states_no_window(home, sim_server, run, monkeypatch):
    """Codex's own overflow message names no window: the session's was estimated from its largest context (11,000).
    `check` knows the served one, so CTX012 and CTX033 advise the same lines (before: 11000 / 8800 and 12000 / 9600)."""
    s = sim_server(api_key=KEY, context_window=WINDOW, publish_window=True, token_interval_ms=0)
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    monkeypatch.setenv("SIM_API_KEY", KEY)
    w = RolloutWriter(
        home / ".codex" / "sessions", provider="sim", model="sim-model", window=258400, start=datetime.now(timezone.utc)
    )
    for size in (8600, 9800, 11000):
        w.turn(size)
    w.turn(
        0,
        error="Codex ran out of room in the model's context window. Start a new thread or clear earlier history "
        "before retrying.",
        error_info="context_window_exceeded",
    )
    w.close()
    code, out, _ = run("check", "--codex-version", "0.171.0")
    advice = quoted(out)["advice"]
    assert "CTX012" in out and "CTX033" in out, out
    assert advice == {(WINDOW, 9600)}, advice
