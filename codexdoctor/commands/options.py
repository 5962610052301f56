"""What the user asked for, as one value, and the context every check runs in (config resolved, secrets
known to the redactor, the user's shell)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codexdoctor.checks.base import CheckContext
from codexdoctor.codex import config as config_mod
from codexdoctor.codex import secrets
from codexdoctor.commands.environment import environment, home_of, language
from codexdoctor.common.redact import Redactor


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
    first_token_timeout: float = 120.0  # past `timeout`, for a provider that is alive but slow (checks/live/gather.py)
    canary: bool = True
    turn_two: bool = True  # after the canary, Codex's request that follows a tool call (checks/live/gather.py)
    sessions: bool = True  # `check` reads the active provider's recent session logs (issue 39); --no-sessions skips
    lang: str = "en"
    shell: str | None = None  # override; detected from the environment otherwise
    extra: Mapping[str, Any] = field(default_factory=dict)
    # When the command started (time.monotonic()): its deadline counts from there, start-up and `codex --version`
    # included (issue 36). None: from when the live checks start.
    started: float | None = None


def make_context(opts: CheckOptions) -> CheckContext:
    resolution = config_mod.resolve(
        opts.env, opts.home, opts.cwd, opts.overrides, opts.profile, opts.model, opts.system_config, opts.codex_version
    )
    from codexdoctor.common.shells import detect_platform, detect_shell

    # Codex runs with the shell's environment plus $CODEX_HOME/.env on top: checks see what Codex sees.
    env = resolution.env
    redactor = Redactor(secrets.collect(resolution, env), home=str(opts.home))
    shell = detect_shell(opts.env, detect_platform(opts.env), opts.shell)
    return CheckContext(
        resolution=resolution,
        env=env,
        home=opts.home,
        redactor=redactor,
        codex_version=opts.codex_version,
        offline=opts.offline,
        options={
            "timeout": opts.timeout,
            "first_token_timeout": opts.first_token_timeout,
            "canary": opts.canary,
            "turn_two": opts.turn_two,
            "started": opts.started,
            **opts.extra,
        },
        shell=shell,
    )


def check_options(
    overrides: Iterable[str],
    profile: str | None,
    model: str | None,
    codex_version: tuple[int, ...] | None,
    offline: bool = True,
    timeout: float = 10.0,
    canary: bool = True,
    lang: str | None = None,
    shell: str | None = None,
    first_token_timeout: float | None = None,
    turn_two: bool = True,
) -> CheckOptions:
    """CheckOptions from the command line's values; the Codex version is detected when not given."""
    from codexdoctor.codex import version as codexversion
    from codexdoctor.common import launch

    env = environment()
    version = codex_version
    if version is None and not env.get("CODEXDOCTOR_NO_CODEX_PROBE"):
        # Inside the deadline now: a `codex` slow to start takes a quarter of --timeout at most (then its version
        # is unknown and Codex 0.171's rules apply), so the provider is not blamed for the time it took.
        version = codexversion.detect(env, timeout=min(5.0, max(0.5, timeout / 4)))
    return CheckOptions(
        env=env,
        home=home_of(env),
        cwd=Path.cwd(),
        overrides=tuple(overrides),
        profile=profile,
        model=model,
        offline=offline,
        codex_version=version,
        timeout=timeout,
        canary=canary,
        lang=language(lang),
        shell=shell,
        first_token_timeout=first_token_timeout if first_token_timeout is not None else 120.0,
        turn_two=turn_two,
        started=launch.run_started(),
    )
