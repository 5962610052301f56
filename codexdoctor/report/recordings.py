"""`codexdoctor sessions` beside the recordings of `codexdoctor watch`: Codex's logs hold token counts and Codex's
own error text, a recording holds what the logs cannot (the first-output time of each request, the silences inside
a stream, the provider's own error). The recorder keeps Codex's session id (the request's `prompt_cache_key`), so a
recording is matched to the session log of the same run.

One table: the newest recordings, the Codex session each belongs to (and whether its log was read), the slowest
first output, the longest silence, and the codes `watch` found in it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path

from codexdoctor.model import Section
from codexdoctor.watch import diagnosis, store

NEWEST = 5  # recordings shown
SEARCHED = 200  # the newest recordings searched for the ones of the sessions asked about

HEADERS = {
    "en": (
        "recording",
        "Codex session",
        "requests",
        "failed",
        "slowest first (s)",
        "longest gap (s)",
        "watch found",
    ),
    "zh": ("记录", "Codex 会话", "请求", "失败", "最慢首字（秒）", "最长间隔（秒）", "watch 的发现"),
}


def section(
    env: Mapping[str, str],
    home: Path,
    short_ids: Mapping[str, str],
    lang: str = "en",
    newest: int = NEWEST,
    only: Collection[str] | None = None,
) -> Section | None:
    """The table of the newest recordings, or None when there is none. `short_ids`: the sessions the logs held (id
    -> the short id the report shows); a recording of another session (its log not read, or gone) says so. `only`:
    the sessions asked about (`sessions --session`): only the recordings matched to one of them are listed (issue 40
    review: three recordings of no Codex session were listed under one), from the newest SEARCHED."""
    from codexdoctor.common.redact import shorten_home

    folder = store.recordings_dir(env, home)
    try:
        files = sorted(p for p in folder.glob("watch-*.jsonl") if p.is_file() and not p.is_symlink())
    except OSError:
        return None
    files = files[-(SEARCHED if only is not None else newest) :]
    zh = lang == "zh"
    rows: list[tuple[object, ...]] = []
    for path in reversed(files):
        if len(rows) >= newest:
            break
        row = _row(path, short_ids, lang, only)
        if row is not None:
            rows.append(row)
    if not rows:
        return None
    shown = shorten_home(str(folder), str(home))
    return Section(
        id="watch-recordings",
        title="codexdoctor watch 的记录" if zh else "Recorded by codexdoctor watch",
        headers=HEADERS["zh" if zh else "en"],
        rows=tuple(rows),
        lines=(
            f"{shown} 中最新的记录：每个请求的首字时间和流中的沉默是 Codex 日志里没有的。"
            "`codexdoctor report` 会附上最新的一份。"
            if zh
            else f"The newest recordings in {shown}: they hold what Codex's logs do not, the first-output time of "
            "each request and the silences inside a stream. `codexdoctor report` includes the newest.",
        ),
    )


def _row(
    path: Path, short_ids: Mapping[str, str], lang: str, only: Collection[str] | None
) -> tuple[object, ...] | None:
    """One recording's row; None when it cannot be read, or it belongs to none of the sessions in `only`."""
    from codexdoctor.rules import evaluate

    try:
        recording = store.read(path)
    except (OSError, ValueError):
        return None
    calls = [r for r in recording.requests if r.is_model_call]
    ids = list(dict.fromkeys(r.session for r in calls if r.session))
    if only is not None and not set(ids) & set(only):
        return None
    found = evaluate([diagnosis.check(recording.requests, path.name, None, lang)], lang=lang)
    first = max((r.first_output_ms for r in calls if r.first_output_ms is not None), default=None)
    gap = max((r.longest_gap_ms for r in calls if r.longest_gap_ms is not None), default=None)
    return (
        path.name,
        _sessions_text(ids, short_ids, lang == "zh"),
        len(calls),
        sum(1 for r in calls if not r.ok),
        f"{first / 1000:.2f}" if first is not None else "-",
        f"{gap / 1000:.2f}" if gap is not None else "-",
        ", ".join(dict.fromkeys(f.code for f in found)) or "-",
    )


def _sessions_text(ids: list[str], short_ids: Mapping[str, str], zh: bool) -> str:
    """The recording's Codex sessions by the short ids the report shows, each marked when its log was not read."""
    if not ids:
        return "-"
    out = []
    for sid in ids[:3]:
        out.append(short_ids[sid] if sid in short_ids else f"{sid[:13]} ({'日志未读到' if zh else 'log not read'})")
    return ", ".join(out) + (f" +{len(ids) - 3}" if len(ids) > 3 else "")
