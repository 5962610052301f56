"""NET: reaching the provider. The rules, their Simplified Chinese texts and the helpers only they use.

Chinese texts keep the English placeholders; config keys, commands, product names and codes stay untranslated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from codexdoctor.common.hosts import is_loopback
from codexdoctor.model import Verdict
from codexdoctor.rules.base import CHANNEL, E, I, Loc, Rule, Text, W, ca_cmd, once


def _local_port(url: object) -> str | None:
    """The port of a URL on this machine (localhost, 127.0.0.0/8, ::1), the scheme's default when none is written;
    None for another host or no URL."""
    from urllib.parse import urlsplit

    if not isinstance(url, str):
        return None
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname or not is_loopback(parts.hostname):
        return None
    return str(port or (443 if parts.scheme == "https" else 80))


def _refused_step(f: Mapping[str, Any]) -> Loc:
    """NET002's first remedy: on this machine a refusal means nothing listens on that port (issue 40 review)."""
    port = _local_port(f.get("base_url"))
    if port is None:
        return Loc(
            "Check the host and port in base_url; for a local server (Ollama, LM Studio, vLLM, llama.cpp), start it "
            "first.",
            "检查 base_url 中的主机和端口；如果是本地服务（Ollama、LM Studio、vLLM、llama.cpp），先把它启动起来。",
        )
    return Loc(
        f"Nothing listens on port {port} of this machine: start the local server (Ollama, LM Studio, vLLM, "
        f"llama.cpp) on port {port}, or correct the port in base_url.",
        f"本机的 {port} 端口上没有任何程序在监听：在 {port} 端口上启动本地服务（Ollama、LM Studio、vLLM、llama.cpp），"
        "或者改正 base_url 中的端口。",
    )


def _timeout_step(f: Mapping[str, Any]) -> Loc:
    """NET004's first remedy: a firewall, VPN or proxy for another host; on this machine none is in the way, and the
    program on that port is what did not answer (issue 40 review)."""
    port = _local_port(f.get("url"))
    if port is None:
        return Loc(
            "Check that the host is the API endpoint and reachable from this network (firewall, VPN, proxy).",
            "确认该主机是 API 端点，并且在当前网络下可达（防火墙、VPN、代理）。",
        )
    return Loc(
        f"The server is on this machine, so no firewall or VPN is in the way: the program on port {port} did not "
        f"answer. Check that it is your model server (`lsof -i :{port}`), that it has finished loading the model, and "
        "read its log; restart it if it is stuck.",
        f"服务端就在本机，中间没有防火墙或 VPN：是 {port} 端口上的程序没有响应。确认它就是你的模型服务"
        f"（`lsof -i :{port}`）、已经加载完模型，并查看它的日志；如果卡住了就重启它。",
    )


def _stuck_step(f: Mapping[str, Any]) -> Loc:
    """NET010's second step: what keeps a first token back on a server that answers its other routes."""
    port = _local_port(f.get("url"))
    if port is None:
        return Loc(
            "If it never answers, ask the provider or gateway operator: a model still loading, or a queue of other "
            "requests ahead of yours, keeps the first token back.",
            "如果一直不回答，请问提供方或网关运营者：模型还在加载，或者前面排着别的请求，都会让第一个 token 迟迟不来。",
        )
    return Loc(
        f"If it never answers, read the log of the program on port {port} (`lsof -i :{port}`): a model still loading, "
        "a CPU reading a long request, or a queue of other requests keeps the first token back.",
        f"如果一直不回答，请查看 {port} 端口上那个程序的日志（`lsof -i :{port}`）：模型还在加载、CPU 正在读一个很长的请求，"
        "或者前面排着别的请求，都会让第一个 token 迟迟不来。",
    )


def _tls_step(f: Mapping[str, Any]) -> Loc:
    """NET003's first remedy: the certificate Codex refuses, a CA variable Codex ignores, or where to point Codex."""
    if f.get("cert_ca"):
        host = f.get("host") or "localhost"
        san = f"IP:{host}" if host.replace(".", "").isdigit() or ":" in host else f"DNS:{host}"
        cmd = (
            f"openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 825 -subj /CN={host} "
            f"-addext basicConstraints=critical,CA:FALSE -addext subjectAltName={san}"
        )
        return Loc(
            f"Give the server a certificate marked CA:FALSE, then point Codex at it as before: {cmd}",
            f"给服务端换一张标记为 CA:FALSE 的证书，然后像之前一样让 Codex 信任它：{cmd}",
        )
    ca = ca_cmd(f)
    if f.get("ignored_ca_variable"):
        var = f["ignored_ca_variable"]
        return Loc(
            f"${var} is set, but Codex ignores it (it reads only CODEX_CA_CERTIFICATE and SSL_CERT_FILE): {ca}",
            f"设置了 ${var}，但 Codex 不读它（只读 CODEX_CA_CERTIFICATE 和 SSL_CERT_FILE）：{ca}",
        )
    return Loc(
        f"If the provider uses a private or corporate CA, point Codex at it: {ca} (Codex reads it and "
        "SSL_CERT_FILE, both at once).",
        f"如果提供方使用私有或公司内部 CA，把它告诉 Codex：{ca}（Codex 读取它和 SSL_CERT_FILE，两者同时生效）。",
    )


RULES: tuple[Rule, ...] = (
    Rule(
        code="NET001",
        name="dns-failure",
        check="net.reach",
        reads=("detail", "failure", "host", "url"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Host name does not resolve",
            diagnosis="{host} does not resolve ({url}): {detail}.",
            remedy=(
                "Check the host name in base_url for typos.",
                "If it resolves in a browser, check this machine's DNS or VPN: try `nslookup {host}`.",
            ),
        ),
        zh=Text(
            title="主机名无法解析",
            diagnosis="{host} 无法解析（{url}）：{detail}。",
            remedy=(
                "检查 base_url 中的主机名是否拼写错误。",
                "如果浏览器能访问，检查本机的 DNS 或 VPN：试试 `nslookup {host}`。",
            ),
        ),
        when=once(lambda f: f["failure"] == "dns"),
    ),
    Rule(
        code="NET002",
        name="connection-refused",
        check="net.reach",
        reads=("base_url", "detail", "failure"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Connection refused",
            diagnosis="Nothing accepts connections at {base_url}: {detail}. Codex keeps retrying such a provider for a very long time.",
            remedy=("{where_step}", "{proxy_hint}"),
        ),
        zh=Text(
            title="连接被拒绝",
            diagnosis="{base_url} 上没有服务接受连接：{detail}。Codex 会对这样的提供方重试很长时间。",
            remedy=("{where_step}", "{proxy_hint}"),
        ),
        when=lambda f: (
            [
                {
                    "where_step": _refused_step(f),
                    "proxy_hint": Loc(
                        "No proxy is in the way (codexdoctor connected directly, as Codex will): the server itself is not listening.",
                        "中间没有代理（codexdoctor 和 Codex 一样是直接连接的）：是服务端本身没有在监听。",
                    ),
                }
            ]
            if f["failure"] == "refused"
            else []
        ),
    ),
    Rule(
        code="NET003",
        name="tls-failure",
        check="net.reach",
        reads=("cert_ca", "detail", "failure", "host", "ignored_ca_file", "ignored_ca_variable", "platform", "shell"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="TLS handshake failed",
            diagnosis="Connecting to {host} over TLS failed: {detail}. Codex does not stop with an error here: it keeps printing "
            "`Reconnecting... waiting for network`.",
            remedy=(
                "{tls_trust_step}",
                "If the server speaks plain HTTP on that port, use http:// (local servers only); if the certificate is for another name, use the host name it was issued for.",
                "An expired certificate must be renewed by the provider.",
            ),
        ),
        zh=Text(
            title="TLS 握手失败",
            diagnosis="通过 TLS 连接 {host} 失败：{detail}。Codex 在这种情况下不会报错停止：它会一直打印 `Reconnecting... waiting for network`。",
            remedy=(
                "{tls_trust_step}",
                "如果该端口上是明文 HTTP，改用 http://（仅限本地服务）；如果证书对应另一个名字，使用证书签发时的主机名。",
                "证书过期只能由提供方续期。",
            ),
        ),
        when=lambda f: [{"tls_trust_step": _tls_step(f)}] if f["failure"] == "tls" else [],
    ),
    Rule(
        code="NET004",
        name="timeout",
        check="net.reach",
        reads=("detail", "failure", "first_token_timeout_s", "url", "waited_for_alive"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="No answer before the deadline",
            diagnosis="{url} did not answer in time ({detail}).",
            remedy=("{where_step}", "{longer_step}"),
        ),
        zh=Text(
            title="在时限内没有响应",
            diagnosis="{url} 没有及时响应：{detail}。",
            remedy=("{where_step}", "{longer_step}"),
        ),
        when=lambda f: (
            [
                {
                    "where_step": _timeout_step(f),
                    "longer_step": Loc(
                        "The provider is alive but slower than --first-token-timeout: give it longer, "
                        f"codexdoctor check --first-token-timeout {int(max(300, 2 * (f.get('first_token_timeout_s') or 120)))}",
                        "提供方是活着的，只是比 --first-token-timeout 还慢：给它更多时间，"
                        f"codexdoctor check --first-token-timeout {int(max(300, 2 * (f.get('first_token_timeout_s') or 120)))}",
                    )
                    if f.get("waited_for_alive")
                    else Loc(
                        "Run again with a longer deadline: codexdoctor check --timeout 30",
                        "放宽时限再试一次：codexdoctor check --timeout 30",
                    ),
                }
            ]
            if f["failure"] in ("timeout", "deadline")
            else []
        ),
    ),
    Rule(
        code="NET005",
        name="connection-reset",
        check="net.reach",
        reads=("detail", "failure", "host"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Connection closed by the server",
            diagnosis="The connection to {host} was dropped before an answer: {detail}.",
            remedy=(
                "Retry; if it persists, the provider or a proxy in between is failing. Codex retries such errors up to 5 times before giving up.",
            ),
        ),
        zh=Text(
            title="连接被服务器关闭",
            diagnosis="与 {host} 的连接在响应之前就断开了：{detail}。",
            remedy=("重试；如果一直如此，说明提供方或中间的代理有问题。Codex 对这类错误最多重试 5 次后放弃。",),
        ),
        when=once(lambda f: f["failure"] == "reset"),
    ),
    Rule(
        code="NET006",
        name="cross-origin-redirect",
        check="net.reach",
        reads=("failure", "redirect"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Redirect to another host",
            diagnosis="The provider redirects to {redirect}. codexdoctor did not follow it with your key; base_url should be the final address.",
            remedy=(
                "Set base_url to the address it redirects to (if you trust that host), typically https:// instead of http:// or a new domain.",
            ),
        ),
        zh=Text(
            title="重定向到了另一个主机",
            diagnosis="提供方重定向到 {redirect}。codexdoctor 没有带着你的密钥跟过去；base_url 应该写最终地址。",
            remedy=(
                "把 base_url 设为重定向后的地址（前提是你信任那个主机），通常是把 http:// 换成 https://，或换成新域名。",
            ),
        ),
        when=once(lambda f: f["failure"] == "redirect"),
    ),
    Rule(
        code="NET007",
        name="proxy-failure",
        check="net.reach",
        reads=("detail", "failure", "no_proxy_value", "proxy_socks", "proxy_status", "proxy_var"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Proxy failed",
            diagnosis="The proxy from this environment failed: {detail}. Codex goes through the same proxy{proxy_codex}.",
            remedy=(
                "{proxy_step}",
                "Or, if the provider needs no proxy, leave it out (as written in base_url: localhost and 127.0.0.1 are "
                "different names to Codex): {no_proxy_cmd}",
            ),
        ),
        zh=Text(
            title="代理出错",
            diagnosis="当前环境中的代理出错：{detail}。Codex 也会经过同一个代理{proxy_codex}。",
            remedy=(
                "{proxy_step}",
                "或者，如果提供方不需要代理，就把它排除在外（按 base_url 中的写法：对 Codex 来说 localhost 和 127.0.0.1 是不同的名字）：{no_proxy_cmd}",
            ),
        ),
        when=lambda f: (
            [
                {
                    "proxy_step": Loc(
                        f"Codex does not speak SOCKS: it sends plain HTTP to the socks5:// address in ${f['proxy_var']} "
                        "(and, for an https:// base_url, nothing at all). "
                        "Point HTTPS_PROXY / HTTP_PROXY (or ALL_PROXY) at your proxy's HTTP port instead, for example "
                        "Clash's or V2Ray's mixed port (it speaks both): export HTTPS_PROXY=http://127.0.0.1:7890",
                        f"Codex 不支持 SOCKS：它会向 ${f['proxy_var']} 中的 socks5:// 地址直接发送 HTTP"
                        "（如果 base_url 是 https://，则什么也不发送）。请把 HTTPS_PROXY / "
                        "HTTP_PROXY（或 ALL_PROXY）改为代理的 HTTP 端口，例如 Clash 或 V2Ray 的混合端口（两种协议都支持）："
                        "export HTTPS_PROXY=http://127.0.0.1:7890",
                    )
                    if f.get("proxy_socks") and f.get("proxy_var")
                    else Loc(
                        f"Fix or start the proxy that ${f['proxy_var']} names, or correct ${f['proxy_var']} "
                        f"({'Codex uses it even for 127.0.0.1' if str(f.get('proxy_var')).lower() != 'https_proxy' else 'https:// URLs use it'}).",
                        f"修复或启动 ${f['proxy_var']} 指向的代理，或改正 ${f['proxy_var']}"
                        f"（{'即使是 127.0.0.1，Codex 也会用它' if str(f.get('proxy_var')).lower() != 'https_proxy' else 'https:// 地址会用它'}）。",
                    )
                    if f.get("proxy_var")
                    else Loc(
                        "Check HTTPS_PROXY / HTTP_PROXY / ALL_PROXY.", "检查 HTTPS_PROXY / HTTP_PROXY / ALL_PROXY。"
                    ),
                    "proxy_codex": Loc(
                        " and stops with `unexpected status 407 Proxy Authentication Required: …, url: <the provider's "
                        "URL>`; add the credentials to the proxy URL or ask for a proxy exception",
                        "，并以 `unexpected status 407 Proxy Authentication Required: …, url: <提供方的地址>` 停止；"
                        "在代理地址里加上凭据，或申请代理例外",
                    )
                    if f.get("proxy_status") == 407
                    else Loc(
                        ", and does not stop with an error: it keeps printing `Reconnecting... waiting for network`",
                        "，而且不会报错停止：它会一直打印 `Reconnecting... waiting for network`",
                    ),
                }
            ]
            if f["failure"] == "proxy"
            else []
        ),
    ),
    Rule(
        code="NET008",
        name="protocol-error",
        check="net.reach",
        reads=("detail", "failure", "host"),
        severity=E,
        verdict=CHANNEL,
        en=Text(
            title="Unreadable answer",
            diagnosis="The answer from {host} could not be read: {detail}.",
            remedy=("Check that base_url points at an HTTP API (not another protocol or port).",),
        ),
        zh=Text(
            title="响应无法读取",
            diagnosis="来自 {host} 的响应无法读取：{detail}。",
            remedy=("确认 base_url 指向的是 HTTP API（而不是别的协议或端口）。",),
        ),
        when=once(lambda f: f["failure"] == "protocol"),
    ),
    Rule(
        code="NET009",
        name="slow-first-token",
        check="api.canary",
        reads=(
            "deadline_s",
            "first_request",
            "first_token_timeout_s",
            "kind",
            "reported_input",
            "ttft_ms",
            "waited_for_alive",
        ),
        severity=I,
        verdict=CHANNEL,
        en=Text(
            title="The provider is slow to start answering, not broken",
            diagnosis="Codex's first request ({first_request_text}) got its first token after {ttft_text}, longer than codexdoctor's "
            "--timeout of {deadline_text}; the provider was alive the whole time ({waited_for_alive}). That is the time "
            "the model takes to read the request before it writes (stage 1), and Codex waits for it: its "
            "stream_idle_timeout_ms only starts counting once the answer's headers have arrived.",
            remedy=(
                "Nothing to change for Codex. In CI, keep --first-token-timeout above this time (now {first_token_timeout_text}).",
                "To make every turn start sooner: a smaller or quantised model, a GPU, or the server's prompt cache "
                "(llama-server: --cache-reuse 256) for the part of each request that repeats.",
            ),
        ),
        zh=Text(
            title="提供方开始回答得慢，但没有坏",
            diagnosis="Codex 的第一个请求（{first_request_text}）过了 {ttft_text} 才收到第一个 token，比 codexdoctor 的 --timeout "
            "（{deadline_text}）还长；而提供方一直是活着的（{waited_for_alive}）。这是模型在动笔之前读完请求所花的时间（第 1 阶段），"
            "Codex 会等它：它的 stream_idle_timeout_ms 要等响应头到达之后才开始计时。",
            remedy=(
                "Codex 这边无需修改。在 CI 中让 --first-token-timeout 保持在这个时间之上（现在是 {first_token_timeout_text}）。",
                "想让每一轮更快开始：换更小或量化过的模型、用 GPU，或者为每个请求中重复的部分打开服务端的提示缓存"
                "（llama-server：--cache-reuse 256）。",
            ),
        ),
        when=lambda f: (
            [
                {
                    "ttft_text": f"{f['ttft_ms'] / 1000:.1f} s",
                    "deadline_text": f"{f['deadline_s']:g} s",
                    "first_token_timeout_text": f"{f['first_token_timeout_s']:g} s",
                    "first_request_text": Loc(
                        f"{f['reported_input']:,} tokens as the provider counts it",
                        f"按提供方的计数为 {f['reported_input']:,} 个 token",
                    )
                    if isinstance(f.get("reported_input"), int)
                    else f"{f['first_request']:,} tokens"
                    if f.get("first_request")
                    else Loc("a minimal request", "一个最小请求"),
                }
            ]
            if f.get("kind") == "ok" and f.get("waited_for_alive") and f.get("ttft_ms")
            else []
        ),
    ),
    Rule(
        code="NET010",
        name="first-token-past-the-limit",
        check="api.canary",
        reads=("first_token_timeout_s", "kind", "total_ms", "ttft_ms", "url", "waited_for_alive"),
        severity=W,
        verdict=Verdict.INCONCLUSIVE,
        en=Text(
            title="The provider is alive but had not started answering by --first-token-timeout",
            diagnosis="POST {url} had sent no first token of its answer to Codex's first request after {waited_text}, "
            "when --first-token-timeout ({first_token_timeout_text}, counted from codexdoctor's start) ended the wait; "
            "the same host answered the other requests ({waited_for_alive}), so it was reached and is alive. Codex "
            "waits longer (for the headers without a limit of its own, then up to stream_idle_timeout_ms between "
            "events): whether the answer comes, this run cannot tell.",
            remedy=(
                "Give it longer, as Codex would wait:\ncodexdoctor check --first-token-timeout {longer_s}",
                "{stuck_step}",
            ),
        ),
        zh=Text(
            title="提供方是活着的，但到 --first-token-timeout 时还没有开始回答",
            diagnosis="POST {url} 过了 {waited_text} 还没有为 Codex 的第一个请求返回第一个 token，这时 --first-token-timeout"
            "（{first_token_timeout_text}，从 codexdoctor 启动时算起）结束了等待；同一台主机回答了其他请求"
            "（{waited_for_alive}），所以它是连得上、活着的。Codex 会等得更久（等响应头没有自己的时限，之后在事件之间最多等 "
            "stream_idle_timeout_ms）：回答最终会不会来，这次运行无法判断。",
            remedy=(
                "像 Codex 一样多等一会儿：\ncodexdoctor check --first-token-timeout {longer_s}",
                "{stuck_step}",
            ),
        ),
        when=lambda f: (
            [
                {
                    "waited_text": f"{f['total_ms']:,.0f} ms",
                    "first_token_timeout_text": Loc(
                        f"{f['first_token_timeout_s']:g} s", f"{f['first_token_timeout_s']:g} 秒"
                    ),
                    "longer_s": str(int(max(300, 2 * f["first_token_timeout_s"]))),
                    "stuck_step": _stuck_step(f),
                }
            ]
            if f["kind"] in ("timeout", "deadline") and f.get("waited_for_alive") and f.get("ttft_ms") is None
            else []
        ),
    ),
)
