"""`codexdoctor fix`: apply the config remedies whose fix is certain — previewed, backed up, written atomically.

Only edits that cannot be wrong get a structured form: a misspelled key with a
known meaning, a landing-page query or a doubled path in base_url, a wire_api
Codex rejects, a base_url the live check proved, a model ID that differs only
in case, the window the provider publishes. Keys the user must create, and
variables in shell files, are never written: `fix` prints the command instead.

Edits keep every other byte of the file: renames rewrite only the key token on
its line; values are set through tomlkit, which keeps comments, order and
spacing. The new file must parse and differ from the old one only at the
intended keys, and it must not contain any secret the old one did not.
"""

from __future__ import annotations

import contextlib
import copy
import difflib
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from codexdoctor.checks.base import CheckContext
from codexdoctor.checks.url import certain_base_url
from codexdoctor.codex import tomlsource
from codexdoctor.codex.config import Layer, lookup
from codexdoctor.model import Finding, Report
from codexdoctor.rules import Loc

# Misspellings whose meaning is certain and whose value is never a secret.
SAFE_RENAMES = {"base_url", "wire_api", "query_params", "http_headers", "env_http_headers"}
BASE_URL_FIX_CODES = ("URL002", "URL004", "URL005", "URL006")


class FixError(Exception):
    """An edit that must not be written (the file changed, a secret would be written, the result is wrong)."""


@dataclass(frozen=True)
class Edit:
    code: str
    layer_path: Path
    shown: str
    table: tuple[str, ...]
    key: str
    op: str  # "set" | "rename"
    value: Any = None
    new_key: str | None = None

    @property
    def target(self) -> tuple[str, ...]:
        return self.table + ((self.new_key or self.key,) if self.op == "rename" else (self.key,))

    def describe(self, lang: str = "en") -> str:
        where = ".".join(self.table + (self.key,))
        if self.op == "rename":
            return f"把 `{where}` 改名为 `{self.new_key}`" if lang == "zh" else f"rename `{where}` to `{self.new_key}`"
        return f"{'设置' if lang == 'zh' else 'set'} `{where}` = {toml_value(self.value)}"


@dataclass
class Plan:
    edits: list[Edit] = field(default_factory=list)
    commands: list[Finding] = field(default_factory=list)  # ENV findings: shown, never applied
    skipped: list[Loc] = field(default_factory=list)  # fixable in principle, but not here (and why), in both languages


def _layer_defining(ctx: CheckContext, path: tuple[str, ...]) -> Layer | None:
    """The highest-precedence file that defines this key path (where an edit must go)."""
    for layer in reversed(ctx.resolution.layers):
        if layer.data is not None and lookup(layer.data, path, None) is not None:
            return layer
    return None


def _user_layer(ctx: CheckContext) -> Layer | None:
    return ctx.resolution.user_layer


@dataclass(frozen=True)
class Target:
    """The file an edit may go to: a real, user-owned, UTF-8 config file (what `_editable` checked)."""

    path: Path
    label: str
    data: Mapping[str, Any] | None


def _editable(layer: Layer | None, plan: Plan, code: str) -> Target | None:
    """The layer as an edit target, or None with the reason added to `plan.skipped`."""
    if layer is None or layer.path is None:
        plan.skipped.append(
            Loc(
                f"{code}: the value comes from a -c override or a default; nothing to edit in a file",
                f"{code}：这个值来自 -c 覆盖或默认值；没有可编辑的文件",
            )
        )
        return None
    if layer.kind == "system":
        plan.skipped.append(
            Loc(
                f"{code}: the value is in {layer.label} (system config); edit it yourself with care",
                f"{code}：这个值在 {layer.label}（系统配置）中；请自己小心修改",
            )
        )
        return None
    if layer.encoding != "utf-8":
        plan.skipped.append(
            Loc(
                f"{code}: {layer.label} is saved as {layer.encoding}; re-save it as UTF-8, then run fix again",
                f"{code}：{layer.label} 的编码是 {layer.encoding}；请另存为 UTF-8 后再运行 fix",
            )
        )
        return None
    return Target(layer.path, layer.label, layer.data)


def build_plan(report: Report, ctx: CheckContext, only: Iterable[str] = ()) -> Plan:
    only = {c.upper() for c in only}
    plan = Plan()
    facts = {c.id: c.facts for c in report.checks}
    p = ctx.provider
    provider_table = ("model_providers", p.id)

    def add(edit: Edit) -> None:
        if only and edit.code not in only:
            return
        if not any(e.layer_path == edit.layer_path and e.target == edit.target and e.op == edit.op for e in plan.edits):
            plan.edits.append(edit)

    codes = {f.code for f in report.findings}
    for finding in report.findings:
        if finding.code.startswith("ENV") and (not only or finding.code in only):
            plan.commands.append(finding)

    # Misspelled provider keys with a certain meaning (CFG006 via its alias, CFG008).
    renamed_base_value: str | None = None
    for unknown in facts.get("cfg.keys", {}).get("unknown", []):
        suggestion = unknown.get("suggestion")
        table = unknown.get("table", "")
        if suggestion not in SAFE_RENAMES or not table.startswith("[model_providers."):
            continue
        pid = table[len("[model_providers.") : -1]
        path = ("model_providers", pid, unknown["key"])
        layer = _layer_defining(ctx, path)
        code = "CFG006" if suggestion == "base_url" and "CFG006" in codes else "CFG008"
        target = None if (only and code not in only and "CFG008" not in only) else _editable(layer, plan, code)
        if target is None:
            continue
        existing = (target.data or {}).get("model_providers", {}).get(pid, {})
        if suggestion in existing:
            plan.skipped.append(
                Loc(
                    f"{code}: [model_providers.{pid}] has both `{unknown['key']}` and `{suggestion}`; "
                    "delete the one you do not want",
                    f"{code}：[model_providers.{pid}] 中同时有 `{unknown['key']}` 和 `{suggestion}`；删掉不需要的那个",
                )
            )
            continue
        add(
            Edit(
                code if code in only or not only else "CFG008",
                target.path,
                target.label,
                ("model_providers", pid),
                unknown["key"],
                "rename",
                new_key=suggestion,
            )
        )
        if suggestion == "base_url" and pid == p.id and isinstance(existing.get(unknown["key"]), str):
            renamed_base_value = existing[unknown["key"]]

    # base_url as written: landing-page query, doubled path, whitespace, credentials (also under a renamed alias).
    # The live checks tested this same fixed value (checks/asfixed.py), so what they proved builds on it.
    raw_base = p.base_url if isinstance(p.base_url, str) else renamed_base_value
    fixed_base = certain_base_url(raw_base) if raw_base is not None and not p.builtin else None
    tested_base = fixed_base or raw_base
    base_layer = _layer_defining(ctx, provider_table + ("base_url",)) or (
        _layer_defining(ctx, provider_table) if renamed_base_value is not None else None
    )

    # A base_url the live check proved (API001) comes first: a lint guess never overrides what was verified.
    variants = facts.get("api.variants", {})
    if "API001" in codes and variants.get("working_index") is not None and isinstance(tested_base, str):
        from codexdoctor.checks.live import variants_of

        working = variants_of(tested_base)[variants["working_index"]]
        if target := _editable(base_layer, plan, "API001"):
            add(Edit("API001", target.path, target.label, provider_table, "base_url", "set", working))

    if fixed_base is not None:
        code = next((c for c in BASE_URL_FIX_CODES if c in codes), "URL004")
        if target := _editable(base_layer, plan, code):
            add(Edit(code, target.path, target.label, provider_table, "base_url", "set", fixed_base))

    # model_provider misspelled where exactly one provider table has a close name (CFG004's "did you mean").
    provider_facts = facts.get("cfg.provider", {})
    if "CFG004" in codes and provider_facts.get("did_you_mean"):
        provider_path: tuple[str, ...] = (
            ("profiles", ctx.resolution.profile, "model_provider")
            if (ctx.resolution.profile and "model_provider" in ctx.resolution.profile_table)
            else ("model_provider",)
        )
        layer = _layer_defining(ctx, provider_path)
        if target := _editable(layer, plan, "CFG004"):
            add(
                Edit(
                    "CFG004",
                    target.path,
                    target.label,
                    provider_path[:-1],
                    "model_provider",
                    "set",
                    provider_facts["did_you_mean"],
                )
            )

    # wire_api Codex rejects or does not know.
    for code in ("CFG011", "CFG017"):
        if code in codes:
            layer = _layer_defining(ctx, provider_table + ("wire_api",))
            if target := _editable(layer, plan, code):
                add(Edit(code, target.path, target.label, provider_table, "wire_api", "set", "responses"))

    # A model ID that differs only in case or whitespace from the catalog's.
    catalog = facts.get("api.catalog", {})
    if "MODEL002" in codes and catalog.get("closest"):
        origin_path = _model_path(ctx)
        layer = _layer_defining(ctx, origin_path)
        if target := _editable(layer, plan, "MODEL002"):
            add(Edit("MODEL002", target.path, target.label, origin_path[:-1], "model", "set", catalog["closest"][0]))

    # The window the provider publishes, when it is smaller than the one Codex assumes.
    window = facts.get("ctx.window", {})
    if "CTX001" in codes and window.get("suggest_window"):
        layer = _user_layer(ctx)
        target = _editable(layer, plan, "CTX001") if layer is not None and layer.exists else None
        if target is not None:
            add(
                Edit(
                    "CTX001",
                    target.path,
                    target.label,
                    (),
                    "model_context_window",
                    "set",
                    int(window["suggest_window"]),
                )
            )
            add(
                Edit(
                    "CTX001",
                    target.path,
                    target.label,
                    (),
                    "model_auto_compact_token_limit",
                    "set",
                    int(window["suggest_compact"]),
                )
            )
    return plan


def _model_path(ctx: CheckContext) -> tuple[str, ...]:
    r = ctx.resolution
    if r.profile and "model" in r.profile_table:
        return ("profiles", r.profile, "model")
    return ("model",)


# ---- applying edits to text ---------------------------------------------------------------------------------------
def apply_edit(text: str, edit: Edit) -> str:
    if edit.op == "rename":
        line_no = tomlsource.key_lines(text).get(edit.table + (edit.key,))
        if not line_no:
            raise FixError(f"cannot find `{edit.key}` in {edit.shown}")
        lines = text.splitlines(keepends=True)
        pattern = re.compile(
            rf"^(\s*)(?:\"{re.escape(edit.key)}\"|'{re.escape(edit.key)}'|{re.escape(edit.key)})(\s*=)"
        )
        new, count = pattern.subn(lambda m: f"{m.group(1)}{edit.new_key}{m.group(2)}", lines[line_no - 1], count=1)
        if not count:
            raise FixError(f"`{edit.key}` on line {line_no} of {edit.shown} is not a plain key; rename it by hand")
        lines[line_no - 1] = new
        return "".join(lines)
    import tomlkit

    doc = tomlkit.parse(text)
    cur: Any = doc
    for part in edit.table:
        if part not in cur:
            cur[part] = tomlkit.table()
        cur = cur[part]
    cur[edit.key] = edit.value
    return tomlkit.dumps(doc)


def _get(data: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    return lookup(data, path, None)


def verify(before: str, after: str, edits: list[Edit]) -> None:
    """The new text parses, and differs from the old one exactly at the intended keys."""
    old, problem = tomlsource.parse(before)
    new, problem_after = tomlsource.parse(after)
    if problem_after is not None or new is None:
        raise FixError(f"the edited file would not parse ({problem_after.message if problem_after else 'unknown'})")
    if old is None:
        raise FixError("the file does not parse now; fix the syntax first (see CFG002)")
    intended = {e.target for e in edits} | {e.table + (e.key,) for e in edits if e.op == "rename"}

    def strip(data: Mapping[str, Any]) -> Any:
        out = copy.deepcopy(data)
        for path in intended:
            parent = _get(out, path[:-1]) if path[:-1] else out
            if isinstance(parent, dict):
                parent.pop(path[-1], None)
        return out

    if strip(old) != strip(new):
        raise FixError("the edit would change more than the intended keys; nothing was written")
    for e in edits:
        if e.op == "set" and _get(new, e.target) != e.value:
            raise FixError(f"`{'.'.join(e.target)}` did not end up as {toml_value(e.value)}")


def toml_value(value: Any) -> str:
    """A value as it is written in config.toml (users copy it), not as Python prints it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


def unified_diff(before: str, after: str, shown: str, lang: str = "en") -> str:
    now, fixed = ("（现在）", "（修复后）") if lang == "zh" else (" (now)", " (fixed)")
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"{shown}{now}",
            tofile=f"{shown}{fixed}",
        )
    )


# What `fix` says, in both languages (the command's own lines; findings come translated from the catalog).
SAY = {
    "before": ("Before: verdict {verdict}; findings: {codes}", "修复前：结论 {verdict}；发现的问题：{codes}"),
    "after": ("After: verdict {verdict}; findings: {codes}", "修复后：结论 {verdict}；发现的问题：{codes}"),
    "none": ("none", "无"),
    "skipped": ("  not fixed automatically: {note}", "  不会自动修复：{note}"),
    "command": (
        "\n{code} {title} -- codexdoctor never edits shell files; run this yourself:",
        "\n{code} {title} —— codexdoctor 从不修改 shell 配置文件；请自己运行：",
    ),
    "nothing": ("\nNothing in the config files to fix automatically.", "\n配置文件中没有可以自动修复的内容。"),
    "edits": ("\nEdits to {file}:", "\n对 {file} 的修改："),
    "dry_run": ("\nDry run: nothing was changed.", "\n演练模式：没有做任何修改。"),
    "no_tty": (
        "\nNothing applied: pass --yes to apply these edits (stdin is not a terminal, so codexdoctor does not ask).",
        "\n没有应用任何修改：加 --yes 才会应用（标准输入不是终端，codexdoctor 不会询问）。",
    ),
    "none_applied": ("Nothing applied.", "没有应用任何修改。"),
    "apply": ("Apply {code}: {edit}?", "应用 {code}：{edit}？"),
    "wrote": ("\nWrote {file} (backup: {backup})", "\n已写入 {file}（备份：{backup}）"),
    "fixed": ("Fixed: {codes}", "已修复：{codes}"),
    "again": (
        "\nChecked again: the edits above uncovered more certain edits (round {round} of at most {rounds}).",
        "\n重新检查：上面的修改之后又发现了可以确定的修改（第 {round} 轮，最多 {rounds} 轮）。",
    ),
    "cap": (
        "\nStopped after {rounds} rounds of edits; run `codexdoctor fix` again to see what is left.",
        "\n已做了 {rounds} 轮修改，就此停止；再运行一次 `codexdoctor fix` 查看剩下的内容。",
    ),
}

# `fix --yes` applies, checks again, and applies what the new check found (a model ID that the catalog behind the
# corrected base_url lists differently) until nothing certain is left; a small cap, so it never loops on a provider
# that answers differently every time.
MAX_ROUNDS = 3


def say(key: str, lang: str, **values: object) -> str:
    en, zh = SAY[key]
    return (zh if lang == "zh" else en).format(**values)


# ---- writing ---------------------------------------------------------------------------------------------------
def backup_path(path: Path, clock: Callable[[], time.struct_time] = time.localtime) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S", clock())
    candidate = path.with_name(f"{path.name}.bak-{stamp}")
    n = 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.name}.bak-{stamp}-{n}")
    return candidate


def write_target(path: Path) -> Path:
    """The file to write: a config.toml that is a symlink (a dotfile manager's) is edited where it points."""
    return Path(os.path.realpath(path))


LOCK_WAIT_S = 10.0


@contextlib.contextmanager
def locked(path: Path, wait_s: float | None = None) -> Iterator[None]:
    """An exclusive lock on `.<name>.fix-lock` beside the config, held while one run writes it.

    Two `fix --yes` at once otherwise race: each one's start-up cleanup of stale temp files could delete the
    other's temp file in flight. The second run waits up to LOCK_WAIT_S, then says another fix is running. POSIX
    has flock; Windows has msvcrt.locking; a platform with neither refuses to write rather than race."""
    wait_s = LOCK_WAIT_S if wait_s is None else wait_s
    lock_path = path.with_name(f".{path.name}.fix-lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o600)
    try:
        try:
            import fcntl

            def try_lock() -> bool:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return True
                except BlockingIOError:
                    return False
        except ImportError:
            try:
                import msvcrt
            except ImportError:
                raise FixError(
                    "this platform has no file locks, so codexdoctor cannot make sure no other fix is "
                    "writing the config at the same time; nothing was written"
                ) from None

            def try_lock() -> bool:
                try:
                    msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]  # Windows only
                    return True
                except OSError:
                    return False

        deadline = time.monotonic() + wait_s
        while not try_lock():
            if time.monotonic() >= deadline:
                raise FixError(
                    f"another `codexdoctor fix` is writing {path.name} (it holds {lock_path.name}); "
                    "nothing was written: run fix again when it has finished"
                )
            time.sleep(0.05)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _stale_temps(folder: Path, name: str) -> None:
    """Temp files a killed earlier run left (kill -9 cannot be caught); they are ours by name. Called with the
    lock held: no live run has a temp file then."""
    for leftover in folder.glob(f".{name}.*.tmp"):
        try:
            leftover.unlink()
        except OSError:
            pass


def write_atomic(path: Path, original: bytes, new_text: str, secrets: Iterable[str]) -> Path:
    """Backup, then temp file in the same folder, fsync, rename over; refuse if the file changed meanwhile.

    The backup is created with the original's mode (never world-readable for an instant); a symlinked config is
    written at its target so the link survives; SIGTERM during the write still removes the temp file."""
    data = new_text.encode("utf-8")
    for secret in secrets:
        if secret and secret.encode() in data and secret.encode() not in original:
            raise FixError("the edit would write a secret into the config file; nothing was written")
    path = write_target(path)
    with locked(path):
        return _write_locked(path, original, data)


def _write_locked(path: Path, original: bytes, data: bytes) -> Path:
    if path.read_bytes() != original:
        raise FixError(f"{path.name} changed since codexdoctor read it; run fix again")
    mode = path.stat().st_mode & 0o7777
    _stale_temps(path.parent, path.name)
    backup = backup_path(path)
    fd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), mode & 0o777)
    with os.fdopen(fd, "wb") as fh:
        if hasattr(os, "fchmod"):
            os.fchmod(fh.fileno(), mode)  # exactly the original's (the umask may have taken bits away)
        fh.write(original)
        fh.flush()
        os.fsync(fh.fileno())
    previous = _terminate_as_exit()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        if path.read_bytes() != original:  # last look before the rename
            raise FixError(f"{path.name} changed since codexdoctor read it; run fix again")
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    finally:
        _restore(previous)
    if sys.platform != "win32":
        try:
            dir_fd = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
        except OSError:
            pass
    return backup


def _terminate_as_exit() -> Any:
    """Turn SIGTERM into SystemExit while the temp file exists, so the cleanup above runs."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGTERM"):
        return None

    def stop(signum: int, frame: Any) -> NoReturn:
        raise SystemExit(128 + signum)

    return signal.signal(signal.SIGTERM, stop)


def _restore(previous: Any) -> None:
    import signal

    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


@dataclass(frozen=True)
class FileChange:
    path: Path
    shown: str
    original: bytes
    before: str
    after: str
    edits: tuple[Edit, ...]


def prepare(plan_edits: list[Edit]) -> list[FileChange]:
    """Apply the chosen edits in memory, per file, and verify each result."""
    changes = []
    by_file: dict[Path, list[Edit]] = {}
    for e in plan_edits:
        by_file.setdefault(e.layer_path, []).append(e)
    for path, edits in by_file.items():
        original = path.read_bytes()
        before = original.decode("utf-8")
        text = before
        for e in sorted(edits, key=lambda e: e.op != "rename"):  # renames first: a value may then be set on the new key
            text = apply_edit(text, e)
        verify(before, text, edits)
        shown = edits[0].shown
        if path.is_symlink():  # dotfile managers link config.toml: the edit goes to the file it points at
            from codexdoctor.common.redact import shorten_home

            shown = f"{shown} (symlink to {shorten_home(str(write_target(path)), os.path.expanduser('~'))})"
        changes.append(FileChange(path, shown, original, before, text, tuple(edits)))
    return changes
