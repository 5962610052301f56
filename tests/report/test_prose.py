"""Issue 29: text and markdown speak in the user's words. No `{placeholder}`, no `None`, no Python repr of an
internal id, no internal snake_case id (`path_not_found`) and no check id (`cfg.home`) reaches them; JSON keeps
its machine values."""

import re

import pytest

from codexdoctor.checks import LIVE_CHECK_IDS, STATIC_CHECKS
from codexdoctor.commands import demo
from codexdoctor.net.classify import Classified  # noqa: F401 - the kinds below are its vocabulary
from codexdoctor.report.catalogview import explain_rule
from codexdoctor.report.render import RenderOptions, render
from codexdoctor.rules import RULES

KINDS = (
    "path_not_found",
    "model_not_found",
    "context_exceeded",
    "server_error",
    "auth_rejected",
    "auth_missing",
    "stream_closed",
    "stream_error",
    "stream_idle",
    "stream_incomplete",
    "rate_limited",
    "not_json",
    "not_a_stream",
    "wire_mismatch",
    "codex_rejected",
    "bad_request",
    "too_large",
    "deployment_not_found",
    "call_id_lost",
    "wrong_stream_grammar",
    "rate_limit_exhausted",
    "proxy_auth",
)
CHECK_IDS = tuple(c.id for c in STATIC_CHECKS) + LIVE_CHECK_IDS
PLACEHOLDER = re.compile(r"(?<![{$])\{[a-z_]+(?::[^}]*)?\}")
PY_REPR = re.compile(r"'[a-z]+_[a-z_]+'")


def problems(text: str) -> list[str]:
    # A provider's own words (a response body quoted as evidence) are shown as they came.
    text = re.sub(r"(body: |响应体为 ).*?(?= \[sent |（发送于|$)", r"\1…", text, flags=re.M)
    found = []
    found += PLACEHOLDER.findall(text)
    found += re.findall(r"\bNone\b", text)
    found += PY_REPR.findall(text)
    found += [k for k in KINDS if re.search(rf"(?<![\w/.-]){k}(?![\w-])", text)]
    found += [c for c in CHECK_IDS if re.search(rf"(?<![\w./-]){re.escape(c)}(?![\w-])", text)]
    return found


@pytest.mark.simulator
@pytest.mark.parametrize("fmt", ["text", "markdown"])
@pytest.mark.parametrize("verbose", [False, True])
def test_demo_reports_have_no_internal_words(demo_reports, fmt, verbose):
    assert len(demo_reports) == 2 * len(demo.SCENARIOS)
    for (name, lang), report in demo_reports.items():
        out = render(report, fmt, RenderOptions(verbose=verbose))  # unwrapped: a quoted body stays on its line
        assert not problems(out), (name, lang, fmt, problems(out))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_explain_has_no_raw_slot_or_internal_word(lang):
    for rule in RULES:
        out = explain_rule(rule.code, "text", lang, 100)
        assert not problems(out), (rule.code, problems(out))
        if lang == "zh":
            assert "<…>" not in out.replace("（<…> 处会按你的配置填入）", ""), rule.code


def test_the_checker_catches_what_it_must():
    assert problems("prints None") and problems("=> path_not_found") and problems("{user_config}")
    assert problems("[pass] cfg.home") and problems("kind 'context_exceeded'")
    assert (
        not problems("codexdoctor probe --max-context 32000") and not problems("${HOME}") and not problems("{{ key }}")
    )


def test_secret_in_base_url_query_is_a_finding_and_never_shown(home, run, monkeypatch):
    from tests.conftest import write_config

    secret = "sk-query-0123456789abcdef"
    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        f'base_url = "https://gw.example/v1?utm_source=news&api_key={secret}"\nenv_key = "GW_KEY"\n',
    )
    monkeypatch.setenv("GW_KEY", "sk-gw-0123456789abcdefghij")
    for lang in ("en", "zh"):
        code, out, _ = run("check", "--offline", "--codex-version", "0.171.0", "--lang", lang, "--verbose")
        assert "URL011" in out and secret not in out and secret[:12] not in out
        assert out.count("?utm_source") <= out.count("base_url") + 2  # the query is never repeated inside a URL
        assert "/responses?utm_source" not in out
    code, out, _ = run("check", "--offline", "--codex-version", "0.171.0", "--lang", "zh")
    assert "<已脱敏：" in out and "<redacted" not in out  # the redactor's mark in the report's language


def test_verdict_counts_every_error_it_lists(home, run, monkeypatch):
    from codexdoctor.model import Finding, Severity, Verdict
    from codexdoctor.report.build import decide_verdict

    def f(code, verdict):
        return Finding(code, Severity.ERROR, verdict, "t", "d", ("r",), ("x",))

    verdict, reason = decide_verdict([f("CFG011", Verdict.CONFIG), f("API001", Verdict.CHANNEL)], [], True)
    assert verdict is Verdict.CONFIG and "CFG011" in reason and "API001" in reason and "also 1 error of kind" in reason


def test_codex_home_that_does_not_exist_is_not_a_tick(home, run):
    code, out, _ = run("check", "--offline", "--codex-version", "0.171.0")
    assert "[✓] Codex home" not in out and "does not exist yet" in out


@pytest.mark.parametrize(
    "args,expected",
    [
        (["sessions", "--since", "yesterday"], "不是日期"),
        (["check", "--timeout", "abc"], "的值无效"),
        (["diagnose-error", ""], "报错文本是空的"),
        (["--help"], "用法"),
    ],
)
def test_click_and_usage_errors_speak_chinese(run, monkeypatch, args, expected):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    code, out, err = run(*args)
    assert expected in out + err, out + err
    assert "Usage:" not in out + err and "Error:" not in out + err and "Invalid value" not in out + err
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    code, out, err = run(*args)
    assert "用法" not in out + err  # switched back: one process, many commands


def test_since_speaks_of_dates_not_strptime(run):
    code, out, err = run("sessions", "--help")
    assert "%Y" not in out and "2026-11-30" in out
    code, out, err = run("sessions", "--since", "nope")
    assert code == 2 and "%Y" not in err and "2026-11-30" in err


def test_diagnose_points_out_a_model_the_config_does_not_name(home, run, monkeypatch):
    from tests.conftest import write_config

    write_config(
        home,
        'model = "gpt-5.1-codex"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/v1"\nenv_key = "GW_KEY"\n',
    )
    monkeypatch.setenv("GW_KEY", "sk-gw-0123456789abcdefghij")
    paste = (
        "unexpected status 404 Not Found: The model `gpt-5.1-codex-2025-11-13` does not exist or you do not have "
        "access to it., url: https://gw.example/v1/responses"
    )
    code, out, _ = run("diagnose-error", paste, "--codex-version", "0.171.0")
    flat = " ".join(out.split())
    assert 'The error names `gpt-5.1-codex-2025-11-13`, but your config says model = "gpt-5.1-codex"' in flat
    code, out, _ = run("diagnose-error", paste.replace("-2025-11-13", ""), "--codex-version", "0.171.0")
    assert "The error names" not in out


def test_no_placeholder_for_an_unknown_compaction_point_or_an_empty_model(home, run, tmp_path):
    """Issue 40: "auto-compaction at ~?" and "Model:   wire_api: responses" reached users."""
    from tests.conftest import write_config
    from tests.rollout_factory import RolloutWriter

    w = RolloutWriter(tmp_path / "sessions", window=None)
    w.turn(9000)
    w.close()
    code, out, _ = run("sessions", str(tmp_path / "sessions"), "--session", w.id[:8])
    assert "~?" not in out and "auto-compaction point unknown" in out, out
    write_config(home, 'model = ""\n')
    code, out, _ = run("check", "--offline")
    assert 'Model: ""   wire_api: responses' in out
