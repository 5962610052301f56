"""Issue 40 review: `report` counted the same folder two ways. Its check part said "5 sessions, 5 failed" and "5
sessions read from ~/.codex/sessions"; its sessions part "6 sessions read from ~/.codex/sessions,
~/.codex/archived_sessions". It read 6 and `check` kept the 5 of the active provider: both now say so."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest

from tests.conftest import write_config
from tests.rollout_factory import RolloutWriter

KEY = "sk-sim-counts-0123456789abcdef"
# A failure one working request cannot rule out (a 401 would be: the canary passes, so `check` leaves such a
# session out; test_verdict_now_before_logs.py)
BAD_GATEWAY = "unexpected status 502 Bad Gateway: <html>bad gateway</html>"


@pytest.fixture
def six_sessions(home, sim_server, monkeypatch):
    """Five failed sessions of the configured provider `sim` and one of another provider, all recent."""
    s = sim_server(api_key=KEY, token_interval_ms=0)
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    monkeypatch.setenv("SIM_API_KEY", KEY)
    start = datetime.now(timezone.utc) - timedelta(hours=8)
    for i, provider in enumerate(("sim",) * 5 + ("other",)):
        model = "sim-model" if provider == "sim" else "other-model"
        w = RolloutWriter(
            home / ".codex" / "sessions", provider=provider, model=model, start=start + timedelta(hours=i)
        )
        w.turn(9000)
        w.turn(0, error=BAD_GATEWAY, error_info={"http_connection_failed": {"http_status_code": 502}})
        w.close()
    return s


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(
    ("lang", "row", "read", "wrong"),
    [
        (
            "zh",
            "6 个会话中 5 个属于提供方 sim、模型 sim-model（最近 14 天）；5 个失败",
            "从 ~/.codex/sessions、~/.codex/archived_sessions 读取了 6 个会话，其中 5 个属于提供方 sim",
            re.compile(r"读取了 5 个会话|\| 5 个会话，"),
        ),
        (
            "en",
            "5 of 6 sessions of provider `sim`, model sim-model, in the last 14 days; 5 failed",
            "6 sessions read from ~/.codex/sessions, ~/.codex/archived_sessions; 5 of provider `sim`",
            re.compile(r"\b5 sessions read|\| 5 sessions, "),
        ),
    ],
    ids=["zh", "en"],
)
def test_the_check_and_the_sessions_parts_of_a_report_count_alike(six_sessions, run, tmp_path, lang, row, read, wrong):
    target = tmp_path / "ticket.md"
    code, out, err = run("report", "--lang", lang, "-o", str(target), "--codex-version", "0.171.0")
    assert code == 0, err
    text = target.read_text(encoding="utf-8")
    assert row in text and read in text, text
    assert not wrong.search(text), wrong.search(text)
    # the sessions part read the same 6, from the same two folders
    assert (
        "读取了 6 个会话" if lang == "zh" else "6 sessions read from ~/.codex/sessions, ~/.codex/archived_sessions"
    ) in text


def test_check_says_how_many_it_read_and_kept(six_sessions, run):
    code, out, _ = run("check", "-v", "--codex-version", "0.171.0")
    assert "5 of 6 sessions of provider `sim`" in flat(out), out
    assert "6 sessions read from ~/.codex/sessions, ~/.codex/archived_sessions; 5 of provider `sim`" in flat(out)
