"""Codex's first request for this user: its shape (from a real 0.171.0 capture), their AGENTS.md files, its size.

A one-line canary passes where Codex fails (a small window, a gateway that rejects `reasoning` or a
`developer` item), so the canary is this request: the same fields, items and tools Codex sends, with
the user's own AGENTS.md files, and only the answer capped.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codexdoctor.codex.config import Resolution, project_root

if TYPE_CHECKING:
    from codexdoctor.codex.truncation import Cut

TEMPLATE = "codex-request-0.171.0.json"
PROJECT_DOC_MAX_BYTES = 32768  # Codex's default project_doc_max_bytes
DOC_NAMES = ("AGENTS.override.md", "AGENTS.md")
PER_ITEM_TOKENS = 4  # message framing the server adds per input item
MAX_DOC_READ = 1 << 20
# Fields Codex sends that a provider may refuse by name; codexdoctor adds only max_output_tokens (to stay cheap).
CODEX_FIELDS = (
    "reasoning",
    "include",
    "parallel_tool_calls",
    "tool_choice",
    "prompt_cache_key",
    "client_metadata",
    "store",
    "tools",
    "input",
    "instructions",
    "stream",
    "max_output_tokens",
)


@dataclass(frozen=True)
class Doc:
    """One AGENTS.md file Codex puts into the first request (its content never leaves codexdoctor: the ticket's
    request file holds a placeholder for it unless `report --include-request-text`, see shape())."""

    path: str  # as shown (home as ~)
    scope: str  # global | project
    bytes: int
    tokens: int
    truncated: bool = False


@dataclass(frozen=True)
class FirstRequest:
    """Codex's first request for this user, with the token count of each part, so a window can be judged against it."""

    body: dict[str, Any]
    parts: tuple[tuple[str, int], ...]  # (what, tokens), in request order
    docs: tuple[Doc, ...]
    tokens: int
    tokenizer: str
    codex_version: str
    labels: tuple[str, ...] = ()  # what each text of `input` is, in order (shape(): the ticket's request file)


@lru_cache(maxsize=1)
def template() -> Mapping[str, Any]:
    from importlib import resources  # here: 6 ms of imports (tempfile, zipfile) that `sessions` and `rules` never use

    with resources.files("codexdoctor.data").joinpath(TEMPLATE).open("r", encoding="utf-8") as handle:
        loaded: Mapping[str, Any] = json.load(handle)
    return loaded


def _read_doc(path: Path, limit: int) -> tuple[str, int, bool] | None:
    """Text of a doc file, at most `limit` bytes; None when absent, empty or not a regular file (never a FIFO)."""
    try:
        if not path.is_file():
            return None
        with path.open("rb") as handle:
            raw = handle.read(min(limit, MAX_DOC_READ) + 1)
    except OSError:
        return None
    truncated = len(raw) > limit
    raw = raw[:limit]
    text = raw.decode("utf-8", errors="replace").strip()
    return (text, len(raw), truncated) if text else None


def _first_doc(directory: Path, names: tuple[str, ...], limit: int) -> tuple[Path, tuple[str, int, bool]] | None:
    for name in names:
        found = _read_doc(directory / name, limit)
        if found is not None:
            return directory / name, found
    return None


def discover_docs(r: Resolution, cwd: Path) -> list[tuple[str, Path, tuple[str, int, bool]]]:
    """AGENTS.md files as Codex finds them: $CODEX_HOME's, then one per folder from the project root down to cwd
    (AGENTS.override.md before AGENTS.md, then project_doc_fallback_filenames), project docs capped in total."""
    out: list[tuple[str, Path, tuple[str, int, bool]]] = []
    if r.codex_home_problem is None:
        found = _first_doc(r.codex_home, DOC_NAMES, MAX_DOC_READ)
        if found:
            out.append(("global", *found))
    limit = r.merged.get("project_doc_max_bytes", PROJECT_DOC_MAX_BYTES)
    limit = limit if isinstance(limit, int) and limit >= 0 else PROJECT_DOC_MAX_BYTES
    fallbacks = r.merged.get("project_doc_fallback_filenames")
    names = DOC_NAMES + tuple(n for n in (fallbacks if isinstance(fallbacks, list) else []) if isinstance(n, str) and n)
    root = project_root(cwd)
    chain = [cwd, *cwd.parents]
    folders = list(reversed(chain[: chain.index(root) + 1])) if root in chain else [cwd]
    remaining = limit
    for folder in folders:
        if remaining <= 0:
            break
        found = _first_doc(folder, names, remaining)
        if found:
            out.append(("project", *found))
            remaining -= found[1][1]
    return out


def _message(role: str, *texts: str) -> dict[str, Any]:
    return {"type": "message", "role": role, "content": [{"type": "input_text", "text": t} for t in texts]}


def environment_context(cwd: Path, shell: str, today: date) -> str:
    return (
        f"<environment_context>\n  <cwd>{cwd}</cwd>\n  <shell>{shell}</shell>\n  <current_date>{today.isoformat()}"
        f"</current_date>\n  <timezone>Etc/UTC</timezone>\n  <filesystem><workspace_roots><root>{cwd}</root>"
        '</workspace_roots><permission_profile type="managed"><file_system type="restricted"><entry access="read">'
        "<special>:root</special></entry></file_system></permission_profile></filesystem>\n</environment_context>"
    )


def approx_tokens(text: str) -> int:
    """Short variable text (a path, the environment item, a one-line prompt) when no tokenizer is loaded: o200k
    averages about 3.6 bytes per token on such text; a few tokens either way on a request of ~8,500."""
    return max(1, round(len(text.encode("utf-8")) / 3.6))


def build(
    r: Resolution,
    model: str,
    prompt: str,
    count: Callable[[str], int] | None = None,
    tokenizer: str = "o200k_base",
    cwd: Path | None = None,
    shell: str = "bash",
    max_output_tokens: int | None = 16,
    today: date | None = None,
    load_counter: Callable[[], tuple[Callable[[str], int], str]] | None = None,
) -> FirstRequest:
    """The body of Codex's first POST /responses for this config and folder, and its size.

    Codex's own instructions and tool schemas are counted once, at capture time (the template's `token_counts`), so
    the tokenizer (~85 MB, ~0.5 s) is loaded through `load_counter` only when the user's own files need counting."""
    tpl = template()
    cwd = cwd or r.cwd or Path.cwd()
    home = str(r.codex_home)
    found = discover_docs(r, cwd)
    extra = r.merged.get("developer_instructions")
    # `instructions` in config.toml replaces Codex's own base instructions (the first developer item); checked with
    # Codex 0.171.0: `instructions = "Be brief."` made that item "Be brief." and the request 23 KB instead of 40 KB.
    own = r.merged.get("instructions")
    own = own if isinstance(own, str) and own.strip() else None
    shipped = (tpl.get("token_counts") or {}).get(tokenizer)
    if (
        count is None
        and (found or (isinstance(extra, str) and extra.strip()) or own or not shipped)
        and load_counter is not None
    ):
        count, tokenizer = load_counter()
        shipped = (tpl.get("token_counts") or {}).get(tokenizer)
    small = count or approx_tokens  # variable short text: exact when a tokenizer is loaded
    developer, labels, parts, tools_n = _developer_items(tpl, own, extra, home, shipped, count, small)
    user_items, docs = _user_items(r, found, cwd, prompt, shell, today, count, small, labels, parts)
    parts.insert(2, ("tool schemas", tools_n))
    return FirstRequest(
        _body(tpl, r, model, developer + user_items, max_output_tokens),
        tuple(parts),
        tuple(docs),
        sum(n for _, n in parts),
        tokenizer,
        str(tpl["codex_version"]),
        tuple(labels),
    )


def _user_items(
    r: Resolution,
    found: list[tuple[str, Path, tuple[str, int, bool]]],
    cwd: Path,
    prompt: str,
    shell: str,
    today: date | None,
    count: Callable[[str], int] | None,
    small: Callable[[str], int],
    labels: list[str],
    parts: list[tuple[str, int]],
) -> tuple[list[dict[str, Any]], list[Doc]]:
    """The user items in Codex's order (AGENTS.md, the environment context, the prompt); each one's label and size are
    appended to `labels` and `parts`, which the developer items began."""
    user_items = []
    docs: list[Doc] = []
    if found:
        if count is None:
            raise ValueError("AGENTS.md files were found and there is no tokenizer to count them")
        agents, docs, agents_n = _agents_item(r, found, cwd, count)
        user_items.append(agents)
        labels.append("your AGENTS.md files")
        parts.append(("AGENTS.md", agents_n + PER_ITEM_TOKENS))
    env_text = environment_context(cwd, shell, today or date.today())
    user_items.append(_message("user", env_text))
    labels.append("the environment context (your working folder and shell)")
    parts.append(("environment", small(env_text) + PER_ITEM_TOKENS))
    user_items.append(_message("user", prompt))
    labels.append("codexdoctor's one-line question")
    parts.append(("prompt", small(prompt) + PER_ITEM_TOKENS))
    return user_items, docs


def _body(
    tpl: Mapping[str, Any],
    r: Resolution,
    model: str,
    items: list[dict[str, Any]],
    max_output_tokens: int | None,
) -> dict[str, Any]:
    """The JSON body around the items, with the fields the config sets and a fresh session id, as Codex sends it."""
    fields, reasoning, tools = _fields_as_configured(tpl, r.merged)
    import uuid

    session = str(uuid.uuid4())
    body: dict[str, Any] = {
        "model": model,
        "stream": True,
        "input": items,
        "tools": tools,
        **fields,
        "reasoning": reasoning,
        "prompt_cache_key": session,
        "client_metadata": {"session_id": session, "thread_id": session},
    }
    if max_output_tokens is not None:
        body["max_output_tokens"] = max_output_tokens
    return body


def _developer_items(
    tpl: Mapping[str, Any],
    own: str | None,
    extra: Any,
    home: str,
    shipped: Mapping[str, int] | None,
    count: Callable[[str], int] | None,
    small: Callable[[str], int],
) -> tuple[list[dict[str, Any]], list[str], list[tuple[str, int]], int]:
    """The developer items (the instructions, yours or Codex's; the skills and permissions texts; your
    developer_instructions), their labels, their token counts as parts, and the tool schemas' count. Codex's own
    texts are counted from the template's shipped counts when there are some for this tokenizer."""
    skills = tpl["skills_instructions"].replace("{codex_home}", home)
    developer = [
        _message("developer", own if own is not None else tpl["base_instructions"]),
        _message("developer", skills, tpl["permissions_instructions"]),
    ]
    labels = [
        "Codex's instructions" if own is None else "instructions (yours, from config.toml)",
        "the skills text (it names your CODEX_HOME)",
        "Codex's permissions text",
    ]
    if shipped:
        base_n = small(own) if own is not None else shipped["base_instructions"]
        skills_n = shipped["skills_instructions"] + small(home) + shipped["permissions_instructions"]
        tools_n = shipped["tools"]
    else:
        if count is None:
            raise ValueError("no shipped counts for this tokenizer and no tokenizer to count with")
        base_n = count(own if own is not None else tpl["base_instructions"])
        skills_n = count(skills) + count(tpl["permissions_instructions"])
        tools_n = count(json.dumps(tpl["tools"]))
    parts: list[tuple[str, int]] = [
        ("instructions" if own is None else "instructions (yours, from config.toml)", base_n + PER_ITEM_TOKENS),
        ("skills and permissions", skills_n + PER_ITEM_TOKENS),
    ]
    if isinstance(extra, str) and extra.strip():
        developer.append(_message("developer", extra))
        labels.append("developer_instructions (yours, from config.toml)")
        parts.append(("developer_instructions", small(extra) + PER_ITEM_TOKENS))
    return developer, labels, parts, tools_n


def _agents_item(
    r: Resolution, found: list[tuple[str, Path, tuple[str, int, bool]]], cwd: Path, count: Callable[[str], int]
) -> tuple[dict[str, Any], list[Doc], int]:
    """The user item that carries the AGENTS.md files (global first, then the project's), each file as a Doc, and
    the item's tokens."""
    global_text = "\n\n".join(t for scope, _, (t, _, _) in found if scope == "global")
    project_text = "\n\n".join(t for scope, _, (t, _, _) in found if scope == "project")
    doc_text = global_text + (
        "\n\n--- project-doc ---\n\n" + project_text if global_text and project_text else project_text
    )
    text = f"# AGENTS.md instructions for {cwd}\n\n<INSTRUCTIONS>\n{doc_text}\n\n</INSTRUCTIONS>"
    docs = [Doc(r.show(path), scope, size, count(t), cut) for scope, path, (t, size, cut) in found]
    return _message("user", text), docs, count(text)


def _fields_as_configured(
    tpl: Mapping[str, Any], merged: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any], list[Any]]:
    """The template's fields, its reasoning object and its tools, as this config changes them (reasoning effort and
    summary, the web_search tool)."""
    tools = json.loads(json.dumps(tpl["tools"]))
    fields = dict(tpl["fields"])
    effort = merged.get("model_reasoning_effort")
    summary = merged.get("model_reasoning_summary")
    reasoning = dict(fields.get("reasoning") or {})
    if isinstance(effort, str):
        reasoning["effort"] = effort
    if summary == "none":
        reasoning.pop("summary", None)  # Codex 0.171 then sends `reasoning: {}`
    elif isinstance(summary, str) and summary:
        reasoning["summary"] = summary  # "detailed" is sent as it is (captured from Codex 0.171.0)
    if merged.get("web_search") == "disabled":  # Codex 0.171.0 then sends no web_search tool (captured)
        tools = [t for t in tools if not (isinstance(t, dict) and t.get("type") == "web_search")]
    return fields, reasoning, tools


# ---- the request's shape: what the ticket's request file holds by default (issue 36) --------------------------------
# Words that are one token each, with their leading space, in o200k_base and cl100k_base alike (tests/test_ticket.py
# holds that), by length in bytes: a placeholder made of them has as many tokens as it has words, so its size in bytes
# and in tokens can both be chosen.
PLACEHOLDER_WORDS: dict[int, tuple[str, ...]] = {
    2: (" a", " I", " s"),
    3: (" of", " to", " in"),
    4: (" the", " and", " for"),
    5: (" with", " that", " from"),
    6: (" about", " which", " their"),
    7: (" return", " result", " system"),
    8: (" through", " between", " program"),
    9: (" function", " document", " response"),
    10: (" different", " available", " important"),
    11: (" experience", " understand", " individual"),
    12: (" information", " application", " development"),
    13: (" requirements", " organization", " professional"),
    14: (" communication", " understanding", " international"),
    15: (" implementation", " responsibility", " infrastructure"),
}
_LONGEST = max(PLACEHOLDER_WORDS)


@dataclass(frozen=True)
class TextShape:
    """One text of the request's `input`: where it is, what it is, its size, and what the request file holds for it."""

    at: str  # input[3].content[0].text
    role: str
    what: str
    chars: int
    bytes: int  # UTF-8
    body_bytes: int  # in the JSON body: newlines, quotes and backslashes escaped
    tokens: int
    kept: bool  # Codex's own text (the same for every user), written as it is
    file_bytes: int  # what the file holds in its place, in the JSON body
    file_tokens: int


@dataclass(frozen=True)
class RequestShape:
    """Codex's first request with every text that is not Codex's own replaced by a placeholder of the same size."""

    body: dict[str, Any]
    texts: tuple[TextShape, ...]
    tokenizer: str
    body_bytes: int  # the request as sent (compact JSON, UTF-8)
    file_bytes: int  # the body written instead

    def as_data(self) -> dict[str, Any]:
        body = self.body
        return {
            "model": body.get("model"),
            "fields": list(body),
            "tools": tool_names(body),
            "tokenizer": self.tokenizer,
            "body_bytes": self.body_bytes,
            "file_bytes": self.file_bytes,
            "texts": [asdict(t) for t in self.texts],
        }


def compact(body: Mapping[str, Any]) -> str:
    """The body as Codex serialises it: compact JSON, UTF-8 as it is."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


def json_size(text: str) -> int:
    """How many bytes `text` takes inside a JSON body (its quotes aside): newlines and quotes are escaped."""
    return len(json.dumps(text, ensure_ascii=False).encode("utf-8")) - 2


def tool_names(body: Mapping[str, Any]) -> list[str]:
    names = []
    for tool in body.get("tools") or []:
        if isinstance(tool, dict):
            names.append(str(tool.get("name") or tool.get("type") or "?"))
    return names


def placeholder(head: str, size: int, tokens: int, count: Callable[[str], int]) -> str:
    """`head`, then words, `size` bytes of plain ASCII in all, and `tokens` tokens where the two can be met (between
    2 and 15 bytes a token: a text denser or sparser than that gets the nearest count). Without room for `head`,
    words alone."""
    head_tokens = count(head) if head else 0
    if len(head) + 2 > size or head_tokens >= tokens:
        head, head_tokens = "", 0
    room, words = size - len(head), tokens - head_tokens
    if room < 2:
        return head + "x" * max(0, room)
    words = min(max(words, -(-room // _LONGEST)), room // 2)
    short, longer = divmod(room, words)  # `longer` words one byte longer than the rest
    out = [head]
    for n in range(words):
        choices = PLACEHOLDER_WORDS[short + 1 if n < longer else short]
        out.append(choices[n % len(choices)])
    return "".join(out)


def shape(first: FirstRequest, count: Callable[[str], int], tokenizer: str) -> RequestShape:
    """What the ticket's request file holds unless the user asks for the texts: the same fields, items, roles, model
    and tools (Codex's own schemas), Codex's own instructions and permissions text as they are (they are the same for
    every user), and every other text (AGENTS.md, instructions from config.toml, the skills text with CODEX_HOME, the
    environment context with the working folder, the question) replaced by a placeholder that says what it replaced
    and takes as many bytes in the JSON body and as many tokens as the text did."""
    tpl = template()
    codex_own = {tpl["base_instructions"], tpl["permissions_instructions"]}
    labels = iter(first.labels)
    body = json.loads(json.dumps(first.body))
    texts: list[TextShape] = []
    for i, item in enumerate(body.get("input") or []):
        if not isinstance(item, dict):
            continue
        for j, part in enumerate(item.get("content") or []):
            if not (isinstance(part, dict) and isinstance(part.get("text"), str)):
                continue
            text = part["text"]
            what = next(labels, "a text")
            kept = text in codex_own
            n = count(text)
            if not kept:
                head = f"[codexdoctor placeholder for {what}: {len(text):,} characters, not included]"
                part["text"] = placeholder(head, json_size(text), n, count)
            texts.append(
                TextShape(
                    f"input[{i}].content[{j}].text",
                    str(item.get("role") or item.get("type") or "?"),
                    what,
                    len(text),
                    len(text.encode("utf-8")),
                    json_size(text),
                    n,
                    kept,
                    json_size(part["text"]),
                    n if kept else count(part["text"]),
                )
            )
    return RequestShape(
        body,
        tuple(texts),
        tokenizer,
        len(compact(first.body).encode("utf-8")),
        len(compact(body).encode("utf-8")),
    )


# ---- turn two: the request Codex sends after a tool ran (issue 31, issue 38 item 4) -----------------------------------
# Captured from Codex 0.171.0 (`codex exec -s danger-full-access`, a provider asking for exec_command calls): the same
# fields as turn one, no previous_response_id, and `input` = the turn-one items, then the replayed reasoning item (only
# when the provider sent one), every function_call of the answer exactly as streamed, then every function_call_output
# in the same order (`function_call, function_call, function_call_output, function_call_output` for two calls), each
# `output` a plain string cut by Codex's rule for the model (codex/truncation.py).
TURN_TWO_CALL_ID = "call_codexdoctor_turn2"
TURN_TWO_FILE = "src/app.py"
TURN_TWO_CALLS = 2  # Codex sends `parallel_tool_calls: true`: a model may ask for several commands at once


def exec_output(text: str, tokens: int, chunk: str = "c0d3d0") -> str:
    """An exec_command result as Codex writes it into function_call_output.output (0.171.0), for an output within
    Codex's budget (codex/truncation.py cuts the larger ones)."""
    return (
        f"Chunk ID: {chunk}\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: {tokens}\n"
        f"Output:\n{text}"
    )


def synthetic_tool_output() -> str:
    """What a typical first tool round returns: about 10 KB of a source file. Made up here; nothing is run.
    Deterministic, so the request is the same on every check."""
    lines = [
        f'def handler_{n}(request):\n    """Serve route {n}: validate, load, render."""\n'
        f"    data = load(request.args.get('id_{n}'))\n    return render('page_{n}.html', data=data)\n"
        for n in range(60)
    ]
    return "".join(lines)[: 10 * 1024]


def _synthetic_reads(calls: int) -> list[tuple[str, str]]:
    """(command, output) of `calls` harmless reads that share the synthetic file between them, so the request is
    about as large with one call as with two."""
    lines = synthetic_tool_output().splitlines(keepends=True)
    per = -(-len(lines) // calls)
    return [
        (f"sed -n {n * per + 1},{(n + 1) * per}p {TURN_TWO_FILE}", "".join(lines[n * per : (n + 1) * per]))
        for n in range(calls)
    ]


@dataclass(frozen=True)
class TurnTwo:
    """Codex's second request of a turn, after exec_command calls, and what it adds to the first."""

    body: dict[str, Any]
    item_kinds: tuple[str, ...]  # the item kinds turn one never carries, in order: reasoning, function_call(s), outputs
    added_bytes: int  # the tool calls and their outputs, as JSON
    calls: int = TURN_TWO_CALLS


def turn_two(
    first_body: Mapping[str, Any],
    reasoning: Mapping[str, Any] | None = None,
    cut: Cut | None = None,
    calls: int = TURN_TWO_CALLS,
) -> TurnTwo:
    """Turn two for this user's first request: `calls` synthetic, harmless `exec_command` calls (never run) that read
    one file between them, then their outputs, in Codex's order, each cut as Codex cuts it for this model (`cut`;
    Codex's fallback, 10,000 bytes, when not given). `reasoning`: the reasoning item the provider streamed in turn one
    (replayed with its encrypted_content, as Codex does); none when it sent none."""
    from codexdoctor.codex import truncation

    cut = cut or truncation.Cut(10_000, "bytes")
    added: list[dict[str, Any]] = []
    if reasoning:
        added.append(
            {
                "type": "reasoning",
                "id": reasoning.get("id"),
                "summary": reasoning.get("summary") or [],
                "content": None,
                "encrypted_content": reasoning.get("encrypted_content"),
            }
        )
    reads = _synthetic_reads(max(1, calls))
    ids = [TURN_TWO_CALL_ID if n == 0 else f"{TURN_TWO_CALL_ID}_{n + 1}" for n in range(len(reads))]
    for n, (command, _) in enumerate(reads):
        added.append(
            {
                "type": "function_call",
                "status": "completed",
                "id": f"fc_codexdoctor_turn2_{n + 1}",
                "name": "exec_command",
                "arguments": json.dumps({"cmd": command}),
                "call_id": ids[n],
            }
        )
    for n, (_, text) in enumerate(reads):
        added.append(
            {
                "type": "function_call_output",
                "id": f"fco_codexdoctor_turn2_{n + 1}",
                "call_id": ids[n],
                "output": truncation.exec_output(text, cut, chunk=f"c0d3d{n}"),
            }
        )
    body = {**first_body, "input": list(first_body.get("input") or []) + added}
    return TurnTwo(body, tuple(i["type"] for i in added), len(json.dumps(added).encode()), len(reads))
