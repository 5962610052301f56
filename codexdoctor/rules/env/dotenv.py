"""ENV, Codex's .env file: blank, overriding, hidden by a BOM, unread, substituted."""

from __future__ import annotations

from typing import Any

from codexdoctor.rules.base import CONFIG, E, Loc, Rule, Text, W, once


def _capped_names(capped: list[dict[str, Any]]) -> Loc | None:
    if not capped:
        return None
    shown = ", ".join(f"{c['name']} (line {c['line']})" for c in capped[:3])
    shown_zh = "、".join(f"{c['name']}（第 {c['line']} 行）" for c in capped[:3])
    if len(capped) > 3:
        return Loc(f"{shown} and {len(capped) - 3} more", f"{shown_zh}等 {len(capped)} 个值")  # after `）`, no space
    return Loc(shown, shown_zh)


def _sent(fp: str | None) -> Loc:
    """What Codex sends instead of the key (ENV021): its fingerprint, said in the report's language."""
    from codexdoctor.codex.secrets import fingerprint_said

    if not fp:
        return Loc("an empty value", "空值")
    said = fingerprint_said(fp)
    return Loc(fp, said.text("zh") if said is not None else fp)


RULES: tuple[Rule, ...] = (
    Rule(
        code="ENV017",
        name="dotenv-blank-key",
        check="env.key",
        reads=("dotenv_path", "dotenv_unset_refs", "env_key", "from_dotenv", "state"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="The key variable is blank in Codex's .env file",
            diagnosis="{dotenv_path} sets {env_key} to an empty value. Codex loads that file at start-up over your shell's environment, "
            'so it stops with "Missing environment variable: `{env_key}`." even if the shell has the key.',
            remedy=(
                "Put the key on that line of {dotenv_path} ({env_key}=<your key>), or delete the line so the shell's value is used.",
            ),
        ),
        zh=Text(
            title="Codex 的 .env 文件里密钥变量为空",
            diagnosis="{dotenv_path} 把 {env_key} 设成了空值。Codex 启动时会用这个文件覆盖 shell 的环境变量，"
            '所以即使 shell 里有密钥，它也会报 "Missing environment variable: `{env_key}`." 并停止。',
            remedy=(
                "在 {dotenv_path} 的这一行填上密钥（{env_key}=<你的密钥>），或删除这一行，让 Codex 使用 shell 中的值。",
            ),
        ),
        when=once(lambda f: f["state"] == "blank" and bool(f.get("from_dotenv")) and not f.get("dotenv_unset_refs")),
    ),
    Rule(
        code="ENV018",
        name="dotenv-overrides-shell",
        check="env.key",
        reads=("dotenv_path", "env_key", "key_fingerprint", "shell_differs", "shell_fp", "state"),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Codex's .env file overrides the key in your shell",
            diagnosis="Codex takes {env_key} from {dotenv_path} ({key_fingerprint}), not from your shell ({shell_fp}): the file is loaded "
            "at start-up and wins. A key you export in the terminal is not the one Codex sends.",
            remedy=(
                "If the shell's key is the right one, delete the {env_key} line from {dotenv_path}; otherwise update it there.",
            ),
        ),
        zh=Text(
            title="Codex 的 .env 文件覆盖了 shell 中的密钥",
            diagnosis="Codex 从 {dotenv_path} 读取 {env_key}（{key_fingerprint}），而不是从你的 shell（{shell_fp}）：该文件在启动时加载并优先生效。"
            "你在终端里 export 的密钥并不是 Codex 发送的那个。",
            remedy=("如果 shell 里的密钥才是正确的，从 {dotenv_path} 删除 {env_key} 这一行；否则在那里更新它。",),
        ),
        when=once(lambda f: bool(f.get("shell_differs")) and f["state"] != "blank"),
    ),
    Rule(
        code="ENV019",
        name="dotenv-bom-hides-key",
        check="env.key",
        reads=("dotenv_bom", "dotenv_path", "env_key", "state"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Codex's .env file starts with a byte-order mark, which hides the key",
            diagnosis="{dotenv_path} begins with a byte-order mark (BOM, added by some Windows editors), and {env_key} is on its "
            "first line. Codex's .env reader takes the mark as part of that line and skips it, so {env_key} is not set and "
            'Codex stops with "Missing environment variable: `{env_key}`."',
            remedy=(
                "Save {dotenv_path} as UTF-8 without BOM (Notepad: Save As → Encoding: UTF-8; VS Code: click "
                '"UTF-8 with BOM" in the status bar → Save with Encoding → UTF-8).',
                "Or make its first line a comment (# …) and keep {env_key}=… on a line below it.",
            ),
        ),
        zh=Text(
            title="Codex 的 .env 文件以字节顺序标记开头，密钥因此被跳过",
            diagnosis="{dotenv_path} 以字节顺序标记（BOM，部分 Windows 编辑器会加上）开头，而 {env_key} 正好在第一行。"
            "Codex 读取 .env 时把这个标记当作该行的一部分并跳过这一行，所以 {env_key} 没有被设置，"
            'Codex 会报 "Missing environment variable: `{env_key}`." 并停止。',
            remedy=(
                "把 {dotenv_path} 另存为不带 BOM 的 UTF-8（记事本：另存为 → 编码：UTF-8；VS Code：点击状态栏的"
                "“UTF-8 with BOM” → 通过编码保存 → UTF-8）。",
                "或者把第一行改成注释（# …），把 {env_key}=… 放在它下面的一行。",
            ),
        ),
        when=once(lambda f: f["state"] in ("missing", "blank") and bool(f.get("dotenv_bom"))),
    ),
    Rule(
        code="ENV020",
        name="dotenv-line-not-loaded",
        check="env.key",
        reads=("dotenv_bom", "dotenv_path", "dotenv_unloaded", "env_key", "state"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Codex cannot read the .env line that sets the key",
            diagnosis="{dotenv_path}:{dotenv_line} is meant to set {env_key}, but Codex's .env reader rejects {why}, so {env_key} is "
            'not set and Codex stops with "Missing environment variable: `{env_key}`."',
            remedy=(
                "Write line {dotenv_line} of {dotenv_path} as {env_key}='<your key>': single quotes keep everything inside "
                "as it is.",
                "{how_to_fix_the_line}",
            ),
        ),
        zh=Text(
            title="Codex 无法读取 .env 中设置密钥的那一行",
            diagnosis="{dotenv_path}:{dotenv_line} 本应设置 {env_key}，但 Codex 的 .env 读取器拒绝了{why}，所以 {env_key} 没有被设置，"
            'Codex 会报 "Missing environment variable: `{env_key}`." 并停止。',
            remedy=(
                "把 {dotenv_path} 的第 {dotenv_line} 行写成 {env_key}='<你的密钥>'：单引号里的内容会原样保留。",
                "{how_to_fix_the_line}",
            ),
        ),
        when=lambda f: (
            [
                {
                    "dotenv_line": f["dotenv_unloaded"]["line"],
                    "why": Loc(
                        "it (a quote opened there is never closed, and the rest of the file is read as one "
                        "broken line)",
                        "它（那里打开的引号没有闭合，文件剩下的部分都被当作一行坏掉的内容）",
                    )
                    if f["dotenv_unloaded"]["reason"] == "unterminated"
                    else Loc(
                        "that line (an unquoted value ends at a space, after which only a # comment may follow, and "
                        "only NAME=value lines are read)",
                        "这一行（不加引号的值遇到空格就结束，后面只能跟 # 注释；而且只读取 NAME=value 形式的行）",
                    ),
                    "how_to_fix_the_line": Loc(
                        f"Close the quote opened on line {f['dotenv_unloaded']['line']}, or delete it; the lines "
                        "after it are not read until then.",
                        f"闭合第 {f['dotenv_unloaded']['line']} 行打开的引号，或删除它；在此之前，它后面的行都不会被读取。",
                    )
                    if f["dotenv_unloaded"]["reason"] == "unterminated"
                    else Loc(
                        f"Every line of {f['dotenv_path']} must be NAME=value (no `:`); a value with a space in it "
                        "must be quoted.",
                        f"{f['dotenv_path']} 的每一行都要写成 NAME=value（不能用 `:`）；值里有空格时要加引号。",
                    ),
                }
            ]
            if f["state"] in ("missing", "blank") and f.get("dotenv_unloaded") and not f.get("dotenv_bom")
            else []
        ),
    ),
    Rule(
        code="ENV021",
        name="dotenv-substitutes-unset-variable",
        check="env.key",
        reads=("dotenv_line", "dotenv_path", "dotenv_unset_refs", "env_key", "key_fingerprint", "state"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="The key in .env contains $ and Codex substitutes it",
            diagnosis="{dotenv_path}:{dotenv_line} sets {env_key} to a value with {refs} in it. Codex's .env reader replaces $NAME "
            "and ${{NAME}} with that variable's value (a name ends at the first character that is not a letter or digit), "
            "and {refs} is not set, so Codex sends the key without it ({sent}).",
            remedy=(
                "If the $ is part of the key, put the value on line {dotenv_line} of {dotenv_path} in single quotes "
                "({env_key}='…'): nothing inside them is replaced.",
                "If you meant another variable, write its whole name in braces there: {env_key}=${{NAME_WITH_UNDERSCORES}}.",
            ),
        ),
        zh=Text(
            title=".env 中的密钥含有 $，被 Codex 当作变量替换",
            diagnosis="{dotenv_path}:{dotenv_line} 给 {env_key} 设置的值里有 {refs}。Codex 的 .env 读取器会把 $NAME 和 ${{NAME}} "
            "替换成对应变量的值（变量名在第一个不是字母或数字的字符处结束），而 {refs} 没有设置，所以 Codex 发送的密钥少了这一部分（{sent}）。",
            remedy=(
                "如果 $ 是密钥本身的一部分，给 {dotenv_path} 第 {dotenv_line} 行的值加上单引号（{env_key}='…'）：单引号里的内容不会被替换。",
                "如果你想引用另一个变量，在那里用花括号写出完整的名字：{env_key}=${{NAME_WITH_UNDERSCORES}}。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "refs": ", ".join(f["dotenv_unset_refs"]),
                    "sent": _sent(f.get("key_fingerprint")),
                }
            ]
            if f["state"] in ("set", "blank") and f.get("dotenv_unset_refs")
            else []
        ),
    ),
    Rule(
        code="ENV023",
        name="dotenv-substitution-explodes",
        check="env.key",
        reads=("dotenv_capped", "dotenv_path", "dotenv_stopped_at"),
        severity=W,
        verdict=CONFIG,
        en=Text(
            title="Codex's .env builds values millions of characters long",
            diagnosis="{dotenv_path} builds {what} by $ substitution that feeds on itself (a line such as A2=${{A1}}${{A1}} doubles "
            "the value before it). Codex 0.171 builds every value whole before it starts: a 512 MB value took it 20 s "
            "and 4.9 GB of memory. codexdoctor stopped reading there, so what it says about the variables set from "
            "that point on is unproven.",
            remedy=(
                "Remove or rewrite line {first_line} of {dotenv_path} and the lines that build on it: a value should "
                "name other variables, not repeat them.",
            ),
        ),
        zh=Text(
            title="Codex 的 .env 构造出了长达数百万字符的值",
            diagnosis="{dotenv_path} 通过自我引用的 $ 替换构造了 {what}（例如 A2=${{A1}}${{A1}} 会把前一个值加倍）。Codex 0.171 "
            "在启动前会把每个值完整地构造出来：一个 512 MB 的值用了 20 秒和 4.9 GB 内存。codexdoctor 在那里停止读取，"
            "所以它对从那里开始设置的变量的判断没有得到证实。",
            remedy=(
                "删除或改写 {dotenv_path} 的第 {first_line} 行以及依赖它的行：值应该引用其他变量，而不是重复它们。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "what": _capped_names(f.get("dotenv_capped") or [])
                    or Loc(f"values past {f['dotenv_stopped_at']:,} lines", f"到第 {f['dotenv_stopped_at']:,} 行的值"),
                    "first_line": min(
                        [c["line"] for c in f.get("dotenv_capped") or []]
                        + ([f["dotenv_stopped_at"]] if f.get("dotenv_stopped_at") else [])
                    ),
                }
            ]
            if f.get("dotenv_capped") or f.get("dotenv_stopped_at")
            else []
        ),
    ),
)
