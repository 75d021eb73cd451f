"""Sizes that show the shape (issue 44, item 5): no function in server/ over 60 lines and
no file over 400 lines, unless the first paragraph of the file's module docstring says why
in a sentence with "400 lines" and "because" ("It is over 400 lines because ...").

A function is measured from its `def` line to its last line (decorators not counted), so a
function nested in another counts in its parent's lines too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import gamenight.server

SERVER = Path(gamenight.server.__file__).parent
MAX_FUNCTION = 60
MAX_FILE = 400
REASON = re.compile(r"400 lines[^.]*\bbecause\b", re.IGNORECASE)

# Over the limits still: "path" for a file, "path:function" for a function (paths under
# server/). Remove an entry when it fits (a stale entry fails).
PENDING: set[str] = set()


def functions(path: Path) -> dict[str, int]:
    """Every function of a file ("path:name", nested ones as "path:outer.name") -> lines."""
    rel = path.relative_to(SERVER).as_posix()
    found: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                assert child.end_lineno is not None
                found[f"{rel}:{name}"] = child.end_lineno - child.lineno + 1
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(path.read_text(), str(path)), "")
    return found


def says_why(path: Path) -> bool:
    """Does the module docstring's first paragraph say why the file is longer?"""
    doc = ast.get_docstring(ast.parse(path.read_text(), str(path))) or ""
    first = doc.split("\n\n")[0]
    return bool(REASON.search(" ".join(first.split())))


def offenders() -> dict[str, str]:
    """What is over the limits, with its size."""
    found = {}
    for path in sorted(SERVER.rglob("*.py")):
        rel = path.relative_to(SERVER).as_posix()
        lines = len(path.read_text().splitlines())
        if lines > MAX_FILE and not says_why(path):
            found[rel] = f"{lines} lines (file)"
        for name, n in functions(path).items():
            if n > MAX_FUNCTION:
                found[name] = f"{n} lines"
    return found


def test_no_function_or_file_is_too_long() -> None:
    found = offenders()
    for name, size in sorted(found.items()):
        print(f"{name}: {size}{' (pending)' if name in PENDING else ''}")
    new = {name: size for name, size in found.items() if name not in PENDING}
    assert not new, (
        f"over {MAX_FUNCTION} lines a function or {MAX_FILE} a file (or say why in the "
        f"module docstring: see this test's doc): {new}"
    )


def test_pending_entries_are_still_too_long() -> None:
    stale = PENDING - set(offenders())
    assert not stale, f"these fit now; remove them from PENDING: {sorted(stale)}"
