"""Which games exist and how to load one with validated options.

Games are registered by import path so that `import gamenight` stays light (Drop It
pulls in pymunk only when it is loaded).
"""

from __future__ import annotations

import importlib
from typing import Any

from gamenight.engine.core import BadInput, Game

_GAMES: dict[str, str] = {
    "arne": "gamenight.games.arne:Arne",
    "drop-it": "gamenight.games.drop_it:DropIt",
    "drop-or-stop": "gamenight.games.drop_or_stop:DropOrStop",
}


def register(name: str, path: str) -> None:
    """Add a game: `path` is "module:GameClass"."""
    _GAMES[name] = path


def games() -> list[str]:
    """The names of every game, sorted."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    if name not in _GAMES:
        raise BadInput(f"no game {name!r}; games: {', '.join(games())}")
    module, cls = _GAMES[name].split(":")
    found: type[Game] = getattr(importlib.import_module(module), cls)
    return found


def load(name: str, **options: Any) -> Game:
    """The game `name` with `options` validated (BadInput says what is wrong)."""
    cls = game_class(name)
    return cls.from_options(**options)
