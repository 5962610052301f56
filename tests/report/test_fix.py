"""`codexdoctor fix`: certain edits only, everything else byte-identical, backup, atomic write, re-check."""

import os
from pathlib import Path

import pytest

from tests.conftest import write_config

KEY = "sk-fix-0123456789abcdefghij"
MESSY = """# My Codex setup -- comments and odd formatting must survive
model = "gpt-5"          # the model I use
model_provider="taotoken"   # no spaces around '='

# the gateway, configured from a blog post
[model_providers.taotoken]   # trailing comment on a header
name = "TaoToken"
  {base_line}  # copied from the site
env_key = "TAOTOKEN_API_KEY"
{wire_line}    # per the guide
http_headers = {{ "X-Team" = "blue" }}

[profiles.fast]   # another table
model = "gpt-5-mini"
"""


def messy(base_line='base_url = "https://taotoken.net/api"', wire_line='wire_api = "responses"'):
    return MESSY.format(base_line=base_line, wire_line=wire_line)


def run_fix(run, *args):
    return run("fix", "--offline", "--codex-version", "0.171.0", *args)


def changed_lines(before, after):
    b, a = before.splitlines(), after.splitlines()
    assert len(b) == len(a), "lines were added or removed"
    return [(x, y) for x, y in zip(b, a) if x != y]


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv("TAOTOKEN_API_KEY", KEY)


def backups(home):
    return sorted((home / ".codex").glob("config.toml.bak-*"))


@pytest.mark.parametrize(
    "base_line,wire_line,expect,codes",
    [
        (
            'baseURL   = "https://taotoken.net/api"',
            'wire_api = "responses"',
            [('baseURL   = "https://taotoken.net/api"', 'base_url   = "https://taotoken.net/api"')],
            ["CFG006"],
        ),
        (
            'base_url = "https://taotoken.net/api?utm_source=taotoken_aicg_blog_end"',
            'wire_api = "responses"',
            [
                (
                    'base_url = "https://taotoken.net/api?utm_source=taotoken_aicg_blog_end"',
                    'base_url = "https://taotoken.net/api"',
                )
            ],
            ["URL004"],
        ),
        (
            'base_url = "https://taotoken.net/api/responses"',
            'wire_api = "responses"',
            [('base_url = "https://taotoken.net/api/responses"', 'base_url = "https://taotoken.net/api"')],
            ["URL005"],
        ),
        (
            'base_url = " https://taotoken.net/api "',
            'wire_api = "responses"',
            [('base_url = " https://taotoken.net/api "', 'base_url = "https://taotoken.net/api"')],
            ["URL002"],
        ),
        (
            'base_url = "https://me:pw123456@taotoken.net/api"',
            'wire_api = "responses"',
            [('base_url = "https://me:pw123456@taotoken.net/api"', 'base_url = "https://taotoken.net/api"')],
            ["URL006"],
        ),
        (
            'base_url = "https://taotoken.net/api"',
            "wire_api = 'chat'",
            [("wire_api = 'chat'", 'wire_api = "responses"')],
            ["CFG011"],
        ),
        (
            'base_url = "https://taotoken.net/api"',
            'wireApi = "responses"',
            [('wireApi = "responses"', 'wire_api = "responses"')],
            ["CFG008"],
        ),
    ],
)
def test_each_static_fix_changes_only_its_line(home, run, key, base_line, wire_line, expect, codes):
    path = write_config(home, messy(base_line, wire_line))
    original = path.read_bytes()
    code, out, err = run_fix(run, "--yes")
    assert code == 0, out + err
    after = path.read_text()
    diffs = changed_lines(original.decode(), after)
    assert [(b.split("#")[0].strip(), a.split("#")[0].strip()) for b, a in diffs] == expect
    for _, line in diffs:
        assert "#" in line or line.strip().startswith(("wire_api", "base_url"))  # trailing comments kept
    assert backups(home)[0].read_bytes() == original  # byte-for-byte backup
    recheck = run("check", "--offline", "--codex-version", "0.171.0")[1]
    for c in codes:
        assert c not in recheck


def test_seed_style_config_is_fixed_in_one_run(home, run, key):
    path = write_config(
        home, messy('baseURL = "https://taotoken.net/api?utm_source=taotoken_aicg_blog_end"', 'wire_api = "chat"')
    )
    code, out, _ = run_fix(run, "--yes")
    assert code == 0
    text = path.read_text()
    assert 'base_url = "https://taotoken.net/api"  # copied from the site' in text
    assert 'wire_api = "responses"    # per the guide' in text
    assert "Fixed: CFG006, CFG011, URL004" in out
    import tomllib

    data = tomllib.loads(text)
    assert data["model_providers"]["taotoken"]["http_headers"] == {"X-Team": "blue"}
    assert data["profiles"]["fast"]["model"] == "gpt-5-mini"


def test_dry_run_and_no_terminal_change_nothing(home, run, key):
    path = write_config(home, messy(wire_line='wire_api = "chat"'))
    original = path.read_bytes()
    code, out, _ = run_fix(run, "--dry-run")
    # edits pending: exit 1, as --fail-on reads it (issue 28), so CI can gate on `fix --dry-run`
    assert code == 1 and '+wire_api = "responses"' in out and path.read_bytes() == original
    assert run_fix(run, "--dry-run", "--fail-on", "never")[0] == 0
    code, out, err = run_fix(run)
    assert code == 2 and "--yes" in err and path.read_bytes() == original and not backups(home)


def test_only_limits_the_edits(home, run, key):
    path = write_config(home, messy('baseURL = "https://taotoken.net/api?utm_source=x12345678"', 'wire_api = "chat"'))
    run_fix(run, "--yes", "--only", "CFG011")
    text = path.read_text()
    assert 'wire_api = "responses"' in text and "baseURL" in text


def test_env_findings_print_commands_and_touch_no_file(home, run, monkeypatch):
    write_config(home, messy())
    monkeypatch.setenv("TAOTOKEN_KEY", KEY)
    rc = home / ".bashrc"
    rc.write_text("# nothing\n")
    code, out, _ = run_fix(run, "--yes")
    assert "ENV003" in out and 'export TAOTOKEN_API_KEY="$TAOTOKEN_KEY"' in out and "never edits shell files" in out
    assert rc.read_text() == "# nothing\n" and not backups(home)


def test_failure_mid_write_leaves_the_original(home, run, key, monkeypatch):
    path = write_config(home, messy(wire_line='wire_api = "chat"'))
    original = path.read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    code, out, err = run_fix(run, "--yes")
    assert code == 2 and "No space left" in err
    assert path.read_bytes() == original
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]  # no temp file left behind


def test_refuses_when_the_file_changed_since_read(home, key, tmp_path):
    from codexdoctor.report import fixwrite as fix

    path = write_config(home, messy(wire_line='wire_api = "chat"'))
    original = path.read_bytes()
    path.write_text(messy(wire_line='wire_api = "chat"') + "# edited meanwhile\n")
    with pytest.raises(fix.FixError, match="changed since"):
        fix.write_atomic(path, original, "model = 'x'\n", [])
    assert path.read_text().endswith("# edited meanwhile\n")


def test_never_writes_a_secret(home, key):
    from codexdoctor.report import fixwrite as fix

    path = write_config(home, messy())
    with pytest.raises(fix.FixError, match="secret"):
        fix.write_atomic(path, path.read_bytes(), messy() + f'note = "{KEY}"\n', [KEY])


def test_permissions_are_kept(home, run, key):
    path = write_config(home, messy(wire_line='wire_api = "chat"'))
    os.chmod(path, 0o600)
    run_fix(run, "--yes")
    assert (path.stat().st_mode & 0o777) == 0o600 and (backups(home)[0].stat().st_mode & 0o777) == 0o600


def test_edit_that_would_change_more_is_refused():
    from codexdoctor.report import fixtext as fix

    before = "a = 1\n[t]\nb = 2\n"
    with pytest.raises(fix.FixError, match="more than the intended"):
        fix.verify(before, "a = 2\n[t]\nb = 3\n", [fix.Edit("X", Path("f"), "f", ("t",), "b", "set", 3)])


def test_live_fixes_api001_model002_ctx001_in_one_run(home, run, sim_server, monkeypatch):
    s = sim_server(api_key=KEY, prefix="/api", models=("Sim-Model",), context_window=32768, publish_window=True)
    path = write_config(
        home,
        f'model = "sim-model"   # lower case\nmodel_provider = "sim"\n\n'
        f'[model_providers.sim]\nname = "sim"\nbase_url = "{s.url}/api/v1"  # wrong prefix\n'
        f'env_key = "SIM_KEY"\n',
    )
    monkeypatch.setenv("SIM_KEY", KEY)
    code, out, err = run("fix", "--yes", "--codex-version", "0.171.0")
    text = path.read_text()
    assert f'base_url = "{s.url}/api"  # wrong prefix' in text
    assert "API001" in out
    # Issue 28: the catalog behind the corrected base_url was read in the same check, so the model ID and the window
    # are fixed in the same run (before, the second `fix --yes` found them).
    assert 'model = "Sim-Model"   # lower case' in text
    assert "model_context_window = 32768" in text and "model_auto_compact_token_limit = 26200" in text
    import tomllib

    assert tomllib.loads(text)["model_providers"]["sim"]["name"] == "sim"


def test_symlinked_config_is_edited_at_its_target(home, run, key):
    dotfiles = home / "dotfiles"
    dotfiles.mkdir()
    target = dotfiles / "codex.toml"
    target.write_text(messy(wire_line='wire_api = "chat"'))
    link = home / ".codex" / "config.toml"
    link.parent.mkdir(exist_ok=True)
    link.symlink_to(target)
    code, out, _ = run_fix(run, "--yes")
    assert code == 0 and link.is_symlink() and os.readlink(link) == str(target)  # the dotfile manager's link survives
    assert 'wire_api = "responses"' in target.read_text()
    assert "(symlink to ~/dotfiles/codex.toml)" in out
    assert [p.name for p in dotfiles.iterdir() if ".bak-" in p.name]  # the backup sits beside the real file


def test_backup_is_created_with_the_originals_mode(home, key, monkeypatch):
    from codexdoctor.report import fixwrite as fix

    path = write_config(home, messy(wire_line='wire_api = "chat"'))
    os.chmod(path, 0o600)
    modes = []
    original_open = os.open

    def recording_open(file, flags, mode=0o777, *args, **kwargs):
        if ".bak-" in str(file):
            modes.append(mode)
        return original_open(file, flags, mode, *args, **kwargs)

    monkeypatch.setattr(os, "open", recording_open)
    fix.write_atomic(path, path.read_bytes(), path.read_text().replace('"chat"', '"responses"'), [])
    assert modes == [0o600]  # never created world-readable, not even before a chmod


def test_temp_files_of_a_killed_run_are_removed(home, run, key):
    path = write_config(home, messy(wire_line='wire_api = "chat"'))
    stale = path.parent / ".config.toml.k1ll3d.tmp"
    stale.write_text("half-written")
    run_fix(run, "--yes")
    assert not stale.exists() and not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_each_diff_line_is_printed_once_and_values_in_toml_quoting(home, run, key):
    write_config(
        home, messy('baseURL = "https://taotoken.net/api?utm_source=taotoken_aicg_blog_end"', 'wire_api = "chat"')
    )
    code, out, _ = run_fix(run, "--dry-run")
    assert out.count('+wire_api = "responses"') == 1 and out.count("--- ~/.codex/config.toml (now)") == 1
    assert "= 'responses'" not in out and '`model_providers.taotoken.wire_api` = "responses"' in out


@pytest.mark.parametrize(
    "suffix,why",
    [
        ("/api/v1/?utm_source=guide", "different prefix"),
        ("/api?utm_source=guide", "`?…` part of base_url"),
        ("/api ", "space at the end of base_url"),
    ],
)
def test_verified_base_url_is_the_one_remedy_and_the_one_fix(home, run, sim_server, monkeypatch, suffix, why):
    """A landing-page link with a wrong prefix: API001's verified value wins over the URL lint guesses, `fix --yes`
    applies it (not the lint's `/api/v1` guess that the re-check would reject), and the next check passes."""
    s = sim_server(api_key=KEY, prefix="/api")
    path = write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.url}{suffix}"\nenv_key = "SIM_KEY"\n',
    )
    monkeypatch.setenv("SIM_KEY", KEY)
    code, out, _ = run("check", "--codex-version", "0.171.0", "--no-canary")
    assert code == 1
    # Issue 28: the live checks test the URL with the certain part fixed (labelled), so a wrong prefix is found in
    # the same run; when the fixed URL works, the URL finding alone says what to change.
    assert "The live checks ran as if the certain fixes were made" in out
    proved = suffix.startswith("/api/v1")
    assert ("API001" in out) == proved and (why in out if proved else ("URL004" in out) == ("?" in suffix))
    assert not {"URL003", "API013"} & set(out.split()) and ("URL002" in out) == suffix.endswith(" ")
    code, out, _ = run("fix", "--yes", "--codex-version", "0.171.0")
    assert f'base_url = "{s.url}/api"\n' in path.read_text() and "After: verdict ok" in out
    code, out, _ = run("check", "--codex-version", "0.171.0")
    assert code == 0, out


def test_variants_try_the_same_path_without_the_query_first():
    from codexdoctor.checks.live import base_url_variants, variants_of

    assert base_url_variants("https://gw.example/v1?utm_source=x")[0] == "https://gw.example/v1"
    assert "https://gw.example/v1" not in base_url_variants("https://gw.example/v1")
    assert variants_of("  https://gw.example/api/") == base_url_variants("https://gw.example/api")
    # trailing whitespace reaches Codex's path as %20: the same URL without it comes first
    assert variants_of("https://gw.example/api \n")[0] == "https://gw.example/api"


def test_a_second_fix_waits_for_the_lock_and_leaves_the_others_temp_file(home, key, monkeypatch):
    """issue 26 (7): two `fix --yes` at once. The second waits for the first's lock, then says another fix runs;
    the first's temp file in flight is never deleted by the second's clean-up."""
    import fcntl
    import os

    from codexdoctor.report import fixwrite as fix

    path = write_config(home, messy(wire_line='wire_api = "chat"'))
    lock = path.with_name(f".{path.name}.fix-lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)  # the other run, mid-write
    in_flight = path.with_name(f".{path.name}.abc123.tmp")
    in_flight.write_text("the other run's new config")
    monkeypatch.setattr(fix, "LOCK_WAIT_S", 0.3)
    with pytest.raises(fix.FixError, match="another `codexdoctor fix` is writing config.toml"):
        fix.write_atomic(path, path.read_bytes(), path.read_text().replace('"chat"', '"responses"'), [])
    assert in_flight.exists() and '"chat"' in path.read_text()
    os.close(fd)  # the other run ends (its temp file renamed or, here, left behind as if killed)
    fix.write_atomic(path, path.read_bytes(), path.read_text().replace('"chat"', '"responses"'), [])
    assert not in_flight.exists() and '"responses"' in path.read_text()


def test_concurrent_fix_runs_never_lose_a_temp_file(home, key):
    """Two processes writing the same config 30 times each: every write succeeds or says why, never ENOENT."""
    import subprocess
    import sys

    path = write_config(home, messy())
    script = (
        "import sys; from pathlib import Path; from codexdoctor.report import fixwrite as fix\n"
        "p = Path(sys.argv[1]); errors = []\n"
        "for i in range(30):\n"
        "    try:\n"
        "        fix.write_atomic(p, p.read_bytes(), p.read_text() + f'# {sys.argv[2]} {i}\\n', [])\n"
        "    except fix.FixError as exc:\n"
        "        errors.append(str(exc))\n"
        "print('\\n'.join(errors))\n"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(path), name], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for name in ("a", "b")
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert "No such file" not in out + err
        assert all("changed since" in line or "another" in line for line in out.splitlines() if line), out
    assert not list(path.parent.glob(f".{path.name}.*.tmp"))
    for backup in path.parent.glob(f"{path.name}.bak-*"):
        backup.unlink()


def test_dry_run_exits_0_when_no_certain_edit_is_left(home, run, key):
    write_config(home, messy())  # a clean config: nothing certain to change
    code, out, _ = run_fix(run, "--dry-run")
    assert code == 0


def test_a_dated_model_id_is_a_certain_edit(home, run, sim_server, monkeypatch):
    """The seed guide's remedy, "copy the ID from the catalog", made when exactly one catalog ID is the configured
    one without its date suffix (issue 28)."""
    s = sim_server(api_key=KEY, models=("gpt-5.1-codex", "gpt-5.1-mini"), error_style="openai")
    write_config(
        home,
        f'model = "gpt-5.1-codex-2025-11-13"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    monkeypatch.setenv("SIM_API_KEY", KEY)
    code, out, _ = run("fix", "--dry-run", "--codex-version", "0.171.0")
    assert code == 1 and '+model = "gpt-5.1-codex"' in out and "MODEL002" in out
    code, out, _ = run("fix", "--yes", "--codex-version", "0.171.0")
    assert 'model = "gpt-5.1-codex"' in (home / ".codex" / "config.toml").read_text()


def test_fix_yes_goes_on_until_nothing_certain_is_left(home, run, key):
    """Issue 28: a rename that uncovers the next edit (`wireapi` → wire_api = "chat", which Codex 0.171 refuses) is
    mended in one `fix --yes`: apply, check again, apply; the second round is said."""
    path = write_config(home, messy(wire_line='wireapi = "chat"'))
    code, out, _ = run_fix(run, "--yes")
    assert "Checked again" in out and "round 2 of at most 3" in out, out
    assert 'wire_api = "responses"' in path.read_text() and "wireapi" not in path.read_text()
    assert "CFG008" in out and "CFG011" in out
    code, out, _ = run_fix(run, "--yes")
    assert "Nothing in the config files to fix automatically" in out


def test_a_no_holds_for_the_rest_of_the_run(home, run, key, monkeypatch):
    """Issue 40: answering y / n / y, fix then said "Checked again: the edits above uncovered more certain edits" and
    asked the declined edit again. A "no" holds for the run, and nothing is called new that was asked before."""
    import sys

    import click

    write_config(
        home, messy('baseURL = "https://taotoken.net/api?utm_source=taotoken_aicg_blog_end"', 'wire_api = "chat"')
    )
    asked: list[str] = []
    answers = iter([True, False, True])

    def confirm(text, default=True):
        asked.append(text)
        return next(answers)

    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(click, "confirm", confirm)
    code, out, _ = run_fix(run)
    assert len(asked) == 3, asked  # three edits, each asked once
    declined = asked[1].split(":")[0]
    assert "Checked again" not in out, out
    assert sum(declined in q for q in asked) == 1
    assert "uncovered more certain edits" not in out


def test_fix_leaves_no_lock_file_behind(home, run, key):
    path = write_config(home, messy(wire_line='wire_api = "chat"'))
    code, out, _ = run_fix(run, "--yes")
    assert 'wire_api = "responses"' in path.read_text()
    assert not list(path.parent.glob(".*fix-lock")), list(path.parent.iterdir())


@pytest.mark.parametrize("extra", [("--dry-run",), ()])
def test_only_an_unknown_code_is_a_usage_error(home, run, key, extra):
    write_config(home, messy())
    code, out, err = run_fix(run, "--only", "NOPE", *extra)
    assert code == 2 and "unknown code 'NOPE'" in err and "Nothing" not in out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_diff_shows_redaction_marks_in_the_runs_language(home, run, key, lang):
    """Review 1 #6: `fix --dry-run --lang zh` showed `-base_url = "…?api_key=<redacted 28 chars, sha256:…>"` while
    every other Chinese screen writes `<已脱敏：28 个字符，sha256:…>`. The secret itself never shows in either."""
    secret = "sk-live-9f8e7d6c5b4a3f2e1d0c"
    write_config(home, messy(f'base_url = "https://taotoken.net/api?api_key={secret}"'))
    code, out, _ = run_fix(run, "--dry-run", "--lang", lang)
    diff = [line for line in out.splitlines() if "api_key=" in line]
    assert diff and secret not in out and secret[:12] not in out
    if lang == "zh":
        assert all("<已脱敏：28 个字符，sha256:" in line for line in diff) and "<redacted" not in out, diff
        # the rest of the screen in Chinese punctuation too: the verdict, the code list, an edit's code
        assert "配置问题（config）" in out and "URL004、URL011" in out and "URL004：" in out, out
    else:
        assert all("<redacted 28 chars, sha256:" in line for line in diff) and "已脱敏" not in out, diff
