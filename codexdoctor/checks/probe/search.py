"""The probe's requests: single questions, the prefix-cache step, a growing session, the bisection and the repeats,
every one counted against the announced token budget and the command's deadline."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx

from codexdoctor.checks.base import CheckContext
from codexdoctor.checks.filler import INSTRUCTIONS, Conversation, as_chat_messages
from codexdoctor.checks.live import (
    CANARY_INSTRUCTIONS,
    CANARY_PROMPT,
    Plan,
    assumed_window,
    canary_body,
    make_plan,
    with_query,
)
from codexdoctor.checks.probe import progress as progress_lines
from codexdoctor.checks.probe.steps import (
    CONTEXT_KINDS,
    INTERRUPTED,
    ProbeOutcome,
    ProbeSettings,
    Step,
    estimate,
    published_schedule,
    schedule,
)
from codexdoctor.common import outside_json as outside
from codexdoctor.common.tokens import Tokenizer
from codexdoctor.common.untrusted import sanitize
from codexdoctor.model import Msg
from codexdoctor.net.classify import classify
from codexdoctor.net.client import make_client, proxy_for
from codexdoctor.net.deadline import Deadline
from codexdoctor.net.exchange import Exchange
from codexdoctor.net.send import send

STILL_WAITING_EVERY = 5.0  # seconds between "still waiting" lines while one probe request waits
MIN_CACHE_PREFIX = 1024  # providers cache prefixes from about 1K tokens (OpenAI's minimum); smaller proves nothing


class Probe:
    def __init__(
        self,
        ctx: CheckContext,
        settings: ProbeSettings,
        tokenizer: Tokenizer,
        client: httpx.Client | None = None,
        progress: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        published: int | None = None,
        lang: str = "en",
        total: Deadline | None = None,
        waiting: Callable[[str], None] | None = None,
        width: int | None = None,
    ) -> None:
        """`total`: the command's whole clock when it started before the probe (the window lookups spend it too).
        `waiting`: where the "still waiting" lines go (a terminal rewrites them in place), else `progress`; `width`:
        the screen's, which the step rows fit."""
        self.lang = lang
        self.ctx = ctx
        self.settings = settings
        self.tok = tokenizer
        self.plan: Plan = make_plan(ctx, first=False)
        needs_tls = self.plan.base_url.startswith("https:") or proxy_for(self.plan.base_url, ctx.env) is not None
        self.client = client or make_client(ctx.env, tls=needs_tls)
        # Progress lines reach the terminal before any report exists: the same cleaning as a report's strings.
        self.progress: Callable[[str], None] = (
            (lambda line: progress(sanitize(ctx.redactor(line)))) if progress else (lambda _line: None)
        )
        self.waiting: Callable[[str], None] = (
            (lambda line: waiting(sanitize(ctx.redactor(line)))) if waiting else self.progress
        )
        self.width = width
        self.header_said = False
        self.conversation = Conversation(tokenizer)
        self.clock = clock
        self.total = total or Deadline(settings.total_timeout_s, clock)
        self.steps: list[Step] = []
        self.spent = 0
        self.resent = 0  # single questions re-sent after a rate limit, as Codex re-sends them
        self.in_flight = 0  # the tokens of the request on the wire now (a Ctrl-C cuts it short; it is paid for)
        self.stopped: str | None = None
        self.single_tokens = tokenizer.count(CANARY_INSTRUCTIONS) + tokenizer.count(CANARY_PROMPT) + 3
        assumed, _ = assumed_window(ctx)
        self.published = published if not settings.max_context else None
        if self.published:
            self.sizes = published_schedule(settings, self.published)
        else:
            self.sizes = schedule(settings.start, settings.max_context or int(assumed * 1.1))
        self.max_context = self.sizes[-1]
        # The prefix-cache step fits the window found: a quarter of it at most, skipped when that is too small.
        prefix = (
            min(settings.cache_prefix_tokens, self.published // 4) if self.published else settings.cache_prefix_tokens
        )
        self.cache_tokens = prefix if settings.cache_step and prefix >= MIN_CACHE_PREFIX else 0
        self.fitted = False
        if not self.published and not settings.max_context:
            self._fit_to_budget()
        # The plan's "at most" (review 1, point 12: 23 were sent against "at most 22"): never passed.
        self.max_requests = self.estimate()[0]
        self.in_flight_step: tuple[str, int | None] | None = None  # the phase and target of the request on the wire

    def _fit_to_budget(self) -> None:
        """Nobody says how large the window is: search as far as the budget allows rather than refuse to start.

        The window Codex assumes (272K) would take millions of tokens to probe; the largest size whose worst case
        fits --budget is probed instead, and a break beyond it is reported as "no break up to N tokens"."""
        if self.estimate()[1] <= self.settings.budget:
            return
        low, high = self.settings.start * 2, self.max_context
        while high - low > self.settings.min_precision_tokens:
            mid = (low + high) // 2
            if (
                estimate(self.settings, mid, self.single_tokens, schedule(self.settings.start, mid), self.cache_tokens)[
                    1
                ]
                <= self.settings.budget
            ):
                low = mid
            else:
                high = mid
        sizes = schedule(self.settings.start, low)
        if estimate(self.settings, low, self.single_tokens, sizes, self.cache_tokens)[1] <= self.settings.budget:
            self.sizes, self.max_context, self.fitted = sizes, low, True

    def estimate(self) -> tuple[int, int]:
        return estimate(
            self.settings, self.max_context, self.single_tokens, self.sizes, self.cache_tokens, self.published
        )

    def requests_sent(self) -> int:
        """Every request on the wire so far: the steps, the single questions re-sent after a rate limit, and the one
        being sent now."""
        return len(self.steps) + self.resent + (1 if self.in_flight else 0)

    # ---- requests ---------------------------------------------------------------------------------
    def _body(self, items: list[dict[str, Any]] | None) -> dict[str, Any]:
        if items is None:
            body = canary_body(self.plan.wire, self.plan.model)
        elif self.plan.wire == "chat":
            body = {
                "model": self.plan.model,
                "messages": as_chat_messages(items),
                "stream": True,
                "max_tokens": self.settings.max_output_tokens,
            }
        else:
            body = {
                "model": self.plan.model,
                "instructions": INSTRUCTIONS,
                "input": items,
                "stream": True,
                "store": False,
                "max_output_tokens": self.settings.max_output_tokens,
            }
        if self.plan.wire != "chat":
            body["max_output_tokens"] = self.settings.max_output_tokens
        return body

    def _affordable(self, tokens: int) -> bool:
        if self.total.expired:
            self.stopped = self.stopped or "deadline"
            return False
        if self.spent + tokens > self.settings.budget:
            self.stopped = self.stopped or "budget"
            return False
        if self.requests_sent() >= self.max_requests:  # only after rate limits took requests of the plan
            self.stopped = self.stopped or "requests"
            return False
        return True

    @contextlib.contextmanager
    def _still_waiting(self, number: int, sent: int) -> Iterator[None]:
        """A line at least every STILL_WAITING_EVERY seconds while one request waits (issue 29: in a pipe, a hanging
        provider left the probe silent for 30 s per request)."""
        done = threading.Event()
        started = self.clock()

        def tick() -> None:
            while not done.wait(STILL_WAITING_EVERY):
                waited = self.clock() - started
                self.waiting(progress_lines.waiting(number, sent, waited, self.lang))

        thread = threading.Thread(target=tick, name="codexdoctor-probe-waiting", daemon=True)
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join(timeout=1)

    def request(
        self, phase: str, target: int | None, items_sent: tuple[list[dict[str, Any]], int] | None = None
    ) -> tuple[Step, Exchange] | None:
        """Send one probe request, or None when the budget or deadline forbids it."""
        if items_sent is not None:
            items, sent = items_sent
        elif target is None:
            items, sent = None, self.single_tokens
        else:
            items, sent = self.conversation.build(target)
        if not self._affordable(sent):
            return None
        self.spent += sent
        self.in_flight = sent
        self.in_flight_step = (phase, target)
        ex = self._send(items, sent)
        self.in_flight = 0
        self.in_flight_step = None
        step = self._step(phase, target, sent, ex)
        self.steps.append(step)
        self._say(step)
        return step, ex

    def _send(self, items: list[dict[str, Any]] | None, sent: int) -> Exchange:
        """POST the conversation (None: the single question), under what is left of the deadline, saying so while
        it waits."""
        path = "/chat/completions" if self.plan.wire == "chat" else "/responses"
        url = with_query(self.plan.base_url + path, self.plan.query)
        headers = {**self.plan.headers, "Accept": "text/event-stream"}
        deadline = Deadline(min(self.settings.request_timeout_s, max(0.1, self.total.remaining())), self.clock)
        idle = min(self.plan.idle_s, self.settings.request_timeout_s)

        def resend_ok() -> bool:
            # A same-origin redirect sends the whole body again: it counts, and it must fit the budget first.
            if not self._affordable(sent):
                return False
            self.spent += sent
            return True

        with self._still_waiting(len(self.steps) + 1, sent):
            ex = send(
                self.client,
                "POST",
                url,
                headers=headers,
                deadline=deadline,
                redact=self.ctx.redactor,
                json_body=self._body(items),
                stream=True,
                idle_s=idle,
                resend_ok=resend_ok,
                # The single question is check's canary (issue 40): a 429 or a rate_limit_exceeded stream is waited
                # out and re-sent as Codex does (stream_max_retries), so its row and verdict read as check's. The
                # session's steps are not: a rate limit there is reported, never re-sent at the budget's cost.
                # Within the plan's count: a re-send is a request too.
                rate_limit_retries=(
                    max(0, min(self.plan.stream_retries, self.max_requests - self.requests_sent()))
                    if items is None
                    else None
                ),
            )
        if items is None:  # each re-sent single question counts, in tokens and in requests
            self.spent += sent * len(ex.earlier)
            self.resent += len(ex.earlier)
        return ex

    def _step(self, phase: str, target: int | None, sent: int, ex: Exchange) -> Step:
        """What one request's answer says; a session the provider counted well short of what was sent is truncated."""
        kind = classify(ex, self.plan.wire)
        s = ex.stream
        # The provider's own count (Responses or Chat usage); a count that is no integer ("12", true) is none.
        usage = s.usage if s is not None else None
        reported = outside.integer(usage, "input_tokens")
        reported = reported if reported is not None else outside.integer(usage, "prompt_tokens")
        ok, k, detail = kind.kind == "ok", kind.kind, kind.detail or kind.message
        said = kind.said if kind.detail else None
        if k == "rate_limited" and ex.status == 200:
            k = "stream_rate_limited"  # a response.failed rate_limit_exceeded, not a 429 (issue 40)
        if (
            ok
            and reported is not None
            and target is not None
            and reported < sent * self.settings.truncation_share
            and sent - reported >= self.settings.min_precision_tokens
        ):
            said = Msg(
                "provider counted {reported} input tokens of {sent} sent",
                "提供方只统计到发送的 {sent} 个 token 中的 {reported} 个输入 token",
                reported=reported,
                sent=sent,
            )
            ok, k, detail = False, "truncated", str(said)
        return Step(
            phase,
            target or sent,
            sent,
            ok,
            k,
            detail,
            ex.status,
            s.first_token_ms if s else None,
            ex.elapsed_ms,
            s.max_gap_after_token_ms if s else None,
            reported,
            str(ex.line()),  # a fact (turn-two words are matched in it): the English
            said,
        )

    def _say(self, step: Step) -> None:
        """One progress row per step under a header said once, its columns lined up in cells (checks/probe/progress)."""
        from codexdoctor.i18n import table_word

        if not self.header_said:
            self.header_said = True
            self.progress(progress_lines.header(self.lang))
        result = table_word("ok" if step.ok else step.kind, self.lang, step.detail_in(self.lang))
        phase = table_word(step.phase, self.lang)
        row = progress_lines.row(phase, step.sent, step.ttft_ms, self.spent, result, self.lang, self.width)
        for line in row.split("\n"):
            self.progress(line)

    # ---- the search ---------------------------------------------------------------------------------
    def run(self) -> ProbeOutcome:
        """The whole search; Ctrl-C stops it where it is and what was learned so far is still reported."""
        requests, tokens = self.estimate()
        self._found: dict[str, Any] = {
            "single_ex": None,
            "cache": None,
            "last_ok": None,
            "first_fail": None,
            "stable": None,
        }
        try:
            self._search()
        except KeyboardInterrupt:
            self.stopped = "interrupted"
            self._cut_short()
            self._say_interrupted()
        f = self._found
        return ProbeOutcome(
            tuple(self.steps),
            f["single_ex"],
            f["last_ok"],
            f["first_fail"],
            f["stable"],
            self.stopped,
            self.spent,
            tokens,
            requests,
            self.max_context,
            self.tok.name,
            self.tok.exact,
            f["cache"],
            self.published,
            resent=self.resent,
        )

    def _cut_short(self) -> None:
        """The request Ctrl-C interrupted was sent and is paid for: it is listed as a step of its own (review 1,
        point 14: "after 8 requests" above a table of 7), answered by nothing."""
        if not self.in_flight or self.in_flight_step is None:
            return
        phase, target = self.in_flight_step
        sent = self.in_flight
        self.steps.append(Step(phase, target or sent, sent, False, INTERRUPTED, "", None, None, 0.0, None, None, ""))
        self.in_flight, self.in_flight_step = 0, None

    def _say_interrupted(self) -> None:
        """Issue 40: after Ctrl-C the probe said nothing of what it had spent until the report. One line at once,
        counting the request that was cut short (it was sent, so the provider may bill it)."""
        n = self.requests_sent()
        if self.lang == "zh":
            self.progress(
                f"Ctrl-C：探测已停止；已发送 {n} 个请求，共消耗 {self.spent:,} 个输入 token。下面是已测得的部分结果。"
            )
        else:
            self.progress(
                f"Ctrl-C: the probe stopped after {n} requests; {self.spent:,} input tokens spent so far. "
                "The partial result follows."
            )

    def _search(self) -> None:
        found = self._found
        singles: list[tuple[bool, Exchange]] = []
        for _ in range(self.settings.singles):
            got = self.request("single", None)
            if got is None:
                break
            singles.append((got[0].ok, got[1]))
            # The evidence for the single question: its first failure if any, else its first answer. Kept at every
            # step (issue 40): a Ctrl-C during the next one still leaves the answer the canary's row reads.
            found["single_ex"] = next((ex for ok, ex in singles if not ok), singles[0][1])
            if got[0].kind in ("rate_limited", "stream_rate_limited"):
                break  # already waited out and re-sent as Codex would: asking again only adds to the limit
        single_ok = sum(ok for ok, _ in singles)
        if single_ok > 0 and self.cache_tokens:
            found["cache"] = self._cache_step()
        if single_ok > 0:
            self._grow()
            last_ok, first_fail = found["last_ok"], found["first_fail"]
            if first_fail is not None and last_ok is not None:
                self._bisect(last_ok, first_fail)
                found["stable"] = self._repeat(found["last_ok"], found["first_fail"])
            elif first_fail is not None:
                found["stable"] = self._repeat(None, first_fail)

    def _cache_step(self) -> dict[str, Any] | None:
        """Same ~4K prefix twice with different endings, then once with its first character changed."""
        items, _ = self.conversation.build(self.cache_tokens)
        prefix = items[:-1]

        def variant(ending: str, change_first: bool = False) -> tuple[list[dict[str, Any]], int]:
            body = [dict(i) for i in prefix]
            if change_first and body:
                text = body[0]["content"][0]["text"]
                body[0] = {**body[0], "content": [{**body[0]["content"][0], "text": "#" + text[1:]}]}
            tail = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": ending}]}
            return body + [tail], self.conversation.count_items(body + [tail])

        runs = {}
        for name, args in (
            ("first", ("Answer question A briefly.",)),
            ("repeat", ("Answer question B briefly.",)),
            ("changed_start", ("Answer question C briefly.", True)),
        ):
            got = self.request("cache", None, variant(*args))
            if got is None:
                return None
            step, ex = got
            usage = ex.stream.usage if ex.stream else None
            details = outside.obj(usage, "input_tokens_details") or outside.obj(usage, "prompt_tokens_details")
            runs[name] = {
                "ok": step.ok,
                "sent": step.sent,
                "ttft_ms": step.ttft_ms,
                "cached": outside.integer(details, "cached_tokens"),
            }
        return summarise_cache(runs)

    def _grow(self, sizes: list[int] | None = None) -> None:
        """Larger and larger sessions until one fails; what is known is kept in `_found` at every step."""
        for size in self.sizes if sizes is None else sizes:
            got = self.request("grow", size)
            if got is None:
                return
            step, _ = got
            if not step.ok:
                self._found["first_fail"] = step.sent
                if self.published and sizes is None and self._found["last_ok"] is None:
                    # Even half the published window fails: the provider's number is wrong; search below it.
                    self._grow(schedule(self.settings.start, step.sent)[:-1])
                return
            self._found["last_ok"] = step.sent

    def _tolerance(self, low: int) -> float:
        return max(self.settings.min_precision_tokens, self.settings.precision * low)

    def _bisect(self, low: int, high: int) -> None:
        while high - low > self._tolerance(low):
            if self.requests_sent() + 1 + 2 * self.settings.repeat > self.max_requests:
                break  # the repeats after it are planned too: the break stays a little less narrowed instead
            mid = (low + high) // 2
            got = self.request("bisect", mid)
            if got is None:
                break
            step, _ = got
            if step.sent <= low or step.sent >= high:
                break  # the filler cannot make a request strictly between them
            if step.ok:
                low = self._found["last_ok"] = step.sent
            else:
                high = self._found["first_fail"] = step.sent

    def _repeat(self, low: int | None, high: int) -> bool | None:
        below, above = [], []
        for _ in range(self.settings.repeat):
            if low is not None:
                got = self.request("below", low)
                if got is None:
                    break
                below.append(got[0].ok)
            got = self.request("above", high)
            if got is None:
                break
            # A 502 or a reset above the break says nothing about the window (issue 28): only answers and context
            # errors count for stability; the channel failures are reported on their own (CTX030).
            if got[0].ok or got[0].kind in CONTEXT_KINDS:
                above.append(not got[0].ok)
        if not above:
            return None
        return all(below) and all(above)


def summarise_cache(runs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """works / not working / not reported, from cached_tokens (timings are shown alongside, not decisive)."""
    first, repeat, changed = runs["first"], runs["repeat"], runs["changed_start"]
    out: dict[str, Any] = {"runs": runs, "verdict": "failed"}
    if not (first["ok"] and repeat["ok"] and changed["ok"]):
        return out
    if repeat["cached"] is None:
        out["verdict"] = "not reported"
    elif repeat["cached"] >= 0.5 * repeat["sent"] and (changed["cached"] or 0) < 0.25 * changed["sent"]:
        out["verdict"] = "works"
    elif repeat["cached"] >= 0.5 * repeat["sent"]:
        out["verdict"] = "works"  # also matched the changed start: a looser cache, still reused
    else:
        out["verdict"] = "not working"
    if first["ttft_ms"] and repeat["ttft_ms"]:
        out["ttft_ratio"] = round(repeat["ttft_ms"] / first["ttft_ms"], 2)
    return out


def identify_family(probe: Probe) -> str | None:
    """The server software behind the provider, from its model list (no tokens spent), when it says so."""
    try:
        ex = send(
            probe.client,
            "GET",
            with_query(probe.plan.base_url + "/models", probe.plan.query),
            headers=probe.plan.headers,
            deadline=Deadline(min(5.0, probe.total.remaining())),
            redact=probe.ctx.redactor,
        )
    except Exception:
        return None
    for entry in (outside.items(ex.body_json, "data") if ex.ok else None) or ():
        if not isinstance(entry, Mapping):
            continue
        owner = (outside.text(entry, "owned_by") or "").lower()
        if owner == "vllm" or "max_model_len" in entry:
            return "vllm"
        if owner == "llamacpp" or "n_ctx_train" in (outside.obj(entry, "meta") or {}):
            return "llama.cpp"
        if owner in ("library", "ollama"):
            return "ollama"
    return None
