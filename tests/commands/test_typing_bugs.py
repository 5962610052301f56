"""Bugs mypy found (issue 32), each pinned by a test that fails on the code before the fix."""

from pathlib import Path

import pytest

from codexdoctor.checks.probe import ProbeSettings
from codexdoctor.commands.options import CheckOptions
from codexdoctor.commands.probe import run_probe
from codexdoctor.sim.server import host_text
from tests.conftest import write_config

KEY = "sk-typing-0123456789abcdef"


def test_a_bytes_host_is_a_usable_url_part():
    """sim/server.py formatted the socket's host into the URL; a bytes host gave "http://b'127.0.0.1':port"."""
    assert host_text(b"127.0.0.1") == "127.0.0.1" and host_text("::1") == "::1"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_probe_plan_never_says_none_for_an_unnamed_window_source(home, sim_server, monkeypatch, lang):
    """commands/probe.py passed `str | None` to localize: a published window without a named source printed
    "(None)" in English and "（None）" in Chinese."""
    from codexdoctor.checks import live

    s = sim_server(api_key=KEY, token_interval_ms=0)
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    monkeypatch.setattr(live, "published_window", lambda ctx, timeout_s=10.0: (4096, None))
    lines: list[str] = []
    opts = CheckOptions(
        env={"HOME": str(home), "SIM_API_KEY": KEY},
        home=home,
        cwd=Path.cwd(),
        system_config=None,
        codex_version=(0, 171, 0),
        lang=lang,
    )
    run_probe(opts, ProbeSettings(cache_step=False, singles=1, repeat=1), lambda plan: True, lines.append)
    plan = next(line for line in lines if "4,096" in line)
    assert "None" not in plan, plan
