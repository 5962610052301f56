"""The progress line a terminal rewrites in place (issue 40: "still waiting for …" piled up a line every 2 s)."""

from __future__ import annotations

import io

from codexdoctor.common.status_line import CLEAR, StatusLine


def test_each_update_replaces_the_line_and_a_kept_line_stays():
    out = io.StringIO()
    line = StatusLine(out)
    line.show("still waiting for host (2 s of 40 s)...")
    line.show("still waiting for host (4 s of 40 s)...")
    line.keep("the provider is alive")
    line.show("still waiting for host (6 s of 120 s)...")
    line.clear()
    line.clear()  # nothing shown: nothing written
    assert out.getvalue() == (
        CLEAR
        + "still waiting for host (2 s of 40 s)..."
        + CLEAR
        + "still waiting for host (4 s of 40 s)..."
        + CLEAR
        + "the provider is alive\n"
        + CLEAR
        + "still waiting for host (6 s of 120 s)..."
        + CLEAR
    )
    assert "\n" not in out.getvalue().replace("alive\n", "")  # no piled-up lines


def test_a_closed_stream_is_no_error():
    out = io.StringIO()
    out.close()
    line = StatusLine(out)
    line.show("x")
    line.keep("y")
    line.clear()
