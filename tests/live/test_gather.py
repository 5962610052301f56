"""The gatherer against a mocked provider (respx): what it sends, in which phase, and the one record it returns.
The phases' timing against real sockets is tests/test_deadlines.py's and tests/test_live_integration.py's."""

from __future__ import annotations

import json
import threading
from dataclasses import replace

import httpx
import respx

from codexdoctor.checks.live.gather import Gatherer
from codexdoctor.net.transport import Deadline
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
