"""Hostile files: a FIFO, device, socket or bomb where a config, auth.json, rollout or log is expected is a
finding (or a skipped line), never a hang and never exit 3."""

import os
import socket
import time

import pytest

from codexdoctor.common import safefile
from tests.conftest import TAOTOKEN, offline_report, write_config
from tests.timing import HANG_S

KEY = "sk-tt-0123456789abcdefghijklmnopqrstuv"


def codes(report):
    return [f.code for f in report.findings]


@pytest.mark.parametrize("make", ["fifo", "devzero", "socket", "loop"])
def test_config_that_is_not_a_file_is_cfg003(home, make):
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    if make == "fifo":
        os.mkfifo(path)
    elif make == "devzero":
        path.symlink_to("/dev/zero")
    elif make == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
    else:
        (home / ".codex" / "a").symlink_to(home / ".codex" / "b")
        (home / ".codex" / "b").symlink_to(home / ".codex" / "a")
        path.symlink_to(home / ".codex" / "a")
    started = time.perf_counter()
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert time.perf_counter() - started < HANG_S  # a FIFO nobody writes, or /dev/zero, read: it would never end
    assert codes(report)[:1] == ["CFG003"]
    reason = report.findings[0].diagnosis
    assert {"fifo": "named pipe", "devzero": "device", "socket": "socket", "loop": "symlink loop"}[make] in reason


def test_fifo_auth_json_is_reported_not_read(home):
    write_config(home, 'model = "gpt-5"\n')
    os.mkfifo(home / ".codex" / "auth.json")
    report = offline_report(home)
    assert "ENV014" in codes(report) or "ENV012" in codes(report)
    assert report.verdict.value == "config"


def test_oversized_config_is_refused(home):
    write_config(home, TAOTOKEN + "# " + "x" * (safefile.CONFIG_MAX + 10) + "\n")
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert codes(report) == ["CFG003"] and "larger than" in report.findings[0].diagnosis


@pytest.mark.parametrize(
    "text",
    [
        "a = " + "[" * 3000 + "]" * 3000 + "\n",
        ".".join(["k"] * 20000) + " = 1\n",
        "a = [[1, [2, [3]]], {x = 1}]\nb = {c = {d = {e = 1}}}\n" + TAOTOKEN,
    ],
)
def test_nesting_is_a_finding_not_a_crash(home, text):
    write_config(home, text)
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert report.verdict.value in ("config", "inconclusive")
    if "[[1" not in text:
        assert codes(report) == ["CFG002"] and ":None" not in report.findings[0].diagnosis


def test_pathological_configs_are_checked_without_a_quadratic(home):
    for text in (
        "\n".join(f"u{i} = 1" for i in range(100_000)),
        'model_provider = "p"\n[model_providers.p]\nname = "p"\nbase_url = "http://h/v1"\n'
        + "\n".join(f"modle_{i} = 1" for i in range(60_000)),
    ):
        write_config(home, text)
        started = time.perf_counter()
        report = offline_report(home)
        # Measured ~0.6 s; a quadratic on 100,000 keys takes many minutes. (Not timed against a smaller size: with a
        # few thousand misspelled keys each gets a did-you-mean, which costs more than 60,000 that are capped.)
        assert time.perf_counter() - started < HANG_S
        assert len([f for f in report.findings if f.code == "CFG008"]) <= 500


def test_unreadable_project_folder_and_symlink_loop_in_project(home, tmp_path, monkeypatch):
    write_config(home, TAOTOKEN)
    project = tmp_path / "proj"
    (project / ".codex").mkdir(parents=True)
    (project / ".codex" / "config.toml").symlink_to(project / ".codex" / "config.toml")
    monkeypatch.chdir(project)
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert report.verdict.value in ("config", "inconclusive", "ok")


def test_rollout_fifo_and_json_bomb_are_skipped_and_other_sessions_still_report(home, tmp_path):
    from codexdoctor.commands.sessions import run_sessions
    from tests.rollout_factory import RolloutWriter

    root = tmp_path / "sessions"
    good = RolloutWriter(root)
    good.turn(10000)
    good.close()
    day = root / "2026" / "11" / "21"
    day.mkdir(parents=True)
    os.mkfifo(day / "rollout-2026-11-21T00-00-00-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee.jsonl")
    (day / "rollout-2026-11-21T01-00-00-bbbbbbbb-bbbb-cccc-dddd-eeeeeeeeeeee.jsonl").write_text(
        '{"a":' * 100_000 + "1" + "}" * 100_000 + "\n"
    )
    started = time.perf_counter()
    report, _ = run_sessions({"HOME": str(home)}, home, (root,), None, None, None, False)
    assert time.perf_counter() - started < HANG_S  # a FIFO nobody writes, opened: it would never end
    sessions = report.checks[0].facts["sessions"]
    assert len(sessions) == 3
    assert any(d["read_error"] and "named pipe" in d["read_error"] for d in sessions)
    assert any(d["bad_lines"] == 1 for d in sessions)


def test_fifo_log_is_not_opened(tmp_path):
    from codexdoctor.codex.tui_log import read_tui_log

    os.mkfifo(tmp_path / "codex-tui.log")
    problems = []
    assert read_tui_log(tmp_path / "codex-tui.log", problems) == [] and "named pipe" in problems[0]


@pytest.mark.parametrize("fmt", ["json", "text", "markdown", "junit", "github"])
def test_a_token_count_beyond_64_bits_is_reported_in_every_format(home, tmp_path, fmt):
    """A corrupt log's 20-digit token count once crashed the JSON writer (orjson stops at 64 bits): every format
    now writes the number as read."""
    from codexdoctor.commands.sessions import run_sessions
    from codexdoctor.report.render import render
    from tests.rollout_factory import RolloutWriter

    root = tmp_path / "sessions"
    w = RolloutWriter(root)
    w.turn(10000)
    w.raw(
        '{"timestamp":"2026-11-20T09:00:05.000Z","type":"event_msg","payload":{"type":"token_count","info":'
        '{"total_token_usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,'
        '"total_tokens":2},"last_token_usage":{"input_tokens":123456789012345678901,"cached_input_tokens":0,'
        '"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":2},"model_context_window":9000}}\n'
    )
    w.close()
    report, _ = run_sessions({"HOME": str(home)}, home, (root,), None, None, None, False)
    out = render(report, fmt)
    assert report.checks[0].facts["sessions"][0]["peak"] == 123456789012345678901
    if fmt == "json":
        import json

        assert json.loads(out)["checks"][0]["facts"]["sessions"][0]["peak"] == 123456789012345678901


def test_wrong_types_and_undecodable_timestamps_in_a_log_are_not_a_crash(home, tmp_path, monkeypatch):
    """Found by fuzzing real 0.171 rollouts: an id, start or model that is a number, a list or an object, and a
    token_count whose timestamp is not valid UTF-8, crashed `sessions` (sorting, hashing, slicing, decoding).
    Only strings are taken from a log; a timestamp JSON would have to decode goes through the full parse."""
    from codexdoctor.commands.sessions import run_sessions
    from codexdoctor.report.render import render

    usage = (
        b'"info":{"total_token_usage":{"input_tokens":5,"cached_input_tokens":1,"output_tokens":2,'
        b'"reasoning_output_tokens":0,"total_tokens":7},"last_token_usage":{"input_tokens":%d,"cached_input_tokens":1,'
        b'"output_tokens":2,"reasoning_output_tokens":0,"total_tokens":7},"model_context_window":9000}}}\n'
    )
    day = tmp_path / "sessions" / "2026" / "11" / "20"
    day.mkdir(parents=True)
    for i, (meta, ts) in enumerate(
        [
            (b'{"id":5,"timestamp":1.5,"cli_version":["0.171.0"],"model_provider":{"a":1}}', b"\xed\xa0\x80"),
            (b'{"id":[1],"timestamp":{"t":1},"cli_version":null}', b"2026-11-20T09:00:0\\u0031Z"),
            (b'{"id":{"x":1},"timestamp":true}', b"2026-11-20\xff"),
        ]
    ):
        (day / f"rollout-2026-11-20T09-00-0{i}-0000000{i}-0000-0000-0000-00000000000{i}.jsonl").write_bytes(
            b'{"timestamp":"2026-11-20T09:00:00.000Z","type":"session_meta","payload":' + meta + b"}\n"
            b'{"timestamp":"2026-11-20T09:00:01.000Z","type":"turn_context","payload":{"model":{"name":"m"}}}\n'
            b'{"timestamp":"' + ts + b'","type":"event_msg","payload":{"type":"token_count",' + usage % (1000 * (i + 1))
        )
    report, _ = run_sessions({"HOME": str(home)}, home, (tmp_path / "sessions",), None, None, None, True)
    for fmt in ("json", "text", "markdown", "junit", "github"):
        assert render(report, fmt)
    found = report.checks[0].facts["sessions"]
    assert len(found) == 3 and all(isinstance(d["id"], str) and d["model"] is None for d in found)
    assert all(d["start"] is None or isinstance(d["start"], str) for d in found)
    assert sorted(d["peak"] for d in found) == [1000, 2000, 3000]  # every token count still read, by whichever path
    assert (
        sum(d["decode_errors"] for d in found) == 2
    )  # the two undecodable timestamps, counted as the parse counts them


def test_wrong_types_in_a_re_serialised_log_are_not_a_crash(tmp_path):
    """The line-by-line path (a log not in Codex's compact form) looked a list-valued "type" up in a set: found by
    the fuzzer after that path was rewritten, exit 3. Such a line is skipped; the others are still read."""
    from codexdoctor.checks.sessions import classify_session
    from codexdoctor.codex.rollouts import read_session

    path = tmp_path / "rollout-2026-11-20T09-00-00-00000000-0000-0000-0000-000000000009.jsonl"
    path.write_text(
        '{"timestamp": "2026-11-20T09:00:00.000Z", "type": ["session_meta"], "payload": {"id": "x"}}\n'
        '{"timestamp": "2026-11-20T09:00:01.000Z", "type": "event_msg", "payload": {"type": {"a": 1}}}\n'
        '{"timestamp": "2026-11-20T09:00:02.000Z", "type": "event_msg", "payload": {"type": "task_started", '
        '"model_context_window": 9000}}\n',
        encoding="utf-8",
    )
    session = read_session(path)
    assert len(session.turns) == 1 and session.window == 9000 and session.skipped_items == 2
    assert classify_session(session)["kind"] == "none"


# ---- issue 26 (3): shell start-up files go through the same safe reader -----------------------------------------


def _missing_key_config(home):
    from tests.conftest import write_config

    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/v1"\nenv_key = "GW_API_KEY"\n',
    )


@pytest.mark.parametrize("kind", ["fifo", "device", "huge"])
def test_an_rc_file_that_is_not_a_file_is_skipped_with_a_note(home, run, kind):
    import os
    import time

    _missing_key_config(home)
    rc = home / ".bashrc"
    if kind == "fifo":
        os.mkfifo(rc)
    elif kind == "device":
        rc.symlink_to("/dev/zero")
    else:
        with open(rc, "wb") as handle:  # sparse: 2 GB on paper, nothing on disk
            handle.truncate(2 << 30)
    started = time.monotonic()
    for args in (
        ("check", "--offline", "-v"),
        ("fix", "--dry-run"),
        ("diagnose-error", "Missing environment variable: `GW_API_KEY`."),
    ):
        code, out, err = run(*args)
        assert code in (0, 1), (args, err)
        assert "Traceback" not in err and "internal error" not in err
    assert time.monotonic() - started < HANG_S  # a FIFO, /dev/zero or 2 GB read: never, or minutes
    code, out, err = run("check", "--offline", "-v")
    assert "~/.bashrc not read:" in out


# ---- issue 26 (5, 6): TOML that would cost minutes and gigabytes, numbers Python refuses ------------------------


def refuse_to_parse(monkeypatch):
    """The TOML reader fails the test if it is ever called: what is refused before parsing never reaches it (this
    says so whatever the machine's speed; timing it said so only on a fast one)."""
    from codexdoctor.codex import tomlsource

    class NoReader:
        TOMLDecodeError = tomlsource.TOMLDecodeError

        @staticmethod
        def loads(text):
            raise AssertionError(f"parsed, not refused before parsing: {text[:60]!r}")

    monkeypatch.setattr(tomlsource, "tomllib", NoReader)


@pytest.mark.parametrize(
    "text, line",
    [
        (".".join(["k"] * 20_000) + " = 1\n", 1),
        ('model = "m"\n' + ".".join(["k"] * 100_000) + " = 1\n", 2),
        ("[" + ".".join(["t"] * 50_000) + "]\nx = 1\n", 1),
        ('model = "m"\n\na = ' + "{ b = " * 5000 + "1" + " }" * 5000 + "\n", 3),
        ('# "quotes in a comment [[[\n' + "a = " + "[" * 70 + "]" * 70 + "\n", 2),
    ],
)
def test_deep_toml_is_refused_before_parsing_with_its_line(home, text, line, monkeypatch):
    refuse_to_parse(monkeypatch)  # refused before the TOML reader runs, where such text costs minutes and gigabytes
    write_config(home, text)
    report = offline_report(home)
    assert codes(report) == ["CFG002"]
    assert (
        f"config.toml:{line}:" in report.findings[0].diagnosis and "nested more than 64" in report.findings[0].diagnosis
    )


def test_real_nesting_and_dotted_keys_still_parse(home):
    from codexdoctor.codex.tomlsource import prescan

    real = (
        TAOTOKEN + 'a.b.c.d = 1\nx = [[1, [2, [3]]], {y = {z = 1.5}}]\n[profiles.work.nested]\nv = "a.b[c]{d}"\n'
        "t = '''\n[[not.a.table]]\n'''\n[[arr.of.tables]]\nw = 1979-05-27T07:32:00Z\n"
    )
    assert prescan(real) is None
    write_config(home, real)
    assert "CFG002" not in codes(offline_report(home))


def test_too_many_keys_is_refused(home):
    from codexdoctor.codex.tomlsource import KEYS_MAX, prescan

    problem = prescan("\n".join(f"k{i} = 1" for i in range(KEYS_MAX + 5)))
    assert problem is not None and problem.line == KEYS_MAX + 1 and problem.column == 8  # "k50000 = 1": its `=`


def test_a_5000_digit_integer_is_a_finding_not_exit_3(home, run):
    write_config(home, 'model = "m"\nmodel_context_window = ' + "9" * 5000 + "\n")
    code, out, err = run("check", "--offline")
    assert code == 1 and "CFG002" in out and "config.toml:2:24" in out and "4,300 digits" in out
    code, out, err = run("check", "--offline", "-c", "model_context_window=" + "9" * 5000)
    assert code in (0, 1) and "internal error" not in err


# ---- issue 36 (5): `-c` overrides have a config file's limits ----------------------------------------------------


@pytest.mark.parametrize(
    "overrides",
    [
        (".".join(f"k{i}" for i in range(500)) + "=1",),  # RecursionError in copy.deepcopy, exit 3, before
        ("a=" + "[" * 100 + "]" * 100,),
        ("a.b=" + "{ c = " * 70 + "1" + " }" * 70,),
        ("a={ " + ".".join(["k"] * 20_000) + " = 1 }",),  # quadratic in the TOML reader: refused before parsing
        tuple(f"t{n}={{{', '.join(f'k{i} = 1' for i in range(13_000))}}}" for n in range(4)),  # 52,000 keys in all
    ],
)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_deep_or_huge_overrides_are_a_usage_error(home, run, overrides, lang, monkeypatch):
    args = [a for o in overrides for a in ("-c", o)]
    if len(overrides) == 1:  # one override past a limit is refused before it is read; four of 13,000 keys are read
        refuse_to_parse(monkeypatch)
    code, out, err = run("check", "--offline", "--lang", lang, *args)
    assert code == 2 and out == "" and "Traceback" not in err and "internal error" not in err, err
    assert len(err) < 300  # the key is shown by its start, not whole
    if lang == "zh":
        assert err.startswith("错误：无效的 -c 覆盖") and ("嵌套超过 64 层" in err or "键和表超过 50,000 个" in err), (
            err
        )
    else:
        assert err.startswith("Error: Invalid override") and ("nested more than 64" in err or "50,000 keys" in err)


def test_real_overrides_within_the_limits_still_apply(home, run):
    write_config(home, TAOTOKEN)
    deep = ".".join(f"k{i}" for i in range(60))
    code, out, err = run(
        "config", "--format", "json", "-c", f"{deep}=1", "-c", 'model="m2"', "-c", "x=[[1, [2]], {y = 1}]"
    )
    assert code == 0, err
    assert '"m2"' in out


def test_a_5000_digit_number_in_a_rollout_is_a_skipped_line(home, run, monkeypatch):
    """Every reader path: the regex scan and the per-line fast path."""

    folder = home / ".codex" / "sessions" / "2026" / "11" / "30"
    folder.mkdir(parents=True)
    big = "9" * 5000
    lines = [
        '{"timestamp":"2026-11-30T00:00:00.000Z","type":"session_meta","payload":{"id":"s1","cli_version":"0.171.0"}}',
        '{"timestamp":"2026-11-30T00:00:01.000Z","type":"event_msg","payload":{"type":"task_started",'
        f'"model_context_window":{big}}}}}',
        '{"timestamp":"2026-11-30T00:00:01.000Z","type":"event_msg","payload":{"type":"token_count","info":'
        '{"total_token_usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,'
        f'"total_tokens":2}},"last_token_usage":{{"input_tokens":{big},"cached_input_tokens":0,"output_tokens":1,'
        f'"reasoning_output_tokens":0,"total_tokens":2}},"model_context_window":{big}}}}}}}',
    ]
    (folder / "rollout-2026-11-30T00-00-00-s1.jsonl").write_text("\n".join(lines) + "\n")
    for _ in range(1):
        code, out, err = run("sessions", "-v")
        assert code in (0, 1) and "internal error" not in err, err
        assert "unreadable line" in out
