"""ENV, the key's characters: whitespace, quotes, a `Bearer ` prefix, non-ASCII."""

from __future__ import annotations

from codexdoctor.rules.base import CONFIG, E, Loc, Rule, Text, once

# A key with white space and a `Bearer ` prefix gets one command in ENV005 and ENV007 (shells.strip_key), which drops
# the prefix first: `tr -d '[:space:]'` first would leave `Bearersk-…`, which `${VAR#Bearer }` no longer matches.
_AND_BEARER = Loc(
    " (and without ENV007's `Bearer ` prefix, which this command removes first: with the white space gone first, "
    "`Bearer` would stick to the key)",
    "（连同 ENV007 的 `Bearer ` 前缀一起去掉，并且先去前缀，因为先删空白的话 `Bearer` 会粘在密钥上）",
)
_AND_SPACES = Loc(
    " and ENV005's white space together (the same command as ENV005's: either one leaves the bare key)",
    "和 ENV005 所说的空白（与 ENV005 的命令相同，执行其中任一条都会得到干净的密钥）",
)
_NOTHING = Loc("", "")


def _is_space(problem: str) -> bool:
    return "whitespace" in problem or problem == "newline"


RULES: tuple[Rule, ...] = (
    Rule(
        code="ENV026",
        name="key-is-placeholder",
        check="env.key",
        reads=("env_key", "key_placeholder"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="The API key is still the guide's placeholder",
            diagnosis="${env_key} holds a placeholder ({key_placeholder}-style text), not a key: Codex sends it as it "
            "is and the provider answers 401 (`Incorrect API key provided`), after five retries.",
            remedy=(
                "Copy your real key from the provider's console (its API keys or 令牌 page) and set it in place of "
                "the placeholder: {set_cmd}",
            ),
        ),
        zh=Text(
            title="API 密钥还是教程里的占位符",
            diagnosis="${env_key} 里是占位符（{key_placeholder} 这类文字），而不是密钥：Codex 会原样发送它，提供方在五次"
            "重试后仍返回 401（`Incorrect API key provided`）。",
            remedy=("从提供方控制台（API 密钥或令牌页面）复制你真正的密钥，用它替换占位符：{set_cmd}",),
        ),
        when=once(lambda f: bool(f.get("key_placeholder"))),
    ),
    Rule(
        code="ENV005",
        name="env-key-whitespace",
        check="env.key",
        reads=("env_key", "key_fingerprint", "problems"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Key value has whitespace or a newline",
            diagnosis="${env_key} ({key_fingerprint}) contains {problem_text}. Codex drops a header value with a newline, so the "
            "provider sees no key and answers 401.",
            remedy=(
                "Set it again without spaces or line breaks{and_bearer}: {strip_cmd}",
                "When copying the key, copy only the key itself (no trailing newline from `echo` or a file).",
            ),
        ),
        zh=Text(
            title="密钥值里有空白或换行",
            diagnosis="${env_key}（{key_fingerprint}）包含{problem_text}。Codex 会丢弃带换行的请求头，提供方因此收不到密钥并返回 401。",
            remedy=(
                "去掉空格和换行后重新设置{and_bearer}：{strip_cmd}",
                "复制密钥时只复制密钥本身（不要带上 `echo` 或文件末尾的换行）。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "problem_text": Loc(
                        " and ".join(p for p in f["problems"] if "whitespace" in p or p == "newline"),
                        "、".join(
                            {
                                "newline": "换行",
                                "leading or trailing whitespace": "首尾空白",
                                "inner whitespace": "中间的空白",
                            }[p]
                            for p in f["problems"]
                            if "whitespace" in p or p == "newline"
                        ),
                    ),
                    "and_bearer": _AND_BEARER if "bearer prefix" in f["problems"] else _NOTHING,
                }
            ]
            if any("whitespace" in p or p == "newline" for p in f["problems"])
            else []
        ),
    ),
    Rule(
        code="ENV006",
        name="env-key-quoted",
        check="env.key",
        reads=("env_key", "key_fingerprint", "problems"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Key value includes quote characters",
            diagnosis="${env_key} ({key_fingerprint}) starts and ends with quotes, which are sent as part of the key.",
            remedy=(
                "Set it without literal quotes (the shell's own quotes are fine; quotes inside them are not):\n{set_cmd}",
            ),
        ),
        zh=Text(
            title="密钥值里带了引号",
            diagnosis="${env_key}（{key_fingerprint}）首尾带有引号，这些引号会被当作密钥的一部分发出去。",
            remedy=("不带字面引号重新设置（shell 自己的引号没问题，引号里面再套引号就不行）：\n{set_cmd}",),
        ),
        when=once(lambda f: "quotes" in f["problems"]),
    ),
    Rule(
        code="ENV007",
        name="env-key-bearer-prefix",
        check="env.key",
        reads=("env_key", "problems"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Key value starts with `Bearer `",
            diagnosis="${env_key} starts with `Bearer `; Codex adds that itself, so the provider receives `Bearer Bearer …`.",
            remedy=("Remove the prefix{and_spaces}, keeping the key itself: {strip_bearer_cmd}",),
        ),
        zh=Text(
            title="密钥值以 `Bearer ` 开头",
            diagnosis="${env_key} 以 `Bearer ` 开头；Codex 会自己加上这个前缀，提供方收到的就成了 `Bearer Bearer …`。",
            remedy=("去掉前缀{and_spaces}，只保留密钥本身：{strip_bearer_cmd}",),
        ),
        when=lambda f: (
            [{"and_spaces": _AND_SPACES if any(_is_space(p) for p in f["problems"]) else _NOTHING}]
            if "bearer prefix" in f["problems"]
            else []
        ),
    ),
    Rule(
        code="ENV008",
        name="env-key-non-ascii",
        check="env.key",
        reads=("env_key", "problems"),
        severity=E,
        verdict=CONFIG,
        en=Text(
            title="Key value has non-ASCII characters",
            diagnosis="${env_key} contains non-ASCII characters (often a full-width space or a smart quote from a chat app or document).",
            remedy=("Copy the key again from the provider's console and set it with only ASCII characters: {set_cmd}",),
        ),
        zh=Text(
            title="密钥值里有非 ASCII 字符",
            diagnosis="${env_key} 含有非 ASCII 字符（常见的是从聊天软件或文档里带来的全角空格或智能引号）。",
            remedy=("从提供方控制台重新复制密钥，只用 ASCII 字符设置：{set_cmd}",),
        ),
        when=once(lambda f: "non-ascii" in f["problems"]),
    ),
)
