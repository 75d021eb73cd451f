"""Which games exist and how to load one with validated options.

Each game package under `gamenight.games` declares a `SPEC` (engine/spec.py) and registers
it on its last line; a game from another distribution registers through the
`gamenight.games` entry-point group (the value is the package that registers its spec).
Listing the games imports only their `__init__` modules, which stay light.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib.metadata import entry_points
from typing import Any

from gamenight.engine.core import BadInput, Game, said
from gamenight.engine.spec import GameSpec
from gamenight.i18n import N_

_SPECS: dict[str, GameSpec] = {}
_discovered = False


def register(spec: GameSpec) -> None:
    """Add a game (called on the last line of a game package's `__init__`)."""
    _SPECS[spec.name] = spec


def _discover() -> None:
    global _discovered
    if _discovered:
        return
    _discovered = True
    import gamenight.games as package

    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        if info.ispkg:
            importlib.import_module(info.name)
    for point in entry_points(group="gamenight.games"):
        importlib.import_module(point.value.partition(":")[0])


def games() -> list[str]:
    """The names of every game, sorted."""
    _discover()
    return sorted(_SPECS)


def spec(name: str) -> GameSpec:
    """The declaration of game `name` (BadInput listing the games if there is none)."""
    _discover()
    if name not in _SPECS:
        raise BadInput(
            said(N_("no game {game}; games: {games}"), game=repr(name), games=", ".join(games()))
        )
    return _SPECS[name]


def specs() -> list[GameSpec]:
    """Every game's declaration, in name order."""
    return [spec(name) for name in games()]


def game_class(name: str) -> type[Game]:
    found: type[Game] = spec(name).game_class()
    return found


def options_class(name: str) -> Any:
    """The game's Options, from its options module: listing a game's options needs neither
    its Game class nor what that imports (Drop It's physics, Arne's action tables)."""
    try:
        return importlib.import_module(f"{spec(name).package}.options").Options
    except (ImportError, AttributeError):  # a game laid out otherwise
        return game_class(name).Options


def load(name: str, **options: Any) -> Game:
    """The game `name` with `options` validated (BadInput says what is wrong)."""
    cls = game_class(name)
    return cls.from_options(**options)
