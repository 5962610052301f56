"""`codexdoctor sessions`: a post-mortem of Codex's own session logs, offline."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from codexdoctor.checks.base import CheckContext
from codexdoctor.commands.environment import environment, home_of, language
from codexdoctor.commands.options import CheckOptions, make_context
from codexdoctor.commands.output import PublishOptions, publish
from codexdoctor.model import CheckResult, Msg, Report
from codexdoctor.report.build import build_report
from codexdoctor.rules import evaluate


@dataclass(frozen=True)
class SessionsOptions:
    """`codexdoctor sessions`: which logs and sessions to read, what to show, and how the report is published."""

    paths: tuple[Path, ...] = ()  # files or folders; none: $CODEX_HOME/sessions and archived_sessions
    last: int | None = None
    since: datetime | None = None
    session_id: str | None = None  # an id or a prefix
    show_content: bool = False
    lang: str | None = None  # --lang; None: the locale's
    publish: PublishOptions = field(default_factory=PublishOptions)


HIDDEN_CONTENT = Msg(
    "Message contents are not shown (--show-content shows them).", "不显示消息内容（加 --show-content 显示）。"
)


def run_sessions(
    env: Mapping[str, str],
    home: Path,
    paths: tuple[Path, ...] = (),
    last: int | None = None,
    since: datetime | None = None,
    session_id: str | None = None,
    show_content: bool = False,
    lang: str = "en",
    codex_version: tuple[int, ...] | None = None,
) -> tuple[Report, Any]:
    """Read the rollouts (default: $CODEX_HOME/sessions and archived_sessions) and build the report. `report` passes
    the Codex version its check found, so the ticket names one version (issue 40)."""
    from datetime import timezone

    from codexdoctor.checks import sessions as sessions_mod
    from codexdoctor.checks.sessions import tables as sessions_tables
    from codexdoctor.common.redact import shorten_home

    opts = CheckOptions(env=env, home=home, cwd=Path.cwd(), offline=True, lang=lang, codex_version=codex_version)
    ctx = make_context(opts)
    codex_home = ctx.resolution.codex_home
    roots = list(paths) or [codex_home / "sessions", codex_home / "archived_sessions"]
    selection = sessions_mod.Selection(
        last=last,
        since=since.replace(tzinfo=timezone.utc) if since else None,
        session=session_id,
        show_content=show_content,
    )
    limit = ctx.resolution.merged.get("model_auto_compact_token_limit")
    limit = limit if isinstance(limit, int) and limit > 0 else None
    loaded, problems = sessions_mod.summarize(roots, selection, codex_home / "log" / "codex-tui.log", limit)
    shown = tuple(shorten_home(str(r), str(home)) for r in roots)
    check = sessions_mod.build_check(loaded, [shorten_home(p, str(home)) for p in problems], shown, str(home), limit)
    check = with_user_config(check, ctx)
    # Charts and detail for the most recent failing sessions only: a corpus of thousands stays one screenful per session.
    failing = {d["id"] for d in check.facts["sessions"] if d["kind"] != "none"}
    failing = set(
        sorted(failing, key=lambda i: next(d["start"] or "" for d in check.facts["sessions"] if d["id"] == i))[-10:]
    )
    detail = {d["id"] for d in check.facts["sessions"]} if (session_id or loaded.total <= 3) else failing
    from codexdoctor.report import recordings as watch_recordings

    short_ids = {d["id"]: d["short_id"] for d in check.facts["sessions"]}
    # Under --session, only the recordings of the session asked about (never those of no session).
    recorded = watch_recordings.section(env, home, short_ids, lang, only=set(short_ids) if session_id else None)
    report = build_report(
        "sessions",
        ctx,
        [check],
        evaluate([check], lang=lang),
        True,
        [Msg("Read offline from Codex's own logs; no request was sent.", "离线读取 Codex 自己的日志；未发送任何请求。")]
        + ([] if show_content or not loaded.total else [HIDDEN_CONTENT]),
        opts.lang,
        sections=[*sessions_tables.sections(check, detail, lang), *([recorded] if recorded else [])],
        show_provider=False,
    )
    return report, ctx.redactor


def with_user_config(check: CheckResult, ctx: CheckContext, **counts: Any) -> CheckResult:
    """The config file the window advice names, on the check and on each session; the provider and model the config
    uses now; and the one window per provider and model the findings quote (checks/sessions/windows.py, issue 40).
    `counts`: this run's `first_request`, `tool_round` and `served` window, when `check` measured them."""
    from codexdoctor.checks.sessions.windows import decide_windows
    from codexdoctor.codex.config import BUILTIN_PROVIDERS

    res = ctx.resolution
    user_config = res.user_layer.label if res.user_layer else "~/.codex/config.toml"
    tables = res.merged.get("model_providers")
    defined = {*(tables if isinstance(tables, dict) else {}), *BUILTIN_PROVIDERS}
    model = str(res.model) if res.model else None
    sessions = [{**d, "user_config": user_config} for d in check.facts["sessions"]]
    windows = decide_windows(
        sessions,
        (check.facts.get("across") or {}).get("groups") or [],
        provider=res.provider_id,
        model=model,
        defined=defined,
        tool_output_token_limit=res.merged.get("tool_output_token_limit"),
        **counts,
    )
    return replace(
        check,
        facts={
            **check.facts,
            "user_config": user_config,
            "sessions": sessions,
            "windows": windows,
            "current_provider": res.provider_id,
            "current_model": model,
            "providers_defined": sorted(defined),
        },
    )


def recent_sessions_check(
    ctx: CheckContext,
    home: Path,
    keep: Callable[[dict[str, Any]], bool],
    which: Msg,
    limit: int = 200,
    **counts: int,
) -> tuple[CheckResult | None, int]:
    """The newest session logs that `keep` says the question is about (issue 39: `check` reads the active provider's,
    `diagnose-error` those that ended with the pasted message), judged as `sessions` judges them: the same clusters,
    the same findings. None when no such session exists; with it, how many it read. `which` says what the kept ones
    have in common, after their count: the check says how many it read from which folders and how many it kept, as
    `sessions` counts them (issue 40 review). `counts`: what `check` measured (with_user_config)."""
    from codexdoctor.checks import sessions as sessions_mod
    from codexdoctor.common.redact import shorten_home

    codex_home = ctx.resolution.codex_home
    files = sessions_mod.recent_rollouts([codex_home / "sessions", codex_home / "archived_sessions"], limit)
    if not files:
        return None, 0
    compact = ctx.resolution.merged.get("model_auto_compact_token_limit")
    compact = compact if isinstance(compact, int) and compact > 0 else None
    loaded, problems = sessions_mod.summarize(
        files, sessions_mod.Selection(), codex_home / "log" / "codex-tui.log", compact
    )
    chosen = sessions_mod.keep_only(loaded, keep)
    if not chosen.total:
        return None, loaded.total
    shown = tuple(shorten_home(str(codex_home / name), str(home)) for name in ("sessions", "archived_sessions"))
    problems = [shorten_home(p, str(home)) for p in problems]
    kept = sessions_mod.Kept(loaded.total, which)
    check = sessions_mod.build_check(chosen, problems, shown, str(home), compact, kept)
    return with_user_config(check, ctx, **counts), loaded.total


def run(opts: SessionsOptions) -> None:
    """The command: an ambiguous --session prefix is a usage error that lists the candidates."""
    from codexdoctor.checks.sessions import AmbiguousSession

    env = environment()
    try:
        report, redactor = run_sessions(
            env,
            home_of(env),
            tuple(opts.paths),
            opts.last,
            opts.since,
            opts.session_id,
            opts.show_content,
            language(opts.lang),
        )
    except AmbiguousSession as exc:
        raise click.BadParameter(str(exc), param_hint="--session") from None
    publish(report, redactor, opts.publish)
