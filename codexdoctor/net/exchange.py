"""The records of a conversation with a provider: one Exchange per request, StreamStats for a streamed answer.

Frozen facts, already redacted, and free of the HTTP library: checks, rules, `diagnose-error` and the session reader
build and read them without importing httpx. The headers' pure readings (the provider's request id, Retry-After) live
here too, since they become an exchange's fields.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from codexdoctor.common.outside_json import Shape
from codexdoctor.common.untrusted import clip, request_id_in_text
from codexdoctor.model import Msg
from codexdoctor.net.kinds import TRANSPORT_FAILURES, failure_kind
from codexdoctor.net.said import shape_said


@dataclass(frozen=True)
class StreamStats:
    """What a streamed answer looked like, event by event."""

    events: int = 0
    first_event_ms: float | None = None
    first_token_ms: float | None = None
    max_gap_ms: float = 0.0
    max_gap_after_token_ms: float = 0.0  # silences once text flows: stage 2 stalls, not prefill
    terminal: str | None = None  # response.completed | response.failed | response.incomplete | error | [DONE] | None
    error: Mapping[str, Any] | None = None  # error object carried inside the stream
    incomplete_reason: str | None = None
    usage: Mapping[str, Any] | None = None
    text: str = ""
    cut: str | None = None  # "closed" (EOF before terminal) | "idle" (no event for the idle limit) | "deadline"
    bad_lines: int = 0
    # The first reasoning item the answer carried with encrypted_content (opaque; Codex replays it in turn two).
    reasoning: Mapping[str, Any] | None = None
    # The call_id of each function_call item the answer carried ("" or None: a bridge that loses it).
    tool_call_ids: tuple[str | None, ...] = ()
    # Values the events had missing or of the wrong type (the first few): evidence, and never used as they came.
    shapes: tuple[Shape, ...] = ()
    # Why Codex cannot read the response.completed event the stream sent (CODEX_COMPLETED); empty when it can, or when
    # no such event came. With `terminal` "response.completed" Codex fails the turn on it; without, it skipped it.
    completion_problems: tuple[Shape, ...] = ()
    bad_detail: str | None = None  # why the first unreadable event was unreadable (broken or too deeply nested JSON)
    bad_said: Msg | None = None  # the same in both languages
    # Standalone `error` events (the first few, code and message): Codex 0.171 ignores them and reads on (its
    # process_sse has no arm for them), so they end nothing; they are the provider's own words when the stream then
    # closes without response.completed.
    ignored_errors: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Exchange:
    """One request and what came back, already redacted."""

    method: str
    url: str
    status: int | None = None
    elapsed_ms: float = 0.0
    content_type: str = ""
    body_excerpt: str = ""
    body_json: Any = None  # the body parsed (outside_json.parse: depth-limited), or None
    # Why a body that looks like JSON ({ or [ first) could not be read: net.said's words after "the body is".
    body_malformed: Msg | None = None
    # A transport FailureKind: dns | refused | tls | timeout | reset | proxy | protocol | redirect | deadline. Typed
    # `str` because callers outside net/ still write the plain string; construction turns it into the enum member.
    failure: str | None = None
    failure_said: Msg | None = None  # what went wrong, in both languages (its English is `failure_detail`)
    location: str | None = None
    stream: StreamStats | None = None
    attempts: int = 1
    sent_key: bool = False
    earlier: tuple[str, ...] = ()  # what the retried attempts got: "502", "reset", ...
    body_sends: int = 1  # how many times the request body went on the wire (same-origin redirects resend it)
    requested_stream: bool = False  # the request asked for server-sent events (`stream: true`)
    retry_after_s: float | None = None  # a 429's or 503's Retry-After, in seconds
    waited_s: float = 0.0  # time spent waiting between attempts (Retry-After or backoff)
    request_bytes: int | None = None  # the JSON body's size on the wire
    # The output-token cap the request asked for (max_output_tokens, or a Chat request's max_tokens), None when none:
    # a response.incomplete for max_output_tokens before it is the provider's own cap (Codex asks for none).
    output_cap: int | None = None
    server_cert_ca: bool | None = None  # https: the server's own certificate says CA:TRUE (Codex refuses it)
    # What a gateway's support desk asks for first: the provider's own id for this request (a header, or `request
    # id: …` inside its error text) and when it was sent (UTC, to the millisecond).
    request_id: str | None = None
    started_at: str | None = None
    # The proxy the request went through, chosen by Codex's rules (net.client): the variable it came from as the user
    # spelled it, its value with credentials dropped, and whether it was written socks*:// (Codex, and so codexdoctor,
    # speaks plain HTTP to it anyway). None and False: it went direct.
    proxy_variable: str | None = None
    proxy_url: str | None = None
    proxy_socks_as_http: bool = False

    def __post_init__(self) -> None:
        if self.failure is not None:  # the closed set: a misspelt failure raises here, not silently never matches
            object.__setattr__(self, "failure", failure_kind(self.failure))

    @property
    def failure_detail(self) -> str:
        """What went wrong, in English (the evidence line, the facts)."""
        return str(self.failure_said) if self.failure_said is not None else ""

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300 and self.failure is None

    @property
    def is_html(self) -> bool:
        head = self.body_excerpt.lstrip()[:200].lower()
        return "text/html" in self.content_type or head.startswith(("<!doctype html", "<html"))

    def line(self) -> Msg:
        """One evidence line: `POST https://h/api/responses -> 401 (123 ms) {...}`, then when it was sent and the
        provider's request id, for the operator's logs. Words in the report's language, the data as it came."""
        tags = [
            *([Msg("sent {at}", "发送于 {at}", at=self.started_at)] if self.started_at else []),
            *([Msg("request id {id}", "请求 id {id}", id=self.request_id)] if self.request_id else []),
        ]
        if not tags:
            return self._line()
        return Msg("{line} [{tags}]", "{line}（{tags}）", line=self._line(), tags=Msg.join(tags, ", ", "，"))

    def _line(self) -> Msg:
        method, url, ms = self.method, self.url, self.elapsed_ms
        if self.failure and self.status is None:
            detail = self.failure_said or Msg.verbatim("")
            failed = Msg(
                "{method} {url} -> {failure} after {ms:,.0f} ms: {detail}",
                "{method} {url} -> {failure}（{ms:,.0f} ms 后）：{detail}",
                failure=failure_word(str(self.failure)),
                method=method,
                url=url,
                ms=ms,
                detail=detail,
            )
            return Msg.join([failed, *self._attempts()], "", "")
        parts = [
            Msg(
                "{method} {url} -> {status} ({ms:,.0f} ms)",
                "{method} {url} -> {status}（{ms:,.0f} ms）",
                method=method,
                url=url,
                status=str(self.status),
                ms=ms,
            )
        ]
        if self.location:
            parts.append(Msg(" Location: {to}", "，Location 头为 {to}", to=self.location))
        if self.stream is not None:
            parts.append(_stream_part(self.stream))
        if self.body_excerpt and not self.ok:
            parts.append(Msg(" body: {body}", "，响应体为 {body}", body=self.body_excerpt))
        if self.body_malformed:
            parts.append(Msg(" (unreadable: {why})", "（无法读取：{why}）", why=self.body_malformed))
        return Msg.join([*parts, *self._attempts()], "", "")

    def _attempts(self) -> list[Msg]:
        """The retried attempts, when there were any: how many, what the earlier ones got, the time waited."""
        if self.attempts <= 1:
            return []
        waited = (
            Msg(", {s:.1f} s waited between them", "，其间共等待 {s:.1f} 秒", s=self.waited_s)
            if self.waited_s >= 0.5
            else Msg.verbatim("")
        )
        earlier = earlier_said(self.earlier)
        return [
            Msg(
                " [{n} attempts; earlier: {earlier}{waited}]",
                "（共 {n} 次尝试；之前几次：{earlier}{waited}）",
                n=self.attempts,
                earlier=earlier,
                waited=waited,
            )
        ]


def failure_word(failure: str) -> Msg:
    """A transport failure as the evidence line's status: the kind in English (`timeout`), words in Chinese (超时),
    from the table the reports' tables say the failure kinds with (issue 40 review: `-> timeout` in Chinese)."""
    from codexdoctor.i18n import TABLE_WORDS

    return Msg.pair(failure, TABLE_WORDS[failure][1]) if failure in TABLE_WORDS else Msg.verbatim(failure)


def earlier_said(earlier: Sequence[str]) -> Msg:
    """What the earlier attempts got (Exchange.earlier), in a list: a status and a provider's error code as they came
    (`502`, `rate_limit_exceeded`), a transport failure in words (`reset`: 连接被重置), from the table the reports'
    tables say the failure kinds with (i18n.TABLE_WORDS). The English is the codes as they are; a repeated one is
    counted (`reset, 2 × 502`; `连接被重置、2 次 502`)."""
    from codexdoctor.i18n import TABLE_WORDS

    return Msg.tally(
        [
            Msg.pair(e, TABLE_WORDS[e][1]) if e in TRANSPORT_FAILURES and e in TABLE_WORDS else Msg.verbatim(e)
            for e in earlier
        ]
    )


# How a stream was cut short (StreamStats.cut), in Chinese: the English is the value itself.
_CUT_ZH = {"closed": "连接关闭", "idle": "空闲超时", "deadline": "到达时限"}


def _stream_part(s: StreamStats) -> Msg:
    """The evidence line's account of a stream: events, first token, longest gap, how it ended, what was wrong."""
    ttft = (
        Msg("{ms:,.0f} ms", "{ms:,.0f} ms", ms=s.first_token_ms) if s.first_token_ms is not None else Msg("none", "无")
    )
    end = s.terminal or s.cut
    parts = [
        Msg(
            " stream: {events} events, first token {ttft}, longest gap {gap:,.0f} ms, end {end}",
            "，流：{events} 个事件，首字：{ttft}，最长间隔 {gap:,.0f} ms，以 {end} 结束",
            events=s.events,
            ttft=ttft,
            gap=s.max_gap_ms,
            end=Msg.pair(str(end), _CUT_ZH.get(str(end), str(end))),
        )
    ]
    if s.bad_detail:
        why = s.bad_said or Msg.verbatim(s.bad_detail)
        parts.append(Msg("; an unreadable event: {why}", "；有一个事件无法读取：{why}", why=why))
    parts += [Msg("; {shape}", "；{shape}", shape=shape_said(shape)) for shape in s.shapes]
    for error in s.ignored_errors:
        said = ": ".join(str(error[k]) for k in ("code", "message") if error.get(k))
        what = Msg.verbatim(said) if said else Msg("no message", "没有消息")
        parts.append(
            Msg("; an error event Codex ignores ({what})", "；一个 Codex 会忽略的错误事件（{what}）", what=what)
        )
    if s.terminal == "response.failed" and s.error is not None:
        from codexdoctor.net.codex_words import failed_says

        says = clip(failed_says(s.error.get("code"), s.error.get("message")), 300)
        parts.append(Msg("; Codex says: `{says}`", "；Codex 会报：`{says}`", says=says))
    if s.ignored_errors and s.terminal is None and s.cut == "closed":
        parts.append(
            Msg(
                "; Codex says only `stream closed before response.completed`",
                "；Codex 只会报 `stream closed before response.completed`",
            )
        )
    return Msg.join(parts, "", "")


# Headers that carry the provider's id for a request: OpenAI and most gateways, LiteLLM, Azure/OpenAI, Anthropic-style
# proxies, Cloudflare. The first one present wins.
REQUEST_ID_HEADERS = (
    "x-request-id",
    "x-litellm-call-id",
    "apim-request-id",
    "x-ms-request-id",
    "request-id",
    "x-amzn-requestid",
    "cf-ray",
)


def request_id_of(headers: Mapping[str, str] | None, text: str = "") -> str | None:
    """The provider's id for this request: a header, else `request id: …` in its error text (new-api and one-api
    write it there, as Codex does in its own error lines)."""
    for name in REQUEST_ID_HEADERS:
        value = (headers or {}).get(name)
        if value and len(value) <= 120:
            return clip(" ".join(value.split()), 120)
    return request_id_in_text(text)


def utc_now() -> str:
    import datetime  # lazily, as every import below the first request: start-up is benchmarked

    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def retry_after(value: str | None) -> float | None:
    """Retry-After in seconds: a number, or an HTTP date (RFC 9110 §10.2.3)."""
    if not value:
        return None
    try:
        return max(0.0, float(value.strip()))
    except ValueError:
        pass
    import datetime
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, (when - datetime.datetime.now(datetime.timezone.utc)).total_seconds()) if when.tzinfo else None
