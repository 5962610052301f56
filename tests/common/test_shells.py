"""Remedies in the user's own shell and platform: bash, zsh, fish, PowerShell, cmd; Linux, macOS, Windows, WSL."""

from pathlib import Path

import pytest

from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.common.shells import Shell, detect_platform, detect_shell
from tests.conftest import TAOTOKEN, write_config

KEY = "sk-shell-0123456789abcdef"
FORBIDDEN = {  # syntax that does not work in that shell
    "bash": ("$env:", "set -gx", "setx "),
    "zsh": ("$env:", "set -gx", "setx "),
    "fish": ("export ", "$env:", "setx "),
    "powershell": ("export ", "set -gx", "printenv "),
    "cmd": ("export ", "$env:", "set -gx", "printenv "),
}
EXPECTED = {
    "bash": "export TAOTOKEN_API_KEY=",
    "zsh": "export TAOTOKEN_API_KEY=",
    "fish": "set -gx TAOTOKEN_API_KEY ",
    "powershell": '$env:TAOTOKEN_API_KEY = "',
    "cmd": "set TAOTOKEN_API_KEY=",
}


def report_for(home, shell, env, config=TAOTOKEN, **kw):
    write_config(home, config)
    opts = CheckOptions(
        env={"HOME": str(home), **env},
        home=home,
        cwd=Path.cwd(),
        offline=True,
        system_config=None,
        codex_version=(0, 171, 0),
        shell=shell,
        **kw,
    )
    return run_check(opts)[0]


def remedies(report, code):
    return "\n".join(next(f for f in report.findings if f.code == code).remedy)


@pytest.mark.parametrize("shell", sorted(EXPECTED))
def test_env_remedies_in_each_shell(home, shell):
    texts = {
        "ENV001": remedies(report_for(home, shell, {}), "ENV001"),
        "ENV003": remedies(report_for(home, shell, {"TAOTOKEN_KEY": KEY}), "ENV003"),
        "ENV005": remedies(report_for(home, shell, {"TAOTOKEN_API_KEY": KEY + "\n"}), "ENV005"),
        "ENV011": remedies(report_for(home, shell, {"OPENAI_API_KEY": KEY}, config=""), "ENV011"),
        "ENV002": remedies(report_for(home, shell, {"TAOTOKEN_API_KEY": " "}), "ENV002"),
    }
    assert EXPECTED[shell] in texts["ENV001"]
    for code, text in texts.items():
        for bad in FORBIDDEN[shell]:
            assert bad not in text, f"{shell}: `{bad}` in {code}: {text}"


def test_fish_and_powershell_specifics(home):
    fish = report_for(home, "fish", {})
    assert "set -Ux TAOTOKEN_API_KEY <your key>" in remedies(fish, "ENV001")
    ps = report_for(home, "powershell", {})
    assert '[Environment]::SetEnvironmentVariable("TAOTOKEN_API_KEY", "<your key>", "User")' in remedies(ps, "ENV001")
    cmd = report_for(home, "cmd", {"TAOTOKEN_KEY": KEY})
    assert "set TAOTOKEN_API_KEY=%TAOTOKEN_KEY%" in remedies(cmd, "ENV003")
    assert 'setx TAOTOKEN_API_KEY "<your key>"' in remedies(report_for(home, "cmd", {}), "ENV001")


def test_codex_home_remedies_per_shell(home, tmp_path):
    for shell, unset in (
        ("bash", "unset CODEX_HOME"),
        ("fish", "set -e CODEX_HOME"),
        ("powershell", "Remove-Item Env:CODEX_HOME"),
        ("cmd", "set CODEX_HOME="),
    ):
        report = report_for(home, shell, {"CODEX_HOME": str(tmp_path / "nope")})
        assert unset in remedies(report, "CFG013")


def test_rc_file_reload_and_powershell_profile(home):
    profile = home / ".config" / "powershell" / "Microsoft.PowerShell_profile.ps1"
    profile.parent.mkdir(parents=True)
    profile.write_text('$env:TAOTOKEN_API_KEY = "sk-in-profile"\n')
    report = report_for(home, "powershell", {})
    assert "ENV004" in [f.code for f in report.findings]
    assert ". $PROFILE" in remedies(report, "ENV004")


def test_one_command_drops_the_bearer_prefix_before_the_white_space():
    """Review 1 #28: the prefix goes first in every shell; white space removed first glues `Bearer` to the key."""
    assert Shell("bash", "linux").strip_key("K") == (
        "export K=\"$(printf %s \"$K\" | sed 's/^[[:space:]]*[Bb]earer[[:space:]]//' | tr -d '[:space:]')\""
    )
    assert (
        Shell("fish", "linux").strip_key("K") == "set -gx K (string trim -- $K | string replace -r '^[Bb]earer\\s+' '')"
    )
    assert Shell("powershell", "windows").strip_key("K") == "$env:K = $env:K.Trim() -replace '^[Bb]earer\\s+', ''"


def test_fingerprint_command_per_shell():
    assert Shell("bash", "linux").fingerprint_var("K") == 'printf %s "$K" | sha256sum | cut -c1-8'
    assert Shell("zsh", "macos").fingerprint_var("K") == 'printf %s "$K" | shasum -a 256 | cut -c1-8'
    assert "$env:K" in Shell("powershell", "windows").fingerprint_var("K")


@pytest.mark.parametrize(
    "env,system,release,platform,shell",
    [
        ({"SHELL": "/bin/zsh"}, "Darwin", "", "macos", "zsh"),
        ({"SHELL": "/usr/bin/fish"}, "Linux", "6.1.0", "linux", "fish"),
        (
            {"SHELL": "/bin/bash", "WSL_DISTRO_NAME": "Ubuntu"},
            "Linux",
            "5.15.153.1-microsoft-standard-WSL2",
            "wsl",
            "bash",
        ),
        (
            {"PSModulePath": "C:\\x", "ComSpec": "C:\\Windows\\system32\\cmd.exe"},
            "Windows",
            "",
            "windows",
            "powershell",
        ),
        ({"PROMPT": "$P$G", "ComSpec": "C:\\Windows\\system32\\cmd.exe"}, "Windows", "", "windows", "cmd"),
        ({"SHELL": "/usr/bin/bash"}, "Windows", "", "windows", "bash"),  # Git Bash
    ],
)
def test_detection(env, system, release, platform, shell):
    found = detect_platform(env, system, release)
    assert found == platform
    assert detect_shell(env, found).name == shell


def test_windows_paths_in_remedies(monkeypatch):
    from codexdoctor.common.redact import shorten_home

    assert shorten_home("C:\\Users\\me\\.codex\\config.toml", "C:\\Users\\me") == "%USERPROFILE%\\.codex\\config.toml"
    assert Shell("powershell", "windows").codex_home_display() == "%USERPROFILE%\\.codex"


def test_environment_summary_names_shell_and_platform(home):
    report = report_for(home, "fish", {})
    assert report.environment["shell"] == "fish" and report.environment["platform"] in (
        "linux",
        "wsl",
        "macos",
        "windows",
    )


def codes(report):
    return [f.code for f in report.findings]


def test_utf16_config_is_unreadable_as_codex_finds_it(home):
    """Codex 0.171.0 stops on a UTF-16 config ("invalid utf-8 sequence of 1 bytes from index 0"): it is a config
    error, not a warning about a file codexdoctor managed to read (crosscheck case "config UTF-16")."""
    path = home / ".codex" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(TAOTOKEN.encode("utf-16"))
    report = report_for_existing(home)
    assert report.verdict.value == "config" and "CFG003" in codes(report) and "CFG018" not in codes(report)
    diagnosis = next(f for f in report.findings if f.code == "CFG003").diagnosis
    assert "UTF-16" in diagnosis and "invalid utf-8 sequence of 1 bytes from index 0" in diagnosis


def test_bom_config_is_read_as_codex_reads_it(home):
    """Codex 0.171.0 reads a config with a UTF-8 BOM (crosscheck case "config BOM"): an info, and the provider and
    key are checked as usual."""
    path = home / ".codex" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\xef\xbb\xbf" + TAOTOKEN.encode())
    report = report_for_existing(home)
    bom = next(f for f in report.findings if f.code == "CFG018")
    assert bom.severity.value == "info" and "nothing to fix" in bom.diagnosis
    assert report.verdict.value != "config" and report.provider.id == "taotoken"


def test_crlf_config_gets_a_finding(home):
    path = home / ".codex" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(TAOTOKEN.replace("\n", "\r\n").encode())
    report = report_for_existing(home)
    assert "CFG020" in codes(report) and report.verdict.value != "config"


def test_backslash_path_gets_a_finding(home):
    path = home / ".codex" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(TAOTOKEN + 'notes_dir = "C:\\Users\\me"\n')
    report = report_for_existing(home)
    assert "CFG021" in codes(report) and "'C:\\Users\\me'" in remedies(report, "CFG021")


def test_wsl_windows_side_config(home, tmp_path):
    users = tmp_path / "mnt-c-users"
    (users / "me" / ".codex").mkdir(parents=True)
    (users / "me" / ".codex" / "config.toml").write_text(TAOTOKEN)
    write_config(home, TAOTOKEN)
    opts = CheckOptions(
        env={"HOME": str(home), "WSL_DISTRO_NAME": "Ubuntu", "TAOTOKEN_API_KEY": KEY},
        home=home,
        cwd=Path.cwd(),
        offline=True,
        system_config=None,
        codex_version=(0, 171, 0),
        extra={"wsl_windows_users": str(users)},
    )
    report = run_check(opts)[0]  # WSL_DISTRO_NAME marks WSL on a Linux kernel
    assert report.environment["platform"] == "wsl" and "CFG019" in codes(report)
    assert (
        str(users / "me" / ".codex" / "config.toml") in next(f for f in report.findings if f.code == "CFG019").diagnosis
    )


def report_for_existing(home):
    opts = CheckOptions(
        env={"HOME": str(home), "TAOTOKEN_API_KEY": KEY},
        home=home,
        cwd=Path.cwd(),
        offline=True,
        system_config=None,
        codex_version=(0, 171, 0),
    )
    return run_check(opts)[0]
