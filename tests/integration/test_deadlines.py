"""Every command's deadline is the one its help gives (issue 36, item 8), held at the boundary.

Each clock counts from the launch: start-up and `codex --version` are inside `--timeout`. A command returns within
0.5 s of its deadline; the tests allow a loaded 2-core machine's slack on top (tests/timing.py), and never assert a
speed. Each failure they guard against is far past that bound: a `codex` that takes 30 s to start, a provider that
never answers (30 s) or sends keep-alives forever (120 s of --first-token-timeout by default).
"""

from __future__ import annotations

import os
import stat
import time

import pytest

from tests.conftest import write_config
from tests.timing import PROMISE, assert_within

KEY = "sk-deadline-0123456789abcdef"


def configure(home, server, monkeypatch, key_name="base_url"):
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'{key_name} = "{server.base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    monkeypatch.setenv("SIM_API_KEY", KEY)


@pytest.fixture
def slow_codex(tmp_path, monkeypatch):
    """A `codex` on PATH that takes 30 s to print its version, through a child that keeps the pipe open (as npm's
    Node wrapper runs the native binary). Before: the clocks started after it, so it came on top of --timeout."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "codex"
    script.write_text("#!/bin/sh\nsleep 30\necho codex-cli 0.171.0\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.delenv("CODEXDOCTOR_NO_CODEX_PROBE", raising=False)


def timed(run, *args):
    started = time.monotonic()
    code, out, err = run(*args)
    return code, out, err, time.monotonic() - started


def test_check_counts_start_up_inside_its_timeout(home, run, sim_server, monkeypatch, slow_codex):
    s = sim_server(hang=True, hang_seconds=30)
    configure(home, s, monkeypatch)
    code, out, err, elapsed = timed(run, "check", "--timeout", "2")
    assert code in (0, 1) and "Traceback" not in err
    assert_within(elapsed, 2, "check --timeout 2")


def test_check_waits_for_an_alive_provider_up_to_first_token_timeout(home, run, sim_server, monkeypatch):
    s = sim_server(api_key=KEY, stream_fault="keepalive")
    configure(home, s, monkeypatch)
    code, out, err, elapsed = timed(
        run, "check", "--timeout", "1", "--first-token-timeout", "2", "-v", "--codex-version", "0.171.0"
    )
    flat = " ".join(out.split())
    # 200, then only keep-alive comments: alive, no first token by --first-token-timeout (NET010, a warning; issue 40
    # review: it was NET004, "no answer", on a host that had answered)
    assert code == 0 and "NET010" in out and "NET004" not in out, out
    assert "waited past --timeout 1 s because the provider is alive" in flat, out
    assert "until --first-token-timeout 2 s (counted from codexdoctor's start) ended the wait" in flat, out
    assert elapsed > 2 - 0.2, f"{elapsed:.2f} s: it stopped at --timeout, before --first-token-timeout"
    assert_within(elapsed, 2, "check --first-token-timeout 2")


def test_report_has_a_first_token_timeout_and_keeps_to_it(home, run, sim_server, monkeypatch, tmp_path):
    """Before: report had no --first-token-timeout, and `report --timeout 3` against a provider that drips
    keep-alive comments waited 120 s for it."""
    s = sim_server(api_key=KEY, stream_fault="keepalive")
    configure(home, s, monkeypatch)
    code, out, err, elapsed = timed(
        run, "report", "--timeout", "2", "--first-token-timeout", "3", "-o", str(tmp_path / "t.md")
    )
    assert code == 0, err
    assert_within(elapsed, 3, "report --first-token-timeout 3")
    assert "waited past --timeout 2 s because the provider is alive" in " ".join(
        (tmp_path / "t.md").read_text().split()
    )


def test_report_counts_start_up_inside_its_timeout(home, run, sim_server, monkeypatch, tmp_path, slow_codex):
    s = sim_server(hang=True, hang_seconds=30)
    configure(home, s, monkeypatch)
    code, out, err, elapsed = timed(run, "report", "--timeout", "2", "-o", str(tmp_path / "t.md"))
    assert code == 0, err
    assert_within(elapsed, 2, "report --timeout 2")


def test_probe_ends_within_its_timeout_counted_from_launch(home, run, sim_server, monkeypatch, slow_codex):
    """Before: `probe --timeout 20` against a server slow to send its headers ended at 20.8 s: the clock started
    after the imports and `codex --version`."""
    s = sim_server(api_key=KEY, stream_fault="slow_headers")
    configure(home, s, monkeypatch)
    code, out, err, elapsed = timed(
        run, "probe", "--timeout", "5", "--request-timeout", "2", "--max-context", "4000", "-y", "-q"
    )
    assert code in (0, 1) and "Traceback" not in err, err
    assert_within(elapsed, 5, "probe --timeout 5")
    assert "NET004" in out  # the single question got no answer in time: said, not waited on


def test_fix_gives_each_check_run_its_own_deadline(home, run, sim_server, monkeypatch):
    """fix checks, edits, checks again: each run is bounded by --timeout / --first-token-timeout (before: fix had
    no --first-token-timeout, and each run could wait 120 s for a provider that is alive)."""
    s = sim_server(api_key=KEY, stream_fault="keepalive")
    configure(home, s, monkeypatch, key_name="baseURL")  # CFG006: a certain edit, to base_url
    code, out, err, elapsed = timed(
        run, "fix", "--yes", "--timeout", "0.5", "--first-token-timeout", "1", "--codex-version", "0.171.0"
    )
    assert "Traceback" not in err and "base_url" in (home / ".codex" / "config.toml").read_text()
    assert code in (0, 1), err
    posts = [r for r in s.records if r.method == "POST"]
    assert len(posts) >= 2  # the re-check sent its canary too: it had its own clock
    assert_within(elapsed, 2 * 1, "fix, two check runs of --first-token-timeout 1,", promise=2 * PROMISE)


def test_sessions_has_no_deadline_to_keep(run):
    """`sessions` reads local files only: no --timeout, and its help promises none."""
    code, out, _ = run("sessions", "--help")
    assert code == 0 and "--timeout" not in out
