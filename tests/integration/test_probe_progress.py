"""Issue 40 (review): the probe's step lines were wider than 80 columns, so wrapping collapsed their padding and no
two lines lined up (worst in Chinese), and its "still waiting" lines piled up on a terminal where check's are
rewritten in place (common/status_line)."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from codexdoctor.checks.probe import ProbeSettings
from codexdoctor.commands.options import CheckOptions
from codexdoctor.commands.probe import Screen, run_probe
from codexdoctor.common.cells import cells
from tests.integration.test_probe import KEY, configure

HEADS = {"en": ("first token", "spent"), "zh": ("首字延迟", "已用")}
ROW = re.compile(r"^  \S.*?\s+([\d,]+)\s+([\d,]+ ms|-)\s+([\d,]+)(?:  |$)")


def probe_lines(home, lang, settings, screen=None):
    lines: list[str] = []
    opts = CheckOptions(
        env={"HOME": str(home), "SIM_API_KEY": KEY},
        home=home,
        cwd=Path.cwd(),
        system_config=None,
        codex_version=(0, 171, 0),
        lang=lang,
    )
    report, _ = run_probe(opts, settings, lambda plan: True, lines.append, screen=screen)
    return report, lines


@pytest.mark.parametrize("lang,header", [("en", "tokens"), ("zh", "token 数")])
@pytest.mark.parametrize("width", [60, 80])
def test_step_rows_line_up_under_one_header_within_the_width(home, sim_server, lang, header, width):
    s = sim_server(api_key=KEY, context_window=8192, token_interval_ms=0)
    configure(home, s)
    _, lines = probe_lines(home, lang, ProbeSettings(max_context=12000, repeat=1), Screen(width=width))
    at = next(i for i, line in enumerate(lines) if line.startswith("  ") and header in line)
    rows = [line for line in lines[at + 1 :] if line.startswith("  ") and not line.startswith("    ")]
    assert len(rows) >= 5, lines
    # the numbers end where their header ends, in cells, on every row
    head = lines[at]
    ends = [cells(head[: head.index(name) + len(name)], lang) for name in (header, *HEADS[lang])]
    for row in rows:
        m = ROW.match(row)
        assert m, row
        assert [cells(row[: m.end(g)], lang) for g in (1, 2, 3)] == ends, (head, row)
    assert all(cells(line, lang) <= width for line in [head, *rows]), [head, *rows]
    if lang == "zh":
        assert not any("tokens" in line for line in lines), lines


def test_waiting_lines_go_to_the_screen_not_between_the_steps(home, sim_server, monkeypatch):
    from codexdoctor.checks.probe import search

    monkeypatch.setattr(search, "STILL_WAITING_EVERY", 0.2)
    s = sim_server(api_key=KEY, hang=True, hang_seconds=2.0)
    configure(home, s)
    waited: list[str] = []
    settings = ProbeSettings(max_context=4000, request_timeout_s=1.5, total_timeout_s=10.0, singles=1, cache_step=False)
    _, lines = probe_lines(home, "zh", settings, Screen(waited.append, 80))
    assert waited and all(w.startswith("  … 第 1 步（") and "个 token）仍在等待" in w for w in waited), waited
    assert not any("仍在等待" in line for line in lines), lines


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_waiting_line_is_rewritten_in_place(home, sim_server, monkeypatch):
    from codexdoctor.checks.probe import search
    from codexdoctor.commands import probe as probe_cmd
    from codexdoctor.commands.output import PublishOptions

    monkeypatch.setattr(search, "STILL_WAITING_EVERY", 0.2)
    s = sim_server(api_key=KEY, hang=True, hang_seconds=2.0)
    configure(home, s)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("SIM_API_KEY", KEY)
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    opts = CheckOptions(
        env={"HOME": str(home), "SIM_API_KEY": KEY},
        home=home,
        cwd=Path.cwd(),
        system_config=None,
        codex_version=(0, 171, 0),
        lang="en",
    )
    settings = ProbeSettings(max_context=4000, request_timeout_s=1.5, total_timeout_s=10.0, singles=1, cache_step=False)
    with pytest.raises(SystemExit):
        probe_cmd.run(
            probe_cmd.ProbeOptions(opts, settings, yes=True, publish=PublishOptions(output=str(home / "r.md")))
        )
    text = err.getvalue()
    assert text.count("\r\x1b[K  … step 1") >= 2, text  # each update replaces the one before
    assert "still waiting: " in text and "still waiting: 0 s\n" not in text, text
