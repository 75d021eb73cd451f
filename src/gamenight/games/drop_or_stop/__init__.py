"""Drop or Stop?!: push-your-luck cards (spec rules/drop-or-stop.md)."""

from gamenight.games.drop_or_stop.rules import (
    DROP,
    STOP,
    Drop,
    DropOrStop,
    DropOrStopOptions,
    DropOrStopState,
    Stop,
)

__all__ = ["DROP", "STOP", "Drop", "DropOrStop", "DropOrStopOptions", "DropOrStopState", "Stop"]
