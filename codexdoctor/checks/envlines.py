"""The evidence lines of the key and login checks (checks/env.py), in English and Chinese: where the variable comes
from, what a .env file does to it, the names it may be under instead, the stored login. Names, paths, line numbers
and fingerprints are data, the same in every language; a reason from the OS is quoted as it came."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.codex import dotenvfile
from codexdoctor.codex.secrets import fingerprint_said
from codexdoctor.common.redact import fingerprint
from codexdoctor.model import Msg

# What value_problems names about a key's characters, in Chinese: the English is the fact.
PROBLEMS_ZH = {
    "newline": "换行符",
    "leading or trailing whitespace": "首尾空白",
    "quotes": "引号",
    "bearer prefix": "Bearer 前缀",
    "non-ascii": "非 ASCII 字符",
    "inner whitespace": "中间的空白",
}


def fingerprint_msg(value: str) -> Msg:
    """A key's fingerprint (common/redact.py) in words: `51 chars, sha256:1a2b3c4d`, `51 个字符，sha256:1a2b3c4d`."""
    fp = fingerprint(value)
    return fingerprint_said(fp) or Msg.verbatim(fp)


def env_key_line(var: str, origin: Msg) -> Msg:
    """`env_key = NAME (where)`. In Chinese the file comes first: `env_key = NAME（…）` would read to the redactor
    as one credential-shaped value (a full-width bracket does not end a value the way a space does)."""
    return Msg("env_key = {var} ({origin})", "{origin}：env_key = {var}", var=var, origin=origin)


def key_lines(env_key: str, value: str, facts: Mapping[str, Any]) -> list[Msg]:
    """A set key: its fingerprint, and a guide's placeholder or stray characters when it holds them."""
    lines = [Msg("${var}: set, {fp}", "${var}：已设置，{fp}", var=env_key, fp=fingerprint_msg(value))]
    if facts["key_placeholder"]:
        lines.append(
            Msg(
                "the value is a guide's placeholder ({label}-style), not a key",
                "这个值是教程里的占位符（{label} 式），不是密钥",
                label=str(facts["key_placeholder"]),
            )
        )
    elif facts["problems"]:
        words = [Msg.pair(p, PROBLEMS_ZH.get(p, p)) for p in facts["problems"]]
        lines.append(Msg("value contains: {what}", "值中含有：{what}", what=Msg.join(words)))
    return lines


def source_lines(env_key: str, facts: Mapping[str, Any]) -> list[Msg]:
    """A .env line that builds the key by $ substitution, and a .env file Codex loads over the shell's value."""
    lines = []
    if facts.get("dotenv_line") is not None:
        unset = (
            Msg(
                ": {names} unset, replaced by nothing",
                "：{names} 未设置，被替换为空",
                names=Msg.join(list(facts["dotenv_unset_refs"])),
            )
            if facts["dotenv_unset_refs"]
            else Msg.verbatim("")
        )
        lines.append(
            Msg(
                "{where} builds {var} by $ substitution{unset}",
                "{where} 用 $ 替换拼出 {var}{unset}",
                where=f"{facts['dotenv_path']}:{facts['dotenv_line']}",
                var=env_key,
                unset=unset,
            )
        )
    if facts["from_dotenv"]:
        other = (
            Msg(" (the shell has another value, {fp})", "（shell 里是另一个值，{fp}）", fp=str(facts["shell_fp"]))
            if facts["shell_differs"]
            else Msg.verbatim("")
        )
        lines.append(
            Msg(
                "${var} comes from {source}, which Codex loads over the shell's environment{other}",
                "${var} 来自 {source}，Codex 会用它覆盖 shell 的环境变量{other}",
                var=env_key,
                source=str(facts["source"]),
                other=other,
            )
        )
    return lines


def dotenv_lines(env_key: str, facts: Mapping[str, Any], lost: Any) -> list[Msg]:
    """The .env lines codexdoctor read no further into (past its caps), and the line meant to set the key that
    Codex's .env reader rejects (behind a byte-order mark, an unclosed quote, not `NAME=value`)."""
    path = str(facts["dotenv_path"])
    lines = [
        Msg(
            "{where} builds {var} by $ substitution past {max:,} characters (codexdoctor read no further into it)",
            "{where} 用 $ 替换拼出的 {var} 超过 {max:,} 个字符（codexdoctor 没有继续读下去）",
            where=f"{path}:{c['line']}",
            var=str(c["name"]),
            max=dotenvfile.VALUE_MAX,
        )
        for c in facts["dotenv_capped"]
    ]
    if facts["dotenv_stopped_at"]:
        lines.append(
            Msg(
                "{path}: its values pass {max:,} characters at line {line}; codexdoctor did not read that line or "
                "the ones after it",
                "{path}：它的值在第 {line} 行超过 {max:,} 个字符；codexdoctor 没有读这一行及之后的行",
                path=path,
                max=dotenvfile.TOTAL_MAX,
                line=facts["dotenv_stopped_at"],
            )
        )
    if facts["dotenv_bom"]:
        lines.append(
            Msg(
                "{path} sets {var} on its first line, behind a byte-order mark (BOM): Codex does not load that line",
                "{path} 在第一行设置 {var}，但前面有字节顺序标记（BOM）：Codex 不会加载这一行",
                path=path,
                var=env_key,
            )
        )
    elif lost is not None:
        why = (
            Msg("it: a quote opened there is never closed", "它：那里开始的引号一直没有闭合")
            if lost.reason == "unterminated"
            else Msg("that line", "这一行")
        )
        lines.append(
            Msg(
                "{where} is meant to set {var}, but Codex's .env reader rejects {why}",
                "{where} 本来要设置 {var}，但 Codex 的 .env 读取器拒绝了{why}",
                where=f"{path}:{lost.line}",
                var=env_key,
                why=why,
            )
        )
    return lines


def missing_lines(env_key: str, value: str | None, env: Mapping[str, str], facts: Mapping[str, Any]) -> list[Msg]:
    """A variable unset or blank: the names it may be under instead, the start-up files that set it, the files that
    could not be read."""
    state = Msg("not set", "未设置") if value is None else Msg("set but blank", "已设置但为空")
    lines = [Msg("${var}: {state} in this environment", "${var}：在当前环境中{state}", var=env_key, state=state)]
    lines += [
        Msg("${var} is set ({fp})", "${var} 已设置（{fp}）", var=n, fp=fingerprint_msg(env[n]))
        for n in facts["near_miss"]
    ]
    lines += [
        Msg("{where} sets {var}", "{where} 设置了 {var}", where=f"{h['file']}:{h['line']}", var=env_key)
        for h in facts["rc_hits"]
    ]
    lines += [
        Msg("{file} not read: {reason}", "{file} 未读取：{reason}", file=str(s["file"]), reason=str(s["reason"]))
        for s in facts["rc_skipped"]
    ]
    return lines


def auth_lines(auth: Mapping[str, Any], facts: Mapping[str, Any], env: Mapping[str, str]) -> list[Msg]:
    """The stored login (auth.json) and the variables that stand in for one."""
    if not auth["exists"]:
        state = Msg("absent", "不存在")
    elif auth.get("error"):
        state = Msg("unreadable ({why})", "无法读取（{why}）", why=str(auth["error"]))
    else:
        state = Msg.verbatim(f"auth_mode={auth.get('mode')}")
    lines = [Msg("{path}: {state}", "{path}：{state}", path=str(facts["auth_path"]), state=state)]
    if facts["openai_api_key_env"]:
        lines.append(
            Msg(
                "$OPENAI_API_KEY set ({fp})",
                "$OPENAI_API_KEY 已设置（{fp}）",
                fp=fingerprint_msg(env["OPENAI_API_KEY"]),
            )
        )
    if facts["codex_api_key_env"] and not auth.get("error"):
        lines.append(
            Msg(
                "$CODEX_API_KEY set ({fp}): read by `codex exec` only",
                "$CODEX_API_KEY 已设置（{fp}）：只有 `codex exec` 会读取",
                fp=fingerprint_msg(env["CODEX_API_KEY"]),
            )
        )
    return lines
