"""`codexdoctor report`: one file that answers a gateway support desk's first questions (issue 30).

Which requests (the provider's request ids and UTC times), which client (Codex, OS, shell, codexdoctor, the config
as Codex resolved it, with the file and line of each value), what happened (the check's verdict and findings, and
the post-mortem of the user's last failed Codex session), and how to reproduce (the canary as a curl command, the
key left in its variable). A plain-language summary for someone who has never seen codexdoctor comes first.

Pure functions of what the command gathered: the command writes the file, redacts it whole and says where it is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from codexdoctor.common.untrusted import request_id_in_text
from codexdoctor.common.words import plural
from codexdoctor.i18n import table_word
from codexdoctor.model import Report, item_key


@dataclass(frozen=True)
class WatchedRun:
    """The newest recording of `codexdoctor watch`, diagnosed as watch diagnosed it when the run ended
    (commands/watch.last_run)."""

    report: Report
    file: str  # the recording, home shown as ~
    provider: str | None
    program: str | None  # Codex's program name and subcommand, never its prompt
    subcommand: str | None
    codex_exit: int | None


@dataclass(frozen=True)
class Ticket:
    """Everything the file says, gathered by commands/report.py."""

    check: Report
    sessions: Report | None
    session_id: str | None  # the post-mortem's session, if any failed
    config_rows: tuple[Mapping[str, Any], ...]
    curl: str | None  # the canary as a shell command, key by reference
    request_file: str | None  # where the canary's body was written, for `curl --data @…`
    lang: str = "en"
    # What the request file holds (codex/request.RequestShape.as_data): its fields, tools and each text's size.
    request_shape: Mapping[str, Any] | None = None
    request_text: bool = False  # `--include-request-text`: the texts word for word, not placeholders
    watch: WatchedRun | None = None  # the newest recording of `codexdoctor watch`, diagnosed


def failed_session(
    sessions: Report | None, wanted: str | None = None, provider: str | None = None
) -> Mapping[str, Any] | None:
    """The session to tell about: `--session`, else the most recent that failed with the ticket's provider (issue 40:
    a ticket about one provider told of another's session)."""
    if sessions is None or not sessions.checks:
        return None
    found = list(sessions.checks[0].facts.get("sessions") or [])
    if wanted:
        return next((d for d in found if str(d.get("id", "")).startswith(wanted)), None)
    failed = [d for d in found if d.get("kind") not in (None, "none")]
    if provider is not None:
        failed = [d for d in failed if d.get("provider") == provider]
    return max(failed, key=lambda d: d.get("start") or "", default=None)


def _evidence_zh(ticket: Ticket, session: Mapping[str, Any]) -> str:
    """The session's evidence in Chinese: the words its check said beside the fact, else the rule catalog's."""
    from codexdoctor.rules.ctx.sessions import evidence_words

    phrase = str(session.get("evidence") or "")
    if not phrase:
        return "-"
    said = ticket.sessions.checks[0].said.get(item_key("evidence", phrase)) if ticket.sessions else None
    return said.text("zh") if said is not None else evidence_words(phrase).get("zh")


def _ticket_session(ticket: Ticket) -> Mapping[str, Any] | None:
    provider = ticket.check.provider.id if ticket.check.provider else None
    return failed_session(ticket.sessions, ticket.session_id, provider)


def request_ids(ticket: Ticket) -> list[dict[str, str]]:
    """Every request id with its time and what it was: the live exchanges, then the failed session's error line."""
    out: list[dict[str, str]] = []
    for check in ticket.check.checks:
        f = check.facts
        if f.get("request_id") or f.get("started_at"):
            out.append(
                {
                    "what": check.title,
                    "sent": str(f.get("started_at") or "-"),
                    "request_id": str(f.get("request_id") or "-"),
                    "status": str(f.get("status") or "-"),
                }
            )
    out += _watch_request_ids(ticket)
    session = _ticket_session(ticket)
    if session and session.get("error"):
        found = request_id_in_text(str(session["error"]))
        if found:
            out.append(
                {
                    "what": _t("Codex session {id} (its error line)", ticket.lang).format(id=session.get("short_id")),
                    "sent": str(session.get("failed_at") or session.get("start") or "-"),
                    "request_id": found,
                    "status": "-",
                }
            )
    return out


def _watch_facts(ticket: Ticket) -> Mapping[str, Any] | None:
    if ticket.watch is None or not ticket.watch.report.checks:
        return None
    return ticket.watch.report.checks[0].facts


def _watch_request_ids(ticket: Ticket) -> list[dict[str, str]]:
    """The recorded requests that failed and carry the provider's request id: the newest ten."""
    facts = _watch_facts(ticket)
    calls = [c for c in (facts or {}).get("calls") or [] if c.get("request_id") and c.get("ending") != "completed"]
    return [
        {
            "what": _t("codexdoctor watch, request #{n}", ticket.lang).format(n=c["number"]),
            "sent": str(c.get("started") or "-"),
            "request_id": str(c["request_id"]),
            "status": str(c.get("status") or "-"),
        }
        for c in calls[-10:]
    ]


def _watch_summary(ticket: Ticket) -> str | None:
    """One sentence on the last recorded run: how many requests, how many failed, what watch found."""
    facts = _watch_facts(ticket)
    if facts is None or ticket.watch is None:
        return None
    codes = ", ".join(dict.fromkeys(f.code for f in ticket.watch.report.findings))
    n, failed = facts.get("requests", 0), facts.get("failed", 0)
    if ticket.lang == "zh":
        found = f"发现：{codes}" if codes else "没有发现问题"
        return f"codexdoctor watch 记录了该用户最近一次经本地记录器运行的 Codex：{n} 个模型请求，{failed} 个失败；{found}。"
    found = f"it found {codes}" if codes else "it found nothing wrong"
    return (
        f"codexdoctor watch recorded the user's last Codex run through a local recorder: {n} model "
        f"request{'s' if n != 1 else ''}, {failed} failed; {found}."
    )


def summary(ticket: Ticket) -> str:
    """For a support engineer who has never seen codexdoctor: who, what, the verdict and the causes, in prose, in the
    report's language (issue 40: a zh report's summary was English)."""
    r = ticket.check
    env = r.environment
    p = r.provider
    zh = ticket.lang == "zh"
    if p:
        where = (
            f"提供方 `{p.id}`，地址 `{p.base_url}`（模型 `{p.model}`，请求发往 `{p.request_url}`）"
            if zh
            else f"the provider `{p.id}` at `{p.base_url}` (model `{p.model}`, requests to `{p.request_url}`)"
        )
    else:
        where = "没有可用的提供方（配置无法解析）" if zh else "no provider (the config could not be resolved)"
    causes = [f"{f.code}{'：' if zh else ': '}{f.title}" for f in r.findings if f.severity.value == "error"]
    verdict = (_VERDICT_ZH if zh else _VERDICT_EN)[r.verdict.value]
    codex = env.get("codex") or ("版本未知" if zh else "version unknown")
    how = (
        ("离线" if env.get("offline") else "按 Codex 的方式发送真实请求")
        if zh
        else ("offline" if env.get("offline") else "with live requests, as Codex sends them")
    )
    lines = [
        f"一位 Codex CLI 用户（{codex}，{env.get('os')}，shell {env.get('shell')}）使用{where}。"
        f"codexdoctor {env.get('codexdoctor')} {how}检查了这套配置：{verdict}。"
        if zh
        else f"A user of the Codex CLI ({codex}, on {env.get('os')}, shell {env.get('shell')}) uses {where}. "
        f"codexdoctor {env.get('codexdoctor')} checked this setup {how}: it {verdict}."
    ]
    if causes:
        lines.append(
            ("原因（按修复顺序）：" + "；".join(causes) + "。")
            if zh
            else ("The causes, in the order to fix them: " + "; ".join(causes) + ".")
        )
    session = _ticket_session(ticket)
    if session:
        error = session.get("error") or session.get("error_info") or ("没有报错文字" if zh else "no error text")
        when = session.get("failed_at") or session.get("start") or "?"
        lines.append(
            f"该用户最近一次失败的 Codex 会话（{session.get('short_id')}，{when}）以这条报错结束：{error} "
            if zh
            else f"The user's last failed Codex session ({session.get('short_id')}, {when}) ended with: {error}"
        )
    watched = _watch_summary(ticket)
    if watched:
        lines.append(watched)
    if request_ids(ticket):
        lines.append(
            "下表列出了请求 id 和时间，可用于查提供方日志。"
            if zh
            else "Request ids and times for your logs are in the table below."
        )
    return ("" if zh else " ").join(lines)


_VERDICT_EN = {
    "ok": "works: no errors were found",
    "config": "fails because of its configuration",
    "channel": "fails on the way to the provider (the channel)",
    "context": "fails because sessions outgrow what the model and provider can hold (the context)",
    "inconclusive": "could not be judged completely",
}
_VERDICT_ZH = {
    "ok": "可以正常使用，没有发现错误",
    "config": "因配置问题而失败",
    "channel": "在通往提供方的路上失败（通道问题）",
    "context": "因会话超出模型和提供方能容纳的大小而失败（上下文问题）",
    "inconclusive": "无法完全判定",
}


_SHAPE_ONLY = (
    "The request body is in `{file}`, next to this report: Codex's first request with its fields, items, roles, "
    "model and tools as sent (the tool schemas and {kept} of Codex's own texts as they are: they are the same for "
    "every user), and every other text replaced by a placeholder that says what it replaced and takes as many bytes "
    "in the body and as many {tokenizer} tokens as the text did. The body keeps its size ({sent:,} bytes sent, "
    "{written:,} in the file) and its token count: send it as it is to reproduce the failure. None of the user's "
    "AGENTS.md files, instructions, working folder or CODEX_HOME is in it (`codexdoctor report "
    "--include-request-text` writes the texts in, redacted)."
)
_INCLUDED = (
    "The request body is in `{file}`, next to this report: Codex's first request word for word "
    "(`--include-request-text`), the user's AGENTS.md files, instructions and working folder included, redacted "
    "like this report ({written:,} bytes)."
)
_CURL = (
    "Codex's first request, to the URL Codex builds from this config; the key and any secret in the URL are taken "
    "from variables, not written here:"
)

_ZH = {
    "# Codex CLI support report": "# Codex CLI 支持报告",
    "_Written locally by `codexdoctor report`; nothing was uploaded. Keys are shown only as their length and a "
    "fingerprint; home folders as `~`._": "_由 `codexdoctor report` 在本地生成，没有上传任何内容。密钥只显示长度和指纹；主目录显示为 `~`。_",
    "## Summary": "## 摘要",
    "## Client": "## 客户端",
    "## Config as Codex resolves it": "## Codex 解析出的配置",
    "## Requests (for the provider's logs)": "## 请求（供提供方查日志）",
    "## Reproduce": "## 复现",
    "## The check": "## 检查结果",
    "## The last failed Codex session": "## 最近一次失败的 Codex 会话",
    "No request was sent (offline), or the provider gave no request id.": "没有发送请求（离线），或提供方没有给出请求 id。",
    _CURL: "Codex 的第一个请求，发往 Codex 按这套配置拼出的请求地址；密钥和地址中的密钥都取自变量，这里不写出：",
    "No failed Codex session was found on this machine (or no session logs at all).": "这台机器上没有找到失败的 Codex 会话（或者根本没有会话日志）。",
    "| request | sent (UTC) | request id | status |": "| 请求 | 发送时间（UTC） | 请求 id | 状态 |",
    "| key | value | from |": "| 键 | 值 | 来源 |",
    _SHAPE_ONLY: "请求体在本报告旁边的 `{file}` 里：Codex 的第一个请求，字段、条目、角色、模型和工具"
    "都与发送时相同（工具定义和 {kept} 段 Codex 自己的文本原样保留：每个用户都一样），其余每段文本都换成了占位文本：它写明替换的是什么，"
    "在请求体中占的字节数和 {tokenizer} token 数与原文相同。请求体的大小（发送 {sent:,} 字节，文件中 {written:,} 字节）和 "
    "token 数不变：原样发送即可复现问题。其中没有用户的 AGENTS.md 文件、instructions、工作目录或 CODEX_HOME"
    "（`codexdoctor report --include-request-text` 会把这些文本写进去，已脱敏）。",
    _INCLUDED: "请求体在本报告旁边的 `{file}` 里：Codex 的第一个请求，逐字写出（`--include-request-text`），"
    "包括用户的 AGENTS.md 文件、instructions 和工作目录，与本报告一样已脱敏（{written:,} 字节）。",
    "| text | role | characters | bytes (UTF-8) | bytes in the body | tokens | in the file |": "| 文本 | 角色 | 字符 | 字节（UTF-8） | 请求体中的字节 | token | 文件中 |",
    "Codex's instructions": "Codex 的指令",
    "instructions (yours, from config.toml)": "instructions（你的，来自 config.toml）",
    "the skills text (it names your CODEX_HOME)": "技能说明（其中写有你的 CODEX_HOME）",
    "Codex's permissions text": "Codex 的权限说明",
    "developer_instructions (yours, from config.toml)": "developer_instructions（你的，来自 config.toml）",
    "your AGENTS.md files": "你的 AGENTS.md 文件",
    "the environment context (your working folder and shell)": "环境信息（你的工作目录和 shell）",
    "codexdoctor's one-line question": "codexdoctor 的一句提问",
    "as sent (Codex's own)": "原样（Codex 自己的）",
    "as sent": "原样",
    "a placeholder of the same size and tokens": "同样大小、同样 token 数的占位文本",
    "a placeholder of {bytes:,} bytes and {tokens:,} tokens (the nearest it can be)": "占位文本，{bytes:,} 字节、{tokens:,} 个 token（能做到的最接近值）",
    "Fields: {fields}. Tools: {tools}.": "字段：{fields}。工具：{tools}。",
    "platform": "平台",
    "shell": "shell",
    "proxy variable": "代理变量",
    "Codex session {id} (its error line)": "Codex 会话 {id}（它的报错行）",
    "All sessions read on this machine, every provider's": "这台机器上读到的全部会话（所有提供方）",
    "codexdoctor watch, request #{n}": "codexdoctor watch，第 {n} 个请求",
    "## The last run codexdoctor watch recorded": "## codexdoctor watch 最近记录的一次运行",
    "No run was recorded with `codexdoctor watch` on this machine.": "这台机器上没有用 `codexdoctor watch` 记录过运行。",
    "- recording `{file}`: Codex (`{program}`) through the provider `{provider}`, exit code {exit}": "- 记录文件 `{file}`：Codex（`{program}`）经提供方 `{provider}` 运行，退出码 {exit}",
    "Each request Codex sent, timed by the recorder between Codex and the provider, and what watch found in them:": "Codex 发出的每个请求（由 Codex 与提供方之间的记录器计时），以及 watch 从中发现的问题：",
}


def _t(text: str, lang: str) -> str:
    return _ZH.get(text, text) if lang == "zh" else text


def markdown(
    ticket: Ticket, check_markdown: str, session_markdown: str | None, watch_markdown: str | None = None
) -> str:
    """The ticket as Markdown: summary, environment, config, request ids, reproduction, then the full reports, all in
    the report's language."""

    def t(text: str) -> str:
        return _t(text, ticket.lang)

    out = [
        t("# Codex CLI support report"),
        "",
        t(
            "_Written locally by `codexdoctor report`; nothing was uploaded. Keys "
            "are shown only as their length and a fingerprint; home folders as `~`._"
        ),
        "",
        t("## Summary"),
        "",
        summary(ticket),
        "",
        *_client_lines(ticket),
        *_config_lines(ticket),
        *_request_lines(ticket),
        *_reproduce_lines(ticket),
        "",
        t("## The check"),
        "",
        _demote(check_markdown),
        *_session_lines(ticket, session_markdown),
        *_watch_lines(ticket, watch_markdown),
    ]
    return "\n".join(out).rstrip() + "\n"


def _client_lines(ticket: Ticket) -> list[str]:
    """The client's environment as a table: Codex, codexdoctor, OS, shell, Python, CODEX_HOME, proxy."""
    env = ticket.check.environment
    out = [_t("## Client", ticket.lang), "", "| | |", "|---|---|"]
    for key, label in (
        ("codex", "Codex CLI"),
        ("codexdoctor", "codexdoctor"),
        ("os", "OS"),
        ("platform", "platform"),
        ("shell", "shell"),
        ("python", "Python"),
        ("codex_home", "CODEX_HOME"),
        ("proxy_variable", "proxy variable"),
    ):
        out.append(f"| {_t(label, ticket.lang)} | `{env.get(key) if env.get(key) not in (None, '') else '-'}` |")
    return out


def _config_lines(ticket: Ticket) -> list[str]:
    """The config as Codex resolves it: key, value, where it came from."""
    out = ["", _t("## Config as Codex resolves it", ticket.lang), "", _t("| key | value | from |", ticket.lang)]
    out.append("|---|---|---|")
    from codexdoctor.report.configview import row_words

    for row in ticket.config_rows:
        label, value, source = row_words(row, ticket.lang)
        out.append(f"| `{label}` | `{value}` | {source} |")
    return out


def _request_lines(ticket: Ticket) -> list[str]:
    """The requests sent, with the ids the provider's logs know them by."""

    def t(text: str) -> str:
        return _t(text, ticket.lang)

    ids = request_ids(ticket)
    out = ["", t("## Requests (for the provider's logs)"), ""]
    if ids:
        out += [t("| request | sent (UTC) | request id | status |"), "|---|---|---|---|"]
        out += [f"| {i['what']} | {i['sent']} | `{i['request_id']}` | {i['status']} |" for i in ids]
    else:
        out.append(t("No request was sent (offline), or the provider gave no request id."))
    return out


def _reproduce_lines(ticket: Ticket) -> list[str]:
    """The canary as a curl command, and what the request file beside the ticket holds; nothing when offline."""
    if not ticket.curl:
        return []

    def t(text: str) -> str:
        return _t(text, ticket.lang)

    out = [
        "",
        t("## Reproduce"),
        "",
        t(_CURL),
        "",
        "```",
        ticket.curl,
        "```",
    ]
    if ticket.request_file:
        out += ["", *_request_file_lines(ticket)]
    return out


def _session_lines(ticket: Ticket, session_markdown: str | None) -> list[str]:
    """The last failed Codex session in four lines, then (folded) the report of every session read."""

    def t(text: str) -> str:
        return _t(text, ticket.lang)

    session = _ticket_session(ticket)
    out = ["", t("## The last failed Codex session"), ""]
    if session is None:
        out.append(_no_session_line(ticket))
        return out
    contexts = session.get("contexts") or []
    error = session.get("error") or session.get("error_info") or "-"
    at = f" ({session['failed_at']})" if session.get("failed_at") else ""
    if ticket.lang == "zh" and at:
        at = f"（{session['failed_at']}）"
    sizes = ("、" if ticket.lang == "zh" else ", ").join(f"{n:,}" for n in contexts) if contexts else "-"
    if ticket.lang == "zh":
        out += [
            f"- 会话 `{session.get('id')}`，开始于 {session.get('start') or '?'}，Codex "
            f"{session.get('cli_version') or '?'}，模型 `{session.get('model') or '?'}`，提供方 `{session.get('provider') or '?'}`",
            f"- 在第 {session.get('failed_turn') or '?'} 轮失败{at}：{error}",
            f"- 判定：{table_word(str(session.get('kind')), 'zh')}（{_evidence_zh(ticket, session)}）",
            f"- 每轮的上下文（输入 token）：{sizes}",
        ]
    else:
        out += [
            f"- session `{session.get('id')}`, started {session.get('start') or '?'}, Codex "
            f"{session.get('cli_version') or '?'}, model `{session.get('model') or '?'}`, provider "
            f"`{session.get('provider') or '?'}`",
            f"- failed at turn {session.get('failed_turn') or '?'}{at}: {error}",
            f"- judged: {session.get('kind')} ({session.get('evidence') or '-'})",
            f"- context by turn (input tokens): {sizes}",
        ]
    if session_markdown:
        out += [
            "",
            "<details><summary>" + t("All sessions read on this machine, every provider's") + "</summary>",
            "",
            _demote(session_markdown),
            "",
            "</details>",
        ]
    return out


def _no_session_line(ticket: Ticket) -> str:
    """Why no session is told of: the report tells only of its provider's sessions (issue 40: "no failed Codex session
    was found" while `sessions` listed four failed ones, of another provider)."""
    provider = ticket.check.provider.id if ticket.check.provider else None
    found = ticket.sessions.checks[0].facts.get("sessions") or [] if ticket.sessions and ticket.sessions.checks else []
    if provider is None or ticket.session_id or not found:
        return _t("No failed Codex session was found on this machine (or no session logs at all).", ticket.lang)
    others = sum(1 for d in found if d.get("kind") not in (None, "none") and d.get("provider") != provider)
    if ticket.lang == "zh":
        line = f"这台机器上没有找到提供方 `{provider}` 的失败会话：本报告只讲它所针对的提供方的会话。"
        return line + (f"其他提供方有 {others:,} 个失败的会话，`codexdoctor sessions` 会列出它们。" if others else "")
    line = (
        f"No failed session of provider `{provider}` was found on this machine: this report tells only of the "
        "sessions of the provider it is filed for."
    )
    if others:
        line += f" {plural(others, 'failed session')} of other providers {'was' if others == 1 else 'were'} found; "
        line += "`codexdoctor sessions` lists them."
    return line


def _watch_lines(ticket: Ticket, watch_markdown: str | None) -> list[str]:
    """The newest recording of `codexdoctor watch`: which run it was, then its report (the per-request table, the
    findings) one level down."""

    def t(text: str) -> str:
        return _t(text, ticket.lang)

    out = ["", t("## The last run codexdoctor watch recorded"), ""]
    run = ticket.watch
    if run is None or watch_markdown is None:
        out.append(t("No run was recorded with `codexdoctor watch` on this machine."))
        return out
    program = " ".join(p for p in (run.program, run.subcommand) if p) or "-"
    out += [
        t("- recording `{file}`: Codex (`{program}`) through the provider `{provider}`, exit code {exit}").format(
            file=run.file,
            program=program,
            provider=run.provider or "-",
            exit="-" if run.codex_exit is None else run.codex_exit,
        ),
        "",
        t(
            "Each request Codex sent, timed by the recorder between Codex and the provider, and what watch found in them:"
        ),
        "",
        _demote(watch_markdown),
    ]
    return out


def _request_file_lines(ticket: Ticket) -> list[str]:
    """What `<ticket>.request.json` holds, exactly: a sentence, each text's size and what stands for it, the fields
    and the tools."""
    shape = ticket.request_shape or {}

    def t(text: str) -> str:
        return _t(text, ticket.lang)

    texts = list(shape.get("texts") or [])
    written = int(shape.get("file_bytes") or 0)
    if ticket.request_text:
        lines = [t(_INCLUDED).format(file=ticket.request_file, written=written)]
    else:
        lines = [
            t(_SHAPE_ONLY).format(
                file=ticket.request_file,
                kept=sum(1 for x in texts if x.get("kept")),
                tokenizer=shape.get("tokenizer") or "o200k_base",
                sent=int(shape.get("body_bytes") or 0),
                written=written,
            )
        ]
    if texts:
        header = "| text | role | characters | bytes (UTF-8) | bytes in the body | tokens | in the file |"
        lines += ["", t(header), "|---|---|---|---|---|---|---|"]
        for x in texts:
            if x.get("kept"):
                held = t("as sent (Codex's own)")
            elif ticket.request_text:
                held = t("as sent")
            elif (x.get("file_bytes"), x.get("file_tokens")) == (x.get("body_bytes"), x.get("tokens")):
                held = t("a placeholder of the same size and tokens")
            else:
                held = t("a placeholder of {bytes:,} bytes and {tokens:,} tokens (the nearest it can be)").format(
                    bytes=x.get("file_bytes", 0), tokens=x.get("file_tokens", 0)
                )
            lines.append(
                f"| `{x.get('at')}` {t(str(x.get('what')))} | {x.get('role')} | {x.get('chars', 0):,} | {x.get('bytes', 0):,} "
                f"| {x.get('body_bytes', 0):,} | {x.get('tokens', 0):,} | {held} |"
            )
    fields = ", ".join(f"`{f}`" for f in shape.get("fields") or [])
    tools = ", ".join(f"`{n}`" for n in shape.get("tools") or [])
    if fields or tools:
        lines += ["", t("Fields: {fields}. Tools: {tools}.").format(fields=fields or "-", tools=tools or "-")]
    return lines


def as_json(ticket: Ticket) -> str:
    from codexdoctor.report.configview import plain
    from codexdoctor.report.render import render

    data = {
        "summary": summary(ticket),
        "environment": dict(ticket.check.environment),
        "config": [plain(r) for r in ticket.config_rows],
        "requests": request_ids(ticket),
        "reproduce": {
            "curl": ticket.curl,
            "request_file": ticket.request_file,
            # what the file holds: "placeholders" (the default: the shape, sizes kept) or "texts" (word for word)
            "request_file_holds": None
            if ticket.request_file is None
            else "texts"
            if ticket.request_text
            else "placeholders",
            "request": dict(ticket.request_shape) if ticket.request_shape else None,
        },
        "check": json.loads(render(ticket.check, "json")),
        "session": failed_session(ticket.sessions, ticket.session_id),
        "watch": None
        if ticket.watch is None
        else {
            "file": ticket.watch.file,
            "provider": ticket.watch.provider,
            "program": ticket.watch.program,
            "subcommand": ticket.watch.subcommand,
            "codex_exit": ticket.watch.codex_exit,
            "report": json.loads(render(ticket.watch.report, "json")),
        },
    }
    return json.dumps(data, indent=2, ensure_ascii=False, default=str) + "\n"


def _demote(markdown_text: str) -> str:
    """A report's own headings one level down, under the ticket's."""
    return re.sub(r"^(#+) ", lambda m: "#" * min(6, len(m.group(1)) + 2) + " ", markdown_text, flags=re.M)
