"""Drop It: wooden shapes dropped into a vertical board, in 2D physics (spec rules/drop-it.md).

Modules: `board` (geometry data), `components` (pieces), `physics` (pymunk world),
`scoring` (landing rules on settled poses), `rules` (options, actions, state machine),
`render` (SVG/PNG), `pictures` (the page's board and RGB arrays), `bots`, `terminal`.
"""

from gamenight.engine.registry import register
from gamenight.engine.spec import GameSpec
from gamenight.games.drop_it.rules import KEEP, SPEND, Drop, DropIt, DropItState, Joker, Options

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
)

__all__ = ["KEEP", "SPEND", "Drop", "DropIt", "DropItState", "Joker", "Options"]

register(SPEC)
