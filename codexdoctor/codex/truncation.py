"""How much of a command's output Codex 0.171 keeps in its next request, and in what words it cuts the rest.

The rule (codex-rs/utils/output-truncation/src/lib.rs `formatted_truncate_text`, codex-rs/utils/string/src/truncate.rs;
docs/codex-behaviour.md, "The request after a tool call", checked byte for byte against real Codex's requests): an
output within the budget is kept whole; past it, Codex keeps the first half of the budget and the last half, in bytes
on character boundaries, joins them with a marker (`…N chars truncated…`, N the characters removed, for a bytes
policy; `…N tokens truncated…`, N the removed bytes / 4 rounded up, for a tokens policy) and puts a warning with the
original size in front. The exec tool then wraps the result in its own header. The budget and its mode come from the
model's metadata (codex/models.py `tool_output_budget_bytes`).
"""

from __future__ import annotations

from dataclasses import dataclass

BYTES_PER_TOKEN = 4  # APPROX_BYTES_PER_TOKEN (codex-rs/utils/string)


@dataclass(frozen=True)
class Cut:
    """A budget as Codex applies it to one output: how many bytes, and whether the marker counts chars or tokens."""

    budget_bytes: int
    mode: str  # bytes | tokens

    def rule(self) -> str:
        """The rule in words, for evidence and findings (English; the numbers are the same in every language)."""
        unit = "chars" if self.mode == "bytes" else "tokens"
        how = "bytes" if self.mode == "bytes" else f"{self.budget_bytes // BYTES_PER_TOKEN:,} tokens of 4 bytes"
        return (
            f"Codex keeps {self.budget_bytes:,} bytes of each output ({how}: the first and the last "
            f"{self.budget_bytes // 2:,}, with `…N {unit} truncated…` between)"
        )


def approx_tokens(n_bytes: int) -> int:
    """Codex's own token estimate of a text of `n_bytes` bytes: bytes / 4, rounded up."""
    return -(-max(0, n_bytes) // BYTES_PER_TOKEN)


def _line_count(text: str) -> int:
    """Rust's `str::lines().count()`: a last line without a newline counts, a trailing newline adds none."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def cut_middle(text: str, cut: Cut) -> str:
    """The text with its middle replaced by Codex's marker when it is over the budget; as it is otherwise."""
    raw = text.encode("utf-8")
    if len(raw) <= cut.budget_bytes:
        return text
    left = cut.budget_bytes // 2
    right = cut.budget_bytes - left
    tail_from = len(raw) - right
    head_end, tail_start, removed, at = 0, len(raw), 0, 0
    tail_started = False
    for ch in text:
        size = len(ch.encode("utf-8"))
        if at + size <= left:
            head_end = at + size
        elif at >= tail_from:
            if not tail_started:
                tail_start, tail_started = at, True
        else:
            removed += 1
        at += size
    tail_start = max(tail_start, head_end)
    count = approx_tokens(len(raw) - cut.budget_bytes) if cut.mode == "tokens" else removed
    unit = "tokens" if cut.mode == "tokens" else "chars"
    return raw[:head_end].decode("utf-8") + f"…{count} {unit} truncated…" + raw[tail_start:].decode("utf-8")


def kept_output(text: str, cut: Cut) -> str:
    """What Codex keeps of a command's output: the text, or the warning and the cut text."""
    n_bytes = len(text.encode("utf-8"))
    if n_bytes <= cut.budget_bytes:
        return text
    return (
        f"Warning: truncated output (original token count: {approx_tokens(n_bytes)})\n"
        f"Total output lines: {_line_count(text)}\n\n{cut_middle(text, cut)}"
    )


def exec_output(text: str, cut: Cut, chunk: str = "c0d3d0") -> str:
    """`function_call_output.output` of an exec_command call that printed `text` and exited 0, as Codex 0.171 writes
    it: the exec header (its "Original token count" is the whole output's), then what Codex keeps."""
    tokens = approx_tokens(len(text.encode("utf-8")))
    return (
        f"Chunk ID: {chunk}\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: {tokens}\n"
        f"Output:\n{kept_output(text, cut)}"
    )


def numbered_lines(n_bytes: int) -> str:
    """`seq 1 N`, N at least 9,999 and enough lines to pass `n_bytes`: the dense output (numbers, log lines, test ids)
    that costs the most tokens per byte among what commands commonly print (o200k: about 0.57 a byte, prose about
    0.24). Four-digit lines are the densest (0.6 a byte), so the kept tail is made of them whenever it can be."""
    lines, size, n = [], 0, 0
    while size <= n_bytes or n < 9999:
        n += 1
        line = f"{n}\n"
        lines.append(line)
        size += len(line)
    return "".join(lines)


def largest_output(cut: Cut) -> str:
    """The largest output Codex keeps under this cut, as the exec tool sends it: a numeric output past the budget
    (cut, with the warning and the marker). The worst case of a first tool round."""
    return exec_output(numbered_lines(cut.budget_bytes), cut)


# One exec_command call in the request after it, with the framing of its two items, in o200k tokens: the tool round
# minus its output, measured with real Codex 0.171 (`seq 1 10000`: round 5,743, output 5,726; gpt-5.5: 23,742, 23,725).
CALL_TOKENS = 17
# A typical output of the same size (source code, prose) costs about 0.28 tokens a byte in o200k (measured:
# docs/codex-behaviour.md, English prose 0.24, the turn-two request's Python 0.28); numbers and logs about 0.57.
TYPICAL_TOKENS_PER_BYTE = 0.28
# largest_output() counted once with the project's tokenizer for the budgets every model without a
# tool_output_token_limit has (tests/codex/test_truncation.py recounts them): loading the tokenizer costs `check`
# 0.5-3 s, so it is loaded only for another budget.
LARGEST_OUTPUT_TOKENS = {
    ("o200k_base", 10_000, "bytes"): 5729,
    ("o200k_base", 40_000, "tokens"): 23729,
    ("cl100k_base", 10_000, "bytes"): 5729,
    ("cl100k_base", 40_000, "tokens"): 23729,
}


def worst_round_tokens(cut: Cut, tokenizer: str = "o200k_base") -> int:
    """The first tool round at its worst: one call and the largest output Codex keeps under `cut`, in tokens of the
    project's tokenizer."""
    shipped = LARGEST_OUTPUT_TOKENS.get((tokenizer, cut.budget_bytes, cut.mode))
    if shipped is None:
        from codexdoctor.common import tokens

        shipped = tokens.load(tokenizer).count(largest_output(cut))
    return shipped + CALL_TOKENS


def typical_round_tokens(cut: Cut) -> int:
    """The first tool round with a typical output of the same size (a source file, prose): what fits when the
    worst case does not."""
    return round(cut.budget_bytes * TYPICAL_TOKENS_PER_BYTE) + CALL_TOKENS
