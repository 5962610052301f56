"""The ticket's curl goes to the URL Codex builds, the request URL the ticket shows, and is pasteable: a secret in
the URL is a variable's reference, never the secret, never a redaction mark (issue 40 review)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import write_config
from tests.integration.test_untrusted import leaked

KEY = "Q7w9E2r4T6y8U1i3O5p7A9s2Xk3mN8bV4cZ1"
OTHER = "Zx81Lm29Qa74Ws56Ed03Rf92Tg81Yh70"


def _ticket(home, s, run, tmp_path, lang, base_query, params):
    write_config(
        home,
        'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.base_url}?{base_query}"\nenv_key = "SIM_API_KEY"\nquery_params = {{ {params} }}\n',
    )
    target = tmp_path / f"t.{lang}.md"
    run("report", "--lang", lang, "-o", str(target), "--codex-version", "0.171.0")
    return target.read_text()


def _curl_url(text):
    return re.search(r'^curl -sS -N "([^"]+)"', text, re.M).group(1)


def _request_url(text):
    return re.search(r"\| `(?:request URL|请求地址)` \| `POST ([^`]+)`", text).group(1)


@pytest.mark.simulator
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_curl_goes_to_the_request_url_with_the_key_by_its_variable(
    home, sim_server, run, monkeypatch, tmp_path, lang
):
    s = sim_server(api_key=KEY)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    text = _ticket(home, s, run, tmp_path, lang, f"key={KEY}", f'"api-version" = "{KEY}"')
    url = _curl_url(text)
    assert url == f"{s.base_url}?key=${{SIM_API_KEY}}/responses?api-version=${{SIM_API_KEY}}"
    mark = r"<(?:redacted 36 chars|已脱敏：36 个字符)，?,? ?sha256:[0-9a-f]{8}>"
    assert re.sub(mark, "${SIM_API_KEY}", _request_url(text)) == url  # the URL the table shows
    assert "/responses?key=" not in text and not leaked(text, KEY)


@pytest.mark.simulator
def test_another_secret_in_the_url_is_a_variable_the_ticket_names(home, sim_server, run, monkeypatch, tmp_path):
    s = sim_server(api_key=KEY)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    text = _ticket(home, s, run, tmp_path, "en", f"key={OTHER}", 'api-version = "preview"')
    assert _curl_url(text) == f"{s.base_url}?key=${{URL_SECRET_1}}/responses?api-version=preview"
    assert "# set URL_SECRET_1 first: the value of key= in the request URL (32 chars, sha256:" in text
    assert not leaked(text, OTHER) and not leaked(text, KEY)


def test_each_shell_writes_the_reference_it_expands():
    from codexdoctor.report.reproduce import comment_lines, url_with_variables

    url = "https://h/v1?key=<redacted 32 chars, sha256:0123abcd>/responses?api-version=<redacted 9 chars, sha256:feedbeef>"
    said = {
        "bash": "https://h/v1?key=${K}/responses?api-version=${URL_SECRET_1}",
        "fish": "https://h/v1?key=$K/responses?api-version=$URL_SECRET_1",
        "powershell": "https://h/v1?key=${env:K}/responses?api-version=${env:URL_SECRET_1}",
        "cmd": "https://h/v1?key=%K%/responses?api-version=%URL_SECRET_1%",
    }
    key = "k" * 32
    from codexdoctor.common.redact import fingerprint

    url = url.replace("32 chars, sha256:0123abcd", fingerprint(key))
    for shell, expected in said.items():
        shown, secrets = url_with_variables(url, shell, "K", key)
        assert shown == expected, shell
        assert [s.variable for s in secrets] == ["URL_SECRET_1"] and secrets[0].param == "api-version"
    assert comment_lines("cmd", secrets, "zh") == [
        "REM 先设置 URL_SECRET_1：请求地址中 api-version= 的值（9 个字符，sha256:feedbeef）"
    ]


def test_a_reference_in_a_url_is_shown_and_a_secret_after_it_is_not():
    from codexdoctor.common.redact import Redactor

    r = Redactor([])
    for shown in (
        "curl https://h/v1?key=${K}/responses?api-version=${URL_SECRET_1}",
        "curl https://h/v1?key=${env:K}/responses?api-version=2025-04-01",
        "curl https://h/v1?key=%K%/responses?api-version=%L%",
        "curl https://h/v1?key=$K/responses?api-version=$URL_SECRET_1",
    ):
        assert r(shown) == shown
    assert "s3cretTokenValue9876543210" not in r(
        "curl https://h/v1?key=${K}/responses?token=s3cretTokenValue9876543210"
    )
    assert "s3cretTokenValue9876543210" not in r("curl https://h/v1?key=${K}s3cretTokenValue9876543210")
    assert "$ecretTokenValue9876543210" not in r("curl https://h/v1?key=$ecretTokenValue9876543210")
    assert "s3cretTokenValue9876543210" not in r("key=%K%/responses?api-version=s3cretTokenValue9876543210")
