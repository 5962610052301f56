"""`codexdoctor sim` prints the snippet that points Codex at it; a key the user gave with --api-key may be a real one:
it is never echoed, and the comment does not call it the simulator's own (review of issue 40)."""

from __future__ import annotations

import pytest

KEY = "sk-test-0123456789abcdefABCDEF"

pytestmark = pytest.mark.simulator


@pytest.fixture
def stop_at_once(monkeypatch):
    """The serving loop ends at its first sleep, as at a Ctrl-C."""
    from codexdoctor.commands import sim as command

    def interrupt(_: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(command.time, "sleep", interrupt)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_key_given_with_api_key_is_not_echoed(run, stop_at_once, lang):
    code, out, err = run("sim", "--port", "0", "--api-key", KEY, "--lang", lang)
    assert code == 0
    assert KEY not in out + err and KEY[:8] not in out + err
    assert "export SIM_API_KEY=" not in out
    assert "--api-key" in out  # it says which value to use
    assert "own key" not in out and "自己的密钥" not in out


@pytest.mark.parametrize(("lang", "said"), [("en", "any value"), ("zh", "任何值")])
def test_without_a_key_any_value_is_printed(run, stop_at_once, lang, said):
    code, out, err = run("sim", "--port", "0", "--lang", lang)
    assert code == 0 and "export SIM_API_KEY=any-value" in out and said in out
