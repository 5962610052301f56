"""CFG, profiles: the selected one, legacy selectors and tables, profile files."""

from __future__ import annotations

from codexdoctor.rules.base import (
    CONFIG,
    E,
    Rule,
    Text,
    W,
    each,
    once,
)

RULES: tuple[Rule, ...] = (
    Rule(
        code="CFG010",
        name="key-ignored-in-profile",
        check="cfg.profile",
        reads=("ignored_keys", "selected"),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Key ignored inside a profile",
            diagnosis="`{key}` ({where}) is inside profile `{selected}`, where Codex ignores it.",
            remedy=("Move `{key}` out of [profiles.{selected}] to the top level of the config file ({where}).",),
        ),
        zh=Text(
            title="写在 profile 里会被忽略的键",
            diagnosis="`{key}`（{where}）位于 profile `{selected}` 中，Codex 在那里会忽略它。",
            remedy=("把 `{key}` 从 [profiles.{selected}] 移到配置文件顶层（{where}）。",),
        ),
        when=lambda f: [dict(k, selected=f["selected"]) for k in f.get("ignored_keys", [])],
    ),
    Rule(
        code="CFG015",
        name="profile-not-found",
        check="cfg.profile",
        reads=("available", "missing", "origin", "selected"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Selected profile does not exist",
            diagnosis="Profile `{selected}` is selected ({origin}) but there is no [profiles.{selected}] table; Codex stops with "
            "``config profile `{selected}` not found``. Defined profiles: {available_text}.",
            remedy=(
                "Add a [profiles.{selected}] table, or select an existing profile ({available_text}), or remove the selection ({origin}).",
            ),
        ),
        zh=Text(
            title="选中的 profile 不存在",
            diagnosis="选中了 profile `{selected}`（{origin}），但没有 [profiles.{selected}] 表；Codex 会报 ``config profile `{selected}` not found`` 并停止。已定义的 profile：{available_text}。",
            remedy=(
                "添加 [profiles.{selected}] 表，或选择已有的 profile（{available_text}），或去掉这个选择（{origin}）。",
            ),
        ),
        when=once(lambda f: f["missing"]),
    ),
    Rule(
        code="CFG022",
        name="legacy-profile-selector",
        check="cfg.profile",
        reads=("codex_home", "codex_version", "legacy_selectors"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Legacy `profile = ...` selector",
            diagnosis='`profile = "{value}"` ({where}) selects a profile the old way. Codex {codex_version} refuses to start: '
            '``legacy `profile = "{value}"` config is no longer supported``.',
            remedy=(
                'Delete the line `profile = "{value}"` from {where}.',
                "Move the keys of [profiles.{value}] to the top level of a new file {codex_home}/{value}.config.toml, "
                "and remove the [profiles.{value}] table.",
                "Select the profile when you start Codex: codex --profile {value} (check it with: codexdoctor check --profile {value}).",
            ),
            explanation="Codex 0.171 reads profiles from `$CODEX_HOME/<name>.config.toml`, chosen with `--profile <name>`; "
            "a top-level `profile` key makes it stop at start-up (observed with the real CLI).",
        ),
        zh=Text(
            title="旧式的 `profile = ...` 选择器",
            diagnosis='`profile = "{value}"`（{where}）用旧方式选择 profile。Codex {codex_version} 会拒绝启动：'
            '``legacy `profile = "{value}"` config is no longer supported``。',
            remedy=(
                '从 {where} 删除 `profile = "{value}"` 这一行。',
                "把 [profiles.{value}] 中的键移到新文件 {codex_home}/{value}.config.toml 的顶层，并删除 [profiles.{value}] 表。",
                "启动 Codex 时选择该 profile：codex --profile {value}（用 codexdoctor check --profile {value} 检查）。",
            ),
        ),
        when=each("legacy_selectors"),
    ),
    Rule(
        code="CFG023",
        name="legacy-profile-table-conflict",
        check="cfg.profile",
        reads=("codex_version", "conflict", "profile_file", "selected", "user_config"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="--profile and a legacy [profiles] table with the same name",
            diagnosis="--profile {selected} is given while {user_config} still has [profiles.{selected}]; Codex {codex_version} refuses "
            "to start (``--profile `{selected}` cannot be used while … contains legacy … `[profiles.{selected}]` config``).",
            remedy=(
                "Move the keys of [profiles.{selected}] to the top level of {profile_file} and delete the table from {user_config}.",
            ),
        ),
        zh=Text(
            title="--profile 与同名的旧式 [profiles] 表冲突",
            diagnosis="指定了 --profile {selected}，但 {user_config} 里还有 [profiles.{selected}]；Codex {codex_version} 会拒绝启动"
            "（``--profile `{selected}` cannot be used while … contains legacy … `[profiles.{selected}]` config``）。",
            remedy=("把 [profiles.{selected}] 中的键移到 {profile_file} 的顶层，并从 {user_config} 删除该表。",),
        ),
        when=once(lambda f: bool(f.get("conflict"))),
    ),
    Rule(
        code="CFG024",
        name="profile-file-missing",
        check="cfg.profile",
        reads=("available", "codex_version", "conflict", "file_missing", "profile_file", "selected", "user_config"),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Profile file not found",
            diagnosis="--profile {selected} reads {profile_file}, which does not exist. Codex {codex_version} does not stop: it "
            "silently runs with {user_config} alone, so the model and provider are not the ones the profile should set. "
            "Profile files found: {available_text}.",
            remedy=(
                'Create {profile_file} with the profile\'s settings as top-level keys (model = "…", model_provider = "…"), '
                "or start Codex with one of the existing profiles.",
            ),
        ),
        zh=Text(
            title="找不到 profile 文件",
            diagnosis="--profile {selected} 读取 {profile_file}，但该文件不存在。Codex {codex_version} 不会停止，而是悄悄只用 {user_config} 运行，"
            "所以模型和提供方并不是这个 profile 本该设置的那些。已有的 profile 文件：{available_text}。",
            remedy=(
                '创建 {profile_file}，把 profile 的设置写成顶层键（model = "…"、model_provider = "…"），或用已有的 profile 启动 Codex。',
            ),
        ),
        when=once(lambda f: bool(f.get("file_missing")) and not f.get("conflict")),
    ),
    Rule(
        code="CFG025",
        name="legacy-profile-table-ignored",
        check="cfg.profile",
        reads=("codex_home", "codex_version", "conflict", "legacy_selectors", "legacy_tables"),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Legacy [profiles] table is ignored",
            diagnosis="[profiles.{name}] ({where}) is a legacy profile table; Codex {codex_version} ignores it, so `--profile {name}` "
            "does not use these settings.",
            remedy=(
                "Move the keys of [profiles.{name}] to the top level of {codex_home}/{name}.config.toml, delete the table, "
                "and start Codex with `codex --profile {name}`.",
            ),
        ),
        zh=Text(
            title="旧式 [profiles] 表会被忽略",
            diagnosis="[profiles.{name}]（{where}）是旧式的 profile 表；Codex {codex_version} 会忽略它，所以 `--profile {name}` 不会用到这些设置。",
            remedy=(
                "把 [profiles.{name}] 中的键移到 {codex_home}/{name}.config.toml 的顶层，删除该表，然后用 `codex --profile {name}` 启动 Codex。",
            ),
        ),
        when=lambda f: (
            [dict(t) for t in f.get("legacy_tables") or []]
            if not (f.get("legacy_selectors") or f.get("conflict"))
            else []
        ),
    ),
)
