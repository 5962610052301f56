"""The URL of `report`'s curl: the URL Codex builds, pasteable, and never a secret (issue 40 review).

A secret in Codex's URL (`base_url = "…/v1?key=…"`, `query_params = { api-version = "…" }`) is shown in the report
as a redaction mark, which a shell would send as it stands. In the curl each mark becomes a reference to a variable
in the user's shell: the provider's env_key when the secret is that variable's value, else a variable named here
(`URL_SECRET_1`, …) that a comment above the command tells the user to set, with the secret's length and
fingerprint so they can tell which value it is. common/redact.py knows these references for what they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from codexdoctor.common.redact import fingerprint
from codexdoctor.model import Msg

# A mark the redactor leaves in a URL: a known secret's, or `***` for a value secret by its parameter's name.
_MARK = re.compile(r"<redacted (?P<fp>\d+ chars, sha256:[0-9a-f]{8})>|\*\*\*")
_PARAM = re.compile(r"[?&](?P<name>[^?&=/]*)=$")


@dataclass(frozen=True)
class UrlSecret:
    """A variable the user sets before running the curl: the value of `param=` in the URL."""

    variable: str
    param: str
    fingerprint: str  # `30 chars, sha256:9300949c`, or "" for a value masked by its name alone

    def said(self) -> Msg:
        return Msg(
            "set {var} first: the value of {param}= in the request URL{fp}",
            "先设置 {var}：请求地址中 {param}= 的值{fp}",
            var=self.variable,
            param=self.param or "?",
            fp=Msg(" ({f})", "（{f}）", f=_fingerprint_words(self.fingerprint)) if self.fingerprint else "",
        )


def _fingerprint_words(fp: str) -> Msg:
    n, _, digest = fp.partition(" chars, ")
    return Msg("{n} chars, {d}", "{n} 个字符，{d}", n=n, d=digest)


def reference(shell: str, variable: str, after: str = "") -> str:
    """The variable as the shell expands it inside a double-quoted URL, the text `after` it no part of its name:
    braced where the shell can (fish expands braces only outside quotes: there `""` ends the name if need be)."""
    if shell == "fish":
        return f"${variable}" + ('""' if after[:1].isalnum() or after[:1] == "_" else "")
    return {"powershell": f"${{env:{variable}}}", "cmd": f"%{variable}%"}.get(shell, f"${{{variable}}}")


def pasteable_url(
    url: str, redact: Callable[[str], str], shell: str, env_key: str | None, key: str | None
) -> tuple[str, tuple[UrlSecret, ...]]:
    """Codex's URL redacted, each mark a variable's reference, and the variables the user must set. Redacted again
    until nothing changes (a mark cuts the redactor's URL match short: what follows it is judged once the mark is a
    reference); whatever is still left is redacted by the ticket's own last pass."""
    url = redact(url)
    secrets: tuple[UrlSecret, ...] = ()
    for _ in range(3):
        url, more = url_with_variables(url, shell, env_key, key, first=len(secrets) + 1)
        secrets += more
        again = redact(url)
        if again == url:
            break
        url = again
    return url, secrets


def url_with_variables(
    url: str, shell: str, env_key: str | None, key: str | None, first: int = 1
) -> tuple[str, tuple[UrlSecret, ...]]:
    """The redacted URL with each mark replaced by a variable's reference, and the variables the user must set.

    `key` is env_key's value: a mark of it becomes `env_key`'s reference (the same secret, the same mark)."""
    key_fp = fingerprint(key) if env_key and key else None
    named: dict[str, UrlSecret] = {}
    out: list[str] = []
    last = 0
    for m in _MARK.finditer(url):
        fp = m.group("fp") or ""
        param = _PARAM.search(url, 0, m.start())
        if fp and fp == key_fp and env_key:
            variable = env_key
        else:
            found = named.get(fp) if fp else None
            if found is None:
                found = UrlSecret(f"URL_SECRET_{len(named) + first}", param.group("name") if param else "", fp)
                named[fp or f"***{m.start()}"] = found
            variable = found.variable
        out += (url[last : m.start()], reference(shell, variable, url[m.end() :]))
        last = m.end()
    out.append(url[last:])
    return "".join(out), tuple(named.values())


def comment_lines(shell: str, secrets: tuple[UrlSecret, ...], lang: str) -> list[str]:
    """One comment line a variable, above the command: what to set it to, never the value."""
    lead = "REM " if shell == "cmd" else "# "
    return [lead + s.said().text(lang) for s in secrets]


def curl_command(shell: str, url: str, env_key: str | None, body_file: str, headers: Mapping[str, str]) -> str:
    """The canary as the user's shell writes a curl call: the key by its variable, other headers as configured
    (their values already redacted by the caller)."""
    ref = {"powershell": f"$env:{env_key}", "cmd": f"%{env_key}%"}.get(shell, f"${env_key}") if env_key else None
    exe = "curl.exe" if shell in ("powershell", "cmd") else "curl"
    cont = {"powershell": " `", "cmd": " ^"}.get(shell, " \\")
    parts = [f'{exe} -sS -N "{url}"', '-H "Content-Type: application/json"', '-H "Accept: text/event-stream"']
    if ref:
        parts.append(f'-H "Authorization: Bearer {ref}"')
    parts += [f'-H "{k}: {v}"' for k, v in headers.items() if k.lower() not in ("authorization", "content-type")]
    parts.append(f'--data "@{body_file}"')
    return (cont + "\n  ").join(parts)
