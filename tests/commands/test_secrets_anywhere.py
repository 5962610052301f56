"""No piece of a known secret, from anywhere in it, split, percent-encoded or JSON-escaped, and no credential of
anyone else's, reaches any output (issue 36, items 1 and 3)."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

import pytest

from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.common.redact import Redactor
from codexdoctor.report.render import FORMATS, RenderOptions, render
from tests.conftest import write_config

# No known prefix, 44 characters: only the run's own secret list can catch a piece of it.
KEY = "Zq9Xw2Ev4Rt6Yu8Io1Pa3Sd5Fg7Hj9Kl2Zx4Cv6Bn8Mq"
PIECE = 8


def decoded(text: str) -> str:
    """The output with percent escapes and JSON \\u escapes undone, so an encoded run is seen as what it spells."""
    text = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)
    return unquote(text)


def longest_common(secret: str, text: str) -> int:
    """The length of the longest run of `secret` that appears in `text` (0 when none)."""
    best = 0
    for size in range(1, len(secret) + 1):
        if any(secret[i : i + size] in text for i in range(len(secret) - size + 1)):
            best = size
        else:
            break
    return best


def assert_no_piece(text: str, secret: str = KEY) -> None:
    for view in (text, decoded(text), text.replace("\\/", "/")):
        assert longest_common(secret, view) < PIECE, (longest_common(secret, view), view[:400])


# The forms a server, a log or a paste can echo a key in.
FORMS = {
    "split by spaces": lambda k: f"{k[:10]} {k[10:26]} {k[26:]}",
    "split by newlines": lambda k: f"{k[:10]}\n{k[10:26]}\n{k[26:]}",
    "a middle piece alone": lambda k: k[12:30],
    "an 8-character middle piece": lambda k: k[17:25],
    "percent-encoded": lambda k: "".join(f"%{ord(c):02X}" for c in k),
    "percent-encoded, lower case": lambda k: "".join(f"%{ord(c):02x}" for c in k[5:30]),
    "JSON \\u escapes": lambda k: "".join(f"\\u{ord(c):04x}" for c in k[3:40]),
    "half escaped": lambda k: k[:6] + "".join(f"%{ord(c):02X}" for c in k[6:16]) + k[16:30],
}


# ---- the redactor itself: every start, every length, every form ---------------------------------------------------


def test_a_run_of_eight_from_anywhere_in_the_key_is_redacted():
    r = Redactor([KEY])
    for start in range(len(KEY) - PIECE + 1):
        for end in range(start + PIECE, len(KEY) + 1):
            out = r(f"Incorrect API key provided: {KEY[start:end]}.")
            assert longest_common(KEY, out) < PIECE, (start, end, out)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_every_form_of_the_key_is_redacted(form):
    r = Redactor([KEY])
    echoed = FORMS[form](KEY)
    for around in ("{}", "message: {} (rejected)", '{{"error":{{"message":"{}"}}}}', "key={}&x=1"):
        assert_no_piece(r(around.format(echoed)))


def test_a_header_value_and_a_url_secret_are_looked_for_in_pieces_too():
    header = "X-Org-Token 7hQ2mZ9vL4kP1sR8"
    url_secret = "pw-Qx81Lm29Zt47"
    r = Redactor([header, url_secret])
    out = r(f"upstream said: 7hQ2mZ9vL4kP and {url_secret[2:]}")
    assert longest_common("7hQ2mZ9vL4kP1sR8", out) < PIECE and longest_common(url_secret, out) < PIECE


def test_plain_words_next_to_a_secret_stay_readable():
    r = Redactor([KEY, "application/json"])
    out = r(f"Incorrect API key provided: {KEY[:10]} {KEY[10:26]}. content-type: application/x-ndjson")
    assert out.startswith("Incorrect API key provided: <redacted ") and "application/x-ndjson" in out


# ---- live: a server that echoes the key in each form, through every format, both languages, and the ticket -------


class _Echo(BaseHTTPRequestHandler):
    form = "split by spaces"

    def log_message(self, *args):  # quiet
        pass

    def _answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        message = "Incorrect API key provided: " + FORMS[type(self).form](KEY)
        body = json.dumps({"error": {"message": message, "type": "invalid_request_error"}})
        if "escapes" in type(self).form:
            body = body.replace("\\\\u", "\\u")  # the server writes the escapes themselves, not escaped backslashes
        data = body.encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_HEAD = _answer


@pytest.fixture
def echo_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)  # shutdown() waits a poll
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _config(home: Path, port: int) -> None:
    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        f'base_url = "http://127.0.0.1:{port}/v1"\nenv_key = "GW_API_KEY"\n',
    )


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_server_echoing_the_key_in_any_form_leaks_no_piece(home, echo_server, form, monkeypatch):
    monkeypatch.setattr(_Echo, "form", form)
    _config(home, echo_server.server_address[1])
    for lang in ("en", "zh"):
        opts = CheckOptions(
            env={"HOME": str(home), "GW_API_KEY": KEY},
            home=home,
            cwd=Path.cwd(),
            offline=False,
            system_config=None,
            codex_version=(0, 171, 0),
            timeout=10.0,
            lang=lang,
        )
        report, ctx = run_check(opts)
        assert any(f.code.startswith("AUTH") for f in report.findings), [f.code for f in report.findings]
        for fmt in FORMATS:
            for verbose in (False, True):
                out = ctx.redactor(render(report, fmt, RenderOptions(verbose=verbose, width=80)))
                assert_no_piece(out)


@pytest.mark.parametrize("form", ["split by spaces", "percent-encoded", "JSON \\u escapes"])
def test_the_ticket_and_its_side_files_carry_no_piece(home, echo_server, form, monkeypatch, tmp_path, run):
    """The real entry point in this process (a `python -m codexdoctor` per run cost 0.8 s of CPU, the tokenizer
    loaded each time: issue 37), with the environment a user's shell gives it: the key, a plain PATH."""
    monkeypatch.setattr(_Echo, "form", form)
    _config(home, echo_server.server_address[1])
    out_dir = tmp_path / "ticket"
    out_dir.mkdir()
    monkeypatch.setenv("GW_API_KEY", KEY)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.chdir(out_dir)
    for lang in ("en", "zh"):
        for fmt in ("markdown", "json"):
            target = out_dir / f"t-{lang}.{'json' if fmt == 'json' else 'md'}"
            code, out, err = run("report", "--lang", lang, "--format", fmt, "-o", str(target))
            assert code in (0, 1), err
            assert_no_piece(out + err)
    files = list(out_dir.iterdir())
    assert any(f.name.endswith(".request.json") for f in files), files
    for f in files:
        assert_no_piece(f.read_text(encoding="utf-8"))


# ---- other people's credentials (item 3) ---------------------------------------------------------------------------

# The twelve shapes the attack run found in session logs, and more of each family. Made-up values of the real shapes.
CREDENTIALS = {
    "AWS access key id": "AKIAQ3EGTWZ7XK5M2LPA",
    "AWS secret access key": "AWS_SECRET_ACCESS_KEY=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",
    "GitHub OAuth token": "gho_16C7e42F292c6912E7710c838347Ae178B4a",
    "GitHub personal token": "ghp_Zq9Xw2Ev4Rt6Yu8Io1Pa3Sd5Fg7Hj9Kl2Zx4C",
    "GitHub fine-grained token": "github_pat_11ABCDE2Y0aBcDeFgHiJkL_mNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuV",
    "Slack bot token": "xoxb-2184736510-4829175036219-Qx7mZ2kP9vL4sR8tW1nY6cB3",
    "Google API key": "AIzaSyB3x9Qm2Zt7Lk4Pv8Rs1Nw6Yc5Hd0Jf2Ga",
    "Hugging Face token": "hf_QmZtLkPvRsNwYcHdJfGaBxCeDiEoFuGyHzIa",
    "postgres URL password": "postgres://app:S3cr3t-Pa55w0rd@db.internal:5432/prod",
    "Basic value": "Authorization: Basic YXBwOlMzY3IzdC1QYTU1dzByZA==",
    "MYSQL_PWD": "MYSQL_PWD=hunter2hunter2",
    "Bearer with + / =": "Authorization: Bearer ab+cd/ef=gh12+IJ/kl==",
    "Anthropic key": "sk-ant-api03-Qx7mZ2kP9vL4sR8tW1nY6cB3Qx7mZ2kP9vL4sR8tW1nY6cB3",
    "JSON password": '{"db_password": "Tr0ub4dor&3xyz"}',
    "private key block": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----",
    "redis URL": "redis://:Qx7mZ2kP9vL4@cache.internal:6379/0",
    "JWT": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
}
SECRET_PARTS = {
    "AWS secret access key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYQ7t2LmZk9v",
    "postgres URL password": "S3cr3t-Pa55w0rd",
    "Basic value": "YXBwOlMzY3IzdC1QYTU1dzByZA==",
    "MYSQL_PWD": "hunter2hunter2",
    "Bearer with + / =": "ab+cd/ef=gh12+IJ/kl==",
    "JSON password": "Tr0ub4dor&3xyz",
    "private key block": "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ",
    "redis URL": "Qx7mZ2kP9vL4",
}


def _secret_of(name: str) -> str:
    return SECRET_PARTS.get(name, CREDENTIALS[name])


@pytest.mark.parametrize("name", sorted(CREDENTIALS))
def test_the_scanner_masks_every_family(name):
    out = Redactor([])(f"$ env\n{CREDENTIALS[name]}\nHOME=/home/u")
    secret = _secret_of(name)
    assert longest_common(secret, out) < PIECE, out
    assert "HOME=/home/u" in out  # what is no credential stays as it was


@pytest.mark.parametrize(
    "text",
    [
        'env_key = "TAOTOKEN_API_KEY"',
        "max_tokens: 16, input_tokens=8483, first token: 1,234 ms",
        "Key: set, 38 chars, sha256:1a2b3c4d",
        "model_auto_compact_token_limit = 8300",
        "api_key = <your key>",
        "token = ${GW_TOKEN}",
        "Bearer authentication is required",
        "a basic question about tokens",
        "https://gw.example/v1?utm_source=blog",
        "ssh://git@github.com/openai/codex",
        'export TAOTOKEN_API_KEY="${TAOTOKEN_API_KEY#Bearer }"',
        '{"key": "requires_openai_auth", "value": "false"}',
        "api_key=$(cat ~/.config/gw/key.txt)",
    ],
)
def test_the_scanner_leaves_what_a_report_must_show(text):
    assert Redactor([])(text) == text


def _rollout(path: Path, error: str) -> None:
    lines = [
        {
            "timestamp": "2026-11-01T00:00:00Z",
            "type": "session_meta",
            "payload": {"id": "0199aaaa-0000-7000-8000-000000000001", "cli_version": "0.171.0", "model_provider": "gw"},
        },
        {"timestamp": "2026-11-01T00:00:00Z", "type": "turn_context", "payload": {"model": "m"}},
        {"timestamp": "2026-11-01T00:00:01Z", "type": "event_msg", "payload": {"type": "task_started"}},
        {"timestamp": "2026-11-01T00:00:01Z", "type": "event_msg", "payload": {"type": "user_message", "message": "x"}},
        {
            "timestamp": "2026-11-01T00:00:02Z",
            "type": "event_msg",
            "payload": {"type": "task_complete", "error": {"message": error}},
        },
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")


def test_credentials_echoed_in_a_session_log_reach_neither_sessions_nor_the_ticket(home, run, tmp_path):
    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/v1"\nenv_key = "GW_API_KEY"\n',
    )
    printed = " ; ".join(CREDENTIALS.values())
    target = home / ".codex" / "sessions" / "2026" / "11" / "01" / "rollout-2026-11-01T00-00-00-0199aaaa.jsonl"
    _rollout(target, "unexpected status 500 Internal Server Error: tool printed: " + printed)
    ticket = tmp_path / "ticket.md"
    outputs = []
    for lang in ("en", "zh"):
        for fmt in ("text", "markdown", "json"):
            code, out, err = run("sessions", "-v", "--format", fmt, "--lang", lang)
            outputs.append(out + err)
        code, out, err = run("report", "--offline", "--lang", lang, "-o", str(ticket))
        outputs.append(out + err + ticket.read_text(encoding="utf-8"))
    assert any("tool printed" in o for o in outputs)  # the error line is shown, its credentials are not
    for out in outputs:
        for name in CREDENTIALS:
            assert longest_common(_secret_of(name), out) < PIECE, (name, out[:300])
