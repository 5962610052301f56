"""Model catalogs and published windows in the shapes real servers use."""

import pytest

from codexdoctor.checks.live import base_url_variants, catalog_entries, match_model, window_from_entry

SHAPES = {
    "openai": {"object": "list", "data": [{"id": "gpt-5", "object": "model"}, {"id": "gpt-5-mini", "object": "model"}]},
    "vllm": {"object": "list", "data": [{"id": "Qwen/Qwen3-Coder", "owned_by": "vllm", "max_model_len": 32768}]},
    "llamacpp": {
        "object": "list",
        "data": [{"id": "qwen.gguf", "owned_by": "llamacpp", "meta": {"n_ctx_train": 40960, "n_ctx": 8192}}],
    },
    "openrouter": {
        "data": [{"id": "qwen/qwen3-coder", "context_length": 262144, "top_provider": {"context_length": 262144}}]
    },
    "ollama-tags": {"models": [{"name": "qwen3-coder:30b", "model": "qwen3-coder:30b"}]},
    "litellm-info": {"data": [{"model_name": "gpt-5", "model_info": {"max_input_tokens": 272000}}]},
    "bare-list": ["m1", "m2"],
}


@pytest.mark.parametrize(
    "shape,ids",
    [
        ("openai", ["gpt-5", "gpt-5-mini"]),
        ("vllm", ["Qwen/Qwen3-Coder"]),
        ("llamacpp", ["qwen.gguf"]),
        ("openrouter", ["qwen/qwen3-coder"]),
        ("ollama-tags", ["qwen3-coder:30b"]),
        ("litellm-info", ["gpt-5"]),
        ("bare-list", ["m1", "m2"]),
    ],
)
def test_catalog_entries(shape, ids):
    assert [e["id"] for e in catalog_entries(SHAPES[shape])] == ids


@pytest.mark.parametrize(
    "shape,window",
    [("vllm", 32768), ("llamacpp", 8192), ("openrouter", 262144), ("litellm-info", 272000), ("openai", None)],
)
def test_published_window(shape, window):
    assert window_from_entry(catalog_entries(SHAPES[shape])[0]) == window


@pytest.mark.parametrize(
    "model,ids,match,closest",
    [
        ("gpt-5", ["gpt-5", "o3"], "exact", []),
        ("GPT-5", ["gpt-5"], "case", ["gpt-5"]),
        (" gpt-5 ", ["gpt-5"], "whitespace", ["gpt-5"]),
        ("qwen3-coder", ["qwen3-coder-plus", "deepseek-v3"], "missing", ["qwen3-coder-plus"]),
        # a date or version suffix where exactly one catalog ID is the rest: a certain edit (issue 28)
        ("claude-sonnet-4-20250514", ["claude-sonnet-4", "claude-opus-4"], "dated", ["claude-sonnet-4"]),
        ("gpt-5.1-codex-2025-11-13", ["gpt-5.1-codex", "gpt-5.1"], "dated", ["gpt-5.1-codex"]),
        ("Qwen3-Coder-latest", ["qwen3-coder", "qwen3"], "dated", ["qwen3-coder"]),
        ("gpt-5-2025-08-07", ["gpt-5", "GPT-5"], "missing", []),  # two candidates: not certain, no guess either
    ],
)
def test_match_model(model, ids, match, closest):
    result = match_model(model, ids)
    assert result["match"] == match and result["closest"][: len(closest)] == closest


def test_base_url_variants():
    # /v1 removed, the last segment dropped (with and without /v1), then the usual prefixes; never the original
    assert base_url_variants("https://gw.example/api/v1") == ["https://gw.example/api", "https://gw.example/v1"]
    assert base_url_variants("https://taotoken.net/api") == ["https://taotoken.net/api/v1", "https://taotoken.net/v1"]
    assert base_url_variants("https://gw.example") == [
        "https://gw.example/v1",
        "https://gw.example/api",
        "https://gw.example/api/v1",
    ]
