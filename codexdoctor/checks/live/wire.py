"""api.wire: after a 404, does the provider serve /chat/completions but not /responses (a Chat-only gateway)?"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from codexdoctor.checks.base import CheckContext, result
from codexdoctor.checks.live.exchanges import Exchanges
from codexdoctor.checks.live.read import human, path_404, user_config
from codexdoctor.model import CheckResult, Msg, Status
from codexdoctor.net.classify import classify

if TYPE_CHECKING:
    from codexdoctor.checks.live.plan import Plan

ID = "api.wire"
TITLE = "Wire API"
TITLE_ZH = "接口协议（wire API）"


def interpret(ctx: CheckContext, plan: Plan, ex: Exchanges) -> CheckResult:
    version = ctx.codex_version
    facts: dict[str, Any] = {
        "wire": plan.wire,
        "chat_works": None,
        "variants_work": None,
        "codex_version": ".".join(map(str, version)) if version else None,
        "user_config": user_config(ctx),
    }
    not_found = path_404(plan, ex)
    if not not_found or ex.chat is None:
        said = Msg("not needed", "无需检查") if not not_found else Msg("no chat probe", "未做 chat 探测")
        return result(ID, TITLE, Status.SKIP, said, **facts)
    chat_kind = classify(ex.chat, "chat")
    facts["chat_works"] = chat_kind.kind == "ok"
    facts["variants_work"] = any(classify(x, "responses").kind == "ok" for _, x in ex.variants)
    evidence = [
        Msg("{line} => {kind}", "{line} => {kind}", line=ex.chat.line(), kind=human(chat_kind.kind, chat_kind.said))
    ]
    if facts["chat_works"] and not facts["variants_work"]:
        said = Msg("serves /chat/completions but not /responses", "提供 /chat/completions，但没有 /responses")
        return result(ID, TITLE, Status.FAIL, said, evidence, **facts)
    # Not a Chat-only gateway: /chat/completions does not answer either, so the wire API is not the problem.
    status = Status.PASS if chat_kind.kind == "ok" else Status.SKIP
    summary = (
        Msg("/chat/completions answers too", "/chat/completions 也能响应")
        if chat_kind.kind == "ok"
        else Msg(
            "not a Chat-only gateway (/chat/completions: {why})",
            "并非只提供 /chat/completions 的网关（/chat/completions：{why}）",
            why=human(chat_kind.kind, chat_kind.said),
        )
    )
    return result(ID, TITLE, status, summary, evidence, **facts)
