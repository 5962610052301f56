"""Config resolution must match Codex: layers, profiles, -c overrides, built-ins, the URL it calls."""

from pathlib import Path

import pytest

from codexdoctor.codex import config
from tests.conftest import TAOTOKEN, write_config


def resolve(home, env=None, **kw):
    return config.resolve({"HOME": str(home), **(env or {})}, home, Path.cwd(), system_config=None, **kw)


def test_custom_provider_request_url_and_origins(home):
    write_config(home, TAOTOKEN)
    r = resolve(home)
    assert r.provider_id == "taotoken"
    assert r.provider.request_url() == "https://taotoken.net/api/responses"
    assert r.model == "gpt-5"
    assert r.model_origin == "~/.codex/config.toml:1"
    assert r.provider_field_origin("base_url") == "~/.codex/config.toml:6"
    assert r.provider_field_origin("env_key") == "~/.codex/config.toml:7"


def test_trailing_slash_trimmed_and_chat_path_and_query_params(home):
    write_config(
        home,
        TAOTOKEN.replace('"https://taotoken.net/api"', '"https://h.example/v1//"').replace('"responses"', '"chat"')
        + 'query_params = { api-version = "2025-01-01" }\n',
    )
    r = resolve(home)
    assert r.provider.request_url() == "https://h.example/v1/chat/completions?api-version=2025-01-01"


def test_default_is_builtin_openai(home):
    r = resolve(home)
    assert r.provider_id == "openai" and r.provider.builtin
    assert r.provider.request_url() == "https://api.openai.com/v1/responses"


@pytest.mark.parametrize(
    "pid,url", [("ollama", "http://localhost:11434/v1/responses"), ("lmstudio", "http://localhost:1234/v1/responses")]
)
def test_other_builtins(home, pid, url):
    write_config(home, f'model_provider = "{pid}"\n')
    assert resolve(home).provider.request_url() == url


def test_openai_base_url_top_level(home):
    write_config(home, 'openai_base_url = "https://proxy.example/v1"\n')
    assert resolve(home).provider.request_url() == "https://proxy.example/v1/responses"


def test_codex_home_env_and_missing(home, tmp_path):
    other = tmp_path / "elsewhere"
    other.mkdir()
    (other / "config.toml").write_text('model = "m1"\n')
    r = resolve(home, {"CODEX_HOME": str(other)})
    assert r.model == "m1" and r.codex_home_from_env
    r = resolve(home, {"CODEX_HOME": str(tmp_path / "nope")})
    assert r.codex_home_problem == "missing" and r.layers == ()
    f = tmp_path / "file"
    f.write_text("")
    assert resolve(home, {"CODEX_HOME": str(f)}).codex_home_problem == "not_dir"


LEGACY = (0, 170, 0)  # before 0.171: [profiles.x] tables, project configs always read


def test_legacy_profile_overrides_top_level_and_flag_overrides_profile(home):
    write_config(
        home,
        TAOTOKEN.replace('model = "gpt-5"\n', 'model = "gpt-5"\nprofile = "fast"\n')
        + '\n[profiles.fast]\nmodel = "fast-model"\nmodel_context_window = 8000\n',
    )
    r = resolve(home, codex_version=LEGACY)
    assert r.profile == "fast" and r.model == "fast-model" and r.profile_mode == "table"
    assert r.model_origin.startswith("profile `fast` (~/.codex/config.toml:")
    assert resolve(home, model="flag-model", codex_version=LEGACY).model == "flag-model"
    assert resolve(home, profile="missing", codex_version=LEGACY).profile_missing


def test_0171_profile_is_a_file_and_the_legacy_selector_is_recorded(home):
    write_config(
        home,
        TAOTOKEN.replace('model = "gpt-5"\n', 'model = "gpt-5"\nprofile = "fast"\n')
        + '\n[profiles.fast]\nmodel = "fast-model"\n',
    )
    r = resolve(home)  # version unknown: 0.171 rules
    assert r.profile is None and r.model == "gpt-5"  # the selector selects nothing: Codex refuses it
    assert r.legacy_selectors == ({"value": "fast", "where": "~/.codex/config.toml:2"},)
    assert [t["name"] for t in r.legacy_tables] == ["fast"]
    assert resolve(home, profile="fast").profile_conflict


def test_0171_profile_file_is_a_layer_below_overrides(home):
    write_config(home, TAOTOKEN)
    (home / ".codex" / "work.config.toml").write_text(
        'model = "m2"\nmodel_provider = "p2"\n[model_providers.p2]\nname = "p2"\nbase_url = "http://127.0.0.1:9/v1"\n'
    )
    r = resolve(home, profile="work")
    assert r.model == "m2" and r.provider_id == "p2" and not r.profile_missing
    assert r.model_origin == "~/.codex/work.config.toml:1"
    assert resolve(home, profile="work", overrides=("model=m5",)).model == "m5"
    missing = resolve(home, profile="nope")
    assert missing.profile_missing and missing.provider_id == "taotoken"  # Codex silently uses config.toml


def test_tilde_in_codex_home_is_not_expanded(home):
    (home / ".codex").mkdir()
    assert resolve(home, {"CODEX_HOME": "~/.codex"}).codex_home_problem == "missing"


def test_dotenv_in_codex_home_overrides_the_shell(home):
    write_config(home, TAOTOKEN)
    (home / ".codex" / ".env").write_text('# keys\nexport TAOTOKEN_API_KEY="from-dotenv"\nCODEX_HOME=/elsewhere\n')
    r = resolve(home, {"TAOTOKEN_API_KEY": "from-shell"})
    assert r.env["TAOTOKEN_API_KEY"] == "from-dotenv" and r.shell_env["TAOTOKEN_API_KEY"] == "from-shell"
    assert "CODEX_HOME" not in r.env and r.dotenv.reserved == ("CODEX_HOME",)
    assert r.env_source("TAOTOKEN_API_KEY") == "~/.codex/.env"


def test_base_url_leading_whitespace_dropped_trailing_kept(home):
    write_config(home, TAOTOKEN.replace('"https://taotoken.net/api"', '"  https://taotoken.net/api "'))
    assert resolve(home).provider.request_url() == "https://taotoken.net/api /responses"


def test_overrides_parse_toml_and_nest(home):
    write_config(home, TAOTOKEN)
    r = resolve(
        home,
        overrides=(
            'model_providers.taotoken.base_url="http://127.0.0.1:9/v1"',
            "model=plain-string",
            "model_context_window=4096",
        ),
    )
    assert r.provider.request_url() == "http://127.0.0.1:9/v1/responses"
    assert r.model == "plain-string"
    assert r.merged["model_context_window"] == 4096
    assert r.provider_field_origin("base_url") == "-c model_providers.taotoken.base_url"


def test_override_without_equals_is_usage_error(home):
    with pytest.raises(config.OverrideError):
        resolve(home, overrides=("model",))


def test_project_config_provider_keys_ignored(home):
    write_config(home, TAOTOKEN)
    project = Path.cwd() / ".codex"
    project.mkdir()
    (project / "config.toml").write_text('model_provider = "other"\nmodel = "project-model"\n')
    untrusted = resolve(home)
    assert untrusted.model == "gpt-5" and untrusted.layers[-1].ignored == "untrusted"
    assert resolve(home, codex_version=LEGACY).model == "project-model"  # older Codex read it regardless
    write_config(home, TAOTOKEN + f'\n[projects."{Path.cwd()}"]\ntrust_level = "trusted"\n')
    r = resolve(home)
    assert r.provider_id == "taotoken"  # provider keys in a project config are ignored even when trusted
    assert r.model == "project-model"  # other keys are honoured
    assert [l.kind for l in r.layers] == ["user", "project"]


def test_toml_error_has_line_and_column(home):
    write_config(home, 'model = "x"\nmodel_provider = taotoken\n')
    layer = resolve(home).user_layer
    assert layer.toml_problem.line == 2 and layer.toml_problem.column == 18


def test_bom_is_read_and_utf16_is_not_as_in_codex(home):
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_bytes(b"\xef\xbb\xbf" + TAOTOKEN.encode())
    r = resolve(home)
    assert r.user_layer.encoding == "utf-8-sig" and r.provider_id == "taotoken" and not r.user_layer.read_error
    path.write_bytes(TAOTOKEN.encode("utf-16"))
    r = resolve(home)
    assert r.user_layer.encoding == "utf-16" and r.user_layer.read_error and r.user_layer.data is None


def test_a_relative_codex_home_is_taken_from_the_folder_codex_runs_in(home, monkeypatch):
    """Codex canonicalises CODEX_HOME: `CODEX_HOME=.` worked from the folder holding config.toml (Codex 0.171.0,
    crosscheck "CODEX_HOME: relative"); a quoted `~` is still not expanded."""
    write_config(home, TAOTOKEN)
    r = config.resolve({"HOME": str(home), "CODEX_HOME": "."}, home, home / ".codex", system_config=None)
    assert r.codex_home_problem is None and r.provider_id == "taotoken" and r.codex_home == home / ".codex" / "."
    r = config.resolve({"HOME": str(home), "CODEX_HOME": "~/.codex"}, home, home, system_config=None)
    assert r.codex_home_problem == "missing"
