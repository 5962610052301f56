"""The command line in Simplified Chinese: `--help`, click's own messages and codexdoctor's usage errors (issue 29).

click writes its messages through gettext (`_("Usage:")`); with `--lang zh` or a zh locale they are looked up
here instead. Help texts are keyed by the English text with its whitespace folded, so a changed English help falls
back to English rather than to a stale translation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

HELP_ZH: dict[str, str] = {
    "Is your broken Codex CLI setup the channel (config, key, base_url, model, provider) or the context? Start with "
    "`codexdoctor check`. Exit codes: 0 ok, 1 findings at or above --fail-on, 2 usage error, 3 internal error, "
    "130 interrupted.": "你的 Codex CLI 出了问题：是通道（配置、密钥、base_url、模型、提供方），还是上下文？\n\n"
    "从 `codexdoctor check` 开始。退出码：0 正常，1 有达到 --fail-on 级别的问题，2 用法错误，3 内部错误，130 被中断。",
    "Show the version and exit.": "显示版本并退出。",
    "Show this message and exit.": "显示本帮助并退出。",
    "Run every static and live check of the active provider.": "对当前提供方运行全部静态检查和在线检查。",
    "Override a config value as `codex -c` does (TOML value, dotted key). Repeatable.": "像 `codex -c` 一样覆盖一个配置值（TOML 值，点分键名）。可重复。",
    "Config profile, as `codex --profile`.": "配置 profile，同 `codex --profile`。",
    "Model, as `codex --model`.": "模型，同 `codex --model`。",
    "Assume this Codex version instead of running `codex --version`.": "假定这个 Codex 版本，而不运行 `codex --version`。",
    "Language of the output: en or zh (default: from LC_ALL / LC_MESSAGES / LANG).": "输出语言：en 或 zh（默认取自 LC_ALL / LC_MESSAGES / LANG）。",
    "Write remedy commands for this shell (default: detected from SHELL, or PowerShell/cmd on Windows).": "按这个 shell 的语法写修复命令（默认根据 SHELL 检测，Windows 上为 PowerShell/cmd）。",
    "Static checks only: send no request.": "只做静态检查：不发送任何请求。",
    "Deadline in seconds for the whole check, counted from launch: a provider that shows no sign of life by then "
    "fails (one that is alive gets --first-token-timeout).": "整个检查的时限（秒），从启动时算起：到时仍没有任何响应迹象的提供方判为失败"
    "（还活着的提供方按 --first-token-timeout 等待）。",
    "Deadline in seconds, counted from launch, for a provider that is alive (it answered, or accepted the request) "
    "but slow to answer Codex's first request or asks to retry later (429 Retry-After): it is waited for up to this "
    "long in all, as Codex waits, instead of --timeout. A local model on a CPU takes 10-25 s.": "提供方还活着（已响应或已接受请求），"
    "但回答 Codex 的第一个请求很慢，或要求稍后重试（429 Retry-After）时的时限（秒），从启动时算起：总共最多等这么久，"
    "与 Codex 的等待方式一致，而不是按 --timeout。CPU 上的本地模型需要 10-25 秒。",
    "Do not send Codex's first request to /responses (it spends about 8,500 input tokens and 16 output tokens).": "不向 /responses 发送 Codex 的第一个请求（它会花费约 8,500 个输入 token 和 16 个输出 token）。",
    "Do not send, after the canary, Codex's request that follows a tool call (about 11,000 input tokens).": "探测请求之后，不发送 Codex 在工具调用之后的那个请求（约 11,000 个输入 token）。",
    "Do not read the active provider's recent session logs (offline, the newest 30 at most).": "不读取当前提供方最近的会话日志（离线读取，最多最新的 30 个）。",
    "text (default), markdown, json, junit, github (default when GITHUB_ACTIONS=true).": "text（默认）、markdown、json、junit、github（GITHUB_ACTIONS=true 时的默认值）。",
    "Write the report to FILE.": "把报告写入 FILE。",
    "Exit 1 when a finding of this severity or worse exists.": "存在这个严重程度或更严重的问题时，以 1 退出。",
    "Show the evidence behind every check and finding.": "显示每项检查和每个结论背后的证据。",
    "Show the evidence behind every finding.": "显示每个结论背后的证据。",
    "No ANSI colours (NO_COLOR is honoured too).": "不使用 ANSI 颜色（也遵守 NO_COLOR）。",
    "Single question vs a growing session: find where it breaks, and whether the break is stable. Spends tokens: the "
    "plan (requests and input tokens) is printed before anything is sent, and the probe never goes past --budget.": "单次提问与不断增长的会话对比：找出在哪里断开，以及断点是否稳定。\n\n"
    "会花费 token：发送任何请求之前先打印计划（请求数和输入 token 数），探测绝不超过 --budget。",
    "Largest session size to try, in tokens (default: the window Codex assumes x 1.1).": "尝试的最大会话大小，单位 token（默认：Codex 假定的窗口 × 1.1）。",
    "Requests just below and just above the break, to tell stable from unstable.": "在断点下方和上方各发送的请求数，用来区分稳定与不稳定。",
    "Input tokens the probe may spend in total; it never goes past it.": "探测总共可以花费的输入 token；绝不超过。",
    "Run even when the worst-case estimate exceeds --budget (still stops at it).": "即使最坏情况的估算超过 --budget 也运行（到预算仍会停止）。",
    "Seconds of silence mid-answer that count as a stall.": "回答中途沉默多少秒算作一次停顿。",
    "Per request, seconds.": "每个请求的时限（秒）。",
    "Deadline in seconds for the whole probe, counted from launch (the window look-ups and every request in it).": "整个探测的时限（秒），从启动时算起（包括窗口查询和其中的每个请求）。",
    "Typical tokens one Codex turn adds, for the turns-per-session advice.": "Codex 每轮通常增加的 token 数，用于“每个会话几轮”的建议。",
    "Skip the prefix-cache step (3 requests of ~4K tokens).": "跳过前缀缓存这一步（3 个约 4K token 的请求）。",
    "No progress lines on stderr.": "不在 stderr 上打印进度。",
    "Write one support-ticket report: summary, client, config, request ids, the check, the last failed session.": "写一份工单报告：摘要、客户端、配置、请求 ID、检查结果、最近一次失败的会话。",
    "No request at all: the config, the environment and the session logs only.": "不发送任何请求：只看配置、环境和会话日志。",
    "Deadline in seconds for the live check, counted from launch, as check's: a provider that shows no sign of life "
    "by then fails (one that is alive gets --first-token-timeout). The session logs are read after it, offline.": "在线检查的时限（秒），"
    "从启动时算起，与 check 相同：到时仍没有任何响应迹象的提供方判为失败（还活着的提供方按 --first-token-timeout 等待）。"
    "会话日志在此之后离线读取。",
    "The Codex session to tell about (an id or a prefix; default: the most recent that failed).": "要写进报告的 Codex 会话（ID 或 ID 前缀；默认：最近一次失败的会话）。",
    "markdown for the ticket itself, json for a machine.": "markdown 用于工单本身，json 给程序读。",
    "The file to write (default: codexdoctor-report-<time>.md in this folder).": "写入的文件（默认：当前目录下的 codexdoctor-report-<时间>.md）。",
    "Write the texts of Codex's request (your AGENTS.md files, instructions, working folder) into "
    "<report>.request.json, redacted; by default each is replaced by a placeholder of the same size.": "把 Codex 请求中的文本"
    "（你的 AGENTS.md 文件、instructions、工作目录）脱敏后写入 <报告>.request.json；默认每段文本都换成同样大小的占位文本。",
    "Post-mortem of Codex's own session logs: context per turn, how sessions ended, and why. Offline.": "分析 Codex 自己的会话日志：每轮的上下文、会话如何结束以及原因。离线进行。",
    "Only the N most recent sessions.": "只看最近的 N 个会话。",
    "Only sessions started on or after DATE (2026-11-30, or 2026-11-30T09:00).": "只看在 DATE 当天或之后开始的会话（2026-11-30，或 2026-11-30T09:00）。",
    "One session (its id or an id prefix); shows its detail.": "只看一个会话（ID 或 ID 前缀），并显示详情。",
    "Also show the start of each user message (never shown otherwise).": "同时显示每条用户消息的开头（否则从不显示）。",
    "Classify a pasted Codex or provider error (TEXT, - for stdin, or --file) into verdict, code and remedy. A whole "
    "stderr works: Codex's own decoration (ERROR:, Reconnecting... n/5, ; retrying …) is read past.": "把粘贴的 Codex 或提供方报错（TEXT，- 表示从标准输入读，或 --file）归类为结论、问题编号和修复方法。\n\n"
    "整段 stderr 也可以：Codex 自己的修饰（ERROR:、Reconnecting... n/5、; retrying …）会被跳过。",
    "Read the error from this file (a saved stderr of Codex), at most 1 MiB.": "从这个文件读取报错（保存下来的 Codex stderr），最多 1 MiB。",
    "Apply the config remedies whose fix is certain: diff first, backup, atomic write, then check again.": "应用可以确定的配置修复：先显示差异，再备份、原子写入，然后重新检查。",
    "Apply every edit without asking.": "不询问，应用全部修改。",
    "Show the diff and exit; change nothing.": "显示差异后退出；不做任何修改。",
    "Only fix these findings (repeatable).": "只修复这些问题（可重复）。",
    "Static checks only (no request is sent; live-only fixes are not offered).": "只做静态检查（不发送请求；不提供依赖在线检查的修复）。",
    "Deadline in seconds for each check run (the one before the edits counted from launch, each one after from its "
    "start), as check's (one that is alive gets --first-token-timeout).": "每次检查的时限（秒）（修改前那次从启动时算起，修改后的每次从它开始时算起），"
    "与 check 相同（还活着的提供方按 --first-token-timeout 等待）。",
    "Re-check without sending Codex's first request (no tokens spent).": "重新检查时不发送 Codex 的第一个请求（不花费 token）。",
    "Exit 1 when a finding of this severity or worse is left after the fix.": "修复后仍有这个严重程度或更严重的问题时，以 1 退出。",
    "Print the resolved provider and where each value came from (redacted).": "打印解析出的提供方，以及每个值的来源（已脱敏）。",
    "text (a table) or json (values with their sources, for scripts).": "text（表格）或 json（值及其来源，供脚本使用）。",
    "Explain a finding code: what it means, why it happens, how to fix it.": "解释一个问题编号：含义、原因和修复方法。",
    "text or json (the rule as data).": "text 或 json（规则本身的数据）。",
    "List every finding code.": "列出全部问题编号。",
    "text (a table), json, or markdown (the text of docs/rules.md).": "text（表格）、json 或 markdown（docs/rules.md 的内容）。",
    "Print the JSON Schema of the `--format json` report.": "打印 `--format json` 报告的 JSON Schema。",
    "Serve a local OpenAI-compatible provider with fault injection, on 127.0.0.1.": "在 127.0.0.1 上运行一个可注入故障的本地 OpenAI 兼容提供方。",
    "0 picks a free port.": "0 表示自动选一个空闲端口。",
    "Path prefix of the API routes.": "API 路由的路径前缀。",
    "Require this bearer key (default: no key required).": "要求这个 bearer 密钥（默认不要求密钥）。",
    "Served model ID; repeatable.": "提供的模型 ID；可重复。",
    "Reject prompts over this many tokens.": "拒绝超过这么多 token 的提示。",
    "Whose error bodies to imitate; `ollama` truncates silently and answers 200.": "模仿谁的报错格式；`ollama` 会静默截断并返回 200。",
    "Base time to first token.": "首字延迟的基础值。",
    "Extra time to first token per 1000 prompt tokens.": "每 1000 个提示 token 额外增加的首字延迟。",
    "Pause the stream after N output tokens.": "输出 N 个 token 后让流停顿。",
    "How long each --stall-after pause lasts.": "每次 --stall-after 停顿持续多久。",
    "Share of requests that fail with a 502, a reset or a hang.": "以 502、连接重置或挂起失败的请求比例。",
    "Seed for --failure-rate.": "--failure-rate 的随机种子。",
    "404 on /responses (a gateway without the Responses API).": "对 /responses 返回 404（没有 Responses API 的网关）。",
    "Serve /models without checking the key.": "提供 /models 时不检查密钥。",
    "No /models route.": "不提供 /models 路由。",
    "Serve an HTML landing page at / and HTML 404s.": "在 / 提供 HTML 落地页，404 也返回 HTML。",
    "Publish the window (/props n_ctx, max_model_len in /models).": "公布窗口大小（/props 的 n_ctx，/models 中的 max_model_len）。",
    "Reuse repeated prompt prefixes and report cached_tokens.": "复用重复的提示前缀，并报告 cached_tokens。",
    "With --prefix-cache: the cache serves the first N requests, then never hits again (cached_tokens drops to 0).": "与 --prefix-cache 一起用：缓存只服务前 N 个请求，之后不再命中（cached_tokens 降到 0）。",
    "Leave cached_tokens out of usage (a provider that never says).": "usage 中不带 cached_tokens（从不报告缓存的提供方）。",
    "Accept connections and never answer.": "接受连接但从不响应。",
    "Answer 400 'Unsupported parameter' when the request has this top-level field (e.g. reasoning); repeatable.": "请求带有这个顶层字段（例如 reasoning）时返回 400 'Unsupported parameter'；可重复。",
    "Answer 400 to `developer` input items, as a broken gateway translation does.": "对 `developer` 输入条目返回 400，模仿转换出错的网关。",
    "End each streamed answer this way instead of response.completed: incomplete, response_failed, "
    "error_event, error_then_completed, no_terminal, done_only or trailing_done (docs/simulator.md).": "让每个流式回答以这种方式结束，而不是 response.completed：incomplete、response_failed、"
    "error_event、error_then_completed、no_terminal、done_only 或 trailing_done（docs/simulator.md）。",
    "The reason of --stream-end incomplete: max_output_tokens or content_filter.": "--stream-end incomplete 的原因：max_output_tokens 或 content_filter。",
    "The error code of --stream-end response_failed or error_event, e.g. rate_limit_exceeded, "
    "insufficient_quota, server_is_overloaded, context_length_exceeded or usage_not_included.": "--stream-end response_failed 或 error_event 的错误码，例如 rate_limit_exceeded、"
    "insufficient_quota、server_is_overloaded、context_length_exceeded 或 usage_not_included。",
    "The error message of --stream-end response_failed or error_event (default: the one OpenAI sends with "
    "--error-code).": "--stream-end response_failed 或 error_event 的错误消息（默认：OpenAI 随 --error-code 发送的那条）。",
    "Output tokens of each answer (where --stream-end incomplete stops).": "每个回答的输出 token 数（--stream-end incomplete 在这里停止）。",
    "Refuse (400) a request that carries more than one function_call_output, as a chat bridge that keeps one tool "
    "result per round does; one call and its output pass.": "对带有多于一个 function_call_output 的请求返回 400，模仿每轮只保留一个"
    "工具结果的 Chat 桥接；一次调用和它的输出可以通过。",
    "Answer a request without tool outputs with this many exec_command calls (`echo hi`), then with text: Codex's "
    "parallel tool round.": "对不带工具输出的请求回答这么多个 exec_command 调用（`echo hi`），之后回答文字：Codex 的并行工具调用轮次。",
    "Log every request (keys redacted).": "记录每个请求（密钥已脱敏）。",
    "See every diagnosis without an account: runs the real checks against the built-in simulator. Never reads or "
    "writes your ~/.codex: each scenario has its own temporary CODEX_HOME. Exits 0 only when every scenario got its "
    "expected verdict (a self-test).": "无需账号即可看到每种诊断：对内置模拟器运行真实的检查。\n\n"
    "从不读写你的 ~/.codex：每个场景都有自己的临时 CODEX_HOME。只有每个场景都得到预期结论时才以 0 退出（自检）。",
    "Run only this scenario (repeatable); its full report is printed.": "只运行这个场景（可重复），并打印完整报告。",
    "List the scenarios and exit.": "列出所有场景并退出。",
    # watch
    'Run Codex through a local recorder and diagnose the real session: `codexdoctor watch -- codex exec "…"`.': '让 Codex 经过本地记录器运行，并诊断真实的会话：`codexdoctor watch -- codex exec "…"`。',
    "Run the recorder alone and print the `-c` line to start Codex with.": "只运行记录器，并打印启动 Codex 时要加的 `-c` 参数。",
    "Port for --serve (default: any free port).": "--serve 使用的端口（默认任选一个空闲端口）。",
    "Keep request and response bodies in the recording (redacted).": "在记录中保存请求和响应正文（已脱敏）。",
    "Append a line per request to FILE as it happens.": "每个请求发生时向 FILE 追加一行。",
    "A silence inside a stream at least this long counts as a stall.": "流中沉默至少这么久就算一次卡顿。",
    "Format of the diagnosis: text (default), markdown or json.": "诊断的格式：text（默认）、markdown 或 json。",
    "Write the diagnosis to FILE.": "把诊断写入 FILE。",
}

# click's own words (its gettext message ids), for `--lang zh` or a zh locale.
CLICK_ZH: dict[str, str] = {
    "Usage:": "用法：",  # written without the space click adds after it (install: one colon style, issue 40)
    "Options": "选项",
    "Commands": "命令",
    "Error: {message}": "错误：{message}",
    "Try '{command} {option}' for help.": "运行 '{command} {option}' 查看帮助。",
    "Invalid value for {param_hint}: {message}": "{param_hint} 的值无效：{message}",
    "Invalid value: {message}": "值无效：{message}",
    "Missing argument": "缺少参数",
    "Missing option": "缺少选项",
    "Missing parameter": "缺少参数",
    "Missing command.": "缺少命令。",
    "No such command {name!r}.": "没有命令 {name!r}。",
    "No such option {name!r}.": "没有选项 {name!r}。",
    "Option {name!r} does not take a value.": "选项 {name!r} 不接受值。",
    "{value!r} is not a valid {number_type}.": "{value!r} 不是有效的数字。",
    "{value} is not in the range {range}.": "{value} 不在范围 {range} 之内。",
    "Show this message and exit.": "显示本帮助并退出。",
    "Show the version and exit.": "显示版本并退出。",
    "%(prog)s, version %(version)s": "%(prog)s 版本 %(version)s",
    "default: {default}": "默认：{default}",
    "Aborted!": "已中止！",
    "Choose from:\n\t{choices}": "可选值：\n\t{choices}",
    "{name} {filename!r} does not exist.": "{name} {filename!r} 不存在。",
    "{name} {filename!r} is a file.": "{name} {filename!r} 是文件。",
    "{name} {filename!r} is a directory.": "{name} {filename!r} 是目录。",
    "{name} {filename!r} is not readable.": "{name} {filename!r} 不可读。",
    "{name} {filename!r} is not writable.": "{name} {filename!r} 不可写。",
    "{name} {filename!r} is not executable.": "{name} {filename!r} 不可执行。",
    "Could not open file {filename!r}: {message}": "无法打开文件 {filename!r}：{message}",
    "file": "文件",
    "directory": "目录",
    "path": "路径",
    "Missing parameter: {param_name}": "缺少参数：{param_name}",
    "{value!r} is not a valid UUID.": "{value!r} 不是有效的 UUID。",
    "Argument {name!r} takes {nargs} values.": "参数 {name!r} 需要 {nargs} 个值。",
    "integer": "整数",
    "float": "浮点数",
    "integer range": "整数（有范围）",
    "float range": "数字（有范围）",
    "boolean": "布尔值",
    "choice": "选项",
    "Missing {param_type}": "缺少{param_type}",
    "Option {name!r} requires an argument.": "选项 {name!r} 需要一个值。",
    "Option {name!r} requires {nargs} arguments.": "选项 {name!r} 需要 {nargs} 个值。",
    "Got unexpected extra argument ({args})": "多出了意外的参数（{args}）",
    "Got unexpected extra arguments ({args})": "多出了意外的参数（{args}）",
    "{value!r} is not {choice}.": "{value!r} 不是 {choice}。",
    "{value!r} is not one of {choices}.": "{value!r} 不在 {choices} 之中。",
    "Did you mean {possibility}?": "你是不是想用 {possibility}？",
    "(Did you mean one of: {possibilities}?)": "（你是不是想用其中之一：{possibilities}？）",
    "(Possible options: {possibilities})": "（可能的选项：{possibilities}）",
}


# The command line's usage errors that click or the operating system words (no Msg of ours beside them): a finding's
# code is 问题编号 on the command line (代码 reads as source code, issue 40), and the operating system's reasons for a
# file it cannot read or write are English words from strerror (said in Chinese by common/oserror.py).
_USAGE_ZH: tuple[tuple[str, str], ...] = (
    (
        r"unknown code (.+); `codexdoctor rules` lists them all",
        "未知的问题编号 {1}；`codexdoctor rules` 会列出全部问题编号",
    ),
    (r"cannot read (\S+): (.+)", "无法读取 {1}：{2}"),
    (r"cannot write (\S+): (.+)", "无法写入 {1}：{2}"),
    (r"(.+) does not exist", "{1} 不存在"),
    # click.Path names the kind of path in English when the command line is built, before the language is known.
    (r"File ('.*' \S+。)", "文件 {1}"),
    (r"Directory ('.*' \S+。)", "目录 {1}"),
    (r"Path ('.*' \S+。)", "路径 {1}"),
)


def usage_error_zh(text: str, os_words_zh: Callable[[str], str] = lambda words: words) -> str | None:
    """A usage error in Chinese when it is one of the command line's own (above), else None (the caller asks the
    error's own words: model.said_error). `os_words_zh` says an OS reason in Chinese (common/oserror.words_zh, given
    by the caller: i18n may not import common)."""
    import re

    # click's choice error lists the choices as Python reprs joined by ", " (issue 40: English commas and quotes
    # inside Chinese): the value in Chinese quotes, the choices joined by 、.
    m = re.fullmatch(r"(['\"])(.*)\1 不在 ((?:'[^']*', )*'[^']*') 之中。", text, re.DOTALL)
    if m is not None:
        choices = "、".join(re.findall(r"'([^']*)'", m.group(3)))
        return f"“{m.group(2)}” 不在 {choices} 之中。"
    for pattern, template in _USAGE_ZH:
        m = re.fullmatch(pattern, text, re.DOTALL)
        if m is None:
            continue
        out = template
        for i, group in enumerate(m.groups(), 1):
            out = out.replace("{" + str(i) + "}", os_words_zh(group))
        if "{2}" in template and os_words_zh(m.group(2)) == m.group(2) and m.group(2)[:1].isascii():
            return None  # a reason the report's table words better (a device, a link): let it answer
        return out
    return None


def _fold(text: str) -> str:
    return " ".join(text.split())


_HELP = {_fold(k): v for k, v in HELP_ZH.items()}


def help_zh(text: str | None) -> str | None:
    """The Chinese help for an English help text, or the English when none is known."""
    if not text:
        return text
    return _HELP.get(_fold(text), text)


class _Chinese:
    """What click's modules call as `_` and `ngettext`, answering in Chinese where a translation is known."""

    def gettext(self, message: str) -> str:
        return CLICK_ZH.get(message, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return CLICK_ZH.get(singular if n == 1 else plural, singular if n == 1 else plural)


Patch = Callable[[Any, str, Any], None]


def install(cli: Any) -> Callable[[], None]:
    """Switch the command line to Chinese: click's messages (gettext) and every command's help. Returns the function
    that switches it back (tests run many commands in one process). The help's line breaking, by terminal cells, is
    cli/linebreak.py's install_help, for either language."""
    chinese = _Chinese()
    undo: list[Callable[[], None]] = []

    def setattr_undoably(obj: Any, name: str, value: Any) -> None:
        old = getattr(obj, name)
        setattr(obj, name, value)
        undo.append(lambda: setattr(obj, name, old))

    _click_messages(chinese, setattr_undoably)
    _help_texts(cli, setattr_undoably)
    _formatter_words(chinese, setattr_undoably)

    def restore() -> None:
        for step in reversed(undo):
            step()

    return restore


def _click_messages(chinese: _Chinese, patch: Patch) -> None:
    """click's own messages through the Chinese gettext, in every module that has its own `_`."""
    import click

    for name in (
        "core",
        "exceptions",
        "types",
        "formatting",
        "decorators",
        "parser",
        "termui",
        "utils",
        "_termui_impl",
    ):
        module = getattr(click, name, None)
        if module is None:
            try:
                module = __import__(f"click.{name}", fromlist=["_"])
            except ImportError:
                continue
        if hasattr(module, "_"):
            patch(module, "_", chinese.gettext)
        if hasattr(module, "ngettext"):
            patch(module, "ngettext", chinese.ngettext)


def _help_texts(command: Any, patch: Patch) -> None:
    """Every command's and option's help in Chinese, down the command tree."""
    patch(command, "help", help_zh(command.help))
    if hasattr(command, "_help_option"):  # click 8.2+ keeps the -h option it built, words and all: not across runs
        patch(command, "_help_option", None)
    if getattr(command, "short_help", None):
        patch(command, "short_help", help_zh(command.short_help))
    for param in command.params:
        if getattr(param, "help", None):
            patch(param, "help", help_zh(param.help))
    for sub in getattr(command, "commands", {}).values():
        _help_texts(sub, patch)


def _formatter_words(chinese: _Chinese, patch: Patch) -> None:
    """One colon style: full-width, as in 错误：and [默认：…]; click writes "Options:" and "Usage: " itself."""
    from click import exceptions, formatting

    formatter = formatting.HelpFormatter
    write_usage = formatter.write_usage

    def write_heading(self: Any, heading: str) -> None:
        self.write(f"{'':>{self.current_indent}}{heading}：\n")

    def write_usage_zh(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        write_usage(self, prog, args, chinese.gettext("Usage:") if prefix is None else prefix)

    patch(formatter, "write_heading", write_heading)
    patch(formatter, "write_usage", write_usage_zh)
    # "缺少参数 'CODE'." : click ends the sentence with an ASCII full stop of its own.
    missing = exceptions.MissingParameter
    format_missing = missing.format_message

    def format_missing_zh(self: Any) -> str:
        text: str = format_missing(self)
        return text[:-1] + "。" if text.endswith(".") else text.replace(". ", "。", 1)

    patch(missing, "format_message", format_missing_zh)
