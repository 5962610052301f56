"""Hostile files: a FIFO, device, socket or bomb where a config, auth.json, rollout or log is expected is a
finding (or a skipped line), never a hang and never exit 3."""

import os
import socket
import time

import pytest

from codexdoctor.common import safefile
from tests.conftest import TAOTOKEN, offline_report, write_config

KEY = "sk-tt-0123456789abcdefghijklmnopqrstuv"


def codes(report):
    return [f.code for f in report.findings]


@pytest.mark.parametrize("make", ["fifo", "devzero", "socket", "loop"])
def test_config_that_is_not_a_file_is_cfg003(home, make):
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    if make == "fifo":
        os.mkfifo(path)
    elif make == "devzero":
        path.symlink_to("/dev/zero")
    elif make == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
    else:
        (home / ".codex" / "a").symlink_to(home / ".codex" / "b")
        (home / ".codex" / "b").symlink_to(home / ".codex" / "a")
        path.symlink_to(home / ".codex" / "a")
    started = time.perf_counter()
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert time.perf_counter() - started < 2
    assert codes(report)[:1] == ["CFG003"]
    reason = report.findings[0].diagnosis
    assert {"fifo": "named pipe", "devzero": "device", "socket": "socket", "loop": "symlink loop"}[make] in reason


def test_fifo_auth_json_is_reported_not_read(home):
    write_config(home, 'model = "gpt-5"\n')
    os.mkfifo(home / ".codex" / "auth.json")
    report = offline_report(home)
    assert "ENV014" in codes(report) or "ENV012" in codes(report)
    assert report.verdict.value == "config"


def test_oversized_config_is_refused(home):
    write_config(home, TAOTOKEN + "# " + "x" * (safefile.CONFIG_MAX + 10) + "\n")
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert codes(report) == ["CFG003"] and "larger than" in report.findings[0].diagnosis


@pytest.mark.parametrize("text", ["a = " + "[" * 3000 + "]" * 3000 + "\n", ".".join(["k"] * 20000) + " = 1\n",
                                  "a = [[1, [2, [3]]], {x = 1}]\nb = {c = {d = {e = 1}}}\n" + TAOTOKEN])
def test_nesting_is_a_finding_not_a_crash(home, text):
    write_config(home, text)
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert report.verdict.value in ("config", "inconclusive")
    if "[[1" not in text:
        assert codes(report) == ["CFG002"] and ":None" not in report.findings[0].diagnosis


def test_pathological_configs_are_checked_quickly(home):
    for text in ("\n".join(f"u{i} = 1" for i in range(100_000)),
                 'model_provider = "p"\n[model_providers.p]\nname = "p"\nbase_url = "http://h/v1"\n'
                 + "\n".join(f"modle_{i} = 1" for i in range(60_000))):
        write_config(home, text)
        started = time.perf_counter()
        report = offline_report(home)
        elapsed = time.perf_counter() - started
        assert elapsed < 3, f"{elapsed:.2f} s"  # measured ~0.6 s; the bound only catches a quadratic regression
        assert len([f for f in report.findings if f.code == "CFG008"]) <= 500


def test_unreadable_project_folder_and_symlink_loop_in_project(home, tmp_path, monkeypatch):
    write_config(home, TAOTOKEN)
    project = tmp_path / "proj"
    (project / ".codex").mkdir(parents=True)
    (project / ".codex" / "config.toml").symlink_to(project / ".codex" / "config.toml")
    monkeypatch.chdir(project)
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert report.verdict.value in ("config", "inconclusive", "ok")


def test_rollout_fifo_and_json_bomb_are_skipped_and_other_sessions_still_report(home, tmp_path):
    from codexdoctor.commands.sessions import run_sessions
    from tests.rollout_factory import RolloutWriter

    root = tmp_path / "sessions"
    good = RolloutWriter(root)
    good.turn(10000)
    good.close()
    day = root / "2026" / "11" / "21"
    day.mkdir(parents=True)
    os.mkfifo(day / "rollout-2026-11-21T00-00-00-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee.jsonl")
    (day / "rollout-2026-11-21T01-00-00-bbbbbbbb-bbbb-cccc-dddd-eeeeeeeeeeee.jsonl").write_text(
        '{"a":' * 100_000 + "1" + "}" * 100_000 + "\n")
    started = time.perf_counter()
    report, _ = run_sessions({"HOME": str(home)}, home, (root,), None, None, None, False)
    assert time.perf_counter() - started < 5
    sessions = report.checks[0].facts["sessions"]
    assert len(sessions) == 3
    assert any(d["read_error"] and "named pipe" in d["read_error"] for d in sessions)
    assert any(d["bad_lines"] == 1 for d in sessions)


def test_fifo_log_is_not_opened(tmp_path):
    from codexdoctor.codex.rollouts import read_tui_log

    os.mkfifo(tmp_path / "codex-tui.log")
    problems = []
    assert read_tui_log(tmp_path / "codex-tui.log", problems) == [] and "named pipe" in problems[0]


@pytest.mark.parametrize("fmt", ["json", "text", "markdown", "junit", "github"])
def test_a_token_count_beyond_64_bits_is_reported_in_every_format(home, tmp_path, fmt):
    """A corrupt log's 20-digit token count once crashed the JSON writer (orjson stops at 64 bits): every format
    now writes the number as read."""
    from codexdoctor.commands.sessions import run_sessions
    from codexdoctor.report.render import render
    from tests.rollout_factory import RolloutWriter

    root = tmp_path / "sessions"
    w = RolloutWriter(root)
    w.turn(10000)
    w.raw('{"timestamp":"2026-11-20T09:00:05.000Z","type":"event_msg","payload":{"type":"token_count","info":'
          '{"total_token_usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,'
          '"total_tokens":2},"last_token_usage":{"input_tokens":123456789012345678901,"cached_input_tokens":0,'
          '"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":2},"model_context_window":9000}}\n')
    w.close()
    report, _ = run_sessions({"HOME": str(home)}, home, (root,), None, None, None, False)
    out = render(report, fmt)
    assert report.checks[0].facts["sessions"][0]["peak"] == 123456789012345678901
    if fmt == "json":
        import json

        assert json.loads(out)["checks"][0]["facts"]["sessions"][0]["peak"] == 123456789012345678901
