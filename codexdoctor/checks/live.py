"""Live checks: the exact request Codex will send, with the real key, run concurrently under one deadline."""

from __future__ import annotations

import difflib
import re
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx
from urllib.parse import urlsplit, urlunsplit

from codexdoctor.checks.base import CheckContext, crashed, result
from codexdoctor.codex import request as codexrequest
from codexdoctor.codex.sizes import CODEX_FIRST_REQUEST_TOKENS, window_settings
from codexdoctor.common import outside_json as outside
from codexdoctor.common.outside_json import ARRAY, Fields
from codexdoctor.common.redact import fingerprint
from codexdoctor.common.untrusted import sanitize
from codexdoctor.common.words import plural
from codexdoctor.model import CheckResult, Status
from codexdoctor.net.classify import Classified, classify, turn_two_item
from codexdoctor.net.transport import (
    CA_VARIABLES,
    IGNORED_CA_VARIABLES,
    Deadline,
    Exchange,
    make_client,
    proxy_for,
    proxy_variable,
    send,
)

CANARY_INSTRUCTIONS = "You are a connectivity check. Answer with one short word."
CANARY_PROMPT = "Reply with: ok"
CANARY_MAX_OUTPUT = 16
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
MIN_USABLE_WINDOW = 12000
# What Codex's first tool round adds to its first request: one call and an output cut at about 12 KB (~2,800 tokens;
# the turn-two canary sends this much). A window with less room than that after the first request breaks every session
# at its first command.
TOOL_ROUND_TOKENS = 2800
FALLBACK_WINDOW = 272000
KNOWN_WINDOWS = (
    ("gpt-5", 272000),
    ("gpt-4.1", 1047576),
    ("gpt-4o", 128000),
    ("o4-mini", 200000),
    ("o3", 200000),
    ("codex-mini", 200000),
    ("gpt-oss", 96000),
)
EFFECTIVE_SHARE = 0.95  # Codex uses 95% of the window
COMPACT_SHARE = 0.90  # and compacts at 90% by default
TRANSIENT_RETRIES = 3
STILL_WAITING_EVERY = 2.0  # seconds between "still waiting" lines on a terminal
# How long the canary may wait for a provider that is demonstrably alive (it answered, or accepted the request)
# but slow to answer Codex's first request: a local model on a CPU reads its ~8,500 tokens for 10-25 s, and Codex
# waits for it. `check --first-token-timeout` sets it; a provider that never answers still fails at --timeout.
FIRST_TOKEN_TIMEOUT = 120.0
STATIC_BLOCKERS: dict[str, Callable[[Mapping[str, Any]], object]] = {
    "cfg.home": lambda f: bool(f.get("problem")),
    "cfg.files": lambda f: any("toml_error" in x or "read_error" in x for x in f.get("files", [])),
    "cfg.profile": lambda f: bool(f.get("missing") or f.get("legacy_selectors") or f.get("conflict")),
    "cfg.provider": lambda f: (
        f.get("defined") is False
        or bool(f.get("wrong_types"))
        or bool(f.get("wire_api_invalid"))
        or (f.get("wire_api") == "chat" and f.get("chat_rejected") is not False)
        or bool(f.get("redefined_builtins"))
        or bool(f.get("missing_name"))
        # Codex would send the gateway's key to api.openai.com; codexdoctor never does.
        or bool(f.get("missing_base_url"))
        or bool(f.get("empty_model"))
    ),
    "env.key": lambda f: f.get("state") in ("missing", "blank", "not_a_name", "wrong_type"),
    # The built-in provider with no stored API key: no login at all, or a ChatGPT sign-in, whose token Codex sends to
    # the ChatGPT backend rather than to base_url; a request from here would test nothing Codex does.
    # $CODEX_API_KEY stands in for it: what `codex exec` sends (ENV022 says the interactive CLI does not).
    "env.auth": lambda f: (
        f.get("provider") == "openai"
        and f.get("builtin")
        and not (f.get("auth") or {}).get("has_api_key")
        and not f.get("codex_api_key_env")
    ),
}
LIVE_IDS = ("net.reach", "api.catalog", "api.canary", "api.turn_two", "api.variants", "api.wire", "ctx.window")
TITLES = {
    "net.reach": "Reachability",
    "api.catalog": "Model catalog",
    "api.canary": "Canary request",
    "api.turn_two": "Request after a tool call",
    "api.variants": "base_url variants",
    "api.wire": "Wire API",
    "ctx.window": "Served context window",
}


@dataclass(frozen=True)
class Plan:
    """Everything the probes need, computed once from the resolved config."""

    base_url: str
    request_url: str
    wire: str  # responses | chat
    model: str
    headers: Mapping[str, str]
    query: str
    idle_s: float
    first: codexrequest.FirstRequest | None = None  # Codex's first request for this user (responses wire only)
    # How often Codex re-sends its request after a 429: stream_max_retries (default 5), each after the answer's
    # Retry-After, then `exceeded retry limit, last status: 429 Too Many Requests` (checked with Codex 0.171.0:
    # request_max_retries = 0 changes nothing, stream_max_retries = 0 gives one request).
    stream_retries: int = 5


def assumed_window(ctx: CheckContext) -> tuple[int, str]:
    """The window Codex assumes: model_context_window, else known model metadata, else the fallback."""
    r = ctx.resolution
    configured = r.merged.get("model_context_window")
    if isinstance(configured, int) and configured > 0:
        return configured, f"model_context_window ({r.origin('model_context_window')})"
    model = str(r.model or "").lower()
    for prefix, window in KNOWN_WINDOWS:
        if model.startswith(prefix):
            return window, f"Codex's metadata for {prefix}*"
    return FALLBACK_WINDOW, "Codex's fallback metadata for unknown models"


def _headers(ctx: CheckContext, key: str | None) -> dict[str, str]:
    p = ctx.provider
    headers = {"Content-Type": "application/json"}
    # Codex drops a header value it cannot encode (a key with a newline is not sent at all).
    if key and not any(ch in key for ch in "\r\n") and key.isascii():
        headers["Authorization"] = f"Bearer {key}"
    static = p.get("http_headers")
    if isinstance(static, Mapping):
        headers.update({str(k): str(v) for k, v in static.items()})
    from_env = p.get("env_http_headers")
    if isinstance(from_env, Mapping):
        for name, var in from_env.items():
            value = ctx.env.get(str(var))
            if value:
                headers[str(name)] = value
    return headers


def make_plan(ctx: CheckContext, first: bool = True) -> Plan:
    p = ctx.provider
    request_url = p.request_url() or ""
    base = (p.base_url if isinstance(p.base_url, str) else "https://api.openai.com/v1").lstrip().rstrip("/")
    query = request_url.split("?", 1)[1] if "?" in request_url else ""
    idle_ms = p.get("stream_idle_timeout_ms")
    idle_s = idle_ms / 1000 if isinstance(idle_ms, (int, float)) and idle_ms > 0 else 300.0
    wire = "chat" if p.wire_api == "chat" else "responses"
    model = str(ctx.resolution.model or "gpt-5")
    first_request = None
    if wire == "responses" and first:
        from codexdoctor.common import tokens

        def load_counter() -> tuple[Callable[[str], int], str]:
            tok = tokens.for_model(model)
            return tok.count, tok.name

        first_request = codexrequest.build(
            ctx.resolution,
            model,
            CANARY_PROMPT,
            tokenizer=tokens.encoding_for_model(model),
            shell=ctx.shell.name,
            max_output_tokens=CANARY_MAX_OUTPUT,
            load_counter=load_counter,
        )
    retries = p.get("stream_max_retries")
    stream_retries = retries if isinstance(retries, int) and not isinstance(retries, bool) and retries >= 0 else 5
    return Plan(
        base,
        request_url,
        wire,
        model,
        _headers(ctx, ctx.key_value()),
        query,
        idle_s,
        first_request,
        min(stream_retries, 100),
    )


def rejected_field(ex: Exchange, message: str) -> str | None:
    """Which part of Codex's request a provider refused, from its error body: `param`, or a field it names."""
    err = outside.obj(ex.body_json, "error")
    param = outside.text(err if err is not None else ex.body_json, "param")
    text = f"{message} {ex.body_excerpt}".lower()
    if param is not None and param.split(".")[0].split("[")[0] in codexrequest.CODEX_FIELDS:
        return param
    if "developer" in text or "roles must alternate" in text or "system message" in text:
        return "a `developer` input item"
    if "system" in text and "messages" in text:
        # A Responses-to-Chat gateway turns Codex's developer items into system messages the backend refuses.
        return "a `developer` input item (sent on as a system message)"
    for tool_type in ("namespace", "web_search"):
        if tool_type in text:
            return f"a `{tool_type}` tool"
    for name in codexrequest.CODEX_FIELDS:
        # whole words only: "store" is not in "restore", "include" not in "included"
        if name not in ("input", "stream", "tools") and re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", text):
            return name
    return "tools" if re.search(r"\btools?\b", text) else None


def canary_body(wire: str, model: str) -> dict[str, Any]:
    if wire == "chat":
        return {
            "model": model,
            "messages": [
                {"role": "system", "content": CANARY_INSTRUCTIONS},
                {"role": "user", "content": CANARY_PROMPT},
            ],
            "stream": True,
            "max_tokens": CANARY_MAX_OUTPUT,
        }
    return {
        "model": model,
        "instructions": CANARY_INSTRUCTIONS,
        "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": CANARY_PROMPT}]}],
        "stream": True,
        "store": False,
        "max_output_tokens": CANARY_MAX_OUTPUT,
    }


def with_query(url: str, query: str) -> str:
    return f"{url}?{query}" if query else url


def base_url_variants(base: str) -> list[str]:
    """Same origin, /v1 removed or added, last segment dropped: how a wrong prefix is usually wrong."""
    parts = urlsplit(base)
    path = parts.path.rstrip("/")
    candidates = []
    if path.endswith("/v1"):
        candidates.append(path[:-3])
    else:
        candidates.append(path + "/v1")
    if "/" in path.strip("/"):
        parent = path.rsplit("/", 1)[0]
        candidates += [parent, parent + "/v1"]
    candidates += ["/v1", "/api", "/api/v1"]
    if parts.query or parts.fragment:  # a landing-page ?utm_… link: the same path without it comes first
        candidates.insert(0, path)
    seen, out = (set() if parts.query or parts.fragment else {path}), []
    for cand in candidates:
        cand = cand.rstrip("/")
        if cand not in seen:
            seen.add(cand)
            out.append(urlunsplit((parts.scheme, parts.netloc, cand, "", "")))
    return out[:5]


def variants_of(raw_base_url: str) -> list[str]:
    """The variants tried for a configured base_url, computed one way for the live check and for `fix`.

    Trailing whitespace reaches Codex's path as %20: the same URL without it is the first variant to try."""
    base = raw_base_url.strip().rstrip("/")
    variants = base_url_variants(base)
    if raw_base_url.rstrip() != raw_base_url:
        parts = urlsplit(base)
        bare = urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))
        variants = [bare] + [v for v in variants if v != bare][:4]
    return variants


# Where a catalog keeps its entries: OpenAI's `data`, Ollama's `models`; a value of another type there is a shape.
CATALOG_FIELDS = Fields(optional={"data": ARRAY, "models": ARRAY})


def catalog_entries(body: Any) -> list[dict[str, Any]]:
    """Model entries from the OpenAI shape and the common variants (Ollama tags, bare lists, `models`)."""
    found = outside.items(body) or outside.items(body, "data") or outside.items(body, "models") or ()
    out = []
    for item in found:
        if isinstance(item, str):
            out.append({"id": item})
        elif isinstance(item, Mapping):
            # the first of these that is a string (LiteLLM /model/info names it `model_name`)
            mid = next((v for k in ("id", "name", "model", "model_name") if (v := outside.text(item, k))), None)
            if mid is not None:
                out.append({**item, "id": mid})
    return out


def catalog_shapes(body: Any) -> list[str]:
    """What a catalog answer has of the wrong type where entries belong, as evidence sentences."""
    return (
        [shape.sentence() for shape in outside.shape_problems(body, CATALOG_FIELDS)]
        if isinstance(body, Mapping)
        else []
    )


WINDOW_FIELDS = (
    ("max_model_len",),
    ("context_length",),
    ("context_window",),
    ("max_context_length",),
    ("meta", "n_ctx"),
    ("meta", "n_ctx_train"),
    ("top_provider", "context_length"),
    ("model_info", "max_input_tokens"),
)


def window_field(entry: Mapping[str, Any]) -> tuple[int, str] | None:
    """The served window and the field it came from (`meta.n_ctx`), so the evidence names the one actually read."""
    for path in WINDOW_FIELDS:
        found = outside.integer(entry, *path)
        if found is not None and found > 0:
            return found, ".".join(path)
    return None


def window_from_entry(entry: Mapping[str, Any]) -> int | None:
    found = window_field(entry)
    return found[0] if found else None


_VERSION_SUFFIX = re.compile(r"(?:[-_@:](?:\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|\d{2}-\d{2}|v\d+(?:\.\d+)*|latest|preview))+$")


def match_model(model: str, ids: list[str]) -> dict[str, Any]:
    if model in ids:
        return {"match": "exact", "closest": []}
    stripped = model.strip()
    if stripped in ids:
        return {"match": "whitespace", "closest": [stripped]}
    lowered = {i.lower(): i for i in ids}
    if stripped.lower() in lowered:
        return {"match": "case", "closest": [lowered[stripped.lower()]]}
    # A dated or versioned ID copied from a changelog or a docs page (gpt-5.1-codex-2025-11-13) where the catalog has
    # exactly one ID that is the same without that suffix (case and spaces normalised): a certain edit (issue 28).
    undated = _VERSION_SUFFIX.sub("", " ".join(stripped.split()).lower())
    same = [i for i in ids if i.lower() == undated] if undated != stripped.lower() else []
    if len(same) == 1:
        return {"match": "dated", "closest": same}
    close = difflib.get_close_matches(stripped, ids, n=3, cutoff=0.5)
    close += [
        i
        for i in ids
        if (stripped.lower() in i.lower() or i.lower().split("/")[-1] == stripped.lower()) and i not in close
    ]
    return {"match": "missing", "closest": close[:3]}


class LiveRun:
    """One run of the live probes. Probes in a phase run concurrently; phase 2 only when needed."""

    def __init__(
        self,
        ctx: CheckContext,
        deadline: Deadline,
        client: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
        first: bool = True,
    ):
        """`first=False` when no canary is sent (diagnose-error, the probe's summary): Codex's request is not built."""
        self.ctx = ctx
        self.deadline = deadline
        self.plan = make_plan(ctx, first)
        needs_tls = self.plan.base_url.startswith("https:") or proxy_for(self.plan.base_url, ctx.env) is not None
        self.client = client or make_client(ctx.env, tls=needs_tls)
        self.sleep = sleep
        self.redact = ctx.redactor
        # The main canary's own clock: the check's deadline, or longer while the provider shows it is alive (run()).
        wait = float(ctx.options.get("first_token_timeout", FIRST_TOKEN_TIMEOUT))
        self.canary_deadline = Deadline(max(deadline.total, wait)) if first else deadline
        self.canary_answered = threading.Event()  # the canary's status line arrived: the provider accepted it
        self.catalog_at: str | None = None  # the catalog was read at the base_url variant that works
        self.waiting_total = deadline.total  # what the "still waiting" line counts towards
        self.waited_for_alive: str | None = None  # why the canary was given longer than the deadline
        self.first_body = self.plan.first.body if self.plan.first is not None else None

    def _send(
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
        wire = wire or self.plan.wire
        root = (base or self.plan.base_url).rstrip("/")
        url = with_query(root + ("/chat/completions" if wire == "chat" else "/responses"), self.plan.query)
        return self._send(
            "POST",
            url,
            body=canary_body(wire, self.plan.model),
            stream=True,
            retries=TRANSIENT_RETRIES,
            **(self._main_canary_options() if main else {}),
        )

    def codex_canary(self, body: Mapping[str, Any] | None = None) -> Exchange:
        """POST {base_url}/responses with Codex's own first request (only the answer capped), on the canary's clock,
        with Codex's own patience for a 429 (stream_max_retries, each after Retry-After)."""
        if self.plan.first is None:  # an assert would vanish under `python -O`
            raise RuntimeError("codex_canary needs Codex's first request (the plan was made with first=False)")
        url = with_query(self.plan.base_url.rstrip("/") + "/responses", self.plan.query)
        return self._send(
            "POST",
            url,
            body=body or self.plan.first.body,
            stream=True,
            retries=TRANSIENT_RETRIES,
            **self._main_canary_options(),
        )

    def _main_canary_options(self) -> dict[str, Any]:
        return {
            "deadline": self.canary_deadline,
            "rate_limit_retries": self.plan.stream_retries,
            "on_headers": lambda _status: self.canary_answered.set(),
        }

    def main_canary(self) -> Exchange:
        return self.codex_canary() if self.plan.first is not None else self.canary(main=True)

    def _canary_in_background(self) -> Future[Exchange]:
        """The main canary on a daemon thread: when the provider shows no sign of life by the deadline, the check
        ends without waiting for it (a pool's worker would be joined at exit)."""
        future: Future[Exchange] = Future()

        def work() -> None:
            try:
                future.set_result(self.main_canary())
            except BaseException as exc:
                future.set_exception(exc)

        threading.Thread(target=work, name="codexdoctor-canary", daemon=True).start()
        return future

    def _await_canary(self, future: Future[Exchange], catalog: Exchange, windows: list[Exchange]) -> Exchange:
        """The canary's answer, waited for as Codex waits when the provider is alive, and no longer than the deadline
        when nothing shows it is."""
        try:
            return future.result(timeout=max(0.0, self.deadline.remaining()) + 0.2)
        except FutureTimeout:
            pass
        alive = self._alive(catalog, windows)
        if alive is None:
            return Exchange(
                "POST",
                self.redact(self.plan.request_url),
                failure="timeout",
                sent_key=True,
                requested_stream=True,
                elapsed_ms=round(self.deadline.total * 1000, 1),
                failure_detail=f"no answer within codexdoctor's deadline (--timeout {self.deadline.total:g} s), "
                "and nothing else from this host answered either",
            )
        self.waited_for_alive = alive
        self.waiting_total = self.canary_deadline.total
        progress = self.ctx.options.get("progress")
        if callable(progress):
            progress(
                sanitize(
                    self.redact(
                        f"the provider is alive ({alive}) but has not answered Codex's first request yet: waiting up to "
                        f"{self.canary_deadline.total:g} s (--first-token-timeout), as Codex would wait"
                    )
                )
            )
        try:
            return future.result(timeout=max(0.0, self.canary_deadline.remaining()) + 1.0)
        except FutureTimeout:
            return Exchange(
                "POST",
                self.redact(self.plan.request_url),
                failure="timeout",
                sent_key=True,
                requested_stream=True,
                elapsed_ms=round(self.canary_deadline.total * 1000, 1),
                failure_detail=f"no first token within --first-token-timeout {self.canary_deadline.total:g} s, "
                f"although the provider is alive ({alive})",
            )

    def _alive(self, catalog: Exchange, windows: list[Exchange]) -> str | None:
        """What shows the provider is up: the canary's own status line, or any other answer from the host."""
        if self.canary_answered.is_set():
            return "it accepted the request"
        for ex in [catalog, *windows]:
            if ex.status is not None:
                path = urlsplit(ex.url).path or "/"
                return f"GET {path} answered {ex.status} in {ex.elapsed_ms:.0f} ms"
        return None

    def contrast(self, canary: Exchange, kind: Classified) -> tuple[Exchange, Classified, Exchange | None, str | None]:
        """After Codex's request failed in a way its shape or size may explain, send the minimal one too.

        Returns the canary (re-sent without max_output_tokens when only that was refused: Codex never sends it),
        its kind, the minimal exchange, and the field the provider named."""
        if self.plan.first is None or kind.kind not in CONTRAST_KINDS or self.deadline.expired:
            return canary, kind, None, None
        field = rejected_field(canary, kind.message) if kind.kind != "context_exceeded" else None
        if field == "max_output_tokens":
            body = {k: v for k, v in self.plan.first.body.items() if k != "max_output_tokens"}
            self.first_body = body  # turn two is built on the request that was accepted
            canary = self.codex_canary(body)
            kind = classify(canary, self.plan.wire)
            if kind.kind not in CONTRAST_KINDS:
                return canary, kind, None, None
            field = rejected_field(canary, kind.message) if kind.kind != "context_exceeded" else None
        return canary, kind, self.canary(), field

    def catalog(self, key: bool = True) -> Exchange:
        return self._send(
            "GET",
            with_query(self.plan.base_url + "/models", self.plan.query),
            key=key,
            retries=TRANSIENT_RETRIES if key else 0,
        )

    def window_probe_urls(self) -> list[str]:
        """Where servers publish their window: llama.cpp /props, LiteLLM /model/info (vLLM uses /models)."""
        parts = urlsplit(self.plan.base_url)
        origin = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
        return [origin + "/props", origin + "/model/info"]

    def run(self) -> list[CheckResult]:
        canary_on = bool(self.ctx.options.get("canary", True))
        with ThreadPoolExecutor(max_workers=6) as pool:
            f_can = self._canary_in_background() if canary_on else None
            f_cat = pool.submit(self.catalog, True)
            f_open = pool.submit(self.catalog, False)
            f_win = [pool.submit(self._send, "GET", url) for url in self.window_probe_urls()]
            catalog, open_catalog = f_cat.result(), f_open.result()
            window_exchanges = [f.result() for f in f_win]
        canary = self._await_canary(f_can, catalog, window_exchanges) if f_can else None
        cat_kind = classify(catalog, "models")
        can_kind = classify(canary, self.plan.wire) if canary else None
        if (
            canary is not None and canary.server_cert_ca
        ):  # Python got through; Codex (rustls) would not (net.reach says why)
            can_kind = Classified("tls", "Codex refuses the server's certificate (CA:TRUE)")
        minimal, field = None, None
        if canary is not None and can_kind is not None:
            canary, can_kind, minimal, field = self.contrast(canary, can_kind)
        path_404 = (can_kind is not None and can_kind.kind in ("path_not_found", "html")) or (
            can_kind is None and cat_kind.kind in ("path_not_found", "html")
        )
        variants: list[tuple[str, Exchange]] = []
        chat: Exchange | None = None
        if path_404 and not self.deadline.expired:
            with ThreadPoolExecutor(max_workers=6) as pool:
                futures = [
                    (v, pool.submit(self.canary, v) if canary_on else pool.submit(self._variant_catalog, v))
                    for v in variants_of(self.plan.base_url)
                ]
                f_chat = pool.submit(self.canary, None, "chat") if self.plan.wire == "responses" and canary_on else None
                variants = [(v, f.result()) for v, f in futures]
                chat = f_chat.result() if f_chat else None
        chat_ok = chat is not None and classify(chat, "chat").kind == "ok"
        working = self._working_variant(variants)
        listed, listed_kind = catalog, cat_kind
        if working is not None and cat_kind.kind in ("path_not_found", "html") and not self.deadline.expired:
            # Issue 28: the catalog where the API really is, so a model ID it lists differently is named in this run.
            moved = self._variant_catalog(variants[working][0])
            if classify(moved, "models").kind == "ok":
                listed, listed_kind = moved, classify(moved, "models")
                self.catalog_at = self.redact(variants[working][0])
        # From here on each check's result is built on its own: a bug in one is that check's crash, not all seven.
        isolated = self._isolated
        catalog_res = isolated("api.catalog", lambda: self.catalog_result(listed, open_catalog, listed_kind, can_kind))
        turn_two_res = isolated(
            "api.turn_two",
            lambda: self.turn_two_result(canary, can_kind, self.turn_two(canary, can_kind) if canary_on else None),
        )
        canary_res = isolated(
            "api.canary", lambda: self.canary_result(canary, can_kind, catalog_res.facts, minimal, field)
        )
        variants_res = isolated(
            "api.variants",
            lambda: self.variants_result(path_404, variants, chat_ok, canary if canary is not None else catalog),
        )
        missing = (variants_res.facts.get("working") or {}).get("model_not_found")
        if missing and canary_res.status is not Status.CRASH and canary_res.facts.get("kind") != "model_not_found":
            # Issue 28: the provider already said the model is unknown, at the URL that works; say it in this run.
            canary_res = replace(canary_res, facts={**canary_res.facts, "model_not_found_at": missing})
        return [
            isolated("net.reach", lambda: self.reach_result(catalog, canary)),
            catalog_res,
            canary_res,
            turn_two_res,
            variants_res,
            isolated("api.wire", lambda: self.wire_result(path_404, variants, chat)),
            isolated("ctx.window", lambda: self.window_result(catalog, window_exchanges, can_kind, canary)),
        ]

    def _isolated(self, check_id: str, build: Callable[[], CheckResult]) -> CheckResult:
        """One live check's result, or its crash: the exchanges are gathered, so the other checks still report."""
        try:
            return build()
        except Exception as exc:
            return crashed(check_id, TITLES[check_id], exc, self.redact)

    def turn_two(
        self, canary: Exchange | None, kind: Classified | None
    ) -> tuple[codexrequest.TurnTwo, Exchange] | None:
        """After Codex's first request got its answer: the request Codex sends after a tool ran (issue 31)."""
        if (
            canary is None
            or kind is None
            or kind.kind != "ok"
            or self.plan.first is None
            or not self.ctx.options.get("turn_two", True)
            or self.canary_deadline.expired
        ):
            return None
        second = codexrequest.turn_two(
            self.first_body or self.plan.first.body, canary.stream.reasoning if canary.stream else None
        )
        return second, self.codex_canary(second.body)

    def _working_variant(self, variants: list[tuple[str, Exchange]]) -> int | None:
        """The first variant whose route exists: it answers anything but 404/HTML (even 401 or a model error proves
        the path)."""
        for index, (_, ex) in enumerate(variants):
            if ex.status is not None and classify(ex, self.plan.wire).kind not in (
                "path_not_found",
                "html",
                "not_json",
                "redirect",
            ):
                return index
        return None

    def _variant_catalog(self, base: str) -> Exchange:
        return self._send("GET", with_query(base.rstrip("/") + "/models", self.plan.query))

    # ---- results --------------------------------------------------------------------------------
    def reach_result(self, catalog: Exchange, canary: Exchange | None) -> CheckResult:
        first = canary or catalog
        exchanges = [x for x in (canary, catalog) if x is not None]
        proxy = proxy_for(self.plan.request_url, self.ctx.env)
        proxy_var = proxy_variable(self.plan.request_url, self.ctx.env)
        env = self.ctx.env
        ignored_ca = next((v for v in IGNORED_CA_VARIABLES if env.get(v)), None)
        facts: dict[str, Any] = {
            "failure": None,
            "detail": "",
            "proxy": bool(proxy),
            "host": urlsplit(self.plan.base_url).hostname,
            "proxy_var": proxy_var,
            "no_proxy_value": self._no_proxy_value(),
            "ca_variables": [v for v in CA_VARIABLES if env.get(v)],
            "ignored_ca_variable": ignored_ca,
            "ignored_ca_file": self.redact(env[ignored_ca]) if ignored_ca else None,
            "scheme": urlsplit(self.plan.base_url).scheme,
            "redirect": None,
            "html": False,
            "url": self.redact(first.url),
            "base_url": self.redact(self.plan.base_url),
            "waited_for_alive": self.waited_for_alive if canary is not None else None,
            "first_token_timeout_s": self.canary_deadline.total,
        }
        evidence = [x.line() for x in exchanges]
        if proxy:
            evidence.append(f"via proxy {self.redact(proxy)}")
        answered = [x for x in exchanges if x.status is not None]
        redirect = next((x for x in exchanges if x.failure == "redirect"), None)
        if redirect:
            facts.update(redirect=redirect.location, failure="redirect")
            return result(
                "net.reach", TITLES["net.reach"], Status.FAIL, f"redirected to {redirect.location}", evidence, **facts
            )
        if proxy_var and (
            first.status == 407 or (first.failure in ("refused", "dns", "proxy") and first.status is None)
        ):
            # The proxy, not the provider: Codex goes through it too, and (dead) retries for ever or (407) stops with
            # `unexpected status 407 Proxy Authentication Required: …, url: <the provider's URL>`.
            what = (
                "asks for credentials (407 Proxy Authentication Required)"
                if first.status == 407
                else "refuses connections"
                if first.failure == "refused"
                else "cannot be found (its host name does not resolve)"
                if first.failure == "dns"
                else first.failure_detail
            )
            facts.update(
                failure="proxy",
                detail=f"the proxy in ${proxy_var} ({self.redact(proxy or '')}) {what}",
                proxy_status=first.status,
            )
            return result("net.reach", TITLES["net.reach"], Status.FAIL, facts["detail"], evidence, **facts)
        cert_ca = next((x for x in exchanges if x.server_cert_ca), None)
        if cert_ca is not None:
            # Python trusted it; Codex (rustls) does not: it keeps printing "Reconnecting... waiting for network".
            facts.update(
                failure="tls",
                detail="the server's own certificate is a CA certificate (basicConstraints "
                "CA:TRUE, what a plain `openssl req -x509` makes): Python accepts it, Codex (rustls) refuses it "
                "as a server certificate even when your CA file names it",
                cert_ca=True,
            )
            return result("net.reach", TITLES["net.reach"], Status.FAIL, facts["detail"], evidence, **facts)
        # The request Codex makes decides: a catalog that answers does not help if the canary cannot get through.
        if first.failure and (first.status is None or first.failure != "redirect"):
            facts.update(failure=first.failure, detail=first.failure_detail, url=first.url)
            return result(
                "net.reach",
                TITLES["net.reach"],
                Status.FAIL,
                _human(first.failure, first.failure_detail),
                evidence,
                **facts,
            )
        if not answered:
            failure = first.failure or "protocol"
            facts.update(failure=failure, detail=first.failure_detail)
            return result(
                "net.reach", TITLES["net.reach"], Status.FAIL, _human(failure, first.failure_detail), evidence, **facts
            )
        html_home = all(x.is_html for x in answered)
        facts["html"] = html_home
        status = Status.WARN if html_home else Status.PASS
        summary = (
            "an HTML site answers, not an API"
            if html_home
            else f"answered in {min(x.elapsed_ms for x in answered):.0f} ms"
        )
        return result("net.reach", TITLES["net.reach"], status, summary, evidence, **facts)

    def turn_two_result(
        self, canary: Exchange | None, kind: Classified | None, second: tuple[codexrequest.TurnTwo, Exchange] | None
    ) -> CheckResult:
        title = TITLES["api.turn_two"]
        if canary is None or kind is None or not self.ctx.options.get("canary", True):
            return result("api.turn_two", title, Status.SKIP, "skipped (--no-canary)", skipped=True)
        if not self.ctx.options.get("turn_two", True):
            return result("api.turn_two", title, Status.SKIP, "skipped (--no-turn-two)", skipped=True)
        if second is None:
            why = (
                "Codex's first request did not get through"
                if kind.kind != "ok"
                else 'only for Codex\'s own request (wire_api = "responses")'
                if self.plan.first is None
                else "the deadline was reached first"
            )
            return result("api.turn_two", title, Status.SKIP, f"not sent: {why}", skipped=True, reason=why)
        request, ex = second
        k = classify(ex, self.plan.wire)
        first = self.plan.first
        first_reported = _reported_input(canary)
        reported = _reported_input(ex)
        estimate = (first.tokens if first else 0) + round(request.added_bytes / 3.6)
        text = f"{k.message} {ex.body_excerpt}".lower()
        named = turn_two_item(text, broad=True) if k.kind not in ("ok", "context_exceeded") else None
        facts: dict[str, Any] = {
            "kind": k.kind,
            "detail": k.detail,
            "message": k.message,
            "status": ex.status,
            "url": ex.url,
            "item_kinds": list(request.item_kinds),
            "named_item": named,
            "attempts": ex.attempts,
            "request_bytes": ex.request_bytes,
            "added_bytes": request.added_bytes,
            "first_request": first_reported or (first.tokens if first else None),
            "first_counted_by": "provider" if first_reported else "estimate",
            "turn_two_tokens": reported or estimate,
            "turn_two_counted_by": "provider" if reported else "estimate",
            "reasoning_replayed": "reasoning" in request.item_kinds,
            "html": ex.is_html,
            "user_config": self._user_config(),
            "model": self.plan.model,
            "server_window": None,
            "server_request": None,
            "request_id": ex.request_id,
            "started_at": ex.started_at,
        }
        if k.kind == "context_exceeded":
            from codexdoctor.net.classify import context_numbers

            facts["server_window"], facts["server_request"] = context_numbers(f"{ex.body_excerpt} {k.message}")
        evidence = [
            ex.line(),
            f"turn two adds {', '.join(request.item_kinds)} ({request.added_bytes:,} bytes: one "
            f"exec_command call and its output, made up here, never run)",
            f"turn two: {facts['turn_two_tokens']:,} input tokens ({facts['turn_two_counted_by']})",
        ]
        if k.kind == "ok":
            return result(
                "api.turn_two",
                title,
                Status.PASS,
                f"works with a tool call and its output ({facts['turn_two_tokens']:,} tokens)",
                evidence,
                **facts,
            )
        return result("api.turn_two", title, Status.FAIL, _human(k.kind, k.detail), evidence, **facts)

    def _no_proxy_value(self) -> str:
        """The NO_PROXY value that would take the provider out of the proxy: its host as written in base_url, added to
        what NO_PROXY holds now (127.0.0.1 is not covered by localhost, nor the other way round)."""
        host = urlsplit(self.plan.base_url).hostname or ""
        current = next((v for k, v in self.ctx.env.items() if k.lower() == "no_proxy" and v), "")
        return ",".join([p for p in current.split(",") if p.strip()] + [host]) if host else current

    def catalog_result(
        self, catalog: Exchange, open_catalog: Exchange, kind: Classified, canary_kind: Classified | None
    ) -> CheckResult:
        entries = catalog_entries(catalog.body_json) if catalog.ok else []
        ids = [e["id"] for e in entries]
        open_entries = catalog_entries(open_catalog.body_json) if open_catalog.ok else []
        model = self.plan.model
        facts: dict[str, Any] = {
            "status": catalog.status,
            "kind": kind.kind,
            "message": kind.message,
            "count": len(ids),
            "ids": ids[:50],
            "model": model,
            "open_without_key": bool(open_entries),
            "match": None,
            "closest": [],
            "canary_ran": canary_kind is not None,
            "canary_kind": canary_kind.kind if canary_kind else None,
            "url": catalog.url,
            "user_config": self._user_config(),
            "model_origin": self.ctx.resolution.model_origin,
            "model_where": self._model_where(),
            "shapes": catalog_shapes(catalog.body_json) if catalog.ok else [],
        }
        evidence = [catalog.line(), "without key: " + open_catalog.line(), *facts["shapes"]]
        if not entries:
            summary = f"no usable catalog: {_human(kind.kind, kind.detail)}"
            return result(
                "api.catalog",
                TITLES["api.catalog"],
                Status.SKIP if kind.kind in ("path_not_found", "not_json", "ok", "html") else Status.WARN,
                summary,
                evidence,
                **facts,
            )
        facts.update(match_model(model, ids))
        evidence.append(
            f'{plural(len(ids), "model")}; configured "{model}": {facts["match"]}'
            + (f"; closest: {', '.join(facts['closest'])}" if facts["closest"] else "")
        )
        status = Status.PASS if facts["match"] == "exact" else Status.WARN
        summary = f'{plural(len(ids), "model")}, "{model}" {MATCH_WORDS[facts["match"]]}'
        if self.catalog_at:
            summary += f" (at {self.catalog_at})"
            facts["read_at"] = self.catalog_at
        return result("api.catalog", TITLES["api.catalog"], status, summary, evidence, **facts)

    def canary_result(
        self,
        canary: Exchange | None,
        kind: Classified | None,
        catalog: Mapping[str, Any] | None = None,
        minimal: Exchange | None = None,
        field: str | None = None,
    ) -> CheckResult:
        if canary is None or kind is None:
            return result("api.canary", TITLES["api.canary"], Status.SKIP, "skipped (--no-canary)", skipped=True)
        first = self.plan.first
        minimal_kind = classify(minimal, self.plan.wire) if minimal is not None else None
        # Codex's request failed where a minimal one passes: its shape (a field, an item) or its size is the cause.
        # A 5xx, a reset or a broken stream is what a flaky channel does too: only when the error names a part of
        # Codex's request is the contrast evidence (a 400 is deterministic and counts without a name).
        flaky_shape = kind.kind in ("server_error", "stream_closed", "stream_error", "not_json") and field is None
        if (
            minimal_kind is not None
            and minimal_kind.kind == "ok"
            and kind.kind != "context_exceeded"
            and not flaky_shape
        ):
            kind = Classified(
                "codex_rejected",
                f"the provider rejects Codex's request ({field or 'a field it did not name'})",
                kind.message,
            )
        s = canary.stream
        facts: dict[str, Any] = {
            "kind": kind.kind,
            "detail": kind.detail,
            "message": kind.message,
            "status": canary.status,
            "url": canary.url,
            "wire": self.plan.wire,
            "model": self.plan.model,
            "attempts": canary.attempts,
            "earlier": list(canary.earlier),
            "ttft_ms": s.first_token_ms if s else None,
            "total_ms": canary.elapsed_ms,
            "max_gap_ms": s.max_gap_ms if s else None,
            "terminal": (s.terminal or s.cut) if s else None,
            "sent_key": canary.sent_key,
            "env_key": self.ctx.provider.env_key if isinstance(self.ctx.provider.env_key, str) else None,
            "user_config": self._user_config(),
            "model_origin": self.ctx.resolution.model_origin,
            "model_where": self._model_where(),
            "base_url_where": self.ctx.resolution.provider_field_origin("base_url"),
            "usage": dict(s.usage) if s and s.usage else None,
            "shapes": [shape.sentence() for shape in s.shapes] if s else [],
            "body_malformed": canary.body_malformed,
            "location": canary.location,
            "key_fp": fingerprint(key) if (key := self.ctx.key_value()) else None,
            "key_fp8": fingerprint(key).rsplit(":", 1)[1] if key else None,
            "catalog_closest": list((catalog or {}).get("closest") or []),
            "catalog_count": (catalog or {}).get("count", 0),
            "env_key_where": self.ctx.resolution.provider_field_origin("env_key"),
            "codex_shaped": first is not None,
            "first_request": first.tokens if first else None,
            "first_parts": [{"part": n, "tokens": t} for n, t in first.parts] if first else [],
            "docs": [{"path": d.path, "tokens": d.tokens, "bytes": d.bytes} for d in first.docs] if first else [],
            "codex_version": first.codex_version if first else None,
            "minimal_kind": minimal_kind.kind if minimal_kind else None,
            "minimal_status": minimal.status if minimal is not None else None,
            "field": field,
            "reported_input": _reported_input(canary),
            "server_window": None,
            "server_request": None,
            "request_id": canary.request_id,
            "started_at": canary.started_at,
            "provider_id": self.ctx.provider.id,
        }
        if kind.kind == "context_exceeded":
            from codexdoctor.net.classify import context_numbers

            facts["server_window"], facts["server_request"] = context_numbers(f"{canary.body_excerpt} {kind.message}")
        evidence = [canary.line()]
        if first is not None:
            evidence += first.evidence()
        if minimal is not None:
            evidence.append(f"minimal request (one instruction line, no tools): {minimal.line()}")
        evidence.append(f"answer capped at {CANARY_MAX_OUTPUT} output tokens")
        facts.update(
            request_bytes=canary.request_bytes,
            waited_for_alive=self.waited_for_alive,
            deadline_s=self.deadline.total,
            first_token_timeout_s=self.canary_deadline.total,
            codex_retries=self.plan.stream_retries,
        )
        if self.waited_for_alive:
            evidence.append(
                f"waited past --timeout {self.deadline.total:g} s because the provider is alive "
                f"({self.waited_for_alive}), as Codex waits"
            )
        if kind.kind == "rate_limited":
            limited = 1 + list(canary.earlier).count("429")
            facts.update(
                rate_limited_attempts=limited,
                codex_attempts=self.plan.stream_retries + 1,
                retry_after_s=canary.retry_after_s,
                waited_s=canary.waited_s,
            )
            if limited > self.plan.stream_retries:
                kind = Classified("rate_limit_exhausted", f"429 at all {limited} attempts Codex makes", kind.message)
            else:
                facts["inconclusive_reason"] = (
                    f"the provider answered 429 at each of {limited} attempts; Codex makes {self.plan.stream_retries + 1} "
                    f"(stream_max_retries = {self.plan.stream_retries}), each after Retry-After, and codexdoctor's time ran out "
                    "first: whether the limit lifts in time is unproven"
                )
            facts.update(kind=kind.kind, detail=kind.detail)
        if kind.kind == "ok":
            ttft = f", first token {s.first_token_ms:.0f} ms" if s and s.first_token_ms is not None else ""
            return result(
                "api.canary",
                TITLES["api.canary"],
                Status.PASS,
                f"streamed answer in {canary.elapsed_ms:.0f} ms{ttft}",
                evidence,
                **facts,
            )
        return result(
            "api.canary", TITLES["api.canary"], Status.FAIL, _human(kind.kind, kind.detail), evidence, **facts
        )

    def variants_result(
        self,
        path_404: bool,
        variants: list[tuple[str, Exchange]],
        chat_ok: bool = False,
        configured: Exchange | None = None,
    ) -> CheckResult:
        if not path_404:
            # Only a path that answered can be said to have answered: no answer means the variants were not needed
            # for that reason, and a row must not claim otherwise.
            if configured is not None and configured.status is None:
                return result(
                    "api.variants",
                    TITLES["api.variants"],
                    Status.SKIP,
                    "not tried: the configured URL did not answer",
                    working=None,
                )
            return result(
                "api.variants", TITLES["api.variants"], Status.SKIP, "the configured path answered", working=None
            )
        working: dict[str, Any] | None = None
        working_index = None
        evidence = []
        first_working = self._working_variant(variants)
        for index, (base, ex) in enumerate(variants):
            kind = classify(ex, self.plan.wire)
            evidence.append(f"{ex.line()} => {_human(kind.kind, kind.detail)}")
            if index == first_working:
                working = {"base_url": self.redact(base), "kind": kind.kind, "status": ex.status}
                working_index = index  # `fix` rebuilds the URL from the raw base_url, not from this redacted copy
                if kind.kind == "model_not_found":  # the next problem, seen now: MODEL001 names it in this run
                    working["model_not_found"] = {
                        "url": self.redact(ex.url),
                        "status": ex.status,
                        "message": self.redact(kind.message or kind.detail or ""),
                    }
        facts = {
            "working": working,
            "tried": [self.redact(b) for b, _ in variants],
            "configured": self.redact(self.plan.base_url),
            "request_url": self.redact(self.plan.request_url),
            "chat_works": chat_ok,
            "working_index": working_index,
            "base_url_where": self.ctx.resolution.provider_field_origin("base_url"),
            "user_config": self._user_config(),
        }
        if working:
            return result(
                "api.variants",
                TITLES["api.variants"],
                Status.PASS,
                f"{working['base_url']} serves the API",
                evidence,
                **facts,
            )
        return result(
            "api.variants",
            TITLES["api.variants"],
            Status.FAIL,
            "no variant of base_url serves the API",
            evidence,
            **facts,
        )

    def wire_result(self, path_404: bool, variants: list[tuple[str, Exchange]], chat: Exchange | None) -> CheckResult:
        version = self.ctx.codex_version
        facts: dict[str, Any] = {
            "wire": self.plan.wire,
            "chat_works": None,
            "variants_work": None,
            "codex_version": ".".join(map(str, version)) if version else None,
            "user_config": self._user_config(),
        }
        if not path_404 or chat is None:
            return result(
                "api.wire", TITLES["api.wire"], Status.SKIP, "not needed" if not path_404 else "no chat probe", **facts
            )
        chat_kind = classify(chat, "chat")
        facts["chat_works"] = chat_kind.kind == "ok"
        facts["variants_work"] = any(classify(x, "responses").kind == "ok" for _, x in variants)
        evidence = [chat.line() + f" => {_human(chat_kind.kind, chat_kind.detail)}"]
        if facts["chat_works"] and not facts["variants_work"]:
            return result(
                "api.wire",
                TITLES["api.wire"],
                Status.FAIL,
                "serves /chat/completions but not /responses",
                evidence,
                **facts,
            )
        # Not a Chat-only gateway: /chat/completions does not answer either, so the wire API is not the problem.
        status = Status.PASS if chat_kind.kind == "ok" else Status.SKIP
        summary = (
            "/chat/completions answers too"
            if chat_kind.kind == "ok"
            else f"not a Chat-only gateway (/chat/completions: {_human(chat_kind.kind, chat_kind.detail)})"
        )
        return result("api.wire", TITLES["api.wire"], status, summary, evidence, **facts)

    def served_window(self, catalog: Exchange, probes: list[Exchange]) -> tuple[int | None, str | None]:
        """The window the server publishes, and where: the catalog entry, llama.cpp /props or LiteLLM /model/info."""
        served, source = None, None
        entries = catalog_entries(catalog.body_json) if catalog.ok else []
        for entry in entries:
            if entry["id"] == self.plan.model or len(entries) == 1:
                found = window_field(entry)
                if found:
                    served, source = found[0], f"GET {catalog.url}, field {found[1]}"
                    break
        props, info = probes
        if served is None and props.ok:
            n_ctx = outside.integer(props.body_json, "default_generation_settings", "n_ctx") or outside.integer(
                props.body_json, "n_ctx"
            )
            if n_ctx is not None and n_ctx > 0:
                served, source = n_ctx, f"GET {props.url}, field n_ctx"
        if served is None and info.ok:
            for entry in catalog_entries(info.body_json):
                if outside.text(entry, "model_name") == self.plan.model or entry["id"] == self.plan.model:
                    found = window_field(entry)
                    if found:
                        served, source = found[0], f"GET {info.url}, field {found[1]}"
                        break
        return served, source

    def window_result(
        self,
        catalog: Exchange,
        probes: list[Exchange],
        canary_kind: Classified | None = None,
        canary: Exchange | None = None,
    ) -> CheckResult:
        served, source = self.served_window(catalog, probes)
        assumed, assumed_source = assumed_window(self.ctx)
        first = self.plan.first
        # The provider's own count of Codex's first request wins over the local estimate: its tokenizer and chat
        # template are the ones the window is measured in (a llama-server template that drops the tool schemas
        # counted 4,459 tokens where o200k counts 8,491).
        reported = (
            _reported_input(canary)
            if canary is not None and canary_kind is not None and canary_kind.kind == "ok"
            else None
        )
        reported = reported if reported is not None and reported > 0 else None
        first_tokens = reported or (first.tokens if first else CODEX_FIRST_REQUEST_TOKENS)
        # The first turn fails only when Codex's first request itself does not fit (observed: a 9,000-token window
        # serves `codex exec` with an 8,517-token first request); what is left after it is what a session grows into.
        min_usable = first_tokens if (first or reported) else MIN_USABLE_WINDOW
        facts: dict[str, Any] = {
            "served": served,
            "source": source,
            "assumed": assumed,
            "assumed_source": assumed_source,
            "effective": int(assumed * EFFECTIVE_SHARE),
            "compact_at": int(assumed * COMPACT_SHARE),
            "suggest_window": served,
            "suggest_compact": window_settings(served)[1] if served else None,
            "first_request": first_tokens,
            "first_counted": first is not None or reported is not None,
            "first_counted_by": "provider" if reported else "estimate",
            "min_usable": min_usable,
            "docs": [{"path": d.path, "tokens": d.tokens} for d in first.docs] if first else [],
            "user_config": self._user_config(),
            "model": self.plan.model,
            "unpublished": served is None,
            "first_fit": None,
            "room": served - first_tokens if served else None,
        }
        # A window (or compaction limit) set below Codex's first request: Codex still sends that request (checked
        # with Codex 0.171.0: model_context_window = 4000 answered), then compacts before every later turn.
        limit = self.ctx.resolution.merged.get("model_auto_compact_token_limit")
        compact_at = (
            limit if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 else facts["compact_at"]
        )
        facts["configured_below_first"] = bool(
            first is not None
            and compact_at < first_tokens
            and (assumed_source.startswith("model_context_window") or compact_at == limit)
        )
        facts["configured_compact_at"] = compact_at
        facts["tool_round"] = TOOL_ROUND_TOKENS
        facts["tool_round_fits"] = None if not served else served - first_tokens >= TOOL_ROUND_TOKENS
        evidence = [x.line() for x in probes] + [f"Codex assumes {assumed:,} tokens ({assumed_source})"]
        if first is not None:
            evidence += first.evidence()
        if reported:
            evidence.append(
                f"the provider counted Codex's first request as {reported:,} input tokens (its usage), "
                "and that count is the one used here"
            )
        if served is None:
            # Nobody publishes the window: Codex's own first request, sent as the canary, answers "will it fit".
            if first is not None and canary_kind is not None and canary_kind.kind == "ok":
                facts["first_fit"] = True
                return result(
                    "ctx.window",
                    TITLES["ctx.window"],
                    Status.PASS,
                    f"not published; Codex's first request ({first_tokens:,} tokens) fit, headroom unknown",
                    evidence,
                    **facts,
                )
            if first is not None and canary_kind is not None and canary_kind.kind == "context_exceeded":
                facts["first_fit"] = False
                return result(
                    "ctx.window",
                    TITLES["ctx.window"],
                    Status.SKIP,
                    f"not published; Codex's first request ({first_tokens:,} tokens) did not fit",
                    evidence,
                    **facts,
                )
            return result(
                "ctx.window",
                TITLES["ctx.window"],
                Status.SKIP,
                "the provider does not publish its window",
                evidence,
                **facts,
            )
        evidence.append(f"served window {served:,} tokens from {source}")
        if served < min_usable or served < assumed * COMPACT_SHARE:
            return result(
                "ctx.window",
                TITLES["ctx.window"],
                Status.FAIL if served < min_usable else Status.WARN,
                f"serves {served:,} tokens; Codex assumes {assumed:,}",
                evidence,
                **facts,
            )
        return result(
            "ctx.window",
            TITLES["ctx.window"],
            Status.PASS,
            f"serves {served:,} tokens (Codex assumes {assumed:,})",
            evidence,
            **facts,
        )

    def _user_config(self) -> str:
        layer = self.ctx.resolution.user_layer
        return layer.label if layer else "~/.codex/config.toml"

    def _model_where(self) -> str:
        """Where a remedy tells the user to set `model`: where it is set now, or their config file when it is
        Codex's default (the origin "default" is not a place to write to)."""
        origin = self.ctx.resolution.model_origin
        return self._user_config() if origin == "default" else origin


MATCH_WORDS = {
    "exact": "listed",
    "whitespace": "listed without its stray whitespace",
    "case": "listed with different capitals",
    "dated": "listed without its date or version suffix",
    "missing": "not listed",
}


def _reported_input(ex: Exchange) -> int | None:
    """The provider's own count of the request's input tokens (its usage), when it gave one that is a number."""
    return outside.integer(ex.stream.usage, "input_tokens") if ex.stream else None


def _human(kind: str | None, detail: str) -> str:
    """A check row in words: the detail says what happened; the internal kind (`path_not_found`) stays in the facts."""
    return detail or (kind or "failed").replace("_", " ")


def blocked_by_static(static: list[CheckResult]) -> list[str]:
    """Ids of static checks showing Codex would stop before sending any request."""
    by_id = {r.id: r for r in static}
    return [
        cid
        for cid, pred in STATIC_BLOCKERS.items()
        if cid in by_id and by_id[cid].status in (Status.FAIL, Status.SKIP) and pred(by_id[cid].facts)
    ]


def published_window(ctx: CheckContext, timeout_s: float = 10.0) -> tuple[int | None, str | None]:
    """The window the provider publishes, read the way `check` reads it (three GETs, no tokens spent), all of them
    within `timeout_s`."""
    run = LiveRun(ctx, Deadline(max(0.0, timeout_s)), first=False)
    try:
        catalog = run.catalog()
        return run.served_window(catalog, [run._send("GET", url) for url in run.window_probe_urls()])
    finally:
        run.client.close()


def blocker_names(static: list[CheckResult], blockers: list[str]) -> str:
    """The blocking checks as the user sees them on their rows ("API key variable"), never as internal ids."""
    titles = {r.id: r.title for r in static}
    return ", ".join(titles.get(b, b) for b in blockers)


def run_live(
    ctx: CheckContext, static: list[CheckResult], client: httpx.Client | None = None
) -> tuple[list[CheckResult], list[str]]:
    blockers = blocked_by_static(static)
    if blockers == ["env.auth"]:
        reason = (
            "the built-in provider has no stored API key (ChatGPT sign-in or none): Codex's requests go to the "
            "ChatGPT backend or nowhere, so there is no API channel to test"
        )
        return [
            result(cid, TITLES[cid], Status.SKIP, "skipped (see the note below)", blocked_by=blockers)
            for cid in LIVE_IDS
        ], [f"Live checks skipped: {reason}."]
    provider_facts = next((r.facts for r in static if r.id == "cfg.provider"), {})
    if "cfg.provider" in blockers and provider_facts.get("missing_base_url") and len(blockers) == 1:
        reason = (
            f"[model_providers.{provider_facts.get('provider')}] has no base_url, so Codex would send your key to "
            "https://api.openai.com/v1; codexdoctor does not send it anywhere you did not configure"
        )
        return [
            result(cid, TITLES[cid], Status.SKIP, "skipped (see the note below)", blocked_by=blockers)
            for cid in LIVE_IDS
        ], [f"Live checks skipped: {reason}."]
    if blockers:
        reason = "Codex would stop before sending a request (" + blocker_names(static, blockers) + "): fix that first"
        return [
            result(cid, TITLES[cid], Status.SKIP, "skipped (see the note below)", blocked_by=blockers)
            for cid in LIVE_IDS
        ], [f"Live checks skipped: {reason}."]
    deadline = Deadline(float(ctx.options.get("timeout", 10.0)))
    started = time.perf_counter()
    run = LiveRun(ctx, deadline, client=client)
    done = threading.Event()
    progress = ctx.options.get("progress")
    if callable(progress):
        host = urlsplit(run.plan.base_url).hostname or run.plan.base_url

        def still_waiting() -> None:
            while not done.wait(STILL_WAITING_EVERY):
                progress(
                    sanitize(
                        ctx.redactor(
                            f"still waiting for {host} ({time.perf_counter() - started:.0f} s of {run.waiting_total:g} s)..."
                        )
                    )
                )

        threading.Thread(target=still_waiting, name="codexdoctor-still-waiting", daemon=True).start()
    try:
        results = run.run()
    except Exception as exc:  # while the exchanges were gathered: every live check stands on them
        results = [crashed(cid, TITLES[cid], exc, ctx.redactor) for cid in LIVE_IDS]
    finally:
        done.set()
        if client is None:
            run.client.close()
    results = [ctx.stamp(r) for r in results]
    notes = [f"Live checks took {(time.perf_counter() - started) * 1000:.0f} ms (deadline {deadline.total:g} s)."]
    if ctx.options.get("canary", True):
        first = run.plan.first
        size = f"about {first.tokens:,} input tokens" if first else "a few input tokens"
        notes.append(
            f"The canary is Codex's own first request: {size} and at most {CANARY_MAX_OUTPUT} output tokens "
            "per send; --no-canary skips it."
        )
        if first is not None and ctx.options.get("turn_two", True):
            notes.append(
                f"After it, Codex's request that follows a tool call (the same request plus one made-up "
                f"`exec_command` call and about 10 KB of its output: about {first.tokens + 2800:,} input tokens) "
                "is sent once; --no-turn-two skips it."
            )
    if proxy_for(run.plan.request_url, ctx.env):
        notes.append("Requests went through the proxy configured in this environment.")
    return results, notes
