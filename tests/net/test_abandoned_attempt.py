"""Issue 40 (review): an attempt still running at the deadline was always "still sending its headers", also when the
server had sent nothing at all. It is said as what it was now."""

from __future__ import annotations

import time

import httpx
import pytest

from codexdoctor.net.deadline import Deadline
from codexdoctor.net.send import send
from tests.integration.test_hostile_servers import drip_headers, raw_server  # noqa: F401 - the fixture


def silent(conn, _, stop):
    while not stop.is_set():
        time.sleep(0.05)


def post(url: str, seconds: float):
    with httpx.Client(trust_env=False) as client:
        return send(
            client,
            "POST",
            url + "/v1/responses",
            headers={},
            deadline=Deadline(seconds),
            redact=lambda s: s,
            json_body={"model": "m"},
            stream=True,
        )


@pytest.mark.parametrize("seconds", [0.6, 0.02], ids=["deadline", "deadline-all-but-spent"])
def test_a_server_that_sends_nothing_is_not_said_to_be_sending_headers(raw_server, seconds, monkeypatch):  # noqa: F811
    """The second: a lookup started with the deadline all but spent (check's GET /models after a hung POST) said
    "still sending its headers" after "0 ms". No grace: the attempt is still running at the deadline, as it was on a
    loaded machine."""
    from codexdoctor.net import send as send_mod

    monkeypatch.setattr(send_mod, "HARD_GRACE_S", 0.0)
    ex = post(raw_server(silent).url, seconds)
    said = (ex.failure_said.text("en"), ex.failure_said.text("zh"))
    assert ex.failure == "timeout" and "headers" not in said[0] and "响应头" not in said[1], said
    assert ex.elapsed_ms and ex.elapsed_ms >= seconds * 1000 * 0.8


def test_a_server_dripping_its_headers_is_said_to_have_started_them(raw_server):  # noqa: F811
    ex = post(raw_server(drip_headers).url, 0.6)
    said = (ex.failure_said.text("en"), ex.failure_said.text("zh"))
    assert ex.failure == "timeout" and "started its status line and headers" in said[0], said
    assert "已经开始发送状态行和响应头" in said[1] and ex.elapsed_ms and ex.elapsed_ms >= 500
