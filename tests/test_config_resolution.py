"""Config resolution must match Codex: layers, profiles, -c overrides, built-ins, the URL it calls."""

from pathlib import Path

import pytest

from codexdoctor import config
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
    write_config(home, TAOTOKEN.replace('"https://taotoken.net/api"', '"https://h.example/v1//"')
                 .replace('"responses"', '"chat"') + 'query_params = { api-version = "2025-01-01" }\n')
    r = resolve(home)
    assert r.provider.request_url() == "https://h.example/v1/chat/completions?api-version=2025-01-01"


def test_default_is_builtin_openai(home):
    r = resolve(home)
    assert r.provider_id == "openai" and r.provider.builtin
    assert r.provider.request_url() == "https://api.openai.com/v1/responses"


@pytest.mark.parametrize("pid,url", [("ollama", "http://localhost:11434/v1/responses"),
                                     ("lmstudio", "http://localhost:1234/v1/responses")])
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


def test_profile_overrides_top_level_and_flag_overrides_profile(home):
    write_config(home, TAOTOKEN.replace('model = "gpt-5"\n', 'model = "gpt-5"\nprofile = "fast"\n')
                 + '\n[profiles.fast]\nmodel = "fast-model"\nmodel_context_window = 8000\n')
    r = resolve(home)
    assert r.profile == "fast" and r.model == "fast-model"
    assert r.model_origin.startswith("profile `fast` (~/.codex/config.toml:")
    assert resolve(home, model="flag-model").model == "flag-model"
    assert resolve(home, profile="missing").profile_missing


def test_overrides_parse_toml_and_nest(home):
    write_config(home, TAOTOKEN)
    r = resolve(home, overrides=("model_providers.taotoken.base_url=\"http://127.0.0.1:9/v1\"", "model=plain-string",
                                 "model_context_window=4096"))
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
    r = resolve(home)
    assert r.provider_id == "taotoken"  # provider keys in a project config are ignored
    assert r.model == "project-model"  # other keys are honoured
    assert [l.kind for l in r.layers] == ["user", "project"]


def test_toml_error_has_line_and_column(home):
    write_config(home, 'model = "x"\nmodel_provider = taotoken\n')
    layer = resolve(home).user_layer
    assert layer.toml_problem.line == 2 and layer.toml_problem.column == 18


def test_bom_and_utf16_are_read(home):
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_bytes(b"\xef\xbb\xbf" + TAOTOKEN.encode())
    assert resolve(home).user_layer.encoding == "utf-8-sig"
    path.write_bytes(TAOTOKEN.encode("utf-16"))
    r = resolve(home)
    assert r.user_layer.encoding == "utf-16" and r.provider_id == "taotoken"
