"""Landing rules and scoring (spec §7-§9): the worked examples of §12 (static poses, no
physics), the numerical definitions N1..N9 and the award (D20-D26)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.games.drop_it.scoring import (
    Placed,
    Tolerances,
    awarded,
    distance,
    height_above,
    level,
    place,
    segment,
    tokens,
    within,
)

from .helpers import SQRT3, game, judge, rules


def test_E1_D26_blue_square_on_floor_scores_level_and_medium_circle() -> None:
    a = judge(("blue-square-0", 150.0, 18.0, 0.0))
    assert (a.level, a.bonus, rules(a), a.raw_points) == (1, ("B1",), set(), 3)
    assert {"bottom-4", "bottom-5"} <= set(a.cells)


def test_E1b_D21_red_square_touches_red_bottom_cell() -> None:
    a = judge(("red-square-0", 150.0, 18.0, 0.0))
    assert rules(a) == {"EDGE"} and a.violations[0]["with"] == ["bottom-5"]
    assert awarded(a.raw_points, a.violations, False) == 0
    assert awarded(a.raw_points, a.violations, True) == 3  # V3 joker value


def test_E2_D21_green_circle_in_corner_breaks_edge_only_on_green_cell() -> None:
    a = judge(("green-circle-0", 20.0, 20.0, 0.0))
    assert (a.level, a.bonus, rules(a), a.raw_points) == (1, (), {"EDGE"}, 1)
    assert a.violations[0]["with"] == ["bottom-0"]  # left level-1 cell is red: fine


def test_E2b_blue_circle_in_corner_is_legal() -> None:
    a = judge(("blue-circle-0", 20.0, 20.0, 0.0))
    assert (rules(a), a.raw_points) == (set(), 1)


def test_E3_N6_triangle_apex_reaches_level_2() -> None:
    a = judge(("yellow-triangle-0", 100.0, 60.0 - 44 / SQRT3, 0.0))
    assert (a.level, a.bonus, rules(a), a.raw_points) == (2, (), set(), 2)


def test_E4_D22_N8_square_sticking_out_breaks_height_and_is_level_8() -> None:
    a = judge(("blue-square-0", 120.0, 250.0, 0.0))
    assert (a.level, rules(a), a.raw_points) == (8, {"HEIGHT"}, 8)


def test_E5a_D19_D20_N4_gap_0_4_touches_same_shape_and_colour() -> None:
    a = judge(("red-square-1", 136.4, 100.0, 0.0), ("red-square-0", 100.0, 100.0, 0.0))
    assert (a.level, rules(a), a.raw_points) == (4, {"SHAPE", "COLOUR"}, 4)


def test_E5b_N4_gap_0_6_does_not_touch() -> None:
    a = judge(("red-square-1", 136.6, 100.0, 0.0), ("red-square-0", 100.0, 100.0, 0.0))
    assert (a.level, rules(a), a.raw_points, a.touching) == (4, set(), 4, ())


def test_E5c_D20_square_touching_red_circle_is_colour_only() -> None:
    a = judge(("red-square-1", 138.4, 100.0, 0.0), ("red-circle-0", 100.0, 100.0, 0.0))
    assert (rules(a), a.raw_points) == ({"COLOUR"}, 4)


def test_E6a_N7_circle_36mm_from_B8_covers_it() -> None:
    a = judge(("blue-circle-0", 179.54, 220.79, 0.0))
    assert (a.level, a.bonus, rules(a), a.raw_points) == (8, ("B8",), set(), 9)


def test_E6b_N7_circle_37mm_from_B8_does_not() -> None:
    a = judge(("blue-circle-0", 178.84, 220.09, 0.0))
    assert (a.level, a.bonus, rules(a), a.raw_points) == (8, (), set(), 8)


def test_E7_N5_diamond_on_tip_at_cell_boundary_touches_both_cells() -> None:
    a = judge(("green-diamond-0", 60.0, 27.0, 0.0))
    assert (a.level, rules(a), a.raw_points) == (2, set(), 2)
    assert {"bottom-1", "bottom-2"} <= set(a.cells)


def test_E7b_D21_yellow_diamond_on_tip_breaks_edge() -> None:
    a = judge(("yellow-diamond-0", 60.0, 27.0, 0.0))
    assert rules(a) == {"EDGE"} and a.violations[0]["with"] == ["bottom-1"]


def test_E8a_N5_tolerance_reaches_past_the_cell_end() -> None:
    a = judge(("green-square-0", 168.3, 18.0, 0.0))
    assert (a.level, a.bonus, rules(a), a.raw_points) == (1, ("B1",), {"EDGE"}, 3)
    assert a.violations[0]["with"] == ["bottom-4"]


def test_E8b_N5_0_6mm_past_the_cell_end_is_fine() -> None:
    a = judge(("green-square-0", 168.6, 18.0, 0.0))
    assert (rules(a), a.raw_points) == (set(), 3)


def test_D23_two_violations_still_score_zero_and_a_joker_pays_once() -> None:
    a = judge(
        ("red-circle-2", 20.0, 20.0, 0.0),
        ("red-circle-0", 60.3, 20.0, 0.0),
        ("red-circle-1", 20.0, 60.3, 0.0),
        edge_mode="color",
    )
    assert rules(a) == {"SHAPE", "COLOUR", "EDGE"}  # the left level-1 cell is red
    assert awarded(a.raw_points, a.violations, False) == 0
    assert awarded(a.raw_points, a.violations, True) == a.raw_points


def test_V1_shape_edges_compare_the_kind() -> None:
    # bottom cell 4/5 shape faces: diamond, circle; left level 1 is circle.
    assert rules(judge(("blue-square-0", 150.0, 18.0, 0.0), edge_mode="shape")) == set()
    a = judge(("red-circle-0", 165.0, 20.0, 0.0), edge_mode="shape")
    assert rules(a) == {"EDGE"} and a.violations[0]["with"] == ["bottom-5"]


def test_V2_easy_variant_never_checks_edges() -> None:
    assert rules(judge(("green-circle-0", 20.0, 20.0, 0.0), edge_mode="none")) == set()


def test_D21_null_cell_never_matches() -> None:
    from dataclasses import replace

    from gamenight.games.drop_it.scoring import assess

    g = game()
    blank = tuple(replace(c, color=None) if c.id == "bottom-0" else c for c in g.board.cells)
    board = replace(g.board, cells=blank)
    a = assess(
        board,
        g.shapes,
        {"green-circle-0": (20.0, 20.0, 0.0)},
        "green-circle-0",
        "color",
        Tolerances(),
    )
    assert a.violations == ()


@pytest.mark.parametrize(("gap", "touch"), [(0.44, True), (0.55, False)])
def test_N3_N4_polygon_and_circle_distances_at_the_tolerance(gap: float, touch: bool) -> None:
    g = game()
    tri = place(g.shapes["triangle"], (50.0, 50.0, 0.3))
    circle = place(g.shapes["circle"], (0.0, 0.0, 0.0))
    # Put the circle `gap` beyond the triangle's lowest vertex, straight down.
    low = min(tri.verts, key=lambda v: v[1])
    circle = place(g.shapes["circle"], (low[0], low[1] - 20.0 - gap, 0.0))
    assert distance(tri, circle) == pytest.approx(gap, abs=1e-9)
    assert (distance(tri, circle) <= 0.5) is touch


def test_N3_overlap_and_containment_are_distance_zero() -> None:
    g = game()
    square = place(g.shapes["square"], (100.0, 100.0, 0.2))
    diamond = place(g.shapes["diamond"], (110.0, 100.0, 1.0))
    assert distance(square, diamond) == 0.0
    inner = place(g.shapes["circle"], (100.0, 100.0, 0.0))
    big = place(g.shapes["square"], (100.0, 100.0, 0.0))
    assert distance(inner, big) == 0.0
    assert distance(big, segment((0.0, 0.0), (240.0, 0.0))) == pytest.approx(82.0)


def test_N6_level_line_needs_more_than_eps() -> None:
    g = game()
    # L1 falls to the right; at the square's right corner x = 138 it is y = 45.25, so a top
    # 0.45 mm above it stays level 1 and 0.55 mm above it is level 2.
    judge_top = [judge(("blue-square-0", 120.0, top - 18.0, 0.0)).level for top in (45.7, 45.8)]
    assert judge_top == [1, 2]
    assert g.board.boundary_y(1, -5.0) == 51.0  # continued flat beyond the wall


def test_N6_circle_on_a_slanted_line_uses_the_tangent_point() -> None:
    # L1 slope -1/24; a circle's highest point above it is off its top centre.
    g = game()
    m = -10.0 / 240.0
    c = (120.0, 30.0)
    best = max(
        c[1] + 20 * math.sin(t) - g.board.boundary_y(1, c[0] + 20 * math.cos(t))
        for t in (i * math.pi / 20000 for i in range(20001))
    )
    from gamenight.games.drop_it.scoring import height_above

    assert height_above(g.board, 1, place(g.shapes["circle"], (*c, 0.0))) == pytest.approx(
        best, abs=1e-6
    )
    assert m < 0


def test_D28_tokens_show_totals_above_the_track() -> None:
    assert tokens(25, 1) == [] and tokens(26, 1) == ["+25"] and tokens(51, 1) == ["+50"]
    assert tokens(80, 2) == ["+50", "+25"]


def test_D20_three_players_piece_colour_counts_not_the_owner() -> None:
    # Seat 0's yellow triangle touching seat 1's yellow circle is a COLOUR violation.
    a = judge(
        ("yellow-triangle-0", 100.0, 100.0, 0.0), ("yellow-circle-1", 142.2, 100.0 - 12.7, 0.0)
    )
    assert "COLOUR" in rules(a)


def test_D24_D25_several_bonus_circles_add_up() -> None:
    a = judge(("red-diamond-0", 55.0, 185.5, 0.0))
    assert a.bonus == ("B5", "B7") and a.level == 7 and a.raw_points == 10


def test_D26_rulebook_example_level_5_and_a_medium_circle_is_7() -> None:
    a = judge(("blue-square-0", 190.0, 130.0, 0.0))
    assert (a.level, a.bonus, rules(a), a.raw_points) == (5, ("B4",), set(), 7)


def test_N9_raw_points_are_computed_even_when_a_rule_is_broken() -> None:
    a = judge(("red-square-0", 150.0, 18.0, 0.0))
    assert a.violations and a.raw_points == 3 and a.bonus == ("B1",)


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(["circle", "square", "triangle", "diamond"]),
    x=st.floats(-20.0, 320.0),
    y=st.floats(-20.0, 420.0),
    angle=st.floats(0.0, 6.3),
    eps=st.sampled_from([0.0, 0.5, 3.0]),
)
def test_N6_level_by_bisection_equals_the_scan_of_every_line(
    kind: str, x: float, y: float, angle: float, eps: float
) -> None:
    """D24/N6: the level is 1 + the highest k with h_k > LEVEL_EPS; bisection relies on the
    boundaries never crossing, so it must agree with checking every line."""
    g = game()
    shape = place(g.shapes[kind], (x, y, angle))
    above = [k for k in range(1, g.board.levels) if height_above(g.board, k, shape) > eps]
    assert level(g.board, shape, eps) == 1 + max(above, default=0)


@settings(max_examples=300)
@given(
    kinds=st.tuples(*[st.sampled_from(["circle", "square", "triangle", "diamond", "cell"])] * 2),
    dx=st.floats(-60.0, 60.0),
    dy=st.floats(-60.0, 60.0),
    angles=st.tuples(st.floats(0.0, 6.3), st.floats(0.0, 6.3)),
    gap=st.sampled_from([0.0, 0.5, 2.0, 30.0]),
)
def test_N4_N5_within_is_distance_at_most_the_gap(
    kinds: tuple[str, str], dx: float, dy: float, angles: tuple[float, float], gap: float
) -> None:
    """`within` (used for touching pieces and cells) stops at the first close pair; it must
    answer exactly `distance <= gap` for pieces and edge-cell segments."""
    g = game()

    def shape(kind: str, x: float, y: float, angle: float) -> Placed:
        if kind == "cell":
            c, s_ = math.cos(angle), math.sin(angle)
            return segment((x - 20 * c, y - 20 * s_), (x + 20 * c, y + 20 * s_))
        return place(g.shapes[kind], (x, y, angle))

    a = shape(kinds[0], 150.0, 200.0, angles[0])
    b = shape(kinds[1], 150.0 + dx, 200.0 + dy, angles[1])
    assert within(a, b, gap) == (distance(a, b) <= gap)
    assert within(b, a, gap) == (distance(b, a) <= gap)


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(["circle", "square", "triangle", "diamond"]),
    k=st.integers(1, 7),
    edge=st.sampled_from(["top_at_lowest", "bottom_at_highest"]),
    offset=st.floats(-3e-6, 3e-6),
    x=st.floats(30.0, 210.0),
    angle=st.floats(0.0, 6.3),
    eps=st.sampled_from([0.0, 0.5, 3.0]),
)
def test_N6_level_answers_as_the_scan_where_the_box_meets_a_line(
    kind: str, k: int, edge: str, offset: float, x: float, angle: float, eps: float
) -> None:
    """N6: `level` decides a line from the piece's box when the piece is wholly above or
    below it; placed within a hair of where that shortcut stops, it still agrees with h_k."""
    g = game()
    line = g.board.boundaries[k - 1]
    lowest, highest = min(y for _, y in line), max(y for _, y in line)
    _, bottom, _, top = place(g.shapes[kind], (x, 0.0, angle)).bbox()
    y = (lowest + eps - top if edge == "top_at_lowest" else highest + eps - bottom) + offset
    shape = place(g.shapes[kind], (x, y, angle))
    above = [j for j in range(1, g.board.levels) if height_above(g.board, j, shape) > eps]
    assert level(g.board, shape, eps) == 1 + max(above, default=0)
