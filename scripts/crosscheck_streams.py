"""Compare codexdoctor's verdict with what the real Codex CLI does for every way a Responses stream can end (issue 38,
item 3): response.completed, response.incomplete (each reason), response.failed (with each error code Codex treats
in its own way), a bare `error` event, no terminal event at all, `data: [DONE]`, an idle stream, a cut connection.

Usage (inside a network namespace with only loopback, since Codex also tries outside hosts):
    ../shared/tools/in-netns python scripts/crosscheck_streams.py [CODEX_BINARY]
Each case gets a throw-away CODEX_HOME and the project's simulator with the case's knobs (SimConfig.stream_fault,
incomplete_reason, fault_code, fault_message); `codexdoctor check` runs first (as Codex 0.171.0), then
`codex exec "say hi"` with the same files and Codex's default retry counts. Printed per case: codexdoctor's verdict
and codes, Codex's exit code, how many POSTs it sent (a retried ending shows more than 1), whether Codex printed the
partial answer (`text`), and Codex's last line. A case agrees when both say the setup works, or both say it does not.
Results are recorded in docs/codex-behaviour.md. CROSSCHECK_ONLY=part-of-a-name runs the matching cases only.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crosscheck_config_semantics import CODEX, KEY, TABLE, last_line

from codexdoctor import sim
from codexdoctor.commands.check import run_check
from codexdoctor.commands.diagnose import run_diagnose
from codexdoctor.commands.options import CheckOptions
from codexdoctor.model import Report

ANSWER_START = sim.ANSWER.split(".")[0]  # "The simulator answers deterministically": the partial text, when printed


@dataclass
class Case:
    name: str
    sim: dict[str, Any] = field(default_factory=dict)
    config: str = TABLE  # {base} is the simulator's base_url
    env: dict[str, str] = field(default_factory=dict)
    prompt: str = "say hi"
    codex_args: tuple[str, ...] = ()
    codex_timeout: float = 90.0
    host_stop: str | None = None  # write the host 127.0.0.1 with this full stop instead (127。0。0。1)
    # The verdict that follows from what Codex does (issue 38), when the ok/fail agreement alone is not enough: a
    # context overflow Codex shows as a stream failure is still "context"; a gateway's output cap is "channel".
    want: str | None = None
    # Words codexdoctor's findings (title, diagnosis, remedy, evidence) must hold for the case to agree — Codex's own
    # words, or what the finding must name — and codes that must not fire. Independent of new code numbers.
    words: tuple[str, ...] = ()
    not_codes: tuple[str, ...] = ()
    # A disagreement that is a limit of any 16-token canary, not a bug: printed, not counted (why, in words).
    known: str | None = None


@dataclass
class Outcome:
    report: Report
    code: int | str  # Codex's exit code, or "timeout"
    out: str  # Codex's stdout and stderr
    statuses: list[int]  # the status of each POST Codex sent
    bodies: list[dict[str, Any]]  # each POST's JSON body (keep_bodies)
    input_tokens: list[int | None]  # each POST's input, as the simulator counts it (o200k)
    want: str | None = None
    diagnosed: Report | None = None  # `codexdoctor diagnose-error` on Codex's last error line, when Codex failed
    words: tuple[str, ...] = ()
    not_codes: tuple[str, ...] = ()

    @property
    def codes(self) -> str:
        return ",".join(f.code for f in self.report.findings if f.severity.value != "info") or "-"

    @property
    def diagnosis(self) -> str:
        """diagnose-error's verdict and codes for Codex's own words, as a user would paste them."""
        if self.diagnosed is None:
            return "-"
        codes = ",".join(f.code for f in self.diagnosed.findings if f.severity.value != "info") or "-"
        return f"{self.diagnosed.verdict.value} {codes}"

    @property
    def missing_words(self) -> list[str]:
        """The case's words that no finding of `check` holds (title, diagnosis, remedy, evidence)."""
        text = " ".join(" ".join((f.title, f.diagnosis, *f.remedy, *f.evidence)) for f in self.report.findings)
        return [w for w in self.words if w.lower() not in text.lower()]

    @property
    def unwanted_codes(self) -> list[str]:
        return [f.code for f in self.report.findings if f.code in self.not_codes]

    @property
    def agree(self) -> bool:
        """Both say the setup works, or both say it does not; and codexdoctor's verdict is the one wanted, its
        findings hold the case's words and none of the codes it must not show."""
        crashed = any(c.status.value == "crash" for c in self.report.checks)
        verdict = self.report.verdict.value
        return (
            (self.code == 0) == (verdict == "ok")
            and not crashed
            and self.want in (None, verdict)
            and not self.missing_words
            and not self.unwanted_codes
        )

    @property
    def mark(self) -> str:
        if self.agree:
            return ""
        why = []
        if self.want and self.want != self.report.verdict.value:
            why.append(f"want {self.want}")
        if self.missing_words:
            why.append("missing " + ", ".join(repr(w) for w in self.missing_words))
        if self.unwanted_codes:
            why.append("unwanted " + ",".join(self.unwanted_codes))
        return "   <-- DISAGREE" + (f" ({'; '.join(why)})" if why else "")


def run_case(case: Case) -> Outcome:
    """codexdoctor check, then the real Codex, on one simulator with the case's knobs and one throw-away home."""
    with sim.start(**{"api_key": KEY, "keep_bodies": True, **case.sim}) as server:
        home = Path(tempfile.mkdtemp(prefix="cdx-streams-"))
        try:
            base = server.base_url
            if case.host_stop:
                base = base.replace("127.0.0.1", case.host_stop.join(("127", "0", "0", "1")))
            (home / "config.toml").write_text(case.config.replace("{base}", base), encoding="utf-8")
            env = environment(home, case.env)
            options = CheckOptions(env=env, home=home.parent, cwd=home, system_config=None, codex_version=(0, 171, 0))
            report, _ = run_check(options)
            server.records.clear()
            code, out = run_codex(home, env, [*case.codex_args, case.prompt], case.codex_timeout)
            posts = [r for r in server.records if r.method == "POST"]
            diagnosed = run_diagnose(options, error_line(out))[0] if code != 0 else None
            return Outcome(
                report,
                code,
                out,
                [r.status for r in posts],
                [r.body or {} for r in posts],
                [r.input_tokens for r in posts],
                case.want,
                diagnosed,
                case.words,
                case.not_codes,
            )
        finally:
            shutil.rmtree(home, ignore_errors=True)


def error_line(out: str) -> str:
    """Codex's last error line, whole (last_line clips it to 150 characters): what a user pastes."""
    lines = [x.strip() for x in out.splitlines() if x.strip()]
    errors = [x for x in lines if x.startswith("ERROR") or "stream disconnected" in x]
    return errors[-1] if errors else (lines[-1] if lines else "")


def environment(home: Path, overrides: Mapping[str, str]) -> dict[str, str]:
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home.parent),
        "CODEX_HOME": str(home),
        "SIM_API_KEY": KEY,
        "CODEX_CLI_CACHE": os.environ.get(
            "CODEX_CLI_CACHE", str(Path.home() / ".cache" / "codexdoctor-dev" / "codex-cli")
        ),
    }
    env.update(overrides)
    return env


def run_codex(home: Path, env: Mapping[str, str], args: Sequence[str], timeout: float) -> tuple[int | str, str]:
    try:
        proc = subprocess.run(
            [CODEX, "exec", "--skip-git-repo-check", *args],
            env=dict(env),
            cwd=home,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )
        return proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as exc:
        return "timeout", _text(exc.stdout) + _text(exc.stderr)


def _text(data: bytes | str | None) -> str:
    return data.decode(errors="replace") if isinstance(data, bytes) else (data or "")


IDLE = TABLE + "stream_idle_timeout_ms = 1000\n"
CASES = [
    Case("completed (healthy)"),
    # A gateway's output cap (8 tokens here, below the canary's own 16, so a canary can see it), then the same
    # ending with the default 24 tokens: the canary (max_output_tokens = 16) stops at its own cap first.
    Case(
        "incomplete: max_output_tokens at 8",
        {"stream_fault": "incomplete", "output_tokens": 8},
        want="channel",
        words=("Incomplete response returned, reason: max_output_tokens",),
    ),
    Case(
        "incomplete: max_output_tokens at 24",
        {"stream_fault": "incomplete"},
        known="a cap above the canary's own 16 tokens cannot be seen by it; diagnose-error and sessions read it",
    ),
    Case(
        "incomplete: content_filter",
        {"stream_fault": "incomplete", "incomplete_reason": "content_filter"},
        want="channel",
        words=("Incomplete response returned, reason: content_filter",),
    ),
    Case("failed: server_error", {"stream_fault": "response_failed"}),
    Case(
        "failed: context_length_exceeded",
        {
            "stream_fault": "response_failed",
            "fault_code": "context_length_exceeded",
            "fault_message": "Your input exceeds the context window of this model.",
        },
        want="context",
        words=("ran out of room",),
    ),
    # A gateway that puts an upstream overflow in a response.failed under another code (review 1 #24): Codex retries
    # it and prints `stream disconnected before completion: <message>`; it is still the context.
    Case(
        "failed: server_error saying the window is full",
        {
            "stream_fault": "response_failed",
            "fault_code": "server_error",
            "fault_message": "This model's maximum context length is 16000 tokens. However, your request has 18070 "
            "input tokens.",
        },
        want="context",
    ),
    Case(
        "failed: insufficient_quota",
        {
            "stream_fault": "response_failed",
            "fault_code": "insufficient_quota",
            "fault_message": "You exceeded your current quota, please check your plan and billing details.",
        },
        words=("Quota exceeded. Check your plan and billing details.",),
    ),
    Case(
        "failed: rate_limit_exceeded, try again in 1s",
        {
            "stream_fault": "response_failed",
            "fault_code": "rate_limit_exceeded",
            "fault_message": "Rate limit reached for requests. Please try again in 1s.",
        },
        want="channel",
        words=("rate limit exceeded:",),
    ),
    Case(
        "failed: server_is_overloaded",
        {
            "stream_fault": "response_failed",
            "fault_code": "server_is_overloaded",
            "fault_message": "The server is overloaded. Please try again later.",
        },
        want="channel",
        words=("Selected model is at capacity. Please try a different model.",),
    ),
    Case(
        "failed: slow_down",
        {"stream_fault": "response_failed", "fault_code": "slow_down", "fault_message": "Slow down."},
        want="channel",
        words=("rate limit exceeded: Slow down.",),
        not_codes=("API029",),
    ),
    Case(
        "failed: usage_not_included",
        {"stream_fault": "response_failed", "fault_code": "usage_not_included", "fault_message": "Not included."},
        words=("upgrade to Plus",),
    ),
    Case("failed, stream_max_retries = 0", {"stream_fault": "response_failed"}, TABLE + "stream_max_retries = 0\n"),
    Case(
        "bare error event, then EOF",
        {"stream_fault": "error_event"},
        words=("stream closed before response.completed",),
    ),
    Case(
        "bare error context_length_exceeded, EOF",
        {"stream_fault": "error_event", "fault_code": "context_length_exceeded", "fault_message": "Too long."},
        want="context",
        words=("stream closed before response.completed",),
    ),
    Case("bare error event, then completed", {"stream_fault": "error_then_completed"}),
    Case("EOF without a terminal event", {"stream_fault": "no_terminal"}),
    Case("[DONE] instead of completed", {"stream_fault": "done_only"}),
    Case("completed, then [DONE]", {"stream_fault": "trailing_done"}),
    Case("idle 3 s mid-stream, idle limit 1 s", {"stall_after_tokens": 2, "stall_seconds": 3}, IDLE),
    Case("connection reset mid-stream", {"stream_fault": "reset_mid_stream"}),
]


def main() -> int:
    print(f"{'case':42} {'codexdoctor':12} {'codes':16} codex: exit, POSTs, text, last line | diagnose-error")
    only = os.environ.get("CROSSCHECK_ONLY")
    disagree = 0
    for case in CASES:
        if only and only not in case.name:
            continue
        o = run_case(case)
        disagree += not o.agree and not case.known
        text = "text" if ANSWER_START in o.out else "-"
        mark = f"   (known limit: {case.known})" if case.known and not o.agree else o.mark
        print(
            f"{case.name:42} {o.report.verdict.value:12} {o.codes:16} {o.code}, {len(o.statuses)}, {text}, "
            f"{last_line(o.out)} | {o.diagnosis}" + mark
        )
    print(f"{disagree} disagreement(s)")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
