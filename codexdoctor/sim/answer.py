"""The answer text, cut into the tokens a stream sends, and the usage block both APIs report."""

from __future__ import annotations

from typing import Any

from codexdoctor.sim.config import ANSWER
from codexdoctor.sim.faults import Faults


class Answer(Faults):
    """Shared by the Responses and Chat Completions bodies."""

    def _pieces(self, n_out: int) -> list[str]:
        from codexdoctor.common import tokens

        tok = tokens.load("o200k_base")
        text = ANSWER * (1 + n_out // 20)
        if tok.exact:
            ids = tok.encode(text)[:n_out]
            return [tok.decode([i]) for i in ids]
        return text.split(" ")[:n_out]

    @staticmethod
    def _usage(usage: tuple[int, int | None, int], chat: bool) -> dict[str, Any]:
        inp, cached, out = usage
        if chat:
            u: dict[str, Any] = {"prompt_tokens": inp, "completion_tokens": out, "total_tokens": inp + out}
            if cached is not None:
                u["prompt_tokens_details"] = {"cached_tokens": cached}
            return u
        u = {
            "input_tokens": inp,
            "output_tokens": out,
            "total_tokens": inp + out,
            "output_tokens_details": {"reasoning_tokens": 0},
        }
        if cached is not None:
            u["input_tokens_details"] = {"cached_tokens": cached}
        return u
