"""`codexdoctor watch`: run Codex through the local recorder (or serve the recorder alone), then diagnose what it
recorded with the rule catalog.

The recorder must never become the failure: when Codex's provider cannot be pointed at it, the recordings folder is
unusable or the port cannot be bound, Codex runs direct with one warning, and its exit code is always Codex's own.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

import click

from codexdoctor.checks.base import CheckContext
from codexdoctor.commands.environment import environment, home_of, language
from codexdoctor.commands.options import CheckOptions, make_context
from codexdoctor.commands.output import PublishOptions, in_language, terminal_width
from codexdoctor.common import oserror, safefile
from codexdoctor.model import Msg, said_error
from codexdoctor.watch import child, diagnosis, override, store
from codexdoctor.watch.record import Recorded, line

if TYPE_CHECKING:
    from codexdoctor.model import Report
    from codexdoctor.report.ticket import WatchedRun
    from codexdoctor.watch.recorder import Recorder


@dataclass(frozen=True)
class WatchOptions:
    """`codexdoctor watch`: Codex's command line (empty with --serve), what to keep, where the report goes."""

    argv: tuple[str, ...] = ()
    serve: bool = False
    port: int = 0
    keep_bodies: bool = False
    log: str | None = None
    lang: str | None = None
    stall_seconds: float = diagnosis.STALL_MS / 1000
    publish: PublishOptions = field(default_factory=PublishOptions)


def warn(text: Msg, lang: str) -> None:
    """One line on stderr in the run's language."""
    click.echo(("codexdoctor watch：" if lang == "zh" else "codexdoctor watch: ") + text.text(lang), err=True)


def _runs_direct(why: Msg) -> Msg:
    return Msg("{why}; Codex runs without the recorder", "{why}；Codex 不经过记录器直接运行", why=why)


@dataclass(frozen=True)
class Session:
    """What one watched run ended with: the recording, Codex's exit code, the context it was resolved in."""

    ctx: CheckContext
    requests: tuple[Recorded, ...]
    where: str
    exit_code: int | None
    upstream: str | None = None  # the provider's base_url the requests went to, redacted (a finding's URL)


def run(opts: WatchOptions) -> None:
    env = environment()
    home = home_of(env)
    lang = language(opts.lang)
    args = child.read_args(opts.argv) if opts.argv else child.CodexArgs()
    from codexdoctor.codex.config import OverrideError

    try:
        ctx = make_context(
            CheckOptions(
                env=env,
                home=home,
                cwd=Path.cwd(),
                overrides=args.overrides,
                profile=args.profile,
                model=args.model,
                lang=lang,
            )
        )
    except OverrideError as exc:
        if opts.serve:
            raise click.UsageError(str(exc)) from None
        warn(_runs_direct(Msg.verbatim(str(exc))), lang)
        raise SystemExit(child.run(opts.argv, env, lang)) from None
    session = watch(ctx, opts, env)
    if session is None:
        return
    publish(session, opts, lang)
    raise SystemExit(session.exit_code if session.exit_code is not None else 0)


def watch(ctx: CheckContext, opts: WatchOptions, env: dict[str, str]) -> Session | None:
    """Start the recorder, run Codex through it (or serve until Ctrl-C), stop; None when Codex ran direct."""
    from codexdoctor.report.render.text import fit_lines
    from codexdoctor.watch.recorder import Recorder, Upstream

    direct, lang = not opts.serve, language(opts.lang)
    point = override.pointing(ctx.resolution)
    if point.problem or point.upstream is None:
        return _direct(opts, env, point.problem or Msg("no base_url", "没有 base_url"), lang)
    try:
        rec_store = store.Store(store.recordings_dir(env, ctx.home), ctx.resolution.codex_home)
        upstream = Upstream(point.upstream, ctx.resolution.env)
    except store.Unusable as exc:
        return _direct(opts, env, exc.said, lang)
    except (OSError, ValueError) as exc:
        return _direct(opts, env, Msg.verbatim(str(exc)), lang)
    requests: list[Recorded] = []
    lock = threading.Lock()
    # `codex exec` (and `codex exec resume`) writes to a plain stderr: one status line per request goes there.
    # The TUI owns the terminal: nothing is written on it (--log FILE is for a second terminal).
    exec_mode = direct and child.read_args(opts.argv).subcommand in ("exec", "e")

    def on_record(rec: Recorded) -> None:
        with lock:
            requests.append(rec)
        rec_store.request(rec)
        text = ctx.redactor(line(rec, lang))
        if exec_mode or opts.serve:
            # In the run's language, wrapped at its spaces to the terminal (issue 40 review: 120 cells at 80 columns).
            click.echo("\n".join(fit_lines([text], terminal_width(), "  ", lang)), err=True)
        if opts.log:
            try:
                safefile.write_output(opts.log, text + "\n", append=True)
            except OSError:
                pass

    try:
        recorder = Recorder(upstream, ctx.redactor, on_record, opts.keep_bodies, port=opts.port).start()
    except OSError as exc:
        upstream.close()
        why = Msg.pair(oserror.reason(exc), oserror.reason_zh(exc))
        return _direct(
            opts, env, Msg("cannot listen on 127.0.0.1 ({why})", "无法在 127.0.0.1 上监听（{why}）", why=why), lang
        )
    shown = ctx.redactor(ctx.resolution.show(rec_store.path))
    rec_store.write(_start_record(ctx, opts, point.upstream, recorder.base_url))
    exit_code: int | None = None
    try:
        if opts.serve:
            _serve(recorder, point, ctx, lang)
        else:
            exit_code = _run_codex(opts, env, point, recorder.base_url, lang)
    finally:
        recorder.stop()
        rec_store.write({"kind": "end", "codex_exit": exit_code, "dropped": rec_store.dropped})
    with lock:
        done = tuple(sorted(requests, key=lambda r: r.number))
    return Session(ctx, done, shown, exit_code, ctx.redactor(_redacted(point.upstream)))


def _start_record(ctx: CheckContext, opts: WatchOptions, upstream: str, recorder_url: str) -> dict[str, object]:
    """The recording's first line: which provider, where it really is (redacted), and which Codex command ran."""
    return {
        "kind": "start",
        "provider": ctx.resolution.provider.id,
        "upstream": ctx.redactor(_redacted(upstream)),
        "recorder": recorder_url,
        "program": os.path.basename(opts.argv[0]) if opts.argv else None,
        "subcommand": child.read_args(opts.argv).subcommand if opts.argv else None,
    }


def _run_codex(opts: WatchOptions, env: dict[str, str], point: override.Pointing, recorder_url: str, lang: str) -> int:
    """Codex as the user asked for it, pointed at the recorder (its base_url and, where Codex reads one, the
    variable); loopback kept out of any proxy. Codex's exit code."""
    child_env = {**env, **override.no_proxy_for_loopback(env)}
    if point.env_var:
        child_env[point.env_var] = recorder_url
    argv = child.with_override(opts.argv, point.override(recorder_url))
    return child.run(argv, child_env, lang)


def _redacted(url: str) -> str:
    from codexdoctor.common.redact import redact_url

    return redact_url(url)


def _direct(opts: WatchOptions, env: dict[str, str], why: Msg, lang: str) -> NoReturn:
    if opts.serve:
        said = Msg("the recorder cannot run: {why}", "记录器无法运行：{why}", why=why)
        raise said_error(click.ClickException(said.text("en")), said)
    warn(_runs_direct(why), lang)
    raise SystemExit(child.run(opts.argv, env, lang))


def _serve(recorder: Recorder, point: override.Pointing, ctx: CheckContext, lang: str) -> None:
    """Print how to point Codex here (in the run's language), then wait for Ctrl-C (the group's handler raises
    KeyboardInterrupt)."""
    base_url = recorder.base_url
    upstream = ctx.redactor(_redacted(point.upstream or ""))
    lines = [
        Msg(
            "codexdoctor watch: recording on {url} -> {up}",
            "codexdoctor watch：在 {url} 上记录 -> {up}",
            url=base_url,
            up=upstream,
        )
    ]
    if point.config_key:
        o = point.override(base_url) or ""
        lines.append(Msg("Run Codex with:\n  codex -c '{o}'", "这样启动 Codex：\n  codex -c '{o}'", o=o))
    elif point.env_var:
        run_with = f"{point.env_var}={base_url} codex"
        lines.append(Msg("Run Codex with:\n  {cmd}", "这样启动 Codex：\n  {cmd}", cmd=run_with))
    lines.append(Msg("Ctrl-C stops the recorder and prints the diagnosis.", "按 Ctrl-C 停止记录器并打印诊断。"))
    from codexdoctor.report.render.text import fit_lines

    width = terminal_width()
    for msg in lines:  # wrapped at its spaces, URLs whole (issue 40 review: 82 cells at 80 columns); commands as is
        text = msg.text(lang)
        click.echo(text if "\n" in text else "\n".join(fit_lines([text], width, "  ", lang)))
    sys.stdout.flush()
    stop = threading.Event()
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        after_ctrl_c(sys.stdout)


def after_ctrl_c(out: TextIO) -> None:
    """The terminal echoed `^C` with no line break: the diagnosis starts on a line of its own (issue 40 review:
    `^C提供方：…`). Into a pipe or a file nothing was echoed, and nothing is added."""
    try:
        if out.isatty():
            out.write("\n")
    except (OSError, ValueError):
        pass


def report_of(session: Session, lang: str, stall_seconds: float = diagnosis.STALL_MS / 1000) -> Report:
    """The report: the `ctx.watch` result, its findings from the catalog, the requests' table and chart."""
    from codexdoctor.report.build import build_report
    from codexdoctor.rules import evaluate

    layer = session.ctx.resolution.user_layer
    user_config = layer.label if layer else "~/.codex/config.toml"
    result = diagnosis.check(
        session.requests, session.where, session.exit_code, lang, stall_seconds * 1000, user_config, session.upstream
    )
    result = session.ctx.stamp(result)
    zh = lang == "zh"
    notes = [
        "Recorded by codexdoctor watch; bodies were not kept."
        if not zh
        else "由 codexdoctor watch 记录；未保存请求和响应正文。"
    ]
    return build_report(
        "watch",
        session.ctx,
        [result],
        evaluate([result], lang=lang),
        True,
        notes,
        lang,
        sections=diagnosis.sections(session.requests, lang),
    )


def last_run(ctx: CheckContext, env: Mapping[str, str], lang: str) -> WatchedRun | None:
    """The newest recording in codexdoctor's recordings folder, or None (none, or unreadable). Its lines are read
    back type-checked (store.read): a file is outside input."""
    from codexdoctor.common.untrusted import clip, sanitize
    from codexdoctor.report.ticket import WatchedRun

    path = store.latest(store.recordings_dir(env, ctx.home))
    if path is None:
        return None
    try:
        recording = store.read(path)
    except (OSError, ValueError):
        return None

    def word(key: str) -> str | None:
        value = recording.start.get(key)
        return clip(sanitize(value), 80) if isinstance(value, str) else None

    code = recording.end.get("codex_exit")
    code = code if isinstance(code, int) and not isinstance(code, bool) else None
    shown = ctx.redactor(ctx.resolution.show(path))
    up = recording.start.get("upstream")
    upstream = clip(sanitize(up), 500) if isinstance(up, str) else None
    report = report_of(Session(ctx, recording.requests, shown, code, upstream), lang)
    return WatchedRun(report, shown, word("provider"), word("program"), word("subcommand"), code)


def publish(session: Session, opts: WatchOptions, lang: str) -> None:
    """The report on stderr while Codex's stdout stays Codex's (or to -o FILE); never decides the exit code."""
    from codexdoctor.report.render import RenderOptions, render

    report = report_of(session, lang, opts.stall_seconds)
    fmt = opts.publish.fmt or "text"
    out = opts.publish.output
    ropts = RenderOptions(verbose=opts.publish.verbose, width=terminal_width(None, out) if fmt == "text" else None)
    text = in_language(session.ctx.redactor(render(report, fmt, ropts)), report.lang if fmt != "json" else "en")
    if out:
        try:
            safefile.write_output(out, text)
        except OSError as exc:
            why = Msg.pair(oserror.reason(exc), oserror.reason_zh(exc))
            warn(Msg("cannot write {out}: {why}", "无法写入 {out}：{why}", out=out, why=why), lang)
            return
        warn(Msg("report written to {out}", "报告已写入 {out}", out=out), lang)
        return
    write: Callable[[str], object] = sys.stdout.write if opts.serve else sys.stderr.write
    write(text)
