"""Board geometry as data: load and validate a board file (spec §3, JSON block §3.10).

The default board `board_default_v1` ships as `board_default_v1.json` next to this module;
a user may point the `board` option at another file of the same shape. Everything the rules
need is read from here: the drop zone, the level boundaries (N6), the bonus circles (D25,
N7) and the edge cells with their colour and shape faces (D21, N5).
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from gamenight.engine.core import BadInput, said_in
from gamenight.i18n import N_

DEFAULT_BOARD = Path(__file__).with_name("board_default_v1.json")
COLOURS = ("red", "yellow", "blue", "green")
KINDS = ("circle", "square", "triangle", "diamond")


def refused(template: str, **words: object) -> BadInput:
    """A refusal of a board file: `template` (marked N_) is a sentence of Drop It's
    catalogue, said in the reader's language where it is shown; its words (the file's
    keys, values, numbers) as they are, a part of the file named in words (`part`) a
    sentence of the catalogue itself."""
    return BadInput(said_in(__package__ or "", template, **words))


def part(template: str, **words: object) -> str:
    """A part of the board file named in words ("boundary 2", "left cell"), for a
    refusal's `where`: translated with the sentence that names it."""
    return said_in(__package__ or "", template, **words)


# The edge cells of each side, as a refusal names them
CELLS = {"left": N_("left cell"), "right": N_("right cell"), "bottom": N_("bottom cell")}


@dataclass(frozen=True, slots=True)
class BonusCircle:
    """A printed bonus circle (§3.5): no physical effect, worth `points` when covered (N7)."""

    id: str
    level: int
    size: str
    center: tuple[float, float]
    radius: float
    points: int


@dataclass(frozen=True, slots=True)
class EdgeCell:
    """One edge cell (N2): a closed segment with a symbol per face (None = blank, D21)."""

    id: str  # "left-3", "right-0", "bottom-7"
    a: tuple[float, float]
    b: tuple[float, float]
    color: str | None
    shape: str | None
    letters: str

    def symbol(self, edge_mode: str) -> str | None:
        """The symbol on the face in use (D7, V1); V2 ("none") has no active face."""
        if edge_mode == "color":
            return self.color
        if edge_mode == "shape":
            return self.shape
        return None


@dataclass(frozen=True, slots=True)
class Board:
    """A validated board. Units are mm; origin bottom-left of the drop zone, y up (§3.1)."""

    id: str
    width: float
    height: float
    levels: int
    boundaries: tuple[tuple[tuple[float, float], ...], ...]  # L_1..L_{levels-1} polylines
    bonus: tuple[BonusCircle, ...]
    cells: tuple[EdgeCell, ...]
    pieces: dict[str, Any]  # the "pieces" block: sizes per kind, thickness, density
    source: str

    def boundary_y(self, k: int, x: float) -> float:
        """L_k(x) (N6): L_0 is the floor, L_levels the top; continued flat beyond the walls."""
        if k <= 0:
            return 0.0
        if k >= self.levels:
            return self.height
        return polyline_y(self.boundaries[k - 1], min(max(x, 0.0), self.width))

    @property
    def areal_density(self) -> float:
        """g/mm² for pymunk's `shape.density` (§2.2): volume density times thickness."""
        return float(self.pieces["density_g_per_mm3"]) * float(self.pieces["thickness"])


def polyline_y(line: tuple[tuple[float, float], ...], x: float) -> float:
    """The y of a polyline that is a function of x, at x inside its span."""
    for (x0, y0), (x1, y1) in itertools.pairwise(line):
        if x <= x1:
            t = 0.0 if x1 == x0 else (x - x0) / (x1 - x0)
            return y0 + t * (y1 - y0)
    return line[-1][1]


def _num(where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise refused(
            N_("board: {where} must be a finite number, got {value}"),
            where=where,
            value=repr(value),
        )
    return float(value)


def _point(where: str, value: Any) -> tuple[float, float]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise refused(
            N_("board: {where} must be a point [x, y], got {value}"), where=where, value=repr(value)
        )
    return _num(where, value[0]), _num(where, value[1])


def _obj(where: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise refused(N_("board: {where} must be an object {{...}}"), where=where)
    return value


def _list(where: str, value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise refused(N_("board: {where} must be a list [...]"), where=where)
    return value


def _faces(where: str, side: dict[str, Any], count: int) -> tuple[list[Any], list[Any]]:
    faces = []
    for face in ("color_face", "shape_face"):
        values = side.get(face)
        if not isinstance(values, list) or len(values) != count:
            raise refused(
                N_("board: {where}.{face} must list {count} symbols (or null)"),
                where=where,
                face=face,
                count=count,
            )
        wanted = COLOURS if face == "color_face" else KINDS
        for v in values:
            if v is not None and v not in wanted:
                raise refused(
                    N_("board: {where}.{face} has {value}; allowed: {allowed} or null"),
                    where=where,
                    face=face,
                    value=repr(v),
                    allowed=str(wanted),
                )
        faces.append(values)
    return faces[0], faces[1]


def parse_board(doc: Any, source: str = "<data>") -> Board:
    """A Board from the JSON document of §3.10, or BadInput saying what is wrong."""
    try:
        return _parse(doc, source)
    except (TypeError, AttributeError, KeyError, IndexError, ValueError) as err:
        if isinstance(err, BadInput):
            raise
        # a value of another type deep inside (a number where a point's pair was): the
        # checks above name the common ones; this one line covers the rest
        raise refused(N_("board: a value has a type spec §3.10 does not allow")) from err


def _parse(doc: Any, source: str) -> Board:
    if not isinstance(doc, dict):
        raise refused(N_("board: the file must hold a JSON object (see spec §3.10)"))
    for key in (
        "id",
        "drop_zone",
        "levels",
        "level_boundaries",
        "bonus_circles",
        "edge_cells",
        "pieces",
    ):
        if key not in doc:
            raise refused(N_("board: missing key {key} (see spec §3.10)"), key=repr(key))
    zone = _obj("drop_zone", doc["drop_zone"])
    width = _num("drop_zone.width", zone.get("width"))
    height = _num("drop_zone.height", zone.get("height"))
    if width <= 0 or height <= 0:
        raise refused(N_("board: the drop zone needs a positive width and height"))
    levels = doc["levels"]
    if not isinstance(levels, int) or levels < 1:
        raise refused(N_("board: 'levels' must be a positive whole number"))
    lines = [
        _obj("level_boundaries", b) for b in _list("level_boundaries", doc["level_boundaries"])
    ]
    if any(isinstance(b.get("k"), bool) or not isinstance(b.get("k"), int) for b in lines):
        raise refused(N_("board: level_boundaries must have k = 1..{last}"), last=levels - 1)
    lines.sort(key=lambda b: b["k"])
    if [b.get("k") for b in lines] != list(range(1, levels)):
        raise refused(N_("board: level_boundaries must have k = 1..{last}"), last=levels - 1)
    boundaries = []
    for b in lines:
        where = part(N_("boundary {k}"), k=b["k"])
        pts = tuple(_point(where, p) for p in _list(where, b.get("polyline", [])))
        xs = [p[0] for p in pts]
        if len(pts) < 2 or xs[0] != 0.0 or xs[-1] != width or xs != sorted(set(xs)):
            raise refused(
                N_("board: boundary {k} must run from x = 0 to x = {width} with rising x"),
                k=b["k"],
                width=width,
            )
        boundaries.append(pts)
    # Boundaries never cross (N6): check at every kink of every line.
    kinks = sorted({p[0] for line in boundaries for p in line})
    for x in kinks:
        ys = [0.0, *(polyline_y(line, x) for line in boundaries), height]
        if any(lo >= hi for lo, hi in itertools.pairwise(ys)):
            raise refused(N_("board: level boundaries cross or leave the zone at x = {x}"), x=x)
    bonus = []
    for c in _list("bonus_circles", doc["bonus_circles"]):
        c = _obj("bonus_circles", c)
        cx, cy = _point(part(N_("bonus circle {id}.center"), id=c.get("id")), c.get("center"))
        radius = _num(part(N_("bonus circle {id}.radius"), id=c.get("id")), c.get("radius"))
        points = c.get("points")
        if radius <= 0 or not isinstance(points, int) or points < 0:
            raise refused(
                N_("board: bonus circle {id} needs radius > 0, points >= 0"), id=c.get("id")
            )
        if not (radius <= cx <= width - radius and radius <= cy <= height - radius):
            raise refused(
                N_("board: bonus circle {id} must lie inside the drop zone"), id=c.get("id")
            )
        bonus.append(
            BonusCircle(
                str(c["id"]),
                int(c.get("level", 0)),
                str(c.get("size", "")),
                (cx, cy),
                radius,
                points,
            )
        )
    cells: list[EdgeCell] = []
    edges = _obj("edge_cells", doc["edge_cells"])
    for side, x_wall in (("left", 0.0), ("right", width)):
        spec = edges.get(side)
        if spec is None:
            continue
        spec = _obj(f"edge_cells.{side}", spec)
        cell = part(CELLS[side])
        ranges = [_point(cell, r) for r in _list(cell, spec.get("cells", []))]
        colors, shapes = _faces(side, spec, len(ranges))
        for i, (y0, y1) in enumerate(ranges):
            if not 0.0 <= y0 < y1 <= height:
                raise refused(
                    N_("board: {cell} {i} must lie within 0..{limit}"),
                    cell=part(CELLS[side]),
                    i=i,
                    limit=height,
                )
            cells.append(
                EdgeCell(
                    f"{side}-{i}",
                    (x_wall, y0),
                    (x_wall, y1),
                    colors[i],
                    shapes[i],
                    str(spec.get("letters", "")),
                )
            )
    bottom = edges.get("bottom")
    if bottom is not None:
        bottom = _obj("edge_cells.bottom", bottom)
        cell = part(CELLS["bottom"])
        ranges = [_point(cell, r) for r in _list(cell, bottom.get("cells", []))]
        colors, shapes = _faces("bottom", bottom, len(ranges))
        pieces = [
            _obj("edge_cells.bottom.pieces", p)
            for p in _list("edge_cells.bottom.pieces", bottom.get("pieces", []))
        ]
        for i, (x0, x1) in enumerate(ranges):
            if not 0.0 <= x0 < x1 <= width:
                raise refused(
                    N_("board: {cell} {i} must lie within 0..{limit}"),
                    cell=part(CELLS["bottom"]),
                    i=i,
                    limit=width,
                )
            letters = next(
                (
                    str(p.get("letters", ""))
                    for p in pieces
                    if p["x_range"][0] <= x0 and x1 <= p["x_range"][1]
                ),
                "",
            )
            cells.append(
                EdgeCell(f"bottom-{i}", (x0, 0.0), (x1, 0.0), colors[i], shapes[i], letters)
            )
    pieces_block = _obj("pieces", doc["pieces"])
    for kind, dims in (
        ("circle", ("radius",)),
        ("square", ("side",)),
        ("triangle", ("side",)),
        ("diamond", ("width", "height")),
    ):
        spec = pieces_block.get(kind)
        if not isinstance(spec, dict) or not isinstance(spec.get("per_color"), int):
            raise refused(N_("board: pieces.{kind} needs 'per_color' and its sizes"), kind=kind)
        for d in dims:
            if _num(f"pieces.{kind}.{d}", spec.get(d)) <= 0:
                raise refused(N_("board: {key} must be positive"), key=f"pieces.{kind}.{d}")
    for key in ("thickness", "density_g_per_mm3"):
        if _num(f"pieces.{key}", pieces_block.get(key)) <= 0:
            raise refused(N_("board: {key} must be positive"), key=f"pieces.{key}")
    return Board(
        str(doc["id"]),
        width,
        height,
        levels,
        tuple(boundaries),
        tuple(bonus),
        tuple(cells),
        pieces_block,
        source,
    )


@lru_cache(maxsize=16)
def load_board(path: str = "") -> Board:
    """The board at `path` ("" = the default `board_default_v1`), cached per path."""
    file = Path(path) if path else DEFAULT_BOARD
    try:
        doc = json.loads(file.read_text())
    except OSError as err:
        raise refused(
            N_("board: cannot read {file}: {error}"), file=file, error=err.strerror
        ) from err
    except ValueError as err:  # not JSON, or not even text (UnicodeDecodeError)
        raise refused(N_("board: {file} is not JSON: {error}"), file=file, error=err) from err
    return parse_board(doc, str(file))
