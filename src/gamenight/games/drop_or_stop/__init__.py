"""Drop or Stop?!: push-your-luck cards (spec rules/drop-or-stop.md)."""

from gamenight.games.drop_or_stop.actions import DROP, STOP, Drop, Stop
from gamenight.games.drop_or_stop.game import DropOrStop
from gamenight.games.drop_or_stop.options import DropOrStopOptions, Options
from gamenight.games.drop_or_stop.state import DropOrStopState

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
