"""The text renderer's wrapping and tables: CPU time to lay out English and Chinese prose at 80 columns.

The leak sweeps of the test suite render ~1,400 reports ten times each, and a profile of one sweep put the renderer's
`wrap` and its per-character `display_width` first (issue 37). This times the same work outside the suite.

Run: python bench/bench_render.py   (PYTHONPATH=<checkout> to measure a worktree)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # PYTHONPATH, when set, wins

EN = (
    "The provider answered 401 Unauthorized to Codex's first request (8,488 tokens): the key in $TAOTOKEN_API_KEY "
    "(set, 38 chars, sha256:1a2b3c4d) was rejected. Check it at https://taotoken.net/console/keys and run: "
    "export TAOTOKEN_API_KEY=<redacted 38 chars, sha256:1a2b3c4d> "
)
ZH = (
    "提供方对 Codex 的第一个请求（8,488 个 token）返回了 401 Unauthorized：$TAOTOKEN_API_KEY 里的密钥"
    "（已设置，38 个字符）被拒绝了。请在 https://taotoken.net/console/keys 检查它，“model_context_window”"
    "不要超过提供方的窗口……否则 Codex 会一直重试——直到用完重试次数。"
)
ROUNDS = 7


def workload(wrap, table_lines) -> None:
    """What one sweep offset renders, roughly: many short and long lines, both languages, and two tables."""
    for n in range(20, 400, 9):
        for lang, text in (("en", EN * 3), ("zh", ZH * 3)):
            try:
                wrap(text[:n], 80, "    1. ", "       ", lang)
            except TypeError:  # a renderer from before the width function took a language
                wrap(text[:n], 80, "    1. ", "       ")
    rows = tuple((f"CTX{n:03}", "error", "context", (EN if n % 2 else ZH)[: 40 + n]) for n in range(40))
    table_lines(("code", "severity", "verdict", "title"), rows, 80)


def main() -> None:
    from codexdoctor.report.render.text import table_lines, wrap

    workload(wrap, table_lines)  # warm: imports and caches
    samples = []
    try:
        from codexdoctor.common.cells import _cells as string_cache
    except ImportError:  # before the width function
        string_cache = None
    for _ in range(ROUNDS):
        if string_cache is not None:
            string_cache.cache_clear()  # each round measures every string's width afresh, as a new report would
        started = time.process_time()
        workload(wrap, table_lines)
        samples.append(time.process_time() - started)
    print(f"wrap + table_lines workload: median {statistics.median(samples) * 1000:.1f} ms CPU ({ROUNDS} rounds)")


if __name__ == "__main__":
    main()
