"""Drop or Stop actions (R10-R12): DROP and STOP, the integer action space 0 and 1."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from gamenight.engine.core import Action


@dataclass(frozen=True, slots=True)
class Drop(Action):
    """DROP: draw one card face up into your tableau (R11)."""

    kind: ClassVar[str] = "drop"


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """STOP: pass for the rest of the round (R12)."""

    kind: ClassVar[str] = "stop"


DROP = Drop()
STOP = Stop()
# The legal sets of R10, R12a and R14, shared (never mutated) so `actions` builds no list.
DROP_OR_STOP: list[Action] = [DROP, STOP]  # also the integer action space: 0 drop, 1 stop
ONLY_STOP: list[Action] = [STOP]
NOTHING: list[Action] = []
