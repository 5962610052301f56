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
            assert display_width(line) <= width, (name, lang, width, display_width(line), line)
