"""gamenight: Drop or Stop, Arne and Drop It, played exactly by their rules.

import gamenight
game = gamenight.load("drop-or-stop", players=3)
state = game.start(seed=7)
"""

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
