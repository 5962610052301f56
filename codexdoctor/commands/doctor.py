"""Orchestration for `check`: resolve config, run checks, apply rules, build the report."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping

from codexdoctor.codex import config as config_mod
from codexdoctor.codex import secrets
from codexdoctor.checks import STATIC_CHECKS, run_static
from codexdoctor.checks.base import CheckContext
from codexdoctor.model import CheckResult, Report, Section, Status
from codexdoctor.common.redact import Redactor
from codexdoctor.report.build import build_report
from codexdoctor.rules import evaluate


@dataclass(frozen=True)
class CheckOptions:
    """What the user asked for; everything that touches the machine is passed in here."""

    env: Mapping[str, str]
    home: Path
    cwd: Path
    overrides: tuple[str, ...] = ()
    profile: str | None = None
    model: str | None = None
    offline: bool = False
    codex_version: tuple[int, ...] | None = None
    system_config: Path | None = Path("/etc/codex/config.toml")
    timeout: float = 10.0
    canary: bool = True
    lang: str = "en"
    shell: str | None = None  # override; detected from the environment otherwise
    extra: Mapping[str, Any] = field(default_factory=dict)


def make_context(opts: CheckOptions) -> CheckContext:
    resolution = config_mod.resolve(opts.env, opts.home, opts.cwd, opts.overrides, opts.profile, opts.model,
                                    opts.system_config, opts.codex_version)
    from codexdoctor.common.shells import detect_platform, detect_shell

    # Codex runs with the shell's environment plus $CODEX_HOME/.env on top: checks see what Codex sees.
    env = resolution.env
    redactor = Redactor(secrets.collect(resolution, env), home=str(opts.home))
    shell = detect_shell(opts.env, detect_platform(opts.env), opts.shell)
    return CheckContext(resolution=resolution, env=env, home=opts.home, redactor=redactor,
                        codex_version=opts.codex_version, offline=opts.offline,
                        options={"timeout": opts.timeout, "canary": opts.canary, **opts.extra}, shell=shell)


def run_check(opts: CheckOptions) -> tuple[Report, CheckContext]:
    ctx = make_context(opts)
    results = run_static(ctx, STATIC_CHECKS)
    live_ran = False
    notes: list[str] = []
    if opts.offline:
        notes.append("Offline: no request was sent; the key, base_url reachability and model ID were not tested.")
    else:
        from codexdoctor.checks import live  # lazy: pulls in httpx

        live_results, live_notes = live.run_live(ctx, results)
        results += live_results
        notes += live_notes
        live_ran = any(r.status.value in ("pass", "warn", "fail") for r in live_results)
    findings = evaluate(results, lang=opts.lang)
    return build_report("check", ctx, results, findings, live_ran, notes, opts.lang), ctx


class ProbeRefused(Exception):
    """The announced estimate is above --budget and the user did not agree (--yes or the prompt)."""


def run_probe(opts: CheckOptions, settings, confirm: Callable[[str], bool],
              progress: Callable[[str], None]) -> tuple[Report, CheckContext]:
    """Static checks, then (if Codex would send anything) the announced, budgeted session probe."""
    from codexdoctor.checks import probe as probe_mod
    from codexdoctor.common import tokens
    from codexdoctor.checks import live
    from codexdoctor.net.classify import classify
    from codexdoctor.i18n import localize
    from codexdoctor.net.transport import Deadline

    ctx = make_context(opts)
    static = run_static(ctx, STATIC_CHECKS)
    blockers = live.blocked_by_static(static)
    if blockers:
        note = f"Probe not run: Codex would stop before sending a request ({live.blocker_names(static, blockers)}); no tokens were spent."
        return build_report("probe", ctx, static, evaluate(static, lang=opts.lang), False, [note], opts.lang), ctx
    tok = tokens.for_model(str(ctx.resolution.model or ""))
    published, source = (None, None) if settings.max_context else live.published_window(ctx)
    probe = probe_mod.Probe(ctx, settings, tok, progress=progress, published=published, lang=opts.lang)
    requests, estimate = probe.estimate()
    zh = opts.lang == "zh"
    if published:
        progress(f"提供方公布的窗口是 {published:,} tokens（{localize(source, 'zh')}）：探测先测一半大小，再测略低于和略高于它的大小。"
                 if zh else f"The provider publishes a {published:,}-token window ({source}): the probe checks half of it, "
                 "then just below and just above it.")
    elif probe.fitted:
        progress(f"提供方没有公布窗口：在默认预算内最多探测到 {probe.max_context:,} tokens；用 --max-context 和 --budget 可以探测得更远。"
                 if zh else f"The provider does not publish its window: the probe goes up to {probe.max_context:,} tokens, "
                 "as far as --budget allows; --max-context and --budget go further.")
    plan = (f"探测计划：最多 {requests} 个请求，约 {estimate:,} 个输入 token（最坏情况：断点就在 {probe.max_context:,} tokens "
            f"之下）；到 --budget {settings.budget:,} 即停止。每个请求的输出上限为 {settings.max_output_tokens} 个 token。"
            if zh else
            f"Probe plan: at most {requests} requests and about {estimate:,} input tokens (worst case, the break just "
            f"below {probe.max_context:,} tokens); it stops at --budget {settings.budget:,}. Output is capped at "
            f"{settings.max_output_tokens} tokens per request.")
    progress(plan)
    if estimate > settings.budget and not confirm(plan):
        raise ProbeRefused(plan)
    try:
        family = probe_mod.identify_family(probe)
        outcome = probe.run()
    finally:
        probe.client.close()
    facts = probe_mod.analyse(outcome, settings)
    facts["family"] = family
    facts["user_config"] = ctx.resolution.user_layer.label if ctx.resolution.user_layer else "~/.codex/config.toml"
    facts["repeat"] = settings.repeat
    facts["published_window"] = published
    if outcome.stopped and (outcome.first_fail is None or outcome.stable is None):
        from codexdoctor.rules import STOPPED_WORDS

        where = STOPPED_WORDS[outcome.stopped].get("en")  # one wording for the finding and the verdict reason
        facts["inconclusive_reason"] = (f"the probe stopped {where} before locating and confirming the break "
                                        f"({outcome.spent:,} input tokens spent)")
    checks = list(static)
    if outcome.single_exchange is not None:
        runner = live.LiveRun(ctx, Deadline(1), client=probe.client, first=False)
        single = outcome.single_exchange
        checks.append(ctx.stamp(runner.reach_result(single, single)))
        checks.append(ctx.stamp(runner.canary_result(single, classify(single, probe.plan.wire))))
    checks.append(ctx.stamp(_probe_check(facts)))
    notes = [f"Tokens counted with {tok.name} ({'exact' if tok.exact else 'approximate: vocabulary unavailable'}); "
             f"{outcome.spent:,} input tokens spent in {len(outcome.steps)} requests."]
    sections = [_steps_section(outcome, opts.lang), *_summary_section(facts, opts.lang)]
    return build_report("probe", ctx, checks, evaluate(checks, lang=opts.lang), True, notes, opts.lang, sections=sections), ctx


def _probe_check(facts: Mapping[str, Any]) -> CheckResult:
    if facts.get("stable") is not None or facts.get("truncated") or 0 < facts["singles_ok"] < facts["singles"]:
        status = Status.FAIL
    elif facts.get("stage1") or facts.get("stage2") or facts.get("stopped"):
        status = Status.WARN
    elif facts["singles_ok"] == 0:
        status = Status.SKIP
    else:
        status = Status.PASS
    if facts.get("last_ok") and facts.get("first_fail"):
        summary = f"breaks between {facts['last_ok']:,} and {facts['first_fail']:,} tokens" + (
            " (stable)" if facts.get("stable") else " (unstable)" if facts.get("stable") is False else "")
    elif facts["singles_ok"] == 0:
        summary = "single question failed; session not probed"
    elif facts.get("no_break"):
        summary = f"no break up to {facts['max_context']:,} tokens"
    else:
        summary = "stopped by Ctrl-C" if facts.get("stopped") == "interrupted" else f"stopped at the {facts.get('stopped')}"
    evidence = [f"{facts['singles_ok']}/{facts['singles']} single questions ok, median first token "
                f"{facts['baseline_ttft_ms']} ms" if facts.get("baseline_ttft_ms") is not None else
                f"{facts['singles_ok']}/{facts['singles']} single questions ok",
                f"{facts['requests']} requests, {facts['spent']:,} input tokens (budget {facts['budget']:,})"]
    if facts.get("slope_ms_per_1k") is not None:
        evidence.append(f"first-token slope {facts['slope_ms_per_1k']} ms per 1K tokens; ratio {facts.get('ttft_ratio')}x")
    return CheckResult("ctx.probe", "Session probe", status, summary, facts, tuple(evidence))


def _steps_section(outcome, lang: str = "en") -> Section:
    from codexdoctor.i18n import table_word

    zh = lang == "zh"
    rows = []
    for i, s in enumerate(outcome.steps, 1):
        rows.append((i, table_word(s.phase, lang), f"{s.sent:,}", "-" if s.ttft_ms is None else f"{s.ttft_ms:,.0f}",
                     "-" if s.max_gap_ms is None else f"{s.max_gap_ms:,.0f}", table_word("ok" if s.ok else s.kind, lang, s.detail)))
    points = tuple((float(s.sent), float(s.ttft_ms)) for s in outcome.steps if s.ok and s.ttft_ms is not None)
    headers = (("#", "阶段", "发送的 tokens", "首字 ms", "最长停顿 ms", "结果") if zh else
               ("#", "phase", "tokens sent", "first token ms", "longest gap ms", "result"))
    return Section("probe.steps", "会话探测步骤" if zh else "Session probe steps", headers, tuple(rows), points,
                   "发送的 tokens" if zh else "tokens sent", "首字延迟（ms）" if zh else "time to first token (ms)")


def _summary_section(facts: Mapping[str, Any], lang: str = "en") -> list[Section]:
    zh = lang == "zh"
    t = (lambda en, cn: cn if zh else en)  # noqa: E731
    lines = []
    if facts.get("last_ok") and facts.get("first_fail"):
        low, high = facts["last_ok"], facts["first_fail"]
        spread = (high - low) / low * 100
        lines.append(t(f"Usable window: about {low:,} tokens (break between {low:,} and {high:,}, within {spread:.1f}%)",
                       f"可用窗口：约 {low:,} tokens（断点在 {low:,} 到 {high:,} 之间，误差 {spread:.1f}% 以内）"))
        stable = facts.get("stable")
        lines.append(t("Breakpoint: ", "断点：") + (t("stable", "稳定") if stable else t("unstable", "不稳定")
                                                    if stable is False else t("not confirmed", "未确认")))
    elif facts.get("no_break"):
        lines.append(t(f"Usable window: at least {facts['max_context']:,} tokens (no break found)",
                       f"可用窗口：至少 {facts['max_context']:,} tokens（未发现断点）"))
    stages = [name for name, key in ((t("1 latency grows", "1 首字延迟增长"), "stage1"),
                                     (t("2 mid-stream stalls", "2 回答中途停顿"), "stage2"),
                                     (t("3 failure", "3 失败"), "stage3")) if facts.get(key)]
    lines.append(t("Stages seen: ", "出现的阶段：") + ((t(", ", "、")).join(stages) if stages else t("none", "无")))
    cache = facts.get("cache")
    if cache:
        runs = cache["runs"]
        shown = lambda v: f"{v}" if v is not None else t("not reported", "未报告")  # noqa: E731
        verdict = {"works": t("works", "有效"), "not working": t("not working", "无效"),
                   "not reported": t("not reported", "未报告"), "failed": t("failed", "失败")}[cache["verdict"]]
        ttfts = " / ".join(f"{runs[k]['ttft_ms'] or 0:.0f}" for k in ("first", "repeat", "changed_start"))
        lines.append(t(f"Prefix cache: {verdict} (cached tokens: repeated prefix {shown(runs['repeat']['cached'])}, "
                       f"changed start {shown(runs['changed_start']['cached'])}; first token {ttfts} ms)",
                       f"前缀缓存：{verdict}（缓存命中 token：重复前缀 {shown(runs['repeat']['cached'])}，"
                       f"改动开头 {shown(runs['changed_start']['cached'])}；首字延迟 {ttfts} ms）"))
    if facts.get("turns_per_session") is not None:
        turns, per = facts["turns_per_session"], f"{facts['turn_tokens']:,}"
        lines.append(t(f"Turns per session to stay under 70% of the window: {turns} "
                       f"(at ~{per} tokens per turn on top of Codex's ~8,500-token first request)",
                       f"保持在窗口 70% 以下的每会话轮数：{turns}（按每轮约 {per} tokens，加上 Codex 约 8,500 tokens 的首个请求）"))
    return [Section("probe.summary", t("Measured", "测量结果"), lines=tuple(lines))]


def run_sessions(env: Mapping[str, str], home: Path, paths: tuple[Path, ...], last: int | None, since, session_id: str | None,
                 show_content: bool, lang: str = "en") -> tuple[Report, Any]:
    """Read the rollouts (default: $CODEX_HOME/sessions and archived_sessions) and build the report."""
    from datetime import timezone

    from codexdoctor.checks import sessions as sessions_mod
    from codexdoctor.common.redact import shorten_home

    opts = CheckOptions(env=env, home=home, cwd=Path.cwd(), offline=True, lang=lang)
    ctx = make_context(opts)
    codex_home = ctx.resolution.codex_home
    roots = list(paths) or [codex_home / "sessions", codex_home / "archived_sessions"]
    selection = sessions_mod.Selection(last=last, since=since.replace(tzinfo=timezone.utc) if since else None,
                                       session=session_id, show_content=show_content)
    limit = ctx.resolution.merged.get("model_auto_compact_token_limit")
    limit = limit if isinstance(limit, int) and limit > 0 else None
    loaded, problems = sessions_mod.summarize(roots, selection, codex_home / "log" / "codex-tui.log", limit)
    shown = ", ".join(shorten_home(str(r), str(home)) for r in roots)
    check = sessions_mod.build_check(loaded, [shorten_home(p, str(home)) for p in problems], shown, str(home), limit)
    user_config = ctx.resolution.user_layer.label if ctx.resolution.user_layer else "~/.codex/config.toml"
    check = replace(check, facts={**check.facts, "user_config": user_config,
                                  "sessions": [{**d, "user_config": user_config} for d in check.facts["sessions"]]})
    # Charts and detail for the most recent failing sessions only: a corpus of thousands stays one screenful per session.
    failing = {d["id"] for d in check.facts["sessions"] if d["kind"] != "none"}
    failing = set(sorted(failing, key=lambda i: next(d["start"] or "" for d in check.facts["sessions"] if d["id"] == i))[-10:])
    detail = {d["id"] for d in check.facts["sessions"]} if (session_id or loaded.total <= 3) else failing
    report = build_report("sessions", ctx, [check], evaluate([check], lang=lang), True,
                          ["Read offline from Codex's own logs; no request was sent."] +
                          ([] if show_content or not loaded.total else
                           ["Message contents are not shown (--show-content shows them)."]),
                          opts.lang, sections=sessions_mod.sections(check, detail, lang), show_provider=False)
    return report, ctx.redactor


def run_diagnose(opts: CheckOptions, text: str) -> tuple[Report, CheckContext]:
    from codexdoctor.checks.diagnose import checks_for

    ctx = make_context(opts)
    checks = [ctx.stamp(c) for c in checks_for(text, ctx)]
    findings = evaluate(checks, lang=opts.lang)
    notes = [] if findings else ["This text does not match a known Codex or provider error shape; "
                                 "run `codexdoctor check` to test the channel directly."]
    return build_report("diagnose-error", ctx, checks, findings, True, notes, opts.lang, warnings_decide=True), ctx
