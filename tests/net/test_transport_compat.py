"""net/transport.py is a re-export while checks/ moves (issue 37): every name callers import from it is there, and
is the very object its new module defines (no copy that could drift)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import codexdoctor
import codexdoctor.net.transport as transport

PACKAGE = Path(codexdoctor.__file__).parent


def imported_from(module: str) -> set[str]:
    """Every name any module of codexdoctor/ imports from `module` (function-level imports too)."""
    names = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == module:
                names |= {a.name for a in node.names}
    return names


def test_every_name_still_imported_from_transport_is_there():
    wanted = imported_from("codexdoctor.net.transport")
    assert {"Deadline", "Exchange", "send", "make_client", "proxy_for", "proxy_variable"} <= wanted
    assert wanted <= set(transport.__all__)


def test_each_reexport_is_its_new_modules_own_object():
    for name in transport.__all__:
        value = getattr(transport, name)
        home = getattr(value, "__module__", None)
        if home and home.startswith("codexdoctor.net.") and home != "codexdoctor.net.transport":
            assert getattr(importlib.import_module(home), name) is value, name
    assert transport.Exchange.__module__ == "codexdoctor.net.exchange"
    assert transport.send.__module__ == "codexdoctor.net.send"
