"""Issue 40 (review): `watch --serve` printed its start-up lines in English in a Chinese run."""

from __future__ import annotations

import re
import signal
import subprocess
import sys

import pytest

from tests.integration.test_watch import KEY, resolved, watch_env


@pytest.mark.simulator
def test_serve_says_its_start_up_lines_in_chinese(home, sim_server):
    s = sim_server(api_key=KEY)
    env = watch_env(home, s.base_url, LANG="zh_CN.UTF-8", COLUMNS="200")
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


@pytest.mark.simulator
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_serve_start_up_lines_fit_the_terminal_with_urls_whole(home, sim_server, lang):
    """Issue 40 review: `codexdoctor watch：在 http://127.0.0.1:45678/v1 上记录 -> http://127.0.0.1:8787/v1` took 82
    cells (English 85) at 80 columns, and the terminal broke a URL: it wraps at its spaces, each URL whole."""
    from codexdoctor.common.cells import cells

    s = sim_server(api_key=KEY)
    env = watch_env(home, s.base_url, LANG="zh_CN.UTF-8" if lang == "zh" else "C.UTF-8", COLUMNS="60")
    proc = subprocess.Popen(
        [sys.executable, "-m", "codexdoctor", "watch", "--serve"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None
    lines = [proc.stdout.readline()]
    while lines[-1] and "Ctrl-C" not in lines[-1]:
        lines.append(proc.stdout.readline())
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=30)
    head = [line.rstrip("\n") for line in lines[: next(i for i, line in enumerate(lines) if "Codex" in line)]]
    assert len(head) > 1 and all(cells(line, lang) <= 60 for line in head), head
    assert any(line.strip() == s.base_url or line.strip().endswith(" " + s.base_url) for line in head), head
    assert any(re.search(r"(^| )http://127\.0\.0\.1:\d+/v1( |$)", line.strip()) for line in head[:-1]), head


def test_why_codex_runs_direct_is_said_in_chinese(home):
    from codexdoctor.watch import override

    problem = override.pointing(resolved(home, 'model_provider = "nope"\n')).problem
    assert problem is not None and "没有对应的提供方表" in problem.text("zh") and "names no" in problem.text("en")
