"""Landing rules and scoring as pure functions of settled poses (spec §7, §8, §9).

No physics here (D15): a pose is (x, y, θ) of a piece's centroid, an outline is placed by
it, and every test is exact plane geometry with the tolerances of N1. That keeps the rules
testable on static poses (§12) and independent of the physics engine.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamenight.games.drop_it.board import Board, BonusCircle, EdgeCell, polyline_y
from gamenight.games.drop_it.components import Outline, piece_of
from gamenight.games.drop_it.settings import Tolerances

Point = tuple[float, float]
Pose = tuple[float, float, float]
_HAIR = 1e-6  # mm: far above the rounding of the distances, far below any tolerance


@dataclass(frozen=True, slots=True)
class Placed:
    """An outline at a pose (N2): a circle (centre, r) or a convex CCW polygon / segment."""

    cx: float
    cy: float
    r: float
    verts: tuple[Point, ...]
    # (xmin, ymin, xmax, ymax), made by `place`: a drop's assessment asks for it four times
    box: tuple[float, float, float, float] | None = field(default=None, compare=False, repr=False)

    @property
    def is_circle(self) -> bool:
        return not self.verts

    def bbox(self) -> tuple[float, float, float, float]:
        return self.box if self.box is not None else _bbox(self.cx, self.cy, self.r, self.verts)

    def top(self) -> float:
        """N8: the largest y of the outline."""
        return self.bbox()[3]

    def bottom(self) -> float:
        return self.bbox()[1]


def _bbox(
    cx: float, cy: float, r: float, verts: tuple[Point, ...]
) -> tuple[float, float, float, float]:
    if not verts:
        return cx - r, cy - r, cx + r, cy + r
    xs = [v[0] for v in verts]
    ys = [v[1] for v in verts]
    return min(xs), min(ys), max(xs), max(ys)


def place(outline: Outline, pose: Pose) -> Placed:
    """N2: the outline transformed by (centroid, θ)."""
    x, y, a = pose
    if outline.is_circle:
        r = outline.radius
        return Placed(x, y, r, (), (x - r, y - r, x + r, y + r))
    c, s = math.cos(a), math.sin(a)
    verts = tuple((x + vx * c - vy * s, y + vx * s + vy * c) for vx, vy in outline.vertices)
    return Placed(x, y, 0.0, verts, _bbox(x, y, 0.0, verts))


def segment(a: Point, b: Point) -> Placed:
    """An edge cell as a closed segment (N2)."""
    return Placed((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, 0.0, (a, b))


# -- N3 distances ------------------------------------------------------------------------
def _edges(verts: tuple[Point, ...]) -> list[tuple[Point, Point]]:
    if len(verts) == 2:  # a segment has one edge
        return [(verts[0], verts[1])]
    return list(zip(verts, verts[1:] + verts[:1], strict=True))


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = (
        0.0
        if length2 == 0
        else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    )
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def point_distance(p: Point, shape: Placed) -> float:
    """d(p, P): 0 inside P, else the distance to its outline (N3)."""
    if shape.is_circle:
        return max(0.0, math.hypot(p[0] - shape.cx, p[1] - shape.cy) - shape.r)
    verts = shape.verts
    if len(verts) > 2 and all(
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0 for a, b in _edges(verts)
    ):
        return 0.0
    return min(point_segment_distance(p, a, b) for a, b in _edges(verts))


def _separated(p: tuple[Point, ...], q: tuple[Point, ...]) -> bool:
    """Separating-axis test for two convex polygons or segments (N3)."""
    for verts in (p, q):
        for a, b in _edges(verts):
            nx, ny = a[1] - b[1], b[0] - a[0]
            pp = [nx * v[0] + ny * v[1] for v in p]
            qq = [nx * v[0] + ny * v[1] for v in q]
            if max(pp) < min(qq) or max(qq) < min(pp):
                return True
    return False


def distance(a: Placed, b: Placed) -> float:
    """N3: 0 if the outlines overlap (or one holds the other), else the gap between them."""
    if a.is_circle and b.is_circle:
        return max(0.0, math.hypot(a.cx - b.cx, a.cy - b.cy) - a.r - b.r)
    if a.is_circle:
        return max(0.0, point_distance((a.cx, a.cy), b) - a.r)
    if b.is_circle:
        return max(0.0, point_distance((b.cx, b.cy), a) - b.r)
    if not _separated(a.verts, b.verts):
        return 0.0
    return min(
        min(point_segment_distance(v, e0, e1) for v in a.verts for e0, e1 in _edges(b.verts)),
        min(point_segment_distance(v, e0, e1) for v in b.verts for e0, e1 in _edges(a.verts)),
    )


def within(a: Placed, b: Placed, gap: float) -> bool:
    """`distance(a, b) <= gap`, stopping at the first vertex-edge pair within `gap`
    (the same comparisons of the same values: the minimum is <= gap iff one of them is).

    The pairs come first: a touching pair answers without the separating-axis test, and
    only when no pair is close does it matter whether the outlines overlap (distance 0)."""
    if a.is_circle or b.is_circle:
        return distance(a, b) <= gap
    return _polygons_within(a.verts, _edges(a.verts), b.verts, _edges(b.verts), gap)


def _polygons_within(
    a: tuple[Point, ...],
    a_edges: list[tuple[Point, Point]],
    b: tuple[Point, ...],
    b_edges: list[tuple[Point, Point]],
    gap: float,
) -> bool:
    """`within` for two polygons or segments, their edges given."""
    if _pair_within(a, b_edges, gap) or _pair_within(b, a_edges, gap):
        return True
    return gap >= 0.0 and not _separated(a, b)


def _pair_within(points: tuple[Point, ...], edges: list[tuple[Point, Point]], gap: float) -> bool:
    """Is some point within `gap` of some edge? `point_segment_distance(p, a, b) <= gap`
    inlined (the same arithmetic in the same order, so the same floats; the clamp picks
    what `max(0.0, min(1.0, t))` picks, NaN included): the touch tests of every drop run
    through here. Which pair answers first does not change the answer."""
    hypot = math.hypot
    for (ax, ay), (bx, by) in edges:
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        for px, py in points:
            if length2 == 0:
                t = 0.0
            else:
                t = ((px - ax) * dx + (py - ay) * dy) / length2
                t = t if t < 1.0 else 1.0
                t = t if t > 0.0 else 0.0
            if hypot(px - ax - t * dx, py - ay - t * dy) <= gap:
                return True
    return False


def near(a: Placed, b: Placed, gap: float) -> bool:
    """A cheap bounding-box pre-test: could dist(a, b) be <= gap?"""
    ax0, ay0, ax1, ay1 = a.bbox()
    bx0, by0, bx1, by1 = b.bbox()
    return not (ax1 + gap < bx0 or bx1 + gap < ax0 or ay1 + gap < by0 or by1 + gap < ay0)


def touches(a: Placed, b: Placed, tol: float) -> bool:
    """N4 / N5: touching means dist <= TOUCH_TOL."""
    return near(a, b, tol) and distance(a, b) <= tol


# -- N6 level, N7 bonus, N8 height ---------------------------------------------------------
def height_above(board: Board, k: int, shape: Placed) -> float:
    """N6: h_k(P) = max over points p of P of p.y - L_k(clamp(p.x, 0, W)), vertically."""
    line = board.boundaries[k - 1]
    if shape.is_circle:
        return _circle_height_above(board, k, line, shape)
    # A polygon's highest point over L_k is a vertex or where an edge crosses a kink of L_k.
    points = list(shape.verts)
    for a, b in _edges(shape.verts):
        lo, hi = (a[0], b[0]) if a[0] <= b[0] else (b[0], a[0])
        for x, _ in line:
            if lo < x < hi:
                t = (x - a[0]) / (b[0] - a[0])
                points.append((x, a[1] + t * (b[1] - a[1])))
    width = board.width  # L_k continued flat beyond the walls: `Board.boundary_y`, inlined
    return max(p[1] - polyline_y(line, min(max(p[0], 0.0), width)) for p in points)


def _circle_height_above(
    board: Board, k: int, line: tuple[tuple[float, float], ...], shape: Placed
) -> float:
    """`height_above` of a circle: its highest point over each linear piece of L_k, and
    over each kink."""
    # The boundary's linear pieces, continued flat beyond the walls.
    pieces = [(-math.inf, line[0][0], line[0][1], line[0][1])]
    pieces += [(x0, x1, y0, y1) for (x0, y0), (x1, y1) in itertools.pairwise(line)]
    pieces.append((line[-1][0], math.inf, line[-1][1], line[-1][1]))
    best = -math.inf
    for xa, xb, ya, yb in pieces:
        m = 0.0 if math.isinf(xa) or math.isinf(xb) else (yb - ya) / (xb - xa)
        norm = math.sqrt(1 + m * m)
        px, py = shape.cx - shape.r * m / norm, shape.cy + shape.r / norm
        if xa <= px <= xb:
            best = max(best, py - board.boundary_y(k, px))
        for x in (xa, xb):
            if not math.isinf(x) and abs(x - shape.cx) <= shape.r:
                y = shape.cy + math.sqrt(shape.r**2 - (x - shape.cx) ** 2)
                best = max(best, y - board.boundary_y(k, x))
    return best


def level(board: Board, shape: Placed, eps: float) -> int:
    """N6 / D24: 1 + the highest k with h_k(P) > LEVEL_EPS, or 1.

    The boundaries never cross (checked when a board loads), so h_k(P) falls as k rises
    and the k with h_k(P) > LEVEL_EPS are 1..K: K is found by bisection. A line wholly
    above or below P (by more than a hair) answers from P's box and the line's lowest and
    highest y, without computing h_k: h_k lies between bottom - highest and top - lowest."""
    _, bottom, _, top = shape.bbox()
    spans = line_spans(board)
    highest, unknown_above = 0, board.levels - 1  # h_k > eps up to `highest`
    while highest < unknown_above:
        k = (highest + unknown_above + 1) // 2
        lowest_y, highest_y = spans[k - 1]
        if top - lowest_y < eps - _HAIR:
            above = False
        elif bottom - highest_y > eps + _HAIR:
            above = True
        else:
            above = height_above(board, k, shape) > eps
        if above:
            highest = k
        else:
            unknown_above = k - 1
    return 1 + highest


# Per tuple of level boundaries (held, so its id stays unique): each line's lowest and
# highest y (the lines run flat beyond the walls, so these are over their points).
_LINE_SPANS: dict[int, tuple[tuple[tuple[tuple[float, float], ...], ...], tuple[Point, ...]]] = {}


def line_spans(board: Board) -> tuple[Point, ...]:
    """(lowest y, highest y) of every level boundary L_1.., made once per board."""
    lines = board.boundaries
    known = _LINE_SPANS.get(id(lines))
    if known is None or known[0] is not lines:
        spans = tuple((min(y for _, y in line), max(y for _, y in line)) for line in lines)
        known = (lines, spans)
        _LINE_SPANS[id(lines)] = known
    return known[1]


def covered_bonus(board: Board, shape: Placed, eps: float) -> list[str]:
    """N7 / D25: ids of the bonus circles with d(q, P) < ρ - BONUS_EPS."""
    return [c.id for c in _covered(board, shape, eps)]


def _covered(board: Board, shape: Placed, eps: float) -> list[BonusCircle]:
    """`covered_bonus`, the circles themselves.

    A circle whose centre lies at least ρ - BONUS_EPS (and a hair more, for rounding) from
    P's bounding box is skipped: d(q, P) is never less than the distance to the box."""
    x0, y0, x1, y1 = shape.bbox()
    covered = []
    for c in board.bonus:
        reach = c.radius - eps
        qx, qy = c.center
        dx = x0 - qx if qx < x0 else qx - x1 if qx > x1 else 0.0
        dy = y0 - qy if qy < y0 else qy - y1 if qy > y1 else 0.0
        if dx * dx + dy * dy >= (reach + _HAIR) ** 2 and reach + _HAIR > 0:
            continue
        if point_distance(c.center, shape) < reach:
            covered.append(c)
    return covered


CellOutline = tuple[EdgeCell, Placed, tuple[float, float, float, float]]
Box = tuple[float, float, float, float]
# Per tuple of edge cells (held, so its id stays unique): each cell's segment and box, and
# the cells grouped by the edge they line (left, right, bottom) with the group's box.
_CELL_TABLES: dict[
    int,
    tuple[
        tuple[EdgeCell, ...],
        tuple[CellOutline, ...],
        tuple[tuple[Box, tuple[CellOutline, ...]], ...],
    ],
] = {}


def _cell_tables(
    board: Board,
) -> tuple[tuple[CellOutline, ...], tuple[tuple[Box, tuple[CellOutline, ...]], ...]]:
    """Every edge cell's segment and box, and the cells by edge with the edge's box: made
    once per board."""
    cells = board.cells
    known = _CELL_TABLES.get(id(cells))
    if known is None or known[0] is not cells:
        outlines = tuple((c, seg, seg.bbox()) for c in cells for seg in [segment(c.a, c.b)])
        # runs of one edge in the board's order, so the touched cells keep that order
        runs = [
            tuple(rows)
            for _, rows in itertools.groupby(outlines, key=lambda r: r[0].id.rsplit("-", 1)[0])
        ]
        groups = tuple(
            (
                (
                    min(r[2][0] for r in rows),
                    min(r[2][1] for r in rows),
                    max(r[2][2] for r in rows),
                    max(r[2][3] for r in rows),
                ),
                rows,
            )
            for rows in runs
        )
        known = (cells, outlines, groups)
        _CELL_TABLES[id(cells)] = known
    return known[1], known[2]


def touched_cells(board: Board, shape: Placed, tol: float) -> list[EdgeCell]:
    """N5: the edge cells within TOUCH_TOL of P (`touches`, with P's box computed once).
    An edge's cells are passed over together when P's box is not near the edge's box."""
    ax0, ay0, ax1, ay1 = shape.bbox()
    verts = shape.verts
    edges = _edges(verts) if verts else []  # a polygon's edges, once for every cell
    touched = []
    for (gx0, gy0, gx1, gy1), rows in _cell_tables(board)[1]:
        if ax1 + tol < gx0 or gx1 + tol < ax0 or ay1 + tol < gy0 or gy1 + tol < ay0:
            continue
        for cell, seg, (bx0, by0, bx1, by1) in rows:
            if ax1 + tol < bx0 or bx1 + tol < ax0 or ay1 + tol < by0 or by1 + tol < ay0:
                continue
            if (
                _polygons_within(verts, edges, seg.verts, _edges(seg.verts), tol)
                if verts
                else within(shape, seg, tol)
            ):
                touched.append(cell)
    return touched


def sticks_out(board: Board, shape: Placed, eps: float) -> bool:
    """N8 / D22: top(P) > H + HEIGHT_EPS."""
    return shape.top() > board.height + eps


# -- the whole assessment (D18..D26, N9) -----------------------------------------------------
@dataclass(frozen=True)
class Assessment:
    """What one settled drop touched, broke and is worth (D17's rule part)."""

    piece: str
    touching: tuple[str, ...]  # other pieces within TOUCH_TOL (N4)
    cells: tuple[str, ...]  # edge cells within TOUCH_TOL (N5), whatever their symbol
    violations: tuple[dict[str, Any], ...]  # {"rule": "SHAPE"|"COLOUR"|"EDGE"|"HEIGHT", "with"}
    level: int
    bonus: tuple[str, ...]
    raw_points: int
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "piece": self.piece,
            "touching": list(self.touching),
            "cells": list(self.cells),
            "violations": [dict(v) for v in self.violations],
            "level": self.level,
            "bonus": list(self.bonus),
            "raw_points": self.raw_points,
        }


def assess(
    board: Board,
    shapes: Mapping[str, Outline],
    poses: Mapping[str, Pose],
    dropped: str,
    edge_mode: str,
    tol: Tolerances,
) -> Assessment:
    """D18..D26: judge the dropped piece in its settled pose against all other poses.

    Violations and raw points are computed in every case (N9); the award is the caller's.
    """
    me = piece_of(dropped)
    mine = place(shapes[me.kind], poses[dropped])
    touching = []
    same_kind, same_colour = [], []
    gap = tol.touch
    ax0, ay0, ax1, ay1 = mine.bbox()
    for other_id, pose in poses.items():
        if other_id == dropped:
            continue
        other = piece_of(other_id)
        placed = place(shapes[other.kind], pose)
        bx0, by0, bx1, by1 = placed.bbox()  # `touches`, with the dropped piece's box once
        if ax1 + gap < bx0 or bx1 + gap < ax0 or ay1 + gap < by0 or by1 + gap < ay0:
            continue
        if within(mine, placed, gap):
            touching.append(other_id)
            if other.kind == me.kind:
                same_kind.append(other_id)  # D19
            if other.colour == me.colour:
                same_colour.append(other_id)  # D20
    cells = touched_cells(board, mine, tol.touch)
    # D21: a cell whose active-face symbol is the piece's colour or kind; blank never matches.
    edge = [c.id for c in cells if c.symbol(edge_mode) in (me.colour, me.kind)]
    violations: list[dict[str, Any]] = []
    if same_kind:
        violations.append({"rule": "SHAPE", "with": same_kind})
    if same_colour:
        violations.append({"rule": "COLOUR", "with": same_colour})
    if edge:
        violations.append({"rule": "EDGE", "with": edge})
    if sticks_out(board, mine, tol.height):
        violations.append({"rule": "HEIGHT", "with": [f"top {mine.top():.2f} mm"]})
    lvl = level(board, mine, tol.level)
    bonus = _covered(board, mine, tol.bonus)
    raw = lvl + sum(c.points for c in bonus)  # D24 + D25 = D26
    return Assessment(
        dropped,
        tuple(touching),
        tuple(c.id for c in cells),
        tuple(violations),
        lvl,
        tuple(c.id for c in bonus),
        raw,
    )


def awarded(raw_points: int, violations: Sequence[Any], joker_used: bool) -> int:
    """N9 / D23 / V3: raw points if legal or a joker is spent, else 0."""
    return raw_points if not violations or joker_used else 0


def tokens(total: int, available: int) -> list[str]:
    """D28: the +25/+50 tokens that show `total` beyond the track (display only).

    A token goes down once a total is *more than* 25 (or 50); a side with two colours has two.
    """
    shown: list[str] = []
    rest = total
    for _ in range(available):
        if rest > 50:
            shown.append("+50")
            rest -= 50
        elif rest > 25:
            shown.append("+25")
            rest -= 25
    return shown
