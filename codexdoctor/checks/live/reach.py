"""net.reach: did Codex's request get through to the provider at all (proxy, certificate, redirect, DNS, refusal)?"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from codexdoctor.checks.base import CheckContext, result
from codexdoctor.checks.live.exchanges import Clocks, Exchanges
from codexdoctor.checks.live.read import human
from codexdoctor.model import CheckResult, Msg, Status

if TYPE_CHECKING:
    from codexdoctor.checks.live.plan import Plan
    from codexdoctor.net.transport import Exchange

ID = "net.reach"
TITLE = "Reachability"
TITLE_ZH = "连通性"


def interpret(ctx: CheckContext, plan: Plan, ex: Exchanges) -> CheckResult:
    return reach_result(ctx, plan, ex.catalog, ex.canary, ex.clocks)


def reach_result(
    ctx: CheckContext, plan: Plan, catalog: Exchange, canary: Exchange | None, clocks: Clocks
) -> CheckResult:
    """The request Codex makes decides: a catalog that answers does not help if the canary cannot get through."""
    from codexdoctor.net.transport import proxy_for  # loaded already: the exchanges came through it

    first = canary or catalog
    exchanges = [x for x in (canary, catalog) if x is not None]
    proxy = proxy_for(plan.request_url, ctx.env)
    waited = clocks.waited_for_alive if canary is not None else None
    facts = _facts(ctx, plan, first, waited, clocks.first_token_timeout_s)
    evidence = [x.line() for x in exchanges]
    if proxy:
        evidence.append(f"via proxy {ctx.redactor(proxy)}")
    answered = [x for x in exchanges if x.status is not None]
    redirect = next((x for x in exchanges if x.failure == "redirect"), None)
    if redirect:
        facts.update(redirect=redirect.location, failure="redirect")
        said = Msg("redirected to {url}", "被重定向到 {url}", url=str(redirect.location))
        return result(ID, TITLE, Status.FAIL, said, evidence, **facts)
    failed = _proxy_failure(ctx, plan, first, proxy) or _certificate_failure(exchanges)
    if failed is not None:
        facts.update(failed)
        return result(ID, TITLE, Status.FAIL, facts["detail"], evidence, **facts)
    if first.failure and (first.status is None or first.failure != "redirect"):
        facts.update(failure=first.failure, detail=first.failure_detail, url=first.url)
        return result(ID, TITLE, Status.FAIL, human(first.failure, first.failure_detail), evidence, **facts)
    if not answered:
        failure = first.failure or "protocol"
        facts.update(failure=failure, detail=first.failure_detail)
        return result(ID, TITLE, Status.FAIL, human(failure, first.failure_detail), evidence, **facts)
    html_home = all(x.is_html for x in answered)
    facts["html"] = html_home
    status = Status.WARN if html_home else Status.PASS
    summary = (
        Msg("an HTML site answers, not an API", "返回的是 HTML 网页，不是 API")
        if html_home
        else Msg("answered in {ms:.0f} ms", "{ms:.0f} ms 内响应", ms=min(x.elapsed_ms for x in answered))
    )
    return result(ID, TITLE, status, summary, evidence, **facts)


def _facts(
    ctx: CheckContext, plan: Plan, first: Exchange, waited: str | None, first_token_timeout_s: float
) -> dict[str, Any]:
    from codexdoctor.net.transport import CA_VARIABLES, IGNORED_CA_VARIABLES, proxy_for, proxy_variable

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


def _proxy_failure(ctx: CheckContext, plan: Plan, first: Exchange, proxy: str | None) -> dict[str, Any] | None:
    """The proxy, not the provider: Codex goes through it too, and (dead) retries for ever or (407) stops with
    `unexpected status 407 Proxy Authentication Required: …, url: <the provider's URL>`."""
    from codexdoctor.net.transport import proxy_variable

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
        "asks for credentials (407 Proxy Authentication Required)"
        if first.status == 407
        else "closes the connection when spoken to in HTTP (a SOCKS-only port)"
        if closed
        else "refuses connections"
        if first.failure == "refused"
        else "cannot be found (its host name does not resolve)"
        if first.failure == "dns"
        else first.failure_detail
    )
    return {
        "failure": "proxy",
        "detail": f"the proxy in ${proxy_var} ({ctx.redactor(proxy or '')}) {what}",
        "proxy_status": first.status,
    }


def _certificate_failure(exchanges: list[Exchange]) -> dict[str, Any] | None:
    """Python trusted it; Codex (rustls) does not: it keeps printing "Reconnecting... waiting for network"."""
    if not any(x.server_cert_ca for x in exchanges):
        return None
    return {
        "failure": "tls",
        "detail": "the server's own certificate is a CA certificate (basicConstraints "
        "CA:TRUE, what a plain `openssl req -x509` makes): Python accepts it, Codex (rustls) refuses it "
        "as a server certificate even when your CA file names it",
        "cert_ca": True,
    }


def _no_proxy_value(ctx: CheckContext, plan: Plan) -> str:
    """The NO_PROXY value that would take the provider out of the proxy: its host as written in base_url, added to
    what NO_PROXY holds now (127.0.0.1 is not covered by localhost, nor the other way round)."""
    host = urlsplit(plan.base_url).hostname or ""
    current = next((v for k, v in ctx.env.items() if k.lower() == "no_proxy" and v), "")
    return ",".join([p for p in current.split(",") if p.strip()] + [host]) if host else current
