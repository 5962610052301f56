"""A local OpenAI-compatible provider that misbehaves on demand.

Real sockets, real SSE, real token counts: the live checks, the probe and
`codexdoctor demo` are tested against it, and the real Codex CLI can talk to
it. Faults are opt-in via SimConfig; the defaults are a healthy provider.

config (knobs, records) · prompt (token counts) · errors (bodies per server family) · plumbing, faults,
catalog (GET), generate (POST) with responses/chat bodies · handler (all of them) · server (threads, RunningSim).
"""

from codexdoctor.sim.config import ANSWER, ERROR_STYLES, FAULTS, RequestRecord, SimConfig, config_snippet
from codexdoctor.sim.errors import BAD_GATEWAY, LANDING, context_error, model_error
from codexdoctor.sim.prompt import count_input, input_text
from codexdoctor.sim.server import RunningSim, SimServer, start

__all__ = [
    "ANSWER",
    "BAD_GATEWAY",
    "ERROR_STYLES",
    "FAULTS",
    "LANDING",
    "RequestRecord",
    "RunningSim",
    "SimConfig",
    "SimServer",
    "config_snippet",
    "context_error",
    "count_input",
    "input_text",
    "model_error",
    "start",
]
