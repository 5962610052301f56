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
            proc = subprocess.run(  # noqa: S603 - the `codex` on PATH, run as the user would; no shell, fixed argv
                [exe, "--version"],
                capture_output=True,
                text=True,
                timeout=timeout,
                env=child_env,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, subprocess.SubprocessError):
            return None
    return parse_version(proc.stdout + proc.stderr)
