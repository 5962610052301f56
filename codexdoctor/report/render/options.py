"""What every renderer is told besides the report (its own module, so renderers need not import the dispatcher)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RenderOptions:
    color: bool = False
    ascii: bool = False
    verbose: bool = False
    fail_on: str = "error"  # junit: which findings make a test case fail
    width: int | None = None  # text: wrap prose to this many terminal cells (None: do not wrap)
