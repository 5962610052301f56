"""The parts of Codex's request in words, English and Chinese: the parts of its first request (FirstRequest.parts,
codex/request.py) and what a provider's refusal names of it (checks/live/read.rejected_field). Said by the checks'
evidence lines and by the rules that quote them (and the items turn two adds, counted); a name (a field, AGENTS.md) is the same in every language."""

from __future__ import annotations

import re
from collections.abc import Sequence

from codexdoctor.model import Msg

# The parts of the first request (FirstRequest.parts): a part not here (AGENTS.md, developer_instructions) is a name.
PART_WORDS = {
    "instructions": Msg.pair("instructions", "指令"),
    "instructions (yours, from config.toml)": Msg.pair(
        "instructions (yours, from config.toml)", "指令（你自己的，来自 config.toml）"
    ),
    "skills and permissions": Msg.pair("skills and permissions", "技能与权限说明"),
    "tool schemas": Msg.pair("tool schemas", "工具定义"),
    "environment": Msg.pair("environment", "环境信息"),
    "prompt": Msg.pair("prompt", "提示词"),
}


def part_said(name: str) -> Msg:
    """A part of the first request in words (a name outside PART_WORDS as it is)."""
    return PART_WORDS.get(name) or Msg.verbatim(name)


# What a provider's refusal names of Codex's request, when it is not a field's name (checks/live/read.rejected_field).
DEVELOPER_ITEM = "a `developer` input item"
DEVELOPER_AS_SYSTEM = "a `developer` input item (sent on as a system message)"
REFUSED_WORDS = {
    DEVELOPER_ITEM: Msg.pair(DEVELOPER_ITEM, "`developer` 输入项"),
    DEVELOPER_AS_SYSTEM: Msg.pair(DEVELOPER_AS_SYSTEM, "`developer` 输入项（被当作 system 消息转发）"),
}


def refused_said(field: str) -> Msg:
    """What part of Codex's request a provider refused, in words (`a `web_search` tool`: `web_search` 工具)."""
    if field in REFUSED_WORDS:
        return REFUSED_WORDS[field]
    tool = re.fullmatch(r"a (`\w+`) tool", field)
    return Msg("a {tool} tool", "{tool} 工具", tool=tool[1]) if tool else Msg.verbatim(field)


def items_said(kinds: Sequence[str]) -> Msg:
    """The items a request carries by kind, each kind once with its count (TurnTwo.item_kinds): `2 × function_call,
    2 × function_call_output`; `2 个 function_call、2 个 function_call_output`."""
    return Msg.tally(list(kinds), "个")
