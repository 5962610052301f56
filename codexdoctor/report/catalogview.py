"""`codexdoctor explain` / `rules` and docs/rules.md, all generated from the one catalog."""

from __future__ import annotations

import json
import re
from typing import Any

from codexdoctor.rules import RULES, RULES_BY_CODE, Rule

FAMILIES = {
    "CFG": "Finding and parsing Codex config, profiles and provider tables",
    "ENV": "The API key variable and stored logins",
    "URL": "base_url",
    "NET": "Reaching the provider",
    "AUTH": "Key rejected",
    "API": "The request path and protocol",
    "MODEL": "Model ID",
    "CTX": "Context and session",
}


_SLOT = re.compile(r"\{([a-z_0-9]+)(?::[^}]*)?\}")
_SUFFIXES = ("_text", "_step", "_cmd", "_where")
# The slots a reader meets most, in Chinese; any other slot reads <…>, which a report fills in.
_SLOTS_ZH = {
    "url": "地址",
    "request_url": "请求地址",
    "working_url": "可用地址",
    "base_url": "base_url",
    "model": "模型",
    "where": "位置",
    "user_config": "配置文件",
    "served": "服务端窗口",
    "assumed": "Codex 假定的窗口",
    "message": "提供方的报错",
    "detail": "详情",
    "status": "状态码",
    "env_key": "env_key",
    "provider": "提供方",
    "first_request": "第一个请求的 token 数",
    "min_usable": "最小可用窗口",
    "attempts": "尝试次数",
    "key": "键",
    "value": "值",
    "path": "路径",
    "host": "主机",
    "codex_version": "Codex 版本",
}
_SLOTS_EN = {
    "first_text": "its parts",
    "base_url_where": "where base_url is set",
    "source": "where it is published",
    "min_usable": "Codex's first request",
    "user_config": "your config.toml",
    "attempts_text": "at all N attempts Codex makes",
    "and_bearer": "a note when the key also starts with Bearer",
    "and_spaces": "a note when the key also has white space",
    "setting_line": "the line as written",
    "effect": "what the line does",
    "table_where": "where the table starts",
}
_SLOTS_ZH["base_url_where"] = "base_url 所在位置"
# Every other slot a Chinese template uses, named in Chinese (issue 29: `explain --lang zh` showed bare <…>).
_SLOTS_ZH.update(
    {
        "added": "增加的 token 数",
        "effect": "这一行的后果",
        "file": "配置文件",
        "setting_line": "这一行设置",
        "table_id": "提供方 id",
        "and_bearer": "密钥还以 Bearer 开头时的说明",
        "and_spaces": "密钥还带空白时的说明",
        "after_pct": "之后的比例",
        "after_text": "在多少输出 token 后",
        "answered": "提供方的回答",
        "assumed_source": "假定值的来源",
        "at_text": "位置",
        "auth_path": "auth.json 路径",
        "available_text": "可用的选项",
        "baseline_text": "基准耗时",
        "before_pct": "之前的比例",
        "before_text": "之前的请求",
        "closest_first": "最接近的 ID",
        "closest_text": "最接近的 ID",
        "codex_api_key_login_cmd": "登录命令",
        "codex_home": "Codex 主目录",
        "codex_retries": "Codex 的重试次数",
        "codex_retries_setting": "重试设置",
        "codex_said": "Codex 显示的报错",
        "codex_says": "Codex 的报错",
        "codex_version_text": "Codex 版本",
        "codes_text": "错误码",
        "attempts_text": "在 Codex 的全部 N 次尝试中",
        "longer_s": "更长的秒数",
        "waited_text": "等待的时间",
        "answered_text": "答复过的最大请求和失败的轮次",
        "compacted_text": "日志记录的压缩次数",
        "compact_at": "压缩点",
        "compact_text": "压缩点",
        "configured_compact_at": "配置的压缩点",
        "context": "上下文大小",
        "contrast": "对照结果",
        "core": "集中的会话数",
        "count": "数量",
        "count_text": "收到同一状态码的请求数",
        "cut_rule": "切分规则",
        "deadline_text": "时限",
        "dotenv_line": ".env 行号",
        "dotenv_path": ".env 路径",
        "doubled_path": "重复的路径",
        "doubled_text": "重复的路径",
        "earlier_text": "之前的尝试",
        "eighty": "压缩上限",
        "env_key_where": "env_key 所在位置",
        "error_short": "报错",
        "error_text": "error 事件内容",
        "evidence": "依据",
        "example": "示例",
        "example_set_cmd": "设置命令",
        "expected": "应有的类型",
        "export_line": "带 export 的那一行",
        "fail_text": "失败的大小",
        "failed_as": "失败时的报错",
        "failed_turn": "失败的轮次",
        "failure_text": "失败类型",
        "failures": "失败会话数",
        "field_text": "字段",
        "first_counted_by_text": "计数方式",
        "first_fail": "首次失败的大小",
        "first_line": "第一行",
        "first_near_miss": "相近的变量名",
        "first_request_text": "第一个请求",
        "first_text": "各组成部分",
        "first_token_timeout_text": "首字超时",
        "first_tokens": "第一次的上下文 token 数",
        "first_ttft": "首次首字延迟",
        "folded_text": "合并的会话",
        "fp_cmd": "指纹命令",
        "fp_prints": "命令输出",
        "gap_text": "停顿秒数",
        "gateway_key": "网关",
        "gateway_step": "修改方法",
        "got": "实际的值",
        "high": "上限",
        "hint": "提示",
        "hint_short": "提示",
        "how_text": "提供方的回答",
        "id": "ID",
        "id_text": "请求 ID",
        "ignored": "被忽略的值",
        "ignored_openai_base_url": "被忽略的地址",
        "item_detail": "条目详情",
        "calls_text": "工具调用次数",
        "kb": "KB 数",
        "keys": "键",
        "item_name": "条目名称",
        "item_sent": "发送的条目",
        "item_text": "条目",
        "items": "发送的条目",
        "key_fingerprint": "密钥指纹",
        "key_placeholder": "占位文字",
        "keys_text": "键",
        "kinds_text": "错误类型",
        "large_output_text": "大输出的说明",
        "largest_ok": "成功的最大请求",
        "largest_ttft_text": "最大请求的首字延迟",
        "last_ok": "最后成功的大小",
        "last_ok_text": "最后成功的大小",
        "last_text": "最后一次的首字秒数",
        "last_tokens": "最后一次的上下文 token 数",
        "late_pct": "后期比例",
        "learned_text": "已测得的结果",
        "line": "行号",
        "location": "跳转地址",
        "login_cmd": "登录命令",
        "logs_text": "会话日志说明",
        "longest_stall_text": "最长停顿",
        "low": "下限",
        "malformed": "格式问题",
        "mask_text": "Codex 显示的报错",
        "match": "差异",
        "max_context": "探测的最大大小",
        "mean_text": "可能想写的名字",
        "median": "中位数",
        "median_growth": "每轮增长中位数",
        "median_text": "中位数",
        "message_short": "报错",
        "min_usable_text": "最小可用窗口",
        "minimal_text": "最小请求的结果",
        "mismatch_text": "不一致之处",
        "model_origin": "模型设置的位置",
        "model_placeholder": "占位文字",
        "model_where": "模型设置的位置",
        "name": "名称",
        "names": "参数名",
        "near_miss_text": "相近的变量名",
        "needed": "所需窗口",
        "answer_room": "留给回答的 token 数",
        "no_proxy_cmd": "NO_PROXY 命令",
        "number": "请求序号",
        "openai_key_fp": "密钥指纹",
        "opening": "开头",
        "origin": "来源",
        "others_text": "同组的其他会话",
        "outlier_text": "离群的会话",
        "peak_text": "最大上下文",
        "persist_cmd": "永久设置的命令",
        "prefix_tokens": "前缀 token 数",
        "problem_text": "问题",
        "profile_file": "profile 文件",
        "project_root": "项目根目录",
        "provider_id": "提供方 ID",
        "proxy_codex": "Codex 使用的代理",
        "range_text": "探测范围说明",
        "rate_limited_attempts": "被限流的次数",
        "ratio": "倍数",
        "rc_file": "shell 文件",
        "rc_line": "行号",
        "rc_text": "shell 文件",
        "read_error": "读取错误",
        "real_text": "真实窗口说明",
        "reason": "结束原因",
        "redirect": "跳转地址",
        "refs": "引用的变量",
        "reload_cmd": "加载命令",
        "rename_cmd": "改名命令",
        "repeat_cached": "重复请求的缓存 token 数",
        "repeat_text": "重复测试的结果",
        "repeat_ttft": "重复请求的首字延迟",
        "reported_at_truncation": "提供方统计的 token 数",
        "request_bytes_text": "请求大小",
        "requests": "请求数",
        "retry_after_text": "Retry-After",
        "room": "剩余空间",
        "room_said": "会话还剩多少空间",
        "room_text": "剩余空间说明",
        "said": "报错",
        "said_text": "提供方的说法",
        "selected": "选中的值",
        "sent": "发送的 token 数",
        "sessions_peak": "会话的最大上下文",
        "sessions_peak_id": "会话 ID",
        "set_cmd": "设置命令",
        "set_home_cmd": "设置命令",
        "seventy": "70% 的大小",
        "share_text": "窗口占比",
        "shell_fp": "shell 中的密钥指纹",
        "short_id": "会话 ID",
        "shown": "显示的值",
        "single_kinds_text": "失败类型",
        "singles": "单次提问数",
        "singles_ok": "成功的单次提问数",
        "size_text": "请求大小说明",
        "sizes_text": "各个大小",
        "slope_ms_per_1k": "每 1K token 的增长",
        "source": "公布的位置",
        "spent": "已用 token 数",
        "stall_count": "停顿次数",
        "stall_threshold_s": "停顿阈值",
        "start_text": "开始时间",
        "state": "状态",
        "stopped": "停止原因",
        "strip_bearer_cmd": "去掉 Bearer 的命令",
        "strip_cmd": "清理命令",
        "suggest_compact": "建议的压缩上限",
        "suggest_window": "建议的窗口",
        "suggested": "建议的值",
        "table": "表",
        "table_where": "表所在位置",
        "same_code": "check 给出的问题编号",
        "threshold_text": "停顿阈值",
        "tilde_hint": "关于 ~ 的说明",
        "tool_round": "一轮工具调用的大小",
        "tool_round_typical": "一次典型工具调用的大小",
        "tpm_limit": "每分钟 token 上限",
        "tpm_requested": "请求的 token 数",
        "tried_text": "尝试过的地址",
        "truncated_at": "截断处的大小",
        "truncated_text": "截断处的大小",
        "ttft_ratio": "首字延迟倍数",
        "ttft_text": "首字延迟",
        "turn": "轮次",
        "turn_two_tokens": "第二个请求的 token 数",
        "turns_text": "轮次",
        "unreadable_lines": "无法读取的行数",
        "unset_home_cmd": "取消设置的命令",
        "user_config_text": "配置文件",
        "user_path": "路径",
        "version_text": "版本",
        "waited_for_alive": "等待的原因",
        "what": "内容",
        "what_text": "提供方的回答",
        "why": "原因",
        "why_text": "原因",
        "window_advice": "窗口设置",
        "worked_text": "失败前成功过的上下文",
        "window_text": "窗口",
        "window_value": "窗口大小",
        "windows_text": "窗口",
        "wire_api_invalid": "wire_api 的值",
        "wire_api_where": "wire_api 所在位置",
        "within_pct": "偏差",
    }
)
_WHOLE_STEP = {"en": "(written for your setup when codexdoctor reports this)", "zh": "（报告时按你的配置写出这一步）"}


# Slots that hold only punctuation, left out with the value after them when it is missing: shown as that punctuation.
_PUNCTUATION_SLOTS = {"evidence_colon": {"en": ": ", "zh": "："}}


def _slot_name(name: str, lang: str) -> str:
    if name in _PUNCTUATION_SLOTS:
        return _PUNCTUATION_SLOTS[name]["zh" if lang == "zh" else "en"]
    if lang == "zh":
        return f"<{_SLOTS_ZH.get(name) or _generic_zh(name)}>"
    if name in _SLOTS_EN:
        return f"<{_SLOTS_EN[name]}>"
    for suffix in _SUFFIXES:
        if name.endswith(suffix) and name != suffix[1:]:
            name = name[: -len(suffix)]
    return f"<{name.replace('_', ' ')}>"


def _generic_zh(name: str) -> str:
    """A slot no table names (a new rule): named by what its suffix says it holds, never a bare <…>."""
    for suffix, word in (
        ("_cmd", "命令"),
        ("_where", "位置"),
        ("_path", "路径"),
        ("_step", "修改方法"),
        ("_pct", "比例"),
    ):
        if name.endswith(suffix):
            return word
    return "值"


def fill_slots(text: str, lang: str = "en") -> str:
    """A template made readable: `{served}` becomes <served>, so `explain` never shows a raw placeholder."""
    if _SLOT.fullmatch(text.strip()):
        return _WHOLE_STEP.get(lang, _WHOLE_STEP["en"])
    return _SLOT.sub(lambda m: _slot_name(m.group(1), lang), text)


def _rule_data(rule: Rule, lang: str = "en") -> dict[str, Any]:
    text = rule.text(lang)
    return {
        "code": rule.code,
        "name": rule.name,
        "severity": rule.severity.value,
        "verdict": rule.verdict.value,
        "title": text.title,
        "check": rule.check,
        "diagnosis": text.diagnosis,
        "remedy": list(text.remedy),
        "explanation": text.explanation,
        "references": list(rule.references),
        "lang": lang,
    }


def explain_rule(code: str, fmt: str = "text", lang: str = "en", width: int | None = None) -> str | None:
    rule = RULES_BY_CODE.get(code)
    if rule is None:
        return None
    if fmt == "json":
        return json.dumps(_rule_data(rule, lang), indent=2, ensure_ascii=False) + "\n"
    text = rule.text(lang)
    diagnosis, remedy = fill_slots(text.diagnosis, lang), tuple(fill_slots(step, lang) for step in text.remedy)
    zh = lang == "zh"
    if zh:
        from codexdoctor.i18n import ui

        head = f"{rule.code} {rule.name}（{ui('sev_' + rule.severity.value, lang)}，结论：{ui('verdict_' + rule.verdict.value, lang)}）"
    else:
        head = f"{rule.code} {rule.name} ({rule.severity.value}, verdict: {rule.verdict.value})"
    from functools import partial

    from codexdoctor.report.render.text import remedy_lines
    from codexdoctor.report.render.text import wrap as wrap_text

    wrap = partial(wrap_text, lang=lang)  # counted as `lang`'s terminal draws it (common/cells.py)
    lines = [*wrap(head, width, "", "  "), "", *wrap(text.title, width), ""]
    if text.explanation:
        lines += [*wrap(text.explanation, width), ""]
    lines += [
        *wrap(
            "codexdoctor 的报告（<…> 处会按你的配置填入）："
            if zh
            else "What codexdoctor reports (each <…> is filled in from your setup):",
            width,
        ),
        *wrap(diagnosis, width, "  ", "  "),
        "",
        "修复方法：" if zh else "How to fix:",
    ]
    for number, step in enumerate(remedy, 1):
        lines += remedy_lines(number, step, width, lang, "  ")  # the command block never wrapped
    if rule.references:
        lines += ["", "参考资料：" if zh else "References:"]
        for ref in rule.references:
            lines += wrap(ref, width, "  ", "  ")
    return "\n".join(lines) + "\n"


def list_rules(fmt: str = "text", lang: str = "en", width: int | None = None) -> str:
    if fmt == "json":
        return json.dumps([_rule_data(r, lang) for r in RULES], indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return rules_markdown(lang)
    from codexdoctor.i18n import ui
    from codexdoctor.report.render.text import table_lines

    if lang == "zh":
        headers = ("代码", "严重程度", "结论", "标题")
        rows = tuple(
            (r.code, ui("sev_" + r.severity.value, lang), ui("verdict_" + r.verdict.value, lang), r.text(lang).title)
            for r in RULES
        )
    else:
        headers = ("code", "severity", "verdict", "title")
        rows = tuple((r.code, r.severity.value, r.verdict.value, r.text(lang).title) for r in RULES)
    return "\n".join(table_lines(headers, rows, width, lang=lang)) + "\n"


def rules_markdown(lang: str = "en") -> str:
    """The text of docs/rules.md and docs/rules.zh.md (a test fails when a committed file differs)."""
    zh = lang == "zh"
    target = "docs/rules.zh.md" if zh else "docs/rules.md"
    out = [
        "# 问题代码" if zh else "# Finding codes",
        "",
        f"Generated from the catalog in `codexdoctor/rules/` by `codexdoctor rules --format markdown{' --lang zh' if zh else ''} > {target}`; "
        "do not edit by hand.",
        "Codes are a public contract: a code is never reused or renumbered.",
        "",
    ]
    for family, about in FAMILIES.items():
        members = [r for r in RULES if r.code.startswith(family)]
        if not members:
            continue
        out += [f"## {family}: {about}", ""]
        for r in members:
            text = r.text(lang)
            out += [
                f"### {r.code} `{r.name}`",
                "",
                f"**{text.title}** — severity `{r.severity.value}`, verdict `{r.verdict.value}`, from check `{r.check}`.",
                "",
            ]
            if text.explanation:
                out += [text.explanation, ""]
            out += [f"{'诊断' if zh else 'Diagnosis'}: {text.diagnosis}", "", f"{'修复' if zh else 'Remedy'}:", ""]
            for number, step in enumerate(text.remedy, 1):
                first, *rest = step.splitlines()
                out.append(f"{number}. {first}")
                if rest:
                    out += ["   ```toml"] + [f"   {line}" for line in rest] + ["   ```"]
            out.append("")
    return "\n".join(out)
