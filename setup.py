"""Only the optional C line scanner is declared here; everything else is in pyproject.toml.

`optional=True`: without a compiler the build goes on and codexdoctor reads session logs with the pure-Python
scanner (same results, slower on large corpora; docs/performance.md)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("codexdoctor.codex._linescan", ["codexdoctor/codex/_linescan.c"], optional=True)])
