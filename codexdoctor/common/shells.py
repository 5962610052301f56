"""Detect the user's platform and shell, and write each remedy command in that shell's syntax.

A remedy in the wrong shell's syntax is a remedy that fails: `export` does
nothing in PowerShell, `set -gx` is fish-only, and Windows keeps Codex's
config in %USERPROFILE%\\.codex.
"""

from __future__ import annotations

import os
import platform as _platform
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

SHELLS = ("bash", "zsh", "fish", "powershell", "cmd")


@dataclass(frozen=True)
class Shell:
    """A shell the user runs Codex from: fix commands are written in its syntax."""

    name: str  # bash | zsh | fish | powershell | cmd
    platform: str  # linux | macos | windows | wsl

    # ---- variables -----------------------------------------------------------------------------------------
    def set_var(self, var: str, value: str) -> str:
        """Set a variable in the current terminal."""
        return {
            "fish": f"set -gx {var} {value}",
            "powershell": f'$env:{var} = "{value}"',
            "cmd": f"set {var}={value}",
        }.get(self.name, f"export {var}={value}")

    def copy_var(self, target: str, source: str) -> str:
        return {
            "fish": f"set -gx {target} ${source}",
            "powershell": f"$env:{target} = $env:{source}",
            "cmd": f"set {target}=%{source}%",
        }.get(self.name, f'export {target}="${source}"')

    def unset_var(self, var: str) -> str:
        return {"fish": f"set -e {var}", "powershell": f"Remove-Item Env:{var}", "cmd": f"set {var}="}.get(
            self.name, f"unset {var}"
        )

    def persist_var(self, var: str, value: str) -> str:
        """Make a variable permanent for new terminals."""
        if self.name == "fish":
            return f"set -Ux {var} {value}"
        if self.name == "powershell":
            return f'[Environment]::SetEnvironmentVariable("{var}", "{value}", "User")'
        if self.name == "cmd":
            return f'setx {var} "{value}"'
        return f"echo 'export {var}={value}' >> {self.rc_file}"

    def strip_var(self, var: str) -> str:
        """Remove whitespace and line breaks from a variable's value, in place."""
        return {
            "fish": f"set -gx {var} (string trim -- ${var})",
            "powershell": f"$env:{var} = $env:{var}.Trim()",
            "cmd": f"set {var}=<the key without spaces or line breaks>",
        }.get(self.name, f'export {var}="$(printf %s "${var}" | tr -d \'[:space:]\')"')

    def strip_key(self, var: str) -> str:
        """Drop a leading `Bearer ` and then every white space and line break, in one command. The order matters:
        white space removed first glues `Bearer` to the key (`Bearersk-…`), and no prefix is left to match."""
        return {
            "fish": f"set -gx {var} (string trim -- ${var} | string replace -r '^[Bb]earer\\s+' '')",
            "powershell": f"$env:{var} = $env:{var}.Trim() -replace '^[Bb]earer\\s+', ''",
            "cmd": f"set {var}=<the key without the Bearer prefix, spaces or line breaks>",
        }.get(
            self.name,
            f"export {var}=\"$(printf %s \"${var}\" | sed 's/^[[:space:]]*[Bb]earer[[:space:]]//' | tr -d '[:space:]')\"",
        )

    def strip_bearer(self, var: str) -> str:
        """Drop a leading `Bearer ` from a variable's value, in place (Codex adds the prefix itself)."""
        return {
            "fish": f"set -gx {var} (string replace -r '^[Bb]earer +' '' -- ${var})",
            "powershell": f"$env:{var} = $env:{var} -replace '^[Bb]earer +', ''",
            "cmd": f"set {var}=<the key without the Bearer prefix>",
        }.get(self.name, f'export {var}="${{{var}#[Bb]earer }}"')

    def fingerprint_var(self, var: str) -> str:
        """Print the first 8 hex digits of the sha256 of a variable's value (what codexdoctor shows)."""
        if self.name == "powershell":
            return (
                "[BitConverter]::ToString([Security.Cryptography.SHA256]::Create().ComputeHash("
                f"[Text.Encoding]::UTF8.GetBytes($env:{var}))).Replace('-','').Substring(0,8).ToLower()"
            )
        if self.name == "cmd":
            return (
                f'powershell -NoProfile -Command "[BitConverter]::ToString([Security.Cryptography.SHA256]::Create()'
                f".ComputeHash([Text.Encoding]::UTF8.GetBytes($env:{var}))).Replace('-','').Substring(0,8).ToLower()\""
            )
        sha = "shasum -a 256" if self.platform == "macos" else "sha256sum"
        if self.name == "fish":
            return f"printf %s ${var} | {sha} | cut -c1-8"
        return f'printf %s "${var}" | {sha} | cut -c1-8'

    def pipe_var_to(self, var: str, command: str) -> str:
        return {"powershell": f"$env:{var} | {command}", "cmd": f"echo %{var}%| {command}"}.get(
            self.name, f"printenv {var} | {command}"
        )

    # ---- files -------------------------------------------------------------------------------------------------
    @property
    def rc_file(self) -> str:
        if self.name == "zsh":
            return "~/.zshrc"
        if self.name == "fish":
            return "~/.config/fish/config.fish"
        if self.name == "powershell":
            return "$PROFILE"
        if self.name == "cmd":
            return "(user environment variables)"
        return "~/.bash_profile" if self.platform == "macos" else "~/.bashrc"

    def reload(self, rc_file: str | None = None) -> str:
        rc = rc_file or self.rc_file
        if self.name == "powershell":
            return ". $PROFILE"
        if self.name == "cmd":
            return "open a new Command Prompt window"
        return f"source {rc}"

    def mkdir(self, path: str) -> str:
        return {"powershell": f'New-Item -ItemType Directory -Force "{path}"', "cmd": f'mkdir "{path}"'}.get(
            self.name, f"mkdir -p {path}"
        )

    @property
    def windows(self) -> bool:
        return self.platform == "windows"

    def codex_home_display(self) -> str:
        return "%USERPROFILE%\\.codex" if self.windows else "~/.codex"


def detect_platform(env: Mapping[str, str], system: str | None = None, osrelease: str | None = None) -> str:
    system = system or _platform.system()
    if system == "Windows":
        return "windows"
    if system == "Darwin":
        return "macos"
    if osrelease is None:
        try:
            osrelease = Path("/proc/sys/kernel/osrelease").read_text()
        except OSError:
            osrelease = ""
    if env.get("WSL_DISTRO_NAME") or "microsoft" in osrelease.lower():
        return "wsl"
    return "linux"


def detect_shell(env: Mapping[str, str], platform: str, override: str | None = None) -> Shell:
    if override:
        return Shell(override, platform)
    shell = os.path.basename(env.get("SHELL", "")).lower()
    if shell.endswith(".exe"):
        shell = shell[:-4]
    if shell in ("bash", "zsh", "fish"):
        return Shell(shell, platform)
    if shell in ("pwsh", "powershell"):
        return Shell("powershell", platform)
    if platform == "windows":
        # cmd sets PROMPT; PowerShell does not. PSModulePath alone proves nothing (cmd inherits it too).
        return Shell("cmd" if env.get("PROMPT") else "powershell", platform)
    if shell in ("sh", "dash", "ksh"):
        return Shell("bash", platform)  # POSIX syntax: export works the same
    return Shell("zsh" if platform == "macos" else "bash", platform)
