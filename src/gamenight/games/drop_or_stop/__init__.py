"""Drop or Stop?!: push-your-luck cards (spec rules/drop-or-stop.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamenight.engine.registry import register
from gamenight.engine.spec import GameSpec
from gamenight.games import lazy_names

if TYPE_CHECKING:
    from gamenight.games.drop_or_stop.actions import DROP, STOP, Drop, Stop
    from gamenight.games.drop_or_stop.game import DropOrStop
    from gamenight.games.drop_or_stop.options import DropOrStopOptions, Options
    from gamenight.games.drop_or_stop.state import DropOrStopState

SPEC = GameSpec(
    name="drop-or-stop",
    title="Drop or Stop",
    pitch="Draw another card or stop: get closest to 11 without going over.",
    players=(2, 4),
    default_players=3,
    length="10 min",
    difficulty="easy",
    game="gamenight.games.drop_or_stop:DropOrStop",
    bots="gamenight.games.drop_or_stop.bots",
    terminal="gamenight.games.drop_or_stop.terminal",
    web="drop-or-stop.js",
    chance="gamenight.games.drop_or_stop.chance",
    coach="gamenight.games.drop_or_stop.coach",
    batched="gamenight.games.drop_or_stop.batched",
    rules="rules/drop-or-stop.md",
    moments=("revealed",),  # R16: the round's reveal and scoring
)

# Listing the games imports only this file; the game's modules load on first use.
__getattr__ = lazy_names(
    __name__,
    actions=("DROP", "STOP", "Drop", "Stop"),
    game=("DropOrStop",),
    options=("DropOrStopOptions", "Options"),
    state=("DropOrStopState",),
)

__all__ = [
    "DROP",
    "STOP",
    "Drop",
    "DropOrStop",
    "DropOrStopOptions",
    "DropOrStopState",
    "Options",
    "Stop",
]

register(SPEC)
