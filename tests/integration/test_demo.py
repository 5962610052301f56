"""`codexdoctor demo` is a self-test a user can run: every scenario gets its expected verdict."""

import pytest

from codexdoctor.commands import demo


@pytest.mark.simulator
def test_every_scenario_gets_its_verdict(home, run):
    code, out, err = run("demo")
    assert code == 0, out
    assert f"{len(demo.SCENARIOS)}/{len(demo.SCENARIOS)} scenarios got their expected verdict." in out
    for s in demo.SCENARIOS:
        assert s.name in out
    assert not (home / ".codex").exists()  # never touches the user's real CODEX_HOME


@pytest.mark.simulator
def test_single_scenario_prints_its_report(home, run):
    code, out, _ = run("demo", "--scenario", "v1-vs-api")
    assert code == 0
    assert "=== v1-vs-api" in out and "API001" in out and 'set base_url = "http://127.0.0.1:' in out


def test_list_and_unknown(run):
    code, out, _ = run("demo", "--list")
    assert code == 0 and "flaky-channel" in out
    code, _, err = run("demo", "--scenario", "nope")
    assert code == 2 and "unknown scenario" in err


@pytest.mark.simulator
def test_a_wrong_expectation_fails_the_self_test(monkeypatch):
    broken = demo.Scenario("healthy-but-expected-context", "x", "context")
    outcome = demo.run_scenario(broken)
    assert outcome.got == "ok" and not outcome.passed


@pytest.mark.simulator
def test_demo_in_chinese(home, run):
    code, out, _ = run("demo", "--lang", "zh", "--scenario", "wrong-key")
    assert code == 0 and "提供方拒绝了这个 API Key" in out and "1/1 个场景得到了预期结论。" in out


@pytest.mark.simulator
def test_chinese_table_is_aligned_by_display_width():
    from codexdoctor.report.render.text import display_width

    outcomes = [demo.run_scenario(s, lang="zh") for s in demo.SCENARIOS if s.name in ("key-unset", "wrong-key")]
    lines = demo.table(outcomes, lang="zh").splitlines()
    starts, pos = [], 0
    for dashes in lines[1].split("  "):
        starts.append(pos)
        pos += len(dashes) + 2
    for line, o in zip(lines[2:], outcomes):
        after_description = line.index(demo.DESCRIPTIONS_ZH[o.scenario.name]) + len(
            demo.DESCRIPTIONS_ZH[o.scenario.name]
        )
        verdict_at = line.index("问题", after_description) - 2  # the expected verdict (配置问题 / 通道问题)
        # the third column starts at the same terminal cell on every row, whatever the Chinese before it
        assert display_width(line[:verdict_at], "zh") == starts[2], line
