"""Issue 40 (review): `check` against a provider whose answer stops at the canary's own 16-token cap
(`sim --stream-end incomplete`) said OK and nothing else. That is right (the provider honours the cap the canary asked
for), and it is the known limit of a 16-token canary: a gateway's cap above 16 tokens cannot be seen. A note says so."""

from __future__ import annotations

import pytest

from tests.integration.test_network_faults import KEY, check

NOTE = "stopped at its own 16-token cap"


@pytest.mark.simulator
def test_an_answer_stopped_at_the_canarys_own_cap_is_ok_with_a_note(home, sim_server):
    report, _ = check(home, sim_server(api_key=KEY, stream_fault="incomplete"))
    assert report.verdict.value == "ok"
    assert any(NOTE in n and "API026" in n for n in report.notes), report.notes


@pytest.mark.simulator
@pytest.mark.parametrize("knobs", [{}, {"stream_fault": "incomplete", "output_tokens": 8}], ids=["completed", "capped"])
def test_no_note_for_a_completed_answer_or_a_gateways_cap(home, sim_server, knobs):
    report, _ = check(home, sim_server(api_key=KEY, **knobs))
    assert not any(NOTE in n for n in report.notes), report.notes
