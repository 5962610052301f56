"""Codex 0.171's cut of a tool output (codex/truncation.py) against the requests real Codex sent
(scripts/crosscheck_tool_rounds.py, CROSSCHECK_DUMP; docs/codex-behaviour.md, "The request after a tool call")."""

from __future__ import annotations

import hashlib

import pytest

from codexdoctor.codex import truncation
from codexdoctor.codex.models import lookup, tool_output_budget_bytes
from codexdoctor.codex.truncation import Cut, cut_middle, exec_output, kept_output
from codexdoctor.common import tokens

SEQ_10000 = "".join(f"{n}\n" for n in range(1, 10001))  # `seq 1 10000`: 48,894 bytes


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize(
    "model, limit, chunk, size, marker, digest",
    [
        # a model without metadata: bytes 10,000
        ("sim-model", None, "d0e621", 10216, "…38894 chars truncated…", "07ed202714fb70193eeb567be10270be"),
        # a catalog model: tokens 10,000 (40,000 bytes)
        ("gpt-5.5", None, "594a4b", 40216, "…2224 tokens truncated…", "63e2405b12364bd34bbbac84ee095913"),
        # tool_output_token_limit = 1000 keeps the bytes mode: 4,000 bytes
        ("sim-model", 1000, "641972", 4216, "…44894 chars truncated…", "287b4362a3f603926cc993af056537c3"),
    ],
)
def test_seq_output_is_cut_byte_for_byte_as_real_codex_cut_it(model, limit, chunk, size, marker, digest):
    budget, mode = tool_output_budget_bytes(lookup(model), limit)
    out = exec_output(SEQ_10000, Cut(budget, mode), chunk=chunk)
    assert len(out.encode()) == size and marker in out
    assert out.startswith(
        f"Chunk ID: {chunk}\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 12224\n"
        "Output:\nWarning: truncated output (original token count: 12224)\nTotal output lines: 10000\n\n1\n2\n"
    )
    assert sha(out).startswith(digest)  # the function_call_output.output real Codex 0.171.0 sent


def test_head_and_tail_are_half_the_budget_each():
    text = "a" * 30 + "b" * 40 + "c" * 30
    assert cut_middle(text, Cut(60, "bytes")) == "a" * 30 + "…40 chars truncated…" + "c" * 30
    # tokens mode: removed bytes / 4, rounded up
    assert cut_middle(text, Cut(60, "tokens")) == "a" * 30 + "…10 tokens truncated…" + "c" * 30
    assert cut_middle(text, Cut(58, "tokens")) == "a" * 29 + "…11 tokens truncated…" + "c" * 29


def test_cut_on_character_boundaries_counts_characters():
    text = "é" * 10 + "x" * 10 + "é" * 10  # 50 bytes, 30 characters
    # head: 10 bytes = 5 'é'; tail: the characters that start in the last 10 bytes
    out = cut_middle(text, Cut(20, "bytes"))
    assert out == "é" * 5 + "…20 chars truncated…" + "é" * 5


def test_an_output_within_the_budget_is_kept_whole_without_a_warning():
    assert kept_output("x" * 10_000, Cut(10_000, "bytes")) == "x" * 10_000
    assert kept_output("x" * 10_001, Cut(10_000, "bytes")).startswith(
        "Warning: truncated output (original token count: 2501)\nTotal output lines: 1\n\n"
    )


@pytest.mark.parametrize("key", sorted(truncation.LARGEST_OUTPUT_TOKENS))
def test_the_shipped_counts_are_the_tokenizers(key):
    name, budget, mode = key
    tok = tokens.load(name)
    assert tok.exact
    assert truncation.LARGEST_OUTPUT_TOKENS[key] == tok.count(truncation.largest_output(Cut(budget, mode)))


def test_the_worst_round_is_the_size_real_codex_sent():
    """Real Codex's round for `seq 1 10000` (second request's input minus the first's, o200k): 5,743 for a model
    without metadata, 23,742 for gpt-5.5; for `seq 1 2600`, 5,746."""
    assert 5743 <= truncation.worst_round_tokens(Cut(10_000, "bytes")) <= 5746 + 5
    assert 23742 <= truncation.worst_round_tokens(Cut(40_000, "tokens")) <= 23742 + 5
    # another budget (tool_output_token_limit = 1000): counted with the tokenizer; real Codex's round 2,331
    assert 2331 <= truncation.worst_round_tokens(Cut(4_000, "bytes")) <= 2331 + 5


def test_the_rule_in_words():
    assert Cut(10_000, "bytes").rule() == (
        "Codex keeps 10,000 bytes of each output (bytes: the first and the last 5,000, with `…N chars truncated…` "
        "between)"
    )
    assert "10,000 tokens of 4 bytes" in Cut(40_000, "tokens").rule()
