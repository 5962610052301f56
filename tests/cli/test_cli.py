"""Every documented exit code, through the real entry point."""

import subprocess
import sys

import pytest

from tests.conftest import TAOTOKEN, write_config

KEY = "sk-tt-0123456789abcdefghijklmnopqrstuv"


def test_exit_0_when_nothing_at_or_above_fail_on(home, run, monkeypatch):
    write_config(home, TAOTOKEN)
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    code, out, _ = run("check", "--offline")
    assert code == 0
    assert "Verdict: INCONCLUSIVE" in out


def test_exit_1_on_error_finding(home, run):
    write_config(home, TAOTOKEN)
    code, out, _ = run("check", "--offline")
    assert code == 1 and "ENV001" in out


def test_fail_on_warning_and_never(home, run, monkeypatch):
    write_config(home, TAOTOKEN.replace("https://taotoken.net/api", "https://taotoken.net/api/v1"))
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)
    assert run("check", "--offline")[0] == 0  # URL003 is a warning
    assert run("check", "--offline", "--fail-on", "warning")[0] == 1
    monkeypatch.delenv("TAOTOKEN_API_KEY")
    assert run("check", "--offline", "--fail-on", "never")[0] == 0


@pytest.mark.parametrize(
    "args",
    [
        ("check", "--format", "yaml"),
        ("check", "--bogus"),
        ("explain", "XYZ999"),
        ("check", "--offline", "-c", "model"),
        ("nosuchcommand",),
        ("check", "--codex-version", "banana"),
    ],
)
def test_exit_2_on_usage_error(home, run, args):
    code, out, err = run(*args)
    assert code == 2
    assert "Traceback" not in out + err
    assert err.strip()


def test_exit_3_on_internal_error_without_traceback(home, run, monkeypatch):
    import codexdoctor.commands.check as command

    def broken(opts):
        raise ValueError("unexpected " + KEY)

    monkeypatch.setattr(command, "run_check", broken)
    code, out, err = run("check", "--offline")
    assert code == 3
    assert "internal error" in err and "Traceback" not in err
    assert KEY not in err


def test_exit_130_on_interrupt(home, run, monkeypatch):
    import codexdoctor.commands.check as command

    def interrupted(opts):
        raise KeyboardInterrupt

    monkeypatch.setattr(command, "run_check", interrupted)
    assert run("check", "--offline")[0] == 130


def test_output_file_and_unwritable_output(home, run, tmp_path):
    target = tmp_path / "r.md"
    code, out, err = run("check", "--offline", "--format", "markdown", "-o", str(target))
    assert code == 1 and out == ""
    assert target.read_text().startswith("# codexdoctor check report")
    code, _, err = run("check", "--offline", "-o", str(tmp_path / "missing-dir" / "r.md"))
    assert code == 2 and "cannot write" in err


def test_no_color_env_and_flag(home, run, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in run("check", "--offline")[1]


def test_explain_rules_schema_config(home, run):
    code, out, _ = run("explain", "cfg002")
    assert code == 0 and out.startswith("CFG002")
    code, out, _ = run("rules")
    assert code == 0 and "URL004" in out
    code, out, _ = run("schema")
    assert code == 0 and '"schema_version"' in out
    write_config(home, TAOTOKEN)
    code, out, _ = run("config")
    assert code == 0 and "~/.codex/config.toml:6" in out and "https://taotoken.net/api/responses" in out


def test_python_dash_m_and_version():
    proc = subprocess.run(
        [sys.executable, "-m", "codexdoctor", "--version"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0 and "codexdoctor, version" in proc.stdout


def test_exit_codes_through_click_cli_runner(home, monkeypatch):
    """The same codes through click's own runner (standalone mode), as a packaged entry point sees them."""
    from click.testing import CliRunner

    from codexdoctor.cli import cli

    runner = CliRunner()
    env = {"HOME": str(home), "CODEXDOCTOR_NO_CODEX_PROBE": "1"}
    assert runner.invoke(cli, ["--version"], env=env).exit_code == 0
    write_config(home, TAOTOKEN)
    assert runner.invoke(cli, ["check", "--offline"], env=env).exit_code == 1
    assert runner.invoke(cli, ["check", "--offline"], env={**env, "TAOTOKEN_API_KEY": KEY}).exit_code == 0
    assert runner.invoke(cli, ["check", "--offline", "--fail-on", "never"], env=env).exit_code == 0
    assert runner.invoke(cli, ["check", "--format", "yaml"], env=env).exit_code == 2
    assert runner.invoke(cli, ["explain", "NOPE001"], env=env).exit_code == 2


def test_every_option_of_every_command_says_what_it_does():
    import click

    from codexdoctor.cli import cli

    missing = [
        (name, p.opts)
        for name, cmd in cli.commands.items()
        for p in cmd.params
        if isinstance(p, click.Option) and not (p.help or "").strip()
    ]
    assert not missing, missing


def test_every_help_text_has_its_chinese():
    """A changed English help falls back to English in a zh run (i18n/cli_zh.py keys by the English): never
    silently."""
    import click

    from codexdoctor.cli import cli
    from codexdoctor.i18n.cli_zh import help_zh

    untranslated = [
        (name, getattr(p, "opts", None), text)
        for name, cmd in [("codexdoctor", cli), *cli.commands.items()]
        for p, text in [(cmd, cmd.help), *((p, p.help) for p in cmd.params if isinstance(p, click.Option))]
        if text and help_zh(text) == text
    ]
    assert not untranslated, untranslated


def test_each_command_takes_one_frozen_options_object():
    """Issue 37: cli/ builds one options object per command and passes it whole, never a list of values by hand."""
    import dataclasses
    import inspect
    import typing

    from codexdoctor.commands import check, config, demo, diagnose, fix, probe, report, rules, sessions, sim

    commands = (check.run, probe.run, sessions.run, diagnose.run, fix.run, report.run, config.run, demo.run)
    for run in (*commands, rules.explain, rules.list_all, sim.serve):
        (name,) = inspect.signature(run).parameters
        options = typing.get_type_hints(run)[name]
        assert dataclasses.is_dataclass(options) and options.__dataclass_params__.frozen, (run, options)
