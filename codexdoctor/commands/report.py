"""`codexdoctor report`: the check, the config, the last failed session and the request ids, in one file a support
desk can act on (issue 30). Written locally, redacted whole, never uploaded; the command says where it is."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from codexdoctor.checks.base import CheckContext
from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.commands.output import in_language
from codexdoctor.common import oserror, safefile
from codexdoctor.common.untrusted import sanitize
from codexdoctor.model import Msg, said_error

if TYPE_CHECKING:
    from collections.abc import Callable

    from codexdoctor.report.ticket import Ticket


@dataclass(frozen=True)
class ReportOptions:
    """`codexdoctor report`: the check to run, the session to tell about, and the ticket file to write."""

    check: CheckOptions
    session_id: str | None = None  # an id or a prefix; None: the most recent that failed
    fmt: str = "markdown"  # markdown or json
    output: str | None = None  # None: codexdoctor-report-<time>.<md|json> in this folder
    include_request_text: bool = False


def run(opts: ReportOptions) -> None:
    from codexdoctor.commands.sessions import run_sessions
    from codexdoctor.report import ticket as ticket_mod
    from codexdoctor.report.configview import rows

    path = _ticket_path(opts)
    for target in (path, _request_path(path)):  # before the check runs: a FIFO planted at the name is refused at once
        problem = safefile.output_problem(target)
        if problem:
            raise cannot_write(target, problem)
    check_opts = opts.check
    check, ctx = run_check(check_opts)
    sessions, _ = run_sessions(
        check_opts.env,
        check_opts.home,
        lang=check_opts.lang,
        codex_version=ctx.codex_version or check_opts.codex_version,
    )
    redact = ctx.redactor
    curl = request_file = shape = None
    if not check_opts.offline and ctx.provider.defined:
        curl, request_file, shape = _reproduction(ctx, path, opts.include_request_text, check_opts.lang)
    wanted = opts.session_id
    found = ticket_mod.failed_session(sessions, wanted)
    if wanted and found is None:
        unknown = Msg("no session id starts with {w}", "没有以 {w} 开头的会话 ID", w=repr(wanted))
        raise said_error(click.BadParameter(str(unknown), param_hint="--session"), unknown)
    from codexdoctor.commands.watch import last_run

    ticket = ticket_mod.Ticket(
        check,
        sessions,
        wanted,
        tuple(rows(ctx)),
        curl,
        request_file,
        check_opts.lang,
        shape,
        opts.include_request_text,
        last_run(ctx, check_opts.env, check_opts.lang),
    )
    # The whole file: safe to paste into a public tracker.
    text = sanitize(redact(_ticket_text(ticket, opts.fmt)), newlines=True)
    if opts.fmt != "json":  # JSON keeps the English mark as data (docs/report-schema.md)
        text = in_language(text, check_opts.lang)
    try:
        safefile.write_output(path, text)  # a regular file only, never through a symlink, created 0600
    except OSError as exc:
        raise cannot_write(path, _why(exc)) from None
    _say_written(path, request_file, check_opts.lang, redact)


def _say_written(path: Path, request_file: object, lang: str, redact: Callable[[str], str]) -> None:
    """The one line on stderr after the ticket is written: where it is, and that nothing left this machine."""
    said = Msg(
        "codexdoctor: report written to {path}{body}. Nothing was uploaded: read it before you attach it to a ticket.",
        "codexdoctor：报告已写入 {path}{body}。没有上传任何内容：附到工单之前请先读一遍。",
        path=str(path),
        body=Msg(" (and the request body to {f})", "（请求体写入 {f}）", f=str(request_file)) if request_file else "",
    ).text(lang)
    from codexdoctor.commands.output import terminal_width
    from codexdoctor.report.render.text import fit_lines

    click.echo("\n".join(fit_lines([redact(said)], terminal_width(), "  ", lang)), err=True)


def _ticket_path(opts: ReportOptions) -> Path:
    """-o, or codexdoctor-report-<time>.md (.json) in this folder."""
    if opts.output:
        return Path(opts.output)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path.cwd() / f"codexdoctor-report-{stamp}.{'json' if opts.fmt == 'json' else 'md'}"


def _ticket_text(ticket: Ticket, fmt: str) -> str:
    """The ticket in its format: JSON, or Markdown with the check's full report (verbose) and the sessions'."""
    from codexdoctor.report import ticket as ticket_mod
    from codexdoctor.report.render import RenderOptions, render

    if fmt == "json":
        return ticket_mod.as_json(ticket)
    sessions = ticket.sessions
    return ticket_mod.markdown(
        ticket,
        render(ticket.check, "markdown", RenderOptions(verbose=True)),
        render(sessions, "markdown", RenderOptions()) if sessions is not None and sessions.checks else None,
        render(ticket.watch.report, "markdown", RenderOptions(verbose=True)) if ticket.watch is not None else None,
    )


def _reproduction(
    ctx: CheckContext, report_path: Path, include_text: bool, lang: str
) -> tuple[str | None, str | None, dict[str, Any] | None]:
    """The canary as a curl command, and its body as a file beside the report: by default its shape (every text that
    is not Codex's own replaced by a placeholder of the same size, codex/request.shape), with the texts only when
    the user asks; redacted like the report either way."""
    from codexdoctor.checks.live import make_plan
    from codexdoctor.checks.live.plan import canary_url
    from codexdoctor.codex import request as codexrequest
    from codexdoctor.common import tokens
    from codexdoctor.report.reproduce import comment_lines, curl_command, pasteable_url

    plan = make_plan(ctx)
    if plan.first is None:
        return None, None, None
    tok = tokens.for_model(plan.model)  # loaded already when the check counted AGENTS.md files
    shaped = codexrequest.shape(plan.first, tok.count, tok.name if tok.exact else f"{tok.name}, estimated")
    body = plan.first.body if include_text else shaped.body
    body_path = _request_path(report_path)
    text = sanitize(ctx.redactor(codexrequest.compact(body)), newlines=True)
    try:
        safefile.write_output(body_path, text)
    except OSError as exc:
        raise cannot_write(body_path, _why(exc)) from None
    env_key = ctx.provider.env_key if isinstance(ctx.provider.env_key, str) else None
    headers = {k: "<redacted>" for k in plan.headers if k.lower() not in ("authorization", "content-type")}
    # The URL Codex builds (the request URL the report shows), each secret in it a variable the user's shell expands.
    key = ctx.env.get(env_key) if env_key else None
    url, secrets = pasteable_url(canary_url(plan, wire="responses"), ctx.redactor, ctx.shell.name, env_key, key)
    curl = curl_command(ctx.shell.name, url, env_key, body_path.name, headers)
    data = {**shaped.as_data(), "file_bytes": len(text.encode("utf-8"))}
    return "\n".join([*comment_lines(ctx.shell.name, secrets, lang), curl]), body_path.name, data


def _request_path(report_path: Path) -> Path:
    """The canary's body beside the ticket: `ticket.md` -> `ticket.request.json`."""
    return report_path.with_name(report_path.stem + ".request.json")


def _why(exc: OSError) -> str:
    """Why a write failed: the refusal's own reason, else the operating system's words (with their Chinese)."""
    if isinstance(exc, safefile.Unwritable):
        return exc.reason
    return safefile.Reason(oserror.reason(exc), oserror.reason_zh(exc))


def cannot_write(path: object, why: str) -> click.ClickException:
    """`cannot write PATH: why`, in both languages (the reason's Chinese where it carries one; the OS's words are
    said by common/oserror.py)."""
    said = Msg(
        "cannot write {path}: {why}",
        "无法写入 {path}：{why}",
        path=str(path),
        why=Msg.pair(why, why.zh if isinstance(why, safefile.Reason) else oserror.words_zh(why)),
    )
    return said_error(click.ClickException(str(said)), said)
