"""Reading an answer's bytes with caps: a stream may be endless, fast, or a compression bomb.

The reader takes anything with `headers` and `iter_raw()` (an httpx response, or a test's stand-in): no import of
the HTTP library here. Its errors while reading are mapped to `StreamCut` in net.errors, the one place that knows them.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator, Mapping
from typing import Protocol

from codexdoctor.model import Msg

MAX_BODY = 256 * 1024  # bytes of a whole (non-stream) body kept
MAX_STREAM_BYTES = 16 * 1024 * 1024  # decoded bytes of one streamed answer


class Oversize(Exception):
    """The answer went past one of the caps; what was read so far still counts."""


class Undecodable(Exception):
    """The answer declares a Content-Encoding its bytes do not follow; `said` says so in both languages."""

    def __init__(self, encoding: str, why: str) -> None:
        self.said = Msg(
            "the answer says Content-Encoding: {encoding}, but its bytes are not ({why})",
            "响应声明了 Content-Encoding: {encoding}，但它的字节不是这种编码（{why}）",
            encoding=encoding,
            why=why,
        )
        super().__init__(str(self.said))


class StreamCut(Exception):
    """Reading the answer stopped on the connection's side: `idle` (a read waited the idle limit) or `closed`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class RawResponse(Protocol):
    """What the capped reader needs of a response: its headers and its raw (still encoded) body."""

    @property
    def headers(self) -> Mapping[str, str]: ...

    def iter_raw(self) -> Iterable[bytes]: ...


def bounded_bytes(resp: RawResponse, limit: int) -> Iterator[bytes]:
    """Decoded body bytes, at most `limit`, decompressing gzip/deflate ourselves in 64 KB steps (httpx would inflate
    a whole chunk at once: a 64 KB bomb becomes 64 MB). Other encodings are not decoded: their bytes are no text we
    can use anyway. Raises Oversize past the limit, Undecodable for bytes that do not follow their encoding."""
    encoding = resp.headers.get("content-encoding", "").strip().lower()
    decoder = None
    if encoding in ("gzip", "x-gzip"):
        decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
    elif encoding == "deflate":
        decoder = zlib.decompressobj()
    produced = 0
    for raw in resp.iter_raw():
        data = raw
        while data:
            room = limit - produced
            if room <= 0:
                raise Oversize(f"more than {limit:,} bytes" + (" once decompressed" if decoder else ""))
            if decoder is None:
                out, data = data[:room], data[room:]
            else:
                try:
                    out = decoder.decompress(data, min(1 << 16, room))
                except zlib.error as exc:
                    raise Undecodable(encoding, str(exc)) from None
                data = decoder.unconsumed_tail
            if not out:
                break
            produced += len(out)
            yield out
