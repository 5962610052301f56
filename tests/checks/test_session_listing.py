"""Issue 40 review: `check` read only rollout-*.jsonl and did not follow linked folders, `sessions` read every
*.jsonl and followed them: 8 against 11 logs of the same folder. Both now list by one rule, Codex's own
(codex-rs/core/src/rollout/list.rs keeps `rollout-*.jsonl`), and follow a linked folder once."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from codexdoctor.checks.sessions.read import recent_rollouts
from codexdoctor.checks.sessions.result import Kept, counted
from codexdoctor.codex.rollouts import find_rollouts
from codexdoctor.model import Msg

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "rollouts" / "real-0.171.0"


def _tree(tmp_path: Path) -> Path:
    """The reviewer's folder: every real log copied into one day, one more day moved to another disk and linked
    back, and a link loop."""
    sessions = tmp_path / "sessions"
    day = sessions / "2026" / "12" / "01"
    day.mkdir(parents=True)
    for f in sorted(REAL.rglob("*.jsonl")):
        shutil.copy(f, day / f.name)
    moved = tmp_path / "other-disk" / "02"
    moved.mkdir(parents=True)
    shutil.copy(next(REAL.rglob("rollout-*.jsonl")), moved / "rollout-2026-12-02T00-00-00-x.jsonl")
    os.symlink(moved, sessions / "2026" / "12" / "02")
    os.symlink(sessions, day / "loop")
    return sessions


def test_check_and_sessions_list_the_same_logs(tmp_path):
    sessions = _tree(tmp_path)
    everything = find_rollouts([sessions], [])
    recent = recent_rollouts([sessions])
    assert sorted(recent) == everything
    assert len(everything) == 9  # 8 rollout-*.jsonl copied + 1 behind the link; the 3 other *.jsonl are not Codex's
    assert all(p.name.startswith("rollout-") for p in everything)
    assert recent[0].name == "rollout-2026-12-02T00-00-00-x.jsonl"  # newest first, through the link


def test_recent_rollouts_stops_at_the_limit_newest_first(tmp_path):
    sessions = _tree(tmp_path)
    assert [p.name for p in recent_rollouts([sessions], 2)] == [
        "rollout-2026-12-02T00-00-00-x.jsonl",
        sorted(p.name for p in REAL.rglob("rollout-*.jsonl"))[-1],
    ]


def test_all_kept_says_all():
    which = Msg("of provider `sim`", "属于提供方 sim")
    assert counted(7, 7, [], Kept(7, which)).text("en") == "all 7 sessions are of provider `sim`; 7 failed"
    assert counted(7, 7, [], Kept(7, which)).text("zh") == "7 个会话，都属于提供方 sim；7 个失败"
    assert counted(7, 7, [], Kept(8, which)).text("zh") == "8 个会话中 7 个属于提供方 sim；7 个失败"
