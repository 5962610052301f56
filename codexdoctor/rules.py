"""The rule catalog: stable codes, each with when it fires, a diagnosis and numbered remedies.

`codexdoctor explain`, `codexdoctor rules` and docs/rules.md are all generated
from RULES, so they cannot drift. A code is never reused or renumbered.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from codexdoctor.codex.request import CODEX_FIRST_REQUEST_TOKENS
from codexdoctor.model import CheckResult, Finding, Severity, Status, Verdict

Params = Mapping[str, Any]
When = Callable[[Mapping[str, Any]], Iterable[Params]]

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO
CONFIG, CHANNEL, CONTEXT = Verdict.CONFIG, Verdict.CHANNEL, Verdict.CONTEXT
CODE_RE = re.compile(r"^(CFG|ENV|URL|NET|AUTH|API|MODEL|CTX)\d{3}$")

MINIMAL_CONFIG = """model = "<model id from your provider's catalog>"
model_provider = "mygateway"

[model_providers.mygateway]
name = "My gateway"
base_url = "https://<your provider's API base URL, as its Codex docs give it>"
env_key = "MYGATEWAY_API_KEY"
wire_api = "responses\""""


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    check: str  # id of the check whose facts it reads
    severity: Severity
    verdict: Verdict
    title: str
    diagnosis: str
    remedy: tuple[str, ...]
    when: When
    explanation: str = ""
    references: tuple[str, ...] = ()
    # (check id, predicate): the rule stays silent when that check ran and the predicate holds,
    # e.g. a static guess that a live check has since settled.
    settled_by: Any = None  # (check id, predicate) or a tuple of them: a live result that makes this finding moot

    def placeholders(self) -> set[str]:
        names = set()
        for text in (self.title, self.diagnosis, *self.remedy):
            names |= {f for _, f, _, _ in string.Formatter().parse(text) if f}
        return names


@dataclass(frozen=True)
class Loc:
    """Prose a rule computes (a hint, an advice sentence) in both languages; resolved when the text is rendered."""

    en: str
    zh: str

    def __str__(self) -> str:
        return self.en

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


def settlers(rule: "Rule") -> tuple[tuple[str, Callable[[Mapping[str, Any]], bool]], ...]:
    """A rule's settlers: one (check, predicate) pair or several."""
    if rule.settled_by is None:
        return ()
    return rule.settled_by if isinstance(rule.settled_by[0], tuple) else (rule.settled_by,)  # type: ignore[return-value]


# A base_url the live check proved working settles every lint guess about it: one remedy per cause (API001's).
VERIFIED_BASE_URL = ("api.variants", lambda f: bool(f.get("working")))


def once(pred: Callable[[Mapping[str, Any]], bool]) -> When:
    """Fire once, with the check's facts, when pred holds."""
    return lambda f: [{}] if pred(f) else []


def each(key: str, pred: Callable[[Mapping[str, Any]], bool] = lambda item: True) -> When:
    """Fire once per item of a list fact."""
    return lambda f: [dict(item) for item in f.get(key) or [] if pred(item)]


def _session_params(d: Mapping[str, Any]) -> dict[str, Any]:
    share = d.get("share")
    real = d.get("real_window")
    turns = d.get("turns_per_session")
    window_value = real or d.get("peak") or d.get("window") or 0
    growth = int(d.get("median_growth") or 0)
    cfg = d.get("user_config") or "~/.codex/config.toml"
    return {
        **d, "start_text": (d.get("start") or "?")[:16].replace("T", " "),
        "peak_text": f"{d['peak']:,}" if d.get("peak") else "?",
        "compact_text": f"{d['compact_at']:,}" if d.get("compact_at") else "?",
        "share_text": f"{share:.0%}" if share is not None else Loc("an unknown share", "未知比例"),
        "window_text": f"{d['window']:,}" if d.get("window") else Loc("window", "窗口"),
        "error_short": " ".join((d.get("error") or d.get("error_info") or "error").split(", url:")[0].split())[:160],
        "evidence": _EVIDENCE.get(d.get("evidence") or "", Loc(d.get("evidence") or "", d.get("evidence") or "")),
        "real_text": Loc(f" That is far below the window Codex assumes, so the provider's real window is about {real:,} tokens "
                         "and Codex never compacted in time.",
                         f"这远低于 Codex 假定的窗口，说明提供方的真实窗口只有约 {real:,} tokens，Codex 根本来不及压缩。")
        if real else "",
        "window_step": Loc(f"Add at the top level of {cfg}: model_context_window = {real // 100 * 100} "
                           f"and model_auto_compact_token_limit = {int(real * 0.8) // 100 * 100}",
                           f"在 {cfg} 顶层添加：model_context_window = {real // 100 * 100} "
                           f"和 model_auto_compact_token_limit = {int(real * 0.8) // 100 * 100}") if real else
        Loc(f"Let Codex compact earlier: set model_auto_compact_token_limit at the top level of {cfg} "
            f"to about {int(window_value * 0.8):,}, or start new sessions sooner.",
            f"让 Codex 更早压缩：在 {cfg} 顶层把 model_auto_compact_token_limit 设为约 {int(window_value * 0.8):,}，"
            "或更早开新会话。"),
        "session_step": Loc(f"Start a new session every {turns} turns (median growth {growth:,} tokens per turn) to stay under "
                            "70% of the window.",
                            f"每 {turns} 轮开一个新会话（每轮增长的中位数为 {growth:,} tokens），让上下文保持在窗口的 70% 以下。")
        if turns else Loc("Start a new session before the context reaches 70% of the window.",
                          "在上下文达到窗口的 70% 之前开一个新会话。"),
    }


_EVIDENCE = {
    "the overflow signature (a token_count whose total equals the window, other counters zero)":
        Loc("the overflow signature (a token_count whose total equals the window, other counters zero)",
            "溢出特征（一条 token_count 的总数恰好等于窗口、其他计数都为 0）"),
    "Codex's context-window error": Loc("Codex's context-window error", "Codex 的上下文窗口错误"),
    "the provider's context error": Loc("the provider's context error", "提供方的上下文超限错误"),
    "silent truncation": Loc("silent truncation", "静默截断"),
}

SERVER_CACHE_STEPS = {
    "vllm": Loc("On your vLLM server, start it with --enable-prefix-caching (the default in recent versions; check it was not "
                "disabled).", "在你的 vLLM 服务上用 --enable-prefix-caching 启动（新版本默认开启；检查它没有被关掉）。"),
    "llama.cpp": Loc("On your llama.cpp server, keep prompt caching on (cache_prompt, the default) and allow KV reuse with "
                     "`llama-server --cache-reuse 256`.",
                     "在你的 llama.cpp 服务上保持提示缓存开启（cache_prompt，默认开启），并用 `llama-server --cache-reuse 256` "
                     "允许 KV 复用。"),
}
HOSTED_CACHE_STEP = Loc("If the provider is a hosted gateway, ask whether it supports prompt (prefix) caching for this model.",
                        "如果提供方是托管网关，询问它是否对这个模型支持提示（前缀）缓存。")


def _cache_params(f: Mapping[str, Any]) -> dict[str, Any]:
    runs = (f.get("cache") or {}).get("runs", {})
    first, repeat = runs.get("first", {}), runs.get("repeat", {})
    ms = lambda v: f"{v:.0f} ms" if isinstance(v, (int, float)) else "?"  # noqa: E731
    return {"prefix_tokens": f"{first.get('sent', 0):,}", "repeat_cached": repeat.get("cached", 0),
            "first_ttft": ms(first.get("ttft_ms")), "repeat_ttft": ms(repeat.get("ttft_ms")),
            "server_step": SERVER_CACHE_STEPS.get(f.get("family") or "", HOSTED_CACHE_STEP)}


def _session_advice(f: Mapping[str, Any]) -> Loc:
    turns = f.get("turns_per_session") or 0
    if turns < 1:
        return Loc("This window cannot hold Codex's own first request (about 8,500 tokens of instructions and tool schemas) "
                   "plus a turn: serve the model with a larger window (at least 16,384 tokens).",
                   "这个窗口连 Codex 自己的第一个请求（约 8,500 tokens 的指令和工具定义）再加一轮都放不下："
                   "请用更大的窗口部署模型（至少 16,384 tokens）。")
    return Loc(f"Start a new session every {turns} turns (at about {_num(f.get('turn_tokens'))} tokens per turn, that stays under "
               "70% of the window).",
               f"每 {turns} 轮开一个新会话（按每轮约 {_num(f.get('turn_tokens'))} tokens 计，可保持在窗口的 70% 以下）。")


def _version_text(f: Mapping[str, Any]) -> Loc | str:
    if f.get("codex_version"):
        return f"Codex {f['codex_version']}"
    return Loc("Codex (version unknown: `codex --version` not found)", "Codex（版本未知：找不到 `codex --version`）")


def _home_missing_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """CFG013: a literal `~` needs a different fix than a folder that is simply missing."""
    from codexdoctor.common.shells import Shell

    c = _commands(f)
    if f.get("literal_tilde") and f.get("expanded"):
        sh = Shell(f.get("shell") or "bash", f.get("platform") or "linux")
        set_cmd = sh.set_var("CODEX_HOME", f["expanded"])
        return {"tilde_hint": Loc(" The `~` was kept literally (it was inside quotes), and Codex does not expand it.",
                                  " `~` 被原样保留（写在了引号里），而 Codex 不会展开它。"),
                "home_step": Loc(f"Set CODEX_HOME to the full path: {set_cmd} (or unset it: {c['unset_home_cmd']})",
                                 f"把 CODEX_HOME 设为完整路径：{set_cmd}（或取消设置：{c['unset_home_cmd']}）")}
    return {"tilde_hint": "",
            "home_step": Loc(f"Create it ({c['mkdir_cmd']}) or stop setting CODEX_HOME to use the default folder: "
                             f"{c['unset_home_cmd']}",
                             f"创建它（{c['mkdir_cmd']}），或不再设置 CODEX_HOME 以使用默认目录：{c['unset_home_cmd']}")}


RULES: tuple[Rule, ...] = (
    # ---- CFG: finding and parsing the config ---------------------------------------------------
    Rule("CFG001", "config-file-missing", "cfg.files", E, CONFIG,
         "No Codex config file",
         "{user_path} does not exist, so Codex uses its built-in OpenAI provider and your stored login; "
         "no custom provider, base_url or key variable is configured.",
         ("Create {user_path} (create the folder too if needed) with a provider table, for example:\n" + MINIMAL_CONFIG,
          "Replace the placeholders with your provider's base URL, the exact model ID from its catalog, and a variable name; "
          "then set that variable in your shell: {example_set_cmd}",
          "If you meant to use another folder, set CODEX_HOME to it (Codex reads $CODEX_HOME/config.toml)."),
         once(lambda f: f["user_missing"] and not f["provider_configured_elsewhere"]),
         "Codex reads `$CODEX_HOME/config.toml` (default `~/.codex/config.toml`). Without it the built-in "
         "`openai` provider is used, which needs `codex login`."),
    Rule("CFG002", "toml-syntax-error", "cfg.files", E, CONFIG,
         "Config is not valid TOML",
         "{location}: {message}. Codex refuses to start with `Error loading config.toml`.",
         ("Open {path}{at_text} and fix the syntax: strings need double quotes "
          "(base_url = \"https://…\"), a key may appear only once per table, and a [table] header may appear only once.",
          "Run `codexdoctor check` again to confirm the file parses."),
         lambda f: [dict(path=x["path"], **x["toml_error"],
                         location=f"{x['path']}:{x['toml_error']['line']}:{x['toml_error']['column']}"
                         if x["toml_error"].get("line") else x["path"],
                         at_text=Loc(f" at line {x['toml_error']['line']}, column {x['toml_error']['column']}",
                                     f" 第 {x['toml_error']['line']} 行第 {x['toml_error']['column']} 列处")
                         if x["toml_error"].get("line") else "")
                    for x in f.get("files", []) if "toml_error" in x],
         "Codex parses every config layer with a strict TOML parser and stops on the first error."),
    Rule("CFG003", "config-unreadable", "cfg.files", E, CONFIG,
         "Config file cannot be read",
         "{path}: {read_error}.",
         ("Make {path} a readable UTF-8 text file (check its permissions and owner; re-save it as UTF-8).",),
         lambda f: [dict(path=x["path"], read_error=x["read_error"]) for x in f.get("files", []) if "read_error" in x]),
    Rule("CFG004", "provider-not-found", "cfg.provider", E, CONFIG,
         "model_provider names no provider table",
         "model_provider = \"{provider}\" ({origin}) but there is no [model_providers.{provider}] table; "
         "Codex stops with ``Model provider `{provider}` not found``. Known providers: {available_text}.",
         ("Either add a [model_providers.{provider}] table to {user_config} with name, base_url, env_key and wire_api, "
          "or change model_provider ({origin}) to one of: {available_text}.",
          "Check the spelling: the table name after `model_providers.` must match model_provider exactly (case matters)."),
         once(lambda f: f["defined"] is False)),
    Rule("CFG005", "builtin-provider-redefined", "cfg.provider", E, CONFIG,
         "A custom provider reuses a built-in provider id",
         "[model_providers.{id}] ({where}) redefines the built-in provider `{id}`. Current Codex refuses to start "
         "(`model_providers contains reserved built-in provider IDs`); older versions silently ignored the table.",
         ("Rename the table in {where} to a new id, e.g. [model_providers.{id}-custom], and set model_provider to that id.",),
         each("redefined_builtins")),
    Rule("CFG006", "provider-without-base-url", "cfg.provider", E, CONFIG,
         "Custom provider has no base_url",
         "[model_providers.{provider}] ({table_where}) has no base_url, so Codex sends requests (and your key) to "
         "https://api.openai.com/v1.",
         ("{base_url_step}",),
         lambda f: [{"base_url_step": Loc(
             f"Rename `{f['base_url_alias']}` to base_url in [model_providers.{f['provider']}] ({f['table_where']}); "
             f"Codex ignores `{f['base_url_alias']}`.",
             f"把 [model_providers.{f['provider']}]（{f['table_where']}）中的 `{f['base_url_alias']}` 改名为 base_url；"
             f"Codex 不认 `{f['base_url_alias']}`。") if f.get("base_url_alias") else Loc(
             f"Add base_url = \"https://<your provider>/…\" to [model_providers.{f['provider']}] in {f['table_where']}.",
             f"在 {f['table_where']} 的 [model_providers.{f['provider']}] 中添加 base_url = \"https://<你的提供方>/…\"。")}]
         if f["missing_base_url"] else []),
    Rule("CFG007", "model-unset-for-custom-provider", "cfg.provider", E, CONFIG,
         "No model set for a custom provider",
         "model is not set, so Codex sends its default OpenAI model ID to `{provider}`, which most gateways do not serve.",
         ("Add model = \"<exact model ID>\" at the top of {user_config} (or in the active profile), copied from the provider's model list.",),
         once(lambda f: f["missing_model"])),
    Rule("CFG008", "unknown-config-key", "cfg.keys", W, CONFIG,
         "Config key Codex does not read",
         "`{key}` in {table} ({where}) is not a key Codex reads; it is silently ignored.{hint}",
         ("In {where}, rename `{key}` to the key Codex reads{hint_short}, or delete the line.",),
         lambda f: [dict(u, hint=Loc(f" Did you mean `{u['suggestion']}`?", f"你是不是想写 `{u['suggestion']}`？")
                         if u.get("suggestion") else "",
                         hint_short=Loc(f" (`{u['suggestion']}`)", f"（`{u['suggestion']}`）") if u.get("suggestion") else "")
                    for u in f.get("unknown", [])],
         "Codex ignores unknown keys instead of rejecting them, so `baseURL` or `api_key` look configured but do nothing."),
    Rule("CFG009", "provider-keys-in-project-config", "cfg.keys", W, CONFIG,
         "Provider setting in a project config",
         "`{key}` ({where}) is in a project .codex/config.toml; current Codex ignores provider settings there.",
         ("Move `{key}` from {where} into {user_config}.",),
         each("project_provider_keys")),
    Rule("CFG010", "key-ignored-in-profile", "cfg.profile", W, CONFIG,
         "Key ignored inside a profile",
         "`{key}` ({where}) is inside profile `{selected}`, where Codex ignores it.",
         ("Move `{key}` out of [profiles.{selected}] to the top level of the config file ({where}).",),
         lambda f: [dict(k, selected=f["selected"]) for k in f.get("ignored_keys", [])]),
    Rule("CFG011", "wire-api-chat-rejected", "cfg.provider", E, CONFIG,
         "wire_api = \"chat\" is no longer supported",
         "[model_providers.{provider}] sets wire_api = \"chat\" ({wire_api_where}). {version_text}: Codex 0.97 and newer "
         "refuse this at start-up (`wire_api = \"chat\"` is no longer supported) and only speak the Responses API.",
         ("In {wire_api_where}, set wire_api = \"responses\" (for a provider that serves POST <base_url>/responses; "
          "`codexdoctor check` without --offline tests it).",
          "If the provider only has /chat/completions, use a gateway that offers the Responses API, "
          "or pin an older Codex: npm install -g @openai/codex@0.96.0"),
         once(lambda f: f.get("wire_api") == "chat" and f.get("chat_rejected") is not False)),
    Rule("CFG012", "wire-api-chat-deprecated", "cfg.provider", W, CONFIG,
         "wire_api = \"chat\" is deprecated",
         "{version_text} still accepts wire_api = \"chat\" ({wire_api_where}), but Codex 0.97 and newer reject it.",
         ("Before upgrading Codex, change wire_api to \"responses\" in {wire_api_where} if your provider serves /responses.",),
         once(lambda f: f.get("wire_api") == "chat" and f.get("chat_rejected") is False)),
    Rule("CFG013", "codex-home-missing", "cfg.home", E, CONFIG,
         "CODEX_HOME points to a folder that does not exist",
         "CODEX_HOME is {codex_home}, which does not exist; Codex stops with `CODEX_HOME points to …, but that path does not exist`.{tilde_hint}",
         ("{home_step}",),
         lambda f: [_home_missing_params(f)] if f["problem"] == "missing" else []),
    Rule("CFG014", "codex-home-not-directory", "cfg.home", E, CONFIG,
         "CODEX_HOME is not a folder",
         "CODEX_HOME is {codex_home}, which is a file, not a folder.",
         ("Point CODEX_HOME at a folder ({set_home_cmd}) or unset it: {unset_home_cmd}",),
         once(lambda f: f["problem"] == "not_dir")),
    Rule("CFG015", "profile-not-found", "cfg.profile", E, CONFIG,
         "Selected profile does not exist",
         "Profile `{selected}` is selected ({origin}) but there is no [profiles.{selected}] table; Codex stops with "
         "``config profile `{selected}` not found``. Defined profiles: {available_text}.",
         ("Add a [profiles.{selected}] table, or select an existing profile ({available_text}), or remove the selection ({origin}).",),
         once(lambda f: f["missing"])),
    Rule("CFG016", "config-value-wrong-type", "cfg.provider", E, CONFIG,
         "Config value has the wrong type",
         "`{key}` ({where}) is {got}, but Codex expects {expected}; Codex refuses to load the config.",
         ("Write `{key}` as {expected} in {where}, e.g. base_url = \"https://…\" or env_key = \"MY_API_KEY\".",),
         each("wrong_types")),
    Rule("CFG017", "wire-api-invalid", "cfg.provider", E, CONFIG,
         "Unknown wire_api value",
         "wire_api = \"{wire_api_invalid}\" ({wire_api_where}) is not a value Codex accepts (\"responses\").",
         ("Set wire_api = \"responses\" in {wire_api_where}.",),
         once(lambda f: bool(f.get("wire_api_invalid")))),
    Rule("CFG018", "config-encoding", "cfg.files", W, CONFIG,
         "Config file is not plain UTF-8",
         "{path} is saved as {encoding}; codexdoctor read it, but Codex may not.",
         ("Re-save {path} as UTF-8 without BOM (in Notepad: Save As → Encoding: UTF-8).",),
         lambda f: [dict(path=x["path"], encoding=x["encoding"]) for x in f.get("files", [])
                    if x.get("encoding") not in (None, "utf-8") and "read_error" not in x]),
    Rule("CFG019", "windows-config-also-exists", "cfg.files", W, CONFIG,
         "Running in WSL, and Windows has its own Codex config",
         "codexdoctor read {user_path} (the Linux side of WSL). Windows also has {windows_text}: Codex started from Windows "
         "(PowerShell, cmd, an editor on Windows) reads that file, not this one.",
         ("Make the change in the config of the Codex you actually run: inside WSL edit {user_path}; from Windows edit "
          "%USERPROFILE%\\.codex\\config.toml.",
          "Keep both in sync, or run Codex only on one side."),
         lambda f: [{"windows_text": ", ".join(f["windows_configs"])}] if f.get("windows_configs") else []),
    Rule("CFG020", "config-crlf-line-endings", "cfg.files", I, CONFIG,
         "Config uses Windows line endings",
         "{path} has CRLF (Windows) line endings. That is valid TOML and Codex reads it; nothing to fix.",
         ("Nothing to do; if another tool complains, save the file with LF line endings.",),
         lambda f: [dict(path=x["path"]) for x in f.get("files", []) if x.get("crlf") and "toml_error" not in x]),
    Rule("CFG021", "backslash-in-toml-string", "cfg.files", E, CONFIG,
         "A Windows path in double quotes",
         "{path}:{line} has a backslash inside a double-quoted string, such as \"C:\\Users\\me\". In TOML, \\U, \\m and "
         "the like are escape sequences, so the file does not parse.",
         ("Use single quotes, which take backslashes literally: 'C:\\Users\\me', or forward slashes: \"C:/Users/me\", "
          "on line {line} of {path}.",),
         lambda f: [dict(path=x["path"], line=x["toml_error"]["line"]) for x in f.get("files", [])
                    if x.get("toml_error", {}).get("backslash_in_string")]),
    Rule("CFG022", "legacy-profile-selector", "cfg.profile", E, CONFIG,
         "Legacy `profile = ...` selector",
         "`profile = \"{value}\"` ({where}) selects a profile the old way. Codex {codex_version} refuses to start: "
         "``legacy `profile = \"{value}\"` config is no longer supported``.",
         ("Delete the line `profile = \"{value}\"` from {where}.",
          "Move the keys of [profiles.{value}] to the top level of a new file {codex_home}/{value}.config.toml, "
          "and remove the [profiles.{value}] table.",
          "Select the profile when you start Codex: codex --profile {value} (check it with: codexdoctor check --profile {value})."),
         each("legacy_selectors"),
         "Codex 0.171 reads profiles from `$CODEX_HOME/<name>.config.toml`, chosen with `--profile <name>`; "
         "a top-level `profile` key makes it stop at start-up (observed with the real CLI)."),
    Rule("CFG023", "legacy-profile-table-conflict", "cfg.profile", E, CONFIG,
         "--profile and a legacy [profiles] table with the same name",
         "--profile {selected} is given while {user_config} still has [profiles.{selected}]; Codex {codex_version} refuses "
         "to start (``--profile `{selected}` cannot be used while … contains legacy … `[profiles.{selected}]` config``).",
         ("Move the keys of [profiles.{selected}] to the top level of {profile_file} and delete the table from {user_config}.",),
         once(lambda f: bool(f.get("conflict")))),
    Rule("CFG024", "profile-file-missing", "cfg.profile", W, CONFIG,
         "Profile file not found",
         "--profile {selected} reads {profile_file}, which does not exist. Codex {codex_version} does not stop: it "
         "silently runs with {user_config} alone, so the model and provider are not the ones the profile should set. "
         "Profile files found: {available_text}.",
         ("Create {profile_file} with the profile's settings as top-level keys (model = \"…\", model_provider = \"…\"), "
          "or start Codex with one of the existing profiles.",),
         once(lambda f: bool(f.get("file_missing")) and not f.get("conflict"))),
    Rule("CFG025", "legacy-profile-table-ignored", "cfg.profile", W, CONFIG,
         "Legacy [profiles] table is ignored",
         "[profiles.{name}] ({where}) is a legacy profile table; Codex {codex_version} ignores it, so `--profile {name}` "
         "does not use these settings.",
         ("Move the keys of [profiles.{name}] to the top level of {codex_home}/{name}.config.toml, delete the table, "
          "and start Codex with codex --profile {name}.",),
         lambda f: [dict(t) for t in f.get("legacy_tables") or []] if not (f.get("legacy_selectors") or f.get("conflict")) else []),
    Rule("CFG026", "provider-name-missing", "cfg.provider", E, CONFIG,
         "Provider table has no name",
         "[model_providers.{provider}] ({table_where}) has no `name`; Codex {codex_version_text} refuses to load the config "
         "(`model_providers.{provider}: provider name must not be empty`).",
         ("Add name = \"{provider}\" to [model_providers.{provider}] in {table_where}.",),
         once(lambda f: bool(f.get("missing_name")))),
    Rule("CFG027", "project-config-untrusted", "cfg.files", W, CONFIG,
         "Project config is not read: the project is not trusted",
         "{path} sets {keys_text}, but Codex reads a project's .codex/config.toml only when the project is trusted "
         "(here: {ignored}), so none of it applies.",
         ("Trust the project: add to {user_config}\n[projects.\"{project_root}\"]\ntrust_level = \"trusted\"",
          "Or move the settings you need into {user_config}."),
         lambda f: [dict(x, keys_text=", ".join(x.get("keys") or []) or Loc("nothing", "任何设置"),
                         ignored=Loc("not trusted", "未信任") if x["ignored"] == "untrusted" else Loc("marked untrusted", "被标记为不信任"))
                    for x in f.get("untrusted") or []],
         "Codex 0.171 warns `Untrusted project-local configuration is disabled` and skips the file; provider keys "
         "(`model_provider`, `model_providers`) in it are ignored even when the project is trusted."),
    # ---- ENV: the API key variable ---------------------------------------------------------------
    Rule("ENV001", "env-key-unset", "env.key", E, CONFIG,
         "API key variable is not set",
         "env_key = \"{env_key}\" ({env_key_where}) but ${env_key} is not set in this environment; Codex stops with "
         "``Missing environment variable: `{env_key}`.`` before sending anything.",
         ("Set it in this terminal: {set_cmd}",
          "Make it permanent: {persist_cmd} (then open a new terminal).",
          "Check that env_key holds the variable's name, spelled exactly as you set it."),
         once(lambda f: f["state"] == "missing" and not f["near_miss"] and not f["rc_hits"])),
    Rule("ENV002", "env-key-blank", "env.key", E, CONFIG,
         "API key variable is empty",
         "${env_key} is set but empty or only whitespace; Codex treats that as missing.",
         ("Set it to your key: {set_cmd}",
          "Look for an empty assignment in your shell start-up files that overrides it."),
         once(lambda f: f["state"] == "blank" and not f["near_miss"] and not f.get("from_dotenv"))),
    Rule("ENV003", "env-key-near-miss", "env.key", E, CONFIG,
         "Key is in a variable with a different name",
         "Codex reads ${env_key} (env_key, {env_key_where}), which is {state}, but {near_miss_text} is set. "
         "The names must match exactly.",
         ("Either copy it to the name Codex reads: {rename_cmd}",
          "or change env_key in {env_key_where} to \"{first_near_miss}\"."),
         lambda f: [{"near_miss_text": ", ".join("$" + n for n in f["near_miss"]), "first_near_miss": f["near_miss"][0],
                     "state": Loc(f["state"], "未设置" if f["state"] == "missing" else "为空")}]
         if f["state"] in ("missing", "blank") and f["near_miss"] else []),
    Rule("ENV004", "env-key-in-rc-file-only", "env.key", E, CONFIG,
         "Key is in a shell file but not in this terminal",
         "{rc_text} sets {env_key}, but this environment does not have it: the file was edited after this terminal "
         "started, or it is not read by this shell.",
         ("Load it now: {reload_cmd} (or open a new terminal).",
          "If Codex runs from an editor or GUI, restart it from a terminal that has the variable."),
         lambda f: [{"rc_text": ", ".join(f"{h['file']}:{h['line']}" for h in f["rc_hits"]), "rc_file": f["rc_hits"][0]["file"]}]
         if f["state"] in ("missing", "blank") and f["rc_hits"] and not f["near_miss"] else []),
    Rule("ENV005", "env-key-whitespace", "env.key", E, CONFIG,
         "Key value has whitespace or a newline",
         "${env_key} ({key_fingerprint}) contains {problem_text}. Codex drops a header value with a newline, so the "
         "provider sees no key and answers 401.",
         ("Set it again without spaces or line breaks: {strip_cmd}",
          "When copying the key, copy only the key itself (no trailing newline from `echo` or a file)."),
         lambda f: [{"problem_text": Loc(" and ".join(p for p in f["problems"] if "whitespace" in p or p == "newline"),
                                         "、".join({"newline": "换行", "leading or trailing whitespace": "首尾空白",
                                                    "inner whitespace": "中间的空白"}[p]
                                                   for p in f["problems"] if "whitespace" in p or p == "newline"))}]
         if any("whitespace" in p or p == "newline" for p in f["problems"]) else []),
    Rule("ENV006", "env-key-quoted", "env.key", E, CONFIG,
         "Key value includes quote characters",
         "${env_key} ({key_fingerprint}) starts and ends with quotes, which are sent as part of the key.",
         ("Set it without literal quotes: {set_cmd} (the shell's own quotes are fine; quotes inside them are not).",),
         once(lambda f: "quotes" in f["problems"])),
    Rule("ENV007", "env-key-bearer-prefix", "env.key", E, CONFIG,
         "Key value starts with `Bearer `",
         "${env_key} starts with `Bearer `; Codex adds that itself, so the provider receives `Bearer Bearer …`.",
         ("Remove the prefix, keeping the key itself: {strip_bearer_cmd}",),
         once(lambda f: "bearer prefix" in f["problems"])),
    Rule("ENV008", "env-key-non-ascii", "env.key", E, CONFIG,
         "Key value has non-ASCII characters",
         "${env_key} contains non-ASCII characters (often a full-width space or a smart quote from a chat app or document).",
         ("Copy the key again from the provider's console and set it with only ASCII characters: {set_cmd}",),
         once(lambda f: "non-ascii" in f["problems"])),
    Rule("ENV009", "env-key-holds-key", "env.key", E, CONFIG,
         "env_key holds a key, not a variable name",
         "env_key ({env_key_where}) must name an environment variable; its value {env_key} looks like the API key itself. "
         "Codex will look for a variable with that name and stop with `Missing environment variable`.",
         ("In {env_key_where}, set env_key = \"MYGATEWAY_API_KEY\" (a name), and put the key in that variable: {example_set_cmd}",
          "Treat the key as exposed if the config file was shared; create a new key at the provider."),
         once(lambda f: f["state"] == "not_a_name")),
    Rule("ENV010", "provider-without-env-key", "env.key", W, CONFIG,
         "Custom provider has no env_key",
         "[model_providers.{provider}] has no env_key (and no experimental_bearer_token), so current Codex sends no "
         "API key; a provider that needs one answers 401.",
         ("Add env_key = \"MYGATEWAY_API_KEY\" to [model_providers.{provider}] in {user_config}, and set the variable: {example_set_cmd}",),
         once(lambda f: f["state"] == "no_env_key" and not (f["local"] or f["bearer_token"] or f["requires_openai_auth"]))),
    Rule("ENV011", "openai-api-key-ignored", "env.auth", W, CONFIG,
         "OPENAI_API_KEY is set but the CLI does not read it",
         "$OPENAI_API_KEY is set, but Codex CLI ignores it for the built-in openai provider (since Sep 2025); "
         "only a stored login counts, and none was found in {auth_path}.",
         ("Store the key once: {login_cmd}",),
         once(lambda f: f["provider"] == "openai" and f["builtin"] and f["openai_api_key_env"] and not f.get("logged_in"))),
    Rule("ENV012", "not-logged-in", "env.auth", E, CONFIG,
         "Built-in provider without a login",
         "model_provider is the built-in `openai`, which authenticates with a stored login, and {auth_path} has none.",
         ("Log in: codex login (ChatGPT) or {login_cmd}",
          "Or configure a custom provider with base_url and env_key in config.toml (see `codexdoctor explain CFG001`)."),
         # $OPENAI_API_KEY does not count (ENV011 says so): without a stored login Codex has nothing to send.
         once(lambda f: f["provider"] == "openai" and f["builtin"] and not f.get("logged_in"))),
    Rule("ENV013", "stored-login-may-leak", "env.auth", W, CONFIG,
         "Stored OpenAI login and a custom provider without env_key",
         "{auth_path} holds an OpenAI login and [model_providers.{provider}] has no env_key. Older Codex versions send "
         "the stored OpenAI key or ChatGPT token to such a provider (a leak to a third party, or a confusing 401).",
         ("Add env_key = \"<VARIABLE>\" to [model_providers.{provider}] so Codex sends that provider's own key.",),
         once(lambda f: f["custom_without_env_key"] and f["auth"].get("exists") and not f["auth"].get("error"))),
    Rule("ENV014", "auth-json-unreadable", "env.auth", W, CONFIG,
         "auth.json cannot be read",
         "{auth_path} exists but is not valid JSON; Codex may ask you to log in again.",
         ("Log in again to rewrite it: codex login (or delete {auth_path} if you use a custom provider with env_key).",),
         once(lambda f: bool(f["auth"].get("error")))),
    Rule("ENV015", "requires-openai-auth-without-login", "env.auth", E, CONFIG,
         "Provider requires the OpenAI login, but none is stored",
         "[model_providers.{provider}] sets requires_openai_auth = true, which makes Codex send the stored login, and {auth_path} is absent.",
         ("Log in (codex login), or remove requires_openai_auth and use env_key for this provider.",),
         once(lambda f: f["requires_openai_auth"] and not f["auth"].get("exists"))),
    Rule("ENV016", "stored-key-differs", "env.auth", I, CONFIG,
         "Stored key differs from $OPENAI_API_KEY",
         "The built-in provider uses the key stored in {auth_path}, not $OPENAI_API_KEY, and the two differ.",
         ("If the variable holds the key you want, store it: {login_cmd}",),
         once(lambda f: f["provider"] == "openai" and f["env_differs_from_stored"])),
    Rule("ENV017", "dotenv-blank-key", "env.key", E, CONFIG,
         "The key variable is blank in Codex's .env file",
         "{dotenv_path} sets {env_key} to an empty value. Codex loads that file at start-up over your shell's environment, "
         "so it stops with ``Missing environment variable: `{env_key}`.`` even if the shell has the key.",
         ("Put the key on that line of {dotenv_path} ({env_key}=<your key>), or delete the line so the shell's value is used.",),
         once(lambda f: f["state"] == "blank" and bool(f.get("from_dotenv")))),
    Rule("ENV018", "dotenv-overrides-shell", "env.key", W, CONFIG,
         "Codex's .env file overrides the key in your shell",
         "Codex takes {env_key} from {dotenv_path} ({key_fingerprint}), not from your shell ({shell_fp}): the file is loaded "
         "at start-up and wins. A key you export in the terminal is not the one Codex sends.",
         ("If the shell's key is the right one, delete the {env_key} line from {dotenv_path}; otherwise update it there.",),
         once(lambda f: bool(f.get("shell_differs")) and f["state"] != "blank")),
    # ---- URL: base_url as written ---------------------------------------------------------------
    Rule("URL001", "base-url-not-http", "url.base_url", E, CONFIG,
         "base_url is not an http(s) URL",
         "base_url = \"{shown}\" ({where}) {malformed}.",
         ("Write the full URL with scheme and host in {where}, e.g. base_url = \"https://api.example.com/v1\".",),
         once(lambda f: bool(f.get("malformed")))),
    Rule("URL002", "base-url-whitespace", "url.base_url", E, CONFIG,
         "base_url ends in a space or a line break",
         "base_url ({where}) ends in whitespace. Codex keeps it, so the request goes to {request_url} with `%20` in the "
         "path, and the provider answers 404.",
         ("Remove the spaces inside the quotes in {where}: base_url = \"{suggested}\"",),
         once(lambda f: f.get("whitespace") and not f.get("malformed")),
         settled_by=VERIFIED_BASE_URL),
    Rule("URL003", "base-url-ends-in-v1", "url.base_url", W, CONFIG,
         "base_url ends in /v1: the provider decides",
         "base_url = \"{shown}\" ends in /v1, so Codex calls {request_url}. Codex never adds or removes /v1; some "
         "gateways serve /v1/responses, others (e.g. ones documented as …/api) 404 on it.",
         ("Run `codexdoctor check` without --offline: it calls the real endpoint and, on a 404, tries the variants and names the base_url that works.",
          "Use the base URL exactly as your provider's Codex/OpenAI-compatible documentation gives it."),
         once(lambda f: f.get("ends_v1") and not f.get("builtin") and not f.get("doubled_path")),
         settled_by=(("api.canary", lambda f: f.get("kind") not in (None, "timeout", "deadline", "dns", "refused", "tls",
                                                                     "reset", "proxy", "protocol", "redirect")),
                     VERIFIED_BASE_URL)),
    Rule("URL004", "base-url-query-string", "url.base_url", E, CONFIG,
         "base_url has a query string or fragment",
         "base_url = \"{shown}\" ({where}) carries `?…` or `#…` (often a landing-page link such as ?utm_source=…); "
         "Codex appends /responses after it and the request URL breaks.",
         ("In {where}, set base_url = \"{suggested}\"",
          "If the provider really needs query parameters (e.g. Azure api-version), put them in query_params = {{ key = \"value\" }}."),
         once(lambda f: (f.get("query") or f.get("fragment")) and not f.get("malformed")),
         settled_by=VERIFIED_BASE_URL),
    Rule("URL005", "base-url-doubled-path", "url.base_url", E, CONFIG,
         "base_url already ends in the API path",
         "base_url ends in {doubled_path}; Codex appends the path again and calls {request_url}.",
         ("In {where}, set base_url = \"{suggested}\" (the part before {doubled_path}).",),
         once(lambda f: bool(f.get("doubled_path")) and not f.get("malformed")),
         settled_by=VERIFIED_BASE_URL),
    Rule("URL006", "base-url-userinfo", "url.base_url", E, CONFIG,
         "base_url contains a user name or password",
         "base_url ({where}) has `user:password@` before the host. That is not how OpenAI-compatible providers take keys, "
         "and it puts a secret in a config file.",
         ("Remove the `…@` part in {where}: base_url = \"{suggested}\"; put the key in the variable named by env_key.",),
         once(lambda f: f.get("userinfo") and not f.get("malformed"))),
    Rule("URL007", "base-url-plain-http-remote", "url.base_url", W, CONFIG,
         "Key sent in clear text",
         "base_url uses http:// to {host}, which is not this machine: the API key travels unencrypted.",
         ("Use https:// in {where} if the provider supports it; keep plain http only for localhost.",),
         once(lambda f: f.get("plain_http_remote") and not f.get("malformed"))),
    Rule("URL008", "base-url-trailing-slash", "url.base_url", I, CONFIG,
         "base_url ends with a slash",
         "base_url ends with `/`; Codex trims it, so this is harmless.",
         ("Nothing to do; optionally drop the trailing slash in {where}.",),
         once(lambda f: f.get("trailing_slash") and not f.get("malformed") and not f.get("query"))),
    Rule("URL009", "html-instead-of-api", "api.canary", E, CHANNEL,
         "An HTML page answered where the API should be",
         "POST {url} returned a web page ({status}), not the API: base_url points at the provider's website or a landing page. "
         "Codex ends with `stream disconnected before completion: stream closed before response.completed`.",
         ("Find the API base URL in the provider's documentation (often https://api.<domain>/v1 or https://<domain>/api) and set it as base_url in {base_url_where}.",
          "Remove any ?utm_… part copied from a link."),
         once(lambda f: f["kind"] == "html")),
    # ---- NET: reaching the provider ---------------------------------------------------------------
    Rule("NET001", "dns-failure", "net.reach", E, CHANNEL,
         "Host name does not resolve",
         "{host} does not resolve ({url}): {detail}.",
         ("Check the host name in base_url for typos.",
          "If it resolves in a browser, check this machine's DNS or VPN: try `nslookup {host}`."),
         once(lambda f: f["failure"] == "dns")),
    Rule("NET002", "connection-refused", "net.reach", E, CHANNEL,
         "Connection refused",
         "Nothing accepts connections at {base_url}: {detail}. Codex keeps retrying such a provider for a very long time.",
         ("Check the host and port in base_url; for a local server (Ollama, LM Studio, vLLM, llama.cpp), start it first.",
          "If you use a proxy, check that HTTPS_PROXY points at a running proxy."),
         once(lambda f: f["failure"] == "refused")),
    Rule("NET003", "tls-failure", "net.reach", E, CHANNEL,
         "TLS handshake failed",
         "Connecting to {host} over TLS failed: {detail}.",
         ("If the provider uses a private or corporate CA, point Codex at it: {ca_cmd} (codexdoctor honours it and SSL_CERT_FILE too).",
          "If the server speaks plain HTTP on that port, use http:// (local servers only); if the certificate is for another name, use the host name it was issued for.",
          "An expired certificate must be renewed by the provider."),
         once(lambda f: f["failure"] == "tls")),
    Rule("NET004", "timeout", "net.reach", E, CHANNEL,
         "No answer before the deadline",
         "{url} did not answer in time ({detail}).",
         ("Check that the host is the API endpoint and reachable from this network (firewall, VPN, proxy).",
          "Run again with a longer deadline: codexdoctor check --timeout 30"),
         once(lambda f: f["failure"] in ("timeout", "deadline"))),
    Rule("NET005", "connection-reset", "net.reach", E, CHANNEL,
         "Connection closed by the server",
         "The connection to {host} was dropped before an answer: {detail}.",
         ("Retry; if it persists, the provider or a proxy in between is failing. Codex retries such errors up to 5 times before giving up.",),
         once(lambda f: f["failure"] == "reset")),
    Rule("NET006", "cross-origin-redirect", "net.reach", E, CHANNEL,
         "Redirect to another host",
         "The provider redirects to {redirect}. codexdoctor did not follow it with your key; base_url should be the final address.",
         ("Set base_url to the address it redirects to (if you trust that host), typically https:// instead of http:// or a new domain.",),
         once(lambda f: f["failure"] == "redirect")),
    Rule("NET007", "proxy-failure", "net.reach", E, CHANNEL,
         "Proxy failed",
         "The proxy from this environment failed: {detail}.",
         ("Check HTTPS_PROXY / HTTP_PROXY / ALL_PROXY, or exclude the provider with NO_PROXY=<host>.",),
         once(lambda f: f["failure"] == "proxy")),
    Rule("NET008", "protocol-error", "net.reach", E, CHANNEL,
         "Unreadable answer",
         "The answer from {host} could not be read: {detail}.",
         ("Check that base_url points at an HTTP API (not another protocol or port).",),
         once(lambda f: f["failure"] == "protocol")),
    # ---- AUTH: key rejected ----------------------------------------------------------------------
    Rule("AUTH001", "key-rejected", "api.canary", E, CHANNEL,
         "The provider rejected the API key",
         "POST {url} answered {status}: {message}. Codex retries 401 five times, then prints "
         "`unexpected status 401 Unauthorized`.",
         ("Check the key this terminal has: `{fp_cmd}` prints {key_fp8}; "
          "compare with the key in the provider's console (same command on a copy).",
          "Check that env_key ({env_key_where}) names the variable you set, spelled exactly.",
          "Copy the key again, whole, with no spaces or line breaks, and set the variable again.",
          "If it still fails, create a new key at the provider (the old one may be revoked, expired or for another project)."),
         once(lambda f: f["kind"] == "auth_rejected")),
    Rule("AUTH002", "key-not-received", "api.canary", E, CHANNEL,
         "The provider received no API key",
         "POST {url} answered {status}: {message}. Codex sent no usable key: the variable is unset, the provider has no env_key, "
         "or the value contains a newline (Codex then drops the header).",
         ("Make sure env_key is set in the provider table and the variable holds only the key: {set_cmd}",
          "Run `codexdoctor check --offline` to see the key variable findings."),
         once(lambda f: f["kind"] == "auth_missing")),
    Rule("AUTH003", "forbidden", "api.canary", E, CHANNEL,
         "Key valid but not allowed",
         "POST {url} answered 403: {message}. The key is recognised but lacks permission for this model or endpoint.",
         ("Check the key's project, organisation or scope in the provider's console, and that it may use model `{model}`.",),
         once(lambda f: f["kind"] == "forbidden")),
    Rule("AUTH004", "blocked-by-firewall-or-region", "api.canary", E, CHANNEL,
         "Blocked before reaching the API",
         "POST {url} was blocked (403): {message}. A firewall, Cloudflare rule, IP allow-list or region restriction answered, not the API.",
         ("Check the provider's IP allow-list and region support; try from another network or via the provider's regional endpoint.",),
         once(lambda f: f["kind"] == "blocked")),
    Rule("AUTH005", "key-unverified", "api.catalog", W, CHANNEL,
         "The key was not verified",
         "GET {url} answers without any key, so its success proves nothing about your key, and the canary was not sent.",
         ("Run without --no-canary so codexdoctor sends the request Codex sends, with your key.",),
         once(lambda f: f["open_without_key"] and not f["canary_ran"])),
    Rule("AUTH006", "catalog-rejects-key", "api.catalog", E, CHANNEL,
         "The model catalog rejected the API key",
         "GET {url} answered {status}: {message}.",
         ("Check the key as for AUTH001 (`codexdoctor explain AUTH001`), then run without --no-canary.",),
         once(lambda f: f["kind"] in ("auth_rejected", "auth_missing") and not f["canary_ran"])),
    # ---- API: request path and protocol ----------------------------------------------------------
    Rule("API001", "wrong-base-url-path", "api.variants", E, CHANNEL,
         "Nothing at the path Codex calls; another base_url works",
         "POST {request_url} finds nothing (404), but {working_url} answers.{why_text}",
         ("In {base_url_where}, set base_url = \"{working_url}\"",
          "Run `codexdoctor check` again to confirm."),
         lambda f: [{"working_url": f["working"]["base_url"], "why_text": _working_why(f)}] if f.get("working") else []),
    Rule("API002", "responses-api-missing", "api.wire", E, CHANNEL,
         "Provider serves Chat Completions but not the Responses API",
         "The provider answers POST …/chat/completions but 404s on …/responses. Codex 0.97 and newer only speak the Responses API"
         " (installed: {codex_version_text}), so this provider cannot serve current Codex.",
         ("Use a gateway or provider that offers POST /responses (many OpenAI-compatible gateways added it).",
          "Or pin an older Codex and keep wire_api = \"chat\": npm install -g @openai/codex@0.96.0"),
         lambda f: [{"codex_version_text": f.get("codex_version") or Loc("unknown", "未知")}]
         if f.get("chat_works") and not f.get("variants_work") else []),
    Rule("API003", "rate-limited", "api.canary", W, CHANNEL,
         "Rate limited",
         "POST {url} answered 429 after {attempts:count:attempt}: {message}. This is transient.",
         ("Wait and retry; lower concurrency; check the rate limits of your plan in the provider's console.",),
         once(lambda f: f["kind"] == "rate_limited")),
    Rule("API004", "quota-exhausted", "api.canary", E, CHANNEL,
         "Quota exhausted",
         "POST {url}: {message}. Waiting will not help (Codex does not retry this).",
         ("Add credit or raise the quota in the provider's console, or use another key.",),
         once(lambda f: f["kind"] == "quota")),
    Rule("API005", "provider-error", "api.canary", E, CHANNEL,
         "Provider or proxy error (5xx)",
         "POST {url} answered {status} after {attempts:count:attempt}: {detail}.",
         ("Retry later; check the provider's status page. An HTML 502/504 page comes from a proxy or load balancer in front of the API.",),
         once(lambda f: f["kind"] == "server_error")),
    Rule("API006", "payment-required", "api.canary", E, CHANNEL,
         "No credits left",
         "POST {url}: {message}.",
         ("Top up the account in the provider's console.",),
         once(lambda f: f["kind"] == "payment")),
    Rule("API007", "error-inside-stream", "api.canary", E, CHANNEL,
         "Error inside a 200 stream",
         "POST {url} started a 200 stream and then sent an error: {message}.",
         ("The provider accepted the request but failed while answering; retry, and report the message to the provider.",),
         once(lambda f: f["kind"] == "stream_error")),
    Rule("API008", "stream-closed-early", "api.canary", E, CHANNEL,
         "Stream closed before completion",
         "The stream from {url} ended without response.completed ({detail}). Codex reports "
         "`stream disconnected before completion: stream closed before response.completed`.",
         ("Check for a proxy that buffers or cuts server-sent events; retry; report to the provider if it persists.",),
         once(lambda f: f["kind"] == "stream_closed")),
    Rule("API009", "stream-idle", "api.canary", E, CHANNEL,
         "Stream went silent",
         "The stream from {url} stopped sending events ({detail}). Codex gives up after stream_idle_timeout_ms "
         "(`idle timeout waiting for SSE`).",
         ("Retry; if the provider is slow but alive, raise stream_idle_timeout_ms in the provider table.",),
         once(lambda f: f["kind"] == "stream_idle")),
    Rule("API010", "request-rejected", "api.canary", E, CHANNEL,
         "Request rejected",
         "POST {url} answered {status}: {message}.",
         ("Read the provider's message above; check model, wire_api and query_params against its documentation.",),
         once(lambda f: f["kind"] == "bad_request")),
    Rule("API011", "not-an-api-answer", "api.canary", E, CHANNEL,
         "Answer is not JSON or an event stream",
         "POST {url} answered {status} with a body that is neither JSON nor server-sent events ({detail}).",
         ("Check that base_url is the API endpoint, not a website or another service on the same host.",),
         once(lambda f: f["kind"] == "not_json")),
    Rule("API012", "response-incomplete", "api.canary", W, CHANNEL,
         "Response ended incomplete",
         "The canary ended with {detail}.",
         ("If the reason is content_filter, the provider's moderation cut the answer; otherwise report it to the provider.",),
         once(lambda f: f["kind"] == "stream_incomplete")),
    Rule("API013", "path-not-found", "api.variants", E, CHANNEL,
         "Nothing at the path Codex calls",
         "POST {request_url} finds nothing (404), and neither do the usual variants ({tried_text}).",
         ("Look up the OpenAI-compatible base URL in the provider's documentation and set base_url in {base_url_where}; "
          "Codex appends /responses to it.",),
         lambda f: [{"tried_text": ", ".join(f.get("tried") or []) or Loc("none", "无")}]
         if not f.get("working") and not f.get("chat_works") else []),
    Rule("API016", "responses-path-not-found", "api.canary", E, CHANNEL,
         "Nothing at the path Codex calls",
         "POST {url} answered 404: Codex calls base_url + /responses, and this provider has nothing there.{doubled_text}",
         ("{path_step}",
          "Check that base_url ({base_url_where}) is the provider's OpenAI-compatible API root, and that it supports the Responses API."),
         once(lambda f: f["kind"] == "path_not_found"),
         settled_by=("api.variants", lambda f: True)),
    Rule("API014", "responses-format-rejected", "api.canary", E, CHANNEL,
         "Endpoint rejects the Responses request format",
         "POST {url} answered {status}: {message}. The path exists but does not understand Responses requests.",
         ("Use a provider or gateway version that implements the Responses API, or pin Codex 0.96 with wire_api = \"chat\".",),
         once(lambda f: f["kind"] == "wire_mismatch")),
    Rule("API017", "codex-request-rejected", "api.canary", E, CHANNEL,
         "The provider rejects part of Codex's request",
         "POST {url} rejected Codex's own request ({status}: {message}) while a minimal request to the same URL passed: "
         "the provider or gateway does not accept {field_text} that Codex {codex_version} sends. Every Codex turn fails this way.",
         ("Use a provider or gateway version that implements the Responses API as Codex uses it ({field_text} included).",
          "{field_step}"),
         lambda f: [_rejected_params(f)] if f["kind"] == "codex_rejected" else [],
         "The canary is Codex's first request (same fields, developer items and tool schemas), so a field or item a "
         "provider refuses shows up here instead of in the first Codex session."),
    Rule("API015", "unreliable-channel", "api.canary", W, CHANNEL,
         "The request only succeeded after retries",
         "POST {url} needed {attempts} attempts (earlier: {earlier_text}). Codex retries too, but a channel this flaky "
         "shows up as `Reconnecting... 1/5` and slow or dropped turns.",
         ("Run `codexdoctor check` again to see whether it persists; check the provider's status page.",
          "If you go through a proxy or VPN, try without it."),
         lambda f: [{"earlier_text": ", ".join(f.get("earlier") or [])}] if f["kind"] == "ok" and f.get("attempts", 1) > 1 else []),
    # ---- MODEL: model ID ------------------------------------------------------------------------
    Rule("MODEL001", "model-not-found", "api.canary", E, CHANNEL,
         "The provider does not serve this model ID",
         "model = \"{model}\" ({model_origin}): {message}. {closest_text}",
         ("{model_id_step}",
          "Check wire_api: some gateways list a model but serve it only on one API."),
         lambda f: [{"closest_text": Loc("Closest IDs in the catalog: " + ", ".join(f["catalog_closest"]) + ".",
                                         "模型列表中最接近的 ID：" + "、".join(f["catalog_closest"]) + "。")
                     if f.get("catalog_closest") else "", "model_id_step": _model_id_step(f)}] if f["kind"] == "model_not_found" else []),
    Rule("MODEL002", "model-id-case-or-whitespace", "api.catalog", E, CHANNEL,
         "Model ID differs only in case or spaces",
         "model = \"{model}\" is in the catalog as \"{closest_first}\" ({match} mismatch), and the provider did not accept it.",
         ("Set model = \"{closest_first}\" in {model_origin}.",),
         lambda f: [{"closest_first": f["closest"][0], "match": Loc(f["match"], "大小写" if f["match"] == "case" else "空格")}]
         if f.get("match") in ("case", "whitespace") and f.get("closest")
         and f.get("canary_kind") != "ok" else []),
    Rule("MODEL003", "azure-deployment-not-found", "api.canary", E, CHANNEL,
         "Azure deployment not found",
         "Azure answered DeploymentNotFound for model = \"{model}\": on Azure, `model` must be the deployment name, not the model name.",
         ("Set model to your deployment's name from the Azure portal (Deployments), in {model_origin}.",),
         once(lambda f: f["kind"] == "deployment_not_found")),
    Rule("MODEL004", "model-absent-from-catalog", "api.catalog", I, CHANNEL,
         "Model not listed, but it works",
         "model = \"{model}\" is not in the catalog ({count} models), yet the canary succeeded (aliases, or a server that serves one model whatever the name).",
         ("Nothing to do; prefer the exact catalog ID if the provider documents one.",),
         once(lambda f: f.get("match") == "missing" and f.get("canary_kind") == "ok")),
    Rule("MODEL005", "model-missing-unverified", "api.catalog", W, CHANNEL,
         "Model not in the catalog",
         "model = \"{model}\" is not among the {count} models the provider lists. {closest_text}",
         ("Copy the exact ID from the catalog into {model_origin}, or run without --no-canary to test it.",),
         lambda f: [{"closest_text": Loc("Closest: " + ", ".join(f["closest"]) + ".", "最接近的：" + "、".join(f["closest"]) + "。")
                     if f.get("closest") else ""}]
         if f.get("match") == "missing" and not f.get("canary_ran") else []),
    # ---- CTX: context and session ---------------------------------------------------------------
    Rule("CTX001", "served-window-smaller-than-assumed", "ctx.window", W, CONTEXT,
         "The provider's window is smaller than Codex assumes",
         "The provider serves {served} tokens ({source}) but Codex assumes {assumed} ({assumed_source}) and only compacts at "
         "{compact_at}. Long sessions will hit the provider's limit before Codex compacts, and break at a stable point.{room_text}",
         ("Add these lines at the top level of {user_config} (not inside a profile):\n"
          "model_context_window = {suggest_window:d}\nmodel_auto_compact_token_limit = {suggest_compact:d}",
          "Start a new session every few turns for long work; carry a short summary instead of the history."),
         once(lambda f: f["served"] is not None and f["served"] >= f["min_usable"] and f["served"] < f["compact_at"])),
    Rule("CTX025", "window-unpublished", "ctx.window", I, CONTEXT,
         "The provider does not publish its window",
         "Neither /models nor the server's info pages say how large {model}'s window is. Codex's first request for you "
         "({first_request} tokens) fit, so the first turn works; how much room is left for a session is unknown, and Codex "
         "assumes {assumed} ({assumed_source}).",
         ("Measure the usable window with a bounded number of tokens: codexdoctor probe",
          "Then set model_context_window (and model_auto_compact_token_limit at about 80% of it) at the top level of {user_config}."),
         once(lambda f: f.get("unpublished") and f.get("first_fit") is True)),
    Rule("CTX002", "window-too-small-for-codex", "ctx.window", E, CONTEXT,
         "Window too small for Codex's first request",
         "The provider serves {served} tokens ({source}); Codex's first request for you is about {first_request} tokens "
         "({first_text}), so even the first turn fails while a one-line test passes.",
         ("Serve the model with a larger window (e.g. llama.cpp `-c 32768`, vLLM `--max-model-len 32768`, Ollama `num_ctx`), "
          "more than {min_usable} tokens; 32,768 leaves room for a session.",
          "Then tell Codex the real size in {user_config}:\nmodel_context_window = <served window>",
          "{docs_step}"),
         once(lambda f: f["served"] is not None and f["served"] < f["min_usable"])),
    Rule("CTX004", "latency-grows-with-context", "ctx.probe", W, CONTEXT,
         "Stage 1: time to first token grows with the session",
         "Time to first token rose from {baseline_text} (a single question) to {largest_ttft_text} at {largest_ok} tokens "
         "({ttft_ratio}x; about {slope_ms_per_1k} ms per 1,000 tokens of history). Every turn re-reads the whole history.",
         ("Start a new session every {turns_text} turns and carry a 5-line summary of the conclusions instead of the history.",
          "Keep the start of the session stable (same instructions and tools) so a provider with prefix caching can reuse it.",
          "Move side questions to a separate session: their answers otherwise ride along in every later request."),
         once(lambda f: f["stage1"])),
    Rule("CTX005", "mid-stream-stalls", "ctx.probe", W, CONTEXT,
         "Stage 2: the answer stalls mid-stream",
         "{stall_count:count:answer} went silent for at least {stall_threshold_s} s after text had started "
         "(longest {longest_stall_text}). Under cache pressure this comes before outright failures.",
         ("Shorten sessions (see the turns-per-session advice); if stalls reach stream_idle_timeout_ms, Codex reports "
          "`idle timeout waiting for SSE`.",
          "If stalls also happen with short sessions, the provider is overloaded: run `codexdoctor probe` again later."),
         once(lambda f: f["stage2"])),
    Rule("CTX006", "stable-breakpoint", "ctx.probe", E, CONTEXT,
         "Stage 3: the session breaks at a stable size",
         "A single question works, but the growing session fails from {first_fail} tokens on ({failure_text}); every request "
         "at {last_ok} tokens or less worked, and repeating both {repeat_text}. Usable window: about {last_ok} tokens "
         "(the break lies between {last_ok} and {first_fail}).",
         ("Tell Codex the real window so it compacts in time: add at the top level of {user_config}:\n"
          "model_context_window = {suggest_window:d}\nmodel_auto_compact_token_limit = {suggest_compact:d}",
          "{session_advice}",
          "Carry a 5-line summary of the conclusions into the next session instead of the history.",
          "Move side questions out of the main session, and keep its start (instructions, tools) unchanged."),
         lambda f: [{"failure_text": ", ".join(f["failure_kinds"]) or Loc("failed", "失败"),
                     "repeat_text": Loc("gave the same result every time", "结果每次都一样"),
                     "session_advice": _session_advice(f)}] if f.get("stable") and f.get("last_ok") else []),
    Rule("CTX007", "unstable-breakpoint", "ctx.probe", E, CHANNEL,
         "Failures do not sit at one size: the channel, not the context",
         "Requests just below and just above the apparent break ({last_ok} / {first_fail} tokens) gave mixed results "
         "({failure_text}). A window fails at the same size every time; this looks like rate limits, capacity or timeouts.",
         ("Run `codexdoctor check` for the channel's error codes, and look at the provider's status page and your rate limits.",
          "Retry later or at a quieter time; if it persists, try another region, key or provider."),
         lambda f: [{"failure_text": ", ".join(f["failure_kinds"]) or Loc("mixed", "时好时坏")}] if f.get("stable") is False else []),
    Rule("CTX008", "silent-truncation", "ctx.probe", E, CONTEXT,
         "The provider silently cuts the conversation",
         "At {truncated_at} tokens the provider answered 200 but counted only {reported_at_truncation} input tokens: it dropped "
         "the start of the conversation without an error (Ollama does this when the prompt exceeds num_ctx). Codex then "
         "forgets earlier turns or repeats itself.",
         ("Raise the server's window: for Ollama, `OLLAMA_CONTEXT_LENGTH=32768 ollama serve` or `PARAMETER num_ctx 32768` in a Modelfile.",
          "Then set model_context_window at the top level of {user_config} to the window the server really has "
          "(here about {reported_at_truncation})."),
         once(lambda f: f["truncated"])),
    Rule("CTX009", "no-breakpoint", "ctx.probe", I, CONTEXT,
         "No break up to the probed size",
         "The session worked at every size up to {max_context} tokens.",
         ("If Codex still fails, run `codexdoctor sessions` on its logs, or probe further with --max-context.",),
         once(lambda f: f["no_break"])),
    Rule("CTX010", "probe-stopped-early", "ctx.probe", W, CONTEXT,
         "The probe stopped before locating the break",
         "Stopped {stopped} after {requests} requests and {spent} input tokens. Learned so far: works up to "
         "{last_ok_text} tokens{fail_text}.",
         ("{stopped_step}",),
         lambda f: [{"last_ok_text": f["last_ok"] if f.get("last_ok") else Loc("(none)", "（无）"),
                     "stopped_step": Loc("Run `codexdoctor probe` again and let it finish (the plan printed first says "
                                         "how many requests and tokens that takes).",
                                         "再运行一次 `codexdoctor probe` 并让它跑完（开始时打印的计划写明了需要多少请求和 token）。")
                     if f["stopped"] == "interrupted" else
                     Loc("Raise the budget (--budget) or narrow the range (--max-context) and run `codexdoctor probe` again.",
                         "提高预算（--budget）或缩小范围（--max-context），再运行一次 `codexdoctor probe`。"),
                     "stopped": STOPPED_WORDS.get(f["stopped"], Loc(str(f["stopped"]), str(f["stopped"]))),
                     "fail_text": Loc(f", fails at {f['first_fail']}", f"，{f['first_fail']} 时失败") if f.get("first_fail") else ""}]
         if f.get("stopped") else []),
    Rule("CTX011", "single-question-unreliable", "ctx.probe", E, CHANNEL,
         "Even single questions fail sometimes",
         "{singles_ok} of {singles} fresh one-line requests succeeded ({single_kinds_text}). A short question in a new "
         "session does not depend on the context, so this is the channel.",
         ("Run `codexdoctor check` for the channel's error codes; check the provider's status page, rate limits and your network or proxy.",),
         lambda f: [{"single_kinds_text": ", ".join(f["single_kinds"]) or Loc("failed", "失败")}]
         if 0 < f["singles_ok"] < f["singles"] else []),
    Rule("CTX012", "session-overflowed", "ctx.sessions", E, CONTEXT,
         "A session ran out of context",
         "Session {short_id} ({start_text}) failed at turn {failed_turn}: {evidence}. The largest context that worked was "
         "{peak_text} tokens, {share_text} of the {window_text} Codex assumes.{real_text}",
         ("{window_step}",
          "{session_step}",
          "Carry a 5-line summary into the next session instead of the history; move side questions to their own session."),
         # A session in a group that breaks at one size gets the group's advice (CTX014) instead of its own.
         lambda f: [_session_params(d) for d in f.get("sessions", [])
                    if d["kind"] == "context" and not d.get("in_cluster") and not d.get("truncated_at")]),
    Rule("CTX013", "session-channel-failure", "ctx.sessions", E, CHANNEL,
         "A session failed on the channel, not the context",
         "Session {short_id} ({start_text}) failed at turn {failed_turn} with `{error_short}` at {share_text} of the window: "
         "an error from the provider or the network, not a full context.",
         ("Run `codexdoctor check` to test the channel as it is now.",
          "Classify the exact message: codexdoctor diagnose-error \"{error_short}\""),
         lambda f: [_session_params(d) for d in f.get("sessions", []) if d["kind"] == "channel"]),
    Rule("CTX014", "failures-cluster", "ctx.sessions", E, CONTEXT,
         "Sessions break at the same size",
         "{failures} failed sessions of {model} on `{provider}` broke between {low} and {high} tokens (spread {spread_pct}): "
         "a stable break point, so the limit is the context, about {median_text} tokens. Codex never compacted: it "
         "only compacts near the window it assumes.",
         ("Set model_context_window = {median:d} and model_auto_compact_token_limit = {eighty:d} at the top level of "
          "{user_config_text} so Codex compacts before that point.",
          "Start new sessions before they reach about {seventy} tokens."),
         lambda f: [{**g, "spread_pct": f"{g['spread']:.0%}", "user_config_text": f.get("user_config") or "~/.codex/config.toml",
                     "low": f"{g['low']:,}", "high": f"{g['high']:,}", "median": g["median"], "median_text": f"{g['median']:,}",
                     "seventy": f"{int(g['median'] * 0.7):,}", "eighty": int(g["median"] * 0.8) // 100 * 100}
                    for g in f.get("across", {}).get("groups", []) if g["pattern"] == "cluster"]),
    Rule("CTX015", "failures-scattered", "ctx.sessions", E, CHANNEL,
         "Failures scatter at low usage",
         "{failures} failed sessions of {model} on `{provider}` broke at scattered sizes ({low}-{high} tokens), all under "
         "half the window: that points at the channel (key, rate limits, provider availability), not the context.",
         ("Run `codexdoctor check`, and `codexdoctor probe` to see whether failures follow the session size.",),
         lambda f: [{**g, "low": f"{g['low']:,}", "high": f"{g['high']:,}"}
                    for g in f.get("across", {}).get("groups", []) if g["pattern"] == "scattered"]),
    Rule("CTX026", "session-silently-truncated", "ctx.sessions", E, CONTEXT,
         "The provider cut a session's history without an error",
         "In session {short_id} ({start_text}) the input stayed at {truncated_text} tokens in turns {turns_text} while every "
         "turn added more: the provider dropped the start of the conversation silently (Ollama does this at num_ctx). "
         "Its real window is about {truncated_text} tokens; Codex never saw an error and never compacted.",
         ("{window_step}",
          "For Ollama, serve the model with a larger num_ctx (e.g. OLLAMA_CONTEXT_LENGTH=32768 or a Modelfile "
          "`PARAMETER num_ctx 32768`)."),
         lambda f: [{**_session_params(d), "truncated_text": f"{d['truncated_at']:,}",
                     "turns_text": ", ".join(map(str, d["truncated_turns"]))}
                    for d in f.get("sessions", []) if d.get("truncated_at")]),
    Rule("CTX016", "outsized-turn", "ctx.sessions", I, CONTEXT,
         "One turn added an outsized amount of context",
         "In session {short_id}, turn {turn} added {added} tokens (median growth {median_growth} per turn). That material "
         "is resent with every later request.",
         ("Ask such side questions in a separate session, or start a new session after a large tool output.",),
         lambda f: [{**o, "short_id": d["short_id"], "median_growth": int(d["median_growth"] or 0)}
                    for d in f.get("sessions", []) for o in d["outsized"][:3]]),
    Rule("CTX017", "compaction-never-fired", "ctx.sessions", W, CONTEXT,
         "Auto-compaction could not fire before the failure",
         "Session {short_id} overflowed at {peak_text} tokens, but Codex only compacts at about {compact_text} tokens "
         "(90% of the window it assumes): the provider's limit came first.",
         ("Set model_context_window (and model_auto_compact_token_limit) below the provider's real window at the top level "
          "of {user_config}; `codexdoctor probe` measures it.",),
         # Said once per cause: CTX014 covers a group's sessions, CTX026 a truncated one.
         lambda f: [_session_params(d) for d in f.get("sessions", [])
                    if d["kind"] == "context" and not d["compaction_would_fire"] and d["compact_at"]
                    and not d.get("in_cluster") and not d.get("truncated_at")]),
    Rule("CTX018", "unreadable-log-lines", "ctx.sessions", I, CONTEXT,
         "Some log lines could not be read",
         "{unreadable_lines:count:line} were half-written, corrupted, overlong or not UTF-8 and were skipped; the rest was read.",
         ("Nothing to do unless a session you care about is affected; Codex may still be writing the newest log.",),
         once(lambda f: f.get("unreadable_lines", 0) > 0)),
    Rule("CTX019", "prefix-cache-collapsed", "ctx.sessions", W, CONTEXT,
         "The prefix cache stopped working mid-session",
         "In session {short_id}, the share of input served from the provider's cache fell from {before_pct} to {after_pct} at "
         "turn {turn} while the context kept growing ({context} tokens): the start of the request changed (edited "
         "instructions, a new tool set or a model switch), so every later turn is computed from scratch.",
         ("Keep the start of a session stable: same instructions, same tools, same model.",
          "If you need different instructions, start a new session rather than rewriting the current one."),
         lambda f: [{**d["cache"]["collapse"], "short_id": d["short_id"], "before_pct": f"{d['cache']['collapse']['before']:.0%}",
                     "after_pct": f"{d['cache']['collapse']['after']:.0%}"}
                    for d in f.get("sessions", []) if d["cache"]["collapse"]]),
    Rule("CTX020", "late-turns-uncached", "ctx.sessions", W, CONTEXT,
         "Late turns are mostly uncached",
         "In session {short_id}, only {late_pct} of the input of the last third of the turns came from the provider's "
         "cache: each turn re-reads the whole history, and time to first token grows turn after turn.",
         ("Split long sessions sooner; keep the session's start identical across turns.",
          "On a self-hosted server, enable prefix caching (vLLM: --enable-prefix-caching; llama.cpp server: --cache-reuse N)."),
         lambda f: [{"short_id": d["short_id"], "late_pct": f"{d['cache']['late_share']:.0%}"}
                    for d in f.get("sessions", []) if d["cache"]["late_uncached"]]),
    Rule("CTX021", "context-exhausted-message", "ctx.pasted", E, CONTEXT,
         "The request exceeded the model's context window",
         "{said_text} If it happens early in a session, the provider's window is smaller than the one Codex assumes "
         "and Codex does not compact in time.",
         ("Start a new session (or /compact) and carry a short summary instead of the history.",
          "{window_step}"),
         lambda f: [_pasted_context_params(f)] if f.get("kind") == "context" else []),
    Rule("CTX022", "prefix-cache-not-working", "ctx.probe", W, CONTEXT,
         "The provider does not reuse the conversation prefix",
         "The same {prefix_tokens}-token prefix sent twice came back with {repeat_cached} cached tokens the second time "
         "(first token {first_ttft} then {repeat_ttft}). Without prefix caching every turn re-reads the whole history, so "
         "time to first token grows with every question.",
         ("Split long sessions sooner and carry a short summary; keep the session's start (instructions, tools) unchanged.",
          "{server_step}"),
         lambda f: [_cache_params(f)] if f.get("cache_verdict") == "not working" else []),
    Rule("CTX023", "prefix-cache-not-reported", "ctx.probe", I, CONTEXT,
         "The provider does not report cached tokens",
         "The provider's usage has no cached_tokens field, so whether it reuses the prefix cannot be read directly "
         "(first token {first_ttft} for a new prefix, {repeat_ttft} when repeated).",
         ("Keep the start of each session stable so a cache, if there is one, can match it.",),
         lambda f: [_cache_params(f)] if f.get("cache_verdict") == "not reported" else []),
    Rule("CTX003", "single-question-overflows", "api.canary", E, CONTEXT,
         "Even a one-line request overflows the window",
         "POST {url} answered {status}: {message}. A tiny request exceeds the context window, so every Codex turn will fail.",
         ("Serve the model with a larger context window (at least 16,384 tokens for Codex), then set model_context_window in {user_config}.",),
         once(lambda f: f["kind"] == "context_exceeded" and (not f.get("codex_shaped") or f.get("minimal_kind") == "context_exceeded"))),
    Rule("CTX024", "first-request-overflows", "api.canary", E, CONTEXT,
         "Codex's first request does not fit the window",
         "POST {url} with Codex's own first request ({first_request} tokens: {first_text}) answered {status}: {message}.{minimal_text} "
         "The first turn of every Codex session fails this way.",
         ("Serve the model with a larger context window: more than {min_usable_text}, 32,768 to leave room for a session "
          "(llama.cpp `-c 32768`, vLLM `--max-model-len 32768`, Ollama `num_ctx`).",
          "{docs_step}"),
         once(lambda f: f["kind"] == "context_exceeded" and bool(f.get("codex_shaped")) and f.get("minimal_kind") != "context_exceeded"),
         "Codex 0.171 sends about 8,500 tokens of instructions and tool schemas before the user's words, plus every "
         "AGENTS.md file it finds; a one-line test passes where this fails.",
         settled_by=("ctx.window", lambda f: f.get("served") is not None and f["served"] < f["min_usable"])),
)

RULES_BY_CODE: dict[str, Rule] = {r.code: r for r in RULES}


NO_URL_IN_PASTE = "(no URL in the paste)"


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


# Fact values that are English phrases produced by checks; in Chinese they go through the phrase table.
PHRASE_KEYS = ("source", "detail", "assumed_source", "malformed", "evidence", "base_url_where", "url")


def fmt(template: str, values: Mapping[str, Any], lang: str = "en") -> str:
    if values.get("url") == NO_URL_IN_PASTE:  # a pasted error without a URL: never "POST (no URL…) answered"
        template = template.replace("POST {url} ", "请求").replace("POST {url}", "请求") if lang == "zh" else \
            template.replace("POST {url}", "The request")
    resolved = {k: (v.get(lang) if isinstance(v, Loc) else v) for k, v in values.items()}
    if isinstance(resolved.get("message"), str):
        resolved["message"] = resolved["message"].rstrip(" .。")  # templates end the sentence themselves
    if lang != "en":
        from codexdoctor.i18n import localize

        for key in PHRASE_KEYS:
            if isinstance(resolved.get(key), str):
                resolved[key] = localize(resolved[key], lang)
    return _ProseFormatter().vformat(template, (), _Blank(resolved))


class _ProseFormatter(string.Formatter):
    """Numbers in prose get thousands separators (`{served}` -> 4,096); `{served:d}` keeps a config value bare
    (model_context_window = 4096); `{attempts:count:attempt}` writes "1 attempt" / "4 attempts"."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("count:") and isinstance(value, int):
            from codexdoctor.common.words import plural

            singular, _, many = format_spec[len("count:"):].partition("|")
            return plural(value, singular, many or None)
        if format_spec.startswith("count:"):
            return str(value)
        if not format_spec and isinstance(value, int) and not isinstance(value, bool):
            return f"{value:,}"
        return super().format_field(value, format_spec)


STOPPED_WORDS = {"budget": Loc("at the budget", "在预算处"), "deadline": Loc("at the deadline", "在时限处"),
                 "interrupted": Loc("by Ctrl-C", "因 Ctrl-C 而")}


_REMEMBERED_SUFFIX = re.compile(r"[-_@.:](?:\d{4}-?\d{2}-?\d{2}|\d{4,}|latest|preview)$", re.I)


def _model_id_step(f: Mapping[str, Any]) -> Loc:
    """The catalog holds the configured ID minus a remembered date suffix: name the ID to set, ready to copy."""
    model = str(f.get("model") or "")
    for cand in f.get("catalog_closest") or []:
        if model.startswith(cand) and _REMEMBERED_SUFFIX.fullmatch(model[len(cand):]):
            return Loc(f"The catalog lists \"{cand}\" without the suffix \"{model[len(cand):]}\": in "
                       f"{f.get('model_origin')}, set model = \"{cand}\"",
                       f"模型列表里是不带后缀 \"{model[len(cand):]}\" 的 \"{cand}\"：在 {f.get('model_origin')} 中设置 "
                       f"model = \"{cand}\"")
    return Loc("Copy the exact ID from the provider's model list (GET <base_url>/models or its console), without a "
               f"remembered date suffix, and set model = \"<id>\" in {f.get('model_origin')}.",
               "从提供方的模型列表（GET <base_url>/models 或控制台）复制准确的 ID，不要凭记忆加日期后缀，然后在 "
               f"{f.get('model_origin')} 中设置 model = \"<id>\"。")


def _working_why(f: Mapping[str, Any]) -> Loc:
    """Why the verified base_url differs: only the `?…` part, a prefix, or both."""
    configured = str(f.get("configured") or "")
    if configured != configured.rstrip() and configured.strip().rstrip("/") == str(f["working"]["base_url"]).rstrip("/"):
        return Loc(" The space at the end of base_url reaches the path as %20; without it the URL works.",
                   "base_url 末尾的空格会以 %20 进入路径；去掉它地址就能用。")
    bare = configured.split("#", 1)[0].split("?", 1)[0].rstrip("/")
    query = Loc(" The `?…` part of base_url breaks the URL: Codex appends /responses after it.",
                "base_url 里的 `?…` 部分会破坏地址：Codex 会把 /responses 接在它后面。")
    prefix = Loc(" This provider wants a different prefix (the /v1 question is decided per provider).",
                 "这个提供方要的是另一个前缀（是否带 /v1 因提供方而异）。")
    if bare == configured.rstrip("/"):
        return prefix
    if bare == str(f["working"]["base_url"]).rstrip("/"):
        return query
    return Loc(query.get("en") + prefix.get("en"), query.get("zh") + prefix.get("zh"))


def _num(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _ms(value: Any) -> str:
    return f"{value / 1000:.1f} s" if isinstance(value, (int, float)) and value >= 1000 else f"{value:.0f} ms" if isinstance(value, (int, float)) else "?"


def _commands(f: Mapping[str, Any]) -> dict[str, Any]:
    """Every command a remedy may show, in the syntax of the user's shell (from the facts the runner stamped)."""
    from codexdoctor.codex.authfile import is_var_name
    from codexdoctor.common.shells import Shell

    sh = Shell(f.get("shell") or "bash", f.get("platform") or "linux")
    key = Loc("<your key>", "<你的密钥>")
    both = lambda build: Loc(build(key.en), build(key.zh))  # noqa: E731
    out: dict[str, Any] = {
        "example_set_cmd": both(lambda k: sh.set_var("MYGATEWAY_API_KEY", k)),
        "login_cmd": sh.pipe_var_to("OPENAI_API_KEY", "codex login --with-api-key"),
        "unset_home_cmd": sh.unset_var("CODEX_HOME"), "set_home_cmd": sh.set_var("CODEX_HOME", sh.codex_home_display()),
        "ca_cmd": sh.set_var("CODEX_CA_CERTIFICATE", "/path/to/ca.pem"),
        "mkdir_cmd": sh.mkdir(str(f.get("codex_home") or sh.codex_home_display())),
    }
    var = f.get("env_key")
    if is_var_name(var):
        out.update(set_cmd=both(lambda k: sh.set_var(var, k)), persist_cmd=both(lambda k: sh.persist_var(var, k)),
                   strip_cmd=sh.strip_var(var), fp_cmd=sh.fingerprint_var(var), strip_bearer_cmd=sh.strip_bearer(var))
        if f.get("near_miss"):
            out["rename_cmd"] = sh.copy_var(var, f["near_miss"][0])
    if f.get("rc_hits"):
        out["reload_cmd"] = sh.reload(f["rc_hits"][0]["file"])
    return out


def _first_request_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """How Codex's first request is made up, and what the user can shrink (their AGENTS.md files)."""
    parts = f.get("first_parts") or []
    docs = f.get("docs") or []
    n = f.get("first_request")
    first_text = Loc(", ".join(f"{p['part']} {p['tokens']:,}" for p in parts) or "instructions plus tool schemas",
                     "，".join(f"{p['part']} {p['tokens']:,}" for p in parts) or "指令加工具定义")
    docs_text = ", ".join(f"{d['path']} {d['tokens']:,} tokens" for d in docs)
    minimal = f.get("minimal_kind")
    return {
        "first_request": f"{n:,}" if isinstance(n, int) else n,
        "first_text": first_text,
        # The server's own count beats ours: its tokenizer is the one the window is measured in.
        "min_usable_text": (Loc(f"{f['server_request']:,} tokens as this server counts them",
                                f"{f['server_request']:,} tokens（按该服务端的计数）")
                            if isinstance(f.get("server_request"), int) else f"{n:,} tokens" if isinstance(n, int) else "16,384 tokens"),
        "room_text": Loc(f" After Codex's first request ({n:,} tokens) only {f['room']:,} tokens are left for the session.",
                         f" 扣除 Codex 的第一个请求（{n:,} tokens）后，会话只剩 {f['room']:,} tokens。")
        if isinstance(n, int) and isinstance(f.get("room"), int) and f.get("first_counted") else "",
        "minimal_text": Loc(" A one-line request to the same URL passed, so the size is the cause.",
                            " 同一地址的一行请求可以通过，所以原因在于大小。") if minimal == "ok" else "",
        "docs_step": Loc(f"Your AGENTS.md files are part of it ({docs_text}): shorten them, or move detail into files Codex "
                         "reads only when needed.", f"你的 AGENTS.md 文件也在其中（{docs_text}）：精简它们，或把细节挪到 Codex 需要时才读取的文件里。")
        if docs else Loc("Codex's own instructions and tool schemas are most of it; they cannot be shortened from the config.",
                         "其中大部分是 Codex 自己的指令和工具定义，无法通过配置缩短。"),
    }


def _rejected_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """API017: the step depends on what was refused: a developer item is the gateway's translation, a field its filter."""
    field = f.get("field")
    if field and "developer" in field:
        step = Loc("A gateway that translates Responses to Chat Completions (LiteLLM with use_chat_completions_api, "
                   "one-api and similar) turns Codex's developer items into system messages whose content is a list of "
                   "parts; the backend behind it refuses them. Update the backend (llama.cpp's own llama-server accepts "
                   "them) or the gateway, or point base_url at a server that serves /responses itself.",
                   "把 Responses 转换成 Chat Completions 的网关（开启 use_chat_completions_api 的 LiteLLM、one-api 等）会把 "
                   "Codex 的 developer 消息变成内容为分段列表的 system 消息，而网关后面的服务端拒绝这种消息。请升级后端"
                   "（llama.cpp 自带的 llama-server 可以接受）或网关，或把 base_url 指向自己提供 /responses 的服务。")
    else:
        step = Loc("If a gateway sits in front (e.g. LiteLLM), let it drop parameters the model does not support "
                   "(LiteLLM: litellm_settings: drop_params: true) or update it; then run codexdoctor check again.",
                   "如果前面有网关（例如 LiteLLM），让它丢弃模型不支持的参数（LiteLLM：litellm_settings: drop_params: true）"
                   "或升级它；然后再运行 codexdoctor check。")
    return {"field_text": field or Loc("a field it did not name", "某个它没有指明的字段"), "field_step": step}


def _pasted_context_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """CTX021: say what the paste said (Codex's own words, or a server's raw error with its numbers), nothing more."""
    cfg = f.get("user_config") or "~/.codex/config.toml"
    window, size = f.get("server_window"), f.get("server_request")
    if f.get("codex_message"):
        said = Loc("Codex reports this when the provider rejects a request as too long (code context_length_exceeded).",
                   "当提供方以请求过长（code context_length_exceeded）拒绝请求时，Codex 会这样提示。")
    elif window and size:
        said = Loc(f"The provider's error says the request ({size:,} tokens) exceeds its window ({window:,} tokens); "
                   "Codex shows such errors raw.", f"提供方的报错说请求（{size:,} tokens）超出了它的窗口（{window:,} tokens）；Codex 会原样显示这类错误。")
    elif window:
        said = Loc(f"The provider's error says its window is {window:,} tokens and the request is longer.",
                   f"提供方的报错说它的窗口是 {window:,} tokens，而请求更长。")
    else:
        said = Loc("The provider's error says the request is longer than the model's context window.",
                   "提供方的报错说请求超出了模型的上下文窗口。")
    if window and window < CODEX_FIRST_REQUEST_TOKENS:
        step = Loc(f"A {window:,}-token window cannot hold Codex's first request (about {CODEX_FIRST_REQUEST_TOKENS:,} tokens "
                   "of instructions and tool schemas): serve the model with a larger window, 32,768 to leave room for a "
                   "session (llama.cpp `-c 32768`, vLLM `--max-model-len 32768`, Ollama `num_ctx`).",
                   f"{window:,} tokens 的窗口放不下 Codex 的第一个请求（约 {CODEX_FIRST_REQUEST_TOKENS:,} tokens 的指令和工具定义）："
                   "请用更大的窗口部署模型，32,768 才能给会话留出空间（llama.cpp `-c 32768`、vLLM `--max-model-len 32768`、Ollama `num_ctx`）。")
    elif window:
        step = Loc(f"Tell Codex the real window at the top level of {cfg}: model_context_window = {window} and "
                   f"model_auto_compact_token_limit = {int(window * 0.8)}.",
                   f"在 {cfg} 顶层告诉 Codex 真实窗口：model_context_window = {window}，model_auto_compact_token_limit = {int(window * 0.8)}。")
    else:
        step = Loc(f"Measure the provider's real window with `codexdoctor probe`, then set model_context_window (and "
                   f"model_auto_compact_token_limit) below it at the top level of {cfg}.",
                   f"用 `codexdoctor probe` 测出提供方的真实窗口，然后在 {cfg} 顶层把 model_context_window（以及 "
                   "model_auto_compact_token_limit）设到它以下。")
    return {"said_text": said, "window_step": step}


def _path_params(f: Mapping[str, Any]) -> dict[str, Any]:
    """API016: a URL with /v1 twice (or /responses twice) names its own fix."""
    fixed = f.get("doubled_fix")
    if fixed:
        return {"doubled_text": Loc(f" The URL has {f['doubled']} twice: base_url already ends in it.",
                                    f" 这个地址里 {f['doubled']} 出现了两次：base_url 本身已经以它结尾。"),
                "path_step": Loc(f"Set base_url = \"{fixed}\" ({f.get('base_url_where')}), so that Codex calls {fixed}/responses.",
                                 f"设置 base_url = \"{fixed}\"（{f.get('base_url_where')}），让 Codex 请求 {fixed}/responses。")}
    return {"doubled_text": "",
            "path_step": Loc("Run `codexdoctor check`: it tries the base_url variants (with and without /v1) and names the one that works.",
                             "运行 `codexdoctor check`：它会尝试 base_url 的各种变体（带或不带 /v1），并给出可用的那个。")}


def _derived(facts: Mapping[str, Any]) -> dict[str, Any]:
    extra: dict[str, Any] = _commands(facts)
    if "baseline_ttft_ms" in facts:
        extra.update(baseline_text=_ms(facts.get("baseline_ttft_ms")), largest_ttft_text=_ms(facts.get("largest_ttft_ms")),
                     longest_stall_text=_ms(facts.get("longest_stall_ms")),
                     turns_text=str(facts["turns_per_session"]) if facts.get("turns_per_session") else Loc("few", "几"))
    if "available" in facts:
        extra["available_text"] = ", ".join(facts["available"]) or Loc("none", "无")
    if "codex_version" in facts:
        extra["version_text"] = _version_text(facts)
    if "first_request" in facts:
        extra.update(_first_request_params(facts))
    if facts.get("kind") == "path_not_found":
        extra.update(_path_params(facts))
    return extra


def texts(rule: Rule, lang: str) -> tuple[str, str, tuple[str, ...]]:
    """(title, diagnosis, remedy) templates of a rule in a language."""
    if lang == "zh":
        from codexdoctor.i18n.zh_rules import ZH

        if rule.code in ZH:
            return ZH[rule.code]
    return rule.title, rule.diagnosis, rule.remedy


def evaluate(results: Iterable[CheckResult], rules: Iterable[Rule] = RULES, lang: str = "en") -> list[Finding]:
    """Apply the catalog to check results. Skipped and crashed checks fire nothing."""
    by_id = {r.id: r for r in results}
    findings: list[Finding] = []
    for rule in rules:
        res = by_id.get(rule.check)
        if res is None or res.status in (Status.SKIP, Status.CRASH):
            continue
        if any(by_id.get(cid) is not None and by_id[cid].status not in (Status.SKIP, Status.CRASH) and pred(by_id[cid].facts)
               for cid, pred in settlers(rule)):
            continue
        title, diagnosis, remedy = texts(rule, lang)
        for params in rule.when(res.facts):
            values = {**res.facts, **_derived(res.facts), **params}
            findings.append(Finding(
                code=rule.code, severity=rule.severity, verdict=rule.verdict,
                title=fmt(title, values, lang), diagnosis=fmt(diagnosis, values, lang),
                remedy=tuple(fmt(step, values, lang) for step in remedy),
                checks=(res.id,), evidence=res.evidence, references=rule.references,
            ))
    return findings
