"""ENV, the key variable: unset, blank, another name, only in a shell file, env_key itself."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.rules.base import CONFIG, E, Loc, Rule, Text, W, once


def _export_step(hit: Mapping[str, Any], f: Mapping[str, Any]) -> Loc:
    """Issue 40: "change line 2 to: export KEY=…" destroyed the key when pasted. Say what to add and keep the value,
    and give a command that edits the line in place without ever printing it."""
    line, file = hit["line"], hit["file"]
    if hit.get("fish"):
        return Loc(
            f"On line {line} of {file}, add `-gx` after `set` and keep the value as it is (`set -gx {f['env_key']} …`).",
            f"在 {file} 第 {line} 行的 `set` 后面加上 `-gx`，值保持不变（`set -gx {f['env_key']} …`）。",
        )
    inplace = "sed -i ''" if f.get("platform") == "macos" else "sed -i"
    command = f"{inplace} '{line}s/^[[:space:]]*/&export /' {file}"
    return Loc(
        f"Put `export ` at the start of line {line} of {file} and keep the value as it is; or let this command do it "
        f"(it prints nothing):\n{command}",
        f"在 {file} 第 {line} 行的开头加上 `export `，值保持不变；或者用这条命令来改（它不会打印任何内容）：\n{command}",
    )


RULES: tuple[Rule, ...] = (
    Rule(
        code="ENV001",
        name="env-key-unset",
        check="env.key",
        reads=("dotenv_bom", "dotenv_unloaded", "env_key", "env_key_where", "near_miss", "rc_hits", "state"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="API key variable is not set",
            diagnosis='env_key = "{env_key}" ({env_key_where}) but ${env_key} is not set in this environment; Codex stops with '
            '"Missing environment variable: `{env_key}`." before sending anything.',
            remedy=(
                "Set it in this terminal: {set_cmd}",
                "Make it permanent, then open a new terminal:\n{persist_cmd}",
                "Check that env_key holds the variable's name, spelled exactly as you set it.",
            ),
        ),
        zh=Text(
            title="API Key 环境变量未设置",
            diagnosis='env_key = "{env_key}"（{env_key_where}），但当前环境中没有 ${env_key}；Codex 在发出任何请求之前就会报 "Missing environment variable: `{env_key}`." 并停止。',
            remedy=(
                "在当前终端设置：{set_cmd}",
                "永久生效，然后打开一个新终端：\n{persist_cmd}",
                "确认 env_key 写的是变量名，并且与你导出的名字完全一致。",
            ),
        ),
        when=once(
            lambda f: (
                f["state"] == "missing"
                and not f["near_miss"]
                and not f["rc_hits"]
                and not f.get("dotenv_bom")
                and not f.get("dotenv_unloaded")
            )
        ),
    ),
    Rule(
        code="ENV002",
        name="env-key-blank",
        check="env.key",
        reads=("dotenv_bom", "env_key", "from_dotenv", "near_miss", "state"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="API key variable is empty",
            diagnosis="${env_key} is set but empty or only whitespace; Codex treats that as missing.",
            remedy=(
                "Set it to your key: {set_cmd}",
                "Look for an empty assignment in your shell start-up files that overrides it.",
            ),
        ),
        zh=Text(
            title="API Key 环境变量为空",
            diagnosis="${env_key} 已设置，但为空或只有空白；Codex 会把它当作未设置。",
            remedy=("把它设为你的密钥：{set_cmd}", "检查 shell 启动文件里是否有把它覆盖为空的赋值。"),
        ),
        when=once(
            lambda f: (
                f["state"] == "blank" and not f["near_miss"] and not f.get("from_dotenv") and not f.get("dotenv_bom")
            )
        ),
    ),
    Rule(
        code="ENV003",
        name="env-key-near-miss",
        check="env.key",
        reads=("dotenv_bom", "dotenv_unloaded", "env_key", "env_key_where", "near_miss", "state"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Key is in a variable with a different name",
            diagnosis="Codex reads ${env_key} (env_key, {env_key_where}), which is {state}, but {near_miss_text} is set. "
            "The names must match exactly.",
            remedy=(
                "Either copy it to the name Codex reads: {rename_cmd}",
                'or change env_key in {env_key_where} to "{first_near_miss}".',
            ),
        ),
        zh=Text(
            title="密钥放在了名字不同的变量里",
            diagnosis="Codex 读取的是 ${env_key}（env_key，{env_key_where}），它{state}；而你设置的是 {near_miss_text}。两者的名字必须完全一致。",
            remedy=(
                "要么把它复制到 Codex 读取的变量名：{rename_cmd}",
                '要么把 {env_key_where} 中的 env_key 改为 "{first_near_miss}"。',
            ),
        ),
        when=lambda f: (
            [
                {
                    "near_miss_text": ", ".join("$" + n for n in f["near_miss"]),
                    "first_near_miss": f["near_miss"][0],
                    "state": Loc(f["state"], "未设置" if f["state"] == "missing" else "为空"),
                }
            ]
            if f["state"] in ("missing", "blank")
            and f["near_miss"]
            and not f.get("dotenv_bom")
            and not f.get("dotenv_unloaded")
            else []
        ),
    ),
    Rule(
        code="ENV004",
        name="env-key-in-rc-file-only",
        check="env.key",
        reads=("dotenv_bom", "dotenv_unloaded", "env_key", "near_miss", "rc_hits", "state"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Key is in a shell file but not in this terminal",
            diagnosis="{rc_text} sets {env_key}, but this environment does not have it: the file was edited after this terminal "
            "started, or it is not read by this shell.",
            remedy=(
                "Load it now, or open a new terminal:\n{reload_cmd}",
                "If Codex runs from an editor or GUI, restart it from a terminal that has the variable.",
            ),
        ),
        zh=Text(
            title="密钥写在 shell 文件里，但当前终端没有加载",
            diagnosis="{rc_text} 设置了 {env_key}，但当前环境里没有它：文件是在这个终端启动后才修改的，或者当前 shell 不读这个文件。",
            remedy=(
                "现在加载，或者打开一个新终端：\n{reload_cmd}",
                "如果 Codex 是从编辑器或图形界面启动的，请从已有该变量的终端重新启动它。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "rc_text": ", ".join(f"{h['file']}:{h['line']}" for h in f["rc_hits"]),
                    "rc_file": f["rc_hits"][0]["file"],
                }
            ]
            if f["state"] in ("missing", "blank")
            and f["rc_hits"]
            and not f["near_miss"]
            and not f.get("dotenv_bom")
            and not f.get("dotenv_unloaded")
            and any(h.get("exported", True) for h in f["rc_hits"])
            else []
        ),
    ),
    Rule(
        code="ENV024",
        name="env-key-not-exported",
        check="env.key",
        reads=("env_key", "near_miss", "platform", "rc_hits", "state"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="The shell file sets the key without exporting it",
            diagnosis="{rc_file}:{rc_line} sets {env_key} without `export`, so it is a variable of the shell alone: programs the "
            "shell starts, Codex among them, do not get it. Loading the file (`source`) does not change that, and Codex "
            'stops with "Missing environment variable: `{env_key}`."',
            remedy=(
                "{export_step}",
                "Then open a new terminal and run Codex from it.",
            ),
        ),
        zh=Text(
            title="shell 文件设置了密钥，但没有导出",
            diagnosis="{rc_file}:{rc_line} 设置 {env_key} 时没有用 `export`，所以它只是这个 shell 自己的变量：shell 启动的程序（包括 Codex）"
            '拿不到它。加载这个文件（`source`）也改变不了这一点，Codex 会报 "Missing environment variable: `{env_key}`." 并停止。',
            remedy=("{export_step}", "然后打开一个新终端，从那里运行 Codex。"),
        ),
        when=lambda f: (
            [
                {
                    "rc_file": h["file"],
                    "rc_line": h["line"],
                    "export_step": _export_step(h, f),
                }
                for h in (f.get("rc_hits") or [])[:1]
            ]
            if f["state"] in ("missing", "blank")
            and f.get("rc_hits")
            and not f["near_miss"]
            and not any(h.get("exported", True) for h in f["rc_hits"])
            else []
        ),
    ),
    Rule(
        code="ENV009",
        name="env-key-holds-key",
        check="env.key",
        reads=("env_key", "env_key_where", "state"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="env_key holds a key, not a variable name",
            diagnosis="env_key ({env_key_where}) must name an environment variable; its value {env_key} looks like the API key itself. "
            "Codex will look for a variable with that name and stop with `Missing environment variable`.",
            remedy=(
                'In {env_key_where}, set env_key = "MYGATEWAY_API_KEY" (a name), and put the key in that variable: {example_set_cmd}',
                "Treat the key as exposed if the config file was shared; create a new key at the provider.",
            ),
        ),
        zh=Text(
            title="env_key 里写的是密钥，不是变量名",
            diagnosis="env_key（{env_key_where}）必须是一个环境变量的名字；它的值 {env_key} 看起来就是 API Key 本身。Codex 会去找这个名字的变量，并以 `Missing environment variable` 停止。",
            remedy=(
                '在 {env_key_where} 中设置 env_key = "MYGATEWAY_API_KEY"（一个变量名），再把密钥放进这个变量：{example_set_cmd}',
                "如果配置文件曾被分享出去，请把这个密钥视为已泄露，到提供方重新创建一个。",
            ),
        ),
        when=once(lambda f: f["state"] == "not_a_name"),
    ),
    Rule(
        code="ENV010",
        name="provider-without-env-key",
        check="env.key",
        reads=("bearer_token", "local", "provider", "requires_openai_auth", "state", "user_config"),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Custom provider has no env_key",
            diagnosis="[model_providers.{provider}] has no env_key (and no experimental_bearer_token), so current Codex sends no "
            "API key; a provider that needs one answers 401.",
            remedy=(
                'Add env_key = "MYGATEWAY_API_KEY" to [model_providers.{provider}] in {user_config}, and set the variable: {example_set_cmd}',
            ),
        ),
        zh=Text(
            title="自定义提供方没有 env_key",
            diagnosis="[model_providers.{provider}] 没有 env_key（也没有 experimental_bearer_token），当前版本的 Codex 不会发送任何 API Key；需要密钥的提供方会返回 401。",
            remedy=(
                '在 {user_config} 的 [model_providers.{provider}] 中添加 env_key = "MYGATEWAY_API_KEY"，并设置该变量：{example_set_cmd}',
            ),
        ),
        when=once(
            lambda f: f["state"] == "no_env_key" and not (f["local"] or f["bearer_token"] or f["requires_openai_auth"])
        ),
    ),
)
