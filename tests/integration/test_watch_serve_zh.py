"""Issue 40 (review): `watch --serve` printed its start-up lines in English in a Chinese run."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from tests.integration.test_watch import KEY, resolved, watch_env


@pytest.mark.simulator
def test_serve_says_its_start_up_lines_in_chinese(home, sim_server):
    s = sim_server(api_key=KEY)
    env = watch_env(home, s.base_url, LANG="zh_CN.UTF-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "codexdoctor", "watch", "--serve"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None
    lines = [proc.stdout.readline() for _ in range(4)]
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert lines[0].startswith("codexdoctor watch：在 http://127.0.0.1:") and "上记录 -> " in lines[0], lines
    assert lines[1].strip() == "这样启动 Codex：", lines
    assert lines[2].strip().startswith("codex -c 'model_providers.sim.base_url=")
    assert lines[3].strip() == "按 Ctrl-C 停止记录器并打印诊断。", lines
    assert "Run Codex" not in out and "Traceback" not in err


def test_why_codex_runs_direct_is_said_in_chinese(home):
    from codexdoctor.watch import override

    problem = override.pointing(resolved(home, 'model_provider = "nope"\n')).problem
    assert problem is not None and "没有对应的提供方表" in problem.text("zh") and "names no" in problem.text("en")
