"""One window per provider and model for the whole run (issue 40, "Numbers"): every finding about the sessions of a
provider and model quotes this one value, decided once from the strongest evidence the logs hold.

The review that asked for it: `sessions` advised 16000 (CTX012), 15512 (CTX014) and 14000 (CTX026) for one model behind
one provider, each as "add these two lines at the top level", and pasting two gives a TOML duplicate key.

The evidence, strongest first:
- `served`: the window this run's live check read from the provider (`check` only, the configured provider and model);
- `stated`: a provider's error that states its maximum ("maximum context length is 16000 tokens"), or `truncated`: the
  size at which it cut the history without an error (Ollama's num_ctx). Both are the window itself; where sessions
  state different ones, the smallest is the one every session of them fits, and it is taken;
- `break`: the size at which several sessions broke (a cluster, checks/sessions/across.py), the largest context that
  worked: a lower bound that is nearly the window;
- `answered`: the largest context that worked in a session that overflowed alone, a lower bound.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from codexdoctor.codex.sizes import ANSWER_ROOM, CODEX_FIRST_REQUEST_TOKENS

EXACT = ("stated", "truncated")


def _evidence(
    sessions: Iterable[Mapping[str, Any]], groups: Iterable[Mapping[str, Any]]
) -> dict[tuple[Any, Any], list[tuple[str, int, str | None]]]:
    """(provider, model) -> [(basis, tokens, short id)], from the context failures and the clusters."""
    found: dict[tuple[Any, Any], list[tuple[str, int, str | None]]] = {}
    short: dict[str, str] = {}
    for d in sessions:
        short[d["id"]] = d.get("short_id") or d["id"][:8]
        if d.get("kind") != "context":
            continue
        key = (d.get("provider"), d.get("model"))
        if d.get("truncated_at"):
            found.setdefault(key, []).append(("truncated", int(d["truncated_at"]), short[d["id"]]))
        elif d.get("server_window"):
            found.setdefault(key, []).append(("stated", int(d["server_window"]), short[d["id"]]))
        elif d.get("real_window") and not d.get("in_cluster"):
            found.setdefault(key, []).append(("answered", int(d["real_window"]), short[d["id"]]))
    for g in groups:
        if g.get("pattern") == "cluster" and g.get("median"):
            ids = [short.get(i, i[:8]) for i in g.get("ids") or []]
            found.setdefault((g.get("provider"), g.get("model")), []).append(
                ("break", int(g["median"]), ids[0] if ids else None)
            )
    return found


def _decide(evidence: list[tuple[str, int, str | None]]) -> tuple[str, int, str | None, int | None]:
    """(basis, window, the session it comes from, a larger window another session stated) from one key's evidence."""
    exact = [e for e in evidence if e[0] in EXACT]
    if exact:
        basis, window, source = min(exact, key=lambda e: (e[1], e[0] != "stated"))
        larger = max((e[1] for e in exact if e[1] > window), default=None)
        return basis, window, source, larger
    breaks = [e for e in evidence if e[0] == "break"]
    if breaks:
        basis, window, source = min(breaks, key=lambda e: e[1])
        return basis, window, source, None
    basis, window, source = max(evidence, key=lambda e: e[1])
    return basis, window, source, None


def tool_round_for(model: str | None, tool_output_token_limit: object = None) -> int:
    """Codex's first tool round at its worst for a model (one call and the largest output it keeps), as `check`
    measures it (checks/live/window.py) for the configured model."""
    from codexdoctor.codex.models import lookup, tool_output_budget_bytes
    from codexdoctor.codex.truncation import Cut, worst_round_tokens
    from codexdoctor.common.tokens import encoding_for_model

    budget, mode = tool_output_budget_bytes(lookup(str(model or "")), tool_output_token_limit)
    return worst_round_tokens(Cut(budget, mode), encoding_for_model(str(model or "")))


def decide_windows(
    sessions: Iterable[Mapping[str, Any]],
    groups: Iterable[Mapping[str, Any]],
    *,
    provider: str | None,
    model: str | None,
    defined: Iterable[str],
    first_request: int | None = None,
    tool_round: int | None = None,
    served: int | None = None,
    tool_output_token_limit: object = None,
) -> list[dict[str, Any]]:
    """The `windows` fact of ctx.sessions: per (provider, model) whose sessions show a window, the one window, its
    basis and source session, whether the current config uses that provider and model (`current`) and defines the
    provider (`defined`), and what Codex needs of a window (`need`: its first request, the first large tool round and
    the answer's room). `provider`/`model`: the current config's; `first_request`, `tool_round`, `served`: this run's
    counts when `check` made them, for the current provider and model only."""
    sessions = list(sessions)
    evidence = _evidence(sessions, groups)
    if served and (provider, model) in evidence:
        evidence[(provider, model)] = [("served", int(served), None)]
    known = set(defined)
    clustered = {d.get("short_id") for d in sessions if d.get("in_cluster")}
    out = []
    for (p, m), found in evidence.items():
        basis, window, source, larger = (
            _decide(found) if found[0][0] != "served" else ("served", found[0][1], None, None)
        )
        current = p == provider and m == model
        first = int(first_request) if current and first_request else CODEX_FIRST_REQUEST_TOKENS
        rounds = int(tool_round) if current and tool_round else tool_round_for(m, tool_output_token_limit)
        out.append(
            {
                "provider": p,
                "model": m,
                "window": window,
                "basis": basis,
                "source": source,
                "larger_stated": larger,
                "in_cluster": basis == "break" or source in clustered,  # its finding is the cluster's (CTX014)
                "current": current,
                "defined": p in known,
                "need": {
                    "first_request": first,
                    "first_counted": bool(current and first_request),  # this run's count, else the measured default
                    "tool_round": rounds,
                    "total": first + rounds + ANSWER_ROOM,
                },
            }
        )
    return out
