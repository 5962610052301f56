"""CFG, where the config is: CODEX_HOME, the config files and whether they read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.rules.base import (
    CONFIG,
    MINIMAL_CONFIG,
    MINIMAL_CONFIG_ZH,
    E,
    I,
    Loc,
    Rule,
    Text,
    W,
    mkdir_home_cmd,
    once,
    user_shell,
)


def _at_text(error: Mapping[str, Any]) -> Loc | str:
    """` at line 3, column 7`; without a column the reader did not give (never `column None`, issue 40)."""
    line, column = error.get("line"), error.get("column")
    if not line:
        return ""
    if not column:
        return Loc(f" at line {line}", f" 第 {line} 行处")
    return Loc(f" at line {line}, column {column}", f" 第 {line} 行第 {column} 列处")


def _home_missing_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """CFG013: a literal `~` needs a different fix than a folder that is simply missing."""
    sh = user_shell(f)
    unset_cmd = sh.unset_var("CODEX_HOME")
    if f.get("literal_tilde") and f.get("expanded"):
        set_cmd = sh.set_var("CODEX_HOME", f["expanded"])
        return {
            "tilde_hint": Loc(
                " The `~` was kept literally (it was inside quotes), and Codex does not expand it.",
                " `~` 被原样保留（写在了引号里），而 Codex 不会展开它。",
            ),
            "home_step": Loc(
                f"Set CODEX_HOME to the full path, or unset it (the second line):\n{set_cmd}\n{unset_cmd}",
                f"把 CODEX_HOME 设为完整路径，或取消设置（第二行）：\n{set_cmd}\n{unset_cmd}",
            ),
        }
    return {
        "tilde_hint": "",
        "home_step": Loc(
            f"Create it, or stop setting CODEX_HOME to use the default folder (the second line):\n"
            f"{mkdir_home_cmd(f)}\n{unset_cmd}",
            f"创建它，或不再设置 CODEX_HOME 以使用默认目录（第二行）：\n{mkdir_home_cmd(f)}\n{unset_cmd}",
        ),
    }


def toml_message(error: Mapping[str, Any]) -> Loc | str:
    """The TOML parser's message in plain words where it is cryptic (issue 40: "Illegal character '\\n'" for a
    string whose closing quote is missing); any other message as the parser gave it."""
    message, line = str(error.get("message") or ""), error.get("line")
    where = f" on line {line}" if line else ""
    where_zh = f"第 {line} 行的" if line else ""
    if message.startswith(("Illegal character '\\n'", 'Expected "\'"', 'Expected "\'"')):
        return Loc(
            f"a string{where} is not closed: its closing quote is missing (a string cannot run past the end of its line)",
            f"{where_zh}字符串没有结束：缺少右引号（字符串不能跨过行尾）",
        )
    if message.startswith("Unterminated string"):
        return Loc("a multi-line string (\"\"\" or ''') is never closed", "多行字符串（\"\"\" 或 '''）一直没有结束")
    if message.startswith(("Cannot overwrite a value", "Cannot declare")):
        return Loc(
            f"a key or [table]{where} appears a second time (each may appear only once)",
            f"{where_zh}键或 [表] 第二次出现了（每个只能出现一次）",
        )
    if message.startswith("Invalid value"):
        return Loc(
            f'the value{where} is not a TOML value (text needs double quotes: model = "gpt-5")',
            f'{where_zh}值不是合法的 TOML 值（文字要加双引号：model = "gpt-5"）',
        )
    return message


RULES: tuple[Rule, ...] = (
    Rule(
        code="CFG001",
        name="config-file-missing",
        check="cfg.files",
        reads=("provider_configured_elsewhere", "user_missing", "user_path"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="No Codex config file",
            diagnosis="{user_path} does not exist, so Codex uses its built-in OpenAI provider and your stored login; "
            "no custom provider, base_url or key variable is configured.",
            remedy=(
                "Create {user_path} (create the folder too if needed) with a provider table, for example:\n"
                + MINIMAL_CONFIG,
                "Replace the placeholders with your provider's base URL, the exact model ID from its catalog, and a variable name; "
                "then set that variable in your shell: {example_set_cmd}",
                "If you meant to use another folder, set CODEX_HOME to it (Codex reads $CODEX_HOME/config.toml).",
            ),
            explanation="Codex reads `$CODEX_HOME/config.toml` (default `~/.codex/config.toml`). Without it the built-in "
            "`openai` provider is used, which needs `codex login`.",
        ),
        zh=Text(
            title="没有 Codex 配置文件",
            diagnosis="{user_path} 不存在，所以 Codex 使用内置的 OpenAI 提供方和已保存的登录；没有配置任何自定义提供方、base_url 或密钥变量。",
            remedy=(
                "创建 {user_path}（必要时先创建目录），写入一个提供方表，例如：\n" + MINIMAL_CONFIG_ZH,
                "把占位符换成你的提供方的 base_url 地址、模型列表里的准确模型 ID 和一个变量名；然后在 shell 中设置该变量：{example_set_cmd}",
                "如果你想用别的目录，把 CODEX_HOME 设为它（Codex 读取 $CODEX_HOME/config.toml）。",
            ),
        ),
        when=once(lambda f: f["user_missing"] and not f["provider_configured_elsewhere"]),
    ),
    Rule(
        code="CFG002",
        name="toml-syntax-error",
        check="cfg.files",
        reads=("files",),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Config is not valid TOML",
            diagnosis="{location}: {said}. Codex refuses to start with `Error loading config.toml`.",
            remedy=(
                "Open {path}{at_text} and fix the syntax: strings need double quotes "
                '(base_url = "https://…"), a key may appear only once per table, and a [table] header may appear only once.',
                "Run `codexdoctor check` again to confirm the file parses.",
            ),
            explanation="Codex parses every config layer with a strict TOML parser and stops on the first error.",
        ),
        zh=Text(
            title="配置不是合法的 TOML",
            diagnosis="{location}: {said}。Codex 会以 `Error loading config.toml` 拒绝启动。",
            remedy=(
                '打开 {path}{at_text}修正语法：字符串要用双引号（base_url = "https://…"），同一个表里一个键只能出现一次，[表头] 也只能出现一次。',
                "再次运行 `codexdoctor check` 确认文件可以解析。",
            ),
        ),
        when=lambda f: [
            dict(
                path=x["path"],
                **x["toml_error"],
                said=toml_message(x["toml_error"]),
                location=":".join(
                    str(v) for v in (x["path"], x["toml_error"].get("line"), x["toml_error"].get("column")) if v
                )
                if x["toml_error"].get("line")
                else x["path"],
                at_text=_at_text(x["toml_error"]),
            )
            for x in f.get("files", [])
            if "toml_error" in x
        ],
    ),
    Rule(
        code="CFG003",
        name="config-unreadable",
        check="cfg.files",
        reads=("files",),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Config file cannot be read",
            diagnosis="{path}: {read_error}.",
            remedy=("Make {path} a readable UTF-8 text file (check its permissions and owner; re-save it as UTF-8).",),
        ),
        zh=Text(
            title="配置文件无法读取",
            diagnosis="{path}：{read_error}。",
            remedy=("让 {path} 成为可读的 UTF-8 文本文件（检查权限和属主；以 UTF-8 重新保存）。",),
        ),
        when=lambda f: [
            dict(path=x["path"], read_error=x["read_error"]) for x in f.get("files", []) if "read_error" in x
        ],
    ),
    Rule(
        code="CFG013",
        name="codex-home-missing",
        check="cfg.home",
        reads=("codex_home", "expanded", "literal_tilde", "platform", "problem", "shell"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="CODEX_HOME points to a folder that does not exist",
            diagnosis="CODEX_HOME is {codex_home}, which does not exist; Codex stops with `CODEX_HOME points to …, but that path does not exist`.{tilde_hint}",
            remedy=("{home_step}",),
        ),
        zh=Text(
            title="CODEX_HOME 指向的目录不存在",
            diagnosis="CODEX_HOME 是 {codex_home}，但该目录不存在；Codex 会报 `CODEX_HOME points to …, but that path does not exist` 并停止。{tilde_hint}",
            remedy=("{home_step}",),
        ),
        when=lambda f: [_home_missing_params(f)] if f["problem"] == "missing" else [],
    ),
    Rule(
        code="CFG014",
        name="codex-home-not-directory",
        check="cfg.home",
        reads=("codex_home", "problem"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="CODEX_HOME is not a folder",
            diagnosis="CODEX_HOME is {codex_home}, which is a file, not a folder.",
            remedy=("Point CODEX_HOME at a folder:\n{set_home_cmd}", "Or unset it:\n{unset_home_cmd}"),
        ),
        zh=Text(
            title="CODEX_HOME 不是目录",
            diagnosis="CODEX_HOME 是 {codex_home}，它是一个文件而不是目录。",
            remedy=("把 CODEX_HOME 指向一个目录：\n{set_home_cmd}", "或者取消它：\n{unset_home_cmd}"),
        ),
        when=once(lambda f: f["problem"] == "not_dir"),
    ),
    Rule(
        code="CFG018",
        name="config-byte-order-mark",
        check="cfg.files",
        reads=("files",),
        severity=I,
        verdict=CONFIG,
        en=Text(
            title="Config file starts with a byte-order mark",
            diagnosis="{path} starts with a UTF-8 byte-order mark (BOM), as some Windows editors save it. Codex's TOML parser skips "
            "the mark and reads the file; nothing to fix.",
            remedy=(
                "Nothing to do; `codexdoctor fix` leaves such a file alone, so save it as UTF-8 without BOM if you want it to "
                "edit the file.",
            ),
        ),
        zh=Text(
            title="配置文件以字节顺序标记开头",
            diagnosis="{path} 以 UTF-8 字节顺序标记（BOM）开头，部分 Windows 编辑器会这样保存。Codex 的 TOML 解析器会跳过这个标记，"
            "文件可以正常读取，无需修改。",
            remedy=("无需处理；`codexdoctor fix` 不会修改这样的文件，如果希望它帮你修改，请另存为不带 BOM 的 UTF-8。",),
        ),
        when=lambda f: [
            dict(path=x["path"])
            for x in f.get("files", [])
            if x.get("encoding") == "utf-8-sig" and "read_error" not in x and "toml_error" not in x
        ],
    ),
    Rule(
        code="CFG019",
        name="windows-config-also-exists",
        check="cfg.files",
        reads=("user_path", "windows_configs"),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Running in WSL, and Windows has its own Codex config",
            diagnosis="codexdoctor read {user_path} (the Linux side of WSL). Windows also has {windows_text}: Codex started from Windows "
            "(PowerShell, cmd, an editor on Windows) reads that file, not this one.",
            remedy=(
                "Make the change in the config of the Codex you actually run: inside WSL edit {user_path}; from Windows edit "
                "%USERPROFILE%\\.codex\\config.toml.",
                "Keep both in sync, or run Codex only on one side.",
            ),
        ),
        zh=Text(
            title="运行在 WSL 中，而 Windows 有自己的 Codex 配置",
            diagnosis="codexdoctor 读取的是 {user_path}（WSL 的 Linux 一侧）。Windows 那边还有 {windows_text}：从 Windows 启动的 Codex（PowerShell、cmd、Windows 上的编辑器）读的是那个文件，而不是这个。",
            remedy=(
                "在你实际运行的那个 Codex 的配置里修改：在 WSL 里就改 {user_path}；从 Windows 运行就改 %USERPROFILE%\\.codex\\config.toml。",
                "让两边保持一致，或者只在其中一边运行 Codex。",
            ),
        ),
        when=lambda f: [{"windows_text": ", ".join(f["windows_configs"])}] if f.get("windows_configs") else [],
    ),
    Rule(
        code="CFG020",
        name="config-crlf-line-endings",
        check="cfg.files",
        reads=("files",),
        severity=I,
        verdict=CONFIG,
        en=Text(
            title="Config uses Windows line endings",
            diagnosis="{path} has CRLF (Windows) line endings. That is valid TOML and Codex reads it; nothing to fix.",
            remedy=("Nothing to do; if another tool complains, save the file with LF line endings.",),
        ),
        zh=Text(
            title="配置文件使用 Windows 换行符",
            diagnosis="{path} 使用 CRLF（Windows）换行符。这是合法的 TOML，Codex 能够读取；无需修改。",
            remedy=("无需处理；如果别的工具报错，再把文件存成 LF 换行。",),
        ),
        when=lambda f: [dict(path=x["path"]) for x in f.get("files", []) if x.get("crlf") and "toml_error" not in x],
    ),
    Rule(
        code="CFG021",
        name="backslash-in-toml-string",
        check="cfg.files",
        reads=("files",),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="A Windows path in double quotes",
            diagnosis='{path}:{line} has a backslash inside a double-quoted string, such as "C:\\Users\\me". In TOML, \\U, \\m and '
            "the like are escape sequences, so the file does not parse.",
            remedy=(
                "Use single quotes, which take backslashes literally: 'C:\\Users\\me', or forward slashes: \"C:/Users/me\", "
                "on line {line} of {path}.",
            ),
        ),
        zh=Text(
            title="双引号里写了 Windows 路径",
            diagnosis='{path}:{line} 的双引号字符串里有反斜杠，例如 "C:\\Users\\me"。在 TOML 中 \\U、\\m 这类写法是转义序列，所以文件无法解析。',
            remedy=(
                "在 {path} 第 {line} 行改用单引号（单引号中的反斜杠按字面处理）：'C:\\Users\\me'，或改用正斜杠：\"C:/Users/me\"。",
            ),
        ),
        when=lambda f: [
            dict(path=x["path"], line=x["toml_error"]["line"])
            for x in f.get("files", [])
            if x.get("toml_error", {}).get("backslash_in_string")
        ],
    ),
    Rule(
        code="CFG027",
        name="project-config-untrusted",
        check="cfg.files",
        reads=("project_root", "untrusted"),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Project config is not read: the project is not trusted",
            diagnosis="{path} sets {keys_text}, but Codex reads a project's .codex/config.toml only when the project is trusted "
            "(here: {ignored}), so none of it applies.",
            remedy=(
                'Trust the project: add to {user_config}\n[projects."{project_root}"]\ntrust_level = "trusted"',
                "Or move the settings you need into {user_config}.",
            ),
            explanation="Codex 0.171 warns `Untrusted project-local configuration is disabled` and skips the file; provider keys "
            "(`model_provider`, `model_providers`) in it are ignored even when the project is trusted.",
        ),
        zh=Text(
            title="项目配置未被读取：项目未受信任",
            diagnosis="{path} 设置了 {keys_text}，但 Codex 只在项目受信任时才读取项目的 .codex/config.toml（此处：{ignored}），所以这些设置都不生效。",
            remedy=(
                '信任该项目：在 {user_config} 中添加\n[projects."{project_root}"]\ntrust_level = "trusted"',
                "或者把需要的设置移到 {user_config}。",
            ),
        ),
        when=lambda f: [
            dict(
                x,
                keys_text=", ".join(x.get("keys") or []) or Loc("nothing", "任何设置"),
                ignored=Loc("not trusted", "未信任")
                if x["ignored"] == "untrusted"
                else Loc("marked untrusted", "被标记为不信任"),
            )
            for x in f.get("untrusted") or []
        ],
    ),
)
