"""The config as it will be once the certain fixes are made, so that one `check` names every problem (issue 28).

Without it, a user with the seed guide's setup needed three runs: the live checks were skipped while Codex would
stop at start-up (`wire_api = "chat"`, a key set without `export`, `baseURL` misspelled), and only the next run
showed the missing `/v1`, and the one after it the model. Here the live checks run against the values `fix` would
write and the shell step ENV024 prints, in memory only; the report says which ones, on every live row's facts and in
a note. Only certain fixes are assumed: the same ones `fix` makes without asking (report/fixes.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from codexdoctor.checks.base import CheckContext
from codexdoctor.checks.env import clean_key, unexported_rc_value
from codexdoctor.checks.url import certain_base_url
from codexdoctor.model import CheckResult, Msg

if TYPE_CHECKING:
    from codexdoctor.codex.config import Provider


@dataclass(frozen=True)
class AsFixed:
    """A context with the certain fixes made in memory, the static results re-run on it, and what was assumed."""

    ctx: CheckContext
    static: list[CheckResult]
    assumed: tuple[tuple[str, str], ...]  # each assumed fix in words: (English, Chinese)

    def note(self) -> Msg:
        """The label the report carries above the live rows."""
        return Msg(
            "The live checks ran as if the certain fixes were made (in memory only; `codexdoctor fix` writes them): "
            "{fixes}.",
            "在线检查是按“确定的修复已经完成”来运行的（只在内存中；`codexdoctor fix` 会写入文件）：{fixes}。",
            fixes=Msg.join([Msg.pair(en, zh) for en, zh in self.assumed], "; ", "；"),
        )


def assume_fixed(ctx: CheckContext, static: list[CheckResult]) -> AsFixed | None:
    """None when no certain fix applies (the live checks then run on the config as it is)."""
    from codexdoctor.checks import run_static  # the registry imports this package's modules

    facts = {r.id: r.facts for r in static}
    p = ctx.provider
    assumed_provider: list[tuple[str, str]] = []
    mean = facts.get("cfg.provider", {}).get("did_you_mean")
    tables = ctx.resolution.merged.get("model_providers")
    if not p.defined and mean and isinstance(tables, Mapping) and isinstance(tables.get(mean), Mapping):
        # CFG004: `model_provider = "taotokn"` with one table named `taotoken` — the edit `fix` makes.
        from codexdoctor.codex.config import Provider

        p = Provider(id=mean, builtin=False, defined=True, table=dict(tables[mean]))
        ctx = replace(ctx, resolution=replace(ctx.resolution, provider=p, provider_id=mean))
        assumed_provider.append((f'model_provider = "{mean}"', f'model_provider = "{mean}"'))
        facts = {r.id: r.facts for r in run_static(ctx)}  # the key and base_url as that table has them
    if not p.defined or ctx.resolution.unusable:
        return None
    table: dict[str, Any] = dict(p.table)
    env = dict(ctx.env)
    assumed: list[tuple[str, str]] = list(assumed_provider)
    secrets: list[str] = []
    if not p.builtin:
        _fix_table(ctx, p, facts, table, assumed)
    _fix_key(ctx, facts, env, secrets, assumed)
    if not assumed:
        return None
    resolution = replace(ctx.resolution, provider=replace(p, table=table), env=env)
    fixed = replace(ctx, resolution=resolution, env=env, redactor=ctx.redactor.adding(secrets))
    return AsFixed(fixed, run_static(fixed), tuple(assumed))


def _fix_table(
    ctx: CheckContext,
    p: Provider,
    facts: Mapping[str, Mapping[str, Any]],
    table: dict[str, Any],
    assumed: list[tuple[str, str]],
) -> None:
    """A custom provider's table as `fix` leaves it (base_url under its own name and certain, chat → responses),
    into `table`; each edit in words into `assumed`."""
    if not isinstance(table.get("base_url"), str):
        for unknown in facts.get("cfg.keys", {}).get("unknown", []):
            value = table.get(unknown.get("key"))
            if (
                unknown.get("suggestion") == "base_url"
                and unknown.get("table") == f"[model_providers.{p.id}]"
                and isinstance(value, str)
            ):
                table["base_url"] = value
                assumed.append((f"`{unknown['key']}` renamed to base_url", f"`{unknown['key']}` 改名为 base_url"))
                break
    raw = table.get("base_url")
    fixed_url = certain_base_url(raw) if isinstance(raw, str) else None
    if fixed_url is not None:
        table["base_url"] = fixed_url
        shown = ctx.redactor(fixed_url)
        assumed.append((f'base_url = "{shown}"', f'base_url = "{shown}"'))
    # Only where Codex refuses chat (0.171 does; older versions speak it): CFG011's fix, as `fix` makes it.
    if table.get("wire_api") == "chat" and facts.get("cfg.provider", {}).get("chat_rejected") is not False:
        table["wire_api"] = "responses"
        assumed.append(('wire_api = "responses"', 'wire_api = "responses"'))


def _fix_key(
    ctx: CheckContext,
    facts: Mapping[str, Mapping[str, Any]],
    env: dict[str, str],
    secrets: list[str],
    assumed: list[tuple[str, str]],
) -> None:
    """The key variable as the remedies set it (copied from its near-miss name, or exported), into `env`; the values
    into `secrets` (the redactor must know them), each step in words into `assumed`."""
    key = facts.get("env.key", {})
    var = key.get("env_key")
    near = key.get("near_miss") or []
    if key.get("state") == "missing" and isinstance(var, str) and len(near) == 1 and ctx.env.get(near[0], "").strip():
        # ENV003: the key sits under a near-miss name, and its remedy copies it over. The value is cleaned the way
        # ENV005-ENV007 say (spaces, quotes, `Bearer `), so a 401 does not hide what comes after it.
        raw_value = ctx.env[near[0]]
        value = clean_key(raw_value)
        env[var] = value
        secrets += [raw_value, value]
        cleaned = value != raw_value
        assumed.append(
            (
                f"`{var}` set from `${near[0]}`" + (" (its spaces, quotes or `Bearer ` taken out)" if cleaned else ""),
                f"`{var}` 取自 `${near[0]}`" + ("（去掉了其中的空格、引号或 `Bearer `）" if cleaned else ""),
            )
        )
    elif key.get("state") == "missing" and isinstance(var, str) and not near:
        found = unexported_rc_value(var, ctx.home)
        if found is not None:
            value, hit = found
            env[var] = value
            secrets.append(value)
            assumed.append(
                (f"`{var}` exported ({hit['file']}:{hit['line']})", f"`{var}` 已导出（{hit['file']}:{hit['line']}）")
            )
