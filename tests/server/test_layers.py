"""The server's modules depend downward (issue 44, item 2): no module of server/ imports a
module of a higher layer, at module level, under `if TYPE_CHECKING:` or lazily inside a
function (a lazy import that dodges a circle is still a dependency upward).

Layers, lowest first (a module may import its own layer and those below it):

  0  live_table, db, limits, names, passwords, login_limits; guard, budget, workers,
     gc_tuning, metrics (infrastructure that knows no table)
  1  host (what the parts need of their host), operations (the table of operations, which
     names its functions by module path), rights, moments, timers
  2  messages, seats, series, scheduler, pipeline, table_store (the parts of a table)
  3  tables
  4  cluster
  5  routes, chat, shared, coach, review, review_coach, accounts, lobby, pages, ops,
     admission, language (the rooms)
  6  app, run, migrations

A module not placed here fails the test: say where it belongs.
"""

from __future__ import annotations

import ast
from pathlib import Path

import gamenight.server

SERVER = Path(gamenight.server.__file__).parent
LAYERS: list[set[str]] = [
    {
        "live_table",
        "db",
        "limits",
        "names",
        "passwords",
        "login_limits",
        "guard",
        "budget",
        "workers",
        "gc_tuning",
        "metrics",
    },
    {"host", "operations", "rights", "moments", "timers"},
    {"messages", "seats", "series", "scheduler", "pipeline", "table_store"},
    {"tables"},
    {"cluster"},
    {
        "routes",
        "chat",
        "shared",
        "coach",
        "review",
        "review_coach",
        "accounts",
        "lobby",
        "pages",
        "ops",
        "admission",
        "archive",
        "programs",
        "language",
    },
    {"app", "run", "migrations", ""},  # "": the package's own __init__
]

# Imports upward that are still there, (importer, imported) by their top names. Each is
# printed when the test runs; remove an entry when its import is gone (a stale entry fails).
PENDING: set[tuple[str, str]] = set()


def layer_of(name: str) -> int:
    """The layer of a module named relative to gamenight.server ("routes.live": routes)."""
    top = name.split(".")[0]
    for i, members in enumerate(LAYERS):
        if top in members:
            return i
    raise AssertionError(f"gamenight.server.{name} is in no layer: add it to LAYERS")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SERVER).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(node: ast.Import | ast.ImportFrom, here: str, package: bool) -> list[str]:
    """The server modules an import statement reaches, relative to gamenight.server."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:  # relative: from the importing module's package
            parts = ["gamenight", "server", *here.split(".")] if here else ["gamenight", "server"]
            keep = len(parts) - node.level + (1 if package else 0)
            base = ".".join(parts[:keep] + ([base] if base else []))
        names = [f"{base}.{alias.name}" for alias in node.names]
        # `from gamenight.server import rights` reaches the module rights; `from
        # gamenight.server.db import Store` reaches db
        names = [n if _is_module(n) else base for n in names]
    prefix = "gamenight.server."
    return [n.removeprefix(prefix) for n in names if n.startswith(prefix)]


def _is_module(dotted: str) -> bool:
    parts = dotted.split(".")[2:]  # past gamenight.server
    where = SERVER.joinpath(*parts) if parts else SERVER
    return where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()


def violations() -> list[tuple[str, str, str]]:
    """(importer, imported, where) for every import of a higher layer's module."""
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        here = module_name(path)
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for target in dict.fromkeys(imported(node, here, path.name == "__init__.py")):
                if layer_of(target) > layer_of(here):
                    where = f"{path.relative_to(SERVER)}:{node.lineno}"
                    found.append((here, target, where))
    return found


def top(name: str) -> str:
    return name.split(".")[0]


def test_no_server_module_imports_a_higher_layer() -> None:
    found = violations()
    for here, target, where in found:
        pending = " (pending)" if (top(here), top(target)) in PENDING else ""
        print(
            f"{where}: {here} (layer {layer_of(here)}) imports {target} "
            f"(layer {layer_of(target)}){pending}"
        )
    new = sorted(
        f"{where}: {here} imports {target}"
        for here, target, where in found
        if (top(here), top(target)) not in PENDING
    )
    assert not new, "imports of a higher layer:\n" + "\n".join(new)


def test_pending_imports_are_still_there() -> None:
    """An entry of PENDING whose import is gone is removed from the list."""
    still = {(top(here), top(target)) for here, target, _ in violations()}
    assert not PENDING - still, f"no longer imported, remove from PENDING: {PENDING - still}"


def test_every_server_module_has_a_layer() -> None:
    for path in SERVER.rglob("*.py"):
        layer_of(module_name(path))
