"""No secret anywhere: every live scenario x every format x verbose, through the real CLI (stdout, stderr, files)."""

import pytest

from tests.conftest import write_config

KEY = "sk-leak-Q7w9E2r4T6y8U1i3O5p7A9s2"
QUERY_TOKEN = "qt-Z8x6C4v2B0n9M7k5"
FORMATS = ("text", "markdown", "json", "junit", "github")
SCENARIOS = {
    "healthy": {},
    "wrong-key": {"api_key": "sk-another-key-000000000000"},
    "prefix-404": {"prefix": "/api"},
    "model-not-found": {"models": ("other-model",)},
    "chat-only": {"chat_only": True},
    "html": {"landing_page": True, "prefix": "/api"},
    "error-in-stream": {"stream_fault": "error_event"},
    "flaky": {"failure_rate": 1.0, "failure_kinds": ("502",)},
    "hang": {"hang": True, "hang_seconds": 10},
}
# --timeout per run (nine runs a scenario): the two that wait out the deadline wait less. What they print is the same.
TIMEOUTS = {"hang": "0.5", "flaky": "1"}


def pieces(secret, size=8):
    return {secret[i : i + size] for i in range(len(secret) - size + 1)}


def assert_clean(text):
    for secret in (KEY, QUERY_TOKEN):
        leaked = [p for p in pieces(secret) if p in text]
        assert not leaked, f"secret piece leaked: {leaked[:3]}"


@pytest.fixture
def checks_run(monkeypatch):
    """`check` runs its live checks once per set of options (one per language here): every other run of the same
    command with another --format or -o publishes that same report through the real CLI (renderer, final redaction,
    file, streams). Nine identical live checks a scenario were most of this file's time (issue 37)."""
    import dataclasses

    import codexdoctor.commands.check as command

    real, done = command.run_check, {}

    def once(opts):
        key = repr(dataclasses.replace(opts, started=None))  # `started` is each launch's own clock
        if key not in done:
            done[key] = real(opts)
        return done[key]

    monkeypatch.setattr(command, "run_check", once)
    return done


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_live_scenarios_leak_nothing(home, sim_server, run, monkeypatch, tmp_path, scenario, checks_run):
    options = {"api_key": KEY, **SCENARIOS[scenario]}
    s = sim_server(**options)
    suffix = "" if scenario == "html" else "/v1"
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.url}{suffix}"\nenv_key = "SIM_API_KEY"\n'
        f'query_params = {{ token = "{QUERY_TOKEN}" }}\n',
    )
    monkeypatch.setenv("SIM_API_KEY", KEY)
    seen = []
    timeout = TIMEOUTS.get(scenario, "1.5")
    for fmt in FORMATS:
        target = tmp_path / f"report.{fmt}"
        code, out, err = run(
            "check", "--timeout", timeout, "--verbose", "--format", fmt, "-o", str(target), "--codex-version", "0.171.0"
        )
        seen.append(out + err + target.read_text(encoding="utf-8"))
    code, out, err = run("check", "--timeout", timeout, "--verbose", "--codex-version", "0.171.0")
    seen.append(out + err)
    for fmt in ("text", "markdown", "json"):  # Chinese output goes through the same redaction
        code, out, err = run(
            "check", "--timeout", timeout, "--verbose", "--lang", "zh", "--format", fmt, "--codex-version", "0.171.0"
        )
        seen.append(out + err)
    for text in seen:
        assert_clean(text)
    assert any(r.auth for r in s.records) or scenario == "hang"  # the key was really sent
    assert len(checks_run) == 2  # one live check in English, one in Chinese, each published in every format


def test_debug_traceback_is_redacted(home, run, monkeypatch):
    import codexdoctor.commands.check as command

    def broken(opts):
        raise RuntimeError(f"failed talking to https://gw.example/v1?token={QUERY_TOKEN} with {KEY}")

    monkeypatch.setenv("SIM_API_KEY", KEY)
    monkeypatch.setenv("CODEXDOCTOR_DEBUG", "1")
    monkeypatch.setattr(command, "run_check", broken)
    code, out, err = run("check", "--offline")
    assert code == 3 and "Traceback" in err  # the traceback is shown, redacted
    assert_clean(out + err)
