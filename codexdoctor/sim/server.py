"""The server: one thread per connection, the seeded fault draw, the prefix cache, and RunningSim to run it in
the background."""

from __future__ import annotations

import random
import ssl
import threading
from dataclasses import replace
from http.server import ThreadingHTTPServer
from typing import Any

from codexdoctor.sim.config import RequestRecord, SimConfig
from codexdoctor.sim.handler import Handler
from codexdoctor.sim.prompt import Tokens, common_prefix_len


def host_text(host: str | bytes | bytearray) -> str:
    """A socket address's host as text: typeshed allows bytes there, and f"{b'127.0.0.1'}" is "b'127.0.0.1'" (a URL
    no client can use). Found by mypy (issue 32)."""
    return host.decode("ascii", "replace") if isinstance(host, (bytes, bytearray)) else str(host)


class SimServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def __init__(self, config: SimConfig) -> None:
        self.config = config
        self.records: list[RequestRecord] = []
        self.stopping = threading.Event()
        self._rng = random.Random(config.failure_seed)  # noqa: S311 - a seeded fault draw, reproducible on purpose
        self._lock = threading.Lock()
        self._cache: list[str] = []  # prefixes seen, for the optional prefix cache
        self._cache_asked = 0  # POSTs that asked the prefix cache (cache_stops_after)
        self.counter = 0
        self.limited = 0  # 429s answered so far (rate_limited_posts)
        super().__init__((config.host, config.port), Handler)
        if config.tls_certfile:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(config.tls_certfile, config.tls_keyfile)
            self.socket = context.wrap_socket(self.socket, server_side=True)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"{'https' if self.config.tls_certfile else 'http'}://{host_text(host)}:{port}"

    @property
    def base_url(self) -> str:
        return self.url + self.config.prefix

    def take_rate_limit(self) -> bool:
        """True for each of the first `rate_limited_posts` POSTs (counted across reconfigure)."""
        with self._lock:
            if self.limited >= self.config.rate_limited_posts:
                return False
            self.limited += 1
            return True

    def draw_fault(self) -> str | None:
        with self._lock:
            if self.config.failure_rate <= 0 or self._rng.random() >= self.config.failure_rate:
                return None
            return self._rng.choice(self.config.failure_kinds)

    def cached_prefix_tokens(self, text: str) -> int:
        """Longest previously seen prefix (in tokens), then remember this prompt."""
        with self._lock:
            self._cache_asked += 1
            stopped = self.config.cache_stops_after is not None and self._cache_asked > self.config.cache_stops_after
            best = ""
            for seen in [] if stopped else self._cache:
                n = common_prefix_len(seen, text)
                if n > len(best):
                    best = text[:n]
            self._cache.append(text)
            del self._cache[:-32]
        # Providers cache in blocks; report whole 128-token blocks like OpenAI does.
        tokens = Tokens.count(best) if best else 0
        return (tokens // 128) * 128

    def next_id(self) -> int:
        with self._lock:
            self.counter += 1
            return self.counter

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not self.config.quiet:
            super().handle_error(request, client_address)


class RunningSim:
    """A simulator serving in a background thread; use as a context manager or call stop()."""

    def __init__(self, config: SimConfig) -> None:
        self.server = SimServer(config)
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, name="codexdoctor-sim", daemon=True
        )

    @property
    def config(self) -> SimConfig:
        return self.server.config

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def base_url(self) -> str:
        return self.server.base_url

    @property
    def records(self) -> list[RequestRecord]:
        return self.server.records

    def reconfigure(self, **changes: Any) -> None:
        self.server.config = replace(self.server.config, **changes)

    def start(self) -> RunningSim:
        if not self.thread.is_alive():
            self.thread.start()
        return self

    def stop(self) -> None:
        self.server.stopping.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)

    def __enter__(self) -> RunningSim:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def start(config: SimConfig | None = None, **kwargs: Any) -> RunningSim:
    return RunningSim(replace(config or SimConfig(), **kwargs)).start()
