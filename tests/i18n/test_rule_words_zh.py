"""Issue 40, "every word in the user's language": what a Chinese finding quotes of its facts is said in Chinese too,
the facts' data (numbers, digests, status codes) as they came. The English findings stay as they were."""

from __future__ import annotations

import pytest

from codexdoctor.model import CheckResult, Status
from codexdoctor.rules import RULES_BY_CODE, evaluate
from tests.conftest import TAOTOKEN, offline_report, write_config


def _finding(code: str, facts: dict, lang: str):
    rule = RULES_BY_CODE[code]
    (found,) = evaluate([CheckResult(rule.check, rule.check, Status.FAIL, "", facts)], [rule], lang)
    return found


def test_a_key_fingerprint_is_said_in_chinese(home):
    """ENV021 quoted env.key's `key_fingerprint` as it is: "$K（16 chars, sha256:…）" in a Chinese report."""
    write_config(home, TAOTOKEN)
    env = {"OPENAI_API_KEY": "sk-o-0123456789abcdef", "TAOTOKEN_API_KEY": "sk-x-0123456789\n"}
    zh = offline_report(home, env, lang="zh")
    en = offline_report(home, env, lang="en")
    (said,) = [f.diagnosis for f in zh.findings if "sha256:" in f.diagnosis]
    assert "16 个字符，sha256:" in said and "chars" not in said, said
    (english,) = [f.diagnosis for f in en.findings if "sha256:" in f.diagnosis]
    assert "(16 chars, sha256:" in english, english


def test_every_fingerprint_fact_is_said():
    """Every fact in a fingerprint's shape is said (a shell's value, an env_key that is itself a key); a value of
    another shape is not."""
    from codexdoctor.checks.base import fingerprints_said

    facts = {"shell_fp": "40 chars, sha256:0a1b2c3d", "env_key": "<51 chars, sha256:1a2b3c4d>", "source": "environment"}
    said = fingerprints_said(facts)
    assert {k: m.text("zh") for k, m in said.items()} == {
        "shell_fp": "40 个字符，sha256:0a1b2c3d",
        "env_key": "<51 个字符，sha256:1a2b3c4d>",
    }
    assert {k: m.text("en") for k, m in said.items()} == {k: facts[k] for k in said}


def test_the_first_requests_parts_are_named_in_chinese():
    """CTX024 listed Codex's first request by its parts' English names (instructions, tool schemas, …) in Chinese;
    it says them in the words of the evidence line (codex/request.PART_WORDS), AGENTS.md as the file it is."""
    from tests.rules.healthy import HEALTHY
    from tests.rules.test_ctx import CANARY_OVERFLOW

    parts = [*HEALTHY["api.canary"]["first_parts"], {"part": "AGENTS.md", "tokens": 300}]
    facts = {**HEALTHY["api.canary"], **CANARY_OVERFLOW, "minimal_kind": "ok", "first_parts": parts}
    zh = _finding("CTX024", facts, "zh").diagnosis
    assert "指令 3,527，技能与权限说明 546，工具定义 4,293，环境信息 127，提示词 8，AGENTS.md 300" in zh, zh
    en = _finding("CTX024", facts, "en").diagnosis
    assert "instructions 3,527, skills and permissions 546, tool schemas 4,293" in en, en


def test_the_earlier_attempts_are_said_in_chinese():
    """ "之前几次：reset、502、reset": a transport failure among the earlier attempts is said in words, in the evidence
    line and in API015; a status and a provider's error code stay as they came. The English keeps the codes."""
    from codexdoctor.net.exchange import Exchange
    from tests.rules.healthy import HEALTHY

    ex = Exchange(
        "POST", "http://127.0.0.1:1/v1/responses", status=200, attempts=4, earlier=("reset", "502", "timeout")
    )
    zh = ex.line().text("zh")
    assert "之前几次：连接被重置、502、超时" in zh, zh
    assert "earlier: reset, 502, timeout" in ex.line().text("en")
    facts = {**HEALTHY["api.canary"], "attempts": 3, "earlier": ["reset", "502", "rate_limit_exceeded"]}
    said = _finding("API015", facts, "zh").diagnosis
    assert "（之前：连接被重置、502、rate_limit_exceeded）" in said, said
    assert "(earlier: reset, 502, rate_limit_exceeded)" in _finding("API015", facts, "en").diagnosis


def test_repeated_earlier_attempts_are_counted():
    """ "之前几次：rate_limit_exceeded、rate_limit_exceeded、…" five times over: a repeated answer is said once with
    its count, in the evidence line and in API015, in both languages (`连接被重置、2 次 502`)."""
    from codexdoctor.net.exchange import Exchange
    from tests.rules.healthy import HEALTHY

    ex = Exchange(
        "POST", "http://127.0.0.1:1/v1/responses", status=200, attempts=6, earlier=("rate_limit_exceeded",) * 5
    )
    assert "之前几次：5 次 rate_limit_exceeded）" in ex.line().text("zh"), ex.line().text("zh")
    assert "earlier: 5 × rate_limit_exceeded]" in ex.line().text("en"), ex.line().text("en")
    facts = {**HEALTHY["api.canary"], "attempts": 4, "earlier": ["reset", "502", "502"]}
    said = _finding("API015", facts, "zh").diagnosis
    assert "（之前：连接被重置、2 次 502）" in said, said
    assert "(earlier: reset, 2 × 502)" in _finding("API015", facts, "en").diagnosis
    twice = Exchange("POST", "http://127.0.0.1:1/v1/responses", status=200, attempts=3, earlier=("reset", "reset"))
    assert "之前几次：2 次连接被重置）" in twice.line().text("zh"), twice.line().text("zh")


def test_turn_twos_repeated_items_are_counted():
    """ "第二轮加上 function_call、function_call、function_call_output、function_call_output": the items of a kind are
    counted, in the turn-two evidence line and in the rules that list them (API021, API031)."""
    from codexdoctor.checks.live.turn_two import _added
    from codexdoctor.codex.request import TurnTwo
    from tests.rules.healthy import HEALTHY

    kinds = ("function_call", "function_call", "function_call_output", "function_call_output")
    (line,) = _added(TurnTwo(body={}, item_kinds=kinds, added_bytes=11_200), 2)
    assert line.text("zh").startswith("第二轮加上 2 个 function_call、2 个 function_call_output（"), line.text("zh")
    assert line.text("en").startswith("turn two adds 2 × function_call, 2 × function_call_output ("), line.text("en")
    facts = {**HEALTHY["api.turn_two"], "kind": "bad_request", "status": 400, "message": "no", "item_kinds": kinds}
    parallel = {**facts, "parallel_refused": True, "single_status": 200, "single_kind": "ok"}
    for code, f in (("API021", facts), ("API031", parallel)):
        zh, en = _finding(code, f, "zh").diagnosis, _finding(code, f, "en").diagnosis
        assert "2 个 function_call、2 个 function_call_output" in zh and "function_call、function_call" not in zh, zh
        assert "2 × function_call, 2 × function_call_output" in en, en


def test_env021_says_what_codex_sends_in_chinese():
    """ENV021 put the fingerprint into a sentence of its own ("所以 Codex 发送的密钥少了这一部分（28 chars, sha256:…）")."""
    from tests.rules.healthy import HEALTHY

    facts = {**HEALTHY["env.key"], "dotenv_unset_refs": ["$Xy"], "dotenv_line": 4}
    assert "少了这一部分（28 个字符，sha256:fbbb0b78）" in _finding("ENV021", facts, "zh").diagnosis
    assert "without it (28 chars, sha256:fbbb0b78)" in _finding("ENV021", facts, "en").diagnosis


@pytest.mark.simulator
def test_what_showed_the_provider_alive_is_said_in_chinese(home, sim_server):
    """NET009 quoted the canary's `waited_for_alive` in English ("而提供方一直是活着的（GET /v1/models answered 200 in
    14 ms）"): the canary says it in both languages, as its evidence line does."""
    from pathlib import Path

    from codexdoctor.commands.check import run_check
    from codexdoctor.commands.options import CheckOptions

    key = "sk-wire-0123456789abcdef"
    s = sim_server(api_key=key, latency_ms=1500)
    write_config(
        home,
        f'model = "sim-model"\nmodel_provider = "sim"\n[model_providers.sim]\nname = "sim"\n'
        f'base_url = "{s.base_url}"\nenv_key = "SIM_API_KEY"\n',
    )
    opts = CheckOptions(
        env={"HOME": str(home), "SIM_API_KEY": key},
        home=home,
        cwd=Path.cwd(),
        system_config=None,
        codex_version=(0, 171, 0),
        timeout=1.0,
        lang="zh",
    )
    report, _ = run_check(opts)
    said = next(f.diagnosis for f in report.findings if f.code == "NET009")
    assert "GET /v1/models 在" in said and "answered" not in said, said


def test_an_unknown_keys_place_and_suggestion_are_said_in_chinese():
    """CFG008 quoted cfg.keys' `table` and `suggestion` as the check wrote them: "(top level) 中的 `colour`", "你是不是想写
    `model (top level or in a profile, …)`"; they are said in the words of the check's evidence line."""
    from codexdoctor.codex.config import MODEL_ELSEWHERE, TOP_LEVEL
    from tests.rules.healthy import HEALTHY

    unknown = [
        {"key": "colour", "table": TOP_LEVEL, "suggestion": "color", "where": "~/.codex/config.toml:2"},
        {"key": "model", "table": "[model_providers.gw]", "suggestion": MODEL_ELSEWHERE, "where": "x:5"},
    ]
    rule = RULES_BY_CODE["CFG008"]
    facts = {**HEALTHY[rule.check], "unknown": unknown}
    result = CheckResult(rule.check, rule.check, Status.FAIL, "", facts)
    top, model = (f.diagnosis for f in evaluate([result], [rule], "zh"))
    assert top.startswith("顶层中的 `colour`") and "top level" not in top, top  # no space: `顶层 中的`, issue 40
    assert "你是不是想写 `model（写在顶层或 profile 中，而不是提供方表中）`？" in model, model
    english = [f.diagnosis for f in evaluate([result], [rule], "en")]
    assert english[0].startswith("`colour` in (top level) (") and MODEL_ELSEWHERE in english[1], english


def test_what_codex_sent_that_was_refused_is_said_in_chinese():
    """API017 quoted the canary's `field` as read.rejected_field wrote it ("不接受 … 发送的 a `developer` input item")."""
    from codexdoctor.codex.request_words import DEVELOPER_AS_SYSTEM
    from tests.rules.healthy import HEALTHY

    facts = {**HEALTHY["api.canary"], "kind": "codex_rejected", "status": 400, "message": "m", "minimal_kind": "ok"}
    for field, zh in (
        (DEVELOPER_AS_SYSTEM, "`developer` 输入项（被当作 system 消息转发）"),
        ("a `web_search` tool", "`web_search` 工具"),
        ("include", "include"),
    ):
        said = _finding("API017", {**facts, "field": field}, "zh").diagnosis
        assert f"发送的 {zh}。" in said, said
        assert f"does not accept {field} that Codex" in _finding("API017", {**facts, "field": field}, "en").diagnosis
