"""The gatherer against a mocked provider (respx): what it sends, in which phase, and the one record it returns.
The phases' timing against real sockets is tests/test_deadlines.py's and tests/test_live_integration.py's."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import replace

import httpx
import pytest
import respx

from codexdoctor.checks.live.gather import Gatherer
from codexdoctor.net.deadline import Deadline
from tests.live.answers import context, plan_of

COMPLETED = {
    "type": "response.completed",
    "response": {"id": "resp_1", "status": "completed", "usage": {"input_tokens": 12, "output_tokens": 1}},
}
STREAM = (
    'event: response.output_text.delta\ndata: {"type": "response.output_text.delta", "delta": "ok"}\n\n'
    f"event: response.completed\ndata: {json.dumps(COMPLETED)}\n\n"
)


def provider_at_api_v1(seen: list[str]):
    """A provider whose API is at /api/v1, not at the configured /v1."""
    lock = threading.Lock()

    def handle(request: httpx.Request) -> httpx.Response:
        with lock:
            seen.append(f"{request.method} {request.url.path}")
        if request.url.path == "/api/v1/responses":
            return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=STREAM.encode())
        if request.url.path == "/api/v1/models":
            return httpx.Response(200, json={"data": [{"id": "m"}]})
        return httpx.Response(404, json={"error": {"message": "Not Found"}})

    return handle


def test_a_404_at_the_configured_path_gathers_the_variants_and_the_catalog_where_the_api_is(home):
    ctx = context(home)
    seen: list[str] = []
    with respx.mock(assert_all_called=False) as mock:
        mock.route().mock(side_effect=provider_at_api_v1(seen))
        ex = Gatherer(ctx, plan_of(ctx), Deadline(5)).gather()
    assert ex.canary is not None and ex.canary.status == 404
    assert [base for base, _ in ex.variants] == [
        "http://127.0.0.1:9",
        "http://127.0.0.1:9/api",
        "http://127.0.0.1:9/api/v1",
    ]
    assert [x.status for _, x in ex.variants] == [404, 404, 200]
    assert ex.chat is not None and ex.chat.url.endswith("/v1/chat/completions")
    assert ex.moved_catalog is not None and ex.moved_catalog[0] == "http://127.0.0.1:9/api/v1"
    assert ex.minimal is None and ex.turn_two is None  # no Codex request in this plan: nothing to contrast or extend
    # phase one before phase two; the catalog at each variant is read in phase two, beside the variant's request
    assert seen.index("GET /v1/models") < seen.index("POST /api/v1/responses")
    assert seen.index("GET /v1/models") < seen.index("GET /api/v1/models")


def test_the_catalog_where_the_api_is_is_read_beside_the_variants_not_after_them(home):
    """Issue 40: read after the working variant was known, the moved catalog was a third round trip in a row (check
    took 1.55x its slowest chain on a wrong prefix). It goes out while the variants' requests are still unanswered."""
    ctx = context(home)
    seen: list[str] = []
    catalog_asked = threading.Event()
    overlapped: list[bool] = []
    inner = provider_at_api_v1(seen)

    def handle(request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and request.url.path == "/api/v1/models":
            catalog_asked.set()
        if request.method == "POST" and request.url.path == "/api/v1/responses" and "POST /v1/responses" in seen:
            overlapped.append(catalog_asked.wait(2.0))  # the variant answers only once its catalog was asked for
        return inner(request)

    with respx.mock(assert_all_called=False) as mock:
        mock.route().mock(side_effect=handle)
        ex = Gatherer(ctx, plan_of(ctx), Deadline(5)).gather()
    assert overlapped == [True], seen
    assert ex.moved_catalog is not None and ex.moved_catalog[0] == "http://127.0.0.1:9/api/v1"


def test_without_a_canary_the_variants_are_catalogs(home):
    ctx = context(home)
    ctx = replace(ctx, options={**ctx.options, "canary": False})
    seen: list[str] = []
    with respx.mock(assert_all_called=False) as mock:
        mock.route().mock(side_effect=provider_at_api_v1(seen))
        ex = Gatherer(ctx, plan_of(ctx), Deadline(5)).gather()
    assert ex.canary is None and ex.chat is None
    assert [x.url for _, x in ex.variants][-1] == "http://127.0.0.1:9/api/v1/models"
    assert not [s for s in seen if s.startswith("POST")]


CODEX_COMPLETED = {
    "type": "response.completed",
    "response": {
        "id": "resp_1",
        "status": "completed",
        "usage": {"input_tokens": 12, "output_tokens": 1, "total_tokens": 13},
    },
}
CODEX_STREAM = (
    'event: response.output_text.delta\ndata: {"type": "response.output_text.delta", "delta": "ok"}\n\n'
    f"event: response.completed\ndata: {json.dumps(CODEX_COMPLETED)}\n\n"
)


def codex_provider(bodies: list[dict], refuse_two_results: bool = False):
    """A Responses provider that streams a completed answer; with `refuse_two_results`, a chat bridge that answers
    400 to a request carrying more than one function_call_output."""
    lock = threading.Lock()

    def handle(request: httpx.Request) -> httpx.Response:
        if request.method == "GET":
            return (
                httpx.Response(200, json={"data": [{"id": "m"}]})
                if request.url.path == "/v1/models"
                else (httpx.Response(404))
            )
        body = json.loads(request.content)
        with lock:
            bodies.append(body)
        outputs = [i for i in body["input"] if i.get("type") == "function_call_output"]
        if refuse_two_results and len(outputs) > 1:
            message = f"tool_call_ids did not have response messages: {outputs[1]['call_id']}"
            return httpx.Response(400, json={"error": {"message": message, "type": "invalid_request_error"}})
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=CODEX_STREAM.encode())

    return handle


def added_items(bodies: list[dict]) -> list[list[dict]]:
    """What each POST added to Codex's first request."""
    first = len(bodies[0]["input"])
    return [b["input"][first:] for b in bodies]


def test_turn_two_is_codexs_parallel_round_exactly(home):
    """Issue 38 item 4: the request after a tool call carries two calls and then two outputs, as Codex 0.171 orders
    them after a response with two function calls, each output cut by Codex's rule (10,000 bytes for this model)."""
    from codexdoctor.checks.live.plan import make_plan
    from codexdoctor.codex.request import synthetic_tool_output
    from codexdoctor.codex.truncation import Cut, exec_output

    ctx = context(home)
    bodies: list[dict] = []
    with respx.mock(assert_all_called=False) as mock:
        mock.route().mock(side_effect=codex_provider(bodies))
        ex = Gatherer(ctx, make_plan(ctx), Deadline(5)).gather()
    assert ex.turn_two is not None and ex.turn_two[1].status == 200 and ex.turn_two_single is None
    assert len(bodies) == 2 and added_items(bodies)[0] == []
    lines = synthetic_tool_output().splitlines(keepends=True)
    halves = ["".join(lines[:120]), "".join(lines[120:240])]
    cut = Cut(10_000, "bytes")
    assert added_items(bodies)[1] == [
        {
            "type": "function_call",
            "status": "completed",
            "id": "fc_codexdoctor_turn2_1",
            "name": "exec_command",
            "arguments": '{"cmd": "sed -n 1,120p src/app.py"}',
            "call_id": "call_codexdoctor_turn2",
        },
        {
            "type": "function_call",
            "status": "completed",
            "id": "fc_codexdoctor_turn2_2",
            "name": "exec_command",
            "arguments": '{"cmd": "sed -n 121,240p src/app.py"}',
            "call_id": "call_codexdoctor_turn2_2",
        },
        {
            "type": "function_call_output",
            "id": "fco_codexdoctor_turn2_1",
            "call_id": "call_codexdoctor_turn2",
            "output": exec_output(halves[0], cut, chunk="c0d3d0"),
        },
        {
            "type": "function_call_output",
            "id": "fco_codexdoctor_turn2_2",
            "call_id": "call_codexdoctor_turn2_2",
            "output": exec_output(halves[1], cut, chunk="c0d3d1"),
        },
    ]
    assert {k for k in bodies[1] if k != "input"} == {k for k in bodies[0] if k != "input"}


def test_a_refused_parallel_round_is_followed_by_one_call_and_one_output(home):
    from codexdoctor.checks.live.plan import make_plan
    from codexdoctor.codex.request import synthetic_tool_output

    ctx = context(home)
    bodies: list[dict] = []
    with respx.mock(assert_all_called=False) as mock:
        mock.route().mock(side_effect=codex_provider(bodies, refuse_two_results=True))
        ex = Gatherer(ctx, make_plan(ctx), Deadline(5)).gather()
    assert ex.turn_two is not None and ex.turn_two[1].status == 400
    assert ex.turn_two_single is not None and ex.turn_two_single[1].status == 200
    kinds = [[i["type"] for i in added] for added in added_items(bodies)]
    assert kinds == [
        [],
        ["function_call", "function_call", "function_call_output", "function_call_output"],
        ["function_call", "function_call_output"],
    ]
    one = added_items(bodies)[2]
    assert one[0]["call_id"] == one[1]["call_id"] == "call_codexdoctor_turn2"
    assert one[1]["output"].endswith(synthetic_tool_output())  # the whole file (9.7 KB: under Codex's 10,000 bytes)


def test_turn_two_prepared_after_the_canary_was_answered_is_still_sent_once(home, monkeypatch):
    """The flake of issue 37 (3 bodies under load): turn two was prepared on the main thread after the canary's thread
    had started. When the canary's status line came first (a loaded machine), nothing was sent early and turn two was
    sent after the canary, as it should be; but the prepared request stayed pending, and that request's own status
    line sent it again. A slow preparation (0.5 s here, a busy machine's) gets the same two requests as a quick one."""
    from codexdoctor.checks.live import gather
    from codexdoctor.checks.live.plan import make_plan

    real = gather.codexrequest.turn_two
    prepared: list[int] = []

    def slow_turn_two(*args, **kwargs):
        if not prepared:
            time.sleep(0.5)
        prepared.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(gather.codexrequest, "turn_two", slow_turn_two)
    ctx = context(home)
    bodies: list[dict] = []
    with respx.mock(assert_all_called=False) as mock:
        mock.route().mock(side_effect=codex_provider(bodies))
        ex = Gatherer(ctx, make_plan(ctx), Deadline(5)).gather()
    assert ex.turn_two is not None and ex.turn_two[1].status == 200 and ex.turn_two_single is None
    assert len(bodies) == 2 and added_items(bodies)[0] == [] and len(added_items(bodies)[1]) == 4


class _Clock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_past_end_is_measured_from_the_deadline_not_from_now():
    clock = _Clock()
    d = Deadline(2.0, clock=clock)
    assert d.past_end(0.2) == pytest.approx(2.2)
    clock.now = 102.1  # something else ran into the deadline first
    assert d.past_end(0.2) == pytest.approx(0.1)  # `remaining() + 0.2` waited 0.2 s more from here
    clock.now = 103.0
    assert d.past_end(0.2) == 0.0


class _Unanswered:
    """A canary future that never completes: records how long it was waited for."""

    def __init__(self) -> None:
        self.waits: list[float | None] = []

    def result(self, timeout: float | None = None):
        from concurrent.futures import TimeoutError as FutureTimeout

        self.waits.append(timeout)
        raise FutureTimeout


def _hung(home, patient: bool, first_token_timeout: float):
    ctx = context(home)
    ctx = replace(ctx, options={**ctx.options, "first_token_timeout": first_token_timeout})
    clock = _Clock()
    deadline = Deadline(2.0, clock=clock, started=clock.now - 1.9)  # 0.1 s left
    gatherer = Gatherer(ctx, plan_of(ctx), deadline, patient=patient)
    future = _Unanswered()
    nothing = gatherer._timed_out(0.0, None)  # an exchange that answered nothing, for _alive
    gatherer._await_canary(future, nothing, [])
    return future.waits


def test_a_hung_provider_is_not_waited_for_past_the_deadline_when_the_canary_may_wait_longer(home):
    """bench_startup's hung provider: `check --timeout 2` ended 0.33-0.53 s after its deadline. The canary, given until
    --first-token-timeout, was still waited for 0.2 s past the deadline (and that 0.2 counted from whenever the
    catalog requests came back), before anything said whether the provider was alive."""
    assert _hung(home, patient=True, first_token_timeout=120.0) == [pytest.approx(0.1)]
    # A canary on the check's own clock times out with it: it gets 0.2 s to come back with its own account.
    waits = _hung(home, patient=False, first_token_timeout=120.0)
    assert waits == [pytest.approx(0.3)]
