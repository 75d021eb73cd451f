"""Drop It actions: `Drop(piece, x, angle, depth)` (D11, D33) and the joker choice (V3)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from gamenight.engine.core import Action

TAU = 2 * math.pi


@dataclass(frozen=True, slots=True)
class Drop(Action):
    """D11: drop `piece` (an id like "red-square-1", or "red-square", D33) with its centroid
    at `x` mm, turned `angle` radians counter-clockwise, lowest point `depth` mm below the rim.
    """

    kind: ClassVar[str] = "drop"
    piece: str
    x: float
    angle: float
    depth: float = 0.0

    def to_json(self) -> dict[str, Any]:
        # Action.to_json written out (it walks dataclasses.fields): every drop's record
        # holds one
        return {
            "type": self.kind,
            "piece": self.piece,
            "x": self.x,
            "angle": self.angle,
            "depth": self.depth,
        }


@dataclass(frozen=True, slots=True)
class Joker(Action):
    """V3: after a drop that broke a rule, spend a joker (score it anyway) or keep it."""

    kind: ClassVar[str] = "joker"
    spend: bool


SPEND = Joker(True)
KEEP = Joker(False)


def normalise_angle(theta: float) -> float:
    """D11: theta % 2π, and 0.0 where Python's % returns exactly 2π for tiny negatives."""
    t = theta % TAU
    return 0.0 if t == TAU else t
