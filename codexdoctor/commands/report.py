"""`codexdoctor report`: the check, the config, the last failed session and the request ids, in one file a support
desk can act on (issue 30). Written locally, redacted whole, never uploaded; the command says where it is."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from codexdoctor.checks.base import CheckContext
from codexdoctor.commands.check import run_check
from codexdoctor.commands.options import CheckOptions
from codexdoctor.common import safefile
from codexdoctor.common.untrusted import sanitize


def run(
    opts: CheckOptions, session_id: str | None, fmt: str, output: str | None, include_request_text: bool = False
) -> None:
    from codexdoctor.commands.sessions import run_sessions
    from codexdoctor.report import ticket as ticket_mod
    from codexdoctor.report.configview import rows
    from codexdoctor.report.render import RenderOptions, render

    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = Path(output) if output else Path.cwd() / f"codexdoctor-report-{stamp}.{'json' if fmt == 'json' else 'md'}"
    for target in (path, _request_path(path)):  # before the check runs: a FIFO planted at the name is refused at once
        problem = safefile.output_problem(target)
        if problem:
            raise click.ClickException(f"cannot write {target}: {problem}")
    check, ctx = run_check(opts)
    sessions, _ = run_sessions(opts.env, opts.home, (), None, None, None, False, opts.lang)
    redact = ctx.redactor
    curl = request_file = shape = None
    if not opts.offline and ctx.provider.defined:
        curl, request_file, shape = _reproduction(ctx, path, include_request_text)
    wanted = session_id
    found = ticket_mod.failed_session(sessions, wanted)
    if wanted and found is None:
        raise click.BadParameter(f"no session id starts with {wanted!r}", param_hint="--session")
    t = ticket_mod.Ticket(
        check, sessions, wanted, tuple(rows(ctx)), curl, request_file, opts.lang, shape, include_request_text
    )
    if fmt == "json":
        text = ticket_mod.as_json(t)
    else:
        ropts = RenderOptions(verbose=True)
        text = ticket_mod.markdown(
            t,
            render(check, "markdown", ropts),
            render(sessions, "markdown", RenderOptions()) if sessions.checks else None,
        )
    text = sanitize(redact(text), newlines=True)  # the whole file: safe to paste into a public tracker
    try:
        safefile.write_output(path, text)  # a regular file only, never through a symlink, created 0600
    except OSError as exc:
        raise click.ClickException(f"cannot write {path}: {exc.strerror or exc}") from None
    click.echo(
        redact(
            f"codexdoctor: report written to {path}"
            + (f" (and the request body to {request_file})" if request_file else "")
            + ". Nothing was uploaded: read it before you attach it to a ticket."
        ),
        err=True,
    )


def _reproduction(
    ctx: CheckContext, report_path: Path, include_text: bool
) -> tuple[str | None, str | None, dict[str, Any] | None]:
    """The canary as a curl command, and its body as a file beside the report: by default its shape (every text that
    is not Codex's own replaced by a placeholder of the same size, codex/request.shape), with the texts only when
    the user asks; redacted like the report either way."""
    from codexdoctor.checks.live import make_plan
    from codexdoctor.codex import request as codexrequest
    from codexdoctor.common import tokens
    from codexdoctor.report.ticket import curl_command

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
        raise click.ClickException(f"cannot write {body_path}: {exc.strerror or exc}") from None
    env_key = ctx.provider.env_key if isinstance(ctx.provider.env_key, str) else None
    headers = {k: "<redacted>" for k in plan.headers if k.lower() not in ("authorization", "content-type")}
    url = ctx.redactor(plan.base_url.rstrip("/") + "/responses" + (f"?{plan.query}" if plan.query else ""))
    data = {**shaped.as_data(), "file_bytes": len(text.encode("utf-8"))}
    return curl_command(ctx.shell.name, url, env_key, body_path.name, headers), body_path.name, data


def _request_path(report_path: Path) -> Path:
    """The canary's body beside the ticket: `ticket.md` -> `ticket.request.json`."""
    return report_path.with_name(report_path.stem + ".request.json")
