"""What the real Codex CLI sends after a tool call, in each shape (issue 38, item 4), next to codexdoctor's verdict:
one call, parallel calls (the items of the next request, in order), a bridge that keeps one tool result only, and
tool outputs of growing size (what Codex keeps of them: bytes, marker, head and tail, tokens), for a model without
metadata (the fallback: bytes policy) and one from Codex's catalog (tokens policy).

Usage (inside a network namespace with only loopback, since Codex also tries outside hosts):
    ../shared/tools/in-netns python scripts/crosscheck_tool_rounds.py [CODEX_BINARY]
The simulator asks for `tool_calls` exec_command calls running the case's command (SimConfig.ask_tool_call), Codex
runs them (`-s danger-full-access`) and sends its second request, which the simulator keeps (keep_bodies). Printed
per case: codexdoctor's verdict and codes; Codex's exit code and POST statuses; the item types of the second
request after the user's message; per function_call_output its size in bytes, the truncation marker it carries and
its o200k token count; the second request's input tokens minus the first's (the tool round, as the simulator counts
it); Codex's last line. CROSSCHECK_ONLY=part-of-a-name runs the matching cases only.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crosscheck_config_semantics import TABLE, last_line
from crosscheck_streams import Case, Outcome, run_case

from codexdoctor.common import tokens

RUN = ("-s", "danger-full-access")
CATALOG = TABLE.replace('model = "sim-model"', 'model = "gpt-5.5"')  # a slug in Codex 0.171's own catalog
MARKER = re.compile(r"…\d+ (?:chars|tokens) truncated…|Warning: truncated output[^\n]*")


def tool_case(
    name: str,
    command: str,
    sim: dict[str, Any] | None = None,
    config: str = TABLE,
    want: str | None = None,
    words: tuple[str, ...] = (),
    not_codes: tuple[str, ...] = (),
    known: str | None = None,
) -> Case:
    knobs = {"ask_tool_call": command, **(sim or {})}
    if "gpt-5.5" in config:
        knobs["models"] = ("gpt-5.5",)
    return Case(
        name,
        knobs,
        config,
        prompt=f"run {command}",
        codex_args=RUN,
        codex_timeout=120,
        want=want,
        words=words,
        not_codes=not_codes,
        known=known,
    )


# What a window that is not published leaves unknown: turn two carries a typical output, and it fits; only the
# arithmetic on a published window can judge the largest output Codex keeps (CTX034).
UNPUBLISHED = "the window is not published: turn two's typical output fits, the worst case cannot be measured"


CASES = [
    tool_case("one call", "echo hi"),
    tool_case("two parallel calls", "echo hi", {"tool_calls": 2}),
    tool_case("three parallel calls", "echo hi", {"tool_calls": 3}),
    tool_case("two parallel calls after a reasoning item", "echo hi", {"tool_calls": 2, "reasoning_item": True}),
    tool_case(
        "two calls, bridge keeps one result",
        "echo hi",
        {"tool_calls": 2, "turn_two_fault": "single_tool_result"},
        want="channel",
        words=("more than one tool result", "did not have response messages"),
        not_codes=("API021",),
    ),
    tool_case(
        "one call, bridge keeps one result",
        "echo hi",
        {"turn_two_fault": "single_tool_result"},
        known="this bridge breaks Codex only when the model asks for two calls at once (the case above); this run's "
        "model asked for one, and check sends Codex's parallel round",
    ),
    tool_case("fallback: seq 1 2000 (8.9 KB)", "seq 1 2000"),
    tool_case("fallback: seq 1 2600 (11.9 KB)", "seq 1 2600"),
    tool_case("fallback: seq 1 3000 (13.9 KB)", "seq 1 3000"),
    tool_case("fallback: seq 1 10000 (48.9 KB)", "seq 1 10000"),
    tool_case("fallback: seq 1 40000 (229 KB)", "seq 1 40000"),
    tool_case("fallback: two calls, seq 1 10000 each", "seq 1 10000", {"tool_calls": 2}),
    tool_case(
        "fallback, tool_output_token_limit = 1000: seq 1 10000",
        "seq 1 10000",
        config="tool_output_token_limit = 1000\n" + TABLE,
    ),
    tool_case("catalog gpt-5.5: seq 1 10000 (48.9 KB)", "seq 1 10000", config=CATALOG),
    tool_case("catalog gpt-5.5: seq 1 40000 (229 KB)", "seq 1 40000", config=CATALOG),
    tool_case(
        "12K window: seq 1 2600",
        "seq 1 2600",
        {"context_window": 12_000, "error_style": "vllm"},
        want="context",
        known=UNPUBLISHED,
    ),
    tool_case(
        "12K window published (vLLM): seq 1 3000",
        "seq 1 3000",
        {"context_window": 12_000, "error_style": "vllm", "publish_window": True},
        want="context",
        words=("first large tool output", "chars truncated"),
        not_codes=("CTX029",),
    ),
    tool_case(
        "12K published, CTX034's tool_output_token_limit = 600: seq 1 3000",
        "seq 1 3000",
        {"context_window": 12_000, "error_style": "vllm", "publish_window": True},
        config="tool_output_token_limit = 600\n" + TABLE,
    ),
    tool_case(
        "16K window published (vLLM): seq 1 3000",
        "seq 1 3000",
        {"context_window": 16_000, "error_style": "vllm", "publish_window": True},
    ),
    tool_case("16K window: seq 1 2600", "seq 1 2600", {"context_window": 16_000, "error_style": "vllm"}),
    tool_case(
        "28K window, gpt-5.5: seq 1 10000",
        "seq 1 10000",
        {"context_window": 28_000, "error_style": "vllm"},
        config=CATALOG,
        want="context",
        known=UNPUBLISHED,
    ),
    tool_case(
        "28K window published, gpt-5.5: seq 1 10000",
        "seq 1 10000",
        {"context_window": 28_000, "error_style": "vllm", "publish_window": True},
        config=CATALOG,
        want="context",
        words=("first large tool output", "tokens truncated"),
    ),
]


def second_request(o: Outcome) -> tuple[list[str], list[str], int | None]:
    """The item types after the last user message, each function_call_output described, and the tool round's tokens
    (the second request's input minus the first's)."""
    if len(o.bodies) < 2:
        return [], [], None
    items = [i for i in o.bodies[1].get("input") or [] if isinstance(i, dict)]
    last_user = max((n for n, i in enumerate(items) if i.get("role") == "user"), default=-1)
    kinds = [str(i.get("type") or i.get("role")) for i in items[last_user + 1 :]]
    tok = tokens.load("o200k_base")
    outputs = []
    for item in items:
        if item.get("type") != "function_call_output":
            continue
        text = item.get("output")
        text = text if isinstance(text, str) else str(text)
        marker = MARKER.findall(text)
        outputs.append(f"{len(text.encode())} B, {tok.count(text)} tok" + (f", {marker[-1][:40]}" if marker else ""))
    first, second = o.input_tokens[0], o.input_tokens[1]
    return kinds, outputs, (second - first if first is not None and second is not None else None)


def main() -> int:
    print(f"{'case':40} {'codexdoctor':12} {'codes':16} codex: exit, statuses | next request's items | outputs")
    only = os.environ.get("CROSSCHECK_ONLY")
    disagree = 0
    for case in CASES:
        if only and only not in case.name:
            continue
        o = run_case(case)
        kinds, outputs, round_tokens = second_request(o)
        dump = os.environ.get("CROSSCHECK_DUMP")  # a folder: each case's second request, to read what Codex kept
        if dump and len(o.bodies) > 1:
            Path(dump).mkdir(parents=True, exist_ok=True)
            name = re.sub(r"[^a-z0-9]+", "-", case.name.lower()).strip("-")
            (Path(dump) / f"{name}.json").write_text(json.dumps(o.bodies[1], ensure_ascii=False, indent=1))
        disagree += not o.agree and not case.known
        known = f" (known: {case.known})" if case.known and not o.agree else ""
        print(
            f"{case.name:40} {o.report.verdict.value:12} {o.codes:16} {o.code}, {o.statuses[:4]} | "
            f"{', '.join(kinds) or '-'} | {'; '.join(outputs) or '-'}" + o.mark + known
        )
        print(f"{'':40} tool round: {round_tokens} tokens; last line: {last_line(o.out)} | {o.diagnosis}")
    print(f"{disagree} disagreement(s)")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
