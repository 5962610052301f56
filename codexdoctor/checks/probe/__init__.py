"""`codexdoctor probe`: single question vs a growing session, breakpoint search, stability, three stages.

The seed guide's manual method, measured: ask one short question in a fresh
session; then grow a session (every request resends the whole conversation,
as Codex does) on a geometric schedule until it breaks; bisect to ±2%; repeat
just below and just above the break. Stable → context; single question fails
or the break wanders → channel. Every request is counted against an
announced token budget and the probe stops at it.

`steps` holds the settings, the steps and the schedule; `search` sends (the `Probe`); `analyse` turns the steps
into the ctx.probe facts and result; `sections` into the report's two sections.
"""

from __future__ import annotations

from codexdoctor.checks.probe.analyse import analyse, further_command, linear_slope, probe_result, stopped_reason
from codexdoctor.checks.probe.search import MIN_CACHE_PREFIX, Probe, identify_family, summarise_cache
from codexdoctor.checks.probe.sections import steps_section, summary_section
from codexdoctor.checks.probe.steps import (
    CONTEXT_KINDS,
    ProbeOutcome,
    ProbeSettings,
    Step,
    estimate,
    published_schedule,
    schedule,
    tolerance,
)

__all__ = [
    "CONTEXT_KINDS",
    "MIN_CACHE_PREFIX",
    "Probe",
    "ProbeOutcome",
    "ProbeSettings",
    "Step",
    "analyse",
    "estimate",
    "further_command",
    "identify_family",
    "linear_slope",
    "probe_result",
    "published_schedule",
    "schedule",
    "steps_section",
    "stopped_reason",
    "summarise_cache",
    "summary_section",
    "tolerance",
]
