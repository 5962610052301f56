"""Outside text (server bodies and events, pastes, session logs) never leaks a piece of a key and never drives the
terminal, whatever its length, wherever the key sits in it, in every format and language (issue 26, 1 and 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.common import redact as redact_mod
from codexdoctor.common.untrusted import clip, sanitize
from codexdoctor.net.classify import MESSAGE_CHARS
from codexdoctor.report.build import build_report
from codexdoctor.report.render import FORMATS, RenderOptions, render
from codexdoctor.rules import evaluate
from tests.conftest import write_config

# No known prefix (no sk-): only the run's own secret list and the cut rules can catch it.
KEY = "Q7w9E2r4T6y8U1i3O5p7A9s2Xk3mN8bV4cZ1"
FILLER = "upstream rejected the credential presented in the authorization header of this request; " * 8


def pieces(secret: str, size: int = 8) -> set[str]:
    return {secret[i : i + size] for i in range(len(secret) - size + 1)}


def leaked(text: str, secret: str = KEY) -> list[str]:
    return sorted(p for p in pieces(secret) if p in text)


def share(offsets: range, parts: int) -> list[range]:
    """`offsets` dealt into `parts` interleaved ranges that together hold every one: each sweep below runs as several
    tests, which pytest-xdist spreads over the cores (a sweep of 341 full runs took 56 s as one test)."""
    return [offsets[k::parts] for k in range(parts)]


def ids(parts: int) -> list[str]:
    return [f"part{k + 1}of{parts}" for k in range(parts)]


def every_output(report, redactor) -> list[str]:
    """Every format, terse and verbose, as `publish` writes it (the final redaction included). A rendering that is
    the same text as another (only the text format has a verbose form) is redacted and looked through once: the
    redaction is a function of the text, and it was a third of these sweeps' CPU (issue 37)."""
    rendered = [
        render(report, fmt, RenderOptions(verbose=verbose, width=80 if fmt == "text" else None))
        for fmt in FORMATS
        for verbose in (False, True)
    ]
    return [redactor(text) for text in dict.fromkeys(rendered)]


# ---- the two helpers -------------------------------------------------------------------------------------------


def test_clip_never_keeps_part_of_a_token():
    for offset in range(0, 60):
        text = FILLER[:offset] + KEY + " tail"
        for limit in range(1, 80):
            shown = clip(text, limit)
            assert len(shown) <= limit
            assert not leaked(shown) or KEY in shown, (offset, limit, shown)


def test_clip_keeps_short_text_and_cuts_at_word_ends():
    assert clip("short", 10) == "short"
    assert clip("one two three four", 12) == "one two…"


@pytest.mark.parametrize(
    "raw, shown",
    [
        ("title\x1b]0;pwned\x07 after", "title after"),
        ("copy\x1b]52;c;ZWNobyBoaQ==\x07 me", "copy me"),
        ("link \x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ done", "link click done"),
        ("c1 csi \x9b31m red \x9bm", "c1 csi  red "),
        ("c1 osc \x9d0;title\x9c ok", "c1 osc  ok"),
        ("dcs \x1bPq#0;2;0;0;0\x1b\\ ok", "dcs  ok"),
        ("apc \x1b_payload\x1b\\ ok", "apc  ok"),
        ("colour \x1b[31mred\x1b[0m", "colour red"),
        ("reset \x1bc ok", "reset  ok"),
        ("bell \x07 and nul \x00", "bell \\x07 and nul \\x00"),
        ("bidi \u202egnp.exe", "bidi \\u202egnp.exe"),
        ("surrogate \ud800x", "surrogate \\ud800x"),
        ("unterminated \x1b]0;title", "unterminated "),
    ],
)
def test_sanitize_removes_every_terminal_control(raw, shown):
    assert sanitize(raw) == shown


def test_sanitize_keeps_newlines_only_when_asked():
    assert sanitize("a\nb\r\nc") == "a b  c"
    assert sanitize("a\nb\r\nc", newlines=True) == "a\nb\nc"
    assert sanitize("plain") == "plain"


def test_redactor_catches_a_piece_cut_before_redaction():
    r = redact_mod.Redactor([KEY])
    for n in range(8, len(KEY)):
        assert not leaked(r("x " + KEY[:n] + "…")), n
        assert not leaked(r("…" + KEY[-n:] + " x")), n


# ---- live: a stream whose error echoes the key, swept across the cut ----------------------------------------------


@pytest.fixture
def echoing_provider(home, sim_server, monkeypatch):
    server = sim_server(api_key=KEY, stream_fault="response_failed")
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{server.url}/v1"\nenv_key = "SIM_API_KEY"\n',
    )
    monkeypatch.setenv("SIM_API_KEY", KEY)
    return server


def _check(home: Path):
    opts = CheckOptions(
        env={"HOME": str(home), "SIM_API_KEY": KEY},
        home=home,
        cwd=Path.cwd(),
        offline=False,
        system_config=None,
        codex_version=(0, 171, 0),
        timeout=5.0,
    )
    return run_check(opts)


@pytest.mark.parametrize("offsets", share(range(0, MESSAGE_CHARS + 41), 6), ids=ids(6))
@pytest.mark.parametrize("fault", ["response_failed", "error_event"])
def test_a_key_echoed_in_a_stream_error_never_leaks(home, echoing_provider, fault, offsets, monkeypatch):
    """Every offset from 0 to the excerpt length + 40 (over the parts), in every format, in English and Chinese."""
    seen_fault = False
    for offset in offsets:
        echoing_provider.reconfigure(stream_fault=fault, fault_message=FILLER[:offset] + "{auth}" + " (rejected)")
        report, ctx = _check(home)
        seen_fault = seen_fault or any("stream" in (f.diagnosis + " ".join(f.evidence)) for f in report.findings)
        zh = build_report("check", ctx, list(report.checks), evaluate(list(report.checks), lang="zh"), True, (), "zh")
        for out in every_output(report, ctx.redactor) + every_output(zh, ctx.redactor):
            assert not leaked(out), (offset, leaked(out))
    assert seen_fault


@pytest.mark.parametrize("offsets", share(range(MESSAGE_CHARS - 40, MESSAGE_CHARS + 41), 2), ids=ids(2))
def test_the_cut_itself_is_safe_without_the_piece_detector(home, echoing_provider, monkeypatch, offsets):
    """The root fix, on its own: with the last line's piece detection off, no piece reaches any output."""
    monkeypatch.setattr(redact_mod, "PIECE_MIN_SECRET", 10_000)
    for offset in offsets:
        echoing_provider.reconfigure(fault_message=FILLER[:offset] + "{auth}" + " (rejected)")
        report, ctx = _check(home)
        for out in every_output(report, ctx.redactor):
            assert not leaked(out), (offset, leaked(out))


def test_a_server_cannot_drive_the_terminal(home, echoing_provider, run):
    """OSC title, OSC 52 clipboard, OSC 8 link and a C1 CSI in a server's error reach no output, verbose included."""
    echoing_provider.reconfigure(
        fault_message="bad \x1b]0;pwned\x07 \x1b]52;c;ZWNobyBoaQ==\x07 "
        "\x1b]8;;https://evil.example\x1b\\x\x1b]8;;\x1b\\ \x9b2J end"
    )
    for fmt in ("text", "markdown", "github", "json", "junit"):
        code, out, err = run(
            "check", "--timeout", "5", "-v", "--format", fmt, "--codex-version", "0.171.0", "--no-color"
        )
        assert "end" in out or fmt in ("json", "github")  # the message itself is shown (github: its title only)
        for bad in ("\x1b", "\x9b", "\x9d", "\x07"):
            assert bad not in out + err, (fmt, bad)


# ---- diagnose-error: every paste shape, the key at every offset ----------------------------------------------------

PASTE_SHAPES = {
    "401 json": lambda msg: (
        'unexpected status 401 Unauthorized: {"error":{"message":"' + msg + '","type":"invalid_request_error"}}'
    ),
    "reset": lambda msg: (
        "stream disconnected before completion: error sending request for url "
        "(https://gw.example/v1/responses): connection reset by peer: " + msg
    ),
    "stream error": lambda msg: "⚠️ stream error: " + msg + "; retrying 1/5 in 200ms…",
    "plain": lambda msg: msg,
    "json body": lambda msg: json.dumps({"error": {"message": msg, "code": "invalid_api_key"}}),
}


@pytest.mark.slow
@pytest.mark.parametrize("offsets", share(range(0, 300 + 41), 3), ids=ids(3))
@pytest.mark.parametrize("shape", sorted(PASTE_SHAPES))
def test_a_key_in_a_pasted_error_never_leaks(home, monkeypatch, shape, offsets):
    from codexdoctor.commands.diagnose import run_diagnose

    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/v1"\nenv_key = "GW_API_KEY"\n',
    )
    env = {"HOME": str(home), "GW_API_KEY": KEY}
    for offset in offsets:
        paste = PASTE_SHAPES[shape](FILLER[:offset] + KEY + " was rejected")
        for lang in ("en", "zh"):
            opts = CheckOptions(
                env=env,
                home=home,
                cwd=Path.cwd(),
                offline=True,
                system_config=None,
                codex_version=(0, 171, 0),
                lang=lang,
            )
            report, ctx = run_diagnose(opts, paste)
            for out in every_output(report, ctx.redactor):
                assert not leaked(out), (shape, offset, lang, leaked(out))


def test_a_paste_cannot_drive_the_terminal(home, run):
    code, out, err = run(
        "diagnose-error",
        "unexpected status 401 Unauthorized: \x1b]52;c;ZWNobyBoaQ==\x07\x1b]0;title\x07 bad key \x9b31m",
    )
    assert code in (0, 1)
    assert "\x1b" not in out + err and "\x9b" not in out + err and "\x07" not in out + err


# ---- sessions: a key in an error line or a prompt, and escapes in the rollout's own fields ------------------------


def _rollout(path: Path, error: str, cli_version: str = "0.171.0", model: str = "gpt-5", prompt: str = "hello"):
    lines = [
        {
            "timestamp": "2026-11-01T00:00:00Z",
            "type": "session_meta",
            "payload": {
                "id": "0199aaaa-0000-7000-8000-000000000001",
                "cli_version": cli_version,
                "timestamp": "2026-11-01T00:00:00Z",
                "model_provider": "gw",
            },
        },
        {"timestamp": "2026-11-01T00:00:00Z", "type": "turn_context", "payload": {"model": model}},
        {
            "timestamp": "2026-11-01T00:00:01Z",
            "type": "event_msg",
            "payload": {"type": "task_started", "model_context_window": 128000},
        },
        {
            "timestamp": "2026-11-01T00:00:01Z",
            "type": "event_msg",
            "payload": {"type": "user_message", "message": prompt},
        },
        {
            "timestamp": "2026-11-01T00:00:02Z",
            "type": "event_msg",
            "payload": {"type": "task_complete", "error": {"message": error}},
        },
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("offsets", share(range(0, 500 + 41, 3), 4), ids=ids(4))
def test_a_key_in_a_session_log_never_leaks(home, monkeypatch, offsets):
    from codexdoctor.commands.sessions import run_sessions

    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/v1"\nenv_key = "GW_API_KEY"\n',
    )
    env = {"HOME": str(home), "GW_API_KEY": KEY}
    target = home / ".codex" / "sessions" / "2026" / "11" / "01" / "rollout-2026-11-01T00-00-00-0199aaaa.jsonl"
    for offset in offsets:
        _rollout(
            target,
            "unexpected status 401 Unauthorized: " + FILLER[:offset] + KEY + " rejected",
            prompt=FILLER[: offset % 120] + KEY,
        )
        for lang in ("en", "zh"):
            for content in (False, True):
                report, redactor = run_sessions(env, home, (), None, None, None, content, lang)
                for out in every_output(report, redactor):
                    assert not leaked(out), (offset, lang, leaked(out))


def test_a_rollout_cannot_drive_the_terminal(home, run):
    target = home / ".codex" / "sessions" / "2026" / "11" / "01" / "rollout-2026-11-01T00-00-00-0199aaaa.jsonl"
    _rollout(
        target,
        "boom \x1b]0;title\x07",
        cli_version="0.171.0\x1b]52;c;ZWNobyBoaQ==\x07",
        model="gpt-5\x9b2J\x1b]8;;https://evil.example\x1b\\",
    )
    for fmt in ("text", "markdown", "github", "json"):
        code, out, err = run("sessions", "--format", fmt, "-v")
        assert "gpt-5" in out or fmt == "github"  # the sessions table shows the model
        for bad in ("\x1b", "\x9b", "\x07"):
            assert bad not in out + err, (fmt, bad)


def test_report_texts_are_cleaned_at_one_boundary(home):
    """build_report cleans every shown string; a renderer given the report sees no control character."""
    from codexdoctor.model import CheckResult, Finding, Severity, Status, Verdict
    from tests.conftest import offline_report

    report = offline_report(home)
    dirty = "x\x1b]0;t\x07y"
    checks = [CheckResult("net.reach", dirty, Status.FAIL, dirty, {"k": dirty}, (dirty,))]
    findings = [Finding("NET001", Severity.ERROR, Verdict.CHANNEL, dirty, dirty, (dirty,), ("net.reach",), (dirty,))]
    from codexdoctor.commands.options import make_context

    ctx = make_context(
        CheckOptions(env={"HOME": str(home)}, home=home, cwd=Path.cwd(), offline=True, system_config=None)
    )
    cleaned = build_report("check", ctx, checks, findings, False, [dirty])
    for fmt in FORMATS:
        assert "\x1b" not in render(cleaned, fmt) and "\x07" not in render(cleaned, fmt)
    assert cleaned.checks[0].facts["k"] == "xy"
    assert report.verdict  # the ordinary report still builds


def test_piece_detection_leaves_plain_header_values_alone():
    r = redact_mod.Redactor(["application/json", KEY])
    assert "application/x-ndjson" in r("content-type: application/x-ndjson")
    assert not leaked(r("x " + KEY[:10] + "…"))
