"""Issue 29: every command's text output fits the width, at 60, 80 and 120 columns, in English and Chinese.

Each command runs through the real entry point with COLUMNS set (a pipe otherwise gets 100 columns), and no line
may be wider than the width, counting a Chinese character as two cells.
"""

from pathlib import Path

import pytest

from codexdoctor.report.render.text import display_width
from tests.conftest import write_config

KEY = "sk-width-0123456789abcdefghij"
ROLLOUTS = Path(__file__).parents[1] / "fixtures" / "rollouts" / "real-0.171.0"
WIDTHS = (60, 80, 120)


@pytest.fixture
def setup(home, sim_server, monkeypatch):
    s = sim_server(api_key=KEY, context_window=12000, token_interval_ms=0)
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.base_url}?utm_source=newsletter"\nenv_key = "SIM_API_KEY"\n',
    )
    monkeypatch.setenv("SIM_API_KEY", KEY)
    monkeypatch.setenv("CODEXDOCTOR_NO_CODEX_PROBE", "1")
    return s


COMMANDS = {
    "check": ["check", "--codex-version", "0.171.0", "--verbose"],
    "check-offline": ["check", "--offline", "--codex-version", "0.171.0"],
    "config": ["config", "--codex-version", "0.171.0"],
    "rules": ["rules"],
    "explain": ["explain", "CTX006"],
    "sessions": ["sessions", str(ROLLOUTS / "stable-break-3"), "--verbose"],
    "sessions-one": ["sessions", str(ROLLOUTS / "overflow-turn-2.jsonl")],
    "diagnose": ["diagnose-error", "unexpected status 404 Not Found: Not Found, url: http://127.0.0.1:9/v1/responses"],
    "fix": ["fix", "--dry-run", "--codex-version", "0.171.0"],
    "report": ["report", "--codex-version", "0.171.0"],
    "probe": ["probe", "--yes", "--max-context", "16000", "--budget", "200000"],
    "demo-list": ["demo", "--list"],
    "help": ["--help"],
    "check-help": ["check", "--help"],
}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_line_fits(setup, run, monkeypatch, name, lang, width):
    monkeypatch.setenv("COLUMNS", str(width))
    args = list(COMMANDS[name])
    if name not in ("help", "check-help", "rules", "explain", "demo-list"):
        args += ["--lang", lang]
    elif name in ("rules", "explain", "demo-list"):
        args += ["--lang", lang]
    else:
        monkeypatch.setenv("LANG", "zh_CN.UTF-8" if lang == "zh" else "en_US.UTF-8")
    code, out, err = run(*args)
    assert code in (0, 1), (code, out, err)
    for stream in (out, err):
        for line in stream.splitlines():
            assert display_width(line, lang) <= width, (name, lang, width, display_width(line, lang), line)


# Issue 40: every `--help` in Chinese at 80 columns, counted as a CJK terminal draws it (ambiguous characters such as
# “ ” —— … take two cells), and never broken inside an identifier; and pipes laid out for 80 columns.

HELP_COMMANDS = [(), *[(name,) for name in sorted(__import__("codexdoctor.cli", fromlist=["cli"]).cli.commands)]]


@pytest.mark.parametrize("command", HELP_COMMANDS, ids=lambda c: " ".join(c) or "codexdoctor")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_help_fits_80_columns(run, monkeypatch, command, lang):
    import re

    from codexdoctor.cli.linebreak import CLOSING, OPENING, cells
    from codexdoctor.i18n.cli_zh import HELP_ZH

    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LANG", "zh_CN.UTF-8" if lang == "zh" else "en_US.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    code, out, err = run(*command, "--help")
    assert code == 0, err
    lines = out.splitlines()
    count = cells if lang == "zh" else display_width
    for line in lines:
        assert count(line) <= 80, (command, count(line), line)
    # The command list shows each command's whole first sentence: click cut it at ~45 characters with "..."
    commands = lines[next((i for i, line in enumerate(lines) if line in ("Commands:", "命令：")), len(lines)) :]
    for line in commands:
        assert not line.rstrip().endswith(("...", "…")), (command, line)
    if lang == "zh":
        for a, b in zip(lines, lines[1:]):
            assert b.strip()[:1] not in CLOSING and a.rstrip()[-1:] not in OPENING, (a, b)
        squeezed = "".join(out.split())
        for zh in HELP_ZH.values():  # every identifier, option, number or `command` the help quotes stays whole
            for piece in re.findall(r"`[^`]+`|[!-~]+", zh):
                if "".join(piece.split()) in squeezed:  # this help shows it: on one line, as written
                    assert any(piece in line for line in lines), (command, piece)
        for bad in ("text（默\n", "GITHUB_\n", "以 1 退\n", "[默\n"):
            assert bad not in out, (command, bad)


PIPED = {
    "check-offline": ["check", "--offline", "--codex-version", "0.171.0"],
    "config": ["config", "--codex-version", "0.171.0"],
    "sessions": ["sessions", str(ROLLOUTS / "stable-break-3")],
    "rules": ["rules"],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(PIPED))
def test_a_pipe_without_columns_is_laid_out_for_80(setup, run, monkeypatch, name, lang):
    """`check --offline | head` with no COLUMNS and no terminal anywhere: 80 columns, not 100."""
    from codexdoctor.commands import output

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(output, "_controlling_terminal_width", lambda: None)  # a developer's own terminal
    code, out, _ = run(*PIPED[name], "--lang", lang)
    assert code in (0, 1)
    widest = max(display_width(line, lang) for line in out.splitlines())
    assert widest <= 80, (name, lang, widest)


def test_terminal_width_order(monkeypatch):
    """COLUMNS, then stdout's terminal, then stderr's, then the controlling terminal's, then 80."""
    import io
    import os

    from codexdoctor.commands import output

    class Tty(io.StringIO):
        def __init__(self, fd):
            super().__init__()
            self.fd = fd

        def isatty(self):
            return True

        def fileno(self):
            return self.fd

    sizes = {11: 132, 12: 90}
    monkeypatch.setattr(os, "get_terminal_size", lambda fd: os.terminal_size((sizes[fd], 40)))
    monkeypatch.setattr(output, "_controlling_terminal_width", lambda: 100)
    monkeypatch.setattr(output.sys, "stdout", Tty(11))
    monkeypatch.setattr(output.sys, "stderr", Tty(12))
    assert output.terminal_width({"COLUMNS": "70"}) == 70
    assert output.terminal_width({"COLUMNS": "20"}) == output.MIN_WIDTH
    assert output.terminal_width({}) == 132
    monkeypatch.setattr(output.sys, "stdout", io.StringIO())  # `check | head`: stdout is a pipe
    assert output.terminal_width({}) == 90
    monkeypatch.setattr(output.sys, "stderr", io.StringIO())  # both redirected: the controlling terminal
    assert output.terminal_width({}) == 100
    monkeypatch.setattr(output, "_controlling_terminal_width", lambda: None)  # none at all (CI, cron)
    assert output.terminal_width({}) == 80


# Issue 40: the errors and start-up text a user reads fit too, wrapped under "Error: " (错误：), never cut.
ERRORS = {
    "explain-unknown": (["explain", "CTX999"], "`codexdoctor rules`"),
    "bad-format": (["check", "--format", "yaml"], "github"),
}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(ERRORS))
def test_usage_errors_fit(run, monkeypatch, name, lang, width):
    from codexdoctor.common.cells import cells

    monkeypatch.setenv("COLUMNS", str(width))
    args, whole = ERRORS[name]
    code, out, err = run(*args, "--lang", lang)
    assert code == 2, (code, out, err)
    lines = err.splitlines()
    for line in lines:
        assert cells(line, lang) <= width, (name, lang, width, cells(line, lang), line)
    assert any(whole in line for line in lines), err  # a `command` or a value is not split across lines
    start = next(i for i, line in enumerate(lines) if line.startswith(("Error: ", "错误：")))
    indent = " " * cells("错误：" if lang == "zh" else "Error: ", lang)  # a hanging indent under the message
    for line in lines[start + 1 :]:
        assert line.startswith(indent) and line.strip(), (name, err)
    if lang == "zh":  # Chinese punctuation in Chinese: no "'text', 'markdown'" nor "'--format'"
        assert "', '" not in err and "'--format'" not in err, err


def test_bad_format_names_the_choices_in_chinese(run, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    code, _, err = run("check", "--format", "yaml", "--lang", "zh")
    assert code == 2
    assert "错误：--format 的值无效：“yaml” 不在 text、markdown、json、junit、github 之中。" in err, err


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_version_speaks_the_language(run, lang):
    code, out, _ = run("--version", "--lang", lang)
    assert code == 0
    assert out.strip() == ("codexdoctor 版本 " if lang == "zh" else "codexdoctor, version ") + out.split()[-1]


@pytest.mark.simulator
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_sim_start_up_fits_80_columns(home, lang):
    """`codexdoctor sim`'s start-up text at 80 columns; Ctrl-C is its normal end: exit 0 (docs/exit-codes.md)."""
    import os
    import signal
    import subprocess
    import sys

    from codexdoctor.common.cells import cells

    env = {**os.environ, "COLUMNS": "80"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "codexdoctor", "sim", "--port", "0", "--lang", lang],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # see tests/sim/test_sim.py
    )
    try:
        printed = [proc.stdout.readline()]
        while printed[-1] and not printed[-1].startswith("export SIM_API_KEY"):
            printed.append(proc.stdout.readline())
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
    err = proc.stderr.read()
    for line in [*printed, *err.splitlines()]:
        assert cells(line.rstrip("\n"), lang) <= 80, (lang, cells(line.rstrip("\n"), lang), line)
    assert printed[-1].rstrip("\n") in ("export SIM_API_KEY=any-value",), printed
    assert printed[-2].startswith("# "), printed  # the comment on its own line, above the export
    assert proc.returncode == 0 and ("stopped" in err or "已停止" in err), (proc.returncode, err)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [60, 80, 100, 160])
def test_the_header_wraps_between_its_fields(home, run, monkeypatch, lang, width):
    """Issue 40 review: at 80 columns the model, wire_api and key ran together (`sim-model wire_api：responses 密钥：…`,
    the three spaces between them lost): a wrapped header breaks between whole fields."""
    write_config(
        home,
        'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        'base_url = "http://127.0.0.1:9/v1"\nenv_key = "SIM_API_KEY"\nwire_api = "responses"\n',
    )
    monkeypatch.setenv("SIM_API_KEY", "sk-test-0123456789abcdefABCDEF")
    monkeypatch.setenv("COLUMNS", str(width))
    _, out, _ = run("check", "--offline", "--lang", lang, "--codex-version", "0.171.0")
    # `Key:` capitalised as its neighbours (issue 40 review 2)
    model, key = ("模型：", "密钥：") if lang == "zh" else ("Model: ", "Key: ")
    header = out.split("\n\n")[0].splitlines()
    header = header[next(i for i, line in enumerate(header) if line.startswith(model + "sim-model")) :]
    for field in ("wire_api", key):
        at = next(line for line in header if field in line)
        assert at.startswith(field) or f"   {field}" in at, header  # a line of its own, or three spaces before it
    assert all(display_width(line, lang) <= width for line in header), header
    if width >= 100:
        assert len(header) == 1, header


STEP_ROWS = tuple(
    (i, phase, f"{sent:,}", ttft, gap, result)
    for i, (phase, sent, ttft, gap, result) in enumerate(
        [("单次提问", 19, "232", "1", "正常"), ("增长", 15902, "-", "-", "超出上下文窗口")] * 11, 1
    )
)


def test_the_probe_steps_keep_their_columns_at_60():
    """Issue 40 review: at 60 columns (zh) the final step table fell back to 22 records of 5 lines (~130 lines) while
    the progress rows fitted in columns: the columns stay, a result too wide to sit beside its row goes under it."""
    from codexdoctor.report.render.text import table_lines

    headers = ("#", "阶段", "发送的 token 数", "首字 ms", "最长停顿 ms", "结果")
    lines = table_lines(headers, STEP_ROWS, 58, lang="zh")
    assert lines[0].split() == ["#", "阶段", "发送的", "token", "数", "首字", "ms", "最长停顿", "ms", "结果"], lines
    assert len(lines) <= 2 + 2 * len(STEP_ROWS) and all(display_width(line, "zh") <= 58 for line in lines), lines
    assert lines[2].split() == ["1", "单次提问", "19", "232", "1", "正常"], lines
    assert lines[3].split() == ["2", "增长", "15,902", "-", "-"] and lines[4].strip() == "超出上下文窗口", lines


def test_a_progress_row_says_its_first_token_with_a_thousands_separator():
    from codexdoctor.checks.probe import progress

    assert "1,133 ms" in progress.row("增长", 15902, 1133.0, 43209, "正常", "zh", 60)


def _outcomes():
    from types import SimpleNamespace

    from codexdoctor.commands import demo

    tops = {"healthy": "CTX025 The provider does not publish its window", "wrong-key": "AUTH001 The provider rejected"}
    return [
        SimpleNamespace(scenario=s, got=s.expected, passed=True, top=tops.get(s.name, f"X{n:03} a finding title"))
        for n, s in enumerate(demo.SCENARIOS)
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [80, 120])
def test_the_demo_table_is_a_table_with_each_top_finding_whole(lang, width):
    """Issue 40 review: at 80 columns the English `top finding` cells wrapped to 5 lines and the Chinese table fell
    back to records: the top finding goes on its own line under each row, in both languages."""
    from codexdoctor.commands import demo

    outcomes = _outcomes()
    lines = demo.table(outcomes, lang=lang, width=width).splitlines()  # type: ignore[arg-type]
    assert set(lines[1]) <= {"-", " "} or set(lines[2]) <= {"-", " "}, lines  # a table, not records
    assert all(display_width(line, lang) <= width for line in lines), lines
    for o in outcomes:
        assert any(line.strip() == o.top for line in lines), (o.top, lines)
    if lang == "zh":  # a Chinese description is never split between two characters of a word
        text = "\n".join(lines)
        assert "没\n" not in text and "第一\n" not in text and "重\n" not in text, lines


def test_a_demo_cell_breaks_where_the_text_wrapper_would():
    """Issue 40 review (2), zh at 80 columns: `大部分请求返回 502 或连接被重` / `置`. A cell wraps with `wrap` itself;
    the break after a number and its word (`502 或`) is as good as one at a space."""
    from codexdoctor.commands import demo
    from codexdoctor.report.render.text import wrap

    assert wrap("大部分请求返回 502 或连接被重置", 29, lang="zh") == ["大部分请求返回 502 或", "连接被重置"]
    lines = demo.table(_outcomes(), lang="zh", width=80).splitlines()  # type: ignore[arg-type]
    row = next(k for k, line in enumerate(lines) if line.startswith("flaky-channel"))
    assert lines[row].split()[1:4] == ["大部分请求返回", "502", "或"], lines[row]
    assert lines[row + 1].split() == ["连接被重置"], lines[row + 1]
