"""A recording as the `ctx.watch` check result the rule catalog reads, and the table and chart the report shows.

The facts are what the seed guide's three stages look at in a real session: first-output time against context size,
the longest silence inside a stream, and the failure with its kind, plus the provider's own error for the failures
Codex shows only as "exceeded retry limit" or "high demand".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from codexdoctor.common import outside_json as outside
from codexdoctor.common.redact import redact_url
from codexdoctor.common.untrusted import clip
from codexdoctor.model import CheckResult, Msg, Section, Status
from codexdoctor.net.classify import CONTEXT_MARKERS, classify, context_numbers, without_html
from codexdoctor.net.exchange import Exchange
from codexdoctor.net.kinds import FailureKind
from codexdoctor.watch.record import Recorded, after_tool_call, ending_word, message_of

STALL_MS = 20_000.0  # a silence this long inside a stream is a stall (Codex gives up at 300 s by default)
GROWTH_RATIO = 3.0  # first-output time this many times the first request's, at a larger context
GROWTH_MIN_MS = 2_000.0  # … and at least this long: a 3 ms -> 9 ms change is noise
MAX_LISTED = 200  # requests listed in the facts (the newest)
# Prefix-cache reuse (seed 003). OpenAI caches prompts of 1,024 tokens and more, in 128-token steps, and keeps a
# cached prefix for 5-10 minutes of inactivity: a shorter prompt, or a drop after a longer pause, proves nothing.
CACHE_MIN_INPUT = 1024
CACHE_NONE = 0.05  # a cached share below this is "nothing reused"
CACHE_HELD = 0.5  # ... and one of at least this, "the prefix was reused"
CACHE_IDLE_S = 300.0


def is_masked(rec: Recorded) -> bool:
    """A provider error Codex 0.171 does not show: any 429 body, any 5xx body (codex-facts §13), a standalone `error`
    event (ignored, then "stream closed before response.completed")."""
    return rec.error is not None and (rec.status == 429 or (rec.status or 0) >= 500 or rec.ending == "error_event")


def is_context(rec: Recorded) -> bool:
    low = f"{rec.error or ''} {rec.error_code or ''}".lower()
    return rec.ending in ("http_error", "failed", "error_event") and any(m in low for m in CONTEXT_MARKERS)


def _call(rec: Recorded) -> dict[str, Any]:
    return {
        "number": rec.number,
        "started": rec.started,
        "status": rec.status,
        "ending": rec.ending,
        "input_tokens": rec.input_tokens,
        "cached_tokens": rec.cached_tokens,
        "output_tokens": rec.output_tokens,
        "body_bytes": rec.body_bytes,
        "first_output_ms": rec.first_output_ms,
        "longest_gap_ms": rec.longest_gap_ms,
        "request_id": rec.request_id,
        "after_tool": after_tool_call(rec.input_kinds),
        "cached_share": rec.cached_share,
    }


def facts_of(
    requests: Sequence[Recorded],
    where: str,
    codex_exit: int | None,
    stall_ms: float = STALL_MS,
    user_config: str = "~/.codex/config.toml",
    upstream: str | None = None,
) -> dict[str, Any]:
    """`upstream`: the provider's base_url the recorder forwarded to (a request's URL is its origin and the path Codex
    called); None when it is not known (the URL is then the path alone)."""
    calls = [r for r in requests if r.is_model_call]
    ok = [r for r in calls if r.ok]
    facts: dict[str, Any] = {
        "where": where,
        "user_config": user_config,
        "requests": len(calls),
        "failed": sum(1 for r in calls if not r.ok),
        "codex_exit": codex_exit,
        "calls": [_call(r) for r in calls[-MAX_LISTED:]],
        "stall_threshold_ms": stall_ms,
        "largest_ok": max((r.input_tokens or 0 for r in ok), default=0) or None,
    }
    masked = [r for r in calls if is_masked(r)]
    facts["masked"] = [
        {
            "number": r.number,
            "status": r.status,
            "ending": r.ending,
            "message": message_of(r),
            "request_id": r.request_id,
        }
        for r in masked[-5:]
    ]
    stalls = [r for r in calls if r.longest_gap_ms is not None and r.longest_gap_ms >= stall_ms]
    worst = max(stalls, key=lambda r: r.longest_gap_ms or 0, default=None)
    facts["stall"] = (
        {
            "number": worst.number,
            "gap_ms": worst.longest_gap_ms,
            "input_tokens": worst.input_tokens,
            "count": len(stalls),
        }
        if worst
        else None
    )
    facts["key_rejected"] = _key_rejected(calls)
    facts["forbidden"] = _forbidden(calls, upstream)
    facts["context_break"] = _context_break(calls)
    facts["ttft_growth"] = _growth(ok)
    facts["tool_break"] = _tool_break(calls)
    facts["cache_reuse"] = _cache_reuse(calls)
    return facts


def _key_rejected(calls: Sequence[Recorded]) -> dict[str, Any] | None:
    """The newest request the provider answered 401 (the key refused), with how many were."""
    rejected = [r for r in calls if r.status == 401]
    if not rejected:
        return None
    r = rejected[-1]
    return {
        "number": r.number,
        "message": message_of(r) or "(empty body)",
        "request_id": r.request_id,
        "count": len(rejected),
    }


def request_url(upstream: str | None, path: str) -> str:
    """The URL a recorded request went to, redacted (no user-info, no secret in a query): base_url's origin and the
    path Codex called (which carries base_url's own path: Codex was given the recorder's address with it)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(redact_url(upstream or ""))
    except ValueError:
        return path
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return path
    return f"{parts.scheme}://{parts.netloc}{path}"


def _forbidden(calls: Sequence[Recorded], upstream: str | None) -> dict[str, Any] | None:
    """The newest request the provider answered 403, read as `check` reads one (net.classify): the key not allowed
    (`forbidden`), a firewall's or region's block (`blocked`), the account's quota or credits (`quota`, `payment`);
    with its URL, the provider's words and how many requests got one."""
    refused = [r for r in calls if r.status == 403]
    if not refused:
        return None
    r = refused[-1]
    text = r.error or ""
    body = outside.parse(text).value if text.lstrip().startswith(("{", "[")) else None
    kind = classify(
        Exchange("POST", request_url(upstream, r.path), 403, body_excerpt=text[:2000], body_json=body, sent_key=True)
    ).kind
    return {
        "number": r.number,
        "status": 403,
        "kind": FailureKind(kind).value,
        "url": request_url(upstream, r.path),
        "model": r.model,
        # A firewall's page said by its title, as `check` says it ([HTML page: Attention Required! | Cloudflare]).
        "message": (message_of(r) if body is not None else clip(" ".join(without_html(text).split()), 300))
        or "(empty body)",
        "request_id": r.request_id,
        "count": len(refused),
    }


def _context_break(calls: Sequence[Recorded]) -> dict[str, Any] | None:
    first = next((r for r in calls if is_context(r)), None)
    if first is None:
        return None
    before = [r.input_tokens or 0 for r in calls if r.ok and r.number < first.number]
    message = message_of(first)
    window, size = context_numbers(message)
    return {
        "number": first.number,
        "before_tokens": max(before, default=0) or None,
        "body_bytes": first.body_bytes,
        "message": message,
        "server_window": window,
        "server_request": size,
    }


def _growth(ok: Sequence[Recorded]) -> dict[str, Any] | None:
    """First-output time against context: the first answered request and the slowest larger one."""
    points = [(r.input_tokens, r.first_output_ms) for r in ok if r.input_tokens and r.first_output_ms is not None]
    if len(points) < 3:
        return None
    first_tokens, first_ms = points[0]
    larger = [(t, ms) for t, ms in points[1:] if t > first_tokens]
    if not larger:
        return None
    last_tokens, last_ms = max(larger, key=lambda p: p[1])
    ratio = last_ms / max(first_ms, 1.0)
    if ratio < GROWTH_RATIO or last_ms < GROWTH_MIN_MS:
        return None
    return {
        "first_tokens": first_tokens,
        "first_ms": first_ms,
        "last_tokens": last_tokens,
        "last_ms": last_ms,
        "ratio": round(ratio, 1),
    }


def _tool_break(calls: Sequence[Recorded]) -> dict[str, Any] | None:
    """The request after a tool call failed where requests without tool output were answered (issue 31's turn two)."""
    if not any(r.ok and not after_tool_call(r.input_kinds) for r in calls):
        return None
    failed = [r for r in calls if not r.ok and after_tool_call(r.input_kinds) and r.ending != "client_gone"]
    if not failed or any(r.ok and after_tool_call(r.input_kinds) for r in calls):
        return None
    r = failed[0]
    return {"number": r.number, "status": r.status, "ending": r.ending, "message": message_of(r) if r.error else ""}


def _seconds(stamp: str) -> float | None:
    from datetime import datetime

    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _idle_s(prev: Recorded, rec: Recorded) -> float:
    """Seconds between the end of one answer and the next request (0 when the times cannot be read)."""
    a, b = _seconds(prev.started), _seconds(rec.started)
    if a is None or b is None:
        return 0.0
    return max(0.0, b - a - (prev.total_ms or 0) / 1000)


def _cache_reuse(calls: Sequence[Recorded]) -> dict[str, Any] | None:
    """Is the stable prefix reused from request to request (seed 003)? Each answered request is compared with the
    answered request before it in the same Codex session (Codex resends the whole history, so the earlier request is
    a prefix of the later one): `dropped` when the cached share fell from CACHE_HELD or more to almost nothing while
    the context did not shrink (a compaction) and no long pause came between; `never` when the provider reports
    `cached_tokens` but served almost nothing from its cache on two or more requests that followed another, and
    never more. A provider that does not report `cached_tokens` at all is not judged."""
    answered = [r for r in calls if r.ok and r.cached_share is not None and (r.input_tokens or 0) >= CACHE_MIN_INPUT]
    last: dict[str | None, Recorded] = {}
    pairs: list[tuple[Recorded, Recorded]] = []
    for r in answered:
        if r.session in last:
            pairs.append((last[r.session], r))
        last[r.session] = r
    if not pairs:
        return None
    table = [[r.number, r.input_tokens or 0, r.cached_tokens or 0] for r in answered][-20:]
    reported_any = any((r.cached_tokens or 0) > 0 for r in answered)
    for prev, r in pairs:
        before, after = prev.cached_share or 0.0, r.cached_share or 0.0
        if (
            before >= CACHE_HELD
            and after < CACHE_NONE
            and (r.input_tokens or 0) >= (prev.input_tokens or 0) * 0.9
            and _idle_s(prev, r) < CACHE_IDLE_S
        ):
            later = [b for a, b in pairs if b.number >= r.number]
            return {
                "pattern": "dropped",
                "number": r.number,
                "previous": prev.number,
                "before": before,
                "after": after,
                "input_tokens": r.input_tokens or 0,
                "uncached": sum(1 for b in later if (b.cached_share or 0) < CACHE_NONE),
                "compared": len(later),
                "reported_any": reported_any,
                "requests": table,
            }
    followers = [b for _, b in pairs]
    if len(followers) >= 2 and all((b.cached_share or 0) < CACHE_NONE for b in followers):
        return {
            "pattern": "never",
            "number": followers[0].number,
            "previous": pairs[0][0].number,
            "before": None,
            "after": max(b.cached_share or 0 for b in followers),
            "input_tokens": max(b.input_tokens or 0 for b in followers),
            "uncached": len(followers),
            "compared": len(followers),
            "reported_any": reported_any,
            "requests": table,
        }
    return None


TITLE = {"en": "Watched session", "zh": "记录的会话"}


def check(
    requests: Sequence[Recorded],
    where: str,
    codex_exit: int | None,
    lang: str = "en",
    stall_ms: float = STALL_MS,
    user_config: str = "~/.codex/config.toml",
    upstream: str | None = None,
) -> CheckResult:
    facts = facts_of(requests, where, codex_exit, stall_ms, user_config, upstream)
    n, failed = facts["requests"], facts["failed"]
    zh = lang == "zh"
    if not n:
        status = Status.SKIP
        summary = "Codex 没有经过记录器发出模型请求" if zh else "Codex sent no model request through the recorder"
    else:
        status = Status.FAIL if failed else Status.PASS
        summary = f"{n} 个请求，{failed} 个失败" if zh else f"{n} request{'s' if n != 1 else ''}, {failed} failed"
    evidence = [Msg("recording: {where}", "记录：{where}", where=where)]
    evidence += [_evidence(r) for r in requests if r.is_model_call][-20:]
    return CheckResult("ctx.watch", TITLE.get(lang, TITLE["en"]), status, summary, facts, tuple(evidence))


def _evidence(r: Recorded) -> Msg:
    """One model call: its number, status and ending, its input and when its first output came."""
    size = (
        Msg("{n:,} in", "输入 {n:,}", n=r.input_tokens)
        if r.input_tokens is not None
        else Msg("{n:,} B", "{n:,} 字节", n=r.body_bytes)
    )
    first = (
        Msg(", first output {s:.2f} s", "，首字 {s:.2f} 秒", s=r.first_output_ms / 1000)
        if r.first_output_ms is not None
        else Msg.verbatim("")
    )
    return Msg(
        "#{number} {status} {ending} ({size}{first})",
        "#{number} {status} {ending}（{size}{first}）",
        number=r.number,
        status=str(r.status) if r.status is not None else "-",
        ending=ending_word(r.ending),
        size=size,
        first=first,
    )


# Short headers with the unit once, so that none wraps at 80 columns (issue 40 review: `first` / `output s`).
HEADERS = {
    "en": ("#", "status", "input", "cached", "reused", "output", "first (s)", "gap (s)", "ended"),
    "zh": ("#", "状态", "输入", "缓存", "复用", "输出", "首字（秒）", "最长间隔（秒）", "结束方式"),
}


def sections(requests: Sequence[Recorded], lang: str = "en") -> list[Section]:
    calls = [r for r in requests if r.is_model_call]
    if not calls:
        return []
    rows = tuple(
        (
            r.number,
            r.status if r.status is not None else "-",
            f"{r.input_tokens:,}" if r.input_tokens is not None else "-",
            f"{r.cached_tokens:,}" if r.cached_tokens is not None else "-",
            f"{r.cached_share:.0%}" if r.cached_share is not None else "-",
            f"{r.output_tokens:,}" if r.output_tokens is not None else "-",
            f"{r.first_output_ms / 1000:.2f}" if r.first_output_ms is not None else "-",
            f"{r.longest_gap_ms / 1000:.2f}" if r.longest_gap_ms is not None else "-",
            ending_word(r.ending).text(lang),
        )
        for r in calls[-MAX_LISTED:]
    )
    chart = tuple(
        (float(r.input_tokens), float(r.first_output_ms))
        for r in calls
        if r.ok and r.input_tokens and r.first_output_ms is not None
    )
    zh = lang == "zh"
    return [
        Section(
            id="watch",
            title="每个请求" if zh else "Requests",
            headers=HEADERS["zh" if zh else "en"],
            rows=rows,
            chart=chart if len(chart) >= 2 else (),
            chart_x="上下文 token 数" if zh else "context tokens",
            chart_y="首字 ms" if zh else "first output ms",
        )
    ]
