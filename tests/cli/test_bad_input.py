"""Bad input never produces a traceback: a clear message with exit code 2, or a finding."""

import os
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codexdoctor.cli import main
from tests.conftest import TAOTOKEN

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
KEYS = [
    "model",
    "model_provider",
    "profile",
    "base_url",
    "env_key",
    "wire_api",
    "query_params",
    "http_headers",
    "env_http_headers",
    "name",
    "requires_openai_auth",
    "stream_idle_timeout_ms",
    "experimental_bearer_token",
    "model_context_window",
    "model_auto_compact_token_limit",
    "openai_base_url",
]
TOML_VALUES = st.one_of(
    st.integers(-(10**12), 10**12).map(str),
    st.booleans().map(lambda b: str(b).lower()),
    st.text(alphabet=string.printable.replace('"', "").replace("\\", ""), max_size=40).map(lambda t: f'"{t}"'),
    st.lists(st.integers(0, 9), max_size=3).map(str),
    st.just("{ a = 1 }"),
    st.just('[{ b = "x" }]'),
    st.just("1979-05-27T07:32:00Z"),
    st.just("3.5"),
    st.just('"https://x.example/v1?utm=1"'),
    st.just('"\\u3000sk-abc"'),
    # issue 26: numbers Python will not convert, nesting past any real config, terminal controls in strings
    st.integers(4200, 6000).map(lambda n: "9" * n),
    st.integers(1, 200).map(lambda n: "[" * n + "1" + "]" * n),
    st.integers(1, 200).map(lambda n: "{ a = " * n + "1" + " }" * n),
    st.sampled_from(
        [
            '"\\u001b]52;c;ZWNobyBoaQ==\\u0007"',
            '"\\u001b]0;title\\u0007x"',
            '"\\u009b31m"',
            '"\\u001b[2J\\u001bc"',
            '"\\u202egnp.exe"',
        ]
    ),
)
HOSTILE_LINES = st.one_of(
    st.integers(4200, 6000).map(
        lambda n: (
            '{"timestamp":"2026-11-30T00:00:01.000Z","type":"event_msg","payload":'
            '{"type":"token_count","info":{"total_token_usage":{"input_tokens":1,'
            '"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,'
            '"total_tokens":2},"last_token_usage":{"input_tokens":'
            + "7"
            * n
            + ',"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,'
            '"total_tokens":2},"model_context_window":9000}}}'
        ).encode()
    ),
    st.integers(1, 3000).map(lambda n: ("[" * n + "]" * n).encode()),
    st.sampled_from(["\x1b]52;c;ZWNobyBoaQ==\x07", "\x1b]0;t\x07", "\x9b2J", "\x1bP1$r\x1b\\", "\u202e"]).map(
        lambda esc: (
            '{"timestamp":"2026-11-30T00:00:00.000Z","type":"session_meta","payload":{"id":"x",'
            '"cli_version":' + __import__("json").dumps("0.171.0" + esc) + ',"model_provider":"p"}}'
        ).encode()
    ),
)


def run_cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def write(home: Path, data: bytes | str) -> None:
    path = home / ".codex" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))


@SETTINGS
@given(st.binary(max_size=400))
def test_random_bytes_as_config(home, capsys, data):
    write(home, data)
    code, out, err = run_cli(capsys, "check", "--offline", "--codex-version", "0.171.0")
    assert code in (0, 1)


@SETTINGS
@given(
    st.lists(st.tuples(st.sampled_from(KEYS), TOML_VALUES), max_size=8),
    st.lists(st.tuples(st.sampled_from(KEYS), TOML_VALUES), max_size=8),
)
def test_wrong_types_everywhere(home, capsys, top, provider):
    lines = [f"{k} = {v}" for k, v in dict(top).items() if k not in ("model_provider",)]
    lines += ['model_provider = "p"', "[model_providers.p]"] + [f"{k} = {v}" for k, v in dict(provider).items()]
    write(home, "\n".join(lines) + "\n")
    for args in (("check", "--offline", "--codex-version", "0.171.0"), ("config",), ("config", "--format", "json")):
        code, out, err = run_cli(capsys, *args)
        assert code in (0, 1)


@SETTINGS
@given(st.lists(st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode), HOSTILE_LINES), max_size=30))
def test_random_garbage_in_session_logs(home, capsys, lines):
    folder = home / ".codex" / "sessions" / "2026" / "11" / "30"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "rollout-2026-11-30T00-00-00-00000000-0000-0000-0000-000000000000.jsonl").write_bytes(b"\n".join(lines))
    for fmt in ("json", "text"):
        code, out, err = run_cli(capsys, "sessions", "--format", fmt, "-v")
        assert code in (0, 1)
        assert "\x1b" not in out + err and "\x9b" not in out + err


@SETTINGS
@given(
    st.one_of(
        st.text(min_size=1, max_size=300),
        st.sampled_from(["\x1b]52;c;ZWNobyBoaQ==\x07", "\x1b]0;t\x07", "\x9b2J", "\x1bPq\x1b\\", "9" * 5000]).map(
            lambda esc: "unexpected status 401 Unauthorized: " + esc
        ),
    )
)
def test_random_pasted_errors(home, capsys, text):
    code, out, err = run_cli(capsys, "diagnose-error", "--", text if text.strip() else "x" + text)
    assert code in ((0, 1, 2) if text == "-" else (0, 1))  # "-" reads stdin, which pytest makes unreadable
    assert "\x1b" not in out + err and "\x9b" not in out + err


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\xef\xbb\xbf" + TAOTOKEN.encode(),
        TAOTOKEN.replace("\n", "\r\n").encode(),
        TAOTOKEN.encode("utf-16"),
        b'model = "caf\xe9"\n',
        ("# " + "x" * 1000 + "\n").encode() * 10000,
        b'base_url = "C:\\Users\\me"\n',
        b"[model_providers.x]\n[model_providers.x]\n",
        b"model = \n",
        b"\x00\x01\x02",
    ],
)
def test_odd_config_files(home, capsys, content):
    write(home, content)
    code, out, err = run_cli(capsys, "check", "--offline", "--codex-version", "0.171.0")
    assert code in (0, 1)


def test_config_path_is_a_directory(home, capsys):
    (home / ".codex" / "config.toml").mkdir(parents=True)
    code, out, _ = run_cli(capsys, "check", "--offline")
    assert code == 1 and "CFG003" in out and "is a directory" in out


def test_unreadable_config(home, capsys, monkeypatch):
    write(home, TAOTOKEN)
    import os

    original = os.open

    def denied(path, *args, **kwargs):
        if str(path).endswith("config.toml"):
            raise PermissionError(13, "Permission denied")
        return original(path, *args, **kwargs)

    monkeypatch.setattr("codexdoctor.common.safefile.os.open", denied)
    code, out, _ = run_cli(capsys, "check", "--offline")
    assert code == 1 and "CFG003" in out and "Permission denied" in out


def test_codex_home_is_a_file(home, capsys, monkeypatch, tmp_path):
    f = tmp_path / "afile"
    f.write_text("x")
    monkeypatch.setenv("CODEX_HOME", str(f))
    for args in (("check", "--offline"), ("sessions",), ("config",)):
        code, out, err = run_cli(capsys, *args)
        assert code in (0, 1)
    assert "CFG014" in run_cli(capsys, "check", "--offline")[1]


def test_unreadable_sessions_directory(home, capsys, monkeypatch):
    sessions = home / ".codex" / "sessions"
    sessions.mkdir(parents=True)
    real_scandir = os.scandir

    def failing_scandir(path="."):
        if str(path).endswith("sessions"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", failing_scandir)
    code, out, _ = run_cli(capsys, "sessions", "--verbose")
    assert code == 0 and "Permission denied" in out
    monkeypatch.setattr(os, "scandir", real_scandir)


@pytest.mark.parametrize(
    "args",
    [
        ("sessions", "--since", "yesterday"),
        ("probe", "--budget", "-5"),
        ("check", "--timeout", "0"),
        ("diagnose-error", " "),
        ("sim", "--port", "99999"),
    ],
)
def test_bad_options_exit_2(home, capsys, args):
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and err.strip()
