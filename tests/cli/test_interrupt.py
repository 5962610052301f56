"""Ctrl-C at any moment (issue 36, item 7): "Interrupted." (zh: 已中断。) and exit 130, never a traceback.

A SIGINT 20-100 ms after launch used to arrive while cli.py imported click, before any handler existed: a Python
traceback in 9 runs of 10. The real console script and `python -m codexdoctor` are started many times here and
interrupted at random moments of their start-up and run (moments drawn over the run time measured first, so a slow
machine moves them with it).
"""

from __future__ import annotations

import collections
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

RUNS = 60
SCRIPT = Path(sys.executable).parent / "codexdoctor"
ENTRIES = {
    "console script": [str(SCRIPT)],
    "python -m codexdoctor": [sys.executable, "-m", "codexdoctor"],
}
# (arguments, exit codes of a run that finished first, environment)
COMMANDS = [
    (["--version"], (0,), {}),
    (["check", "--offline", "--codex-version", "0.171.0"], (0, 1), {}),
    (["check", "--offline", "--codex-version", "0.171.0"], (0, 1), {"LANG": "zh_CN.UTF-8"}),
    (["sessions"], (0, 1), {}),
]
PACKAGE = Path(__file__).resolve().parents[2] / "codexdoctor"
FRAME = re.compile(r'^  File "(.+)", line (\d+), in (.+)$', re.M)


def line_of(module: str, prefix: str) -> int:
    """The line of `module` that starts with `prefix` (0 when there is none: no frame of it is allowed)."""
    path = PACKAGE / module
    lines = path.read_text().splitlines() if path.exists() else []
    return next((n for n, text in enumerate(lines, 1) if text.startswith(prefix)), 0)


def before_codexdoctor_ran(err: str) -> bool:
    """A Ctrl-C that Python itself reported before codexdoctor's first statement with an effect ran (entry.py
    installing the handler): in the interpreter's start-up (its site import and the environment's .pth files, such
    as an editable install's finder: "Fatal Python error: init_import_site", "Error processing line 1 of …pth"), the
    start of the script, or the import machinery loading the package, entry.py and the module of the handler.

    Precise, not lenient: every frame inside codexdoctor must be one of those module-level imports. A Ctrl-C that
    reached cli.py, click's import, a command or the shutdown has a frame elsewhere and is a failure."""
    if "KeyboardInterrupt" not in err and not err.startswith("Fatal Python error: "):  # the interpreter's own words
        return False
    allowed_lines = {
        "entry.py": line_of("entry.py", "interrupt.install("),  # before this line: the imports it needs
        "__main__.py": line_of("__main__.py", "from codexdoctor.entry import main") + 1,
    }
    for path, number, where in FRAME.findall(err):
        try:
            inside = Path(path).resolve().relative_to(PACKAGE).as_posix()
        except ValueError:
            continue  # the interpreter's own: site, runpy, importlib, the console script's first line, the finder
        if where != "<module>":
            return False
        if inside in allowed_lines:
            if int(number) >= allowed_lines[inside]:
                return False
        elif inside not in ("__init__.py", "common/__init__.py", "common/interrupt.py", "common/lang.py"):
            return False
    return True


def outcome(code: int, err: str, finished: tuple[int, ...], zh: bool) -> str:
    line = "已中断。" if zh else "Interrupted."
    if code == 130 and err == line + "\n":
        return "interrupted"
    if code in finished and err == "":
        return "finished first"
    if code == -signal.SIGINT and err == "":
        # Python's own handler was not installed yet (or no longer, at the very end of its shutdown): the default
        # action ends the process by the signal, with nothing printed; a shell reports it as 130.
        return "ended by the signal (130 to a shell), nothing printed"
    if before_codexdoctor_ran(err):
        loading = any(Path(path).resolve().is_relative_to(PACKAGE) for path, _, _ in FRAME.findall(err))
        return "before the handler: " + ("loading its module" if loading else "Python's own start-up")
    return "bad"


def run_time(argv: list[str], extra_env: dict[str, str]) -> float:
    """Seconds one uninterrupted run of `argv` takes on this machine now."""
    started = time.monotonic()
    subprocess.run(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **extra_env}, timeout=60
    )
    return time.monotonic() - started


@pytest.mark.slow
@pytest.mark.parametrize("entry", ENTRIES, ids=list(ENTRIES))
def test_ctrl_c_at_any_moment_is_one_line_and_130(home, entry):
    if entry == "console script" and not SCRIPT.exists():
        pytest.skip("codexdoctor is not installed as a console script in this environment")
    rng = random.Random(36)
    seen: collections.Counter[str] = collections.Counter()
    bad = []
    # The moments are drawn over each command's own run time, measured here and now: a fixed 5-150 ms range fell
    # inside Python's own start-up on a loaded machine (52 runs of 60), where no handler can exist yet.
    # A run that ends before its moment tells how long the command takes now (issue 37: measured while the machine
    # was busier, the moments fell after the end of 29 runs of 60 once the load dropped): later moments follow it.
    took = [run_time(ENTRIES[entry] + args, extra_env) for args, _, extra_env in COMMANDS]
    for n in range(RUNS):
        args, finished, extra_env = COMMANDS[n % len(COMMANDS)]
        delay = rng.uniform(0.02, 0.6) * took[n % len(COMMANDS)]
        started = time.monotonic()
        proc = subprocess.Popen(
            ENTRIES[entry] + args,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, **extra_env},
            # A suite started in the background has SIGINT ignored, and the child would inherit that.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        try:
            proc.wait(timeout=delay)
            took[n % len(COMMANDS)] = min(took[n % len(COMMANDS)], time.monotonic() - started)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGINT)
        _, raw = proc.communicate(timeout=60)
        err = raw.decode("utf-8", "replace")
        kind = outcome(proc.returncode, err, finished, "LANG" in extra_env)
        seen[kind] += 1
        if kind == "bad":
            bad.append((args, round(delay * 1000), proc.returncode, err[-1500:]))
    print(entry, dict(seen))
    assert not bad, "\n\n".join(f"{a} {d} ms rc {c}:\n{e}" for a, d, c, e in bad[:3]) + f"\n{dict(seen)}"
    assert seen["interrupted"] >= RUNS // 4, seen  # most SIGINTs land in codexdoctor's own start-up or run


def test_a_ctrl_c_that_python_wraps_in_another_error_is_still_interrupted(home, run, monkeypatch):
    """Python 3.11 wraps an exception raised in `__set_name__` (a class being created, in a module a command imports
    late) in a RuntimeError: the boundary called that an internal error, exit 3."""
    import codexdoctor.commands.check as command
    from codexdoctor.common import interrupt

    class Descriptor:
        def __set_name__(self, owner, name):
            interrupt.raise_once(signal.SIGINT, None)  # what a Ctrl-C at this moment does

    def interrupted_while_a_class_is_made(opts):
        type("Late", (), {"attr": Descriptor()})
        raise AssertionError("not reached")

    monkeypatch.setattr(command, "run_check", interrupted_while_a_class_is_made)
    code, out, err = run("check", "--offline")
    assert code == 130 and err == "Interrupted.\n" and out == "", err
    code, out, err = run("check", "--offline")  # the next run in this process starts afresh
    assert code == 130 and err == "Interrupted.\n", err


def test_a_ctrl_c_that_python_swallows_is_delivered_again(home, run, monkeypatch):
    """A Ctrl-C inside a weakref callback (the import system's module-lock cleanup) was printed as "Exception
    ignored in: <function _get_module_lock.<locals>.cb>" with a traceback, and the run went on to exit 0 or 1."""
    import gc
    import weakref

    import codexdoctor.commands.check as command
    from codexdoctor.common import interrupt

    def interrupted_inside_a_callback(opts):
        class Thing:
            pass

        thing = Thing()
        ref = weakref.ref(thing, lambda _: interrupt.raise_once(signal.SIGINT, None))
        del thing
        gc.collect()
        for _ in range(500):  # the command goes on; the Ctrl-C must still reach it
            time.sleep(0.01)
        raise AssertionError(f"the Ctrl-C was lost ({ref})")

    monkeypatch.setattr(command, "run_check", interrupted_inside_a_callback)
    code, out, err = run("check", "--offline")
    assert code == 130 and err == "Interrupted.\n", err


HUNG_KEY = "sk-interrupt-0123456789abcdef"


def read_until(fd: int, wanted: bytes, limit: float) -> bytes:
    """What the child wrote to its terminal, up to `wanted` (or `limit` seconds)."""
    import select

    seen = b""
    stop = time.monotonic() + limit
    while wanted not in seen and time.monotonic() < stop:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 4096)
            except OSError:  # the child closed its side
                break
    return seen


@pytest.mark.parametrize(
    ("lang_env", "waiting", "second", "said"),
    [
        ({}, "still waiting for 127.0.0.1", "(4 s of 40 s)", "Interrupted."),
        ({"LANG": "zh_CN.UTF-8"}, "仍在等待 127.0.0.1", "（已等 4 秒，最多 40 秒）", "已中断。"),
    ],
    ids=["en", "zh"],
)
def test_ctrl_c_while_check_waits_for_a_hung_provider_ends_it_at_once(
    home, sim_server, lang_env, waiting, second, said
):
    """A reviewer's Ctrl-C 3 s into `check --timeout 40` against a provider that never answers: the "still waiting"
    line went on every 2 s until the deadline, then "Interrupted." after 41 s (the pool of the catalog requests was
    joined on the way out). Now it ends within a second of the Ctrl-C, on a terminal, in both languages."""
    import pty

    from tests.conftest import write_config
    from tests.timing import assert_within

    deadline = 40.0
    server = sim_server(hang=True, hang_seconds=60)
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{server.base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    main, child = pty.openpty()  # stderr on a terminal: that is where the progress line is shown
    started = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "codexdoctor", "check", "--timeout", f"{deadline:g}", "--codex-version", "0.171.0"],
        stdout=subprocess.PIPE,
        stderr=child,
        env={**os.environ, "SIM_API_KEY": HUNG_KEY, **lang_env},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    os.close(child)
    try:
        # Two progress lines (2 s and 4 s in), so the second shows how it replaces the first.
        shown = read_until(main, second.encode("utf-8"), deadline / 2)
        assert shown.count(waiting.encode("utf-8")) >= 2, shown.decode("utf-8", "replace")
        interrupted = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=deadline + 30)
        ended = time.monotonic()
        shown += read_until(main, b"\xff", 0.5)  # the rest of what it wrote to the terminal
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)
    text = shown.decode("utf-8", "replace")
    assert proc.returncode == 130, (proc.returncode, text)
    assert said in text and "Traceback" not in text, text
    assert out == b"", out  # no report after a Ctrl-C
    assert_within(ended - interrupted, 1.0, "check after a Ctrl-C")  # the promise: about a second
    assert ended - started < deadline / 2, f"{ended - started:.1f} s: it waited for the deadline ({deadline:g} s)"
    # On a terminal the line is rewritten in place (carriage return, clear to its end), never piled up on new lines.
    rows = [row for row in text.replace("\r\n", "\n").split("\n") if waiting in row]
    assert len(rows) == 1 and rows[0].count("\r\x1b[K" + waiting) >= 2, rows
