"""Write a tiny random-weight llama model as GGUF, so a real llama.cpp server can run here without downloading one.

Its answers are noise, but the server around it is real: it tokenizes, enforces its context window (`n_ctx`)
and answers with its own error bodies, which is what codexdoctor and Codex meet. Tokens are bytes (one
token per UTF-8 byte), so a prompt costs about 4x the tokens it costs with OpenAI's tokenizers.

    pip install gguf numpy
    python scripts/make_tiny_gguf.py /tmp/tiny.gguf
"""

from __future__ import annotations

import sys

import numpy as np
from gguf import GGUFWriter, TokenType

N_EMBD, N_LAYER, N_HEAD, N_FF, N_CTX_TRAIN = 64, 2, 4, 128, 131072


def vocab() -> tuple[list[bytes], list[float], list[int]]:
    tokens = [b"<unk>", b"<s>", b"</s>"]
    types = [TokenType.UNKNOWN, TokenType.CONTROL, TokenType.CONTROL]
    for byte in range(256):
        tokens.append(f"<0x{byte:02X}>".encode())
        types.append(TokenType.BYTE)
    for word in ("\u2581", "\u2581ok", "ok"):
        tokens.append(word.encode())
        types.append(TokenType.NORMAL)
    return tokens, [0.0] * len(tokens), [int(t) for t in types]


def main(path: str) -> None:
    rng = np.random.default_rng(0)
    tokens, scores, types = vocab()
    n_vocab = len(tokens)
    w = GGUFWriter(path, "llama")
    w.add_name("codexdoctor-tiny")
    w.add_context_length(N_CTX_TRAIN)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_rope_dimension_count(N_EMBD // N_HEAD)
    w.add_file_type(0)  # all F32
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores(scores)
    w.add_token_types(types)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)
    w.add_add_bos_token(True)
    w.add_chat_template(
        "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}"
        "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
    )

    def t(name: str, *shape: int) -> None:
        w.add_tensor(name, (rng.standard_normal(shape) * 0.02).astype(np.float32))

    t("token_embd.weight", n_vocab, N_EMBD)
    w.add_tensor("output_norm.weight", np.ones(N_EMBD, dtype=np.float32))
    t("output.weight", n_vocab, N_EMBD)
    for i in range(N_LAYER):
        w.add_tensor(f"blk.{i}.attn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        w.add_tensor(f"blk.{i}.ffn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
            t(f"blk.{i}.{name}.weight", N_EMBD, N_EMBD)
        t(f"blk.{i}.ffn_gate.weight", N_FF, N_EMBD)
        t(f"blk.{i}.ffn_up.weight", N_FF, N_EMBD)
        t(f"blk.{i}.ffn_down.weight", N_EMBD, N_FF)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tiny.gguf")
