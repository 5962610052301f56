"""The least any Python `sessions` reader with this project's dependencies must do: the floor under codexdoctor.

Run: python bench/floor_reader.py SESSIONS_DIR [--no-parse]   (bench/bench_sessions_floor.py runs it against ccusage)

It starts the interpreter, imports click (every codexdoctor command is a click command), orjson and the line
scan's regex, lists the rollouts, reads each file once, has one regex pass pick out the lines the report needs and
parses those with orjson, split over two processes exactly as `sessions` splits them. It builds no session,
classifies nothing, resolves no config and writes no report: whatever codexdoctor does on top of this is the
product. With --no-parse it stops after the scan (no line parsed): the floor of start-up and I/O alone.
If this alone is slower than ccusage's time divided by 25, no reader built this way reaches 25x.
"""

from __future__ import annotations

import mmap
import os
import re
import sys

import click  # noqa: F401 - imported for its cost: the command line every codexdoctor command goes through
import orjson

# The line-start pattern codexdoctor/codex/rollout_scan.py scans with (the compiled scanner was removed, issue 32):
# lines whose type codexdoctor needs are found by one regex pass over the whole buffer.
_WANTED = re.compile(rb'\n\{"timestamp":"[^"]*","type":"(?:session_meta|turn_context|compacted|event_msg)"[^\n]*')


def rollouts(root: str) -> list[tuple[str, int]]:
    found, stack = [], [root]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.name.startswith("rollout-") and entry.name.endswith(".jsonl"):
                    found.append((entry.path, entry.stat().st_size))
    return found


def read(files: list[tuple[str, int]], parse: bool) -> int:
    parsed = 0
    for path, size in files:
        fd = os.open(path, os.O_RDONLY)
        try:  # as codexdoctor does: files of 16 MB and more are mapped, smaller ones read
            data = mmap.mmap(fd, size, access=mmap.ACCESS_READ) if size >= 16 << 20 else os.read(fd, size + 1)
        finally:
            os.close(fd)
        for match in _WANTED.finditer(b"\n" + bytes(data)):
            if parse:
                orjson.loads(match.group(0)[1:])
                parsed += 1
    return parsed


def main() -> int:
    files = rollouts(sys.argv[1])
    parse = "--no-parse" not in sys.argv[2:]
    half, acc, cut = sum(s for _, s in files) / 2, 0, len(files)
    for i, (_, size) in enumerate(files):
        if acc >= half:
            cut = i
            break
        acc += size
    pid = os.fork()
    if pid == 0:
        read(files[cut:], parse)
        os._exit(0)
    read(files[:cut], parse)
    os.waitpid(pid, 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
