"""How Codex is pointed at the recorder for one run, without touching a file: the key Codex 0.171 reads for its
active provider's URL (codex-rs/model-provider-info), given as one `-c` (or, for the open-source providers, the
variable Codex reads instead).

- a `[model_providers.<id>]` table: `-c model_providers.<id>.base_url="…"` (a `-c` value is TOML, dotted keys nest);
- the built-in `openai`: `-c openai_base_url="…"` (built-in providers cannot be redefined, and their base_url comes
  from this top-level key);
- the built-in `ollama` and `lmstudio`: the variable `CODEX_OSS_BASE_URL` (their base_url is read from it);
- `amazon-bedrock` signs each request for its host (SigV4): a recorder in between would break the signature.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from codexdoctor.codex.config import DEFAULT_OPENAI_BASE_URL, Resolution
from codexdoctor.model import Msg

BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")  # a TOML bare key: Codex splits `-c` keys on dots, no quoting
OSS = ("ollama", "lmstudio")


@dataclass(frozen=True)
class Pointing:
    """Where the provider really is, and how to send Codex to the recorder instead (or why it cannot be)."""

    upstream: str | None  # the real base_url
    config_key: str | None = None  # the `-c` key, e.g. model_providers.gw.base_url
    env_var: str | None = None  # or the variable to set in Codex's environment
    problem: Msg | None = None  # why Codex cannot be watched (it then runs direct)
    extra_env: Mapping[str, str] = field(default_factory=dict)

    def override(self, recorder_url: str) -> str | None:
        """The `-c` argument: key=TOML string."""
        return f"{self.config_key}={json.dumps(recorder_url)}" if self.config_key else None


# 72 lines: one flat list of the reasons a provider cannot be recorded, each with its words, in the order they apply.
def pointing(resolution: Resolution) -> Pointing:
    """The active provider (resolved exactly as `codexdoctor check` resolves it), and the key Codex reads its URL from."""
    if resolution.unusable:
        return Pointing(
            None,
            problem=Msg(
                "Codex's config cannot be read (run `codexdoctor check`)",
                "无法读取 Codex 的配置（请运行 `codexdoctor check`）",
            ),
        )
    provider = resolution.provider
    if not provider.defined:
        return Pointing(
            None,
            problem=Msg(
                "model_provider `{id}` names no provider table (run `codexdoctor check`)",
                "model_provider `{id}` 没有对应的提供方表（请运行 `codexdoctor check`）",
                id=provider.id,
            ),
        )
    base = provider.base_url if provider.base_url is not None else DEFAULT_OPENAI_BASE_URL
    if provider.id in OSS and provider.builtin:
        base = resolution.env.get("CODEX_OSS_BASE_URL", "").strip() or base
    if not isinstance(base, str) or not base.strip():
        return Pointing(
            None,
            problem=Msg(
                "the provider has no usable base_url (run `codexdoctor check`)",
                "提供方没有可用的 base_url（请运行 `codexdoctor check`）",
            ),
        )
    base = base.lstrip()  # Codex drops leading whitespace
    if not base.lower().startswith(("http://", "https://")):
        return Pointing(
            None,
            problem=Msg(
                "base_url is not an http(s) URL (run `codexdoctor check`)",
                "base_url 不是 http(s) URL（请运行 `codexdoctor check`）",
            ),
        )
    if provider.builtin and not provider.redefines_builtin:
        if provider.id == "openai":
            return Pointing(base, config_key="openai_base_url")
        if provider.id in OSS:
            return Pointing(base, env_var="CODEX_OSS_BASE_URL")
        return Pointing(
            base,
            problem=Msg(
                "the built-in provider `{id}` cannot be sent through a recorder",
                "内置提供方 `{id}` 的请求不能经过记录器",
                id=provider.id,
            ),
        )
    if provider.builtin:
        return Pointing(
            None,
            problem=Msg(
                "[model_providers.{id}] redefines a built-in provider (CFG005)",
                "[model_providers.{id}] 重新定义了内置提供方（CFG005）",
                id=provider.id,
            ),
        )
    if not BARE_KEY.match(provider.id):
        return Pointing(
            base,
            problem=Msg(
                "the provider id `{id}` cannot be named in a `-c` key",
                "提供方 ID `{id}` 无法写进 `-c` 的键里",
                id=provider.id,
            ),
        )
    return Pointing(base, config_key=f"model_providers.{provider.id}.base_url")


def no_proxy_for_loopback(env: Mapping[str, str]) -> dict[str, str]:
    """Codex 0.171 sends even 127.0.0.1 through HTTP_PROXY / ALL_PROXY unless NO_PROXY names it (codex-facts §12):
    the child's NO_PROXY gains 127.0.0.1 when a proxy variable is set, so it reaches the recorder directly (the
    recorder itself still uses the user's proxy for the provider, as Codex would)."""
    names = {k.lower() for k, v in env.items() if v}
    if not names & {"http_proxy", "https_proxy", "all_proxy"}:
        return {}
    out = {}
    for var in ("NO_PROXY", "no_proxy"):
        current = env.get(var, "")
        if "127.0.0.1" not in [h.strip() for h in current.split(",")]:
            out[var] = ",".join(x for x in (current.strip(), "127.0.0.1") if x)
    return out
