"""Golden files: every renderer on one hand-built report that holds every status, severity and a section."""

from pathlib import Path

import pytest

from codexdoctor.model import CheckResult, Finding, ProviderSummary, Report, Section, Severity, Status, Verdict
from codexdoctor.report.render import FORMATS, RenderOptions, render

GOLDEN = Path(__file__).parents[1] / "snapshots"


def sample_report(lang: str = "en") -> Report:
    checks = (
        CheckResult(
            "cfg.files",
            "Config files",
            Status.PASS,
            "~/.codex/config.toml parsed",
            {},
            ("~/.codex/config.toml: read",),
            1.0,
        ),
        CheckResult(
            "url.base_url",
            "base_url",
            Status.WARN,
            "https://gw.example/v1",
            {},
            ("base_url = 'https://gw.example/v1'",),
            0.5,
        ),
        CheckResult(
            "api.canary",
            "Canary request",
            Status.FAIL,
            "auth_rejected: the provider rejected the API key",
            {},
            ('POST https://gw.example/v1/responses -> 401 (120 ms) body: {"error": "bad key"}',),
            121.0,
        ),
        CheckResult(
            "ctx.window", "Served context window", Status.SKIP, "the provider does not publish its window", {}, (), 2.0
        ),
        CheckResult("cfg.keys", "Config keys", Status.CRASH, "internal error: RuntimeError: boom", {}, (), 0.1),
    )
    findings = (
        Finding(
            "AUTH001",
            Severity.ERROR,
            Verdict.CHANNEL,
            "The provider rejected the API key",
            "POST https://gw.example/v1/responses answered 401: bad key.",
            ("Check the key.", "Add at the top level of ~/.codex/config.toml:\nmodel_context_window = 8000"),
            ("api.canary",),
            checks[2].evidence,
        ),
        Finding(
            "URL003",
            Severity.WARNING,
            Verdict.CONFIG,
            "base_url ends in /v1: the provider decides",
            "Codex never adds or removes /v1.",
            ("Run `codexdoctor check` without --offline.",),
            ("url.base_url",),
        ),
        Finding(
            "URL008",
            Severity.INFO,
            Verdict.CONFIG,
            "base_url ends with a slash",
            "Harmless.",
            ("Nothing to do.",),
            ("url.base_url",),
        ),
    )
    provider = ProviderSummary(
        "gw",
        "Gateway",
        False,
        "https://gw.example/v1",
        "https://gw.example/v1/responses",
        "responses",
        "gw-model",
        "GW_API_KEY",
        "set, 40 chars, sha256:1a2b3c4d",
        "~/.codex/config.toml",
    )
    section = Section(
        "probe.steps",
        "Session probe steps",
        ("#", "tokens sent", "result"),
        ((1, "1,024", "ok"), (2, "2,048", "ok")),
        ((1024.0, 20.0), (2048.0, 45.0)),
        "tokens sent",
        "time to first token (ms)",
        ("Usable window: about 2,048 tokens",),
    )
    environment = {
        "os": "Linux 6.1",
        "python": "3.11.7",
        "codexdoctor": "0.1.0",
        "codex": "0.171.0",
        "codex_home": "~/.codex",
        "proxy": False,
        "proxy_variable": None,
        "offline": False,
        "platform": "linux",
        "shell": "bash",
    }
    return Report(
        "1",
        "0.1.0",
        "check",
        Verdict.CHANNEL,
        "1 error(s) of kind `channel`: AUTH001",
        checks,
        findings,
        environment,
        provider,
        ("A note.",),
        lang,
        (section,),
    )


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("verbose", [False, True])
def test_golden(fmt, verbose):
    out = render(sample_report(), fmt, RenderOptions(verbose=verbose))
    path = GOLDEN / f"golden{'-verbose' if verbose else ''}.{fmt}.txt"
    if not path.exists():  # written once, reviewed by eye, then committed
        path.write_text(out, encoding="utf-8")
    assert out == path.read_text(encoding="utf-8")


def test_every_format_is_covered():
    assert set(FORMATS) == {"text", "markdown", "json", "junit", "github"}


def test_json_is_the_same_without_orjson(monkeypatch):
    """orjson is a speed-up only: the standard library writes the same report, byte for byte."""
    fast = render(sample_report(), "json")
    monkeypatch.setitem(__import__("sys").modules, "orjson", None)  # import orjson now raises ImportError
    assert render(sample_report(), "json") == fast
