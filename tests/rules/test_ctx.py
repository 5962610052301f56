"""CTX: each code from the facts of its check, firing with its parameters or staying silent."""

import pytest

from tests.rules.cases import check, fires, silent
from tests.rules.healthy import SESSION


def session(n=0, **changes):
    """A session of the healthy run's provider and model; n tells several apart."""
    sid = f"0199a1b{n}-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
    return {**SESSION, "id": sid, "short_id": sid[:8], "start": f"2026-01-0{n + 2}T09:30:00Z", **changes}


OVERFLOW = {"kind": "context", "failed_turn": 14, "peak": 120000, "last_ok": 120000, "share": 0.464}
OVERFLOW["evidence"] = "Codex's context-window error"
SMALL_OVERFLOW = {**OVERFLOW, "failed_turn": 2, "peak": 8477, "last_ok": 8477, "share": 0.033}
SMALL_OVERFLOW |= {"real_window": 8477, "compactions": 1}
STREAM_CUT = "stream disconnected before completion: stream closed before response.completed"
SCATTERED = {"provider": "gw", "model": "gw-coder", "window": 258400, "failures": 3, "sizes": [6000, 9000, 14000]}
SCATTERED |= {"ids": [session(n)["id"] for n in range(3)], "outliers": [], "pattern": "scattered", "low": 6000}
SCATTERED |= {"high": 14000, "median": 9000, "spread": 0.89, "compactions": 0}
CLUSTER = {**SCATTERED, "pattern": "cluster", "sizes": [8400, 8500, 8600], "low": 8400, "high": 8600, "median": 8500}
CLUSTER |= {"core": 3, "spread": 0.023, "within": 0.012}
CACHE = {
    "runs": {
        "first": {"ok": True, "sent": 4041, "ttft_ms": 20.0, "cached": 0},
        "repeat": {"ok": True, "sent": 4041, "ttft_ms": 7.0, "cached": 0},
        "changed_start": {"ok": True, "sent": 4043, "ttft_ms": 4.7, "cached": 0},
    },
    "verdict": "not working",
    "ttft_ratio": 0.35,
}
FORBIDDEN = {"number": 2, "status": 403, "kind": "forbidden", "url": "https://gw.example/v1/responses"}
FORBIDDEN |= {"model": "gw-coder", "message": "Project proj_1 has no access to model gw-coder.", "request_id": "req_2"}
FORBIDDEN |= {"count": 1}
CANARY_OVERFLOW = {"kind": "context_exceeded", "status": 400, "message": "maximum context length is 4096 tokens"}
SMALL_WINDOW = {"served": 4096, "source": "GET /v1/models (context_length)"}


def across(*groups):
    return {
        "failures": sum(g["failures"] for g in groups),
        "sizes": [],
        "pattern": None,
        "ids": [],
        "groups": list(groups),
    }


CASES = [
    # The window against Codex's own requests
    fires(
        "CTX001",
        {"served": 120000, "source": "GET /v1/models", "suggest_window": 120000, "suggest_compact": 96000},
        "The provider serves 120,000 tokens (GET /v1/models) but Codex assumes 272,000",
        "and only compacts at 244,800",
        "model_context_window = 120000\nmodel_auto_compact_token_limit = 96000",
    ),
    silent("CTX001", {"served": None}),
    silent("CTX001", {"served": 4096}, why="CTX002-says-it"),
    silent("CTX001", {"served": 400000}, why="larger-than-codex-compacts-at"),
    silent("CTX001", {"served": 120000, "sessions_peak": 118000, "sessions_peak_id": "0199a1b2"}, why="CTX033-says-it"),
    fires(
        "CTX033",
        {
            "served": 120000,
            "source": "GET /v1/models",
            "suggest_window": 120000,
            "suggest_compact": 96000,
            "sessions_peak": 118000,
            "sessions_peak_id": "0199a1b2",
        },
        "The provider serves 120,000 tokens (GET /v1/models), and your session 0199a1b2 already reached 118,000 tokens",
        "model_context_window = 120000\nmodel_auto_compact_token_limit = 96000",
    ),
    silent("CTX033", {"served": 120000, "sessions_peak": 40000, "sessions_peak_id": "0199a1b2"}, why="not-yet"),
    silent(
        "CTX033",
        {"served": 400000, "sessions_peak": 390000, "sessions_peak_id": "0199a1b2"},
        why="codex-compacts-first",
    ),
    fires(
        "CTX027",
        {"configured_below_first": True, "configured_compact_at": 6000, "assumed_source": "model_context_window"},
        "Codex compacts once a session passes 6,000 tokens (model_context_window)",
        "for you alone is 8,504 tokens",
    ),
    silent("CTX027", {"configured_below_first": False}),
    fires(
        "CTX028",
        {"kind": "context_exceeded", "status": 400, "message": "maximum context length is 10240 tokens"},
        "(8,504 tokens, counted by the provider)",
        # the request check sends (healthy facts: Codex's parallel round, 2 calls, 11,200 bytes added), as the note
        # says it (it said "one tool call and about 10 KB" whatever was sent)
        "(11,143 tokens with 2 tool calls and about 11 KB of output)",
        "answered 400: maximum context length is 10240 tokens",
        "at the first command whose output does not fit in the room the first request leaves",
        "32,768 tokens or more",
    ),
    fires(
        "CTX028",
        {"kind": "context_exceeded", "status": 400, "message": "too long", "calls": 1, "added_bytes": 10400},
        "with one tool call and about 10 KB of output",
        why="one-call",
    ),
    fires(
        "CTX028",
        {"kind": "context_exceeded", "status": 400, "message": "too long", "first_counted_by": "estimate"},
        "counted by the local estimate",
        why="estimated",
    ),
    silent("CTX028", {"kind": "bad_request", "status": 400}, why="API021-says-it"),
    fires(
        "CTX029",
        {
            "served": 10000,
            "source": "GET /props",
            "room": 1496,
            "tool_round_fits": False,
            "tool_round_typical_fits": False,
        },
        "The provider serves 10,000 tokens (GET /props); Codex's first request takes 8,504 of them, which leaves 1,496",
        "(about 2,817 tokens: Codex keeps 10,000 bytes of each output (the first and the last 5,000",
    ),
    silent(
        "CTX029",
        {"served": 10000, "room": 1496, "tool_round_fits": False, "tool_round_typical_fits": False},
        others={"api.turn_two": {}},
        why="the-tool-round-was-sent",
    ),
    silent("CTX029", {**SMALL_WINDOW, "tool_round_typical_fits": False}, why="CTX002-says-it"),
    fires(
        "CTX034",
        {
            "served": 12000,
            "source": "GET /v1/models, field max_model_len",
            "room": 3496,
            "tool_round_fits": False,
            "tool_round_typical_fits": True,
        },
        "The provider serves 12,000 tokens (GET /v1/models, field max_model_len); Codex's first request takes 8,504 "
        "of them and leaves 3,496. Codex keeps 10,000 bytes of each output (the first and the last 5,000, "
        "with `…N chars truncated…` between); one call with an output that large",
        "costs 5,746 tokens",
        "at least 16,250 tokens hold 2,000 tokens for the answer besides the first request and that output",
        "While it serves this window: tell Codex the real window",
        "model_context_window = 12000\nmodel_auto_compact_token_limit = 9600",
        "tool_output_token_limit = 600",
    ),
    silent(
        "CTX034",
        {"served": 12000, "room": 3496, "tool_round_fits": False, "tool_round_typical_fits": True},
        others={"api.turn_two": {"kind": "context_exceeded"}},
        why="CTX028-says-it",
    ),
    silent(
        "CTX034",
        {"served": 10000, "room": 1496, "tool_round_fits": False, "tool_round_typical_fits": False},
        why="CTX029-says-it",
    ),
    fires(
        "CTX025",
        {"unpublished": True},
        "say how large gw-coder's window is",
        "Codex's first request for you (8,504 tokens) fit",
        "codexdoctor probe",
        "The first large tool output (a long command output: a log, a listing of 3,000 lines) adds as much as 5,746 "
        "tokens: Codex keeps 10,000 bytes of each output",
        # issue 40 review: 8,504 + 5,746 is 14,250; the 2,000 kept for the answer is named in the sum
        "The first request (8,504 tokens), that output (5,746 tokens) and 2,000 tokens kept for the answer make about 16,250 "
        "tokens: a smaller window breaks there.",
    ),
    silent("CTX025", {"unpublished": True, "first_fit": False}),
    fires(
        "CTX002",
        SMALL_WINDOW,
        "The provider serves 4,096 tokens (GET /v1/models (context_length)); Codex's first request for you is about 8,504",
        "more than 8,504 tokens",
        "Codex's own instructions and tool schemas are most of it",
    ),
    fires(
        "CTX002",
        {**SMALL_WINDOW, "docs": [{"path": "~/work/AGENTS.md", "tokens": 2400}]},
        "Your AGENTS.md files are part of it (~/work/AGENTS.md 2,400 tokens)",
        why="agents-md",
    ),
    silent("CTX002", {"served": 120000}),
    fires(
        "CTX003",
        {**CANARY_OVERFLOW, "codex_shaped": False},
        "answered 400: maximum context length is 4096 tokens. A tiny request exceeds the context window",
        "set model_context_window in ~/.codex/config.toml",
    ),
    fires(
        "CTX003",
        {**CANARY_OVERFLOW, "minimal_kind": "context_exceeded"},
        "A tiny request exceeds",
        why="the-minimal-request-overflowed-too",
    ),
    silent("CTX003", {**CANARY_OVERFLOW, "minimal_kind": "ok"}, why="CTX024-says-it"),
    fires(
        "CTX024",
        {**CANARY_OVERFLOW, "minimal_kind": "ok"},
        "with Codex's own first request (8,501 tokens: instructions 3,527, skills and permissions 546, tool schemas 4,293",
        "A one-line request to the same URL passed",
        "more than 8,501 tokens",
    ),
    fires(
        "CTX024",
        {
            **CANARY_OVERFLOW,
            "server_request": 9100,
            "first_parts": [{"part": "instructions (yours, from config.toml)", "tokens": 1200}],
        },
        "more than 9,100 tokens as this server counts them",
        "`instructions` in ~/.codex/config.toml puts 1,200 tokens of your own text into it",
        why="own-instructions",
    ),
    silent("CTX024", CANARY_OVERFLOW, others={"ctx.window": SMALL_WINDOW}, why="CTX002-says-it"),
    # A pasted context error
    fires(
        "CTX021",
        {"kind": "context", "codex_message": True},
        "Codex reports this when the provider rejects a request as too long",
        "Measure the provider's real window with `codexdoctor probe`",
    ),
    fires(
        "CTX021",
        {"kind": "context", "server_window": 4096, "server_request": 9000},
        "the request (9,000 tokens) exceeds its window (4,096 tokens)",
        "A 4,096-token window cannot hold Codex's first request",
        why="numbers-below-codex",
    ),
    fires(
        "CTX021",
        {"kind": "context", "server_window": 32768, "user_config": "~/.codex/config.toml"},
        "its window is 32,768 tokens",
        "model_context_window = 32768\nmodel_auto_compact_token_limit = 26200",
        why="window-only",
    ),
    fires(
        "CTX021",
        {"kind": "context", "in_stream": True, "server_window": 16000, "server_request": 18070},
        "with an error code other than context_length_exceeded, so Codex took it for a dropped stream",
        "Its words say the request (18,070 tokens) exceeds the window (16,000 tokens).",
        "model_context_window = 16000",
        why="in-stream",
    ),
    silent("CTX021", {"kind": "unknown"}),
    fires(
        "CTX032",
        {"kind": "unclear", "family": "stream_closed", "logs_read": 40, "logs_matching": 0},
        "Codex says this when the provider's event stream ended without `response.completed`",
        "a proxy or CDN that buffers or cuts event streams",
        "None of your 40 newest session logs ended with it",
        "codexdoctor probe",
    ),
    fires(
        "CTX032",
        {"kind": "unclear", "family": "retry_limit", "logs_read": 0, "logs_matching": 0},
        "never the provider's own body",
        "No session log of yours was found to compare.",
        why="429-no-logs",
    ),
    silent(
        "CTX032", {"kind": "unclear", "family": "stream_closed", "logs_read": 40, "logs_matching": 3}, why="logs-decide"
    ),
    # The session probe
    fires(
        "CTX004",
        {"stage1": True, "largest_ttft_ms": 4200.0, "ttft_ratio": 13.5, "turns_per_session": 12},
        "rose from 310 ms (a single question) to 4.2 s at 64,000 tokens (13.5x",
        "every 12 turns",
    ),
    fires("CTX004", {"stage1": True}, "every few turns", why="turns-unknown"),
    silent("CTX004", {"stage1": False}),
    fires(
        "CTX005",
        {"stage2": True, "stall_count": 3, "longest_stall_ms": 5400.0},
        "3 answers went silent for at least 2.0 s",
        "(longest 5.4 s)",
    ),
    fires(
        "CTX005",
        {"stage2": True, "stall_count": 1, "longest_stall_ms": 900.0},
        "1 answer went silent",
        "(longest 900 ms)",
        why="one",
    ),
    silent("CTX005", {"stage2": False, "stall_count": 3}),
    fires(
        "CTX006",
        {
            "stable": True,
            "last_ok": 16384,
            "first_fail": 17408,
            "context_kinds": ["context_exceeded"],
            "failure_kinds": ["context_exceeded"],
            "suggest_window": 16384,
            "suggest_compact": 13100,
            "suggest_from": "measured",
            "turns_per_session": 2,
        },
        "fails from 17,408 tokens on (context window exceeded); every request at 16,384 tokens or less worked",
        "the window this probe measured",
        "model_context_window = 16384\nmodel_auto_compact_token_limit = 13100",
        "Start a new session every 2 turns (at about 2,000 tokens per turn",
    ),
    fires(
        "CTX006",
        {
            "stable": True,
            "last_ok": 4000,
            "first_fail": 4200,
            "failure_kinds": ["timeout"],
            "suggest_window": 4000,
            "suggest_compact": 3200,
            "turns_per_session": 0,
        },
        "(timeout)",
        "cannot hold Codex's own first request",
        "no setting makes Codex work with it",  # never a window below Codex's first request (issue 40)
        why="no-room-for-a-turn",
    ),
    silent("CTX006", {"stable": None, "last_ok": 8192}),
    fires(
        "CTX007",
        {"stable": False, "last_ok": 30000, "first_fail": 32000, "failure_kinds": ["rate_limited", "server_error"]},
        "(30,000 / 32,000 tokens) gave mixed results (rate limited (429), server error (5xx))",
    ),
    fires("CTX007", {"stable": False, "first_fail": 32000}, "gave mixed results (mixed)", why="no-kinds"),
    silent("CTX007", {"stable": True, "first_fail": 32000}),
    fires(
        "CTX008",
        {"truncated": True, "truncated_at": 4096, "reported_at_truncation": 2048},
        "At 4,096 tokens the provider answered 200 but counted only 2,048 input tokens",
        "(here about 2,048)",
    ),
    silent("CTX008", {"truncated": False}),
    fires(
        "CTX009",
        {"no_break": True, "further_cmd": "codexdoctor probe --max-context 128000 --budget 600000"},
        "The session worked at every size up to 64,000 tokens. That is where this probe's range ended",
        "codexdoctor probe --max-context 128000 --budget 600000",
    ),
    fires(
        "CTX009",
        {"no_break": True, "published": 32000},
        "past the window the provider publishes (32,000): it holds",
        "Probe a larger range with --max-context",
        why="past-the-published-window",
    ),
    silent("CTX009", {"no_break": False}),
    fires(
        "CTX010",
        {"stopped": "budget"},
        "Stopped at the budget after 12 requests and 150,840 input tokens",
        "works up to 64,000 tokens.",
        "Raise the budget (--budget)",
    ),
    fires(
        "CTX010",
        {"stopped": "interrupted", "last_ok": None, "worked_up_to": 4043, "first_fail": 12113},
        "Stopped by Ctrl-C",
        "works up to 4,043 tokens, fails at 12,113",
        "let it finish",
        why="interrupted",
    ),
    fires(
        "CTX010",
        {"stopped": "budget", "last_ok": None, "worked_up_to": None, "larger_sent": False, "requests": 3},
        "Learned so far: nothing yet: only the single question (19 tokens) was sent.",
        why="only-single-questions",
    ),
    fires(
        "CTX010",
        {"stopped": "interrupted", "last_ok": None, "worked_up_to": None, "first_fail": 1004},
        "nothing yet: no request larger than the single question (19 tokens) worked, fails at 1,004",
        why="nothing-larger-worked",
    ),
    fires(
        "CTX010",
        {"stopped": "deadline", "last_ok": None, "worked_up_to": None, "single_tokens": None, "larger_sent": False},
        "Learned so far: nothing yet: no request was sent.",
        why="nothing-sent",
    ),
    fires(
        "CTX010",
        {"stopped": "requests", "last_ok": 8141, "worked_up_to": 8141},
        "Stopped at the planned number of requests",
        "works up to 8,141 tokens",
        "Run `codexdoctor probe` again",
        why="plan-count",
    ),
    silent("CTX010", {"stopped": "budget", "stable": True, "first_fail": 70000}, why="the-break-was-located"),
    fires(
        "CTX030",
        {
            "channel_above": [
                {"sent": 90000, "kind": "server_error", "status": 502},
                {"sent": 96000, "kind": "timeout", "status": None},
            ],
            "channel_above_kinds": ["server_error", "timeout"],
        },
        "2 requests above 64,000 tokens failed with channel errors (server error (5xx), timeout)",
        "90,000 tokens: server error (5xx) (502); 96,000 tokens: timeout",
    ),
    silent(
        "CTX030",
        {"channel_above": [{"sent": 90000, "kind": "timeout", "status": None}], "singles_ok": 0, "singles": 3},
        why="singles-fail-too",
    ),
    fires(
        "CTX011",
        {"singles_ok": 2, "single_kinds": ["rate_limited"]},
        "2 of 3 fresh one-line requests succeeded (rate limited (429))",
    ),
    silent("CTX011", {"singles_ok": 0, "single_kinds": ["refused"]}, why="none-succeeded"),
    fires(
        "CTX022",
        {"cache": CACHE, "cache_verdict": "not working", "family": "vllm"},
        "The same 4,041-token prefix sent twice came back with 0 cached tokens",
        "(first token 20 ms then 7 ms)",
        "--enable-prefix-caching",
    ),
    fires(
        "CTX022",
        {"cache": CACHE, "cache_verdict": "not working"},
        "hosted gateway",
        why="unknown-server",
    ),
    silent("CTX022", {"cache": {**CACHE, "verdict": "working"}, "cache_verdict": "working"}),
    fires(
        "CTX023",
        {"cache": {**CACHE, "verdict": "not reported"}, "cache_verdict": "not reported"},
        "(first token 20 ms for a new prefix, 7 ms when repeated)",
    ),
    silent("CTX023", {"cache": CACHE, "cache_verdict": "not working"}),
    # Codex's session logs
    fires(
        "CTX012",
        {"sessions": [session(**OVERFLOW)]},
        "Session 0199a1b0 (2026-01-02 09:30) failed at turn 14: Codex's context-window error",
        "The largest context that worked was 120,000 tokens, 46% of Codex's effective window (258,400, the one in its log).",
        "model_auto_compact_token_limit at the top level of ~/.codex/config.toml to about",
    ),
    fires(
        "CTX012",
        {"sessions": [session(0, **OVERFLOW, real_window=60000), session(1, **OVERFLOW)]},
        "Session 0199a1b1",
        "the provider's real window is about 60,000 tokens",
        "model_context_window = 60000\nmodel_auto_compact_token_limit = 48000",
        "The same happened in 1 more session of this provider, model and window: 0199a1b0.",
        why="one-finding-for-one-config",
    ),
    fires(
        "CTX012",
        {"sessions": [session(0, **OVERFLOW), session(1, **OVERFLOW, model="gw-max")]},
        count=2,
        why="two-configs",
    ),
    fires(
        "CTX012",
        # issue 40 review: 8,477 tokens answered, then "an 8,477-token window cannot hold Codex's first request" and
        # "Codex never compacted" beside a log that counted one compaction
        {"sessions": [session(**SMALL_OVERFLOW)]},
        "the provider's real window is at least 8,477 tokens (a request that large was answered) and smaller than "
        "the request of turn 2. Codex compacted once, which was not enough.",
        "A request of 8,477 tokens was answered, so the window holds Codex's first request, but a window that close "
        "to it leaves no room for a session.",
        why="answered-is-a-lower-bound",
    ),
    silent("CTX012", {"sessions": [session(**OVERFLOW, in_cluster=True)]}, why="CTX014-says-it"),
    silent("CTX012", {"sessions": [session(**OVERFLOW, truncated_at=32768)]}, why="CTX026-says-it"),
    fires(
        "CTX013",
        {
            "sessions": [
                session(
                    kind="channel",
                    failed_turn=3,
                    error="unexpected status 401 Unauthorized, url: https://gw.example/v1/responses",
                )
            ]
        },
        "Session 0199a1b0 (2026-01-02 09:30) failed at turn 3 with `unexpected status 401 Unauthorized`",
        "the context was 42,000 tokens (16% of Codex's effective window, 258,400; the provider's window is unknown)",
        "The provider rejected the key (401): check that the variable `env_key` names in [model_providers.gw]",
    ),
    fires(
        "CTX013",
        {"sessions": [session(kind="channel", failed_turn=3, error="unexpected status 404 Not Found: no route")]},
        'codexdoctor diagnose-error "unexpected status 404 Not Found: no route"',
        why="not-the-key",
    ),
    silent("CTX013", {"sessions": [session(**OVERFLOW)]}),
    silent(
        "CTX013",
        {"sessions": [session(kind="channel", unclear=True, settled="scattered", failed_turn=3, error=STREAM_CUT)]},
        why="CTX015-says-it",
    ),
    fires(
        "CTX031",
        {"sessions": [session(kind="unknown", unclear=True, failed_turn=5, peak=20000, error=STREAM_CUT)]},
        "Session 0199a1b0 (2026-01-02 09:30) failed at turn 5 with `stream disconnected before completion: stream "
        "closed before response.completed`; the context was 20,000 tokens (8% of Codex's effective window, 258,400; "
        "the provider's window is unknown)",
        "cannot tell the context from the channel",
        "codexdoctor probe",
    ),
    silent(
        "CTX031",
        {"sessions": [session(kind="context", unclear=True, settled="cluster", failed_turn=5, error=STREAM_CUT)]},
        why="CTX014-says-it",
    ),
    fires(
        "CTX014",
        {"sessions": [session(n, **OVERFLOW, in_cluster=True) for n in range(3)], "across": across(CLUSTER)},
        "3 of 3 failed sessions of gw-coder on `gw` broke at 8,500 tokens ± 1% (between 8,400 and 8,600)",
        "An 8,500-token window cannot hold Codex's first request (about 8,500 tokens",
        "before they reach about 5,950 tokens",
    ),
    fires(
        "CTX014",
        {
            "sessions": [
                session(n, kind="context", unclear=True, settled="cluster", in_cluster=True, error=STREAM_CUT)
                for n in range(3)
            ],
            "across": across(CLUSTER),
        },
        "This is also why those sessions ended with `stream disconnected before completion: stream closed before "
        "response.completed` ×3",
        why="folds-the-stream-cuts",
    ),
    fires(
        "CTX014",
        {"across": across({**CLUSTER, "outliers": [{"id": session(2)["id"], "size": 20000}]})},
        "1 other session broke elsewhere (0199a1b2 at 20,000)",
        why="outlier",
    ),
    silent("CTX014", {"across": across(SCATTERED)}),
    fires(
        "CTX015",
        {"across": across(SCATTERED)},
        "3 failed sessions of gw-coder on `gw` broke at scattered sizes (6,000-14,000 tokens), with messages that "
        "alone do not say which broke",
    ),
    fires(
        "CTX015",
        {"across": across({**SCATTERED, "low_usage": True})},
        "(6,000-14,000 tokens), all under half of Codex's effective window (258,400)",
        why="low-usage",
    ),
    silent("CTX015", {"across": across(CLUSTER)}),
    fires(
        "CTX026",
        {"sessions": [session(kind="context", truncated_at=32768, truncated_turns=[7, 8, 9], real_window=32768)]},
        "the input stayed at 32,768 tokens in turns 7, 8, 9",
        "model_context_window = 32768",
    ),
    silent("CTX026", {"sessions": [session(**OVERFLOW)]}),
    fires(
        "CTX016",
        {"sessions": [session(outsized=[{"turn": 5, "added": 40000}])]},
        "In session 0199a1b0, turn 5 added 40,000 tokens (median growth 3,000 per turn)",
    ),
    fires(
        "CTX016",
        {"sessions": [session(outsized=[{"turn": t, "added": 30000 + t} for t in range(4, 8)])]},
        count=3,
        why="three-per-session",
    ),
    silent("CTX016", {"sessions": [session()]}),
    fires(
        "CTX017",
        {"sessions": [session(**OVERFLOW)]},
        "In session 0199a1b0, the largest request the provider answered held 120,000 tokens (its window holds at "
        "least that) and the request of turn 14 then failed on the context, but Codex only compacts at about 244,800 "
        "tokens",
    ),
    silent("CTX017", {"sessions": [session(**OVERFLOW, compaction_would_fire=True)]}),
    silent("CTX017", {"sessions": [session(**OVERFLOW, compact_at=None)]}, why="no-window-logged"),
    fires("CTX018", {"unreadable_lines": 3}, "3 lines were half-written"),
    fires("CTX018", {"unreadable_lines": 1}, "1 line", why="one"),
    silent("CTX018", {"unreadable_lines": 0}),
    fires(
        "CTX019",
        {
            "sessions": [
                session(
                    cache={**SESSION["cache"], "collapse": {"turn": 9, "before": 0.92, "after": 0.05, "context": 61000}}
                )
            ]
        },
        "In session 0199a1b0, the share of input served from the provider's cache fell from 92% to 5% at turn 9",
        "(61,000 tokens)",
    ),
    silent("CTX019", {"sessions": [session()]}),
    fires(
        "CTX020",
        {"sessions": [session(cache={**SESSION["cache"], "late_share": 0.08, "late_uncached": True})]},
        "In session 0199a1b0, only 8% of the input of the last third of the turns came from the provider's cache",
    ),
    silent("CTX020", {"sessions": [session(cache={**SESSION["cache"], "late_share": 0.08})]}),
    # A session `codexdoctor watch` recorded
    fires(
        "CTX040",
        {
            "failed": 1,
            "masked": [
                {
                    "number": 4,
                    "status": 429,
                    "ending": "http_error",
                    "message": "Request too large for gpt-x: Limit 30000 tokens per min, Requested 41000",
                    "request_id": "req_4",
                }
            ],
        },
        "Request #4 got status 429 from the provider (request id req_4), which said: Request too large",
        "exceeded retry limit, last status: 429",
    ),
    fires(
        "CTX040",
        {"masked": [{"number": 2, "status": 503, "ending": "http_error", "message": "", "request_id": None}]},
        "got status 503 from the provider, which said: (empty body)",
        "high demand",
        why="5xx",
    ),
    fires(
        "CTX040",
        {"masked": [{"number": 2, "status": 200, "ending": "error_event", "message": "quota", "request_id": None}]},
        "got an `error` event",
        "stream closed before response.completed",
        why="error-event",
    ),
    silent("CTX040", {"masked": []}),
    fires(
        "CTX046",
        {
            "failed": 2,
            "key_rejected": {"number": 2, "message": "Incorrect API key provided", "request_id": "req_2", "count": 2},
        },
        "Request #2 got status 401 from the provider (request id req_2), which said: Incorrect API key provided",
        "Incorrect API key provided. 2 requests got a 401.",
        "unexpected status 401 Unauthorized",
    ),
    silent("CTX046", {"key_rejected": None}),
    fires(
        "CTX047",
        {"failed": 1, "forbidden": FORBIDDEN},
        "Request #2: POST https://gw.example/v1/responses answered 403 (request id req_2): Project proj_1 has no "
        "access to model gw-coder. The key is recognised but lacks permission for this model or endpoint.",
        "and that it may use model `gw-coder`.",
        "reports this answer as AUTH003",
    ),
    fires(
        "CTX047",
        {"failed": 2, "forbidden": {**FORBIDDEN, "kind": "blocked", "model": None, "count": 2, "request_id": None}},
        "answered 403: Project proj_1 has no access to model gw-coder. A firewall, Cloudflare rule",
        "2 requests got a 403.",
        "regional endpoint",
        "AUTH004",
        why="blocked",
    ),
    fires(
        "CTX047",
        {"failed": 1, "forbidden": {**FORBIDDEN, "kind": "quota"}},
        "quota or billing limit is used up",
        "API004",
        why="quota",
    ),
    fires(
        "CTX047",
        {"failed": 1, "forbidden": {**FORBIDDEN, "kind": "payment"}},
        "no credits or balance left",
        "API006",
        why="payment",
    ),
    silent("CTX047", {"forbidden": None}),
    fires(
        "CTX041",
        {
            "failed": 1,
            "context_break": {
                "number": 7,
                "before_tokens": 30000,
                "body_bytes": 160000,
                "message": "This model's maximum context length is 32768 tokens. However, your messages resulted in 33000",
                "server_window": 32768,
                "server_request": 33000,
            },
        },
        "Request #7 was refused as too long",
        "The largest request the provider answered before it held 30,000 tokens.",
        "counts its window as 32,768 tokens and this request as 33,000.",
        "model_context_window = 32768\nmodel_auto_compact_token_limit = 26200",
    ),
    fires(
        "CTX041",
        {
            "context_break": {
                "number": 1,
                "before_tokens": None,
                "body_bytes": 40000,
                "message": "prompt too long",
                "server_window": None,
                "server_request": None,
            }
        },
        "No earlier request was answered.",
        why="first-request",
    ),
    silent("CTX041", {"context_break": None}),
    fires(
        "CTX042",
        {"stall": {"number": 3, "gap_ms": 31500.0, "input_tokens": 52000, "count": 2}},
        "The answer to request #3 went silent for 31.5 s at 52,000 tokens of context (2 requests had a silence of "
        "20 s or more)",
    ),
    silent("CTX042", {"stall": None}),
    fires(
        "CTX043",
        {
            "ttft_growth": {
                "first_tokens": 9000,
                "first_ms": 800.0,
                "last_tokens": 90000,
                "last_ms": 7200.0,
                "ratio": 9.0,
            }
        },
        "after 0.80 s at 9,000 tokens of context, and after 7.20 s at 90,000 (9.0x)",
    ),
    silent("CTX043", {"ttft_growth": None}),
    fires(
        "CTX044",
        {
            "tool_break": {
                "number": 2,
                "status": 400,
                "ending": "http_error",
                "message": "Invalid value: 'function_call_output'",
            }
        },
        "request #2, the first to carry one (function_call_output), got status 400. The provider said: Invalid value",
    ),
    fires(
        "CTX044",
        {"tool_break": {"number": 2, "status": 200, "ending": "eof", "message": ""}},
        "got a stream that ended as `eof`.",
        why="cut-stream",
    ),
    silent("CTX044", {"tool_break": None}),
    silent(
        "CTX044",
        {
            "tool_break": {"number": 2, "status": 400, "ending": "http_error", "message": "context_length_exceeded"},
            "context_break": {
                "number": 2,
                "before_tokens": 9000,
                "body_bytes": 1,
                "message": "context_length_exceeded",
                "server_window": None,
                "server_request": None,
            },
        },
        why="CTX041-says-it",
    ),
    fires(
        "CTX045",
        {
            "cache_reuse": {
                "pattern": "dropped",
                "number": 3,
                "previous": 2,
                "before": 0.9,
                "after": 0.0,
                "input_tokens": 11000,
                "uncached": 3,
                "compared": 3,
                "reported_any": True,
                "requests": [[1, 9000, 0], [2, 10000, 8960], [3, 11000, 0], [4, 12000, 0], [5, 13000, 0]],
            }
        },
        "fell from 90% on request #2 to 0% on request #3 (11,000 tokens)",
        "It stayed under 5% on all 2 requests after it.",
        "ask it to keep a session (Codex's `prompt_cache_key`) on one backend",
    ),
    fires(
        "CTX045",
        {
            "cache_reuse": {
                "pattern": "dropped",
                "number": 3,
                "previous": 2,
                "before": 0.9,
                "after": 0.0,
                "input_tokens": 11000,
                "uncached": 1,
                "compared": 2,
                "reported_any": True,
                "requests": [[2, 10000, 8960], [3, 11000, 0], [4, 12000, 10880]],
            }
        },
        "It stayed under 5% on 0 of the 1 requests after it.",
        why="recovered",
    ),
    fires(
        "CTX045",
        {
            "cache_reuse": {
                "pattern": "never",
                "number": 2,
                "previous": 1,
                "before": None,
                "after": 0.0,
                "input_tokens": 12000,
                "uncached": 3,
                "compared": 3,
                "reported_any": False,
                "requests": [[1, 9000, 0], [2, 10000, 0], [3, 11000, 0], [4, 12000, 0]],
            }
        },
        "reports `cached_tokens` in its usage, but served under 5% of the input from its cache on every one of the 3 "
        "requests from #2 on (up to 12,000 tokens)",
        "vLLM: --enable-prefix-caching",
        why="never",
    ),
    silent("CTX045", {"cache_reuse": None}),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_ctx(case):
    check(case)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_inside_diagnose_error_ctx013_does_not_send_back_to_it(lang):
    """Issue 40: pasted into diagnose-error, a channel session's step 2 said `codexdoctor diagnose-error "<the same
    text>"`; there the step is left out (a key rejected keeps its own step), in `sessions` and `check` it stays."""
    from tests.rules.cases import Case, run

    cut = {"sessions": [session(kind="channel", failed_turn=3, error="unexpected status 404 Not Found: no route")]}
    outside, inside = run(Case("CTX013", cut, True), lang), run(Case("CTX013", {**cut, "pasted": True}, True), lang)
    assert len(outside[0].remedy) == 2 and "diagnose-error" in outside[0].remedy[1]
    assert len(inside[0].remedy) == 1 and "diagnose-error" not in " ".join(inside[0].remedy)
    key = {"sessions": [session(kind="channel", failed_turn=3, error="unexpected status 401 Unauthorized")]}
    assert "401" in run(Case("CTX013", {**key, "pasted": True}, True), lang)[0].remedy[1]


def test_ctx014_lists_the_outliers_in_one_bracket_level():
    """Issue 40 review: `另有 1 个会话断在别处（01a229ea-d（8,477））`, brackets in brackets."""
    from tests.rules.cases import Case, run

    outliers = [{"id": session(2)["id"], "size": 8477}, {"id": session(1)["id"], "size": 20000}]
    said = run(Case("CTX014", {"across": across({**CLUSTER, "outliers": outliers})}, True), "zh")[0].diagnosis
    assert "另有 2 个会话断在别处（0199a1b2：8,477 个 token；0199a1b1：20,000 个 token），见它们各自的结论" in said, (
        said
    )


def test_ctx025_names_the_answer_reserve_in_chinese():
    """Issue 40 review: `（数字、日志）` and a sum that did not add up (8,478 + 5,746 is not 16,224)."""
    from tests.rules.cases import Case, run

    said = run(Case("CTX025", {"unpublished": True}, True), "zh")[0].diagnosis
    assert "（一段很长的命令输出：一份日志、3,000 行的列表）" in said and "数字、日志" not in said, said
    assert (
        "第一个请求（8,504 个 token）、这个输出（5,746 个 token）和留给回答的 2,000 个 token 合计约 16,250 个 token"
        in said
    ), said


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ctx012_does_not_call_an_answered_request_too_large(lang):
    """Issue 40 review: `成功过的最大上下文是 8,477 个 token`, then `8,477 个 token 的窗口放不下 Codex 的第一个请求` and
    `Codex 根本来不及压缩` beside `压缩次数 1`."""
    from tests.rules.cases import Case, run

    said = run(Case("CTX012", {"sessions": [session(**SMALL_OVERFLOW)]}, True), lang)[0]
    text = " ".join((said.diagnosis, *said.remedy))
    for wrong in ("cannot hold Codex's first request", "never compacted", "放不下 Codex 的第一个请求", "来不及压缩"):
        assert wrong not in text, text
    assert ("compacted once" if lang == "en" else "Codex 压缩过 1 次") in text
    assert ("at least 8,477 tokens" if lang == "en" else "至少有 8,477 个 token") in text
