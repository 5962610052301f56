"""Outputs (issue 36, item 6): `-o`, the ticket and its request file go to regular files only, never through a
symlink, created 0600, and a FIFO at the name is refused at once instead of waiting for a reader forever."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

from codexdoctor.common import safefile
from tests.conftest import TAOTOKEN, write_config

COMMANDS = [
    ("check", "--offline", "-o"),
    ("sessions", "-o"),
    ("report", "--offline", "-o"),
    ("diagnose-error", "401 Unauthorized", "-o"),
]


def mode_of(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_fifo_nobody_reads_is_refused_at_once(home, tmp_path, command):
    """Before: the write blocked in open() until a reader came, past every --timeout (the test process is killed)."""
    write_config(home, TAOTOKEN)
    fifo = tmp_path / "out.md"
    os.mkfifo(fifo)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "codexdoctor", *command, str(fifo)],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{command[0]} -o FIFO was still waiting for a reader after 30 s")
    # The error is wrapped to the terminal (issue 40): its words are compared with the line breaks folded.
    assert proc.returncode == 2 and "a named pipe (FIFO), not a file" in " ".join(proc.stderr.split()), proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_symlink_at_the_target_is_never_written_through(home, run, tmp_path, command):
    write_config(home, TAOTOKEN)
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's own file\n")
    link = tmp_path / "out.md"
    link.symlink_to(victim)
    dangling = tmp_path / "dangling.md"
    dangling.symlink_to(tmp_path / "created-elsewhere.md")
    for target in (link, dangling):
        code, out, err = run(*command, str(target))
        assert code == 2 and "a symbolic link: not followed" in " ".join(err.split()), err
    assert victim.read_text() == "the user's own file\n" and os.path.islink(link)
    assert not (tmp_path / "created-elsewhere.md").exists()


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_outputs_are_created_0600_and_an_old_0644_one_is_narrowed(home, run, tmp_path, command):
    write_config(home, TAOTOKEN)
    new = tmp_path / "new.md"
    code, out, err = run(*command, str(new))
    assert code in (0, 1) and new.stat().st_size > 0, err
    assert mode_of(new) == 0o600
    old = tmp_path / "old.md"
    old.write_text("x" * 100_000)
    old.chmod(0o644)
    code, out, err = run(*command, str(old))
    assert code in (0, 1) and mode_of(old) == 0o600
    assert "x" * 100 not in old.read_text()  # rewritten, not appended to


def test_a_directory_or_a_device_is_refused_in_both_languages(home, run, tmp_path):
    (tmp_path / "folder").mkdir()
    for target, en, zh in (
        (tmp_path / "folder", "is a directory", "是目录"),
        ("/dev/null", "a device, not a file", "是设备，不是文件"),
    ):
        code, _, err = run("check", "--offline", "-o", str(target))
        assert code == 2 and en in " ".join(err.split()), err
        code, _, err = run("check", "--offline", "--lang", "zh", "-o", str(target))
        squeezed = "".join(err.split())
        assert code == 2 and f"无法写入{target}：" in squeezed and zh in squeezed, err


def test_the_tickets_request_file_is_0600_and_a_fifo_there_is_refused_before_the_check(
    home, run, sim_server, monkeypatch, tmp_path
):
    key = "Q7w9E2r4T6y8U1i3O5p7A9s2Xk3mN8bV4cZ1"
    s = sim_server(api_key=key)
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    monkeypatch.setenv("SIM_API_KEY", key)
    code, _, err = run("report", "-o", str(tmp_path / "t.md"), "--codex-version", "0.171.0")
    assert code == 0, err
    assert mode_of(tmp_path / "t.md") == 0o600 and mode_of(tmp_path / "t.request.json") == 0o600
    os.mkfifo(tmp_path / "u.request.json")
    sent = len(s.records)
    code, _, err = run("report", "-o", str(tmp_path / "u.md"), "--codex-version", "0.171.0")
    assert code == 2 and "u.request.json: a named pipe (FIFO), not a file" in " ".join(err.split()), err
    assert len(s.records) == sent and not (tmp_path / "u.md").exists()  # refused before any request was sent


# ---- the writer itself: what it decides on the file it opened, whatever the pre-check saw ----------------------


def test_open_output_refuses_a_fifo_that_has_a_reader(tmp_path):
    """The race: a FIFO swapped in after the command line looked. Opening it for writing then succeeds (it has a
    reader), so the refusal comes from fstat on the opened descriptor."""
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with pytest.raises(safefile.Unwritable, match="named pipe"):
            safefile.write_output(fifo, "data")
    finally:
        os.close(reader)
    with pytest.raises(safefile.Unwritable, match="named pipe"):  # and with no reader: ENXIO, at once
        safefile.write_output(fifo, "data")


def test_open_output_refuses_symlinks_devices_folders_and_hard_links(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("keep")
    (tmp_path / "link").symlink_to(victim)
    with pytest.raises(safefile.Unwritable, match="symbolic link"):
        safefile.write_output(tmp_path / "link", "data")
    with pytest.raises(safefile.Unwritable, match="device"):
        safefile.write_output("/dev/null", "data")
    (tmp_path / "folder").mkdir()
    with pytest.raises(OSError):
        safefile.write_output(tmp_path / "folder", "data")
    os.link(victim, tmp_path / "hard")
    with pytest.raises(safefile.Unwritable, match="hard links"):
        safefile.write_output(tmp_path / "hard", "data")
    assert victim.read_text() == "keep"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown to another user needs root")
def test_open_output_refuses_a_file_another_user_planted(tmp_path):
    planted = tmp_path / "codexdoctor-report.md"
    planted.write_text("")
    planted.chmod(0o666)
    os.chown(planted, 54321, 54321)
    with pytest.raises(safefile.Unwritable, match="another user"):
        safefile.write_output(planted, "secret-ish")
    assert planted.read_text() == ""


def test_append_keeps_the_content_and_mode(tmp_path):
    summary = tmp_path / "summary.md"
    summary.write_text("before\n")
    summary.chmod(0o644)
    safefile.write_output(summary, "after\n", append=True)
    assert summary.read_text() == "before\nafter\n" and mode_of(summary) == 0o644
