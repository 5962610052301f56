"""No secret in any output: every format, verbose, files written, the config view."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codexdoctor.common.redact import Redactor, fingerprint, redact_url
from tests.conftest import TAOTOKEN, write_config

KEY = "sk-live-9f8e7d6c5b4a39281706fedcba98765432"
PASSWORD = "Zq7-wX9vK2pL4mN8rT"
QUERY_TOKEN = "qtok-1234567890abcdef"


def pieces(secret: str, size: int = 8):
    return {secret[i : i + size] for i in range(len(secret) - size + 1)}


def assert_clean(text: str, *secrets: str):
    for secret in secrets:
        for piece in pieces(secret):
            assert piece not in text, f"secret piece {piece!r} leaked"


SCENARIOS = {
    "key-in-variable": (TAOTOKEN, {"TAOTOKEN_API_KEY": KEY}),
    "key-with-newline": (TAOTOKEN, {"TAOTOKEN_API_KEY": KEY + "\n"}),
    "key-in-near-miss": (TAOTOKEN, {"TAOTOKEN_KEY": KEY}),
    "key-pasted-in-env_key": (TAOTOKEN.replace('"TAOTOKEN_API_KEY"', f'"{KEY}"'), {}),
    "key-in-misspelled-api_key": (TAOTOKEN + f'api_key = "{KEY}"\n', {}),
    "key-as-bearer-token": (
        TAOTOKEN.replace('env_key = "TAOTOKEN_API_KEY"', f'experimental_bearer_token = "{KEY}"'),
        {},
    ),
    "password-and-query-in-url": (
        TAOTOKEN.replace("https://taotoken.net/api", f"https://me:{PASSWORD}@taotoken.net/api?token={QUERY_TOKEN}"),
        {"TAOTOKEN_API_KEY": KEY},
    ),
    "key-in-query-params": (TAOTOKEN + f'query_params = {{ key = "{KEY}" }}\n', {"TAOTOKEN_API_KEY": KEY}),
    "key-in-openai-variable": ("", {"OPENAI_API_KEY": KEY}),
}


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "junit", "github"])
def test_no_secret_in_any_format(home, run, monkeypatch, tmp_path, scenario, fmt):
    config_text, env = SCENARIOS[scenario]
    if config_text:
        write_config(home, config_text)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code, out, err = run("check", "--offline", "--verbose", "--codex-version", "0.171.0", "--format", fmt)
    assert code in (0, 1)
    assert_clean(out + err, KEY, PASSWORD, QUERY_TOKEN)
    report_file = tmp_path / f"report.{fmt}"
    code, out, err = run("check", "--offline", "-v", "--format", fmt, "-o", str(report_file))
    assert_clean(report_file.read_text(encoding="utf-8") + out + err, KEY, PASSWORD, QUERY_TOKEN)
    if fmt == "json":
        json.loads(report_file.read_text(encoding="utf-8"))  # redaction must not break JSON


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_no_secret_in_config_view(home, run, monkeypatch, scenario):
    config_text, env = SCENARIOS[scenario]
    if config_text:
        write_config(home, config_text)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    for fmt in ("text", "json"):
        code, out, err = run("config", "--format", fmt)
        assert code == 0, err
        assert_clean(out + err, KEY, PASSWORD, QUERY_TOKEN)


def test_fingerprint_shape():
    assert fingerprint("abc") == "3 chars, sha256:ba7816bf"


def test_redact_url_keeps_shape():
    # A tracking tag is shown as written (the user must recognise it); credentials and key-like values are not.
    assert (
        redact_url("https://u:p@h.example:8443/api?utm_source=x&flag#frag")
        == "https://***@h.example:8443/api?utm_source=x&flag#***"
    )
    assert (
        redact_url("https://h/v1?api_key=abc&utm_medium=cpc&x=sk-abcdefghijklmnopqrst")
        == "https://h/v1?api_key=***&utm_medium=cpc&x=***"
    )


def test_redactor_home_and_keylike():
    r = Redactor(["my-secret-value-1"], home="/home/alice")
    out = r("open /home/alice/.codex/config.toml with my-secret-value-1 and sk-abcdefghijklmnop")
    assert "/home/alice" not in out and "~/.codex/config.toml" in out
    assert "my-secret-value-1" not in out and "sk-abcdefghijklmnop" not in out


_URLISH = st.lists(
    st.sampled_from(
        [
            "http",
            "https",
            "://",
            "http://",
            "https://h.example/v1",
            "?key=sk-",
            "abcdefgh1234",
            "x",
            "_",
            " ",
            "\n",
            "'",
            '"',
            "<",
            ">",
            "`",
            "é",
            "-",
            "=",
            "&",
            "@",
            "/",
            "#",
        ]
    ),
    max_size=40,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(_URLISH)
def test_url_pass_finds_what_the_pattern_finds(text):
    """redact_urls jumps to each "http" instead of letting the regex try every position: same result as `_URL.sub`."""
    from codexdoctor.common import redact

    assert redact.redact_urls(text) == redact._URL.sub(lambda m: redact.redact_url(m.group(0)), text)


def test_url_pass_respects_the_word_boundary():
    from codexdoctor.common.redact import redact_urls

    assert redact_urls("xhttp://u:p@h/ and http://u:p@h/?token=abc") == "xhttp://u:p@h/ and http://***@h/?token=***"


def test_key_shapes_on_a_long_report():
    """The scanner finds on a long text what it finds on each line alone (it jumps to keywords and long runs)."""
    from codexdoctor.common.redact import Redactor

    line = (
        '{"id": "4791c2e9-823d-11ed-a1b5-01d6d1f9bdfe", "note": "Bearer abcdefgh.ijk", "k": "xx-sk-abcdefghijkl", '
        '"run": "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "中sk-abcdefghijkl", "word_sk-abcdefghijkl"}\n'
    )
    r = Redactor([])
    out = r(line * 40)
    assert out == r(line) * 40
    assert "xx-sk-" not in out and "xx-<redacted" in out and "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345" not in out
    assert "Bearer abcdefgh.ijk" not in out and "中sk-abcdefghijkl" in out  # no word boundary after 中: not a key
    assert "4791c2e9-823d-11ed-a1b5-01d6d1f9bdfe" in out  # a UUID is an id the operator needs


def test_short_secret_is_redacted_where_it_stands_alone_not_inside_words():
    """A wrong, short "key" such as `_KEY` (what `$OTHER_KEY` becomes in .env) must not turn GW_KEY into
    GW<redacted …> all over the report; where it stands alone it is still never shown."""
    r = Redactor(["_KEY", "abc123"])
    out = r("env_key = GW_KEY; value _KEY sent; Bearer abc123; tests abc1234 and xabc123")
    assert "GW_KEY" in out and "abc1234" in out and "xabc123" in out
    assert " _KEY " not in out and "Bearer abc123" not in out and out.count("<redacted") == 2


def test_short_key_from_dotenv_substitution_never_shows_in_any_format(home):
    from codexdoctor.report.render import render
    from tests.conftest import offline_report

    write_config(home, TAOTOKEN)
    (home / ".codex" / ".env").write_text("OTHER_KEY=" + KEY + "\nTAOTOKEN_API_KEY=$OTHER_KEY\n")
    report = offline_report(home, {})
    assert [f.code for f in report.findings] == ["ENV021"]
    for fmt in ("text", "json", "markdown", "github", "junit"):
        text = render(report, fmt)
        assert "TAOTOKEN_API_KEY" in text  # the short value "_KEY" does not eat the variable's name
        assert_clean(text, KEY)


@pytest.mark.parametrize("model", ["tt-model-2024-05-13", "api-gpt-4o-mini", "key-alpha-model-v2", "ak-qwen-max"])
def test_a_model_id_with_a_gateway_key_prefix_is_shown(model):
    """Issue 40 review: `model = "tt-model-2024-05-13"` showed as "Model: <redacted 19 chars>" in the header, in
    MODEL002 and in fix's diff: the prefixed-key detector took any `tt-…` for a key."""
    from codexdoctor.common.redact import Redactor

    assert Redactor([])(f'model = "{model}"') == f'model = "{model}"'


@pytest.mark.parametrize(
    "key", ["tt-3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c", "tt_abcdefghijklmnopqr", "ak-1234567890ab", "api-7Qx2mN9pL4kR8sT1"]
)
def test_a_gateway_key_with_the_same_prefixes_is_still_masked(key):
    from codexdoctor.common.redact import Redactor

    out = Redactor([])(f"the key is {key} here")
    assert key not in out and key[4:] not in out
