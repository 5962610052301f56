"""net.reach: did Codex's request get through to the provider at all (proxy, certificate, redirect, DNS, refusal)?"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from codexdoctor.checks.base import CheckContext, result
from codexdoctor.checks.live.exchanges import Clocks, Exchanges
from codexdoctor.checks.live.read import human, no_first_token
from codexdoctor.model import CheckResult, Msg, Status

if TYPE_CHECKING:
    from codexdoctor.checks.live.plan import Plan
    from codexdoctor.net.exchange import Exchange

ID = "net.reach"
TITLE = "Reachability"
TITLE_ZH = "连通性"


def interpret(ctx: CheckContext, plan: Plan, ex: Exchanges) -> CheckResult:
    return reach_result(ctx, plan, ex.catalog, ex.canary, ex.clocks)


def reach_result(
    ctx: CheckContext, plan: Plan, catalog: Exchange, canary: Exchange | None, clocks: Clocks
) -> CheckResult:
    """The request Codex makes decides: a catalog that answers does not help if the canary cannot get through."""
    from codexdoctor.net.client import proxy_for  # loaded already: the exchanges came through it

    first = canary or catalog
    exchanges = [x for x in (canary, catalog) if x is not None]
    proxy = proxy_for(plan.request_url, ctx.env)
    waited = clocks.waited_for_alive if canary is not None else None
    facts = _facts(ctx, plan, first, waited, clocks.first_token_timeout_s)
    evidence = [x.line() for x in exchanges]
    if proxy:
        evidence.append(Msg("via proxy {proxy}", "经由代理 {proxy}", proxy=ctx.redactor(proxy)))
    answered = [x for x in exchanges if x.status is not None]
    redirect = next((x for x in exchanges if x.failure == "redirect"), None)
    if redirect:
        facts.update(redirect=redirect.location, failure="redirect")
        said = Msg("redirected to {url}", "被重定向到 {url}", url=str(redirect.location))
        return result(ID, TITLE, Status.FAIL, said, evidence, **facts)
    failed = _proxy_failure(ctx, plan, first, proxy) or _certificate_failure(exchanges)
    if failed is not None:
        failed_facts, said = failed
        return _failed(said, evidence, {**facts, **failed_facts})
    if waited and first is canary and no_first_token(first) and answered:
        return _reached_but_slow(first, answered, evidence, facts)
    if first.failure and (first.status is None or first.failure != "redirect"):
        facts.update(failure=first.failure, url=first.url)
        return _failed(human(first.failure, first.failure_said), evidence, facts, first.failure_said)
    if not answered:
        failure = first.failure or "protocol"
        facts.update(failure=failure)
        return _failed(human(failure, first.failure_said), evidence, facts, first.failure_said)
    html_home = all(x.is_html for x in answered)
    facts["html"] = html_home
    status = Status.WARN if html_home else Status.PASS
    summary = (
        Msg("an HTML site answers, not an API", "返回的是 HTML 网页，不是 API")
        if html_home
        else Msg("answered in {ms:,.0f} ms", "{ms:,.0f} ms 内响应", ms=min(x.elapsed_ms for x in answered))
    )
    return result(ID, TITLE, status, summary, evidence, **facts)


def _reached_but_slow(
    canary: Exchange, answered: list[Exchange], evidence: list[Msg], facts: dict[str, Any]
) -> CheckResult:
    """The host answered the other requests; only Codex's own request had no first token by --first-token-timeout.
    It was reached: the slow first token is the canary's finding (NET010), not a timeout here (issue 40 review)."""
    said = Msg(
        "answered in {ms:,.0f} ms; Codex's request had no first token in time (see the canary)",
        "{ms:,.0f} ms 内响应；Codex 的请求没有及时返回第一个 token（见探测请求）",
        ms=min(x.elapsed_ms for x in answered),
    )
    return result(ID, TITLE, Status.PASS, said, evidence, **{**facts, "url": canary.url})


def _failed(said: Msg, evidence: list[Msg], facts: dict[str, Any], detail: Msg | None | bool = True) -> CheckResult:
    """A failed reach: `said` is the row, and the `detail` fact the NET rules quote (the row's words, unless another
    detail is given: None for none)."""
    words = said if detail is True else detail if isinstance(detail, Msg) else None
    facts["detail"] = str(words) if words is not None else ""
    failed = result(ID, TITLE, Status.FAIL, said, evidence, **facts)
    return replace(failed, said={"detail": words}) if words is not None else failed


def _facts(
    ctx: CheckContext, plan: Plan, first: Exchange, waited: str | None, first_token_timeout_s: float
) -> dict[str, Any]:
    from codexdoctor.net.client import CA_VARIABLES, IGNORED_CA_VARIABLES, proxy_for, proxy_variable

    env = ctx.env
    ignored_ca = next((v for v in IGNORED_CA_VARIABLES if env.get(v)), None)
    return {
        "failure": None,
        "detail": "",
        "proxy": bool(proxy_for(plan.request_url, env)),
        # Codex 0.171 does not speak SOCKS: a socks5:// or socks5h:// proxy gets plain HTTP (issue 38 item 2).
        "proxy_socks": str(proxy_for(plan.request_url, env) or "").lower().startswith("socks"),
        "host": urlsplit(plan.base_url).hostname,
        "proxy_var": proxy_variable(plan.request_url, env),
        "no_proxy_value": _no_proxy_value(ctx, plan),
        "ca_variables": [v for v in CA_VARIABLES if env.get(v)],
        "ignored_ca_variable": ignored_ca,
        "ignored_ca_file": ctx.redactor(env[ignored_ca]) if ignored_ca else None,
        "scheme": urlsplit(plan.base_url).scheme,
        "redirect": None,
        "html": False,
        "url": ctx.redactor(first.url),
        "base_url": ctx.redactor(plan.base_url),
        "waited_for_alive": waited,
        "first_token_timeout_s": first_token_timeout_s,
    }


def _proxy_failure(
    ctx: CheckContext, plan: Plan, first: Exchange, proxy: str | None
) -> tuple[dict[str, Any], Msg] | None:
    """The proxy, not the provider: Codex goes through it too, and (dead) retries for ever or (407) stops with
    `unexpected status 407 Proxy Authentication Required: …, url: <the provider's URL>`."""
    from codexdoctor.net.client import proxy_variable

    proxy_var = proxy_variable(plan.request_url, ctx.env)
    # A socks5:// address gets plain HTTP from Codex (and from us): a SOCKS-only port closes the connection at once,
    # which reads as a reset, and Codex loops "Reconnecting…" on it (scripts/crosscheck_proxies.py).
    socks = str(proxy or "").strip().lower().startswith("socks")
    closed = socks and first.failure in ("reset", "protocol")
    if not proxy_var or not (
        first.status == 407 or (first.failure in ("refused", "dns", "proxy") or closed) and first.status is None
    ):
        return None
    what = (
        Msg(
            "asks for credentials (407 Proxy Authentication Required)",
            "要求提供凭据（407 Proxy Authentication Required）",
        )
        if first.status == 407
        else Msg(
            "closes the connection when spoken to in HTTP (a SOCKS-only port)",
            "收到 HTTP 请求就关闭连接（只支持 SOCKS 的端口）",
        )
        if closed
        else Msg("refuses connections", "拒绝连接")
        if first.failure == "refused"
        else Msg("cannot be found (its host name does not resolve)", "找不到（主机名无法解析）")
        if first.failure == "dns"
        else first.failure_said or Msg.verbatim("")
    )
    said = Msg(
        "the proxy in ${var} ({proxy}) {what}",
        "${var} 中的代理（{proxy}）{what}",
        var=proxy_var,
        proxy=ctx.redactor(proxy or ""),
        what=what,
    )
    return {"failure": "proxy", "proxy_status": first.status}, said


def _certificate_failure(exchanges: list[Exchange]) -> tuple[dict[str, Any], Msg] | None:
    """Python trusted it; Codex (rustls) does not: it keeps printing "Reconnecting... waiting for network"."""
    if not any(x.server_cert_ca for x in exchanges):
        return None
    said = Msg(
        "the server's own certificate is a CA certificate (basicConstraints CA:TRUE, what a plain `openssl req -x509` "
        "makes): Python accepts it, Codex (rustls) refuses it as a server certificate even when your CA file names it",
        "服务端自己的证书是一张 CA 证书（basicConstraints CA:TRUE，普通的 `openssl req -x509` 生成的就是这种）：Python 接受它，"
        "但 Codex（rustls）不接受它作为服务端证书，即使你的 CA 文件里写的就是它",
    )
    return {"failure": "tls", "cert_ca": True}, said


def _no_proxy_value(ctx: CheckContext, plan: Plan) -> str:
    """The NO_PROXY value that would take the provider out of the proxy: its host as written in base_url, added to
    what NO_PROXY holds now (127.0.0.1 is not covered by localhost, nor the other way round)."""
    host = urlsplit(plan.base_url).hostname or ""
    current = next((v for k, v in ctx.env.items() if k.lower() == "no_proxy" and v), "")
    return ",".join([p for p in current.split(",") if p.strip()] + [host]) if host else current
