"""CI formats: JUnit parses and carries findings; GitHub annotations are escaped; step summary; --fail-on."""

import xml.etree.ElementTree as ET

import pytest

from codexdoctor.report.render import RenderOptions, render
from codexdoctor.report.render.github import escape_data, escape_property
from tests.conftest import TAOTOKEN, offline_report, write_config


@pytest.fixture
def report(home):
    write_config(home, TAOTOKEN.replace("https://taotoken.net/api", "https://taotoken.net/api/v1?utm_source=x"))
    return offline_report(home)


def test_junit_parses_and_groups_by_family(report):
    root = ET.fromstring(render(report, "junit"))
    assert root.tag == "testsuites"
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"codexdoctor.cfg", "codexdoctor.env", "codexdoctor.url"}
    assert int(root.get("tests")) == len(report.checks)
    env_case = suites["codexdoctor.env"].find("testcase[@name='env.key: API key variable']")
    failure = env_case.find("failure")
    assert failure.get("type") == "ENV001"
    assert "Missing environment variable" in failure.text and "1. Set it in this terminal" in failure.text


def test_junit_warnings_fail_only_when_asked(report):
    def url_case(opts):
        root = ET.fromstring(render(report, "junit", opts))
        return root.find(".//testcase[@name='url.base_url: base_url']")

    # URL004 (error) fails either way; URL003 is a warning riding on the same check
    assert url_case(RenderOptions()).find("failure").get("type") == "URL004"
    assert url_case(RenderOptions(fail_on="never")).find("failure") is None
    assert "URL003" in url_case(RenderOptions(fail_on="never")).find("system-out").text


def test_github_annotations_escaped(report):
    out = render(report, "github")
    lines = out.splitlines()
    assert any(l.startswith("::error title=ENV001 API key variable is not set::") for l in lines)
    assert any(l.startswith("::warning title=URL003 base_url ends in /v1%3A the provider decides::") for l in lines)
    assert all("\n" not in l for l in lines)
    assert lines[-1].startswith("codexdoctor check: Verdict config")
    assert escape_data("50%\nx") == "50%25%0Ax" and escape_property("a:b,c") == "a%3Ab%2Cc"


def test_github_actions_run_reproduced(home, run, monkeypatch, tmp_path):
    write_config(home, TAOTOKEN)
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, out, _ = run("check", "--offline")
    assert code == 1
    assert out.startswith("::error title=ENV001")
    assert summary.read_text().startswith("# codexdoctor check report")
    code, _, _ = run("check", "--offline", "--fail-on", "never")
    assert code == 0
    assert summary.read_text().count("# codexdoctor check report") == 2  # appended, not overwritten


def test_explicit_format_wins_over_github_default(home, run, monkeypatch):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    code, out, _ = run("check", "--offline", "--format", "json")
    assert out.lstrip().startswith("{")
