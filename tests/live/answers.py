"""A configured provider, its plan and hand-made answers: the live results are pure functions of (context, plan,
exchanges), so their tests build the record the gatherer would have returned and send nothing."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from codexdoctor.checks.base import CheckContext
from codexdoctor.checks.live.exchanges import Clocks, Exchanges
from codexdoctor.checks.live.plan import Plan, make_plan
from codexdoctor.commands.options import CheckOptions, make_context
from codexdoctor.net.exchange import Exchange, StreamStats
from tests.conftest import write_config

BASE = "http://127.0.0.1:9/v1"
KEY = "sk-live-unit-0123456789"


def context(home: Path, model: str = "m", extra: str = "", env: dict[str, str] | None = None) -> CheckContext:
    write_config(
        home,
        f'model = "{model}"\nmodel_provider = "p"\n[model_providers.p]\nname = "p"\nbase_url = "{BASE}"\n'
        f'env_key = "P_KEY"\n{extra}',
    )
    return make_context(CheckOptions(env={"P_KEY": KEY, **(env or {})}, home=home, cwd=home, system_config=None))


def plan_of(ctx: CheckContext) -> Plan:
    """The plan without Codex's first request (no tokenizer to load): the canary is the minimal one."""
    return make_plan(ctx, first=False)


def answer(status: int | None, body: Any = None, url: str = BASE + "/responses", method: str = "POST", **kw: Any):
    text = json.dumps(body) if body is not None else ""
    return Exchange(
        method,
        url,
        status,
        5.0,
        "application/json",
        text[:300],
        body,
        sent_key=True,
        requested_stream=method == "POST",
        **kw,
    )


def streamed(text: str = "ok", usage: dict[str, int] | None = None, url: str = BASE + "/responses") -> Exchange:
    stats = StreamStats(
        events=4, first_event_ms=2.0, first_token_ms=3.0, terminal="response.completed", text=text, usage=usage
    )
    return replace(answer(200, url=url), content_type="text/event-stream", stream=stats)


def not_found(url: str, method: str = "POST") -> Exchange:
    return answer(404, {"error": {"message": "Not Found"}}, url=url, method=method)


def catalog(*ids: str, base: str = BASE, **entry: Any) -> Exchange:
    return answer(200, {"data": [{"id": i, **entry} for i in ids]}, url=base + "/models", method="GET")


def gathered(**changes: Any) -> Exchanges:
    """What a healthy provider's run gathers (model "m" listed, no window published, the canary streamed), changed."""
    healthy = Exchanges(
        catalog=catalog("m"),
        open_catalog=answer(401, {"error": {"message": "no key"}}, url=BASE + "/models", method="GET"),
        windows=(not_found("http://127.0.0.1:9/props", "GET"), not_found("http://127.0.0.1:9/model/info", "GET")),
        clocks=Clocks(10.0, 120.0),
        canary=streamed(),
    )
    return replace(healthy, **changes)
