"""Drop It: wooden shapes dropped into a vertical board, in 2D physics (spec rules/drop-it.md).

Modules: `board` (geometry data), `components` (pieces), `physics` (pymunk world),
`scoring` (landing rules on settled poses), `options`, `actions`, `state` (the turn
machine), `game`, `observation` (view and encoding),
`render` (SVG/PNG), `pictures` (the page's board, RGB arrays), `bots`, `terminal`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamenight.engine.registry import register
from gamenight.engine.spec import GameSpec
from gamenight.games import lazy_names

if TYPE_CHECKING:
    from gamenight.games.drop_it.actions import KEEP, SPEND, Drop, Joker
    from gamenight.games.drop_it.game import DropIt
    from gamenight.games.drop_it.options import Options
    from gamenight.games.drop_it.state import DropItState

SPEC = GameSpec(
    name="drop-it",
    title="Drop It",
    pitch="Drop wooden shapes into an upright board: land high, touch no matching colour.",
    players=(2, 6),
    default_players=2,
    length="15 min",
    difficulty="medium",
    game="gamenight.games.drop_it:DropIt",
    bots="gamenight.games.drop_it.bots",
    terminal="gamenight.games.drop_it.terminal",
    web="drop-it.js",
    heavy=True,
    pictures="gamenight.games.drop_it.pictures",
    rules="rules/drop-it.md",
    coach="gamenight.games.drop_it.coach",
)

# Listing the games imports only this file; the game's modules load on first use.
__getattr__ = lazy_names(
    __name__,
    actions=("KEEP", "SPEND", "Drop", "Joker"),
    game=("DropIt",),
    options=("Options",),
    state=("DropItState",),
)

__all__ = ["KEEP", "SPEND", "Drop", "DropIt", "DropItState", "Joker", "Options"]

register(SPEC)
