"""The facts the real checks produce have the types codexdoctor/facts.py declares (what the rules are tested against).

Offline: the static checks over broken configs, `diagnose-error` over real Codex stderr, `sessions` over real
rollouts. With the simulator: every demo scenario (the live checks) and one probe.
"""

from pathlib import Path

import pytest

from codexdoctor.commands.options import CheckOptions
from codexdoctor.facts import FACTS, mismatches
from codexdoctor.model import Status
from tests.conftest import TAOTOKEN, offline_report, write_config

FIXTURES = Path(__file__).parents[1] / "fixtures"

CONFIGS = (
    TAOTOKEN,
    TAOTOKEN.replace("base_url =", "baseURL ="),
    TAOTOKEN.replace('"https://taotoken.net/api"', '"https://taotoken.net/api/v1/responses?api_key=x#top "'),
    TAOTOKEN.replace('base_url = "https://taotoken.net/api"', 'base_url = "http://[::1"'),
    TAOTOKEN.replace('wire_api = "responses"', 'wire_api = "chat"\nmodel_context_window = "128k"'),
    TAOTOKEN.replace('model_provider = "taotoken"', 'model_provider = "taotokn"\nprofile = "work"'),
    TAOTOKEN + '\n[profiles.work]\nmodel = "m"\nmodel_providers = {}\n',
    TAOTOKEN.replace('env_key = "TAOTOKEN_API_KEY"', 'env_key = "sk-0123456789abcdef0123"'),
    'model = "x"\n[model_providers.openai]\nname = "o"\nbase_url = "https://gw.example/v1"\n',
    'model = "x\nbroken = [',
)


def checked(results) -> dict[str, list[str]]:
    """Each result the rules would see, by check id: the ways its facts depart from the declaration."""
    return {r.id: mismatches(r.id, r.facts) for r in results if r.status not in (Status.SKIP, Status.CRASH)}


def assert_declared(seen: dict[str, list[str]], results) -> None:
    found = checked(results)
    for check, problems in found.items():
        assert problems == [], (check, problems)
    for check in found:
        seen.setdefault(check, [])


def test_static_checks_diagnose_and_sessions_give_declared_facts(home, monkeypatch):
    from codexdoctor.commands.diagnose import run_diagnose
    from codexdoctor.commands.sessions import run_sessions

    seen: dict[str, list[str]] = {}
    (home / ".zshrc").write_text("TAOTOKEN_API_KEY=sk-in-rc-0123456789\n", encoding="utf-8")
    for n, text in enumerate(CONFIGS):
        write_config(home, text)
        (home / ".codex" / ".env").write_text(f"TAOTOKEN_API_KEY={'$UNSET' * n}\n", encoding="utf-8")
        env = {"TAOTOKEN_KEY": "sk-near-miss-0123456789"} if n % 2 else {"TAOTOKEN_API_KEY": ' "sk-quoted" \n'}
        assert_declared(seen, offline_report(home, env).checks)
        # A profile selected on the command line: a profile file that is missing, or a legacy table of that name.
        assert_declared(seen, offline_report(home, env, profile="work").checks)
        assert_declared(seen, offline_report(home, env, profile="work", codex_version=(0, 130, 0)).checks)
    opts = CheckOptions(
        env={"HOME": str(home)}, home=home, cwd=Path.cwd(), system_config=None, codex_version=(0, 171, 0)
    )
    pastes = [p.read_text(encoding="utf-8") for p in sorted((FIXTURES / "codex-stderr").glob("*.txt"))]
    pastes += ["unexpected status 402 Payment Required: Insufficient balance", "something else entirely"]
    for text in pastes:
        assert_declared(seen, run_diagnose(opts, text)[0].checks)
    for rollouts in sorted((FIXTURES / "rollouts").iterdir()):
        report, _ = run_sessions({"HOME": str(home)}, home, (rollouts,), None, None, None, False)
        assert_declared(seen, report.checks)
    static = {"cfg.home", "cfg.files", "cfg.profile", "cfg.provider", "cfg.keys", "env.key", "env.auth", "url.base_url"}
    assert static | {"ctx.sessions", "ctx.pasted"} <= set(seen)


@pytest.mark.simulator
def test_live_checks_and_the_probe_give_declared_facts(home, sim_server):
    from codexdoctor.checks.probe import ProbeSettings
    from codexdoctor.commands import demo
    from codexdoctor.commands.probe import run_probe

    seen: dict[str, list[str]] = {}
    # Every scenario but flaky-channel, whose retries wait seconds and whose facts have the shapes of the others.
    for outcome in demo.run_all(tuple(s.name for s in demo.SCENARIOS if s.name != "flaky-channel")):
        assert_declared(seen, outcome.report.checks)
    server = sim_server(api_key="sk-sim-facts-0123456789", context_window=8192, token_interval_ms=0)
    write_config(
        home,
        'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{server.base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    opts = CheckOptions(
        env={"HOME": str(home), "SIM_API_KEY": "sk-sim-facts-0123456789"},
        home=home,
        cwd=Path.cwd(),
        system_config=None,
        codex_version=(0, 171, 0),
    )
    report, _ = run_probe(opts, ProbeSettings(max_context=20000), lambda plan: True, lambda line: None)
    assert_declared(seen, report.checks)
    stalling = sim_server(
        api_key="sk-sim-facts-0123456789",
        context_window=8192,
        token_interval_ms=0,
        stall_after_tokens=1,
        stall_seconds=0.2,
    )
    assert_declared(seen, [watched(stalling.base_url)])
    assert set(seen) == set(FACTS) - {"cfg.profile", "ctx.sessions", "ctx.pasted"}, set(FACTS) - set(seen)


def watched(base_url: str):
    """`codexdoctor watch`'s result over real requests through the recorder: an answer with a 0.2 s silence in its
    stream (a stall at a 50 ms threshold, whatever the machine's load) and a refusal (the window)."""
    import httpx

    from codexdoctor.common.redact import Redactor
    from codexdoctor.watch import diagnosis
    from codexdoctor.watch.recorder import Recorder, Upstream

    records: list = []
    recorder = Recorder(Upstream(base_url, {}), Redactor([]), records.append).start()
    try:
        for words in (10, 12000):
            body = {"model": "sim-model", "stream": True, "input": [{"role": "user", "content": "word " * words}]}
            headers = {"Authorization": "Bearer sk-sim-facts-0123456789"}
            httpx.post(recorder.base_url + "/responses", json=body, headers=headers, timeout=30)
    finally:
        recorder.stop()
    result = diagnosis.check(records, "~/w.jsonl", 1, stall_ms=50)
    assert result.facts["context_break"] and result.facts["stall"]
    return result.__class__(**{**result.__dict__, "facts": {**result.facts, "shell": "bash", "platform": "linux"}})
