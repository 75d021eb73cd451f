"""Drop It: wooden shapes dropped into a vertical board, in 2D physics (spec rules/drop-it.md).

Modules: `board` (geometry data), `components` (pieces), `physics` (pymunk world),
`scoring` (landing rules on settled poses), `options`, `actions`, `state` (the turn
machine), `game`, `observation` (view and encoding),
`render` (SVG/PNG), `bots`, `terminal`.
"""

from gamenight.games.drop_it.actions import KEEP, SPEND, Drop, Joker
from gamenight.games.drop_it.game import DropIt
from gamenight.games.drop_it.options import Options
from gamenight.games.drop_it.state import DropItState

__all__ = ["KEEP", "SPEND", "Drop", "DropIt", "DropItState", "Joker", "Options"]
