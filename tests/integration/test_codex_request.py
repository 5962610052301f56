"""The canary is Codex 0.171's own first request: its fields, items and size decide what `check` predicts."""

import json
from pathlib import Path

import pytest

from codexdoctor.codex import config
from codexdoctor.codex import request as codexrequest
from codexdoctor.common import tokens
from codexdoctor.model import Verdict
from tests.conftest import write_config
from tests.integration.test_live_integration import KEY, codes, configure, finding, live


def test_template_is_codex_0171_shape():
    tpl = codexrequest.template()
    assert tpl["codex_version"] == "0.171.0"
    assert tpl["base_instructions"].startswith("You are a coding agent running in the Codex CLI")
    assert {t.get("type") for t in tpl["tools"]} == {"function", "namespace", "web_search"}
    assert tpl["fields"] == {
        "tool_choice": "auto",
        "parallel_tool_calls": True,
        "reasoning": {"summary": "auto"},
        "store": False,
        "include": ["reasoning.encrypted_content"],
    }


def _resolve(home, cwd):
    return config.resolve({"HOME": str(home)}, home, cwd, system_config=None)


def test_body_carries_codex_fields_developer_items_and_the_users_agents_files(home, tmp_path):
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    (project / "sub").mkdir()
    (project / "AGENTS.md").write_text("Use tabs. " * 300)
    (project / "sub" / "AGENTS.override.md").write_text("Sub rules win.")
    (project / "sub" / "AGENTS.md").write_text("never read: the override comes first")
    write_config(home, 'model_reasoning_effort = "high"\n')
    (home / ".codex" / "AGENTS.md").write_text("Always write tests. " * 200)
    tok = tokens.load("o200k_base")
    fr = codexrequest.build(_resolve(home, project / "sub"), "m", "Reply with: ok", tok.count, cwd=project / "sub")
    body = fr.body
    assert [i["role"] for i in body["input"]] == ["developer", "developer", "user", "user", "user"]
    assert body["reasoning"] == {"summary": "auto", "effort": "high"}
    assert body["include"] == ["reasoning.encrypted_content"] and body["parallel_tool_calls"] is True
    assert body["max_output_tokens"] == 16 and body["stream"] is True and "instructions" not in body
    agents = body["input"][2]["content"][0]["text"]
    assert agents.startswith(f"# AGENTS.md instructions for {project / 'sub'}\n\n<INSTRUCTIONS>\nAlways write tests.")
    assert "--- project-doc ---" in agents and "Sub rules win." in agents and "never read" not in agents
    assert [(d.scope, Path(d.path).name) for d in fr.docs] == [
        ("global", "AGENTS.md"),
        ("project", "AGENTS.md"),
        ("project", "AGENTS.override.md"),
    ]
    # 3,000 chars of "Use tabs. " is 900 tokens; the whole request is Codex's ~8.5K plus the files
    assert 8400 + 1300 < fr.tokens < 8400 + 2200
    assert json.dumps(body)  # serialisable as sent


def test_project_docs_are_capped_like_codex(home, tmp_path):
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    (project / "AGENTS.md").write_text("x " * 40000)  # 80 KB: Codex keeps project_doc_max_bytes (32 KiB)
    tok = tokens.load("o200k_base")
    fr = codexrequest.build(_resolve(home, project), "m", "hi", tok.count, cwd=project)
    assert fr.docs[0].bytes == 32768 and fr.docs[0].truncated


def test_fifo_agents_file_is_skipped(home, tmp_path):
    import os

    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    os.mkfifo(project / "AGENTS.md")
    fr = codexrequest.build(_resolve(home, project), "m", "hi", tokens.load("o200k_base").count, cwd=project)
    assert fr.docs == ()


def test_provider_rejecting_a_field_codex_sends_is_a_channel_finding(home, sim_server):
    s = sim_server(api_key=KEY, reject_fields=("reasoning",))
    configure(home, s.base_url)
    report, _ = live(home)
    assert report.verdict is Verdict.CHANNEL
    assert codes(report) == ["API017"]
    f = finding(report, "API017")
    assert "reasoning" in f.diagnosis and "minimal request to the same URL passed" in f.diagnosis
    posts = [r for r in s.records if r.method == "POST"]
    assert [r.outcome for r in posts] == ["rejected_field", "ok"]  # Codex's request, then the minimal one


def test_gateway_breaking_on_developer_items_is_named(home, sim_server):
    s = sim_server(api_key=KEY, reject_developer=True)
    configure(home, s.base_url)
    report, _ = live(home)
    assert codes(report) == ["API017"]
    assert "a `developer` input item" in finding(report, "API017").diagnosis


def test_refused_max_output_tokens_is_ours_not_codexs(home, sim_server):
    """codexdoctor adds max_output_tokens to stay cheap; Codex never sends it, so a refusal of it is no finding."""
    s = sim_server(api_key=KEY, reject_fields=("max_output_tokens",))
    configure(home, s.base_url)
    report, _ = live(home)
    assert report.verdict is Verdict.OK, report.findings
    # refused, re-sent without it, then turn two built on the accepted request (issue 31)
    assert [r.outcome for r in s.records if r.method == "POST"] == ["rejected_field", "ok", "ok"]


@pytest.mark.parametrize("style", ["openai", "llamacpp", "vllm", "litellm"])
def test_unpublished_window_smaller_than_codexs_first_request_is_context(home, sim_server, style):
    s = sim_server(api_key=KEY, context_window=6000, error_style=style, models=("sim-model",))
    configure(home, s.base_url)
    report, _ = live(home)
    assert report.verdict is Verdict.CONTEXT, report.findings
    assert codes(report) == ["CTX024"]
    f = finding(report, "CTX024")
    assert "A one-line request to the same URL passed" in f.diagnosis
    assert "tool schemas" in f.diagnosis and "instructions" in f.diagnosis
    window = next(c for c in report.checks if c.id == "ctx.window")
    assert window.facts["first_fit"] is False


def test_agents_files_named_when_they_push_the_first_request_over(home, sim_server, tmp_path, monkeypatch):
    s = sim_server(api_key=KEY, context_window=10000)
    configure(home, s.base_url)
    project = tmp_path / "repo"
    (project / ".git").mkdir(parents=True)
    (project / "AGENTS.md").write_text("Explain every change in detail. " * 500)
    monkeypatch.chdir(project)
    report, _ = live(home)
    assert codes(report) == ["CTX024"]
    remedy = " ".join(finding(report, "CTX024").remedy)
    assert "AGENTS.md" in remedy and "tokens" in remedy
    monkeypatch.chdir(home)
    # Without the file the first request fits; the request after a tool call (~11,000 tokens) does not (issue 31)
    without = live(home)[0]
    assert codes(without) == ["CTX028", "CTX025"] and without.verdict is Verdict.CONTEXT


def test_published_window_below_first_request_names_the_size(home, sim_server):
    s = sim_server(api_key=KEY, context_window=8000, publish_window=True)
    configure(home, s.base_url)
    report, _ = live(home)
    assert codes(report) == ["CTX002"]  # one cause, one error: CTX024 is settled by the published window
    assert "first request for you is about" in finding(report, "CTX002").diagnosis


def test_published_window_just_above_first_request_is_context_at_the_first_tool_round(home, sim_server):
    """Real Codex 0.171 answers one question through a 9,000-token window (first request 8,517), and fails at its first
    command: the request after a tool call does not fit (issue 31; scripts/crosscheck_turn_two.py, the 10K case)."""
    s = sim_server(api_key=KEY, context_window=9000, publish_window=True)
    configure(home, s.base_url)
    report, _ = live(home)
    assert report.verdict is Verdict.CONTEXT and codes(report) == ["CTX028", "CTX001"]
    assert (
        "only" in finding(report, "CTX001").diagnosis
        and "tokens are left for the session" in finding(report, "CTX001").diagnosis
    )


def test_unpublished_window_that_fits_is_never_a_silent_ok(home, sim_server):
    s = sim_server(api_key=KEY, context_window=20000)
    configure(home, s.base_url)
    report, _ = live(home)
    assert report.verdict is Verdict.OK
    assert [f.code for f in report.findings] == ["CTX025"]
    assert "codexdoctor probe" in finding(report, "CTX025").remedy[0]
    assert "unknown" in report.verdict_reason


def test_provider_messages_are_summarised_to_one_line():
    from codexdoctor.net.classify import summarize

    dump = "20 validation errors:\n  {'type': 'string_type', 'loc': ('body', 'messages', 0)}\n" + "  more\n" * 50
    assert summarize(dump) == "20 validation errors: {'type': 'string_type', 'loc': ('body', 'messages', 0)}"
    assert len(summarize("word " * 200)) <= 240 and summarize("word " * 200).endswith("word…")
    assert summarize("x" * 1000) == "…"  # one token longer than the excerpt may be a key: never cut, dropped whole


def test_identifiers_in_error_bodies_are_not_taken_for_keys():
    from codexdoctor.common.redact import Redactor

    r = Redactor([])
    assert r("loc: ChatCompletionRequestSystemMessage") == "loc: ChatCompletionRequestSystemMessage"
    assert "<redacted" in r("token a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8 leaked")


@pytest.mark.parametrize(
    "text,window,size",
    [
        (
            "This model's maximum context length is 8192 tokens. However, your messages resulted in 9,300 tokens.",
            8192,
            9300,
        ),
        (
            "litellm.ContextWindowExceededError: OpenAIException - request (20133 tokens) exceeds the available context size "
            "(8192 tokens), try increasing it",
            8192,
            20133,
        ),
        ('{"error":{"code":400,"type":"exceed_context_size_error","n_prompt_tokens":4454,"n_ctx":4096}}', 4096, 4454),
        (
            "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens "
            "(parameter=input_tokens, value=5000)",
            4096,
            5000,
        ),
        ("Your input exceeds the context window of this model.", None, None),
    ],
)
def test_context_numbers_from_every_family(text, window, size):
    from codexdoctor.net.classify import context_numbers

    assert context_numbers(text) == (window, size)


def test_remedy_uses_the_servers_own_count(home, sim_server):
    s = sim_server(api_key=KEY, context_window=6000, error_style="llamacpp")
    configure(home, s.base_url)
    report, _ = live(home)
    canary = next(c for c in report.checks if c.id == "api.canary")
    assert canary.facts["server_window"] == 6000 and canary.facts["server_request"] > 6000
    assert (
        f"{canary.facts['server_request']:,} tokens as this server counts them" in finding(report, "CTX024").remedy[0]
    )


def test_misspelled_base_url_is_tested_where_the_user_meant_and_nowhere_else(home, sim_server):
    """`baseURL` is ignored: Codex would send the gateway key to api.openai.com. codexdoctor never does; since issue 28
    it tests the URL the user wrote, as if CFG006's rename were made, so the same run names what comes after it."""
    import httpx

    s = sim_server(api_key=KEY)
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'baseURL = "{s.base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    sent = []
    original = httpx.Client.send
    httpx.Client.send = lambda self, request, **kw: sent.append(str(request.url)) or original(self, request, **kw)
    try:
        report, _ = live(home)
    finally:
        httpx.Client.send = original
    assert sent and all(url.startswith(s.base_url.rsplit("/", 1)[0] + "/") for url in sent), sent  # that host only
    assert report.verdict is Verdict.CONFIG and "CFG006" in codes(report)
    assert any("`baseURL` renamed to base_url" in n for n in report.notes)


def test_builtin_provider_with_env_key_only_names_the_missing_login(home):
    report, _ = live(home, {"SIM_API_KEY": None, "OPENAI_API_KEY": "sk-only-in-env-0123456789"})
    assert report.verdict is Verdict.CONFIG and "ENV012" in codes(report)
    assert "--offline" not in report.verdict_reason


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_shipped_token_counts_match_the_tokenizer(name):
    """The template's counts spare loading the tokenizer (~85 MB) on every check; they must be the real ones."""
    tpl = codexrequest.template()
    tok = tokens.load(name)
    shipped = tpl["token_counts"][name]
    assert shipped["base_instructions"] == tok.count(tpl["base_instructions"])
    assert shipped["tools"] == tok.count(json.dumps(tpl["tools"]))
    assert shipped["skills_instructions"] == tok.count(tpl["skills_instructions"].replace("{codex_home}", ""))


def test_without_user_files_no_tokenizer_is_loaded_and_the_size_is_close(home, tmp_path):
    loads = []
    tok = tokens.load("o200k_base")

    def load_counter():
        loads.append(1)
        return tok.count, tok.name

    project = tmp_path / "p"
    project.mkdir()
    quick = codexrequest.build(_resolve(home, project), "m", "Reply with: ok", cwd=project, load_counter=load_counter)
    exact = codexrequest.build(_resolve(home, project), "m", "Reply with: ok", tok.count, cwd=project)
    assert loads == [] and abs(quick.tokens - exact.tokens) <= 20
    (project / "AGENTS.md").write_text("Rules.")
    codexrequest.build(_resolve(home, project), "m", "Reply with: ok", cwd=project, load_counter=load_counter)
    assert loads == [1]


@pytest.mark.parametrize("chat_only,verdict_canary", [(False, "pass"), (True, "fail")])
def test_wire_api_chat_still_tests_the_responses_fix(home, sim_server, chat_only, verdict_canary):
    s = sim_server(api_key=KEY, chat_only=chat_only)
    configure(home, s.base_url)
    (home / ".codex" / "config.toml").write_text(
        (home / ".codex" / "config.toml").read_text().replace('wire_api = "responses"', 'wire_api = "chat"')
    )
    report, _ = live(home)
    assert "CFG011" in codes(report) and report.verdict is Verdict.CONFIG
    assert any(
        n.startswith("The live checks ran as if the certain fixes were made") and 'wire_api = "responses"' in n
        for n in report.notes
    )
    assert all(
        c.facts.get("as_if_fixed") == ['wire_api = "responses"'] for c in report.checks if c.id.startswith("api.")
    )
    canary = next(c for c in report.checks if c.id == "api.canary")
    assert canary.status.value == verdict_canary
    assert any(r.path == "/v1/responses" for r in s.records if r.method == "POST")


def test_flaky_5xx_is_not_blamed_on_codexs_request(home, sim_server):
    """A 502 on Codex's request and a lucky minimal request after it: the channel, not a rejected field."""
    s = sim_server(api_key=KEY, failure_rate=0.8, failure_kinds=("502", "reset"), failure_seed=11)
    configure(home, s.base_url)
    report, _ = live(home)
    assert "API017" not in codes(report) and report.verdict is Verdict.CHANNEL


@pytest.mark.parametrize(
    "message,field",
    [
        ("Unsupported parameter: 'store'", "store"),
        ("could not restore the session; nothing included", None),  # no whole-word field named
        ("Extra inputs are not permitted: include", "include"),
        ("tools are not supported by this model", "tools"),
    ],
)
def test_rejected_field_matches_whole_words(message, field):
    from codexdoctor.checks.live import rejected_field
    from codexdoctor.net.exchange import Exchange

    ex = Exchange("POST", "http://h/v1/responses", 400, body_excerpt=message, body_json={"error": {"message": message}})
    assert rejected_field(ex, message) == field


@pytest.mark.parametrize(
    "line, check",
    [
        # each captured from the real Codex 0.171.0's first request with that line in config.toml (issue 27)
        ('model_reasoning_summary = "detailed"', lambda b: b["reasoning"] == {"summary": "detailed"}),
        ('model_reasoning_effort = "high"', lambda b: b["reasoning"] == {"effort": "high", "summary": "auto"}),
        ('web_search = "disabled"', lambda b: "web_search" not in [t.get("type") for t in b["tools"]]),
        ('web_search = "live"', lambda b: "web_search" in [t.get("type") for t in b["tools"]]),
        ('model_verbosity = "low"', lambda b: "text" not in b),
    ],
)
def test_config_keys_that_shape_the_first_request(home, line, check):
    from codexdoctor.codex import request as codexrequest
    from codexdoctor.codex.config import resolve

    write_config(home, line + "\n")
    r = resolve({"HOME": str(home)}, home, Path.cwd(), (), None, None, None, (0, 171, 0))
    assert check(codexrequest.build(r, "m", "say hi", count=len).body)
