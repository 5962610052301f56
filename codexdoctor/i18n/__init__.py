"""English and Simplified Chinese for everything a person reads; codes, JSON keys and field values stay neutral.

Rule texts live in the catalog, English and Chinese side by side in each family (codexdoctor/rules/); check
summaries, notes and verdict reasons are model.Msg, English and Chinese side by side where they are written. The
pattern table below says in Chinese the English that net/'s details and a few quoted facts still are, until those
move to Msg too.
"""

from __future__ import annotations

import re

LANGS = ("en", "zh")
# Which language a run speaks is decided in codexdoctor/common/lang.py (detect_lang), without these tables.

UI: dict[str, dict[str, str]] = {
    "provider": {"en": "Provider", "zh": "提供方"},
    "builtin": {"en": "built-in", "zh": "内置"},
    "custom": {"en": "custom", "zh": "自定义"},
    "model": {"en": "Model", "zh": "模型"},
    "key": {"en": "key", "zh": "密钥"},
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
    "verdict_config": {"en": "CONFIG", "zh": "配置问题"},
    "verdict_channel": {"en": "CHANNEL", "zh": "通道问题"},
    "verdict_context": {"en": "CONTEXT", "zh": "上下文问题"},
    "verdict_inconclusive": {"en": "INCONCLUSIVE", "zh": "无法判定"},
    "demo_scenario": {"en": "scenario", "zh": "场景"},
    "demo_wrong": {"en": "what is wrong", "zh": "问题"},
    "demo_expected": {"en": "expected", "zh": "预期"},
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
    "completed": ("completed", "完成"),
    "never completed": ("never completed", "未完成"),
    "no turns": ("no turns", "没有轮次"),
    "unreadable": ("unreadable", "无法读取"),
    "context": ("context", "上下文"),
    "channel": ("channel", "通道"),
    "unknown": ("unknown", "未知"),
    # failure kinds from net/classify, as a finding names them (never as `server_error`)
    "server_error": ("server error (5xx)", "服务器错误（5xx）"),
    "reset": ("connection reset", "连接被重置"),
    "timeout": ("timeout", "超时"),
    "rate_limited": ("rate limited (429)", "被限流（429）"),
    "stream_closed": ("stream closed early", "流提前关闭"),
    "stream_error": ("error inside the stream", "流中出错"),
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
    """A table value in words; an unknown kind falls back to its detail (translated) rather than an internal id."""
    words = TABLE_WORDS.get(value)
    if words:
        return words[1] if lang == "zh" else words[0]
    if detail:
        return localize(detail, lang)
    return value.replace("_", " ")


def ui(key: str, lang: str, **params: object) -> str:
    text = UI[key].get(lang) or UI[key]["en"]
    return text.format(**params) if params else text


def check_title(check_id: str, title: str, lang: str) -> str:
    if lang != "zh":
        return title
    return TITLE_OVERRIDES_ZH.get(title) or CHECK_TITLES_ZH.get(check_id, title)


# (English pattern, Chinese template). Groups are re-inserted as {1}, {2}...; order matters (first match wins).
#
# What is left of the table that translated every summary after the fact (issue 37 point 3). Checks, notes, verdict
# reasons, the provider line and usage errors write a model.Msg, English and Chinese side by side; a fact that must
# stay an English string has its Msg beside it (CheckResult.said, ProviderSummary.said, model.said_error). The table
# says in Chinese only the English still written elsewhere, and it goes when these move to Msg too:
#   - net/'s details inside live rows and notes (net/classify.py, net/transport.py, net/stream.py, outside_json:
#     "kind: detail", nested as model.English by checks/live/read.py human()), and the details diagnose and the
#     canary build as Classified (Codex's idle limit, the 429 retries, codex_rejected);
#   - facts rules quote (rules/engine.py PHRASE_KEYS: detail, read_error, malformed, evidence, url, base_url_where;
#     rules/api/answer.py's unreadable message): the read-error reasons of codex/config.py and common/safefile.py,
#     the profile origin ("profile `x` (path)"), "failure at N% of the window";
#   - `cannot write PATH: reason` (cli/params.py, commands/report.py), whose reason is safefile's;
#   - report/configview.py's other values and sources (origins), which it still passes through localize.
_PATTERNS_ZH: list[tuple[str, str]] = [
    (r"((?:~|/|https?://)\S*)", "{1}"),  # a bare path or URL is the same in every language
    # why a file could not be read (codex/config.py, common/safefile.py, the OS's own words)
    (
        r"saved as UTF-16, and Codex reads only UTF-8: it stops with (`[^`]+`)",
        "以 UTF-16 保存，而 Codex 只读 UTF-8：它会报 {1} 并停止",
    ),
    (r"not valid UTF-8 \(byte (\d+)\)", "不是合法的 UTF-8（第 {1} 字节）"),
    (r"a symlink loop", "符号链接形成了循环"),
    (r"is a directory, not a file", "是目录，不是文件"),
    (r"a named pipe \(FIFO\), not a file", "是命名管道（FIFO），不是文件"),
    (r"a socket, not a file", "是套接字，不是文件"),
    (r"a device, not a file", "是设备，不是文件"),
    (r"not a regular file", "不是普通文件"),
    (
        r"a symbolic link: not followed \(remove it, or write to another name\)",
        "是符号链接：不会跟随它写入（请删除它，或换一个文件名）",
    ),
    (
        r"a file that belongs to another user \(remove it, or write to another name\)",
        "是属于另一个用户的文件（请删除它，或换一个文件名）",
    ),
    (
        r"a file with other hard links \(remove it, or write to another name\)",
        "是还有其他硬链接的文件（请删除它，或换一个文件名）",
    ),
    (r"larger than ([\d,]+) bytes", "超过 {1} 字节"),
    (r"Permission denied", "没有读取权限"),
    # a pasted missing variable (checks/diagnose.py); the provider line's key (report/build.py provider_summary)
    # live
    (r"redirected to (.+)", "被重定向到 {1}"),
    (r"built-in provider `([^`]+)`", "内置提供方 `{1}`"),
    # codexdoctor's own usage errors (issue 29: every error message in the user's language)
    (r"cannot write (\S+): (.+)", "无法写入 {1}：{2~}"),
    (r"(.+) \(at (\S+)\)", "{1~}（位于 {2}）"),
    (
        r"codex_rejected: the provider rejects Codex's request \((.+)\)",
        "codex_rejected：提供方拒绝了 Codex 的请求（{1}）",
    ),
    (r"profile `([^`]+)` \((\S+)\)", "profile `{1}`（{2}）"),
    (r"\(no URL in the paste\)", "（粘贴内容里没有 URL）"),
    (r"([a-z_]+): (.+)", "{1}：{2~}"),
    # probe / diagnose
    (r"context window exhausted", "上下文窗口已耗尽"),
    (r"context window exceeded", "超出上下文窗口"),
    # notes (checks/live.py) and diagnose's phrases
    (r"Codex's idle limit passed with no event", "超过 Codex 的空闲时限仍没有事件"),
    (r"the stream ended without response\.completed", "流在没有 response.completed 的情况下结束"),
    # verdict reasons that are facts: the sessions decision (checks/sessions/across.py), the probe's inconclusive_reason
    # where the window Codex assumes comes from (CTX001)
    # how a session failed (CTX012)
    (r"failure at (\d+)% of the window", "在窗口的 {1}% 处失败"),
    (r"a provider or network error", "提供方或网络错误"),
    # classifier and transport details (inside "kind: detail" summaries)
    (r"the provider received no API key", "提供方没有收到 API Key"),
    (r"the provider rejected the API key", "提供方拒绝了这个 API Key"),
    (r"the account has no credits or balance left", "账户没有额度或余额了"),
    (r"quota or billing limit", "配额或账单限制"),
    (
        r"blocked before reaching the API \(firewall, region or IP rule\)",
        "请求在到达 API 之前被拦截（防火墙、地区或 IP 规则）",
    ),
    (r"the key is valid but not allowed to do this", "密钥有效，但没有执行此操作的权限"),
    (r"quota exhausted \(not transient: waiting will not help\)", "配额已用尽（不是临时问题：等待没有用）"),
    (r"rate limited \(transient\)", "触发限流（临时）"),
    (
        r"the provider or a proxy in front of it failed \((\d+)\): an HTML error page",
        "提供方或其前面的代理出错（{1}）：返回 HTML 错误页",
    ),
    (r"the provider or a proxy in front of it failed \((\d+)\)", "提供方或其前面的代理出错（{1}）"),
    (r"Azure deployment not found", "找不到 Azure 部署"),
    (r"the request exceeds the model's context window", "请求超出了模型的上下文窗口"),
    (r"the provider does not serve this model ID", "提供方不提供这个模型 ID"),
    (
        r"the gateway has no channel serving this model for the key's group \((\d+)\)",
        "网关在这个密钥所属的分组下没有提供该模型的渠道（{1}）",
    ),
    (
        r"LiteLLM without a database answers a bad key with 400 'No connected db\.'",
        "没有数据库的 LiteLLM 对错误密钥返回 400 'No connected db.'",
    ),
    (r"nothing at this path \((\d+)\) - an HTML page", "这个路径下没有内容（{1}）——返回的是 HTML 页面"),
    (r"nothing at this path \((\d+)\)", "这个路径下没有内容（{1}）"),
    (r"the endpoint rejects the Responses request format", "该端点不接受 Responses 请求格式"),
    (r"the provider rejected the request \((\d+)\)", "提供方拒绝了请求（{1}）"),
    (r"output budget reached.*", "达到输出上限"),
    (r"context error inside the stream", "流中返回了上下文错误"),
    (r"model error inside the stream", "流中返回了模型错误"),
    (r"quota error inside the stream", "流中返回了配额错误"),
    (r"rate limit inside the stream", "流中返回了限流错误"),
    (r"an error event inside a 200 stream", "200 流中出现了 error 事件"),
    (r"an error object inside a 200 response", "200 响应中带有 error 对象"),
    (r"response\.incomplete: (.+)", "response.incomplete：{1}"),
    (r"response\.failed: (\w+)", "response.failed：{1}"),
    (r"an error inside a 200 stream \(response\.failed\)", "200 流中出错（response.failed）"),
    (r"the key is accepted but its quota is used up \(401\)", "密钥被接受，但它的额度已用尽（401）"),
    (
        r"one request of ([\d,]+) tokens is over the key's limit of ([\d,]+) tokens per minute \(429\)",
        "一个 {1} token 的请求就超过了密钥每分钟 {2} token 的限额（429）",
    ),
    (r"no event for the idle limit after (\d+) events", "收到 {1} 个事件后，在空闲时限内再无事件"),
    (r"the stream was still running at the deadline", "到时限时流仍未结束"),
    (r"broken SSE framing: no valid event in the stream", "SSE 格式损坏：流中没有有效事件"),
    (
        r"stream closed before response\.completed after (\d+) events",
        "收到 {1} 个事件后，流在 response.completed 之前关闭",
    ),
    (r"an HTML page answered where the API should be", "本应是 API 的地方返回了 HTML 页面"),
    (r"the body is neither JSON nor an event stream", "响应体既不是 JSON 也不是事件流"),
    # what outside_json says of JSON it cannot read, and of a value of the wrong type (issue 36); the kinds of value
    # ("a string", "an object") are in _WORDS_ZH
    (
        r"the body is JSON nested ([\d,]+) levels deep \(Codex reads at most (\d+)\)",
        "响应体是嵌套 {1} 层的 JSON（Codex 最多只读 {2} 层）",
    ),
    (r"the body is not JSON \((.+)\)", "响应体不是 JSON（{1}）"),
    (r"a response\.completed event Codex cannot read: (.+)", "一个 Codex 读不了的 response.completed 事件：{1;}"),
    (r"a response\.completed event Codex cannot read", "一个 Codex 读不了的 response.completed 事件"),
    (r"the provider sent `([^`]+)` as (.+?), not (.+)", "提供方发来的 `{1}` 是{2}，而不是{3}"),
    (r"the provider left out `([^`]+)`", "提供方漏掉了 `{1}`"),
    (r"the host name does not resolve", "主机名无法解析"),
    (r"nothing listens on that host and port \(connection refused\)", "该主机端口上没有服务在监听（连接被拒绝）"),
    (r"the network cannot reach that host", "网络无法到达该主机"),
    (r"no answer while connecting", "连接时没有响应"),
    (r"no answer while waiting for the response", "等待响应时没有回应"),
    (r"no answer while sending", "发送时没有响应"),
    (r"no answer while waiting for a connection", "等待连接时没有响应"),
    (r"the server's certificate is self-signed \(not trusted\)", "服务器证书是自签名的（不受信任）"),
    (r"the server's certificate has expired", "服务器证书已过期"),
    (r"the certificate is for a different host name", "证书对应的是另一个主机名"),
    (
        r"the certificate is issued by an unknown authority \(corporate proxy or private CA\?\)",
        "证书由未知机构签发（公司代理或私有 CA？）",
    ),
    (
        r"the server does not speak TLS on this port \(http:// vs https://\?\)",
        "该端口上的服务不使用 TLS（http:// 还是 https://？）",
    ),
    (r"the connection was closed by the server: (.+)", "连接被服务器关闭：{1}"),
    (r"the answer was still arriving at the deadline", "到时限时响应仍在传输"),
    (r"still streaming at the deadline after (\d+) events", "收到 {1} 个事件后到达时限，流仍在继续"),
    (r"the check's deadline was reached before this request", "在发出这个请求之前已到达检查时限"),
    (r"redirect to another origin \(not followed with the key\)", "重定向到其他站点（未携带密钥跟随）"),
    (
        r"the body could not be decoded \(declared compression does not match\): (.+)",
        "响应体无法解码（声明的压缩格式不符）：{1}",
    ),
    (
        r"no answer within codexdoctor's deadline \(--timeout ([\d.]+) s\), and nothing else from this host answered either",
        "在 codexdoctor 的时限（--timeout {1} 秒）内没有响应，这台主机的其他地址也都没有响应",
    ),
    (
        r"no first token within --first-token-timeout ([\d.]+) s, although the provider is alive \((.+)\)",
        "提供方是活着的（{2}），但在 --first-token-timeout {1} 秒内没有返回第一个 token",
    ),
    (
        r"a plain JSON body \((.+)\) answered a request with stream: true",
        "对 stream: true 的请求返回了普通 JSON 响应体（{1}）",
    ),
    (
        r"Chat Completions chunks ending in data: \[DONE\] \((\d+) events\), not Responses events ending in response\.completed",
        "以 data: [DONE] 结束的 Chat Completions 分块（{1} 个事件），而不是以 response.completed 结束的 Responses 事件",
    ),
    (r"429 at all (\d+) attempts Codex makes", "Codex 的全部 {1} 次尝试都返回 429"),
    (r"a function_call streamed with no call_id", "流式返回的 function_call 没有 call_id"),
    (r"a function_call streamed with an empty call_id", "流式返回的 function_call 的 call_id 为空"),
    (
        r"the proxy asks for credentials \(407 Proxy Authentication Required\)",
        "代理要求提供凭据（407 Proxy Authentication Required）",
    ),
    (r"Codex refuses the server's certificate \(CA:TRUE\)", "Codex 拒绝服务端的证书（CA:TRUE）"),
    (
        r"the proxy in \$(\w+) \((.+)\) (asks for credentials \(407 Proxy Authentication Required\)|refuses connections|cannot be found \(its host name does not resolve\))",
        "${1} 中的代理（{2}）{3~}",
    ),
    (
        r"asks for credentials \(407 Proxy Authentication Required\)",
        "要求提供凭据（407 Proxy Authentication Required）",
    ),
    (r"refuses connections", "拒绝连接"),
    (r"cannot be found \(its host name does not resolve\)", "找不到（主机名无法解析）"),
    (
        r"the server's own certificate is a CA certificate \(basicConstraints CA:TRUE, what a plain `openssl req -x509` makes\): "
        r"Python accepts it, Codex \(rustls\) refuses it as a server certificate even when your CA file names it",
        "服务端自己的证书是一张 CA 证书（basicConstraints CA:TRUE，普通的 `openssl req -x509` 生成的就是这种）：Python 接受它，"
        "但 Codex（rustls）不接受它作为服务端证书，即使你的 CA 文件里写的就是它",
    ),
    (
        r"the ([\d,]+)-byte request body is over a size limit on the way \(413, an HTML page from a proxy\)",
        "{1} 字节的请求体超过了途中的大小限制（413，来自代理的 HTML 页面）",
    ),
    (
        r"the ([\d,]+)-byte request body is over a size limit on the way \(413\)",
        "{1} 字节的请求体超过了途中的大小限制（413）",
    ),
    (
        r"the request body is over a size limit on the way \(413(?:, an HTML page from a proxy)?\)",
        "请求体超过了途中的大小限制（413）",
    ),
]
_COMPILED_ZH: list[tuple[re.Pattern[str], str]] = []  # compiled on first use: an English run never pays for it


def _compiled_zh() -> list[tuple[re.Pattern[str], str]]:
    if not _COMPILED_ZH:
        _COMPILED_ZH.extend((re.compile(f"^{p}$", re.S), t) for p, t in _PATTERNS_ZH)
    return _COMPILED_ZH


_WORDS_ZH = {
    "budget": "预算",
    "deadline": "时限",
    # kinds of JSON value (outside_json.kind, Scalar.expected)
    "null": "null",
    "a boolean": "布尔值",
    "an integer": "整数",
    "a decimal number": "小数",
    "a string": "字符串",
    "an object": "对象",
    "an array": "数组",
    "a 64-bit integer": "64 位整数",
}


def _title_zh(text: str) -> str:
    """A check title as it appears on its row, or any other phrase the table knows."""
    return CHECK_TITLES_EN_ZH.get(text) or (TABLE_WORDS[text][1] if text in TABLE_WORDS else localize(text, "zh"))


def translate(text: str, lang: str) -> str | None:
    """The Chinese form of a summary, note or verdict reason, or None when no pattern knows it."""
    if lang != "zh" or not text:
        return text
    for pattern, template in _compiled_zh():
        m = pattern.match(text)
        if m:
            out = template
            for i, group in enumerate(m.groups(), 1):
                group = group or ""
                if "{" + str(i) + ",}" in out:  # a list of check titles or phrases, each translated
                    out = out.replace("{" + str(i) + ",}", "、".join(_title_zh(part) for part in group.split(", ")))
                if "{" + str(i) + ";}" in out:  # phrases joined by "; ", each translated
                    out = out.replace(
                        "{" + str(i) + ";}", "；".join(localize(part, lang) for part in group.split("; "))
                    )
                if "{" + str(i) + "~}" in out:  # a nested phrase, translated too
                    out = out.replace("{" + str(i) + "~}", localize(group, lang))
                out = out.replace("{" + str(i) + "}", _WORDS_ZH.get(group, group))
            return out
    return None


def localize(text: str, lang: str) -> str:
    translated = translate(text, lang)
    return text if translated is None else translated
