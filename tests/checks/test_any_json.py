"""Generated JSON of every type at each field the transport and the checks read (issue 36, item 4): parse_sse, the
classifiers, the live checks' interpreters, the rules over their facts and the session reader never raise.

Each field is either a value of the shape a provider should send or any JSON value at all (null, a bool, a number,
a string, an array, an object, nested), so every wrong type meets every reader."""

from __future__ import annotations

import functools
import json
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codexdoctor.checks.base import CheckContext
from codexdoctor.checks.live import Plan, catalog_entries, make_plan, registry, rejected_field, window_field
from codexdoctor.checks.live.exchanges import Clocks, Exchanges
from codexdoctor.codex import request as codexrequest
from codexdoctor.codex.rollouts import read_session
from codexdoctor.commands.options import CheckOptions, make_context
from codexdoctor.model import Status
from codexdoctor.net.classify import classify, embedded_json, error_code, error_message, summarize_text
from codexdoctor.net.deadline import Deadline
from codexdoctor.net.exchange import Exchange
from codexdoctor.net.stream import parse_sse
from codexdoctor.report.build import decide_verdict
from codexdoctor.rules import evaluate

pytestmark = pytest.mark.slow  # generated examples by the hundred, through every reader

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ANY = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12,
)


def maybe(good):
    """The value a provider should send, or any JSON value in its place."""
    return st.one_of(good, ANY)


def obj(**fields):
    """An object with any of these fields present (each maybe of the wrong type), or any JSON value instead."""
    return maybe(st.fixed_dictionaries({}, optional={k: v for k, v in fields.items()}))


COUNT = maybe(st.integers(0, 10**6))
USAGE = obj(
    input_tokens=COUNT,
    output_tokens=COUNT,
    total_tokens=COUNT,
    prompt_tokens=COUNT,
    input_tokens_details=obj(cached_tokens=COUNT),
    prompt_tokens_details=obj(cached_tokens=COUNT),
    output_tokens_details=obj(reasoning_tokens=COUNT),
)
ERROR = obj(message=maybe(st.text(max_size=30)), code=ANY, type=ANY, param=maybe(st.text(max_size=12)), innererror=ANY)
KINDS = st.sampled_from(
    [
        "response.output_text.delta",
        "response.output_item.done",
        "response.completed",
        "response.failed",
        "response.incomplete",
        "error",
    ]
)
EVENT = st.fixed_dictionaries(
    {},
    optional={
        "type": maybe(KINDS),
        "delta": maybe(st.text(max_size=8)),
        "item": obj(
            type=maybe(st.sampled_from(["function_call", "reasoning", "message"])),
            call_id=maybe(st.text(max_size=8)),
            encrypted_content=maybe(st.text(max_size=8)),
            id=ANY,
            summary=ANY,
        ),
        "response": obj(
            id=maybe(st.text(max_size=8)),
            usage=USAGE,
            error=ERROR,
            incomplete_details=obj(reason=maybe(st.sampled_from(["max_output_tokens", "length"]))),
        ),
        "error": ERROR,
        "choices": maybe(
            st.lists(
                obj(
                    delta=obj(content=maybe(st.text(max_size=8))),
                    finish_reason=maybe(st.sampled_from(["stop", "length"])),
                ),
                max_size=2,
            )
        ),
        "usage": USAGE,
    },
)
# Each event's data: an event object, any JSON value at all, a line that is not JSON, or the Chat terminator.
DATA = st.one_of(EVENT.map(json.dumps), ANY.map(json.dumps), st.sampled_from(["{", "[DONE]", "[" * 300 + "]" * 300]))
ENTRY = maybe(
    st.fixed_dictionaries(
        {},
        optional={
            "id": maybe(st.sampled_from(["m", "sim-model"])),
            "name": ANY,
            "model_name": maybe(st.just("m")),
            "owned_by": ANY,
            "max_model_len": COUNT,
            "context_length": COUNT,
            "meta": obj(n_ctx=COUNT, n_ctx_train=COUNT),
            "top_provider": obj(context_length=COUNT),
            "model_info": obj(max_input_tokens=COUNT),
        },
    )
)
BODY = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "error": maybe(ERROR),
            "message": ANY,
            "detail": ANY,
            "data": maybe(st.lists(ENTRY, max_size=3)),
            "models": maybe(st.lists(ENTRY, max_size=3)),
            "n_ctx": COUNT,
            "default_generation_settings": obj(n_ctx=COUNT),
        },
    ),
    st.lists(ENTRY, max_size=3),
    ANY,
)
STATUS = st.sampled_from([200, 400, 401, 402, 403, 404, 413, 422, 429, 500, 503])


def stream_of(data: list[str]):
    lines = []
    for d in data:
        lines += [f"data: {d}", ""]
    ticks = iter(range(10**6))
    return parse_sse(lines, 0.0, lambda: next(ticks) / 1000, 0, Deadline(60))


def exchange(status, body, stream=None, method="POST", url="http://127.0.0.1:9/v1/responses"):
    text = json.dumps(body)
    return Exchange(
        method,
        url,
        status,
        5.0,
        "text/event-stream" if stream is not None else "application/json",
        text[:300],
        body,
        stream=stream,
        sent_key=True,
        requested_stream=method == "POST",
    )


@functools.cache
def live_plan() -> tuple[CheckContext, Plan]:
    """A configured provider and its plan (nothing is sent): Codex's request is built once."""
    home = Path(tempfile.mkdtemp(prefix="codexdoctor-any-json-"))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(
        'model = "m"\nmodel_provider = "p"\n[model_providers.p]\nname = "p"\nbase_url = "http://127.0.0.1:9/v1"\n'
        'env_key = "P_KEY"\n'
    )
    ctx = make_context(
        CheckOptions(env={"HOME": str(home), "P_KEY": "sk-any-0123456789"}, home=home, cwd=home, system_config=None)
    )
    return ctx, make_plan(ctx)


@SETTINGS
@given(st.lists(DATA, max_size=6))
def test_parse_sse_and_the_stream_classifier_take_any_event(data):
    stats = stream_of(data)
    for endpoint in ("responses", "chat"):
        kind = classify(exchange(200, None, stats), endpoint)
        assert isinstance(kind.kind, str) and isinstance(kind.detail, str)
    assert all(isinstance(shape.sentence(), str) for shape in (*stats.shapes, *stats.completion_problems))


@SETTINGS
@given(STATUS, BODY)
def test_the_body_classifiers_take_any_body(status, body):
    ex = exchange(status, body)
    for endpoint in ("responses", "chat", "models"):
        classify(ex, endpoint)
    assert isinstance(error_message(body), str) and isinstance(error_code(body), str)
    rejected_field(ex, error_message(body))
    for entry in catalog_entries(body):
        window_field(entry)
    embedded_json("failed: " + json.dumps(body))
    summarize_text("unexpected status 400: " + json.dumps(body))


@SETTINGS
@given(st.lists(DATA, max_size=5), STATUS, BODY, BODY, BODY, st.lists(DATA, max_size=4))
def test_the_live_checks_and_their_rules_take_any_answer(canary_data, status, catalog_body, props_body, info_body, two):
    """Every live check's interpreter over generated answers: each returns a result (none crashes), and the rules
    read their facts without raising either."""
    ctx, plan = live_plan()
    canary = exchange(200, None, stream_of(canary_data))
    catalog = exchange(200, catalog_body, method="GET", url="http://127.0.0.1:9/v1/models")
    probes = tuple(exchange(200, b, method="GET", url="http://127.0.0.1:9/props") for b in (props_body, info_body))
    minimal = exchange(status, catalog_body)
    assert plan.first is not None and canary.stream is not None
    second = codexrequest.turn_two(plan.first.body, canary.stream.reasoning)
    gathered = Exchanges(
        catalog=catalog,
        open_catalog=catalog,
        windows=probes,
        clocks=Clocks(60, 60),
        canary=canary,
        minimal=minimal,
        field=rejected_field(minimal, ""),
        variants=(("http://127.0.0.1:9", minimal),),
        chat=minimal,
        turn_two=(second, exchange(200, None, stream_of(two))),
    )
    # the same answers after a 404 at the configured path: the variants and the wire API have something to read
    not_found = replace(gathered, canary=exchange(404, catalog_body), moved_catalog=("http://127.0.0.1:9", catalog))
    for record in (gathered, not_found):
        results = registry.interpret(ctx, plan, record)
        assert [r.id for r in results] == list(registry.LIVE_IDS)
        assert not [r.id for r in results if r.status is Status.CRASH]
        findings = evaluate(results)
        decide_verdict(findings, results, True)
        json.dumps([dict(r.facts) for r in results], default=str)


LINE = st.fixed_dictionaries(
    {"type": maybe(st.sampled_from(["session_meta", "turn_context", "event_msg", "compacted"]))},
    optional={
        "timestamp": maybe(st.just("2025-10-01T10:00:00.000Z")),
        "payload": obj(
            type=maybe(
                st.sampled_from(["task_started", "user_message", "token_count", "task_complete", "turn_aborted"])
            ),
            id=ANY,
            model=ANY,
            model_provider=ANY,
            cli_version=ANY,
            message=ANY,
            model_context_window=COUNT,
            error=obj(message=ANY, codex_error_info=maybe(obj(http=obj(http_status_code=COUNT)))),
            info=obj(
                model_context_window=COUNT,
                last_token_usage=obj(input_tokens=COUNT, cached_input_tokens=COUNT, output_tokens=COUNT),
                total_token_usage=obj(input_tokens=COUNT, total_tokens=COUNT),
            ),
        ),
    },
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(LINE.map(json.dumps), ANY.map(json.dumps)), max_size=8))
def test_the_session_reader_takes_any_line(lines):
    from codexdoctor.checks.sessions import classify_session

    folder = Path(tempfile.mkdtemp(prefix="codexdoctor-any-rollout-"))
    path = folder / "rollout-2025-10-01T10-00-00-0199a0b0-0000-7000-8000-000000000000.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    classify_session(read_session(path, keep_content=True))
