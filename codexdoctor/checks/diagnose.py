"""`codexdoctor diagnose-error`: classify a pasted Codex or provider error with the same catalog as `check`.

Codex prints provider failures in a few fixed shapes (codex-facts §6); each is
turned into the facts a live check would have gathered, so the same rules,
codes and remedies apply.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from codexdoctor.checks.base import CheckContext, result
from codexdoctor.common import outside_json as outside
from codexdoctor.common.untrusted import clip, sanitize
from codexdoctor.common.words import plural
from codexdoctor.model import NO_URL_IN_PASTE, CheckResult, Msg, Status
from codexdoctor.net.classify import Classified, classify
from codexdoctor.net.classify import embedded_json as _embedded_json
from codexdoctor.net.classify import strip_decoration as normalise

if TYPE_CHECKING:
    from codexdoctor.net.exchange import Exchange

UNEXPECTED = re.compile(
    r"unexpected status (\d{3})(?: [A-Za-z][A-Za-z ]*?)?(?::\s*(.*?))?(?:,?\s*url:\s*(\S+(?: \S+)?))?\s*$", re.S
)
RETRY_LIMIT = re.compile(r"exceeded retry limit, last status:\s*(\d{3})", re.I)
MISSING_ENV = re.compile(r"Missing environment variable:\s*`?([A-Za-z_][A-Za-z0-9_]*)`?")
RECONNECTING = re.compile(r"Reconnecting\.\.\.\s*\d+/\d+\s*\((.*)\)\s*$", re.S)
RECONNECT_BARE = re.compile(r"Reconnecting\.\.\.\s*(\d+)/(\d+)")
PLACEHOLDER_URL = "(from the pasted error)"
STREAM = re.compile(r"stream disconnected before completion:\s*(.*)", re.S | re.I)
# The transport failures Codex (reqwest, rustls, the OS) prints, by what they mean; the same kinds as a live check's
# (net/errors.py `classify_exception`, which reads Python's wording, not Codex's), so the NET rules speak; the
# detail is Codex's own text. Each was seen in Codex 0.171.0's output (docs/codex-behaviour.md) or is
# the OS's or rustls' fixed wording. A bare "error sending request for url" says none of this: inconclusive.
TRANSPORT = (
    (
        "dns",
        re.compile(
            r"failed to lookup address|dns error|name or service not known|nodename nor servname|"
            r"no such host|temporary failure in name resolution",
            re.I,
        ),
    ),
    ("refused", re.compile(r"connection refused|os error 111\b|os error 61\b|actively refused|os error 10061", re.I)),
    ("tls", re.compile(r"certificate|\btls\b|\bssl\b|handshake|UnknownIssuer|InvalidCertificate", re.I)),
    ("timeout", re.compile(r"operation timed out|timed out|os error 110\b|deadline has elapsed", re.I)),
    # ("error decoding response body" is a stream cut after the answer began: the stream rule's, not this one)
    (
        "reset",
        re.compile(
            r"connection reset|broken pipe|unexpected eof|connection closed before message completed|"
            r"os error 104\b|os error 32\b",
            re.I,
        ),
    ),
)
URL_IN_TEXT = re.compile(r"https?://[^\s()\]>,`'\"]+")


def _exchange(
    status: int | None, message: str, url: str | None, stream_kind: str | None = None, terminal: str | None = None
) -> Exchange:
    from codexdoctor.net.exchange import Exchange, StreamStats, request_id_of

    text = message.strip()
    body_json: Any = outside.parse(text).value if text.startswith("{") else None  # pasted text is outside text too
    if body_json is None and text:
        body_json = {"error": {"message": text}}
    stream = None
    if stream_kind or terminal:
        stream = StreamStats(events=1, terminal=terminal, cut=stream_kind)
    return Exchange(
        "POST",
        url or PLACEHOLDER_URL,
        status,
        0.0,
        "text/event-stream" if stream else "application/json",
        clip(" ".join(text.split()), 300),
        body_json,
        stream=stream,
        sent_key=True,
        request_id=request_id_of(None, text),
    )


def _status_from_body(body: Any) -> int | None:
    """The HTTP status a body states (llama.cpp and LiteLLM put it in `code`); None when it does not say."""
    if isinstance(body, dict):
        err = body.get("error", body)
        code = err.get("code") if isinstance(err, dict) else None
        if isinstance(code, int) and 400 <= code < 600:
            return code
        if isinstance(code, str) and code.isdigit() and 400 <= int(code) < 600:
            return int(code)
    return None


RANK = {
    "context": 5,
    "missing_env": 4,
    "turn_two": 4,
    "http": 3,
    "transport": 2,
    "incomplete": 2,
    "ending": 2,
    "stream": 2,
    "send_failed": 1,
    "unknown": 0,
}


def pick(text: str) -> tuple[str, Any, str, int]:
    """From a whole stderr: (kind, detail, the decisive line, retries seen). Codex prints its final error last,
    after `Reconnecting... n/5` lines, so the last decisive line wins; a context error wins over anything."""
    lines = [normalise(line) for line in text.splitlines()]
    lines = [line for line in lines if line]
    retries = len([line for line in lines if RECONNECT_BARE.search(line)])
    best: tuple[str, Any, str] = ("unknown", None, lines[-1] if lines else "")
    for line in lines:
        kind, detail = interpret(line)
        if kind != "unknown" and RANK[kind] >= RANK[best[0]] - (1 if best[0] != "context" else 0):
            best = (kind, detail, line)
    if best[0] == "unknown" and len(lines) > 1:
        kind, detail = interpret(" ".join(lines))
        if kind != "unknown":
            best = (kind, detail, " ".join(lines))
    return best[0], best[1], best[2], retries


def interpret(text: str) -> tuple[str, Any]:
    """(kind of input, parsed detail) for one pasted error line."""
    text = normalise(text) if "\n" not in text else text.strip()
    m = RECONNECTING.search(text)
    if m:
        return interpret(m.group(1))
    m = MISSING_ENV.search(text)
    if m:
        return "missing_env", m.group(1)
    if "ran out of room in the model's context window" in text:
        return "context", None
    from codexdoctor.net.classify import HIGH_DEMAND, turn_two_item

    item = turn_two_item(text)
    if item is not None or any(m in text.lower() for m in HIGH_DEMAND):
        return "turn_two", item
    m = UNEXPECTED.search(text)
    if m:
        return "http", (int(m.group(1)), m.group(2), m.group(3))
    m = RETRY_LIMIT.search(text)
    if m:
        return "http", (int(m.group(1)), text, None)
    from codexdoctor.net.codex_words import codex_ending

    ending = codex_ending(text)
    if ending is not None and ending.kind != "stream_error":
        return "ending", ending  # Codex's own sentence for an incomplete answer, a quota, a plan (issue 38)
    m = STREAM.search(text)
    if m:
        return _stream_disconnected(m.group(1), ending)
    return _without_codex_words(text)


def _stream_disconnected(said: str, ending: Any) -> tuple[str, Any]:
    """What follows Codex's `stream disconnected before completion:`: one of its own phrases, a transport error, or
    the provider's message from a response.failed."""
    detail = said.lower()
    if "idle timeout" in detail:
        return "stream", "idle"
    if "failed to parse responsecompleted" in detail:  # Codex could not read the provider's response.completed
        return "stream", "unreadable_completion"
    if "stream closed before response.completed" not in detail:
        if ending is not None and _says_context(ending.message):
            # A response.failed whose code is not context_length_exceeded: Codex retried it as a dropped stream and
            # shows the provider's own words, which say the window is full (docs/codex-behaviour.md).
            return "context", "in_stream"
        transport = _transport(said)
        if transport is not None:
            return "transport", transport
        if "error sending request" in detail:
            return "send_failed", None
        if ending is not None:  # the provider's own message from a response.failed, which Codex shows as it is
            return "ending", ending
    return "stream", "closed"


def _without_codex_words(text: str) -> tuple[str, Any]:
    """A line with none of Codex's own sentences: a transport error, a provider's JSON body, or its words alone."""
    transport = (
        _transport(text) if re.search(r"error sending request|os error|\bdns error|certificate", text, re.I) else None
    )
    if transport is not None:
        return "transport", transport
    if re.search(r"error sending request for url", text, re.I):
        return "send_failed", None
    body = _embedded_json(text)
    if body is not None and ("error" in body or "message" in body or "detail" in body):
        return "http", (_status_from_body(body), json.dumps(body), None)
    if _says_context(text):
        return "context", None
    if re.search(r"does not exist or you do not have access|not found, try pulling it|Invalid model name", text, re.I):
        return "http", (404, text, None)
    return "unknown", None


def _says_context(text: str) -> bool:
    """The provider's words say the request overflowed the window (any server family's; "context" alone is not one)."""
    from codexdoctor.net.classify import CONTEXT_MARKERS

    lowered = text.lower()
    return any(m in lowered for m in CONTEXT_MARKERS if m not in ("context_length", "too many tokens"))


_SENDING = re.compile(r"error sending request for url\s*\([^)]*\)\s*:?\s*", re.I)


def _transport(text: str) -> tuple[str, str, str | None] | None:
    """(failure kind, what the text says caused it, URL named in the text) for a transport failure, or None."""
    for kind, pattern in TRANSPORT:
        if pattern.search(text):
            url = URL_IN_TEXT.search(text)
            cause = clip(" ".join(_SENDING.sub("", text).split()).strip(" :"), 200)
            return kind, cause or kind, url.group(0).rstrip(".:;") if url else None
    return None


def checks_for(text: str, ctx: CheckContext) -> list[CheckResult]:
    """The check results a pasted error stands for: the ones a live run would have made of the same failure."""
    # The paste is outside text: redacted whole and stripped of terminal controls before anything reads or cuts it.
    text = sanitize(ctx.redactor(text), newlines=True)
    kind, detail, line, retries = pick(text)
    shown = clip(" ".join(line.split()), 300)
    pasted = Msg("pasted: {line}", "粘贴的内容：{line}", line=shown)
    retried = Msg(
        "Codex retried {times} first (Reconnecting... lines)",
        "Codex 先重试了 {n} 次（`Reconnecting...` 行）",
        times=plural(retries, "time"),
        n=retries,
    )
    evidence = (pasted, retried) if retries else (pasted,)
    if kind == "missing_env":
        return [_missing_env_result(ctx, detail, evidence)]
    if kind == "context":
        return [
            _context_result(
                line, evidence, ctx, codex_message="ran out of room" in line, in_stream=detail == "in_stream"
            )
        ]
    if kind == "transport":
        return [_transport_result(ctx, detail, evidence)]
    if kind == "turn_two":
        return [_turn_two_result(ctx, detail, line, evidence)]
    if kind in ("unknown", "send_failed"):
        return [_undecided_result(kind, evidence)]
    return [_answer_result(ctx, kind, detail, line, evidence)]


def _missing_env_result(ctx: CheckContext, var: str, evidence: tuple[Msg, ...]) -> CheckResult:
    """Codex's `Missing environment variable`: env.key's result, with the near misses and rc files it would find."""
    from codexdoctor.checks import env as env_checks

    near = env_checks.near_miss_names(var, ctx.env)
    hits = env_checks.find_in_rc_files(var, ctx.home)
    where = ctx.resolution.provider_field_origin("env_key") if ctx.provider.env_key == var else "env_key in config.toml"
    state = "blank" if var in ctx.env else "missing"
    return result(
        "env.key",
        "API key variable",
        Status.FAIL,
        Msg("${var} is blank", "${var} 为空", var=var)
        if state == "blank"
        else Msg("${var} is missing", "${var} 未设置", var=var),
        evidence + tuple(Msg("${var} is set", "${var} 已设置", var=n) for n in near),
        env_key=var,
        state=state,
        near_miss=near,
        rc_hits=hits,
        env_key_where=where,
        problems=[],
        provider=ctx.provider.id,
        builtin=False,
        local=False,
        bearer_token=False,
        requires_openai_auth=False,
        user_config="~/.codex/config.toml",
        env_key_looks_like_key=False,
    )


def _transport_result(ctx: CheckContext, detail: tuple[str, str, str | None], evidence: tuple[Msg, ...]) -> CheckResult:
    """A transport failure (DNS, refused, TLS, timeout, reset): net.reach's result, the paste's words as its detail."""
    from urllib.parse import urlsplit

    failure, words, url = detail
    shown_url = ctx.redactor(url) if url else None
    try:
        host = urlsplit(url or str(ctx.provider.base_url or "")).hostname
    except ValueError:
        host = None
    said = Msg.verbatim(words)  # the paste's own words, as they are in every language
    if url is None and failure != "timeout":  # the paste names no host: the configured one, and the report says so
        said = Msg(
            "{words} (the pasted text names no host; this is the configured base_url's)",
            "{words}（粘贴的文字没有写主机；这是配置中 base_url 的主机）",
            words=words,
        )
    facts = {
        "failure": failure,
        "detail": str(said),
        "proxy": False,
        "host": host or "the provider's host",
        "scheme": None,
        "redirect": None,
        "html": False,
        "url": shown_url or NO_URL_IN_PASTE,
        "base_url": shown_url or ctx.redactor(str(ctx.provider.base_url or "")) or NO_URL_IN_PASTE,
    }
    reach = result("net.reach", "Pasted error", Status.FAIL, Msg("{w}", "{w}", w=said), evidence, **facts)
    return replace(reach, said={"detail": said, **_no_url_said(facts)})


def _turn_two_result(ctx: CheckContext, item: str | None, line: str, evidence: tuple[Msg, ...]) -> CheckResult:
    """An error only the request after a tool call meets (or Codex's "high demand" mask for a 5xx): api.turn_two's."""
    from codexdoctor.net.classify import summarize_text

    status = UNEXPECTED.search(line)
    body = _embedded_json(line)
    code = int(status.group(1)) if status else _status_from_body(body) if body is not None else None
    high_demand = item is None
    turn_two = result(
        "api.turn_two",
        "Pasted error",
        Status.FAIL,
        Msg("a gateway fault on the request after a tool call", "工具调用之后那个请求遇到了网关故障")
        if not high_demand
        else Msg("Codex's message for a 5xx from the provider", "Codex 对提供方 5xx 错误给出的消息"),
        evidence,
        kind="turn_two_fault",
        detail="",
        message=summarize_text(line),
        status=code or (500 if high_demand else None),
        url=NO_URL_IN_PASTE,
        item_kinds=["function_call", "function_call", "function_call_output", "function_call_output"]
        if item == "parallel_results"
        else ["function_call", "function_call_output"],
        named_item=item,
        parallel_refused=item == "parallel_results",
        pasted=True,
        high_demand=high_demand,
        html=False,
        request_bytes=None,
        added_bytes=None,
        user_config=ctx.resolution.user_layer.label if ctx.resolution.user_layer else "~/.codex/config.toml",
    )
    return replace(turn_two, said=_no_url_said(dict(turn_two.facts)))


def _undecided_result(kind: str, evidence: tuple[Msg, ...]) -> CheckResult:
    """A paste that decides nothing: no known error shape, or reqwest's wrapper alone (DNS, connection, TLS or proxy,
    and the paste does not say which)."""
    if kind == "unknown":
        why = Msg("the pasted text is not a known Codex or provider error", "粘贴的文字不是已知的 Codex 或提供方报错")
        said = Msg("not a known Codex or provider error shape", "不是已知的 Codex 或提供方报错格式")
    else:
        why = Msg(
            "Codex could not send the request, and the pasted text does not say why (host name, connection, TLS or "
            "proxy): `codexdoctor check` finds out",
            "Codex 没能发出请求，而粘贴的文字没有说明原因（主机名、连接、TLS 或代理）：运行 `codexdoctor check` 可以查明",
        )
        said = Msg(
            "Codex could not send the request; the text does not say why", "Codex 没能发出请求；这段文字没有说明原因"
        )
    undecided = result(
        "ctx.pasted", "Pasted error", Status.WARN, said, evidence, kind=kind, inconclusive_reason=str(why)
    )
    return replace(undecided, reason=why)


def _pasted_answer(ctx: CheckContext, kind: str, detail: Any) -> tuple[Exchange, Classified, bool]:
    """The answer a paste describes, as an exchange with its kind, and whether the paste gave its status."""
    if kind == "http":
        status, message, url = detail
        # A body without a status is judged as the 400 Codex shows it for; the report says the status was not pasted.
        ex = _exchange(status if status is not None else 400, message or "", ctx.redactor(url) if url else None)
        return ex, classify(ex), status is not None
    if kind == "ending":
        ex = _exchange(200 if detail.kind != "quota" and detail.kind != "usage_not_included" else None, "", None)
        return ex, Classified(detail.kind, detail.said, detail.message), ex.status is not None
    if detail == "unreadable_completion":
        ex = _exchange(200, "", None, terminal="response.completed")
        unreadable = Msg("a response.completed event Codex cannot read", "一个 Codex 读不了的 response.completed 事件")
        return ex, Classified("unreadable_completion", unreadable), True
    ex = _exchange(200, "", None, stream_kind=detail)
    # A paste says what Codex concluded, not how many events came first: no invented count in the detail.
    ended = (
        Msg("Codex's idle limit passed with no event", "超过 Codex 的空闲时限仍没有事件")
        if detail == "idle"
        else Msg("the stream ended without response.completed", "流在没有 response.completed 的情况下结束")
    )
    return ex, Classified(classify(ex).kind, ended), True


def _answer_result(ctx: CheckContext, kind: str, detail: Any, line: str, evidence: tuple[Msg, ...]) -> CheckResult:
    """An answer the provider gave (a status, a stream's end): the canary's own reading of it, given the paste's
    kind; nothing is sent (the clocks are nominal)."""
    from codexdoctor.checks.live.canary import canary_result
    from codexdoctor.checks.live.exchanges import Clocks
    from codexdoctor.checks.live.plan import make_plan

    ex, classified, status_known = _pasted_answer(ctx, kind, detail)
    if classified.kind == "context_exceeded":
        return _context_result(line, evidence, ctx, codex_message=False)
    canary = canary_result(ctx, make_plan(ctx, first=False), ex, classified, Clocks(1, 1))
    facts = dict(canary.facts)
    quoted: dict[str, Msg] = dict(canary.said)
    if facts.get("url") == PLACEHOLDER_URL:
        facts["url"] = NO_URL_IN_PASTE  # say so rather than invent one
        quoted.update(_no_url_said(facts))
    else:
        facts.update(_doubled(str(facts.get("url") or "")))
        if not _same_host(str(facts.get("url") or ""), ctx):
            quoted["base_url_where"] = Msg("in the provider table for this host", "在指向这个主机的提供方表中")
            facts["base_url_where"] = str(quoted["base_url_where"])  # not the configured provider
    if not status_known:
        facts["status"] = "an error"
    named = _PASTED_MODEL.search(line)
    pasted = (named.group(1) or named.group(2) or "").strip() if named else ""
    if pasted and pasted != str(facts.get("model") or "").strip():
        # The paste names another model than the config's: the failing run used another setting (issue 29).
        facts["pasted_model"] = ctx.redactor(pasted)
    return CheckResult(
        canary.id,
        "Pasted error",
        canary.status,
        canary.summary,
        facts,
        evidence,
        message=canary.message,
        reason=canary.reason,
        said=quoted,
    )


_PASTED_MODEL = re.compile(
    r"\bmodel[ _]?(?:name)?\s*[`'\"]([^`'\"\s]{1,120})[`'\"]|\"model\"\s*:\s*\"([^\"]{1,120})\"", re.I
)


def _no_url_said(facts: dict[str, object]) -> dict[str, Msg]:
    """The `url` fact of a paste that names none, in words a rule quotes in the report's language."""
    if facts.get("url") != NO_URL_IN_PASTE:
        return {}
    return {"url": Msg("(no URL in the paste)", "（粘贴内容里没有 URL）")}


def _context_result(
    line: str, evidence: tuple[Msg, ...], ctx: CheckContext, codex_message: bool, in_stream: bool = False
) -> CheckResult:
    from codexdoctor.net.classify import context_numbers

    window, size = context_numbers(line)
    return result(
        "ctx.pasted",
        "Pasted error",
        Status.FAIL,
        Msg("context window exceeded", "超出上下文窗口"),
        evidence,
        kind="context",
        user_config=_user_config(ctx),
        codex_message=codex_message,
        in_stream=in_stream,
        server_window=window,
        server_request=size,
    )


def _doubled(url: str) -> dict[str, Any]:
    """`…/v1/v1/responses` or `…/responses/responses`: the base_url already ended in that segment."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url.split(" ")[0])
    except ValueError:
        return {}
    path = parts.path
    for segment in ("/v1", "/responses", "/api"):
        doubled = segment + segment
        if doubled + "/" in path + "/":
            base_path = path[: path.index(doubled) + len(segment)]
            return {"doubled": segment, "doubled_fix": urlunsplit((parts.scheme, parts.netloc, base_path, "", ""))}
    return {}


def _same_host(url: str, ctx: CheckContext) -> bool:
    from urllib.parse import urlsplit

    base = ctx.provider.base_url
    try:
        return isinstance(base, str) and urlsplit(url).netloc == urlsplit(base.strip()).netloc
    except ValueError:
        return False


def _user_config(ctx: CheckContext) -> str:
    layer = ctx.resolution.user_layer
    return layer.label if layer else "~/.codex/config.toml"
