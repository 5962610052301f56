"""Find the installed Codex CLI version without letting it touch the user's CODEX_HOME."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Mapping

_VERSION = re.compile(r"(\d+)\.(\d+)\.(\d+)")


def parse_version(text: str) -> tuple[int, ...] | None:
    m = _VERSION.search(text or "")
    return tuple(int(x) for x in m.groups()) if m else None


def detect(env: Mapping[str, str], timeout: float = 5.0) -> tuple[int, ...] | None:
    """Run `codex --version` with a throw-away CODEX_HOME (Codex writes there even for --version)."""
    exe = shutil.which("codex", path=env.get("PATH", os.defpath))
    if not exe:
        return None
    with tempfile.TemporaryDirectory(prefix="codexdoctor-") as tmp:
        child_env = {k: v for k, v in env.items()}
        child_env["CODEX_HOME"] = tmp
        try:
            proc = subprocess.Popen(  # noqa: S603 - the `codex` on PATH, run as the user would; no shell, fixed argv
                [exe, "--version"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=child_env,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # its own process group, so a timeout ends the children it started too
            )
        except (OSError, subprocess.SubprocessError):
            return None
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            return None
    return parse_version(out + err)


def _kill_group(proc: subprocess.Popen[str]) -> None:
    """End `codex` and whatever it started: npm's `codex` is a Node script that runs the native binary as a child,
    and a child left behind would hold the pipes open, so the wait for them would outlast the timeout."""
    import signal

    try:
        if hasattr(os, "killpg"):
            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows: no process groups here
            proc.kill()
    except OSError:
        pass
    try:
        proc.communicate(timeout=1.0)
    except (subprocess.TimeoutExpired, OSError, ValueError):
        pass
