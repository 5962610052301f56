"""What every rule family is made of: the Rule, Text and Loc types, the firing helpers, shell commands for remedies."""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from codexdoctor.model import Severity, Verdict

if TYPE_CHECKING:
    from codexdoctor.common.shells import Shell

Params = Mapping[str, Any]
When = Callable[[Mapping[str, Any]], Iterable[Params]]
E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741 - the catalog's short names: E, W, I
CONFIG, CHANNEL, CONTEXT = Verdict.CONFIG, Verdict.CHANNEL, Verdict.CONTEXT
CODE_RE = re.compile(r"^(CFG|ENV|URL|NET|AUTH|API|MODEL|CTX)\d{3}$")


MINIMAL_CONFIG = """model = "<model id from your provider's catalog>"
model_provider = "mygateway"

[model_providers.mygateway]
name = "My gateway"
base_url = "https://<your provider's API base URL, as its Codex docs give it>"
env_key = "MYGATEWAY_API_KEY"
wire_api = "responses\""""
MINIMAL_CONFIG_ZH = """model = "<提供方模型列表里的模型 ID>"
model_provider = "mygateway"

[model_providers.mygateway]
name = "我的网关"
base_url = "https://<提供方 Codex 文档给出的 API 地址>"
env_key = "MYGATEWAY_API_KEY"
wire_api = "responses\""""


@dataclass(frozen=True, kw_only=True)
class Text:
    """What a rule tells the user, in one language: templates whose `{placeholders}` are filled from the facts."""

    title: str
    diagnosis: str
    remedy: tuple[str, ...]
    explanation: str = ""  # why it happens, for `explain` and docs/rules.md (written in English only)


@dataclass(frozen=True, kw_only=True)
class Rule:
    """One catalog entry: which check's facts it reads, when it fires, and what it tells the user to change,
    in English and Chinese side by side."""

    code: str
    name: str
    check: str  # id of the check whose facts it reads
    # The facts its `when`, its settlers and its texts read: keys of `check`'s facts, "check.id:key" for another
    # check's, and for a DERIVED value in its texts the facts that value is made from (tests/rules/test_contract.py).
    reads: tuple[str, ...]
    severity: Severity
    verdict: Verdict
    en: Text
    zh: Text  # the same placeholders as `en`, step for step (tests/test_i18n.py)
    when: When
    references: tuple[str, ...] = ()
    # (check id, predicate): the rule stays silent when that check ran and the predicate holds,
    # e.g. a static guess that a live check has since settled.
    settled_by: Any = None  # (check id, predicate) or a tuple of them: a live result that makes this finding moot
    # The findings that explain this one when they fire too: a code, or (code, predicate over every check's facts,
    # keyed by check id) when only some of that code's instances are the cause. The consequence is then folded under
    # its cause ("this is why"), not listed as a cause of its own (docs/findings.md).
    explained_by: tuple[Any, ...] = ()
    # Other checks whose failed row this finding is the reason for (issue 40: every `[✗]` line has a finding below
    # it): a canary that 404s is explained by API001 at the variants, not by a finding of its own. They join the
    # finding's checks when they failed, so every format ties the row to its reason.
    covers: tuple[str, ...] = ()

    def text(self, lang: str) -> Text:
        """The rule's texts in a language (Chinese for zh, English otherwise)."""
        return self.zh if lang == "zh" else self.en

    def placeholders(self) -> set[str]:
        names = set()
        for text in (self.en.title, self.en.diagnosis, *self.en.remedy):
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

    def __add__(self, other: Loc) -> Loc:
        """Two sentences in both languages, one after the other."""
        return Loc(self.en + other.en, self.zh + other.zh)


def in_order(order: tuple[str, ...], *themes: tuple[Rule, ...]) -> tuple[Rule, ...]:
    """A family's rules, gathered from its theme modules, in the order the catalog lists them. A code missing from
    the order, or listed twice, stops the import: the author hears of it at once."""
    by_code = {r.code: r for rules in themes for r in rules}
    if len(by_code) != sum(map(len, themes)) or len(set(order)) != len(order) or set(order) != set(by_code):
        raise ValueError(f"ORDER and the theme modules disagree: {sorted(set(order) ^ set(by_code))}")
    return tuple(by_code[code] for code in order)


def causes(rule: Rule) -> tuple[tuple[str, Callable[[Mapping[str, Mapping[str, Any]]], bool]], ...]:
    """A rule's causes as (code, predicate over the facts of every check) pairs."""
    return tuple((c, lambda _facts: True) if isinstance(c, str) else c for c in rule.explained_by)


def settlers(rule: Rule) -> tuple[tuple[str, Callable[[Mapping[str, Any]], bool]], ...]:
    """A rule's settlers: one (check, predicate) pair or several."""
    if rule.settled_by is None:
        return ()
    return rule.settled_by if isinstance(rule.settled_by[0], tuple) else (rule.settled_by,)


def once(pred: Callable[[Mapping[str, Any]], object]) -> When:
    """Fire once, with the check's facts, when pred holds (any truthy value: facts are JSON, not bools)."""
    return lambda f: [{}] if pred(f) else []


def each(key: str, pred: Callable[[Mapping[str, Any]], bool] = lambda item: True) -> When:
    """Fire once per item of a list fact."""
    return lambda f: [dict(item) for item in f.get(key) or [] if pred(item)]


def user_shell(f: Mapping[str, Any]) -> Shell:
    """The user's shell, from the facts the runner stamped (bash on Linux when a result has none)."""
    from codexdoctor.common.shells import Shell

    return Shell(f.get("shell") or "bash", f.get("platform") or "linux")


def ca_cmd(f: Mapping[str, Any]) -> str:
    """Point Codex at a CA file: the one a variable Codex ignores names, or a placeholder."""
    return user_shell(f).set_var("CODEX_CA_CERTIFICATE", f.get("ignored_ca_file") or "/path/to/ca.pem")


def mkdir_home_cmd(f: Mapping[str, Any]) -> str:
    """Create the Codex home the facts name (or the default one)."""
    sh = user_shell(f)
    return sh.mkdir(str(f.get("codex_home") or sh.codex_home_display()))


def shell_commands(f: Mapping[str, Any]) -> dict[str, Any]:
    """Every command a remedy may show, in the syntax of the user's shell (from the facts the runner stamped)."""
    from codexdoctor.codex.authfile import is_var_name

    sh = user_shell(f)
    key = Loc("<your key>", "<你的密钥>")

    def both(build: Callable[[str], str]) -> Loc:
        return Loc(build(key.en), build(key.zh))

    out: dict[str, Any] = {
        "example_set_cmd": both(lambda k: sh.set_var("MYGATEWAY_API_KEY", k)),
        "login_cmd": sh.pipe_var_to("OPENAI_API_KEY", "codex login --with-api-key"),
        "codex_api_key_login_cmd": sh.pipe_var_to("CODEX_API_KEY", "codex login --with-api-key"),
        "unset_home_cmd": sh.unset_var("CODEX_HOME"),
        "set_home_cmd": sh.set_var("CODEX_HOME", sh.codex_home_display()),
        "ca_cmd": ca_cmd(f),
        "no_proxy_cmd": sh.set_var("NO_PROXY", str(f.get("no_proxy_value") or "<the provider's host>")),
        "mkdir_cmd": mkdir_home_cmd(f),
    }
    gateway = f.get("gateway_provider")
    if gateway == "openai":  # a redefined built-in table, which Codex ignores (CFG005): it needs a name of its own
        out["gateway_step"] = Loc(
            "rename [model_providers.openai] to a name of your own, such as "
            '[model_providers.gateway], and set model_provider = "gateway" at the top of config.toml.',
            "把 [model_providers.openai] 改成你自己的名字，例如 [model_providers.gateway]，"
            '并在 config.toml 顶层设置 model_provider = "gateway"。',
        )
    elif gateway:
        out["gateway_step"] = Loc(
            f'set model_provider = "{gateway}" at the top of config.toml.',
            f'在 config.toml 顶层设置 model_provider = "{gateway}"。',
        )
    else:
        out["gateway_step"] = Loc(
            'add a [model_providers.<name>] table with its base_url and env_key = "OPENAI_API_KEY", '
            'and set model_provider = "<name>" (see `codexdoctor explain CFG001`).',
            '添加一个 [model_providers.<名称>] 表，写上它的 base_url 和 env_key = "OPENAI_API_KEY"，'
            '并设置 model_provider = "<名称>"（见 `codexdoctor explain CFG001`）。',
        )
    var = f.get("env_key")
    if isinstance(var, str) and is_var_name(var):
        out.update(
            set_cmd=both(lambda k: sh.set_var(var, k)),
            persist_cmd=both(lambda k: sh.persist_var(var, k)),
            fp_cmd=sh.fingerprint_var(var),
        )
        # A key with both white space and a `Bearer ` prefix (ENV005 and ENV007) gets one command in both findings,
        # which drops the prefix before the white space: either order of the two, or both, leave the bare key.
        problems = f.get("problems") or ()
        bearer = "bearer prefix" in problems
        spaces = any("whitespace" in p or p == "newline" for p in problems)
        out["strip_cmd"] = sh.strip_key(var) if bearer else sh.strip_var(var)
        out["strip_bearer_cmd"] = sh.strip_key(var) if spaces else sh.strip_bearer(var)
        if f.get("near_miss"):
            out["rename_cmd"] = sh.copy_var(var, f["near_miss"][0])
    if f.get("rc_hits"):
        out["reload_cmd"] = sh.reload(f["rc_hits"][0]["file"])
    return out
