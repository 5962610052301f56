"""`codexdoctor probe`: static checks first, then the announced, budgeted session probe and its report."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import click

from codexdoctor.checks import STATIC_CHECKS, run_static
from codexdoctor.checks.base import CheckContext
from codexdoctor.checks.probe import (
    Probe,
    ProbeOutcome,
    ProbeSettings,
    probe_result,
    steps_section,
    summary_section,
)
from codexdoctor.commands.options import CheckOptions, make_context
from codexdoctor.commands.output import EXIT_INTERRUPTED, EXIT_USAGE, PublishOptions, publish
from codexdoctor.model import CheckResult, Msg, Report

if TYPE_CHECKING:
    from codexdoctor.checks.probe.steps import ProbeOutcome
    from codexdoctor.common.status_line import StatusLine
    from codexdoctor.net.deadline import Deadline
from codexdoctor.common.words import plural
from codexdoctor.report.build import build_report
from codexdoctor.rules import evaluate

# The probe's api.canary row: its single question, not Codex's first request (i18n.TITLE_OVERRIDES_ZH: 单次提问).
SINGLE_QUESTION = "Single question"


@dataclass(frozen=True)
class ProbeOptions:
    """`codexdoctor probe`: the config to probe, the probe's limits, whether to ask, and how the report is
    published."""

    check: CheckOptions
    settings: ProbeSettings
    yes: bool = False  # run even when the worst-case estimate exceeds --budget
    quiet: bool = False  # no progress lines on stderr
    publish: PublishOptions = field(default_factory=PublishOptions)


@dataclass(frozen=True)
class Screen:
    """Where the probe's "still waiting" lines go (a terminal's status line rewrites them in place; None: with the
    other progress lines) and the width its step rows fit."""

    waiting: Callable[[str], None] | None = None
    width: int | None = None


class ProbeRefused(Exception):
    """The user did not agree to the announced plan: above --budget (no --yes, no yes at the prompt), or declined at
    the prompt a terminal gets before any token is spent."""

    def __init__(self, plan: str, over_budget: bool = True) -> None:
        super().__init__(plan)
        self.over_budget = over_budget


def run_probe(
    opts: CheckOptions,
    settings: ProbeSettings,
    confirm: Callable[[str], bool],
    progress: Callable[[str], None],
    ask: Callable[[str], bool] = lambda _plan: True,
    screen: Screen | None = None,
) -> tuple[Report, CheckContext]:
    """Static checks, then (if Codex would send anything) the announced, budgeted session probe. `screen`: where the
    "still waiting" lines go and the width the step rows fit (none: `progress`, no width)."""
    from codexdoctor.checks import live
    from codexdoctor.net.deadline import Deadline

    # --timeout covers the whole command from its launch: start-up, `codex --version`, the lookups before the probe too
    total = Deadline(settings.total_timeout_s, started=opts.started)
    ctx = make_context(opts)
    static = run_static(ctx, STATIC_CHECKS)
    blockers = live.blocked_by_static(static)
    if blockers:
        note = Msg(
            "Probe not run: Codex would stop before sending a request ({names}); no tokens were spent.",
            "未运行探测：Codex 在发出请求前就会停止（{names}）；没有消耗 token。",
            names=blocker_names(static, blockers),
        )
        static = live.with_nothing_sent(static)  # URL003 must not say live checks tried (issue 40)
        return build_report("probe", ctx, static, evaluate(static, lang=opts.lang), False, [note], opts.lang), ctx
    if (unsigned := live.cannot_sign(ctx)) is not None:  # amazon-bedrock: Codex signs with AWS SigV4, we cannot
        return build_report("probe", ctx, static, evaluate(static, lang=opts.lang), False, [unsigned], opts.lang), ctx
    progress(_budget_line(settings, opts.lang))  # at once (issue 40): the plan waits for the lookups below
    made: list[Probe] = []
    try:
        return _probe(ctx, opts, settings, static, total, confirm, progress, ask, made, screen or Screen())
    except (KeyboardInterrupt, click.exceptions.Abort):  # outside the probe's requests (those end in the report)
        spent = made[0].spent if made else 0
        progress(
            Msg("Ctrl-C: {n:,} input tokens spent.", "Ctrl-C：已花费 {n:,} 个输入 token。", n=spent).text(opts.lang)
            if spent
            else Msg("Ctrl-C: no tokens were spent.", "Ctrl-C：没有花费任何 token。").text(opts.lang)
        )
        raise


def _probe(
    ctx: CheckContext,
    opts: CheckOptions,
    settings: ProbeSettings,
    static: list[CheckResult],
    total: Deadline,
    confirm: Callable[[str], bool],
    progress: Callable[[str], None],
    ask: Callable[[str], bool],
    made: list[Probe],
    screen: Screen,
) -> tuple[Report, CheckContext]:
    """The probe itself, once the static checks let it run: plan, prompt, requests, report. `made` gets the Probe,
    so a Ctrl-C outside its requests can still say what it spent."""
    from codexdoctor.checks import live
    from codexdoctor.checks import probe as probe_mod
    from codexdoctor.common import tokens

    # The tokenizer loads (a second or so of CPU) while the window is looked up (network): the plan needs both.
    tok_future = _in_background(lambda: tokens.for_model(str(ctx.resolution.model or "")))
    published, source = (
        (None, None)
        if settings.max_context
        else live.published_window(ctx, min(10.0, settings.request_timeout_s, total.remaining()))
    )
    tok = tok_future.result()
    probe = probe_mod.Probe(
        ctx,
        settings,
        tok,
        progress=progress,
        published=published,
        lang=opts.lang,
        total=total,
        waiting=screen.waiting,
        width=screen.width,
    )
    made.append(probe)
    requests, estimate = probe.estimate()
    plan = _announce(probe, settings, published, source, requests, estimate, opts.lang, progress)
    # Review 1, point 32: a range that stops below Codex's own first request can say nothing of Codex's sessions;
    # said before the question a terminal is asked (or the refusal), so the user can raise --budget first.
    first = _first_tokens(ctx)
    _warn_short_range(probe, settings, published, first, opts.lang, progress)
    over = estimate > settings.budget
    if not (confirm(plan) if over else ask(plan)):
        raise ProbeRefused(plan, over)
    try:
        family = probe_mod.identify_family(probe)
        outcome = probe.run()
    finally:
        probe.client.close()
    facts = _probe_facts(ctx, settings, outcome, family, published, first)
    checks = [*static, *_single_question_rows(ctx, probe, outcome), ctx.stamp(probe_result(facts))]
    n = len(outcome.steps) + outcome.resent
    notes = [_counted_note(tok.name, tok.exact, outcome.spent, n)]
    sections = [steps_section(outcome, opts.lang), *summary_section(facts, opts.lang)]
    return build_report(
        "probe", ctx, checks, evaluate(checks, lang=opts.lang), True, notes, opts.lang, sections=sections
    ), ctx


def _single_question_rows(ctx: CheckContext, probe: Probe, outcome: ProbeOutcome) -> list[CheckResult]:
    """When the probe stopped at its single question, the reachability and canary rows read as check's would, from
    that one exchange (nothing more is sent). The canary's row is titled for what was sent (review 1, point 11): on
    `check`, "Canary request" is Codex's own first request; here it is the single question, a few tokens."""
    from codexdoctor.checks.live.canary import canary_result
    from codexdoctor.checks.live.exchanges import Clocks
    from codexdoctor.checks.live.reach import reach_result
    from codexdoctor.net.classify import classify

    single = outcome.single_exchange
    if single is None:
        return []
    clocks = Clocks(1, 1)
    asked = canary_result(ctx, probe.plan, single, classify(single, probe.plan.wire), clocks)
    return [
        ctx.stamp(reach_result(ctx, probe.plan, single, single, clocks)),
        ctx.stamp(replace(asked, title=SINGLE_QUESTION)),
    ]


def _counted_note(tokenizer: str, exact: bool, spent: int, n: int) -> Msg:
    """How the tokens were counted and what the run spent: the note under every probe report."""
    if exact:
        return Msg(
            "Tokens counted with {tok} (exact); {spent:,} input tokens spent in {requests}.",
            "使用 {tok} 计数（精确）；{n} 次请求共消耗 {spent:,} 个输入 token。",
            tok=tokenizer,
            spent=spent,
            n=n,
            requests=plural(n, "request"),
        )
    return Msg(
        "Tokens counted with {tok} (approximate: vocabulary unavailable); {spent:,} input tokens spent in {requests}.",
        "使用 {tok} 计数（近似：词表不可用）；{n} 次请求共消耗 {spent:,} 个输入 token。",
        tok=tokenizer,
        spent=spent,
        n=n,
        requests=plural(n, "request"),
    )


def _budget_line(settings: ProbeSettings, lang: str) -> str:
    """The first line, printed before anything is looked up: what the probe may spend, and that nothing is spent
    before the plan (issue 40: nothing was printed for the first second or more)."""
    if settings.max_context:
        return Msg(
            "Probe budget: {b:,} input tokens (--budget). Loading the tokenizer for the plan; no tokens spent yet.",
            "探测预算：{b:,} 个输入 token（--budget）。正在加载分词器以制定计划；尚未花费任何 token。",
            b=settings.budget,
        ).text(lang)
    return Msg(
        "Probe budget: {b:,} input tokens (--budget). Looking up the provider's window and loading the tokenizer "
        "for the plan; no tokens spent yet.",
        "探测预算：{b:,} 个输入 token（--budget）。正在查询提供方的窗口并加载分词器以制定计划；尚未花费任何 token。",
        b=settings.budget,
    ).text(lang)


def _in_background(work: Callable[[], Any]) -> Future[Any]:
    """`work` on a daemon thread: a Ctrl-C while it runs ends the command at once (a pool would be joined first)."""
    future: Future[Any] = Future()

    def run() -> None:
        try:
            future.set_result(work())
        except BaseException as exc:
            future.set_exception(exc)

    threading.Thread(target=run, name="codexdoctor-probe-tokenizer", daemon=True).start()
    return future


def blocker_names(static: list[CheckResult], blockers: list[str]) -> Msg:
    """The blocking checks as the user sees them on their rows ("API key variable"), never as internal ids."""
    from codexdoctor.i18n import check_title

    titles = {r.id: r.title for r in static}
    return Msg.join([Msg.pair(titles.get(b, b), check_title(b, titles.get(b, b), "zh")) for b in blockers])


def _announce(
    probe: Probe,
    settings: ProbeSettings,
    published: int | None,
    source: Msg | None,
    requests: int,
    estimate: int,
    lang: str,
    progress: Callable[[str], None],
) -> str:
    """Say what the probe knows of the window and what it will spend (before anything is sent); returns the plan
    line, which the prompt shows again when the estimate exceeds --budget."""
    zh = lang == "zh"
    if published:
        # `source` may be None (mypy, issue 32): the line said "(None)" then, in both languages.
        where = source or Msg("its model list", "它的模型列表")
        said = Msg(
            "The provider publishes a {n:,}-token window ({where}): the probe checks half of it, then just below and "
            "just above it.",
            "提供方公布的窗口是 {n:,} 个 token（{where}）：探测先测一半大小，再测略低于和略高于它的大小。",
            n=published,
            where=where,
        )
        progress(said.text(lang))
    elif probe.fitted:
        progress(
            f"提供方没有公布窗口：在 --budget 允许的范围内最多探测到 {probe.max_context:,} 个 token；用 --max-context 和 "
            "--budget 可以探测得更远。"
            if zh
            else f"The provider does not publish its window: the probe goes up to {probe.max_context:,} tokens, "
            "as far as --budget allows; --max-context and --budget go further."
        )
    # Review 1, point 12: "at most" is the most the search can send wherever the break lies, and the probe never
    # sends more; the tokens are those of the break just below the largest size, what --budget is weighed against.
    plan = (
        f"探测计划：最多 {requests} 个请求；断点就在 {probe.max_context:,} 个 token 之下时约 {estimate:,} 个输入 token；"
        f"到 --budget {settings.budget:,} 即停止。每个请求的输出上限为 {settings.max_output_tokens} 个 token。"
        if zh
        else f"Probe plan: at most {requests} requests; about {estimate:,} input tokens when the break lies just below "
        f"{probe.max_context:,} tokens; it stops at --budget {settings.budget:,}. Output is capped at "
        f"{settings.max_output_tokens} tokens per request."
    )
    progress(plan)
    return plan


def _warn_short_range(
    probe: Probe,
    settings: ProbeSettings,
    published: int | None,
    first: int,
    lang: str,
    progress: Callable[[str], None],
) -> None:
    """The range the budget or --max-context leaves is below the size of Codex's own first request: this run cannot
    show whether Codex's sessions fit, whatever it finds. Said with the command that goes far enough, the one CTX009
    gives (checks/probe.further_command)."""
    from codexdoctor.checks.probe import further_command

    # A budget too small for even the smallest session: the plan keeps the whole range, and no size of it is reached.
    unfitted = not settings.max_context and not probe.fitted and probe.estimate()[1] > settings.budget
    if published or (probe.max_context >= first and not unfitted):
        return
    limit = (
        Msg("--max-context {n}", "--max-context {n}", n=str(settings.max_context))
        if settings.max_context
        else Msg("--budget {b:,}", "--budget {b:,}", b=settings.budget)
        if unfitted
        else Msg(
            "within --budget {b:,} the probe goes up to {n:,} tokens and",
            "在 --budget {b:,} 之内探测最多到 {n:,} 个 token",
            b=settings.budget,
            n=probe.max_context,
        )
    )
    progress(
        Msg(
            "Warning: {limit} cannot even reach the size of Codex's own first request, so this probe cannot show "
            "whether a Codex session fits. This one goes far enough:",
            "警告：{limit}，连 Codex 自己的第一个请求的大小都够不到，所以这次探测无法说明 Codex 的会话能否放下。"
            "这样可以探测得足够远：",
            limit=limit,
        ).text(lang)
    )
    progress("    " + further_command(settings, 0 if unfitted else probe.max_context, first))


def _probe_facts(
    ctx: CheckContext,
    settings: ProbeSettings,
    outcome: ProbeOutcome,
    family: str | None,
    published: int | None,
    first: int,
) -> dict[str, Any]:
    """The probe's facts (checks/probe.analyse) and what the rules read beside them: the server family, the user's
    config file, the repeat count, the published window, and why a stopped probe is inconclusive."""
    from codexdoctor.checks import probe as probe_mod

    facts = probe_mod.analyse(outcome, settings, first)
    facts["family"] = family
    facts["user_config"] = ctx.resolution.user_layer.label if ctx.resolution.user_layer else "~/.codex/config.toml"
    facts["repeat"] = settings.repeat
    facts["published_window"] = published
    if outcome.stopped and (outcome.first_fail is None or outcome.stable is None):
        facts["inconclusive_reason"] = str(probe_mod.stopped_reason(outcome.stopped, outcome.spent))
    return facts


def _status_line(quiet: bool) -> StatusLine | None:
    """The line a terminal rewrites in place (common/status_line), as check's progress has; None on a pipe or with
    --quiet: plain lines there."""
    if quiet or sys.stderr is None or not sys.stderr.isatty():
        return None
    from codexdoctor.common.status_line import StatusLine

    return StatusLine(sys.stderr)


def _first_tokens(ctx: CheckContext) -> int:
    """Codex's first request for this user, counted as `check` counts it before sending (the turns per session are
    what is left on top of it); the measured fallback when Codex would speak Chat Completions or it cannot be built."""
    from codexdoctor.checks import live
    from codexdoctor.codex.sizes import CODEX_FIRST_REQUEST_TOKENS

    try:
        first = live.make_plan(ctx).first
    except Exception:  # an unreadable AGENTS.md, a template problem: the turns still have a number to stand on
        first = None
    return first.tokens if first is not None else CODEX_FIRST_REQUEST_TOKENS


def run(opts: ProbeOptions) -> None:
    """The command: the plan on stderr, a prompt when the estimate exceeds --budget, the report (partial on Ctrl-C)."""
    from codexdoctor.commands.output import terminal_width
    from codexdoctor.report.render.text import clip_to_width, fit_lines

    width = terminal_width()
    status = _status_line(opts.quiet)

    def progress(line: str) -> None:  # the plan and the step lines, fitted to the terminal like every screen
        if opts.quiet:
            return
        text = "\n".join(fit_lines([line], width, "    ", opts.check.lang))
        if status is not None:
            status.keep(text)  # the "still waiting" line it replaces is gone
        else:
            click.echo(text, err=True)

    def waiting(line: str) -> None:  # issue 40 review: rewritten in place on a terminal, as check's are
        if status is not None:
            status.show(clip_to_width(line, width - 1, opts.check.lang))
        elif not opts.quiet:
            click.echo(line, err=True)

    try:
        report, ctx = run_probe(
            opts.check,
            opts.settings,
            lambda _plan: _confirm_over_budget(opts),
            progress,
            lambda _plan: _ask_to_start(opts),
            Screen(waiting, width),
        )
    except ProbeRefused as refused:
        if status is not None:
            status.clear()
        _say_refused(refused, opts, width)
        raise SystemExit(EXIT_USAGE) from None
    if status is not None:
        status.clear()
    interrupted = any(c.facts.get("stopped") == "interrupted" for c in report.checks)
    try:
        publish(report, ctx.redactor, opts.publish)
    except SystemExit as done:  # Ctrl-C: the partial result is printed, and the exit code still says interrupted
        raise SystemExit(EXIT_INTERRUPTED if interrupted else done.code) from None


def _confirm_over_budget(opts: ProbeOptions) -> bool:
    """The estimate is over --budget: run only with --yes, or when the user on a terminal says so."""
    if opts.yes:
        return True
    if sys.stdin is not None and sys.stdin.isatty():
        return click.confirm(
            Msg(
                "The estimate exceeds --budget. Run anyway (it stops at the budget)?",
                "估算超过了 --budget。仍然运行吗（到预算即停止）？",
            ).text(opts.check.lang),
            default=False,
            err=True,
        )
    return False


def _ask_to_start(opts: ProbeOptions) -> bool:
    """Issue 40: on a terminal the probe spent its plan without asking; it asks as `fix` does (never without a
    terminal, never with --yes)."""
    if opts.yes or sys.stdin is None or not sys.stdin.isatty():
        return True
    return click.confirm(
        Msg(
            "Start the probe as planned above (it spends tokens)?",
            "按上面的计划开始探测（会花费 token，到预算即停止）？",
        ).text(opts.check.lang),
        default=True,
        err=True,
    )


def _say_refused(refused: ProbeRefused, opts: ProbeOptions, width: int) -> None:
    """Why nothing was sent: the user said no, or the estimate is over --budget without --yes."""
    from codexdoctor.report.render.text import fit_lines

    if not refused.over_budget:
        said = Msg(
            "codexdoctor probe: not started; no tokens spent.", "codexdoctor probe：没有开始，没有花费任何 token。"
        )
        click.echo(said.text(opts.check.lang), err=True)
        return
    message = Msg(
        "codexdoctor probe: not started: the worst-case estimate exceeds --budget {budget:,} input tokens. "
        "Pass --yes to run anyway (it stops at the budget), raise --budget, or lower --max-context.",
        "codexdoctor probe：没有开始：最坏情况的估算超过了 --budget {budget:,} 个输入 token。"
        "加 --yes 仍然运行（到预算即停止），或提高 --budget，或降低 --max-context。",
        budget=opts.settings.budget,
    )
    click.echo("\n".join(fit_lines([message.text(opts.check.lang)], width, "  ", opts.check.lang)), err=True)
