"""What one request through the recorder showed: numbers and kinds, never the key, bodies only when asked."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from codexdoctor.common import outside_json as outside
from codexdoctor.common.untrusted import clip
from codexdoctor.model import Msg

# How a stream ended. The first four are the Responses API's own terminal events; the others are what a stream does
# when it has none.
ENDINGS = (
    "completed",  # response.completed
    "incomplete",  # response.incomplete (output budget, content filter)
    "failed",  # response.failed
    "error_event",  # a standalone `error` event (Codex 0.171 ignores it and then says the stream closed)
    "eof",  # the stream ended without any terminal event
    "reset",  # the connection to the provider broke while the answer was streaming
    "http_error",  # a status >= 400: an error body, no stream
    "not_sse",  # a 2xx answer that is not an event stream (a JSON body to `stream: true`, an HTML page)
    "unreachable",  # the provider could not be reached: Codex was given a 502
    "client_gone",  # Codex hung up before the answer ended (Ctrl-C, its own idle timeout)
)


@dataclass(frozen=True)
class Recorded:
    """One request Codex sent through the recorder and what came back."""

    number: int  # 1, 2, … in the order Codex sent them
    method: str
    path: str  # the path Codex called (no query: it may carry a token)
    started: str  # UTC, ISO 8601
    status: int | None  # None: no answer from the provider
    ending: str  # one of ENDINGS
    body_bytes: int  # the request body's size
    response_bytes: int = 0
    model: str | None = None
    input_kinds: tuple[str, ...] = ()  # the request's input items, in order (`message:user`, `function_call_output`…)
    input_tokens: int | None = None  # from the answer's `usage`
    cached_tokens: int | None = None
    output_tokens: int | None = None
    headers_ms: float | None = None  # request sent -> response headers
    first_output_ms: float | None = None  # request sent -> first output event (text, reasoning, a tool call)
    longest_gap_ms: float | None = None  # the longest silence between events (headers -> first event included)
    events: int = 0
    total_ms: float | None = None
    request_id: str | None = None  # the provider's id for the request (x-request-id and kin)
    error: str | None = None  # the provider's error body or event, redacted whole and bounded
    error_code: str | None = None  # its code / type, when it has one
    incomplete_reason: str | None = None
    failure: str | None = None  # unreachable / reset: the failure class (dns, refused, tls, timeout, …)
    # Codex's id for its session (the request's `prompt_cache_key`, also in `client_metadata.session_id`): the id of
    # the rollout in ~/.codex/sessions, so `codexdoctor sessions` can put the recording beside Codex's own log.
    session: str | None = None
    bodies: dict[str, str] = field(default_factory=dict)  # --keep-bodies: {"request": …, "response": …}, redacted

    @property
    def is_model_call(self) -> bool:
        return self.method == "POST" and self.path.rstrip("/").endswith(("/responses", "/chat/completions"))

    @property
    def ok(self) -> bool:
        return self.ending == "completed"

    @property
    def cached_share(self) -> float | None:
        """The share of the input the provider served from its prefix cache (seed 003): None when it did not say."""
        if self.cached_tokens is None or not self.input_tokens:
            return None
        return round(min(1.0, max(0, self.cached_tokens) / self.input_tokens), 3)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["cached_share"] = self.cached_share  # derived, for a reader of the file; from_json ignores it
        data["input_kinds"] = list(self.input_kinds)
        if not self.bodies:
            del data["bodies"]
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> Recorded:
        """A request line read back; TypeError when it is not what the recorder writes (a file is outside input:
        `report` and `sessions` read it, and a wrong type must never reach a rule's text)."""
        known = {k: v for k, v in data.items() if k in Recorded.__dataclass_fields__}
        for name, value in known.items():
            if not _fits(_TYPES.get(name, ()), value):
                raise TypeError(f"{name}: {type(value).__name__}")
        if known.get("ending") not in ENDINGS:
            raise TypeError("ending")
        kinds, bodies = known.get("input_kinds") or (), known.get("bodies") or {}
        if not all(isinstance(k, str) for k in kinds) or not all(isinstance(v, str) for v in bodies.values()):
            raise TypeError("input_kinds or bodies")
        known["input_kinds"] = tuple(kinds)
        known["bodies"] = dict(bodies)
        return Recorded(**known)


_INT, _NUM, _STR = ("int",), ("int", "float"), ("str",)
_TYPES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("number", "body_bytes", "response_bytes", "events"), _INT),
    **dict.fromkeys(("status", "input_tokens", "cached_tokens", "output_tokens"), (*_INT, "None")),
    **dict.fromkeys(("headers_ms", "first_output_ms", "longest_gap_ms", "total_ms"), (*_NUM, "None")),
    **dict.fromkeys(("method", "path", "started", "ending"), _STR),
    **dict.fromkeys(
        ("model", "request_id", "error", "error_code", "incomplete_reason", "failure", "session"), (*_STR, "None")
    ),
    "input_kinds": ("list",),
    "bodies": ("dict",),
}


def _fits(kinds: tuple[str, ...], value: Any) -> bool:
    """Does a JSON value have one of these kinds (a bool is no number; numbers are never negative)?"""
    if value is None:
        return "None" in kinds
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)) and value < 0:
        return False
    names = {int: "int", float: "float", str: "str", list: "list", dict: "dict"}
    return names.get(type(value), "?") in kinds


def input_kinds(body: Any) -> tuple[str, ...]:
    """The kinds of a Responses request's input items: `message:<role>` or the item's `type`."""
    items = body.get("input") if isinstance(body, dict) else None
    if not isinstance(items, list):
        return ()
    kinds = []
    for item in items[:10_000]:
        if not isinstance(item, dict):
            kinds.append("?")
            continue
        kind = str(item.get("type") or "message")[:40]
        if kind == "message":
            kind = f"message:{str(item.get('role') or '?')[:20]}"
        kinds.append(kind)
    return tuple(kinds)


_SESSION_ID = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{7,63}")


def session_of(body: Any) -> str | None:
    """Codex's session id from its request body (`prompt_cache_key`, else `client_metadata.session_id`), when it
    looks like an id: a gateway's client may send anything there."""
    if not isinstance(body, dict):
        return None
    meta = body.get("client_metadata")
    for value in (body.get("prompt_cache_key"), meta.get("session_id") if isinstance(meta, dict) else None):
        if isinstance(value, str) and _SESSION_ID.fullmatch(value):
            return value
    return None


def after_tool_call(kinds: tuple[str, ...]) -> bool:
    """The request carries a tool's result: the request that follows a tool call (issue 31's turn two)."""
    return any(k.endswith("_call_output") for k in kinds)


def message_of(rec: Recorded) -> str:
    """The provider's own words: the error body's message, else the body itself, short."""
    from codexdoctor.net.classify import error_message

    text = rec.error or ""
    parsed = outside.parse(text).value
    said = error_message(parsed) if parsed is not None else ""
    if not said and isinstance(parsed, dict) and isinstance(parsed.get("response"), dict):
        said = error_message(parsed["response"])
    return clip(" ".join((said or text).split()), 300)


# How a request ended, in words (the table's last column and the status line): never `http_error` on the screen.
ENDING_WORDS: dict[str, tuple[str, str]] = {
    "completed": ("completed", "完成"),
    "incomplete": ("incomplete", "不完整"),
    "failed": ("failed", "失败"),
    "error_event": ("error event", "错误事件"),
    "eof": ("stream cut", "流中断"),
    "reset": ("connection reset", "连接被重置"),
    "http_error": ("HTTP error", "HTTP 错误"),
    "not_sse": ("not a stream", "不是事件流"),
    "unreachable": ("unreachable", "无法连接"),
    "client_gone": ("Codex hung up", "Codex 已断开"),
}


def ending_word(ending: str) -> Msg:
    en, zh = ENDING_WORDS.get(ending, (ending, ending))
    return Msg.pair(en, zh)


def said(rec: Recorded) -> Msg:
    """One line per request, for stderr and --log, in both languages: what a person watching wants to see."""
    parts: list[Msg] = [Msg.verbatim(f"#{rec.number} · {rec.method} · {rec.path} · {rec.status or '-'}")]
    if rec.input_tokens is not None:
        share = rec.cached_share
        cached = (
            Msg(" ({c:,} cached, {s:.0%})", "（缓存 {c:,}，{s:.0%}）", c=rec.cached_tokens, s=share)
            if rec.cached_tokens and share is not None
            else Msg.verbatim("")
        )
        parts.append(
            Msg(
                "{i:,} in{cached}, {o:,} out",
                "输入 {i:,}{cached}，输出 {o:,}",
                i=rec.input_tokens,
                cached=cached,
                o=rec.output_tokens or 0,
            )
        )
    else:
        parts.append(Msg("{n:,} B sent", "已发送 {n:,} 字节", n=rec.body_bytes))
    if rec.first_output_ms is not None:
        parts.append(Msg("first output {s:.2f} s", "首字 {s:.2f} 秒", s=rec.first_output_ms / 1000))
    elif rec.headers_ms is not None:
        parts.append(Msg("headers {s:.2f} s", "响应头 {s:.2f} 秒", s=rec.headers_ms / 1000))
    if rec.longest_gap_ms is not None and rec.events > 1:
        parts.append(Msg("longest gap {s:.2f} s", "最长间隔 {s:.2f} 秒", s=rec.longest_gap_ms / 1000))
    parts.append(ending_word(rec.ending))
    if rec.error:
        parts.append(Msg.verbatim(clip(message_of(rec), 160)))
    return Msg("codexdoctor watch: {line}", "codexdoctor watch：{line}", line=Msg.join(parts, " · ", " · "))


def line(rec: Recorded, lang: str = "en") -> str:
    """The status line of one request in `lang`."""
    return said(rec).text(lang)
