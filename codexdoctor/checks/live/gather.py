"""The live checks' sending half: every request of a run, in two concurrent phases under one deadline, returned as one
frozen `Exchanges` record. It decides what to send next from what came back; it builds no result."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from codexdoctor.checks.base import CheckContext
from codexdoctor.checks.live.exchanges import Clocks, Exchanges
from codexdoctor.checks.live.plan import (
    Plan,
    canary_body,
    canary_url,
    catalog_url,
    variants_of,
    window_probe_urls,
)
from codexdoctor.checks.live.read import canary_kind, no_first_token, no_route, rejected_field, working_variant
from codexdoctor.codex import request as codexrequest
from codexdoctor.common.untrusted import sanitize
from codexdoctor.model import Msg
from codexdoctor.net.classify import classify
from codexdoctor.net.client import make_client, proxy_for
from codexdoctor.net.deadline import Deadline
from codexdoctor.net.exchange import Exchange, utc_now
from codexdoctor.net.send import send

if TYPE_CHECKING:
    import httpx

# Kinds after which the minimal canary is sent too: was it Codex's request (its size, a field, an item) or the channel?
CONTRAST_KINDS = (
    "bad_request",
    "wire_mismatch",
    "context_exceeded",
    "stream_error",
    "stream_closed",
    "not_json",
    # a gateway whose translation of Codex's request fails inside it answers 500 (LiteLLM in front of
    # llama.cpp, observed): only the contrast with a minimal request tells that from an outage
    "server_error",
)
TRANSIENT_RETRIES = 3
# How long the canary may wait for a provider that is demonstrably alive (it answered, or accepted the request)
# but slow to answer Codex's first request: a local model on a CPU reads its ~8,500 tokens for 10-25 s, and Codex
# waits for it. `check --first-token-timeout` sets it; a provider that never answers still fails at --timeout.
FIRST_TOKEN_TIMEOUT = 120.0


@contextmanager
def _pool(workers: int = 6) -> Iterator[ThreadPoolExecutor]:
    """A phase's pool, joined when the phase ends, and left behind when it is cut short. A Ctrl-C came to the main
    thread in `result()`, and `with ThreadPoolExecutor` then joined its workers on the way out: requests to a
    provider that never answers, so "Interrupted." came at the deadline (41 s into `check --timeout 40`). Left
    behind, the workers are dropped with the process (common/interrupt.finish exits without joining them)."""
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


class Gatherer:
    """One live run's requests. Requests in a phase run concurrently; phase two only after a 404."""

    def __init__(
        self,
        ctx: CheckContext,
        plan: Plan,
        deadline: Deadline,
        client: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
        patient: bool = True,
    ):
        """`patient=False` when no canary is sent (the probe's window lookup): nothing waits past `deadline`."""
        self.ctx = ctx
        self.plan = plan
        self.deadline = deadline
        needs_tls = plan.base_url.startswith("https:") or proxy_for(plan.base_url, ctx.env) is not None
        self.client = client or make_client(ctx.env, tls=needs_tls)
        self.sleep = sleep
        self.redact = ctx.redactor
        # The main canary's own clock: the check's deadline, or longer while the provider shows it is alive.
        wait = float(ctx.options.get("first_token_timeout", FIRST_TOKEN_TIMEOUT))
        self.canary_deadline = Deadline(max(deadline.total, wait), started=deadline.started) if patient else deadline
        self.canary_answered = threading.Event()  # the canary's status line arrived: the provider accepted it
        self.waiting_total = deadline.total  # what the "still waiting" line counts towards
        self.waited_for_alive: str | None = None  # why the canary was given longer than the deadline
        self.alive_said: Msg | None = None  # the same in both languages
        self.first_body = plan.first.body if plan.first is not None else None  # turn two builds on what was accepted
        # Turn two sent beside the canary (issue 40), and its answer to come.
        self.early_turn_two: tuple[codexrequest.TurnTwo, Future[Exchange]] | None = None
        self._early_pending: codexrequest.TurnTwo | None = None  # sent when the canary's 200 arrives
        # When the main canary went out (net.send's clock, and UTC): its line when codexdoctor stops waiting for it
        # says how long it waited and when it was sent, as every other request's does (issue 40 review).
        self.canary_sent: tuple[float, str] | None = None

    # ---- the run ----------------------------------------------------------------------------------
    def gather(self) -> Exchanges:
        """Phase one (the canary in the background while the catalog and window lookups run), the minimal request
        for contrast, phase two after a 404 (the base_url variants, /chat/completions), the catalog where the API
        really is, then turn two."""
        canary_on = bool(self.ctx.options.get("canary", True))
        canary, catalog, open_catalog, windows = self._phase_one(canary_on)
        minimal, field = None, None
        if canary is not None:
            canary, minimal, field = self.contrast(canary)
        variants: list[tuple[str, Exchange]] = []
        chat = None
        variant_catalogs: dict[str, Exchange] = {}
        kind = canary_kind(canary, self.plan.wire) if canary is not None else None
        if no_route(kind, catalog) and not self.deadline.expired:
            variants, chat, variant_catalogs = self._phase_two(canary_on, catalog)
        moved_catalog = self._moved_catalog(variants, variant_catalogs)
        turn_two, turn_two_error, turn_two_single = None, None, None
        if canary_on:
            try:
                turn_two = self.turn_two(canary)
                turn_two_single = self.one_tool_result(turn_two)
            except Exception as exc:  # that check's crash (api.turn_two), not the run's
                turn_two_error = exc
        return Exchanges(
            catalog=catalog,
            open_catalog=open_catalog,
            windows=tuple(windows),
            clocks=Clocks(self.deadline.total, self.canary_deadline.total, self.waited_for_alive, self.alive_said),
            canary=canary,
            minimal=minimal,
            field=field,
            variants=tuple(variants),
            chat=chat,
            moved_catalog=moved_catalog,
            turn_two=turn_two,
            turn_two_error=turn_two_error,
            turn_two_single=turn_two_single,
        )

    def _phase_one(self, canary_on: bool) -> tuple[Exchange | None, Exchange, Exchange, list[Exchange]]:
        with _pool() as pool:
            # Turn two is ready before the canary goes out: its status line sends it (`_canary_headers`). Prepared
            # after, on a loaded machine it came after that status line, stayed pending, and turn two's own status
            # line sent it a second time (issue 37).
            self._early_turn_two(canary_on)
            if canary_on:
                self.canary_sent = (time.perf_counter(), utc_now())
            f_can = self._in_background(self.main_canary, "codexdoctor-canary") if canary_on else None
            f_cat = pool.submit(self.catalog, True)
            f_open = pool.submit(self.catalog, False)
            f_win = [pool.submit(self.send, "GET", url) for url in window_probe_urls(self.plan)]
            catalog, open_catalog = f_cat.result(), f_open.result()
            windows = [f.result() for f in f_win]
        canary = self._await_canary(f_can, catalog, windows) if f_can else None
        return canary, catalog, open_catalog, windows

    def _phase_two(
        self, canary_on: bool, catalog: Exchange
    ) -> tuple[list[tuple[str, Exchange]], Exchange | None, dict[str, Exchange]]:
        """Nothing at the configured path: the same request at each base_url variant, and /chat/completions. When
        the configured catalog is missing too, each variant's catalog is read beside its request (issue 40: read
        after the working variant was known, it was a third round trip in a row, check 1.55x its slowest chain);
        a GET spends no tokens, and the one of the variant that works is kept."""
        variant_urls = variants_of(self.plan.base_url)
        moved = canary_on and classify(catalog, "models").kind in ("path_not_found", "html")
        with _pool() as pool:
            futures = [
                (v, pool.submit(self.canary, v) if canary_on else pool.submit(self.variant_catalog, v))
                for v in variant_urls
            ]
            f_chat = pool.submit(self.canary, None, "chat") if self.plan.wire == "responses" and canary_on else None
            f_catalogs = [(v, pool.submit(self.variant_catalog, v)) for v in variant_urls] if moved else []
            variants = [(v, f.result()) for v, f in futures]
            chat = f_chat.result() if f_chat else None
            catalogs = {v: f.result() for v, f in f_catalogs}
        if not canary_on and classify(catalog, "models").kind in ("path_not_found", "html"):
            catalogs = dict(variants)  # without the canary, the variants' requests are their catalogs already
        return variants, chat, catalogs

    def _moved_catalog(
        self, variants: list[tuple[str, Exchange]], catalogs: Mapping[str, Exchange]
    ) -> tuple[str, Exchange] | None:
        """Issue 28: the catalog where the API really is, so a model ID it lists differently is named in this run."""
        working = working_variant(variants, self.plan.wire)
        if working is None or variants[working][0] not in catalogs:
            return None
        base = variants[working][0]
        return (base, catalogs[base]) if classify(catalogs[base], "models").kind == "ok" else None

    # ---- requests ---------------------------------------------------------------------------------
    def send(
        self,
        method: str,
        url: str,
        *,
        key: bool = True,
        body: Any = None,
        stream: bool = False,
        retries: int = 0,
        deadline: Deadline | None = None,
        rate_limit_retries: int | None = None,
        on_headers: Callable[[int], None] | None = None,
    ) -> Exchange:
        headers = dict(self.plan.headers)
        if not key:
            headers.pop("Authorization", None)
        if stream:
            headers["Accept"] = "text/event-stream"
        return send(
            self.client,
            method,
            url,
            headers=headers,
            deadline=deadline or self.deadline,
            redact=self.redact,
            json_body=body,
            stream=stream,
            idle_s=self.plan.idle_s,
            retries=retries,
            sleep=self.sleep,
            rate_limit_retries=rate_limit_retries,
            on_headers=on_headers,
        )

    def canary(self, base: str | None = None, wire: str | None = None, main: bool = False) -> Exchange:
        """The minimal request (one instruction line, no tools) at `base` over `wire`."""
        return self.send(
            "POST",
            canary_url(self.plan, base, wire),
            body=canary_body(wire or self.plan.wire, self.plan.model),
            stream=True,
            retries=TRANSIENT_RETRIES,
            **(self._main_canary_options() if main else {}),
        )

    def codex_canary(self, body: Mapping[str, Any] | None = None) -> Exchange:
        """POST {base_url}/responses with Codex's own first request (only the answer capped), on the canary's clock,
        with Codex's own patience for a 429 (stream_max_retries, each after Retry-After)."""
        if self.plan.first is None:  # an assert would vanish under `python -O`
            raise RuntimeError("codex_canary needs Codex's first request (the plan was made with first=False)")
        return self.send(
            "POST",
            canary_url(self.plan, wire="responses"),
            body=body or self.plan.first.body,
            stream=True,
            retries=TRANSIENT_RETRIES,
            **self._main_canary_options(),
        )

    def _main_canary_options(self) -> dict[str, Any]:
        return {
            "deadline": self.canary_deadline,
            "rate_limit_retries": self.plan.stream_retries,
            "on_headers": self._canary_headers,
        }

    def _canary_headers(self, status: int | None) -> None:
        """The canary's status line: the provider is alive, and once it accepted the request (200) turn two goes out
        beside the rest of the canary's answer (issue 40). Before that, nothing more is sent: a key the provider
        refuses, or a 429 Codex would retry, gets exactly the requests Codex would send."""
        self.canary_answered.set()
        early, self._early_pending = self._early_pending, None
        if early is not None and status == 200:
            self.early_turn_two = (
                early,
                self._in_background(lambda: self.codex_canary(early.body), "codexdoctor-turn-two"),
            )

    def main_canary(self) -> Exchange:
        return self.codex_canary() if self.plan.first is not None else self.canary(main=True)

    def catalog(self, key: bool = True) -> Exchange:
        return self.send("GET", catalog_url(self.plan), key=key, retries=TRANSIENT_RETRIES if key else 0)

    def variant_catalog(self, base: str) -> Exchange:
        return self.send("GET", catalog_url(self.plan, base))

    def contrast(self, canary: Exchange) -> tuple[Exchange, Exchange | None, str | None]:
        """After Codex's request failed in a way its shape or size may explain, send the minimal one too.

        Returns the canary (re-sent without max_output_tokens when only that was refused: Codex never sends it),
        the minimal exchange, and the field the provider named."""
        kind = canary_kind(canary, self.plan.wire)
        if self.plan.first is None or kind.kind not in CONTRAST_KINDS or self.deadline.expired:
            return canary, None, None
        field = rejected_field(canary, kind.message) if kind.kind != "context_exceeded" else None
        if field == "max_output_tokens":
            body = {k: v for k, v in self.plan.first.body.items() if k != "max_output_tokens"}
            self.first_body = body  # turn two is built on the request that was accepted
            canary = self.codex_canary(body)
            kind = classify(canary, self.plan.wire)
            if kind.kind not in CONTRAST_KINDS:
                return canary, None, None
            field = rejected_field(canary, kind.message) if kind.kind != "context_exceeded" else None
        return canary, self.canary(), field

    def _early_turn_two(self, canary_on: bool) -> None:
        """Issue 40: turn two waited for the canary's whole answer (check took 2.16x its slowest chain of requests). It
        only needs that answer for a reasoning item to replay, so it is prepared now, built as it would be without one,
        and sent as soon as the provider accepts the canary (`_canary_headers`); `turn_two` keeps its answer when the
        canary streamed no reasoning and was accepted as sent."""
        if not canary_on or self.plan.first is None or not self.ctx.options.get("turn_two", True):
            return
        from codexdoctor.codex import request as codexrequest

        self._early_pending = codexrequest.turn_two(self.plan.first.body, None, self.plan.tool_cut)

    def turn_two(self, canary: Exchange | None) -> tuple[codexrequest.TurnTwo, Exchange] | None:
        """After Codex's first request got its answer: the request Codex sends after a tool ran (issue 31). The one
        sent beside the canary stands when it is the request Codex would send now (no reasoning to replay, the first
        request accepted as built) and it was answered; otherwise it is sent again, now, as before (a provider that
        allows one request at a time refuses the early one: that is not the verdict)."""
        if (
            canary is None
            or canary_kind(canary, self.plan.wire).kind != "ok"
            or self.plan.first is None
            or not self.ctx.options.get("turn_two", True)
            or self.canary_deadline.expired
        ):
            return None
        reasoning = canary.stream.reasoning if canary.stream else None
        early = self.early_turn_two
        if early is not None and not reasoning and (self.first_body or self.plan.first.body) is self.plan.first.body:
            second, future = early
            try:
                answer = future.result(timeout=max(0.0, self.canary_deadline.remaining()) + 1.0)
            except FutureTimeout:
                answer = None
            if answer is not None and answer.status is not None and answer.status < 500 and answer.status != 429:
                return second, answer
        second = codexrequest.turn_two(self.first_body or self.plan.first.body, reasoning, self.plan.tool_cut)
        return second, self.codex_canary(second.body)

    def one_tool_result(
        self, turn_two: tuple[codexrequest.TurnTwo, Exchange] | None
    ) -> tuple[codexrequest.TurnTwo, Exchange] | None:
        """Issue 38: turn two carries two calls and two outputs, as Codex sends them after a parallel round. When it
        is refused (not for its size), the same request with one call and one output tells a bridge that keeps one
        tool result only from one that refuses tool outputs at all. Sent only then: a healthy run sends nothing more."""
        if turn_two is None or turn_two[0].calls < 2 or self.plan.first is None or self.canary_deadline.expired:
            return None
        if classify(turn_two[1], self.plan.wire).kind in ("ok", "context_exceeded"):
            return None
        body = turn_two[0].body
        first_items = len(body.get("input") or []) - len(turn_two[0].item_kinds)
        first_body = {**body, "input": list(body.get("input") or [])[:first_items]}
        reasoning = None
        if turn_two[0].item_kinds[:1] == ("reasoning",):
            reasoning = body["input"][first_items]
        single = codexrequest.turn_two(first_body, reasoning, self.plan.tool_cut, calls=1)
        return single, self.codex_canary(single.body)

    # ---- waiting for the canary -------------------------------------------------------------------
    def _in_background(self, request: Callable[[], Exchange], name: str) -> Future[Exchange]:
        """A request on the canary's clock, on a daemon thread: when the provider shows no sign of life by the
        deadline, the check ends without waiting for it (a pool's worker would be joined at exit)."""
        future: Future[Exchange] = Future()

        def work() -> None:
            try:
                future.set_result(request())
            except BaseException as exc:
                future.set_exception(exc)

        threading.Thread(target=work, name=name, daemon=True).start()
        return future

    def _await_canary(self, future: Future[Exchange], catalog: Exchange, windows: list[Exchange]) -> Exchange:
        """The canary's answer, waited for as Codex waits when the provider is alive, and no longer than the deadline
        when nothing shows it is."""
        try:
            # A canary whose own clock ends with the check's times out then and says how (its own exchange): given
            # 0.2 s to come back. One given longer (patient) cannot end there: waiting past the deadline only delayed
            # every hung provider's report by 0.2 s.
            grace = 0.2 if self.canary_deadline.end <= self.deadline.end else 0.0
            return future.result(timeout=self.deadline.past_end(grace))
        except FutureTimeout:
            pass
        alive = self._alive(catalog, windows)
        if alive is None:
            return self._timed_out(
                self.deadline.total,
                Msg(
                    "no answer within codexdoctor's deadline (--timeout {s:g} s), "
                    "and nothing else from this host answered either",
                    "codexdoctor 等到时限（--timeout {s:g} 秒）也没有等到回答，发往这台主机的其他请求也都没有响应",
                    s=self.deadline.total,
                ),
            )
        self.waited_for_alive, self.alive_said = str(alive), alive
        self.waiting_total = self.canary_deadline.total
        progress = self.ctx.options.get("progress")
        if callable(progress):  # a line that stays (keep=True): the "still waiting" line goes on below it
            progress(
                Msg(
                    "the provider is alive ({alive}) but has not answered Codex's first request yet: waiting up to "
                    "{s:g} s (--first-token-timeout), as Codex would wait",
                    "提供方是活着的（{alive}），但还没有回答 Codex 的第一个请求：最多等 {s:g} 秒"
                    "（--first-token-timeout），Codex 也会这样等",
                    alive=alive.redacted(self.redact),
                    s=self.canary_deadline.total,
                ),
                True,
            )
        cut = Msg(
            "no first token within --first-token-timeout {s:g} s, although the provider is alive ({alive})",
            "提供方是活着的（{alive}），但在 --first-token-timeout {s:g} 秒内没有返回第一个 token",
            s=self.canary_deadline.total,
            alive=alive,
        )
        try:
            answer = future.result(timeout=max(0.0, self.canary_deadline.remaining()) + 1.0)
        except FutureTimeout:
            return self._timed_out(self.canary_deadline.total, cut)
        # The request's own read limit is what is left of --first-token-timeout: its "no answer while waiting for the
        # response" is that limit, on a provider that answered the other requests (issue 40 review).
        return replace(answer, failure_said=cut) if no_first_token(answer) else answer

    def _timed_out(self, total: float, detail: Msg) -> Exchange:
        """The canary's exchange when codexdoctor stopped waiting for it (its thread may still be sending): the time
        from its sending to now, on the clock every other request is timed with, and when it was sent. The deadline
        counts from codexdoctor's start, so that is less than `total` by the start-up (issue 40 review: `-> timeout
        (3000 ms)` under a note that the live checks took 2929 ms)."""
        sent, at = self.canary_sent if self.canary_sent is not None else (None, None)
        return Exchange(
            "POST",
            self.redact(self.plan.request_url),
            failure="timeout",
            sent_key=True,
            requested_stream=True,
            elapsed_ms=round((time.perf_counter() - sent) * 1000 if sent is not None else total * 1000, 1),
            failure_said=detail,
            started_at=at,
        )

    def _alive(self, catalog: Exchange, windows: list[Exchange]) -> Msg | None:
        """What shows the provider is up: the canary's own status line, or any other answer from the host (its
        English is the `waited_for_alive` fact; the progress line says it in the run's language)."""
        if self.canary_answered.is_set():
            return Msg("it accepted the request", "它已接受请求")
        for ex in [catalog, *windows]:
            if ex.status is not None:
                return Msg(
                    "GET {path} answered {status} in {ms:,.0f} ms",
                    "GET {path} 在 {ms:,.0f} ms 内返回了 {status}",
                    path=sanitize(urlsplit(ex.url).path or "/"),
                    status=str(ex.status),
                    ms=ex.elapsed_ms,
                )
        return None
