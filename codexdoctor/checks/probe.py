"""`codexdoctor probe`: single question vs a growing session, breakpoint search, stability, three stages.

The seed guide's manual method, measured: ask one short question in a fresh
session; then grow a session (every request resends the whole conversation,
as Codex does) on a geometric schedule until it breaks; bisect to ±2%; repeat
just below and just above the break. Stable → context; single question fails
or the break wanders → channel. Every request is counted against an
announced token budget and the probe stops at it.
"""

from __future__ import annotations

import contextlib
import math
import statistics
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
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
from codexdoctor.codex.sizes import CODEX_FIRST_REQUEST_TOKENS, window_settings
from codexdoctor.common import outside_json as outside
from codexdoctor.common.tokens import Tokenizer
from codexdoctor.common.untrusted import sanitize
from codexdoctor.common.words import pad_cells
from codexdoctor.model import CheckResult, Section, Status
from codexdoctor.net.classify import classify, turn_two_item
from codexdoctor.net.transport import Deadline, Exchange, make_client, proxy_for, send

CONTEXT_KINDS = ("context_exceeded", "truncated", "stream_incomplete")
STILL_WAITING_EVERY = 5.0  # seconds between "still waiting" lines while one probe request waits


@dataclass(frozen=True)
class ProbeSettings:
    """How far and how carefully the probe may search: the ceiling, the repeats and the token budget it announces."""

    max_context: int | None = None  # None: the window Codex assumes x 1.1
    repeat: int = 3
    budget: int = 300_000  # input tokens, all requests together
    singles: int = 3
    start: int = 1024
    precision: float = 0.02
    min_precision_tokens: int = 256
    stall_threshold_s: float = 2.0
    request_timeout_s: float = 120.0
    total_timeout_s: float = 1800.0
    turn_tokens: int = 2000  # a typical Codex turn (prompt, tool output, answer), for "new session every K turns"
    max_output_tokens: int = 16
    truncation_share: float = 0.9  # reported input below this share of what was sent = silent truncation
    cache_step: bool = True
    cache_prefix_tokens: int = 4096


@dataclass(frozen=True)
class Step:
    """One request of the probe and what came back."""

    phase: str  # single | grow | bisect | below | above
    target: int
    sent: int
    ok: bool
    kind: str
    detail: str
    status: int | None
    ttft_ms: float | None
    total_ms: float
    max_gap_ms: float | None  # longest silence after the first token (stage 2)
    reported_input: int | None
    line: str


@dataclass(frozen=True)
class ProbeOutcome:
    """What the probe learned: every step it took and the bracket the window lies in."""

    steps: tuple[Step, ...]
    single_exchange: Exchange | None
    last_ok: int | None  # largest context that worked (tokens sent)
    first_fail: int | None  # smallest context that failed
    stable: bool | None  # None when no boundary was found
    stopped: str | None  # "budget" | "deadline" | None
    spent: int
    estimate_tokens: int
    estimate_requests: int
    max_context: int
    tokenizer: str
    exact_tokens: bool
    cache: dict[str, Any] | None = None
    published: int | None = None  # the window the provider publishes, when the plan was built on it


def tolerance(settings: ProbeSettings, max_context: int) -> float:
    """How close the break is located: the bisection stops when low and high are this near."""
    return max(settings.min_precision_tokens, settings.precision * max_context / 2)


def published_schedule(settings: ProbeSettings, window: int) -> list[int]:
    """The provider says how large its window is: check half of it, then just below and just above it.

    The two edges are one tolerance apart, so a break where the provider says needs no bisection, and the
    plan of a 32K window fits the default budget (a doubling search from 1K would not)."""
    edge = max(1, int(tolerance(settings, window) / 2))
    return [window // 2, window - edge, window + edge]


def schedule(start: int, max_context: int) -> list[int]:
    sizes, n = [], start
    while n < max_context:
        sizes.append(n)
        n *= 2
    sizes.append(max_context)
    return sizes


def estimate(
    settings: ProbeSettings,
    max_context: int,
    single_tokens: int,
    sizes: list[int] | None = None,
    cache_tokens: int | None = None,
) -> tuple[int, int]:
    """Worst case (the break just below the largest size): requests and input tokens, before anything is sent."""
    sizes = sizes or schedule(settings.start, max_context)
    max_context = sizes[-1]
    gap = max_context - (sizes[-2] if len(sizes) > 1 else 0)
    bisections = max(0, math.ceil(math.log2(max(1.0, gap / tolerance(settings, max_context)))))
    requests = settings.singles + len(sizes) + bisections + 2 * settings.repeat
    tokens = settings.singles * single_tokens + sum(sizes) + (bisections + 2 * settings.repeat) * max_context
    cache_tokens = settings.cache_prefix_tokens if cache_tokens is None else cache_tokens
    if settings.cache_step and cache_tokens:
        requests += 3
        tokens += 3 * (cache_tokens + 64)
    return requests, tokens


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
    ) -> None:
        """`total`: the command's whole clock when it started before the probe (the window lookups spend it too)."""
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
        self.conversation = Conversation(tokenizer)
        self.clock = clock
        self.total = total or Deadline(settings.total_timeout_s, clock)
        self.steps: list[Step] = []
        self.spent = 0
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
            settings.cache_prefix_tokens
            if not self.published
            else min(settings.cache_prefix_tokens, self.published // 4)
        )
        self.cache_tokens = prefix if settings.cache_step and prefix >= MIN_CACHE_PREFIX else 0
        self.fitted = False
        if not self.published and not settings.max_context:
            self._fit_to_budget()

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
        return estimate(self.settings, self.max_context, self.single_tokens, self.sizes, self.cache_tokens)

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
                self.progress(
                    f"  … step {number} ({sent:,} tokens) still waiting: {waited:.0f} s"
                    if self.lang != "zh"
                    else f"  … 第 {number} 步（{sent:,} tokens）仍在等待：{waited:.0f} 秒"
                )

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
            )
        kind = classify(ex, self.plan.wire)
        s = ex.stream
        # The provider's own count (Responses or Chat usage); a count that is no integer ("12", true) is none.
        usage = s.usage if s is not None else None
        reported = outside.integer(usage, "input_tokens")
        reported = reported if reported is not None else outside.integer(usage, "prompt_tokens")
        ok, k, detail = kind.kind == "ok", kind.kind, kind.detail or kind.message
        if (
            ok
            and reported is not None
            and target is not None
            and reported < sent * self.settings.truncation_share
            and sent - reported >= self.settings.min_precision_tokens
        ):
            ok, k, detail = False, "truncated", f"provider counted {reported} input tokens of {sent} sent"
        step = Step(
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
            ex.line(),
        )
        self.steps.append(step)
        ttft = f"{step.ttft_ms:.0f} ms" if step.ttft_ms is not None else "-"
        from codexdoctor.i18n import table_word

        result = table_word("ok" if ok else k, self.lang, detail)
        if self.lang == "zh":
            self.progress(
                f"  {pad_cells(table_word(phase, 'zh'), 10)} {sent:>8,} tokens -> {pad_cells(result, 16)} "
                f"首字 {ttft:>8}（已用 {self.spent:,}/{self.settings.budget:,}）"
            )
        else:
            self.progress(
                f"  {table_word(phase, 'en'):15} {sent:>8,} tokens -> {result:24} first token {ttft:>8}   "
                f"(spent {self.spent:,}/{self.settings.budget:,})"
            )
        return step, ex

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
        )

    def _search(self) -> None:
        found = self._found
        singles: list[tuple[bool, Exchange]] = []
        for _ in range(self.settings.singles):
            got = self.request("single", None)
            if got is None:
                break
            singles.append((got[0].ok, got[1]))
        single_ok = sum(ok for ok, _ in singles)
        # The evidence for the single question: its first failure if any, else its first answer.
        if singles:
            found["single_ex"] = next((ex for ok, ex in singles if not ok), singles[0][1])
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


# ---- reading the steps --------------------------------------------------------------------------------
def linear_slope(points: list[tuple[int, float]]) -> float | None:
    """Least-squares slope of time to first token, in ms per 1000 tokens."""
    if len(points) < 2:
        return None
    xs = [p[0] / 1000 for p in points]
    ys = [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    var = sum((x - mx) ** 2 for x in xs)
    if var == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / var


def analyse(outcome: ProbeOutcome, settings: ProbeSettings) -> dict[str, Any]:
    """Facts for the CTX rules: stages, boundary, stability, the usable window and what to do about it."""
    singles = [s for s in outcome.steps if s.phase == "single"]
    singles_ok = [s for s in singles if s.ok]
    session = [s for s in outcome.steps if s.phase not in ("single", "cache")]
    baseline = (
        statistics.median([s.ttft_ms for s in singles_ok if s.ttft_ms is not None])
        if singles_ok and any(s.ttft_ms is not None for s in singles_ok)
        else None
    )
    points = [(s.sent, s.ttft_ms) for s in session if s.ok and s.ttft_ms is not None]
    slope = linear_slope(points)
    largest = max(points, default=None)
    ratio = (largest[1] / baseline) if largest and baseline and baseline > 0 else None
    stalls = [
        s for s in outcome.steps if s.max_gap_ms is not None and s.max_gap_ms >= settings.stall_threshold_s * 1000
    ]
    failures = [s for s in session if not s.ok]
    kinds = sorted({s.kind for s in failures})
    # Channel failures at or above the break (502, reset, timeout): evidence about the channel, never the window.
    floor = outcome.last_ok or 0
    channel_above = [s for s in failures if s.kind not in CONTEXT_KINDS and s.sent > floor]
    truncated = [s for s in session if s.kind == "truncated"]
    usable = outcome.last_ok
    # The provider's own count of the largest request that worked wins over ours (issue 31): its tokenizer and
    # template are the ones its window, and Codex's token_count, are measured in.
    counted = next(
        (
            s.reported_input
            for s in reversed(session)
            if s.ok and s.sent == outcome.last_ok and isinstance(s.reported_input, int) and s.reported_input > 0
        ),
        None,
    )
    if usable and counted:
        usable = counted
    facts: dict[str, Any] = {
        "singles": len(singles),
        "singles_ok": len(singles_ok),
        "baseline_ttft_ms": baseline,
        "single_kinds": sorted({s.kind for s in singles if not s.ok}),
        "slope_ms_per_1k": round(slope, 1) if slope is not None else None,
        "largest_ok": largest[0] if largest else None,
        "largest_ttft_ms": largest[1] if largest else None,
        "ttft_ratio": round(ratio, 1) if ratio is not None else None,
        # Growth means the trend rises too: one slow request at the largest size after faster ones is not growth.
        "stage1": bool(
            ratio
            and ratio >= 2.5
            and largest
            and baseline is not None
            and largest[1] - baseline >= 300
            and slope is not None
            and slope > 0
        ),
        "stall_count": len(stalls),
        "longest_stall_ms": max((s.max_gap_ms or 0 for s in stalls), default=0),
        "stall_threshold_s": settings.stall_threshold_s,
        "stage2": bool(stalls),
        "failure_kinds": kinds,
        "stage3": bool(failures),
        "context_kinds": [k for k in kinds if k in CONTEXT_KINDS],
        "channel_above": [{"sent": s.sent, "kind": s.kind, "status": s.status} for s in channel_above],
        "channel_above_kinds": sorted({s.kind for s in channel_above}),
        "published": outcome.published,
        "context_failure": any(k in CONTEXT_KINDS for k in kinds),
        "truncated": bool(truncated),
        "truncated_at": truncated[0].sent if truncated else None,
        "reported_at_truncation": truncated[0].reported_input if truncated else None,
        "last_ok": outcome.last_ok,
        "first_fail": outcome.first_fail,
        "stable": outcome.stable,
        "precision_tokens": (outcome.first_fail - outcome.last_ok) if outcome.last_ok and outcome.first_fail else None,
        "max_context": outcome.max_context,
        "no_break": outcome.first_fail is None and outcome.stopped is None and bool(singles_ok),
        "stopped": outcome.stopped,
        "spent": outcome.spent,
        "budget": settings.budget,
        "estimate_tokens": outcome.estimate_tokens,
        "estimate_requests": outcome.estimate_requests,
        "requests": len(outcome.steps),
        "tokenizer": outcome.tokenizer,
        "exact_tokens": outcome.exact_tokens,
        "usable": usable,
        "usable_counted_by": "provider" if counted else "estimate",
        "turn_tokens": settings.turn_tokens,
        "cache": outcome.cache,
        "cache_verdict": (outcome.cache or {}).get("verdict"),
    }
    # Issue 31: the session's turns carry Codex's tool items. A failure that names one of them, while single questions
    # pass, is the gateway refusing those items at any size: the channel, not a window, whatever the sizes say.
    item_fault = next(
        (
            (s, item)
            for s in failures
            if (item := turn_two_item(f"{s.detail} {s.line}", broad=True)) and s.kind not in CONTEXT_KINDS
        ),
        None,
    )
    if item_fault is not None and singles_ok:
        step, item = item_fault
        facts.update(
            item_fault={
                "item": item,
                "sent": step.sent,
                "status": step.status,
                "detail": step.detail,
                "line": step.line,
            },
            stable=None,
            context_failure=False,
        )
        return facts
    reached_published = bool(outcome.published and outcome.max_context >= outcome.published)
    if facts["no_break"] and not reached_published:
        # Issue 28: "no break up to N" where N is where the budget or --max-context ended is not "OK": the window is
        # at least N, and whether Codex's sessions fit is unknown. Say so, with the command that goes further.
        further = outcome.max_context * 2
        needed = estimate(settings, further, 100)[1]
        facts["further_cmd"] = (
            f"codexdoctor probe --max-context {further} --budget {max(settings.budget, -(-needed // 10000) * 10000)}"
        )
        facts["inconclusive_reason"] = (
            f"no break up to {outcome.max_context:,} tokens, where this probe's range "
            f"ended: the window is at least that, and the break lies beyond it"
        )
    if usable and (outcome.first_fail is not None or facts["no_break"]):  # a partial run proves no window yet
        # Measured, not published: the largest request that worked, turned into settings as every command does.
        facts["suggest_window"], facts["suggest_compact"] = window_settings(usable)
        room = int(usable * 0.7) - CODEX_FIRST_REQUEST_TOKENS
        facts["turns_per_session"] = max(0, room // settings.turn_tokens)
    return facts


def probe_result(facts: Mapping[str, Any]) -> CheckResult:
    """The probe's facts as the ctx.probe check result the CTX rules read."""
    if facts.get("stable") is not None or facts.get("truncated") or 0 < facts["singles_ok"] < facts["singles"]:
        status = Status.FAIL
    elif facts.get("stage1") or facts.get("stage2") or facts.get("stopped") or facts.get("inconclusive_reason"):
        status = Status.WARN
    elif facts["singles_ok"] == 0:
        status = Status.SKIP
    else:
        status = Status.PASS
    if facts.get("last_ok") and facts.get("first_fail"):
        summary = f"breaks between {facts['last_ok']:,} and {facts['first_fail']:,} tokens" + (
            " (stable)" if facts.get("stable") else " (unstable)" if facts.get("stable") is False else ""
        )
    elif facts["singles_ok"] == 0:
        summary = "single question failed; session not probed"
    elif facts.get("no_break"):
        summary = f"no break up to {facts['max_context']:,} tokens"
    else:
        summary = (
            "stopped by Ctrl-C" if facts.get("stopped") == "interrupted" else f"stopped at the {facts.get('stopped')}"
        )
    evidence = [
        f"{facts['singles_ok']}/{facts['singles']} single questions ok, median first token "
        f"{facts['baseline_ttft_ms']} ms"
        if facts.get("baseline_ttft_ms") is not None
        else f"{facts['singles_ok']}/{facts['singles']} single questions ok",
        f"{facts['requests']} requests, {facts['spent']:,} input tokens (budget {facts['budget']:,})",
    ]
    if facts.get("slope_ms_per_1k") is not None:
        evidence.append(
            f"first-token slope {facts['slope_ms_per_1k']} ms per 1K tokens; ratio {facts.get('ttft_ratio')}x"
        )
    return CheckResult("ctx.probe", "Session probe", status, summary, facts, tuple(evidence))


def steps_section(outcome: ProbeOutcome, lang: str = "en") -> Section:
    from codexdoctor.i18n import table_word

    zh = lang == "zh"
    rows = []
    for i, s in enumerate(outcome.steps, 1):
        rows.append(
            (
                i,
                table_word(s.phase, lang),
                f"{s.sent:,}",
                "-" if s.ttft_ms is None else f"{s.ttft_ms:,.0f}",
                "-" if s.max_gap_ms is None else f"{s.max_gap_ms:,.0f}",
                table_word("ok" if s.ok else s.kind, lang, s.detail),
            )
        )
    points = tuple((float(s.sent), float(s.ttft_ms)) for s in outcome.steps if s.ok and s.ttft_ms is not None)
    headers = (
        ("#", "阶段", "发送的 tokens", "首字 ms", "最长停顿 ms", "结果")
        if zh
        else ("#", "phase", "tokens sent", "first token ms", "longest gap ms", "result")
    )
    return Section(
        "probe.steps",
        "会话探测步骤" if zh else "Session probe steps",
        headers,
        tuple(rows),
        points,
        "发送的 tokens" if zh else "tokens sent",
        "首字延迟（ms）" if zh else "time to first token (ms)",
    )


def summary_section(facts: Mapping[str, Any], lang: str = "en") -> list[Section]:
    zh = lang == "zh"

    def t(en: str, cn: str) -> str:
        return cn if zh else en

    lines = []
    if facts.get("last_ok") and facts.get("first_fail"):
        low, high = facts["last_ok"], facts["first_fail"]
        spread = (high - low) / low * 100
        lines.append(
            t(
                f"Usable window: about {low:,} tokens (break between {low:,} and {high:,}, within {spread:.1f}%)",
                f"可用窗口：约 {low:,} tokens（断点在 {low:,} 到 {high:,} 之间，误差 {spread:.1f}% 以内）",
            )
        )
        stable = facts.get("stable")
        lines.append(
            t("Breakpoint: ", "断点：")
            + (
                t("stable", "稳定")
                if stable
                else t("unstable", "不稳定")
                if stable is False
                else t("not confirmed", "未确认")
            )
        )
    elif facts.get("no_break"):
        lines.append(
            t(
                f"Usable window: at least {facts['max_context']:,} tokens (no break found)",
                f"可用窗口：至少 {facts['max_context']:,} tokens（未发现断点）",
            )
        )
    stages = [
        name
        for name, key in (
            (t("1 latency grows", "第 1 阶段（首字延迟增长）"), "stage1"),
            (t("2 mid-stream stalls", "第 2 阶段（回答中途停顿）"), "stage2"),
            (t("3 failure", "第 3 阶段（请求失败）"), "stage3"),
        )
        if facts.get(key)
    ]
    lines.append(t("Stages seen: ", "出现的阶段：") + ((t(", ", "、")).join(stages) if stages else t("none", "无")))
    cache = facts.get("cache")
    if cache:
        runs = cache["runs"]

        def shown(v: object) -> str:
            return f"{v}" if v is not None else t("not reported", "未报告")

        verdict = {
            "works": t("works", "有效"),
            "not working": t("not working", "无效"),
            "not reported": t("not reported", "未报告"),
            "failed": t("failed", "失败"),
        }[cache["verdict"]]
        ttfts = " / ".join(f"{runs[k]['ttft_ms'] or 0:.0f}" for k in ("first", "repeat", "changed_start"))
        lines.append(
            t(
                f"Prefix cache: {verdict} (cached tokens: repeated prefix {shown(runs['repeat']['cached'])}, "
                f"changed start {shown(runs['changed_start']['cached'])}; first token {ttfts} ms)",
                f"前缀缓存：{verdict}（缓存命中 token：重复前缀 {shown(runs['repeat']['cached'])}，"
                f"改动开头 {shown(runs['changed_start']['cached'])}；首字延迟 {ttfts} ms）",
            )
        )
    if facts.get("turns_per_session") is not None:
        turns, per = facts["turns_per_session"], f"{facts['turn_tokens']:,}"
        lines.append(
            t(
                f"Turns per session to stay under 70% of the window: {turns} "
                f"(at ~{per} tokens per turn on top of Codex's ~8,500-token first request)",
                f"保持在窗口 70% 以下的每会话轮数：{turns}（按每轮约 {per} tokens，加上 Codex 约 8,500 tokens 的首个请求）",
            )
        )
    return [Section("probe.summary", t("Measured", "测量结果"), lines=tuple(lines))]
