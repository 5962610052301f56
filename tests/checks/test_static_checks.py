"""Each static finding fires for its scenario (issue #2's "done when" list and more)."""

import os
import re

import pytest

from codexdoctor.model import Verdict
from codexdoctor.report.render import render
from tests.conftest import TAOTOKEN, codes, offline_report, write_config

KEY = "sk-tt-0123456789abcdefghijklmnopqrstuv"


def test_no_config_at_all(home):
    report = offline_report(home)
    assert report.verdict is Verdict.CONFIG
    assert "CFG001" in codes(report)
    cfg001 = next(f for f in report.findings if f.code == "CFG001")
    assert "[model_providers.mygateway]" in cfg001.remedy[0]
    assert "~/.codex/config.toml" in cfg001.remedy[0]


def test_taotoken_variable_unset(home):
    write_config(home, TAOTOKEN)
    report = offline_report(home)
    assert codes(report) == ["ENV001"]
    assert report.verdict is Verdict.CONFIG
    f = report.findings[0]
    assert "TAOTOKEN_API_KEY" in f.diagnosis and "Missing environment variable" in f.diagnosis
    assert f.remedy[0] == "Set it in this terminal:\nexport TAOTOKEN_API_KEY=<your key>"  # the command alone (issue 29)


def test_taotoken_healthy_offline_is_inconclusive_not_ok(home):
    write_config(home, TAOTOKEN)
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert codes(report) == []
    assert report.verdict is Verdict.INCONCLUSIVE
    assert "--offline" in report.verdict_reason


def test_near_miss_variable(home):
    write_config(home, TAOTOKEN)
    report = offline_report(home, {"TAOTOKEN_KEY": KEY})
    assert codes(report) == ["ENV003"]
    assert 'export TAOTOKEN_API_KEY="$TAOTOKEN_KEY"' in report.findings[0].remedy[0]


@pytest.mark.parametrize("other", ["taotoken_api_key", "TAOTOKEN_APIKEY", "TAOTOKN_API_KEY", "TAOTOKEN_TOKEN"])
def test_near_miss_variants(home, other):
    write_config(home, TAOTOKEN)
    assert codes(offline_report(home, {other: KEY})) == ["ENV003"]


def test_unrelated_variable_is_not_a_near_miss(home):
    write_config(home, TAOTOKEN)
    assert codes(offline_report(home, {"GITHUB_TOKEN": KEY})) == ["ENV001"]


@pytest.mark.parametrize(
    "value,code",
    [
        (KEY + "\n", "ENV005"),
        (" " + KEY, "ENV005"),
        ('"' + KEY + '"', "ENV006"),
        ("Bearer " + KEY, "ENV007"),
        (KEY + "\u3000x", "ENV008"),
    ],
)
def test_key_value_problems(home, value, code):
    write_config(home, TAOTOKEN)
    report = offline_report(home, {"TAOTOKEN_API_KEY": value})
    assert code in codes(report)
    assert report.verdict is Verdict.CONFIG


def test_blank_variable(home):
    write_config(home, TAOTOKEN)
    assert codes(offline_report(home, {"TAOTOKEN_API_KEY": "  "})) == ["ENV002"]


def test_variable_in_rc_file_only(home):
    write_config(home, TAOTOKEN)
    (home / ".zshrc").write_text("alias ll='ls -l'\nexport TAOTOKEN_API_KEY=sk-secret-value-here\n")
    report = offline_report(home)
    assert codes(report) == ["ENV004"]
    f = report.findings[0]
    assert "~/.zshrc:2" in f.diagnosis and f.remedy[0].endswith(":\nsource ~/.zshrc")


@pytest.mark.parametrize(
    "rc, text, line, fix",
    [
        (
            ".bashrc",
            "alias ll='ls -l'\nTAOTOKEN_API_KEY=sk-secret-value-here\n",
            2,
            "sed -i '2s/^[[:space:]]*/&export /' ~/.bashrc",
        ),
        (".zshrc", "TAOTOKEN_API_KEY=sk-secret-value-here\n", 1, "sed -i '1s/^[[:space:]]*/&export /' ~/.zshrc"),
        (".config/fish/config.fish", "set -g TAOTOKEN_API_KEY sk-x\n", 1, "add `-gx` after `set`"),
    ],
)
def test_variable_set_without_export_is_not_the_reload_remedy(home, rc, text, line, fix):
    """The seed guide's case (issue 28): `source ~/.bashrc` puts an unexported variable in the shell, not in Codex."""
    write_config(home, TAOTOKEN)
    (home / rc).parent.mkdir(parents=True, exist_ok=True)
    (home / rc).write_text(text)
    report = offline_report(home)
    assert codes(report) == ["ENV024"]
    f = report.findings[0]
    assert f"~/{rc}:{line} sets TAOTOKEN_API_KEY without `export`" in f.diagnosis
    # Issue 40: "change line 2 to: export KEY=…" destroyed the key when pasted; the value is kept, never retyped.
    assert fix in f.remedy[0] and "keep the value as it is" in f.remedy[0] and "new terminal" in f.remedy[1]
    assert "=…" not in f.remedy[0] and not any("source" in step for step in f.remedy)
    if not rc.endswith("fish"):  # the command does what it says, and the value survives it
        import subprocess

        command = f.remedy[0].splitlines()[-1].replace("~", str(home))
        subprocess.run(["bash", "-c", command], check=True, capture_output=True)
        assert "export TAOTOKEN_API_KEY=sk-secret-value-here" in (home / rc).read_text()


def test_a_later_export_line_counts(home):
    write_config(home, TAOTOKEN)
    (home / ".bashrc").write_text("TAOTOKEN_API_KEY=sk-secret-value-here\nexport TAOTOKEN_API_KEY\n")
    assert codes(offline_report(home)) == ["ENV004"]


def test_fish_universal_variable_found(home):
    write_config(home, TAOTOKEN)
    fish = home / ".config" / "fish"
    fish.mkdir(parents=True)
    (fish / "config.fish").write_text("set -Ux TAOTOKEN_API_KEY sk-x\n")
    assert codes(offline_report(home)) == ["ENV004"]


def test_env_key_holds_the_key_itself(home):
    write_config(home, TAOTOKEN.replace('env_key = "TAOTOKEN_API_KEY"', f'env_key = "{KEY}"'))
    report = offline_report(home)
    assert codes(report) == ["ENV009"]
    assert KEY not in report.findings[0].diagnosis


def test_base_url_with_utm_query(home):
    write_config(
        home, TAOTOKEN.replace("https://taotoken.net/api", "https://taotoken.net/api?utm_source=taotoken_aicg_blog_end")
    )
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert codes(report) == ["URL004"]
    assert 'base_url = "https://taotoken.net/api"' in report.findings[0].remedy[0]


def test_toml_syntax_error(home):
    write_config(home, TAOTOKEN.replace('wire_api = "responses"', "wire_api = responses"))
    report = offline_report(home)
    assert codes(report) == ["CFG002"]
    f = report.findings[0]
    assert f.diagnosis.startswith("~/.codex/config.toml:8:12:")
    assert "line 8, column 12" in f.remedy[0]


def test_model_provider_without_table(home):
    write_config(home, TAOTOKEN.replace('model_provider = "taotoken"', 'model_provider = "taotokn"'))
    report = offline_report(home)
    assert codes(report) == ["CFG004"]
    assert "taotoken" in report.findings[0].diagnosis  # lists the providers that exist


def test_misspelled_base_url(home):
    write_config(home, TAOTOKEN.replace("base_url =", "baseURL ="))
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    # One cause, one rename (issue 28): CFG008 ("a key Codex does not read") is folded under it as "this is why"
    assert codes(report) == ["CFG006"]
    assert report.findings[0].remedy[0].startswith("Rename `baseURL` to base_url")
    assert [code for code, _ in report.findings[0].explains] == ["CFG008"]


@pytest.mark.parametrize(
    "key,meant",
    [
        ("api_base", "base_url"),
        ("api_key", "env_key"),
        ("envKey", "env_key"),
        ("wireApi", "wire_api"),
        ("env_keys", "env_key"),
    ],
)
def test_misspelled_provider_keys(home, key, meant):
    write_config(home, TAOTOKEN + f'{key} = "x"\n')
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    f = next(f for f in report.findings if f.code == "CFG008")
    assert f"`{meant}`" in f.diagnosis


def test_wire_api_chat_by_version(home):
    write_config(home, TAOTOKEN.replace('"responses"', '"chat"'))
    env = {"TAOTOKEN_API_KEY": KEY}
    assert codes(offline_report(home, env, codex_version=(0, 171, 0))) == ["CFG011"]
    assert codes(offline_report(home, env, codex_version=(0, 90, 0))) == ["CFG012"]
    unknown = offline_report(home, env, codex_version=None)
    assert codes(unknown) == ["CFG011"] and "version unknown" in unknown.findings[0].diagnosis


def test_builtin_redefined(home):
    write_config(
        home, 'model_provider = "openai"\n[model_providers.openai]\nname = "x"\nbase_url = "https://x.example/v1"\n'
    )
    assert "CFG005" in codes(offline_report(home))


BEDROCK = 'model = "gpt-5.5"\nmodel_provider = "amazon-bedrock"\n'


def test_amazon_bedrock_is_built_in(home):
    # Codex 0.171 builds in `amazon-bedrock` (requests signed with AWS SigV4, no key); it never says "not found", and
    # a table that only moves base_url or picks the AWS profile and region is taken (the real CLI, 2026-12-02).
    write_config(home, BEDROCK)
    report = offline_report(home)
    assert codes(report) == []
    provider = next(c for c in report.checks if c.id == "cfg.provider")
    assert provider.facts["builtin"] is True and "amazon-bedrock" in provider.facts["available"]
    key = next(c for c in report.checks if c.id == "env.key")
    assert "AWS SigV4" in str(key.summary) and "stored login" not in str(key.summary)
    write_config(
        home,
        BEDROCK + '[model_providers.amazon-bedrock]\nbase_url = "https://bedrock-mantle.eu-west-1.api.aws/v1"\n'
        'aws = { profile = "work", region = "eu-west-1" }\n',
    )
    assert codes(offline_report(home)) == []


def test_amazon_bedrock_table_with_other_keys_is_refused(home):
    # Codex 0.171: "model_providers.amazon-bedrock only supports changing `base_url`, `auth`, `http_headers`,
    # `aws.profile`, … other non-default provider fields are not supported" (not CFG005's reserved-id refusal)
    write_config(home, BEDROCK + '[model_providers.amazon-bedrock]\nname = "b"\nenv_key = "K"\n')
    report = offline_report(home)
    assert codes(report) == ["CFG029"]
    assert "`name`, `env_key`" in report.findings[0].diagnosis
    assert "only supports changing" in report.findings[0].diagnosis


def test_custom_provider_without_model_and_env_key(home):
    write_config(home, 'model_provider = "gw"\n[model_providers.gw]\nname = "gw"\nbase_url = "https://gw.example/v1"\n')
    assert codes(offline_report(home)) == ["CFG007", "ENV010", "URL003"]


def test_local_provider_without_env_key_is_fine(home):
    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\nbase_url = "http://127.0.0.1:8000/v1"\n',
    )
    assert codes(offline_report(home)) == ["URL003"]


def test_legacy_profile_problems(home):
    write_config(home, TAOTOKEN + "\n[profiles.big]\nmodel_context_window = 100000\n")
    legacy = (0, 170, 0)
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY}, profile="big", codex_version=legacy)
    assert codes(report) == ["CFG010"]
    assert codes(offline_report(home, {"TAOTOKEN_API_KEY": KEY}, profile="nope", codex_version=legacy)) == ["CFG015"]


def test_0171_profile_findings(home):
    env = {"TAOTOKEN_API_KEY": KEY}
    write_config(
        home,
        TAOTOKEN.replace('model = "gpt-5"\n', 'model = "gpt-5"\nprofile = "big"\n') + '\n[profiles.big]\nmodel = "m"\n',
    )
    report = offline_report(home, env)
    assert codes(report) == ["CFG022"]  # Codex refuses to start; the table is part of the same fix
    assert 'legacy `profile = "big"` config is no longer supported' in report.findings[0].diagnosis
    assert "~/.codex/big.config.toml" in report.findings[0].remedy[1]
    assert report.verdict.value == "config"
    write_config(home, TAOTOKEN + '\n[profiles.big]\nmodel = "m"\n')
    assert codes(offline_report(home, env)) == ["CFG025"]  # ignored table: a warning
    assert codes(offline_report(home, env, profile="big")) == ["CFG023"]
    missing = offline_report(home, env, profile="nope")
    assert codes(missing) == ["CFG024", "CFG025"]
    assert "silently runs with ~/.codex/config.toml alone" in missing.findings[0].diagnosis
    write_config(home, TAOTOKEN)
    (home / ".codex" / "big.config.toml").write_text('model = "big-model"\n')
    ok = offline_report(home, env, profile="big")
    assert codes(ok) == [] and ok.provider.model == "big-model"


def test_provider_without_name_is_refused_by_0171(home):
    write_config(home, TAOTOKEN.replace('name = "TaoToken"\n', ""))
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert codes(report) == ["CFG026"]
    assert "provider name must not be empty" in report.findings[0].diagnosis
    assert codes(offline_report(home, {"TAOTOKEN_API_KEY": KEY}, codex_version=(0, 150, 0))) == []


def test_literal_tilde_codex_home(home):
    (home / ".codex").mkdir()
    report = offline_report(home, {"CODEX_HOME": "~/.codex"})
    assert codes(report) == ["CFG013"]
    f = report.findings[0]
    assert "does not expand it" in f.diagnosis
    assert (
        f"export CODEX_HOME={home}/.codex" in f.remedy[0] or "CODEX_HOME" in f.remedy[0] and "~/.codex" in f.remedy[0]
    )
    assert "mkdir" not in f.remedy[0]


def test_untrusted_project_config_is_not_read(home, tmp_path, monkeypatch):
    write_config(home, TAOTOKEN)
    project = tmp_path / "proj"
    (project / ".codex").mkdir(parents=True)
    (project / ".git").mkdir()
    (project / ".codex" / "config.toml").write_text('model = "project-model"\n')
    monkeypatch.chdir(project)
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert codes(report) == ["CFG027"]
    assert report.provider.model == "gpt-5"
    assert f'[projects."{project}"]' in report.findings[0].remedy[0]
    write_config(home, TAOTOKEN + f'\n[projects."{project}"]\ntrust_level = "trusted"\n')
    trusted = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert codes(trusted) == [] and trusted.provider.model == "project-model"


def test_dotenv_blank_and_override(home):
    write_config(home, TAOTOKEN)
    dotenv = home / ".codex" / ".env"
    dotenv.write_text("TAOTOKEN_API_KEY=\n")
    blank = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert codes(blank) == ["ENV017"] and "~/.codex/.env" in blank.findings[0].diagnosis
    dotenv.write_text("TAOTOKEN_API_KEY=sk-other-key-from-dotenv\n")
    other = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert codes(other) == ["ENV018"]
    assert KEY not in str(other.findings[0].diagnosis) and "sha256:" in other.findings[0].diagnosis
    only_dotenv = offline_report(home, {})
    assert codes(only_dotenv) == []  # the key Codex will send comes from .env: nothing missing


def test_dotenv_with_a_byte_order_mark_loses_its_first_line_as_in_codex(home):
    """Codex 0.171.0 (dotenvy) does not skip a BOM: the first line of such a .env is not loaded, the others are
    (crosscheck cases ".env BOM, key first/second")."""
    write_config(home, TAOTOKEN)
    dotenv = home / ".codex" / ".env"
    dotenv.write_bytes(b"\xef\xbb\xbfTAOTOKEN_API_KEY=" + KEY.encode() + b"\nOTHER=1\n")
    first = offline_report(home, {})
    assert codes(first) == ["ENV019"] and first.verdict.value == "config"
    assert "~/.codex/.env" in first.findings[0].diagnosis
    assert all(KEY not in render(first, fmt) for fmt in ("text", "json", "markdown", "github", "junit"))
    shell = offline_report(home, {"TAOTOKEN_API_KEY": KEY})  # the shell's key is the one Codex sends: nothing wrong
    assert codes(shell) == []
    assert any("byte-order mark" in e for c in shell.checks if c.id == "env.key" for e in c.evidence)
    dotenv.write_bytes(b"\xef\xbb\xbfOTHER=1\nTAOTOKEN_API_KEY=" + KEY.encode() + b"\n")
    assert codes(offline_report(home, {})) == []
    dotenv.write_bytes(b"\xef\xbb\xbf# keys\nTAOTOKEN_API_KEY=" + KEY.encode() + b"\n")  # the remedy's second way
    assert codes(offline_report(home, {})) == []


def test_base_url_trailing_space_is_an_error_leading_is_not(home):
    write_config(home, TAOTOKEN.replace('"https://taotoken.net/api"', '"  https://taotoken.net/api"'))
    assert "URL002" not in codes(offline_report(home, {"TAOTOKEN_API_KEY": KEY}))
    write_config(home, TAOTOKEN.replace('"https://taotoken.net/api"', '"https://taotoken.net/api "'))
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert "URL002" in codes(report)
    assert "%20" in next(f for f in report.findings if f.code == "URL002").diagnosis


def test_codex_home_missing(home, tmp_path):
    report = offline_report(home, {"CODEX_HOME": str(tmp_path / "missing")})
    assert codes(report) == ["CFG013"]


def test_wrong_types(home):
    write_config(home, TAOTOKEN.replace('base_url = "https://taotoken.net/api"', "base_url = 5"))
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert codes(report) == ["CFG016"]


@pytest.mark.parametrize(
    "url,code",
    [
        ("ftp://x.example/api", "URL001"),
        ("taotoken.net/api", "URL001"),
        ("https://taotoken.net/api ", "URL002"),
        ("https://taotoken.net/api/responses", "URL005"),
        ("https://taotoken.net/api/v1/chat/completions", "URL005"),
        ("https://user:pw@taotoken.net/api", "URL006"),
        ("http://taotoken.net/api", "URL007"),
        ("https://taotoken.net/api/v1", "URL003"),
        ("https://taotoken.net/api/", "URL008"),
    ],
)
def test_base_url_problems(home, url, code):
    write_config(home, TAOTOKEN.replace("https://taotoken.net/api", url))
    assert code in codes(offline_report(home, {"TAOTOKEN_API_KEY": KEY}))


@pytest.mark.parametrize(
    "host", ["127\u30020\u30020\u30021", "127\uff0e0\uff0e0\uff0e1", "127\uff610\uff610\uff611", "127.1"]
)
def test_a_loopback_host_in_any_spelling_codex_reads_is_this_machine(home, host):
    """Codex's host parser (IDNA) turns ideographic and full-width dots into dots: 127。0。0。1 is this machine (issue 38)."""
    write_config(home, TAOTOKEN.replace("https://taotoken.net/api", f"http://{host}:8080/api"))
    assert "URL007" not in codes(offline_report(home, {"TAOTOKEN_API_KEY": KEY}))


def test_project_provider_keys_warn(home):
    from pathlib import Path

    write_config(home, TAOTOKEN)
    (Path.cwd() / ".codex").mkdir()
    (Path.cwd() / ".codex" / "config.toml").write_text('model_provider = "x"\n')
    assert codes(offline_report(home, {"TAOTOKEN_API_KEY": KEY})) == ["CFG027"]  # untrusted: not read at all
    write_config(home, TAOTOKEN + f'\n[projects."{Path.cwd()}"]\ntrust_level = "trusted"\n')
    assert codes(offline_report(home, {"TAOTOKEN_API_KEY": KEY})) == ["CFG009"]  # trusted: provider keys ignored


def test_openai_api_key_env_without_login(home):
    report = offline_report(home, {"OPENAI_API_KEY": KEY})
    # The variable does not count for the built-in provider: the missing login is the error, ENV011 says why.
    assert "ENV011" in codes(report) and "ENV012" in codes(report)
    assert report.verdict.value == "config"


def test_stored_login_may_leak_to_custom_provider(home):
    write_config(
        home, 'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\nbase_url = "https://gw.example"\n'
    )
    (home / ".codex" / "auth.json").write_text('{"auth_mode": "apikey", "OPENAI_API_KEY": "sk-stored-abcdefghijkl"}')
    assert "ENV013" in codes(offline_report(home))


def test_crashing_check_becomes_crash_result(home, monkeypatch):
    import codexdoctor.commands.check as command
    from codexdoctor.checks import STATIC_CHECKS
    from codexdoctor.checks.base import Check

    def boom(ctx):
        raise RuntimeError("kaboom " + KEY)

    write_config(home, TAOTOKEN)
    monkeypatch.setattr(command, "STATIC_CHECKS", STATIC_CHECKS[:-1] + (Check("url.base_url", "base_url", boom),))
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    crashed = [c for c in report.checks if c.status.value == "crash"]
    assert len(crashed) == 1 and "kaboom" in crashed[0].summary
    assert KEY not in crashed[0].summary
    assert len(report.checks) == len(STATIC_CHECKS)  # the others still ran
    assert report.verdict is Verdict.INCONCLUSIVE


def test_bearer_prefix_is_one_finding_whose_command_keeps_the_key(home):
    import subprocess

    write_config(home, TAOTOKEN)
    report = offline_report(home, {"TAOTOKEN_API_KEY": "Bearer " + KEY, "SHELL": "/bin/bash"})
    assert codes(report) == ["ENV007"]  # one cause, one error: the space after Bearer is not a second problem
    command = report.findings[0].remedy[0].split("\n", 1)[1]
    out = subprocess.run(
        ["bash", "-c", f'TAOTOKEN_API_KEY="Bearer {KEY}"; {command}; printf %s "$TAOTOKEN_API_KEY"'],
        capture_output=True,
        text=True,
    ).stdout
    assert out == KEY  # copied verbatim, the remedy leaves exactly the key


def _run_remedies(shell, value, commands):
    """The value left in the variable after these remedy commands run, one after the other, in `shell`."""
    import subprocess

    script = "\n".join(commands) + '\nprintf %s "$TAOTOKEN_API_KEY"'
    env = {"PATH": os.environ["PATH"], "TAOTOKEN_API_KEY": value}
    return subprocess.run([shell, "-c", script], env=env, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("shell", ["bash", "dash"])
@pytest.mark.parametrize(
    "value,found",
    [
        ("Bearer " + KEY + "\n", ["ENV005", "ENV007"]),  # the seed guide's "copied with Bearer and a newline"
        ("  Bearer " + KEY + " ", ["ENV005", "ENV007"]),
        ("Bearer\t" + KEY + "\r\n", ["ENV005", "ENV007"]),
        ("bearer " + KEY, ["ENV007"]),  # found whatever its case, so removed whatever its case
        (KEY + "\n", ["ENV005"]),
    ],
)
def test_the_key_remedies_run_in_any_order_leave_the_bare_key(home, shell, value, found):
    """Review 1 #28: ENV005's `tr -d '[:space:]'` run first turned `Bearer sk-…` into `Bearersk-…`, which ENV007's
    `${VAR#Bearer }` then no longer matched, so following the findings in the order shown destroyed the key. Each
    command is run here, as printed, in the order shown, in the reverse order and alone: every way leaves the key."""
    import shutil

    if shutil.which(shell) is None:
        pytest.skip(f"{shell} not installed")
    write_config(home, TAOTOKEN)
    report = offline_report(home, {"TAOTOKEN_API_KEY": value, "SHELL": "/bin/bash"})
    assert [c for c in codes(report) if c in ("ENV005", "ENV007")] == found
    commands = [
        m.group(0)
        for f in report.findings
        if f.code in found
        for step in f.remedy
        for m in re.finditer(r"^export TAOTOKEN_API_KEY=.*$", step, re.M)
    ]
    assert len(commands) == len(found), commands
    assert _run_remedies(shell, value, commands) == KEY
    assert _run_remedies(shell, value, commands[::-1]) == KEY
    for command in commands:
        assert _run_remedies(shell, value, [command]) == KEY, command


def test_tracking_query_is_shown_as_written(home):
    write_config(home, TAOTOKEN.replace('"https://taotoken.net/api"', '"https://taotoken.net/api?utm_source=blog_end"'))
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    f = next(f for f in report.findings if f.code == "URL004")
    assert "?utm_source=blog_end" in f.diagnosis and "'" not in f.diagnosis.split("(")[0]


def test_openai_base_url_variable_is_ignored_by_codex_0_171(home):
    """openai/codex#16720 removed $OPENAI_BASE_URL; Codex 0.171.0 called api.openai.com with it set (crosscheck
    "auth: built-in, OPENAI_BASE_URL variable"). 0.118 still read it."""
    write_config(home, 'model = "gpt-5"\n')
    (home / ".codex" / "auth.json").write_text('{"auth_mode": "apikey", "OPENAI_API_KEY": "' + KEY + '"}')
    env = {"OPENAI_BASE_URL": "http://127.0.0.1:4000/v1"}
    now = offline_report(home, env)
    assert codes(now) == ["URL010"] and now.provider.request_url == "https://api.openai.com/v1/responses"
    assert 'openai_base_url = "http://127.0.0.1:4000/v1"' in now.findings[0].remedy[0]
    old = offline_report(home, env, codex_version=(0, 118, 0))
    assert "URL010" not in codes(old) and old.provider.request_url == "http://127.0.0.1:4000/v1/responses"
    assert codes(offline_report(home, {"OPENAI_BASE_URL": "https://api.openai.com/v1/"})) == []


def test_codex_api_key_serves_codex_exec_not_the_interactive_cli(home):
    """Codex 0.171.0 `codex exec` authenticated with $CODEX_API_KEY and no stored login (crosscheck "auth: built-in,
    openai_base_url, CODEX_API_KEY"): a warning about the interactive CLI, not "no login"."""
    from pathlib import Path

    from codexdoctor.commands.options import CheckOptions, make_context

    write_config(home, 'model = "gpt-5"\n')
    report = offline_report(home, {"CODEX_API_KEY": KEY})
    assert codes(report) == ["ENV022"] and "ENV012" not in codes(report)
    assert "printenv CODEX_API_KEY | codex login --with-api-key" in report.findings[0].remedy[0]
    ctx = make_context(
        CheckOptions(
            env={"HOME": str(home), "CODEX_API_KEY": KEY}, home=home, cwd=Path.cwd(), offline=True, system_config=None
        )
    )
    assert ctx.key_value() == KEY  # what the live checks send: what `codex exec` sends
    assert codes(offline_report(home, {})) == ["ENV012"]


@pytest.mark.parametrize(
    "line,key,codex_says",
    [
        # What Codex 0.171.0 printed for each (crosscheck "string:", "float:", "number:" cases), and two of the same kind.
        ('model_context_window = "4096"', "model_context_window", 'invalid type: string "4096", expected i64'),
        (
            "model_context_window = 4096.5",
            "model_context_window",
            "invalid type: floating point `4096.5`, expected i64",
        ),
        (
            'model_auto_compact_token_limit = "9000"',
            "model_auto_compact_token_limit",
            'invalid type: string "9000", expected i64',
        ),
        ('hide_agent_reasoning = "true"', "hide_agent_reasoning", 'invalid type: string "true", expected a boolean'),
        ("openai_base_url = 5", "openai_base_url", "invalid type: integer `5`, expected a string"),
    ],
)
def test_top_level_values_of_the_wrong_type_are_what_codex_refuses(home, line, key, codex_says):
    write_config(home, line + "\n" + TAOTOKEN)
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert codes(report) == ["CFG016"] and report.verdict.value == "config"
    assert f"`{key}`" in report.findings[0].diagnosis and codex_says in report.findings[0].diagnosis


@pytest.mark.parametrize(
    "line,codex_says",
    [
        ('request_max_retries = "2"', 'invalid type: string "2", expected u64'),
        ('stream_idle_timeout_ms = "300000"', 'invalid type: string "300000", expected u64'),
        ("request_max_retries = -1", "invalid value: integer `-1`, expected u64"),
        ('requires_openai_auth = "yes"', 'invalid type: string "yes", expected a boolean'),
    ],
)
def test_provider_values_of_the_wrong_type_are_what_codex_refuses(home, line, codex_says):
    write_config(home, TAOTOKEN + line + "\n")
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert codes(report) == ["CFG016"] and codex_says in report.findings[0].diagnosis


def test_an_empty_model_is_no_model_for_codex(home):
    """Codex 0.171.0 with model = "" and a custom provider: "No models are available…", nothing sent (crosscheck
    "empty: model"); an unset model sends Codex's default ID instead (CFG007)."""
    write_config(home, TAOTOKEN.replace('model = "gpt-5"', 'model = ""'))
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert codes(report) == ["CFG028"] and "No models are available" in report.findings[0].diagnosis
    write_config(home, TAOTOKEN.replace('model = "gpt-5"\n', ""))
    assert codes(offline_report(home, {"TAOTOKEN_API_KEY": KEY})) == ["CFG007"]


def test_a_header_value_that_is_not_a_string_is_refused_as_codex_refuses_it(home):
    """Codex 0.171.0: `http_headers = { "X-Retries" = 3 }` -> invalid type: integer `3`, expected a string."""
    write_config(home, TAOTOKEN + 'http_headers = { "X-Retries" = 3 }\n')
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert codes(report) == ["CFG016"] and "`http_headers.X-Retries`" in report.findings[0].diagnosis
    assert "invalid type: integer `3`, expected a string" in report.findings[0].diagnosis


@pytest.mark.parametrize(
    "config,env,step",
    [
        # a gateway table that reads $OPENAI_API_KEY, but model_provider was never set to it
        (
            'model = "m"\n[model_providers.gw]\nname = "gw"\nbase_url = "https://gw.example/v1"\nenv_key = "OPENAI_API_KEY"\n',
            {},
            'model_provider = "gw"',
        ),
        # the key travels with a base URL that is not OpenAI's
        ('model = "m"\n', {"OPENAI_BASE_URL": "https://gw.example/v1"}, "[model_providers.<name>]"),
    ],
)
def test_gateway_key_is_never_stored_as_an_openai_login(home, config, env, step):
    """Issue 28: ENV011/ENV012 told a gateway user to `codex login --with-api-key` their gateway key."""
    write_config(home, config)
    report = offline_report(home, {"OPENAI_API_KEY": KEY, **env})
    assert "ENV025" in codes(report) and not {"ENV011", "ENV012", "ENV016"} & set(codes(report)), codes(report)
    for lang in ("en", "zh"):
        text = render(offline_report(home, {"OPENAI_API_KEY": KEY, **env}, lang=lang), "text")
        assert "printenv OPENAI_API_KEY | codex login" not in text
        assert step in text or (lang == "zh" and "<名称>" in text)
    finding = next(f for f in report.findings if f.code == "ENV025")
    assert KEY not in " ".join(finding.remedy) + finding.diagnosis


def test_openai_key_without_gateway_still_gets_the_login_command(home):
    report = offline_report(home, {"OPENAI_API_KEY": KEY})
    assert "ENV025" not in codes(report)
    assert any("codex login --with-api-key" in step for f in report.findings for step in f.remedy)


@pytest.mark.parametrize("value", ["YOUR_API_KEY", "sk-xxxx", "sk-xxxxxxxxxxxxxxxx", "<your key>", "在此填入你的密钥"])
def test_a_key_left_as_the_guides_placeholder_is_named_so(home, value):
    """Codex sends a placeholder key as it is and fails like a wrong key (issue 38): say it is the placeholder."""
    write_config(home, TAOTOKEN)
    report = offline_report(home, {"TAOTOKEN_API_KEY": value})
    assert "ENV026" in codes(report) and report.verdict.value == "config"
    cause = next(f for f in report.findings if f.code == "ENV026")
    assert "placeholder" in cause.diagnosis
    # ENV005/ENV008 (its spaces, its Chinese) are the placeholder's: folded under it, not causes of their own
    assert not {"ENV005", "ENV008"} & {f.code for f in report.findings}


@pytest.mark.parametrize("value", [KEY, "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv", "xai-0123456789abcdefXYZ"])
def test_a_real_looking_key_is_no_placeholder(home, value):
    write_config(home, TAOTOKEN)
    assert "ENV026" not in codes(offline_report(home, {"TAOTOKEN_API_KEY": value}))


@pytest.mark.parametrize("model", ["YOUR_MODEL_ID", "your-model-name", "<model>"])
def test_a_model_left_as_the_guides_placeholder_is_named_so(home, model):
    write_config(home, re.sub(r'^model = "[^"]*"', f'model = "{model}"', TAOTOKEN, count=1, flags=re.M))
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    assert "MODEL006" in codes(report), codes(report)


def test_a_real_model_is_no_placeholder(home):
    write_config(home, TAOTOKEN)
    assert "MODEL006" not in codes(offline_report(home, {"TAOTOKEN_API_KEY": KEY}))


def test_each_unknown_key_cites_its_own_line(home):
    """A finding per unknown key cites that key's evidence line, not the check's every line (500 keys once made 500
    findings of 500 lines each, and 20 s of redaction)."""
    write_config(home, TAOTOKEN + 'wireApi = "x"\nenvKey = "y"\ncolour = "z"\n')
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY})
    unknown = [f for f in report.findings if f.code == "CFG008"]
    assert len(unknown) == 3
    for finding in unknown:
        assert len(finding.evidence) == 1
        key = finding.diagnosis.split("`")[1]
        assert f"`{key}`" in finding.evidence[0] and "is not a key Codex reads" in finding.evidence[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_model_provider_appended_after_the_provider_table_is_the_leading_error(home, lang):
    """Review 1 #23: `model_provider = "taotoken"` appended at the end of the file lands in [model_providers.taotoken]
    (TOML), so Codex 0.171.0 uses the built-in openai (its header says `provider: openai`). It was a CFG008 warning,
    "rename `model_provider` to the key Codex reads", with the table name shown as `<redacted 8 chars…>` (an unknown
    key's value taken for a secret), under an ENV012 error about the openai login. Now the misplaced line is the error,
    ENV012 is folded under it, the advice is to move the line to the top level, and the provider id is shown."""
    write_config(
        home,
        'model = "x"\n\n[model_providers.taotoken]\nname = "taotoken"\nbase_url = "https://taotoken.net/api/v1"\n'
        'env_key = "TAOTOKEN_API_KEY"\nmodel_context_window = 16000\nmodel_provider = "taotoken"\n',
    )
    report = offline_report(home, {"TAOTOKEN_API_KEY": KEY}, lang=lang)
    assert codes(report)[:2] == ["CFG030", "CFG031"] and "CFG008" not in codes(report), codes(report)
    lead = report.findings[0]
    assert lead.severity.value == "error" and [c for c, _ in lead.explains] == ["ENV012"]
    move = "to the top level of ~/.codex/config.toml" if lang == "en" else "移到 ~/.codex/config.toml 的顶层"
    assert move in lead.remedy[0] and "rename" not in lead.remedy[0] and "改名" not in lead.remedy[0]
    shown = render(report, "text")
    assert 'model_provider = "taotoken"' in shown and "[model_providers.taotoken]" in shown
    assert "redacted" not in shown and "脱敏" not in shown
    assert KEY not in shown
