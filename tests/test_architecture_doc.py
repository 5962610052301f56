"""docs/architecture.md's package picture names every package and module of codexdoctor/ exactly once, and
nothing that is not there (issue 37: the picture had drifted: `commands/environment.py` was missing).

The picture's grammar, which this test reads (and which a new module's line has to follow):
- a line's indentation (two spaces a level) puts it inside the package on the nearest line above that is less
  indented;
- a line's entries are its leading words that end in `.py` (a module) or `/` (a package, or a folder of data),
  separated by spaces or commas; text in parentheses between them is a remark; the first other word starts the
  description, and nothing after it counts;
- on a package's line, the entries after the package are its modules; on a module's line, they are its siblings;
- a line that starts with a description (a continuation) names nothing;
- `__init__.py` is implied by its package (a line may name it, to say what it holds); `__pycache__` is never
  named.
"""

from __future__ import annotations

import re
from pathlib import Path

import codexdoctor

PACKAGE = Path(codexdoctor.__file__).parent
DOC = PACKAGE.parent / "docs" / "architecture.md"
_ENTRY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.py|/)")


def picture() -> list[str]:
    """The lines of the code block that starts with `codexdoctor/`."""
    blocks = re.findall(r"^```\n(.*?)^```", DOC.read_text(encoding="utf-8"), flags=re.S | re.M)
    found = [b for b in blocks if b.startswith("codexdoctor/\n")]
    assert len(found) == 1, "docs/architecture.md must have one code block that starts with `codexdoctor/`"
    return found[0].splitlines()[1:]


def entries(text: str) -> list[str]:
    """The leading entries of one line (its text after the indentation), remarks in parentheses skipped."""
    out, rest = [], text
    while rest:
        rest = rest.lstrip(" ,;:")
        if rest.startswith("("):
            depth, end = 0, 0
            for end, char in enumerate(rest):
                depth += {"(": 1, ")": -1}.get(char, 0)
                if depth == 0:
                    break
            rest = rest[end + 1 :]
            continue
        m = _ENTRY.match(rest)
        if m is None or (rest[m.end() : m.end() + 1] not in ("", " ", ",", ";", ":", "(")):
            break  # the description starts here
        out.append(m.group(0))
        rest = rest[m.end() :]
    return out


def named() -> list[str]:
    """Every entry of the picture as a path below codexdoctor/ (`report/render/text.py`, `report/render/`)."""
    stack: list[tuple[int, str]] = [(-1, "")]  # (indentation, package path) of the packages open above
    out = []
    for line in picture():
        text = line.lstrip(" ")
        indent = len(line) - len(text)
        found = entries(text)
        if not found:
            continue  # a continuation of the description above
        while stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1]
        first, *more = found
        out.append(parent + first)
        if first.endswith("/"):
            stack.append((indent, parent + first))
            out += [parent + first + name for name in more]
        else:
            out += [parent + name for name in more]
    return [n for n in out if not n.endswith("__init__.py")]


def on_disk() -> set[str]:
    """Every module (but `__init__.py`) and every package or folder below codexdoctor/, as `named()` spells them."""
    out = set()
    for path in PACKAGE.rglob("*"):
        relative = path.relative_to(PACKAGE)
        if "__pycache__" in relative.parts:
            continue
        if path.is_dir():
            out.add(relative.as_posix() + "/")
        elif path.suffix == ".py" and path.name != "__init__.py":
            out.add(relative.as_posix())
    return out


def test_the_grammar_reads_the_forms_the_picture_uses():
    assert entries("cli/                the command line") == ["cli/"]
    assert entries("cfg/                files.py (CODEX_HOME, the files) provider.py keys.py") == [
        "cfg/",
        "files.py",
        "provider.py",
        "keys.py",
    ]
    assert entries("check.py probe.py rules.py (explain, rules, schema) sim.py") == [
        "check.py",
        "probe.py",
        "rules.py",
        "sim.py",
    ]
    assert entries("render/  options.py, text.py (+ chart.py): pure functions of model.py") == [
        "render/",
        "options.py",
        "text.py",
    ]
    assert entries("a family package's __init__ puts its themes in ORDER") == []
    assert entries("data/  report.schema.json, codex-request.json") == ["data/"]


def test_every_package_and_module_is_named_exactly_once():
    names = named()
    twice = sorted({n for n in names if names.count(n) > 1})
    assert not twice, f"named more than once in docs/architecture.md's package picture: {twice}"
    disk = on_disk()
    missing = sorted(disk - set(names))
    extra = sorted(set(names) - disk)
    assert not missing and not extra, (
        "docs/architecture.md's package picture and codexdoctor/ differ "
        f"(grammar: tests/test_architecture_doc.py):\n  on disk, not in the picture: {missing}\n"
        f"  in the picture, not on disk: {extra}"
    )
