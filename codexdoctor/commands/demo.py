"""`codexdoctor demo`: every diagnosis, reproduced against the simulator, with nothing configured.

Each scenario gets its own simulator, a temporary HOME and CODEX_HOME and an
environment built from scratch (the user's ~/.codex and variables are never
read), runs the real checks, and compares the verdict with the expected one.
It doubles as a self-test: exit 0 only when every scenario got its verdict.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from codexdoctor import sim
from codexdoctor.commands.check import run_check
from codexdoctor.commands.environment import language
from codexdoctor.commands.options import CheckOptions
from codexdoctor.commands.output import stdout_can_encode, terminal_width
from codexdoctor.model import Msg, Report, said_error

DEMO_KEY = "sk-demo-7f3a9c2e5b1d4f60a8e2"
ASSUMED_CODEX = (0, 171, 0)  # the newest Codex this release models; the demo does not depend on one being installed


@dataclass(frozen=True)
class Scenario:
    name: str
    description: str
    expected: str
    sim_options: Mapping[str, Any] = field(default_factory=dict)
    env: Mapping[str, str] = field(default_factory=lambda: {"SIM_API_KEY": DEMO_KEY})
    base_suffix: str = "/v1"
    model: str = "sim-model"
    extra_config: str = ""
    expected_codes: tuple[str, ...] = ()


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("healthy", "a working provider", "ok"),
    Scenario("key-unset", "env_key names a variable that is not set", "config", env={}, expected_codes=("ENV001",)),
    Scenario(
        "near-miss-variable",
        "the key is in SIM_KEY, Codex reads SIM_API_KEY",
        "config",
        env={"SIM_KEY": DEMO_KEY},
        expected_codes=("ENV003",),
    ),
    Scenario(
        "wrong-key",
        "the provider rejects the key",
        "channel",
        env={"SIM_API_KEY": "sk-demo-revoked-0000000000"},
        expected_codes=("AUTH001",),
    ),
    Scenario(
        "v1-vs-api",
        "base_url ends in /v1, the provider serves /api",
        "channel",
        {"prefix": "/api"},
        base_suffix="/api/v1",
        expected_codes=("API001",),
    ),
    Scenario(
        "wrong-model",
        "model ID with a missing suffix",
        "channel",
        {"models": ("sim-coder-plus", "sim-max")},
        model="sim-coder",
        expected_codes=("MODEL001",),
    ),
    Scenario(
        "chat-only",
        "the provider has /chat/completions but no /responses",
        "channel",
        {"chat_only": True},
        expected_codes=("API002",),
    ),
    Scenario(
        "4k-window",
        "the provider serves a 4,096-token window",
        "context",
        {"context_window": 4096, "publish_window": True},
        expected_codes=("CTX002",),
    ),
    Scenario(
        "flaky-channel",
        "502s and resets on most requests",
        "channel",
        {"failure_rate": 0.8, "failure_kinds": ("502", "reset"), "failure_seed": 11},
        # never API017: a minimal request that got through by luck proves nothing about Codex's fields
        expected_codes=("API005",),
    ),
)


@dataclass(frozen=True)
class Outcome:
    scenario: Scenario
    report: Report

    @property
    def got(self) -> str:
        return self.report.verdict.value

    @property
    def passed(self) -> bool:
        codes = {f.code for f in self.report.findings}
        return self.got == self.scenario.expected and set(self.scenario.expected_codes) <= codes

    @property
    def top(self) -> str:
        f = self.report.findings[0] if self.report.findings else None
        return f"{f.code} {f.title}" if f else "-"


def config_text(s: Scenario, server: sim.RunningSim) -> str:
    return (
        f'model = "{s.model}"\nmodel_provider = "sim"\n\n[model_providers.sim]\nname = "codexdoctor simulator"\n'
        f'base_url = "{server.url}{s.base_suffix}"\nenv_key = "SIM_API_KEY"\nwire_api = "responses"\n{s.extra_config}'
    )


def run_scenario(s: Scenario, timeout: float = 5.0, lang: str = "en") -> Outcome:
    options = {"api_key": DEMO_KEY, **s.sim_options}
    with sim.start(**options) as server:
        home = Path(tempfile.mkdtemp(prefix="codexdoctor-demo-"))
        try:
            codex_home = home / ".codex"
            codex_home.mkdir()
            (codex_home / "config.toml").write_text(config_text(s, server), encoding="utf-8")
            env = {"HOME": str(home), "CODEX_HOME": str(codex_home), **s.env}
            report, _ = run_check(
                CheckOptions(
                    env=env,
                    home=home,
                    cwd=home,
                    system_config=None,
                    codex_version=ASSUMED_CODEX,
                    timeout=timeout,
                    lang=lang,
                )
            )
        finally:
            shutil.rmtree(home, ignore_errors=True)
    return Outcome(s, report)


def run_all(
    names: tuple[str, ...] = (), progress: Callable[[str], None] | None = None, lang: str = "en"
) -> list[Outcome]:
    chosen = [s for s in SCENARIOS if not names or s.name in names]
    outcomes = []
    for s in chosen:
        if progress:
            progress(s.name)
        outcomes.append(run_scenario(s, lang=lang))
    return outcomes


def table(outcomes: list[Outcome], ascii_only: bool = False, lang: str = "en", width: int | None = None) -> str:
    """The summary table, padded by display width (a Chinese character takes two cells)."""
    from codexdoctor.i18n import ui
    from codexdoctor.report.render.text import table_lines

    ok, bad = ("ok", "FAIL") if ascii_only else ("✓", "✗")
    verdict = (lambda v: v) if lang == "en" else (lambda v: ui("verdict_" + v, lang))
    rows = [
        [
            o.scenario.name,
            o.scenario.description if lang == "en" else DESCRIPTIONS_ZH[o.scenario.name],
            verdict(o.scenario.expected),
            verdict(o.got),
            ok if o.passed else bad,
            o.top,
        ]
        for o in outcomes
    ]
    headers = [
        ui("demo_scenario", lang),
        ui("demo_wrong", lang),
        ui("demo_expected", lang),
        "codexdoctor",
        ui("demo_match", lang),  # issue 40 review: the ✓/✗ column had no header
        ui("demo_top", lang),
    ]
    # at 80 columns the top finding goes on its own line under each row (issue 40 review: 5-line cells in English,
    # records in Chinese), in both languages alike
    return "\n".join(table_lines(tuple(headers), tuple(tuple(r) for r in rows), width, lang=lang, below=True))


DESCRIPTIONS_ZH = {
    "healthy": "可正常使用的提供方",
    "key-unset": "env_key 指向的变量没有设置",
    "near-miss-variable": "密钥在 SIM_KEY 里，Codex 读的是 SIM_API_KEY",
    "wrong-key": "提供方拒绝了密钥",
    "v1-vs-api": "base_url 以 /v1 结尾，提供方用的是 /api",
    "wrong-model": "模型 ID 少了后缀",
    "chat-only": "提供方只有 /chat/completions，没有 /responses",
    "4k-window": "提供方窗口只有 4,096 个 token",
    "flaky-channel": "大部分请求返回 502 或连接被重置",
}


@dataclass(frozen=True)
class DemoOptions:
    """`codexdoctor demo`: the scenarios to run (none: all), whether only to list them, and --lang as given."""

    names: tuple[str, ...] = ()
    list_only: bool = False
    lang: str | None = None  # --lang; None: the locale's


def run(opts: DemoOptions) -> None:
    """The command: the scenarios' table (and full reports for the ones named); exit 0 only when all got their verdict."""
    from codexdoctor.i18n import ui
    from codexdoctor.report.render import RenderOptions, render

    names = opts.names
    known = {s.name for s in SCENARIOS}
    unknown = [n for n in names if n not in known]
    if unknown:
        said = Msg(
            "unknown scenario {s}; choose from: {known}",
            "未知的场景 {s}；可选：{known}",
            s=repr(unknown[0]),
            known=", ".join(sorted(known)),
        )
        raise said_error(click.BadParameter(str(said), param_hint="--scenario"), said)
    lang = language(opts.lang)
    width = terminal_width(os.environ, None)
    if opts.list_only:
        click.echo(listing(lang, width))
        return
    ascii_only = not stdout_can_encode()
    running = "  正在运行 {}…" if lang == "zh" else "  running {}..."
    outcomes = run_all(tuple(names), progress=lambda n: click.echo(running.format(n), err=True), lang=lang)
    if names:
        for o in outcomes:
            about = DESCRIPTIONS_ZH[o.scenario.name] if lang == "zh" else o.scenario.description
            click.echo(f"=== {o.scenario.name}: {about}")
            click.echo(render(o.report, "text", RenderOptions(ascii=ascii_only, width=width)))
    click.echo(table(outcomes, ascii_only, lang, width))
    failed = [o for o in outcomes if not o.passed]
    click.echo("\n" + ui("demo_summary", lang, ok=len(outcomes) - len(failed), total=len(outcomes)))
    raise SystemExit(1 if failed else 0)


def listing(lang: str, width: int) -> str:
    """`demo --list`: each scenario, the verdict it expects and what is wrong in it."""
    from codexdoctor.i18n import ui
    from codexdoctor.report.render.text import table_lines

    verdict = (lambda v: v) if lang == "en" else (lambda v: ui("verdict_" + v, lang))
    rows = tuple(
        (s.name, verdict(s.expected), DESCRIPTIONS_ZH[s.name] if lang == "zh" else s.description) for s in SCENARIOS
    )
    headers = (ui("demo_scenario", lang), ui("demo_expected", lang), ui("demo_wrong", lang))
    return "\n".join(table_lines(headers, rows, width, lang=lang))
