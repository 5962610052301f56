"""The one record the gatherer hands to the result modules: every exchange of a live run, and how long it waited."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only types here: the result modules read exchanges without importing the HTTP library
    from codexdoctor.codex.request import TurnTwo
    from codexdoctor.model import Msg
    from codexdoctor.net.exchange import Exchange


@dataclass(frozen=True)
class Clocks:
    """The deadlines the canary was sent under, and why it was given longer than --timeout (the evidence says)."""

    deadline_s: float  # --timeout
    first_token_timeout_s: float  # the main canary's own clock (--first-token-timeout, or --timeout without a canary)
    waited_for_alive: str | None = None  # what showed the provider alive when the canary was waited for past --timeout
    alive_said: Msg | None = None  # the same in both languages (the evidence line says it in the report's)


@dataclass(frozen=True)
class Exchanges:
    """What a live run sent and got, in one frozen record; every live result is a pure function of it.

    `canary` is the final form of the main canary (re-sent without max_output_tokens when only that was refused);
    `minimal` the minimal request sent after it for contrast, with `field`, the part of Codex's request the provider
    named. `variants` and `chat` are phase two (only after a 404); `moved_catalog` the catalog read at the variant
    that works (issue 28). `turn_two_error` is an exception raised while building or sending turn two: it is that
    check's crash, not the whole run's."""

    catalog: Exchange
    open_catalog: Exchange  # the same GET without the key
    windows: tuple[Exchange, ...]  # llama.cpp /props, LiteLLM /model/info
    clocks: Clocks
    canary: Exchange | None = None  # None: --no-canary
    minimal: Exchange | None = None
    field: str | None = None
    variants: tuple[tuple[str, Exchange], ...] = ()
    chat: Exchange | None = None
    moved_catalog: tuple[str, Exchange] | None = None  # (the variant's base_url, its catalog)
    turn_two: tuple[TurnTwo, Exchange] | None = None
    turn_two_error: Exception | None = None
    # The same request with one call and one output, sent only when the two-call turn two was refused (not for its
    # size): it tells a bridge that keeps one tool result from one that takes none (issue 38 item 4).
    turn_two_single: tuple[TurnTwo, Exchange] | None = None
