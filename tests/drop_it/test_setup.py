"""Drop It: components and setup (spec §2, §5; D1-D9, D34), options and their outlines (N1, N2)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import gamenight
from gamenight.engine.core import BadInput

from .helpers import game


def test_D1_D33_thirty_six_pieces_with_fixed_ids_in_canonical_order() -> None:
    ids = [p.id for p in game().pieces]
    assert len(ids) == 36 and ids[:4] == [
        "red-circle-0",
        "red-circle-1",
        "red-circle-2",
        "red-square-0",
    ]
    assert ids[-1] == "green-diamond-1"
    kinds = Counter(p.kind for p in game().pieces)
    assert kinds == {"circle": 12, "square": 8, "triangle": 8, "diamond": 8}


def test_D3_D34_four_players_hold_one_colour_each() -> None:
    s = game(players=4).start(0)
    assert [sorted({p.split("-")[0] for p in sup}) for sup in s.supplies] == [
        ["red"],
        ["yellow"],
        ["blue"],
        ["green"],
    ]
    assert all(len(sup) == 9 for sup in s.supplies)


def test_D4_three_players_split_the_fourth_colour_in_bundles_from_the_start_seat() -> None:
    s = game(players=3, start_seat=1).start(0)
    assert all(len(sup) == 12 for sup in s.supplies)
    yellow = [sorted(p for p in sup if p.startswith("yellow")) for sup in s.supplies]
    assert yellow[1] == ["yellow-circle-0", "yellow-square-0", "yellow-triangle-0"]  # X
    assert yellow[2] == ["yellow-circle-1", "yellow-diamond-0", "yellow-triangle-1"]  # Y
    assert yellow[0] == ["yellow-circle-2", "yellow-diamond-1", "yellow-square-1"]  # Z


def test_D5_D6_two_sides_hold_two_colour_sets_and_one_score() -> None:
    for g in (game(players=2), game(players=4, teams=True)):
        s = g.start(0)
        assert [len(sup) for sup in s.supplies] == [18, 18]
        assert g.colours == (("red", "yellow"), ("blue", "green"))
        assert len(s.view(None)["sides"]) == 2


def test_D34_seat_colours_option_and_its_errors() -> None:
    g = game(players=3, seat_colours="yellow,blue,green")
    s = g.start(0)
    assert sum(p.startswith("red") for sup in s.supplies for p in sup) == 9  # red is split
    with pytest.raises(BadInput, match="seat_colours"):
        gamenight.load("drop-it", players=2, seat_colours="red,blue")


def test_D7_D9_base_game_uses_colour_faces_and_scores_start_at_zero() -> None:
    g = game()
    assert g.options.edge_mode == "color" and not g.options.jokers
    s = g.start(0)
    assert s.scores == [0, 0] and s.jokers == [0, 0]


def test_D8_turn_order_from_start_seat_and_random_start() -> None:
    s = game(players=3, start_seat=2).start(0)
    order = []
    for _ in range(4):
        seat = s.actors[0]
        order.append(seat)
        s.act(seat, s.actions(seat)[0])
    assert order == [2, 0, 1, 2]
    starts = {game(players=4, start_seat="random").start(seed).start_side for seed in range(12)}
    assert len(starts) > 1
    assert game(players=4, start_seat="random").start(5).start_side == random.Random(
        "dropit:5:start"
    ).randrange(4)


def test_options_errors_name_what_is_allowed() -> None:
    with pytest.raises(BadInput, match="edge_mode"):
        gamenight.load("drop-it", edge_mode="stripes")
    with pytest.raises(BadInput, match="max_depth"):
        gamenight.load("drop-it", max_depth="deep")
    with pytest.raises(BadInput, match="cannot read"):
        gamenight.load("drop-it", board="/nonexistent/board.json")


def test_N1_tolerances_are_options() -> None:
    from gamenight.games.drop_it.scoring import Tolerances, assess

    g = game(touch_tol=0.3)
    assert g.tolerances == Tolerances(0.3, 0.5, 0.5, 0.5)
    poses = {"red-square-0": (100.0, 100.0, 0.0), "red-square-1": (136.4, 100.0, 0.0)}
    assert assess(g.board, g.shapes, poses, "red-square-1", "color", g.tolerances).violations == ()


def test_N2_outlines_from_the_board_sizes() -> None:
    import math

    shapes = game().shapes
    tri = shapes["triangle"].vertices
    assert tri[2] == (0.0, 44 / math.sqrt(3)) and tri[0] == (-22.0, -22 / math.sqrt(3))
    assert shapes["diamond"].vertices == ((0.0, -27.0), (17.0, 0.0), (0.0, 27.0), (-17.0, 0.0))
    assert shapes["circle"].radius == 20.0 and shapes["square"].vertices[2] == (18.0, 18.0)
