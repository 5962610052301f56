"""Issue 40 review (defects 8, 9, 16, 19, 26): one window per provider and model per run, in every finding and format.

The reviewer's corpus: real Codex 0.171.0 logs of provider `sim` / sim-model (three overflows whose errors state 16,000,
three that broke at 15,512, one Ollama-style truncation at 14,000, a 401 of provider `other`), a copy of one overflow
under the configured `taotoken` / tt-model, and a taotoken session whose first request failed with no size logged.
Before: `sessions` pasted 16000 (CTX012), 15512 (CTX014) and 14000 (CTX026), each "at the top level", for sim-model too
although the config uses tt-model; told the user to check `[model_providers.other]`, which the config lacks; and said
"The largest context that worked was ? tokens" with 16,000 borrowed from another session. `check` said "about 16,000"
in CTX012 and "how much room is left … is unknown" in CTX025."""

from __future__ import annotations

import json
import re
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tests.conftest import write_config
from tests.rollout_factory import RolloutWriter

REAL = Path(__file__).parents[1] / "fixtures" / "rollouts" / "real-0.171.0"
KEY = "sk-sim-window-0123456789abcdef"
CONFIG = (
    'model = "tt-model"\nmodel_provider = "taotoken"\n\n[model_providers.taotoken]\nname = "TaoToken"\n'
    'base_url = "{url}"\nenv_key = "TAOTOKEN_API_KEY"\nwire_api = "responses"\n'
)
OVERFLOW = (
    "Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying."
)
STATED = (
    "This model's maximum context length is 16000 tokens. However, your request has 18070 input tokens. Please reduce "
    "the length of the input messages."
)
# "The window this run takes for `sim` / sim-model is 14,000 tokens", in both languages
DECIDED = re.compile(r"(?:for|为) `([^`]+)` / (\S+?) (?:is|采用的窗口是) ([\d,]+)")


def _corpus(sessions: Path) -> None:
    for folder in ("overflow-vllm", "overflow-llamacpp", "overflow-litellm", "stable-break-3", "truncation-ollama"):
        shutil.copytree(REAL / folder, sessions / folder)
    vllm = next((REAL / "overflow-vllm").glob("*.jsonl"))
    copy = vllm.read_text(encoding="utf-8").replace('"sim-model"', '"tt-model"').replace('"sim"', '"taotoken"')
    (sessions / "taotoken").mkdir()
    (sessions / "taotoken" / vllm.name.replace("01a22fc8", "01a23000")).write_text(
        copy.replace("01a22fc8", "01a23000").replace("2026-12-01T04", "2026-12-02T10"), encoding="utf-8"
    )
    # a first request that failed: Codex's own overflow message, no size in the log
    w = RolloutWriter(
        sessions, provider="taotoken", model="tt-model", start=datetime(2026, 12, 2, 18, 44, tzinfo=timezone.utc)
    )
    w.turn(0, error=OVERFLOW, error_info="context_window_exceeded")
    w.fh.close()


def _decided(text: str) -> dict[tuple[str, str], set[int]]:
    found: dict[tuple[str, str], set[int]] = {}
    for p, m, n in DECIDED.findall(" ".join(text.split())):
        found.setdefault((p, m.rstrip("，,")), set()).add(int(n.replace(",", "")))
    return found


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_sessions_gives_one_window_per_provider_and_model_in_every_format(home, run, lang):
    write_config(home, CONFIG.format(url="http://127.0.0.1:9/v1"))
    _corpus(home / ".codex" / "sessions")
    outputs = {}
    for fmt in ("text", "json", "markdown"):
        code, out, err = run("sessions", "--lang", lang, "--format", fmt)
        assert code in (0, 1), err
        outputs[fmt] = out
    data = json.loads(outputs["json"])
    windows = {(w["provider"], w["model"]): w for w in data["checks"][0]["facts"]["windows"]}
    # decided once, from the strongest evidence: sim's truncation (14,000) under the 16,000 its errors state; the
    # taotoken copy's stated 16,000
    assert windows[("sim", "sim-model")]["window"] == 14000 and windows[("sim", "sim-model")]["basis"] == "truncated"
    assert windows[("sim", "sim-model")]["larger_stated"] == 16000
    assert windows[("taotoken", "tt-model")]["window"] == 16000 and windows[("taotoken", "tt-model")]["current"]
    expected = {("sim", "sim-model"): {14000}, ("taotoken", "tt-model"): {16000}}
    for fmt, out in outputs.items():
        decided = _decided(out)
        assert decided == expected, (fmt, decided)
        pasted = [int(v) for v in re.findall(r"model_context_window = (\d+)", out)]
        # each window's two lines once (the other findings refer to it): no duplicate key when both are pasted
        assert sorted(pasted) == sorted({v for values in expected.values() for v in values}), (fmt, pasted)
        flat = " ".join(out.split())
        assert "model_context_window = 15512" not in flat, fmt  # the break point, weaker than what the logs state
        assert " ? tokens" not in flat and " ? 个 token" not in flat, fmt  # defect 26
        assert "[model_providers.other]" not in flat, fmt  # defect 9: a table the config does not have
    text = " ".join(outputs["text"].split())
    if lang == "en":
        assert "ran on provider `sim` with model sim-model, which your current config does not define" in text
        assert "ran on provider `other`, which your current config does not define" in text
        assert (
            "its first request alone (Codex's instructions and tool schemas with your first message) was larger" in text
        )
        assert "this one's log cannot confirm it" in text  # 16,000 is not borrowed as the turn-1 session's own window
        assert "too small for Codex" in text
        # the lines for sim-model are for when the user goes back to it, not for the top level of this config
        assert "If you run Codex with them again, put these two lines" in text
    else:
        assert "而你当前的配置没有定义这个提供方" in text and "这个会话的日志无法证实它" in text


def test_check_knows_the_window_its_logs_show(home, run, sim_server, monkeypatch):
    """Defect 19: CTX012 said the window is about 16,000 and CTX025 that the room left is unknown; 16,000 is below the
    first request, one large tool output and the answer's room, which is "too small for Codex"."""
    s = sim_server(api_key=KEY, context_window=12000, models=("tt-model",), token_interval_ms=0)
    write_config(home, CONFIG.format(url=s.base_url))
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    w = RolloutWriter(
        home / ".codex" / "sessions",
        provider="taotoken",
        model="tt-model",
        start=datetime.now(timezone.utc) - timedelta(days=1),
    )
    for size in (11000, 13200, 15500):
        w.turn(size)
    w.turn(0, error=STATED)
    w.fh.close()
    outputs = {}
    for fmt in ("text", "json", "markdown"):
        code, out, err = run("check", "--codex-version", "0.171.0", "--format", fmt)
        outputs[fmt] = out
    data = json.loads(outputs["json"])
    codes = [f["code"] for f in data["findings"]]
    assert "CTX012" in codes and "CTX025" in codes, codes
    window = next(c for c in data["checks"] if c["id"] == "ctx.window")["facts"]
    assert window["sessions_window"]["window"] == 16000
    for fmt, out in outputs.items():
        flat = " ".join(out.split())
        assert "how much room is left for a session is unknown" not in flat, fmt
        assert "the room left for a session is unknown" not in flat, fmt
        assert "your session logs show its window: about 16,000 tokens" in flat, fmt
        assert "too small for Codex" in flat, fmt
        assert set(re.findall(r"model_context_window = (\d+)", out)) <= {"16000"}, fmt
