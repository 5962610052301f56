"""How net/ says in both languages what it found wrong in an answer's JSON: a value missing or of another type, and a
body that cannot be read as JSON at all.

common/outside_json finds these as data (a Shape, a Parsed with its depth or its reader's error) and writes English
for evidence; the words a person reads are made here, from the data, never from that English.
"""

from __future__ import annotations

from codexdoctor.common.outside_json import Parsed, Shape
from codexdoctor.model import Msg

# The kinds of JSON value outside_json.kind and a spec's `expected` name, in Chinese (null is null in every language).
JSON_KINDS_ZH = {
    "null": "null",
    "a boolean": "布尔值",
    "an integer": "整数",
    "a decimal number": "小数",
    "a string": "字符串",
    "an object": "对象",
    "an array": "数组",
    "a 64-bit integer": "64 位整数",
}


def json_kind(kind: str) -> Msg:
    """A kind of JSON value in words (a type name outside the table stays as it is)."""
    return Msg.pair(kind, JSON_KINDS_ZH.get(kind, kind))


def shape_said(shape: Shape) -> Msg:
    """`the provider sent `response` as a string, not an object` / `the provider left out `response.id``."""
    where = Msg.verbatim(f"`{shape.path}`") if shape.path else Msg("the value", "这个值")
    if shape.got is None:
        return Msg("the provider left out {where}", "提供方漏掉了 {where}", where=where)
    return Msg(
        "the provider sent {where} as {got}, not {expected}",
        "提供方发来的 {where} 是{got}，而不是{expected}",
        where=where,
        got=json_kind(shape.got),
        expected=json_kind(shape.expected),
    )


def malformed_said(parsed: Parsed) -> Msg | None:
    """Why a body that looks like JSON cannot be read, as the rest of a sentence that begins "the body is", or None
    when it was read."""
    if parsed.malformed is None:
        return None
    if parsed.depth is not None:
        return Msg(
            "JSON nested {depth:,} levels deep (Codex reads at most {limit})",
            "是嵌套 {depth:,} 层的 JSON（Codex 最多只读 {limit} 层）",
            depth=parsed.depth,
            limit=parsed.limit or 0,
        )
    return Msg("not JSON ({why})", "不是 JSON（{why}）", why=parsed.error or "")


def body_is(malformed: Msg) -> Msg:
    """`the body is <why it cannot be read>`."""
    return Msg("the body is {what}", "响应体{what}", what=malformed)
