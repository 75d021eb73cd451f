"""gamenight: Drop or Stop, Arne and Drop It, played exactly by their rules.

import gamenight
game = gamenight.load("drop-or-stop", players=3)
state = game.start(seed=7)
"""

from __future__ import annotations

# Nothing is imported here (not even `typing`): the `gamenight` command starts with this
# module, and Ctrl+C before its `main` runs would print a traceback.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from gamenight.engine import (
        Action,
        BadInput,
        Event,
        Game,
        IllegalAction,
        Outcome,
        State,
        games,
        load,
    )

__all__ = [
    "Action",
    "BadInput",
    "Event",
    "Game",
    "IllegalAction",
    "Outcome",
    "State",
    "games",
    "load",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """The names above, imported on first use: `import gamenight` (and so the `gamenight`
    command, which starts with it) loads nothing else."""
    import importlib

    if name not in __all__:
        raise AttributeError(f"module 'gamenight' has no attribute {name!r}")
    if name == "games":  # the games package is callable and lists the games (games/__init__)
        value = importlib.import_module("gamenight.games")
    else:
        value = getattr(importlib.import_module("gamenight.engine"), name)
    globals()[name] = value
    return value
