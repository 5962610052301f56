"""`codexdoctor fix`'s plan: the config remedies whose fix is certain, as edits — previewed (report/fixtext.py),
backed up and written atomically (report/fixwrite.py).

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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from codexdoctor.checks.base import CheckContext
from codexdoctor.checks.url import certain_base_url
from codexdoctor.codex.config import lookup
from codexdoctor.codex.layers import Layer
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


@dataclass
class _Planning:
    """What each step of build_plan reads (the report's facts and codes, --only), and the plan it adds to."""

    ctx: CheckContext
    facts: Mapping[str, Mapping[str, Any]]
    codes: set[str]
    only: set[str]
    plan: Plan

    @property
    def provider_table(self) -> tuple[str, ...]:
        return ("model_providers", self.ctx.provider.id)

    def add(self, edit: Edit) -> None:
        """An edit --only allows, once (the same key set twice by two findings is one edit)."""
        if self.only and edit.code not in self.only:
            return
        edits = self.plan.edits
        if not any(e.layer_path == edit.layer_path and e.target == edit.target and e.op == edit.op for e in edits):
            edits.append(edit)


def build_plan(report: Report, ctx: CheckContext, only: Iterable[str] = ()) -> Plan:
    """The certain edits the report's findings call for, in the order they are shown, and the commands (ENV) that
    `fix` prints instead of writing. Each step adds what its findings call for, or says in `skipped` why not."""
    p = _Planning(
        ctx,
        {c.id: c.facts for c in report.checks},
        {f.code for f in report.findings},
        {c.upper() for c in only},
        Plan(),
    )
    p.plan.commands += [f for f in report.findings if f.code.startswith("ENV") and (not p.only or f.code in p.only)]
    renamed_base_value = _renames(p)
    _base_url(p, renamed_base_value)
    _model_provider(p)
    _wire_api(p)
    _model_id(p)
    _window(p)
    return p.plan


def _renames(p: _Planning) -> str | None:
    """Misspelled provider keys with a certain meaning (CFG006 via its alias, CFG008). Returns the value of the
    active provider's base_url when it is written under a misspelled key (the base_url step builds on it)."""
    ctx, plan, only = p.ctx, p.plan, p.only
    renamed_base_value: str | None = None
    for unknown in p.facts.get("cfg.keys", {}).get("unknown", []):
        suggestion = unknown.get("suggestion")
        table = unknown.get("table", "")
        if suggestion not in SAFE_RENAMES or not table.startswith("[model_providers."):
            continue
        pid = table[len("[model_providers.") : -1]
        path = ("model_providers", pid, unknown["key"])
        layer = _layer_defining(ctx, path)
        code = "CFG006" if suggestion == "base_url" and "CFG006" in p.codes else "CFG008"
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
        p.add(
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
        if suggestion == "base_url" and pid == ctx.provider.id and isinstance(existing.get(unknown["key"]), str):
            renamed_base_value = existing[unknown["key"]]
    return renamed_base_value


def _base_url(p: _Planning, renamed_base_value: str | None) -> None:
    """base_url as written: landing-page query, doubled path, whitespace, credentials (also under a renamed alias).
    The live checks tested this same fixed value (checks/asfixed.py), so what they proved builds on it."""
    ctx, plan = p.ctx, p.plan
    provider = ctx.provider
    raw_base = provider.base_url if isinstance(provider.base_url, str) else renamed_base_value
    fixed_base = certain_base_url(raw_base) if raw_base is not None and not provider.builtin else None
    tested_base = fixed_base or raw_base
    base_layer = _layer_defining(ctx, p.provider_table + ("base_url",)) or (
        _layer_defining(ctx, p.provider_table) if renamed_base_value is not None else None
    )

    # A base_url the live check proved (API001) comes first: a lint guess never overrides what was verified.
    variants = p.facts.get("api.variants", {})
    if "API001" in p.codes and variants.get("working_index") is not None and isinstance(tested_base, str):
        from codexdoctor.checks.live import variants_of

        working = variants_of(tested_base)[variants["working_index"]]
        if target := _editable(base_layer, plan, "API001"):
            p.add(Edit("API001", target.path, target.label, p.provider_table, "base_url", "set", working))

    if fixed_base is not None:
        code = next((c for c in BASE_URL_FIX_CODES if c in p.codes), "URL004")
        if target := _editable(base_layer, plan, code):
            p.add(Edit(code, target.path, target.label, p.provider_table, "base_url", "set", fixed_base))


def _model_provider(p: _Planning) -> None:
    """model_provider misspelled where exactly one provider table has a close name (CFG004's "did you mean")."""
    ctx = p.ctx
    provider_facts = p.facts.get("cfg.provider", {})
    if "CFG004" not in p.codes or not provider_facts.get("did_you_mean"):
        return
    provider_path: tuple[str, ...] = (
        ("profiles", ctx.resolution.profile, "model_provider")
        if (ctx.resolution.profile and "model_provider" in ctx.resolution.profile_table)
        else ("model_provider",)
    )
    layer = _layer_defining(ctx, provider_path)
    if target := _editable(layer, p.plan, "CFG004"):
        p.add(
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


def _wire_api(p: _Planning) -> None:
    """wire_api Codex rejects or does not know."""
    for code in ("CFG011", "CFG017"):
        if code in p.codes:
            layer = _layer_defining(p.ctx, p.provider_table + ("wire_api",))
            if target := _editable(layer, p.plan, code):
                p.add(Edit(code, target.path, target.label, p.provider_table, "wire_api", "set", "responses"))


def _model_id(p: _Planning) -> None:
    """A model ID that differs only in case or whitespace from the catalog's."""
    catalog = p.facts.get("api.catalog", {})
    if "MODEL002" in p.codes and catalog.get("closest"):
        origin_path = _model_path(p.ctx)
        layer = _layer_defining(p.ctx, origin_path)
        if target := _editable(layer, p.plan, "MODEL002"):
            p.add(Edit("MODEL002", target.path, target.label, origin_path[:-1], "model", "set", catalog["closest"][0]))


def _window(p: _Planning) -> None:
    """The window the provider publishes, when it is smaller than the one Codex assumes."""
    window = p.facts.get("ctx.window", {})
    if "CTX001" not in p.codes or not window.get("suggest_window"):
        return
    layer = _user_layer(p.ctx)
    target = _editable(layer, p.plan, "CTX001") if layer is not None and layer.exists else None
    if target is None:
        return
    for key, value in (
        ("model_context_window", window["suggest_window"]),
        ("model_auto_compact_token_limit", window["suggest_compact"]),
    ):
        p.add(Edit("CTX001", target.path, target.label, (), key, "set", int(value)))


def _model_path(ctx: CheckContext) -> tuple[str, ...]:
    r = ctx.resolution
    if r.profile and "model" in r.profile_table:
        return ("profiles", r.profile, "model")
    return ("model",)


def toml_value(value: Any) -> str:
    """A value as it is written in config.toml (users copy it), not as Python prints it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


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
