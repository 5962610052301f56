"""`codexdoctor diagnose-error`: a pasted Codex or provider error, read as the facts a live check would have
gathered, through the same catalog."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, replace

import click

from codexdoctor.checks.base import CheckContext
from codexdoctor.commands.options import CheckOptions, make_context
from codexdoctor.commands.output import PublishOptions, publish
from codexdoctor.common import oserror
from codexdoctor.common.words import plural
from codexdoctor.model import CheckResult, Msg, Report, Status, said_error
from codexdoctor.report.build import build_report
from codexdoctor.rules import evaluate

PASTE_MAX_BYTES = 1 << 20


def run_diagnose(opts: CheckOptions, text: str) -> tuple[Report, CheckContext]:
    from codexdoctor.checks.diagnose import checks_for

    ctx = make_context(opts)
    checks = [ctx.stamp(c) for c in checks_for(text, ctx)]
    logs = _logs_of_the_same_message(ctx, opts, text)
    if logs:  # an undecided message speaks through CTX032 and the logs, not as a channel error of its own
        pasted = logs[0]
        said: list[Msg | str] = [c.message or c.summary for c in checks]
        if said and pasted.message is not None:
            both = Msg("{said}: {alone}", "{said}：{alone}", said=Msg.join(said, "; ", "；"), alone=pasted.message)
            pasted = replace(pasted, summary=str(both), message=both)
        checks = [pasted, *logs[1:]]
    findings = evaluate(checks, lang=opts.lang)
    unknown = not findings and any(c.facts.get("kind") == "unknown" for c in checks)
    notes = (
        [
            Msg(
                "This text does not match a known Codex or provider error shape; "
                "run `codexdoctor check` to test the channel directly.",
                "这段文字不是已知的 Codex 或提供方报错格式；请运行 `codexdoctor check` 直接测试通道。",
            )
        ]
        if unknown
        else []
    )
    return build_report("diagnose-error", ctx, checks, findings, True, notes, opts.lang, warnings_decide=True), ctx


def _logs_of_the_same_message(ctx: CheckContext, opts: CheckOptions, text: str) -> list[CheckResult]:
    """A message that cannot decide alone (issue 39: stream closed, Codex's "high demand" mask, a 429 after its
    retries, a timeout) is read against the user's own session logs that ended with it: one size every time is the
    context, wandering sizes the channel. `ctx.pasted` says what the logs held; `ctx.sessions` carries those sessions,
    judged as `codexdoctor sessions` judges them."""
    from codexdoctor.checks.sessions import PASTE_FAMILIES, message_family
    from codexdoctor.commands.sessions import recent_sessions_check

    family = message_family(text)
    if family not in PASTE_FAMILIES:
        return []
    same = lambda d: d["kind"] != "none" and message_family(str(d.get("error") or "")) == family  # noqa: E731
    which = Msg("ended with the same message", "以同一条消息结束")
    logs, read = recent_sessions_check(ctx, opts.home, same, which)
    matching = logs.facts["failed"] if logs is not None else 0
    reason = UNDECIDED_REASON
    facts = {
        "kind": "unclear",
        "family": family,
        "logs_read": read,
        "logs_matching": matching,
        "inconclusive_reason": str(reason),
    }
    summary = (
        Msg(
            "{alone}; {sessions} ended with it",
            "{alone}；最近有 {n:,} 个会话以它结束",
            alone=UNDECIDED,
            sessions=plural(matching, "recent session"),
            n=matching,
        )
        if matching
        else UNDECIDED
    )
    pasted = CheckResult(
        "ctx.pasted",
        "Pasted error",
        Status.WARN,
        str(summary),
        facts,
        (logs_line(read, matching),),
        message=summary,
        reason=reason,
    )
    if logs is not None:  # read for this paste: a remedy that says "paste it into diagnose-error" is left out
        logs = replace(logs, facts={**logs.facts, "pasted": True})
    return [ctx.stamp(pasted)] + ([ctx.stamp(logs)] if logs is not None else [])


def logs_line(read: int, matching: int) -> Msg:
    """How many recent session logs were read and how many ended with the pasted message; in Chinese as one would
    say it for none, some or all (not "其中 0 个")."""
    if not read:
        return Msg(
            "{read} recent session logs read; {matching} ended with the same message",
            "没有找到最近的会话日志",
            read=read,
            matching=matching,
        )
    if not matching:
        return Msg(
            "{read} recent session logs read; {matching} ended with the same message",
            "最近 {read} 个会话日志中没有一个以同一条消息结束",
            read=read,
            matching=matching,
        )
    if matching == read:
        return Msg(
            "{read} recent session logs read; {matching} ended with the same message",
            "最近 {read} 个会话日志都以同一条消息结束",
            read=read,
            matching=matching,
        )
    return Msg(
        "{read} recent session logs read; {matching} ended with the same message",
        "最近 {read} 个会话日志中有 {matching} 个以同一条消息结束",
        read=read,
        matching=matching,
    )


UNDECIDED = Msg(
    "the message alone does not say whether the context or the channel broke",
    "单凭这条消息说不清是上下文还是通道出了问题",
)
UNDECIDED_REASON = Msg(
    "the message alone does not say whether the context or the channel broke, and no session log of yours decides it",
    "单凭这条消息说不清是上下文还是通道出了问题，你的会话日志也无法判定",
)


def read_paste(text: str | None, file_: str | None) -> str:
    """TEXT, `-` for stdin, or --file: the error as text, or a usage error that says which."""
    if file_ is not None:
        text = read_paste_file(file_)
    elif text is None:
        said = Msg(
            "give the error TEXT, - to read stdin, or --file PATH",
            "请给出报错文本 TEXT，或用 - 从标准输入读取，或用 --file PATH",
        )
        raise said_error(click.BadParameter(str(said), param_hint="TEXT"), said)
    elif text == "-":
        try:
            text = sys.stdin.read(PASTE_MAX_BYTES) if sys.stdin is not None else ""
        except (OSError, ValueError) as exc:
            said = Msg("cannot read the error text from stdin: {e}", "无法从标准输入读取报错文本：{e}", e=str(exc))
            raise said_error(click.BadParameter(str(said), param_hint="TEXT"), said) from None
    if not text.strip():
        said = Msg("the error text is empty", "报错文本是空的")
        raise said_error(click.BadParameter(str(said), param_hint="TEXT"), said)
    return text


def read_paste_file(path: str) -> str:
    """A regular file only (a FIFO or device would block or never end), at most PASTE_MAX_BYTES."""
    import stat

    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            said = Msg("{p} is not a regular file", "{p} 不是普通文件", p=str(path))
            raise said_error(click.BadParameter(str(said), param_hint="--file"), said)
        with open(path, "rb") as handle:
            raw = handle.read(PASTE_MAX_BYTES)
    except OSError as exc:
        said = Msg(
            "cannot read {p}: {e}",
            "无法读取 {p}：{e}",
            p=str(path),
            e=Msg.pair(oserror.reason(exc), oserror.reason_zh(exc)),
        )
        raise said_error(click.BadParameter(str(said), param_hint="--file"), said) from None
    return raw.decode("utf-8", errors="replace")


@dataclass(frozen=True)
class DiagnoseOptions:
    """`codexdoctor diagnose-error`: the pasted text (read already, `read_paste`), the config it is read against,
    and how the report is published."""

    check: CheckOptions
    text: str
    publish: PublishOptions


def run(opts: DiagnoseOptions) -> None:
    report, ctx = run_diagnose(opts.check, opts.text)
    publish(report, ctx.redactor, opts.publish)
