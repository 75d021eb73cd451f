"""The 36 wooden shapes as data (spec §2.2, D1, D33) and their material settings (§4).

Sizes come from the board file's "pieces" block (authoritative, §3.10); outlines are derived
from them exactly. Material values are the per-shape pymunk numbers of §4 (pymunk multiplies
the two shapes' values), used as the defaults of the matching options.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from gamenight.games.drop_it.board import COLOURS, KINDS, Board

# §4: per-shape friction and elasticity (the configuration values), and the areal density.
MATERIALS = {
    "piece": {"friction": 0.632, "elasticity": 0.548},
    "wall": {"friction": 0.474, "elasticity": 0.456},
}

# Rotational symmetry period of each outline: the grid of angles covers one period.
SYMMETRY = {
    "circle": 2 * math.pi,
    "square": math.pi / 2,
    "triangle": 2 * math.pi / 3,
    "diamond": math.pi,
}


@dataclass(frozen=True, slots=True)
class Piece:
    """One shape with its fixed id `"<colour>-<kind>-<n>"` (D33)."""

    id: str
    colour: str
    kind: str
    n: int


@dataclass(frozen=True, slots=True)
class Outline:
    """A kind's outline at θ = 0 about its centroid: a radius (circle) or convex vertices."""

    kind: str
    radius: float  # circles; 0 for polygons
    vertices: tuple[tuple[float, float], ...]  # polygons, counter-clockwise; () for circles
    # the dataclass hash of the fields, kept: every drop looks outlines up in caches
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.kind, self.radius, self.vertices)))

    def __hash__(self) -> int:
        return self._hash

    @property
    def is_circle(self) -> bool:
        return not self.vertices


def outlines(board: Board) -> dict[str, Outline]:
    """The four kinds' outlines from the board's size block (§2.2)."""
    p = board.pieces
    half = float(p["square"]["side"]) / 2
    s = float(p["triangle"]["side"])
    w = float(p["diamond"]["width"]) / 2
    h = float(p["diamond"]["height"]) / 2
    return {
        "circle": Outline("circle", float(p["circle"]["radius"]), ()),
        "square": Outline(
            "square", 0.0, ((-half, -half), (half, -half), (half, half), (-half, half))
        ),
        "triangle": Outline(
            "triangle",
            0.0,
            (
                (-s / 2, -s / (2 * math.sqrt(3))),
                (s / 2, -s / (2 * math.sqrt(3))),
                (0.0, s / math.sqrt(3)),
            ),
        ),
        "diamond": Outline("diamond", 0.0, ((0.0, -h), (w, 0.0), (0.0, h), (-w, 0.0))),
    }


def all_pieces(board: Board) -> tuple[Piece, ...]:
    """The canonical supply order (D33): colours, then kinds, then n ascending (D1: 36)."""
    return tuple(
        Piece(f"{colour}-{kind}-{n}", colour, kind, n)
        for colour in COLOURS
        for kind in KINDS
        for n in range(int(board.pieces[kind]["per_color"]))
    )


def piece_of(piece_id: str) -> Piece:
    """The Piece named by a full id such as "red-circle-0"."""
    colour, kind, n = piece_id.split("-")
    return Piece(piece_id, colour, kind, int(n))


# D4: the three bundles of the split fourth colour in a 3-player game, by piece id suffix.
# X goes to the starting seat, Y to the next seat clockwise, Z to the third.
BUNDLES = {
    "X": ("circle-0", "triangle-0", "square-0"),
    "Y": ("circle-1", "diamond-0", "triangle-1"),
    "Z": ("circle-2", "square-1", "diamond-1"),
}

# D34: default seat colours by number of sides (one tuple of colours per side).
SEAT_COLOURS = {
    4: (("red",), ("yellow",), ("blue",), ("green",)),
    3: (("red",), ("blue",), ("green",)),
    2: (("red", "yellow"), ("blue", "green")),
}
