"""The package layout is the data flow: a module imports only from its own stage or a lower one, and no two
modules import each other, directly or round a loop (function-level imports count too). docs/architecture.md
says what each package may import; this test keeps it true."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import codexdoctor

PACKAGE = Path(codexdoctor.__file__).parent

# Lowest first. A module may import from its own stage and any stage below it.
STAGES: dict[str, int] = {
    "codexdoctor": 0,  # the package itself: __version__
    "codexdoctor.model": 0,
    "codexdoctor.facts": 0,
    "codexdoctor.common": 0,
    "codexdoctor.i18n": 0,
    "codexdoctor.codex": 1,
    "codexdoctor.net": 1,
    "codexdoctor.sim": 1,
    "codexdoctor.checks": 2,
    "codexdoctor.rules": 2,
    "codexdoctor.watch": 2,  # the recorder (net for the upstream client, codex for the config) and its diagnosis
    "codexdoctor.report": 3,
    "codexdoctor.commands": 4,
    "codexdoctor.cli": 5,
    "codexdoctor.entry": 6,  # the console script: Ctrl-C handled before cli.py is imported
    "codexdoctor.__main__": 6,
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def stage(module: str) -> int:
    best = max((prefix for prefix in STAGES if module == prefix or module.startswith(prefix + ".")), key=len)
    return STAGES[best]


def imports(module: str) -> set[str]:
    """Every codexdoctor module this one imports, anywhere in the file."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            submodules = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES]
            names = submodules if len(submodules) == len(node.names) else [base] + submodules
        else:
            continue
        found |= {n for n in names if n in MODULES and n != module}
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    """Every module's imports: read when a test here runs (at import, each xdist worker parsed the whole package while
    collecting, 0.8 s each: issue 37)."""
    return {m: imports(m) for m in MODULES}


def package(module: str) -> str:
    return max((prefix for prefix in STAGES if module == prefix or module.startswith(prefix + ".")), key=len)


def upward(graph: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{m} (stage {stage(m)}) imports {t} (stage {stage(t)})"
        for m, targets in graph.items()
        for t in targets
        if stage(t) > stage(m)
    )


def across(graph: dict[str, set[str]]) -> list[str]:
    """Imports between different packages of one stage (the package itself and __main__ -> entry aside)."""
    return sorted(
        f"{m} imports {t}"
        for m, targets in graph.items()
        for t in targets
        if package(m) != package(t)
        and stage(m) == stage(t)
        and package(m) != "codexdoctor.__main__"
        and package(t) != "codexdoctor"
    )


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                found.append(path[path.index(t) :] + [t])
            elif t not in state:
                visit(t, path + [t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    return found


def test_every_module_has_a_stage():
    packages = {m.split(".")[1] for m in MODULES if m.count(".")}
    assert packages <= {p.split(".")[1] for p in STAGES if "." in p}, packages


def test_no_module_imports_from_a_higher_stage(graph):
    assert upward(graph) == []


def test_packages_of_one_stage_stay_apart(graph):
    """checks produce facts and rules read them (by check id, as data): neither imports the other; nor do codex,
    net and sim, or model, common and i18n."""
    assert across(graph) == []


def test_no_import_cycles(graph):
    assert cycles(graph) == []


def test_the_checks_can_fail(graph):
    """Each rule, fed a graph that breaks it, reports the break (and the real graph is not trivially empty)."""
    assert upward({"codexdoctor.codex.config": {"codexdoctor.report.build"}}) == [
        "codexdoctor.codex.config (stage 1) imports codexdoctor.report.build (stage 3)"
    ]
    assert across({"codexdoctor.checks.diagnose": {"codexdoctor.rules.engine"}}) == [
        "codexdoctor.checks.diagnose imports codexdoctor.rules.engine"
    ]
    assert cycles(
        {"codexdoctor.rules": {"codexdoctor.rules.catalog"}, "codexdoctor.rules.catalog": {"codexdoctor.rules"}}
    )
    assert "codexdoctor.report.build" in graph["codexdoctor.commands.check"]
    assert "codexdoctor.codex.config" in graph["codexdoctor.commands.options"]
