"""What the real Codex CLI does with what users paste from a guide or a web page (issue 38, item 5), next to
codexdoctor's verdict: a key left as the guide's placeholder, a model left as one, a 401 that says the key's quota
is used up, an insufficient_quota 429, a per-request token-rate limit (TPM) that Codex's first request is over, and
a base_url host written with ideographic or full-width full stops.

Usage (inside a network namespace with only loopback, since Codex also tries outside hosts):
    ../shared/tools/in-netns python scripts/crosscheck_pastes.py [CODEX_BINARY]
Each case: a throw-away CODEX_HOME, the simulator (requiring the right key), `codexdoctor check` as Codex 0.171.0,
then `codex exec "say hi"`. Printed: codexdoctor's verdict and codes, Codex's exit code, its POST statuses (a
retried answer shows several) and Codex's last line. CROSSCHECK_ONLY=part-of-a-name runs the matching cases only.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crosscheck_config_semantics import TABLE, last_line
from crosscheck_streams import Case, run_case

CASES = [
    Case("key YOUR_API_KEY", env={"SIM_API_KEY": "YOUR_API_KEY"}, words=("placeholder",)),
    Case("key sk-xxxx", env={"SIM_API_KEY": "sk-xxxx"}, words=("placeholder",)),
    Case("key <your key>", env={"SIM_API_KEY": "<your key>"}, words=("placeholder",)),
    Case(
        "model YOUR_MODEL_ID",
        config=TABLE.replace('model = "sim-model"', 'model = "YOUR_MODEL_ID"'),
        words=("placeholder",),
    ),
    Case(
        "401 该令牌额度已用尽 (new-api)",
        {"quota_exhausted": "newapi", "request_id_in_text": True},
        words=("quota",),
        not_codes=("AUTH001",),
    ),
    Case(
        "429 insufficient_quota (OpenAI)",
        {"quota_exhausted": "openai"},
        words=("Quota exceeded. Check your plan and billing details.",),
    ),
    Case("429 TPM limit 8000 (first request ~8.5K)", {"tpm_limit": 8000}, words=("tokens per minute", "first request")),
    Case("429 TPM limit 30000", {"tpm_limit": 30000}),
    Case("host 127。0。0。1 (U+3002)", host_stop="\u3002", not_codes=("URL007",)),
    Case("host 127．0．0．1 (U+FF0E)", host_stop="\uff0e", not_codes=("URL007",)),
    Case("host 127｡0｡0｡1 (U+FF61)", host_stop="\uff61", not_codes=("URL007",)),
]


def main() -> int:
    print(f"{'case':42} {'codexdoctor':12} {'codes':20} codex: exit, statuses, last line | diagnose-error")
    only = os.environ.get("CROSSCHECK_ONLY")
    disagree = 0
    for case in CASES:
        if only and only not in case.name:
            continue
        o = run_case(case)
        disagree += not o.agree
        shown = f"{o.statuses[:3]}{'…' if len(o.statuses) > 3 else ''} ({len(o.statuses)})"
        print(
            f"{case.name:42} {o.report.verdict.value:12} {o.codes:20} {o.code}, {shown}, {last_line(o.out)} | {o.diagnosis}"
            + o.mark
        )
    print(f"{disagree} disagreement(s)")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
