"""net/errors.py: the one place the HTTP library's exceptions become failure kinds, and the edge it keeps."""

from __future__ import annotations

import ast
import re
import ssl
from pathlib import Path

import httpx
import pytest

import codexdoctor.net
from codexdoctor.net.body import Oversize, StreamCut, Undecodable
from codexdoctor.net.deadline import Deadline
from codexdoctor.net.errors import Failed, classify_exception, join_url, mapped_failures, mapped_reads
from codexdoctor.net.kinds import FailureKind
from codexdoctor.net.send import send

URL = "http://127.0.0.1:9/v1/responses"


@pytest.mark.parametrize(
    "exc, kind, words",
    [
        (httpx.ProxyError("407 Proxy Authentication Required"), "proxy", "407"),
        (httpx.ConnectTimeout("timed out"), "timeout", "connecting"),
        (httpx.ReadTimeout("timed out"), "timeout", "waiting for the response"),
        (httpx.WriteTimeout("timed out"), "timeout", "sending"),
        (httpx.PoolTimeout("timed out"), "timeout", "waiting for a connection"),
        (httpx.ConnectError("[SSL: CERTIFICATE_VERIFY_FAILED] self-signed certificate"), "tls", "self-signed"),
        (httpx.ConnectError("[SSL: CERTIFICATE_VERIFY_FAILED] certificate has expired"), "tls", "expired"),
        (httpx.ConnectError("[SSL] Hostname mismatch, certificate is not valid for 'x'"), "tls", "different host"),
        (httpx.ConnectError("[SSL] unable to get local issuer certificate"), "tls", "unknown authority"),
        (httpx.ConnectError("[SSL: WRONG_VERSION_NUMBER] wrong version number"), "tls", "does not speak TLS"),
        (ssl.SSLError("tls alert"), "tls", "tls alert"),
        (httpx.ConnectError("[Errno -2] Name or service not known"), "dns", "does not resolve"),
        (httpx.ConnectError("[Errno 111] Connection refused"), "refused", "nothing listens"),
        (OSError("[Errno 101] Network is unreachable"), "refused", "cannot reach"),
        (httpx.RemoteProtocolError("Server disconnected without sending a response."), "reset", "closed by the server"),
        (httpx.ReadError("[Errno 104] Connection reset by peer"), "reset", "closed by the server"),
        (httpx.WriteError("broken pipe"), "reset", "broken pipe"),
        (httpx.DecodingError("invalid gzip"), "protocol", "could not be decoded"),
        (
            httpx.UnsupportedProtocol("Request URL has an unsupported protocol 'ftp://'."),
            "protocol",
            "unsupported URL scheme",
        ),
        (httpx.InvalidURL("Invalid port: ':1'"), "protocol", "invalid URL"),
        (RuntimeError("something else"), "protocol", "RuntimeError: something else"),
        (ValueError(""), "protocol", "ValueError: ValueError"),
    ],
)
def test_each_library_error_is_one_failure_kind_with_words_to_act_on(exc, kind, words):
    found, detail = classify_exception(exc)
    assert isinstance(found, FailureKind) and found == kind and words in str(detail)


def test_a_long_library_message_is_cut():
    _, detail = classify_exception(httpx.ProxyError("x" * 5000))
    assert len(str(detail)) <= 200


def test_mapped_failures_turns_the_library_error_into_a_failure():
    with pytest.raises(Failed) as caught, mapped_failures():
        raise httpx.ConnectError("[Errno 111] Connection refused")
    assert caught.value.kind is FailureKind.REFUSED and "connection refused" in str(caught.value.detail)


@pytest.mark.parametrize("own", [Oversize("big"), Undecodable("gzip", "bad"), StreamCut("idle")])
def test_mapped_failures_lets_codexdoctors_own_reading_errors_through(own):
    with pytest.raises(type(own)), mapped_failures():
        raise own


def test_mapped_failures_does_not_swallow_an_interrupt():
    with pytest.raises(KeyboardInterrupt), mapped_failures():
        raise KeyboardInterrupt


@pytest.mark.parametrize(
    "exc, reason",
    [
        (httpx.ReadTimeout("idle"), "idle"),
        (httpx.RemoteProtocolError("peer closed"), "closed"),
        (httpx.ReadError("reset"), "closed"),
        (httpx.StreamClosed(), "closed"),
    ],
)
def test_a_read_error_inside_a_stream_is_a_stream_cut(exc, reason):
    def chunks():
        yield b"data: {}\n\n"
        raise exc

    read = mapped_reads(chunks())
    assert next(read) == b"data: {}\n\n"
    with pytest.raises(StreamCut) as caught:
        next(read)
    assert caught.value.reason == reason


def test_other_errors_inside_a_stream_are_not_taken_for_a_cut():
    def chunks():
        raise Oversize("big")
        yield b""

    with pytest.raises(Oversize):
        list(mapped_reads(chunks()))


@pytest.mark.parametrize("location", ["http://[::1/v1", "http://h\x00st/"])
def test_a_location_the_library_refuses_is_no_target(location):
    assert join_url(httpx.URL(URL), location) is None
    assert join_url(httpx.URL(URL), "/v2/responses") == "http://127.0.0.1:9/v2/responses"


# ---- through send(): what reaches the Exchange -----------------------------------------------------------------
def _send(handler, **kw):
    client = httpx.Client(transport=httpx.MockTransport(handler))
    return send(client, "POST", URL, headers={}, deadline=Deadline(5), redact=lambda s: s, json_body={}, **kw)


def test_a_connect_error_is_an_exchange_with_its_kind_never_an_exception():
    def handler(request):
        raise httpx.ConnectError("[Errno -2] Name or service not known", request=request)

    ex = _send(handler)
    assert ex.failure is FailureKind.DNS and ex.status is None and "does not resolve" in str(ex.line())


def test_a_stream_the_connection_drops_ends_as_closed_with_the_events_before_it():
    class Dropped(httpx.SyncByteStream):
        def __iter__(self):
            yield b'data: {"type": "response.output_text.delta", "delta": "hi"}\n\n'
            raise httpx.RemoteProtocolError("peer closed connection without sending complete message body")

    def handler(request):
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=Dropped())

    ex = _send(handler, stream=True)
    assert ex.failure is None and ex.stream is not None
    assert (ex.stream.events, ex.stream.text, ex.stream.cut, ex.stream.terminal) == (1, "hi", "closed", None)


def test_a_body_the_connection_drops_keeps_what_came_and_names_the_failure():
    class Dropped(httpx.SyncByteStream):
        def __iter__(self):
            yield b'{"error": '
            raise httpx.ReadError("[Errno 104] Connection reset by peer")

    ex = _send(lambda request: httpx.Response(502, stream=Dropped()))
    assert ex.status == 502 and ex.failure is FailureKind.RESET and ex.body_excerpt == '{"error":'


def test_only_the_edge_modules_name_the_http_library():
    """exchange records, kinds, the SSE parser and the taxonomy import no httpx: checks, rules and the session reader
    use them without loading it."""
    edge = {"client.py", "send.py", "errors.py"}
    net = Path(codexdoctor.net.__file__).parent
    importers = set()
    for path in net.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            if any(n == "httpx" or n.startswith("httpx.") for n in names):
                importers.add(path.name)
    assert importers == edge
    # and of those, only errors.py names the library's exception classes
    for name in edge - {"errors.py"}:
        used = set(re.findall(r"httpx\.(\w+)", (net / name).read_text(encoding="utf-8")))
        caught = {
            n
            for n in used
            if isinstance(getattr(httpx, n, None), type) and issubclass(getattr(httpx, n), BaseException)
        }
        assert not caught, f"{name} names {sorted(caught)}: map them in net/errors.py"
