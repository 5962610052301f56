"""`codexdoctor report`: one file for a support ticket (issue 30): request ids and times, client, config, the check,
the last failed session, a reproduction, all redacted."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import write_config
from tests.integration.test_untrusted import FILLER, leaked

KEY = "Q7w9E2r4T6y8U1i3O5p7A9s2Xk3mN8bV4cZ1"  # no known prefix: only the run's own secrets catch it


def configure(home, server, extra=""):
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{server.base_url}"\nenv_key = "SIM_API_KEY"\n{extra}',
    )


def test_the_report_names_the_request_ids_the_server_logged(home, sim_server, run, monkeypatch, tmp_path):
    s = sim_server(api_key=KEY)
    configure(home, s)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    target = tmp_path / "ticket.md"
    code, out, err = run("report", "-o", str(target), "--codex-version", "0.171.0")
    assert code == 0 and "report written to" in err and "Nothing was uploaded" in err
    text = target.read_text()
    logged = [r.request_id for r in s.records if r.method == "POST"]
    assert logged and all(rid in text for rid in logged)  # the canary's and turn two's ids, as the server logged them
    for heading in (
        "## Summary",
        "## Client",
        "## Config as Codex resolves it",
        "## Requests (for the provider's logs)",
        "## Reproduce",
        "## The check",
        "## The last failed Codex session",
    ):
        assert heading in text
    assert "No failed Codex session was found" in text  # a machine with no Codex sessions at all
    assert 'curl -sS -N "http://127.0.0.1' in text and "Authorization: Bearer $SIM_API_KEY" in text
    body = json.loads((tmp_path / "ticket.request.json").read_text())
    assert body["stream"] is True and body["input"][0]["role"] == "developer"
    assert not leaked(text) and not leaked((tmp_path / "ticket.request.json").read_text())
    sent = next(r for r in s.records if r.method == "POST")
    assert "Z |" in text and sent.request_id in text  # UTC times next to the ids


def test_request_ids_inside_error_texts_and_litellm_headers(home, sim_server, run, monkeypatch, tmp_path):
    s = sim_server(api_key=KEY, models=("other",), request_id_in_text=True, error_style="litellm")
    configure(home, s)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    target = tmp_path / "t.json"
    code, out, err = run("report", "--format", "json", "-o", str(target), "--codex-version", "0.171.0")
    data = json.loads(target.read_text())
    ids = [r["request_id"] for r in data["requests"]]
    assert any(rid.startswith("req_sim_") for rid in ids), data["requests"]
    canary = next(c for c in data["check"]["checks"] if c["id"] == "api.canary")
    assert canary["facts"]["request_id"] and canary["facts"]["started_at"].endswith("Z")


def test_the_last_failed_session_with_codexs_request_id(home, run, tmp_path):
    from tests.rollout_factory import RolloutWriter

    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/v1"\nenv_key = "GW_KEY"\n',
    )
    w = RolloutWriter(home / ".codex" / "sessions")
    w.turn(9_000)
    w.turn(
        12_000,
        error="unexpected status 502 Bad Gateway: upstream failed, url: https://gw.example/v1/responses, "
        "request id: 07120c03-aaaa-bbbb-cccc-0123456789ab",
    )
    w.close()
    target = tmp_path / "t.md"
    code, out, err = run("report", "--offline", "-o", str(target))
    text = target.read_text()
    assert "07120c03-aaaa-bbbb-cccc-0123456789ab" in text and "failed at turn 2" in text
    assert "context by turn (input tokens): 9,000" in text


def test_the_whole_file_is_redacted(home, sim_server, run, monkeypatch, tmp_path):
    s = sim_server(api_key=KEY, stream_fault="response_failed", fault_message=FILLER[:217] + "{auth} rejected")
    configure(home, s, 'query_params = { token = "qt-Z8x6C4v2B0n9M7k5" }\n')
    monkeypatch.setenv("SIM_API_KEY", KEY)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    for fmt in ("markdown", "json"):
        target = out_dir / f"t.{fmt}"
        run("report", "--format", fmt, "-o", str(target), "--codex-version", "0.171.0")
        for path in out_dir.iterdir():
            text = path.read_text()
            assert not leaked(text) and not leaked(text, "qt-Z8x6C4v2B0n9M7k5"), path
            assert str(home) not in text  # home folders as ~


def test_curl_in_each_shell():
    from codexdoctor.report.reproduce import curl_command

    assert "Authorization: Bearer $K" in curl_command("bash", "https://h/v1/responses", "K", "b.json", {})
    ps = curl_command("powershell", "https://h/v1/responses", "K", "b.json", {})
    assert ps.startswith("curl.exe") and "$env:K" in ps and " `\n" in ps
    assert "%K%" in curl_command("cmd", "https://h/v1/responses", "K", "b.json", {})


def test_request_id_from_headers_or_text():
    from codexdoctor.net.exchange import request_id_of

    assert request_id_of({"x-litellm-call-id": "abc-123-def"}) == "abc-123-def"
    assert request_id_of({"x-request-id": "req_1", "x-litellm-call-id": "other"}) == "req_1"
    assert (
        request_id_of({}, '{"error": {"message": "quota exceeded (request id: 2025120112345678abcd)"}}')
        == "2025120112345678abcd"
    )
    assert request_id_of({}, "no id here") is None


def test_a_chinese_report_is_chinese_through_and_through(home, run, tmp_path, monkeypatch):
    """Issue 40: the zh ticket's summary paragraph, its table values and the terminal line were English."""
    import re

    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/v1"\nenv_key = "GW_KEY"\n',
    )
    monkeypatch.setenv("GW_KEY", "sk-gw-0123456789abcdefghijklmnop")
    target = tmp_path / "t.md"
    code, out, err = run("report", "--offline", "--lang", "zh", "-o", str(target))
    text = target.read_text()
    assert "# Codex CLI 支持报告" in text and "## 最近一次失败的 Codex 会话" in text
    summary = text.split("## 摘要", 1)[1].split("##", 1)[0]
    assert "一位 Codex CLI 用户" in summary and "A user of" not in summary
    head = text.split("## 检查结果", 1)[0]  # summary, client, config and requests: the ticket's own words
    for english in ("not set", "Codex default", "chars", "request URL", "platform", "proxy variable"):
        assert english not in head, english
    assert "报告已写入" in err and "report written" not in err
    assert not re.search(r"\b(the|and|of|with)\b", summary.replace("`", " ")), summary


def test_the_ticket_tells_of_its_own_providers_session_at_the_time_it_failed(home, run, tmp_path):
    """Issue 40: the requests table gave the failing session's start as the failing request's time (its error line
    came after Codex's retries), and a ticket about one provider told of another provider's session."""
    from datetime import datetime, timezone

    from tests.rollout_factory import RolloutWriter

    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/v1"\nenv_key = "GW_KEY"\n',
    )
    start = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)
    w = RolloutWriter(home / ".codex" / "sessions", start=start, provider="gw", model="m")
    w.turn(9_000)
    w.turn(12_000, error="unexpected status 502 Bad Gateway, request id: 07120c03-aaaa-bbbb-cccc-0123456789ab")
    w.close()
    other = RolloutWriter(home / ".codex" / "sessions", start=start.replace(hour=10), provider="tt-small", model="m")
    other.turn(9_000, error="unexpected status 401 Unauthorized")
    other.close()
    target = tmp_path / "t.md"
    run("report", "--offline", "-o", str(target))
    text = target.read_text()
    row = next(line for line in text.splitlines() if "07120c03-aaaa" in line and line.startswith("|"))
    assert "09:00:00" not in row.split("|")[2], row  # not the session's start …
    failed_at = re.search(r"failed at turn 2 \(([^)]+)\)", text).group(1)
    assert failed_at in row  # … but the error line's own time
    last = text.split("## The last failed Codex session", 1)[1].split("<details>", 1)[0]
    assert "provider `gw`" in last and "tt-small" not in last


@pytest.mark.parametrize(
    "lang,said",
    [
        (
            "en",
            "No failed session of provider `gw` was found on this machine: this report tells only of the sessions of "
            "the provider it is filed for. 2 failed sessions of other providers were found; `codexdoctor sessions` "
            "lists them.",
        ),
        (
            "zh",
            "这台机器上没有找到提供方 `gw` 的失败会话：本报告只讲它所针对的提供方的会话。其他提供方有 2 个失败的会话",
        ),
    ],
)
def test_no_failed_session_of_its_provider_says_whose_it_looked_for(home, run, tmp_path, lang, said):
    """Issue 40: "No failed Codex session was found on this machine" while `sessions` listed failed sessions (of
    another provider): the report says it looked only at its own provider's."""
    from datetime import datetime, timezone

    from tests.rollout_factory import RolloutWriter

    write_config(
        home,
        'model = "m"\nmodel_provider = "gw"\n[model_providers.gw]\nname = "gw"\n'
        'base_url = "https://gw.example/v1"\nenv_key = "GW_KEY"\n',
    )
    start = datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)
    for hour in (9, 10):
        other = RolloutWriter(home / ".codex" / "sessions", start=start.replace(hour=hour), provider="tt", model="m")
        other.turn(9_000, error="unexpected status 401 Unauthorized")
        other.close()
    target = tmp_path / "t.md"
    run("report", "--offline", "--lang", lang, "-o", str(target))
    text = " ".join(target.read_text().split())
    assert said in text and "No failed Codex session" not in text and "没有找到失败的 Codex 会话" not in text


# ---- issue 36 (2): the request file carries the request's shape, not the user's texts ------------------------------

AGENTS = (
    "# Team rules\nDeploy through https://intranet.zebra-orchard.example/deploy as svc-zebra-orchard.\n"
    "On-call: Marguerite Quillfeather, pager 0151-9988-7766.\n内部规则：只在斑马果园集群上发布。\n"
) * 12
SECRET_WORDS = ("zebra-orchard", "Quillfeather", "0151-9988-7766", "斑马果园", "Bespoke-Lighthouse", "kestrel-vault")


def configure_with_documents(home, server, tmp_path, monkeypatch):
    """A user with an AGENTS.md, developer_instructions and a working folder whose names must not leave the machine."""
    configure(home, server, "")
    config = home / ".codex" / "config.toml"
    config.write_text(
        'developer_instructions = "Answer as Bespoke-Lighthouse would."\n' + config.read_text(), encoding="utf-8"
    )
    project = tmp_path / "kestrel-vault"
    (project / ".git").mkdir(parents=True)
    (project / "AGENTS.md").write_text(AGENTS, encoding="utf-8")
    monkeypatch.chdir(project)
    monkeypatch.setenv("SIM_API_KEY", KEY)
    return project


def sent_first_request(server):
    """Codex's first request as the simulator received it (the one with the AGENTS.md item)."""
    return next(r.body for r in server.records if r.method == "POST" and r.body and len(r.body["input"]) > 3)


def texts_of(body):
    return [(i["role"], c["text"]) for i in body["input"] for c in i["content"]]


def test_the_request_file_holds_the_shape_and_no_text_of_the_users_documents(
    home, sim_server, run, monkeypatch, tmp_path
):
    """Before: <ticket>.request.json held the AGENTS.md, developer_instructions and the working folder word for word."""
    s = sim_server(api_key=KEY, keep_bodies=True)
    project = configure_with_documents(home, s, tmp_path, monkeypatch)
    code, _, err = run("report", "-o", str(project / "t.md"), "--codex-version", "0.171.0")
    assert code == 0, err
    raw = (project / "t.request.json").read_text(encoding="utf-8")
    ticket = (project / "t.md").read_text(encoding="utf-8")
    for word in SECRET_WORDS:
        assert word not in raw, word
    assert not any(line in raw for line in AGENTS.splitlines() if len(line) >= 8)
    assert not leaked(raw)
    from codexdoctor.codex.request import compact, template
    from codexdoctor.common import tokens

    # The same request otherwise: fields, items, roles, model, tools; Codex's own texts as they are.
    body, sent = json.loads(raw), sent_first_request(s)
    assert list(body) == list(sent) and body["model"] == sent["model"] and body["tools"] == sent["tools"]
    assert [(i["type"], i["role"], len(i["content"])) for i in body["input"]] == [
        (i["type"], i["role"], len(i["content"])) for i in sent["input"]
    ]
    tpl = template()
    o200k = tokens.load("o200k_base")
    for (role, text), (_, original) in zip(texts_of(body), texts_of(sent)):
        if original in (tpl["base_instructions"], tpl["permissions_instructions"]):
            assert text == original
            continue
        assert text != original
        # the same size in the body and the same number of tokens
        assert len(json.dumps(text, ensure_ascii=False).encode()) == len(
            json.dumps(original, ensure_ascii=False).encode()
        )
        assert o200k.count(text) == o200k.count(original)
    assert len(raw.encode()) == len(compact(sent).encode())
    # The ticket says exactly what is in it.
    assert "None of the user's AGENTS.md files, instructions, working folder or CODEX_HOME is in it" in ticket
    assert "| `input[3].content[0].text` your AGENTS.md files | user |" in ticket
    assert "a placeholder of the same size and tokens" in ticket and "as sent (Codex's own)" in ticket
    assert "Tools: `exec_command`" in ticket
    for word in SECRET_WORDS[:-1]:  # the working folder's name is in the check's evidence, as in every -v report
        assert word not in ticket, word


def test_the_shape_only_file_reproduces_with_curls_request(home, sim_server, run, monkeypatch, tmp_path):
    """What the ticket's curl command sends: the file as the body. It is a valid request, and a window too small for
    the user's request is too small for it as well (the same tokens, within the framing the server adds)."""
    import httpx

    s = sim_server(api_key=KEY, keep_bodies=True)
    project = configure_with_documents(home, s, tmp_path, monkeypatch)
    assert run("report", "-o", str(project / "t.md"), "--codex-version", "0.171.0")[0] == 0
    data = (project / "t.request.json").read_bytes()
    headers = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json", "Accept": "text/event-stream"}
    answer = httpx.post(s.base_url + "/responses", content=data, headers=headers, timeout=30)
    assert answer.status_code == 200 and "response.completed" in answer.text
    original = next(r for r in s.records if r.method == "POST" and r.body and len(r.body["input"]) > 3)
    replayed = s.records[-1]
    assert abs(replayed.input_tokens - original.input_tokens) <= 8, (replayed.input_tokens, original.input_tokens)
    small = sim_server(api_key=KEY, context_window=original.input_tokens - 50)
    refused = httpx.post(small.base_url + "/responses", content=data, headers=headers, timeout=30)
    assert refused.status_code == 400 and "context" in refused.text.lower()


def test_include_request_text_writes_the_texts_redacted(home, sim_server, run, monkeypatch, tmp_path):
    s = sim_server(api_key=KEY, keep_bodies=True)
    project = configure_with_documents(home, s, tmp_path, monkeypatch)
    (project / "AGENTS.md").write_text(AGENTS + f"\nOur key: {KEY}\n", encoding="utf-8")
    code, _, err = run("report", "--include-request-text", "--format", "json", "-o", str(project / "t.json"))
    assert code == 0, err
    raw = (project / "t.request.json").read_text(encoding="utf-8")
    assert "zebra-orchard" in raw and "Bespoke-Lighthouse" in raw and "kestrel-vault" in raw
    assert not leaked(raw) and "<redacted 36 chars" in raw  # redacted like any outside text
    reproduce = json.loads((project / "t.json").read_text())["reproduce"]
    assert reproduce["request_file"] == "t.request.json" and reproduce["request_file_holds"] == "texts"
    assert [t["what"] for t in reproduce["request"]["texts"]][-3:] == [
        "your AGENTS.md files",
        "the environment context (your working folder and shell)",
        "codexdoctor's one-line question",
    ]


def test_the_json_ticket_describes_the_placeholders(home, sim_server, run, monkeypatch, tmp_path):
    s = sim_server(api_key=KEY, keep_bodies=True)
    project = configure_with_documents(home, s, tmp_path, monkeypatch)
    assert run("report", "--format", "json", "-o", str(project / "t.json"))[0] == 0
    request = json.loads((project / "t.json").read_text())["reproduce"]
    assert request["request_file_holds"] == "placeholders"
    shape = request["request"]
    assert shape["model"] == "sim-model" and "exec_command" in shape["tools"] and "input" in shape["fields"]
    assert shape["file_bytes"] == shape["body_bytes"] == len((project / "t.request.json").read_bytes())
    agents = next(t for t in shape["texts"] if t["what"] == "your AGENTS.md files")
    assert agents["kept"] is False and agents["chars"] > len(AGENTS) and agents["bytes"] > agents["chars"]
    assert (agents["file_bytes"], agents["file_tokens"]) == (agents["body_bytes"], agents["tokens"])


def test_the_chinese_ticket_says_what_the_request_file_holds(home, sim_server, run, monkeypatch, tmp_path):
    s = sim_server(api_key=KEY)
    project = configure_with_documents(home, s, tmp_path, monkeypatch)
    assert run("report", "--lang", "zh", "-o", str(project / "t.md"))[0] == 0
    text = (project / "t.md").read_text()
    assert "其中没有用户的 AGENTS.md 文件" in text and "同样大小、同样 token 数的占位文本" in text
    assert "你的 AGENTS.md 文件" in text


@pytest.mark.parametrize("size, tokens", [(14, 4), (2136, 479), (2376, 567), (40, 30), (300, 5), (1, 1), (5, 1)])
def test_placeholders_take_the_size_and_the_tokens_asked_for(size, tokens):
    from codexdoctor.codex.request import PLACEHOLDER_WORDS, placeholder
    from codexdoctor.common import tokens as tokens_mod

    for name in ("o200k_base", "cl100k_base"):
        tok = tokens_mod.load(name)
        assert all(tok.count(w) == 1 for words in PLACEHOLDER_WORDS.values() for w in words), name
        text = placeholder("[codexdoctor placeholder for a text: 99 characters, not included]", size, tokens, tok.count)
        assert len(text.encode()) == size and text.isascii()
        feasible = 2 * tokens <= size <= 15 * tokens
        if feasible:
            assert tok.count(text) == tokens, (name, text)
        else:  # denser or sparser than any word: the nearest count
            assert tok.count(text) == (size // 2 if 2 * tokens > size else -(-size // 15)) or size < 2
