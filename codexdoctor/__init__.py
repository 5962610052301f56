"""codexdoctor: is your broken Codex CLI setup the channel or the context?"""

__version__ = "0.1.0"
