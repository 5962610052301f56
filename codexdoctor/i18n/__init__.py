"""English and Simplified Chinese for the words a report's frame uses: labels, check titles, table values.

Rule texts live in the catalog, English and Chinese side by side in each family (codexdoctor/rules/); check
summaries, notes, verdict reasons and net/'s details are model.Msg, English and Chinese side by side where they are
written. What is here is a plain lookup by key; nothing translates a finished English sentence after the fact.
"""

from __future__ import annotations

LANGS = ("en", "zh")
# Which language a run speaks is decided in codexdoctor/common/lang.py (detect_lang), without these tables.

# The failure kinds (model.Verdict's values but ok and inconclusive) in Chinese: one word each, the one every place
# says (the verdict line's 配置问题, a count's 2 个通道类错误, the sessions table, the sessions' reason). The only
# table of them (issue 40: three had grown apart in report/build.py, checks/sessions/across.py and here).
KIND_WORDS: dict[str, str] = {"config": "配置", "channel": "通道", "context": "上下文"}

UI: dict[str, dict[str, str]] = {
    "provider": {"en": "Provider", "zh": "提供方"},
    "builtin": {"en": "built-in", "zh": "内置"},
    "custom": {"en": "custom", "zh": "自定义"},
    "model": {"en": "Model", "zh": "模型"},
    "key": {"en": "Key", "zh": "密钥"},  # a header label, capitalised as Provider and Model (issue 40 review 2)
    "findings": {"en": "Findings", "zh": "发现的问题"},
    "verdict": {"en": "Verdict", "zh": "结论"},
    "note": {"en": "Note", "zh": "说明"},
    "evidence": {"en": "evidence", "zh": "证据"},
    "hint_verbose": {
        "en": "Run with --verbose for the evidence behind each finding; `codexdoctor explain CODE` for details.",
        "zh": "加 --verbose 查看每条结论背后的证据；`codexdoctor explain 问题编号` 查看详细说明。",
    },
    "report_title": {"en": "codexdoctor {command} report", "zh": "codexdoctor {command} 报告"},
    "checks": {"en": "Checks", "zh": "检查项"},
    "check": {"en": "check", "zh": "检查"},
    "result": {"en": "result", "zh": "结果"},
    "evidence_title": {"en": "Evidence", "zh": "证据"},
    "explains": {"en": "This is also why", "zh": "这也是以下问题的原因"},
    "evidence_all": {"en": "Evidence for every check", "zh": "全部检查的证据"},
    "request_url": {"en": "request URL", "zh": "请求地址"},
    "not_found": {"en": "not found", "zh": "未找到"},
    "proxy": {"en": "proxy", "zh": "代理"},
    "yes": {"en": "yes", "zh": "是"},
    "no": {"en": "no", "zh": "否"},
    "sev_error": {"en": "error", "zh": "错误"},
    "sev_warning": {"en": "warning", "zh": "警告"},
    "sev_info": {"en": "info", "zh": "提示"},
    "verdict_ok": {"en": "OK", "zh": "正常"},
    **{f"verdict_{kind}": {"en": kind.upper(), "zh": word + "问题"} for kind, word in KIND_WORDS.items()},
    "verdict_inconclusive": {"en": "INCONCLUSIVE", "zh": "无法判定"},
    "demo_scenario": {"en": "scenario", "zh": "场景"},
    "demo_wrong": {"en": "what is wrong", "zh": "问题"},
    "demo_expected": {"en": "expected", "zh": "预期"},
    "demo_match": {"en": "match", "zh": "一致"},
    "demo_top": {"en": "top finding", "zh": "首要发现"},
    "demo_summary": {
        "en": "{ok}/{total} scenarios got their expected verdict.",
        "zh": "{ok}/{total} 个场景得到了预期结论。",
    },
}

CHECK_TITLES_ZH = {
    "cfg.home": "Codex 主目录",
    "cfg.files": "配置文件",
    "cfg.profile": "配置档案（profile）",
    "cfg.provider": "模型提供方",
    "cfg.keys": "配置键",
    "env.key": "API Key 环境变量",
    "env.auth": "已保存的登录",
    "url.base_url": "base_url",
    "ctx.probe": "会话探测",
    "ctx.sessions": "会话日志",
    "ctx.pasted": "粘贴的报错",
    "ctx.watch": "记录的会话",
}
# The English titles the checks give themselves; a note that names a check by its title names it in Chinese too.
CHECK_TITLES_EN_ZH = {
    "Codex home": "Codex 主目录",
    "Config files": "配置文件",
    "Profile": "配置档案（profile）",
    "Provider": "模型提供方",
    "Config keys": "配置键",
    "API key variable": "API Key 环境变量",
    "Stored login": "已保存的登录",
    "base_url": "base_url",
}
TITLE_OVERRIDES_ZH = {"Single question": "单次提问", "Pasted error": "粘贴的报错"}


def register_check_titles(titles_zh: dict[str, str]) -> None:
    """Chinese titles by check id from a registry this stage cannot import (checks/live/registry.py gives its own)."""
    CHECK_TITLES_ZH.update(titles_zh)


# Values inside tables (probe phases and results, how a session ended, its failure kind), in words.
TABLE_WORDS: dict[str, tuple[str, str]] = {
    "single": ("single question", "单次提问"),
    "cache": ("prefix cache", "前缀缓存"),
    "grow": ("growing", "增长"),
    "bisect": ("narrowing", "二分"),
    "below": ("just below", "断点下方"),
    "above": ("just above", "断点上方"),
    "ok": ("ok", "正常"),
    "context_exceeded": ("context window exceeded", "超出上下文窗口"),
    "truncated": ("silently truncated", "被静默截断"),
    "stream_incomplete": ("answer cut short", "回答不完整"),
    "overflow": ("overflow", "上下文溢出"),
    "error": ("error", "出错"),
    "aborted": ("aborted", "中止"),
    "interrupted": ("interrupted", "被中断"),  # a probe request Ctrl-C cut short
    "completed": ("completed", "完成"),
    "never completed": ("never completed", "未完成"),
    "no turns": ("no turns", "没有轮次"),
    "unreadable": ("unreadable", "无法读取"),
    **{kind: (kind, word) for kind, word in KIND_WORDS.items()},
    "unknown": ("unknown", "未知"),
    # failure kinds from net/classify, as a finding names them (never as `server_error`)
    "server_error": ("server error (5xx)", "服务器错误（5xx）"),
    "reset": ("connection reset", "连接被重置"),
    "timeout": ("timeout", "超时"),
    # the other transport failures, as an evidence line's status (net.exchange.failure_word): the kind in English
    "refused": ("refused", "连接被拒绝"),
    "dns": ("dns", "域名解析失败"),
    "tls": ("tls", "TLS 错误"),
    "proxy": ("proxy", "代理出错"),
    "protocol": ("protocol", "协议错误"),
    "redirect": ("redirect", "重定向未跟随"),
    "deadline": ("deadline", "到达时限"),
    "rate_limited": ("rate limited (429)", "被限流（429）"),
    "stream_closed": ("stream closed early", "流提前关闭"),
    "stream_error": ("error inside the stream", "流中出错"),
    "server_overloaded": ("model at capacity", "模型容量已满"),
    "stream_rate_limited": ("rate limited inside the stream", "流中被限流"),
    "stream_idle": ("stream went silent", "流无响应"),
    "path_not_found": ("nothing at this path (404)", "该路径不存在（404）"),
    "model_not_found": ("model not found", "找不到模型"),
    "auth_rejected": ("key rejected (401)", "密钥被拒绝（401）"),
    "bad_request": ("request refused (400)", "请求被拒绝（400）"),
    "too_large": ("request too large (413)", "请求过大（413）"),
    "html": ("an HTML page", "HTML 页面"),
    "not_json": ("not JSON", "不是 JSON"),
}


def table_word(value: str, lang: str, detail: str = "") -> str:
    """A table value in words; an unknown kind falls back to its detail (already in `lang`) rather than an internal
    id."""
    words = TABLE_WORDS.get(value)
    if words:
        return words[1] if lang == "zh" else words[0]
    if detail:
        return detail
    return value.replace("_", " ")


def ui(key: str, lang: str, **params: object) -> str:
    text = UI[key].get(lang) or UI[key]["en"]
    return text.format(**params) if params else text


def check_title(check_id: str, title: str, lang: str) -> str:
    if lang != "zh":
        return title
    return TITLE_OVERRIDES_ZH.get(title) or CHECK_TITLES_ZH.get(check_id, title)
