"""Drop It: wooden shapes dropped into a vertical board, in 2D physics (spec rules/drop-it.md).

Modules: `board` (geometry data), `components` (pieces), `physics` (pymunk world),
`scoring` (landing rules on settled poses), `rules` (options, actions, state machine),
`render` (SVG/PNG), `bots`, `terminal`.
"""

from gamenight.games.drop_it.rules import KEEP, SPEND, Drop, DropIt, DropItState, Joker, Options

__all__ = ["KEEP", "SPEND", "Drop", "DropIt", "DropItState", "Joker", "Options"]
