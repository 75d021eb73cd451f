"""Set-up, turns, landing-rule awards, jokers, teams and the end of the game (D1..D35, V3, V4)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import gamenight
from gamenight.engine.core import BadInput, IllegalAction
from gamenight.games.drop_it import KEEP, SPEND, Drop, Joker

from .helpers import game, judge, rules


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


def test_D10_D33_must_drop_own_piece_colour_kind_takes_lowest_n() -> None:
    s = game().start(0)
    assert all(isinstance(a, Drop) for a in s.actions(0))
    with pytest.raises(IllegalAction, match="supply"):
        s.act(0, Drop("blue-circle", 100.0, 0.0))
    with pytest.raises(IllegalAction, match="not a piece"):
        s.act(0, Drop("purple-blob", 100.0, 0.0))
    with pytest.raises(IllegalAction, match="finite"):
        s.act(0, Drop("red-circle", float("nan"), 0.0))
    s.act(0, Drop("red-circle", 100.0, 0.0))
    assert s.records[-1]["piece"] == "red-circle-0"
    s.act(1, Drop("blue-circle-2", 30.0, 0.0))
    assert s.records[-1]["piece"] == "blue-circle-2"
    with pytest.raises(IllegalAction, match="supply"):
        s.act(0, Drop("red-circle-0", 100.0, 0.0))  # D10: it left the supply at release


def test_D17_turn_record_has_every_field() -> None:
    s = game().start(0)
    s.act(0, Drop("red-square", 150.0, 0.0))
    rec = s.records[-1]
    for key in (
        "turn",
        "seat",
        "side",
        "piece",
        "requested",
        "noise",
        "release",
        "settled",
        "time",
        "poses",
        "violations",
        "level",
        "bonus",
        "raw_points",
        "joker_used",
        "awarded",
    ):
        assert key in rec
    assert s.events(1)[-2].kind == "dropped" and s.events(1)[-1].kind == "scored"


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


def corner_violation(g: gamenight.Game) -> gamenight.State:
    """Seat 0 drops its red circle into the left corner: the left level-1 cell is red (D21)."""
    s = g.start(0)
    s.act(0, Drop("red-circle", 20.5, 0.0))
    return s


def test_D23_D27_violation_scores_zero_and_totals_never_go_down() -> None:
    s = corner_violation(game())
    assert "EDGE" in rules_of(s.records[-1]) and s.records[-1]["awarded"] == 0
    assert s.scores == [0, 0] and s.actors == (1,)


def rules_of(record: dict) -> set[str]:
    return {v["rule"] for v in record["violations"]}


def test_V3_joker_decision_after_a_violation_spend_scores_raw_points() -> None:
    g = game(jokers=True)
    s = corner_violation(g)
    assert s.actors == (0,) and s.actions(0) == [SPEND, KEEP]
    assert s.view(1)["phase"] == "joker"
    with pytest.raises(IllegalAction, match="joker"):
        s.act(0, Drop("red-circle", 100.0, 0.0))
    s.act(0, SPEND)
    assert s.scores[0] == s.records[-1]["raw_points"] == s.records[-1]["awarded"]
    assert s.jokers == [1, 2] and s.records[-1]["joker_used"]
    assert s.actors == (1,)
    with pytest.raises(IllegalAction, match="only right after"):
        s.act(1, SPEND)  # V3: not on a legal drop, nor on a later turn


def test_V3_keep_the_joker_and_no_decision_without_jokers_left() -> None:
    s = corner_violation(game(jokers=True))
    s.act(0, KEEP)
    assert s.scores == [0, 0] and s.jokers == [2, 2]


def test_D29_D31_D32_game_ends_after_36_drops_unused_jokers_add_three() -> None:
    g = game(jokers=True)
    s = g.start(1)
    rng = random.Random(1)
    while not s.over:
        seat = s.actors[0]
        acts = s.actions(seat)
        s.act(seat, KEEP if KEEP in acts else rng.choice(acts))
    assert len(s.records) == 36 and all(not sup for sup in s.supplies)
    assert s.final_totals() == [s.scores[i] + 3 * s.jokers[i] for i in range(2)]
    out = s.outcome()
    assert list(out.scores) == s.final_totals()
    assert s.events(None)[-1].kind == "game_over"
    assert s.actions(0) == [] and s.actions(1) == []


def test_D32_ties_share_the_win() -> None:
    s = game().start(0)
    s.turn = 36
    s._actors = ()
    assert s.outcome().winners == (0, 1)


def test_V4_teams_alternate_and_members_rotate() -> None:
    s = game(players=5, teams=True).start(0)
    order = []
    for _ in range(8):
        seat = s.actors[0]
        order.append(seat)
        s.act(seat, s.actions(seat)[0])
    # Team 0 = seats 0, 2, 4; team 1 = seats 1, 3.
    assert order == [0, 1, 2, 3, 4, 1, 0, 3]
    out = s.copy()
    out.turn, out._actors = 36, ()
    assert out.outcome().scores[0] == out.outcome().scores[2] == out.outcome().scores[4]


def test_V4_options_checks() -> None:
    with pytest.raises(BadInput, match="2-4 players"):
        gamenight.load("drop-it", players=5)
    with pytest.raises(BadInput, match="start_seat"):
        gamenight.load("drop-it", players=4, teams=True, start_seat=3)


def test_D35_game_seed_is_secret_and_determinize_reseeds_it() -> None:
    s = game(jitter=True).start(123)
    assert "123" not in repr(s.view(0))
    d = s.determinize(0, random.Random(1))
    assert d.game_seed != s.game_seed and d.view(0) == s.view(0)
    assert (
        d.determinize(0, random.Random(2)).game_seed == s.determinize(0, random.Random(2)).game_seed
    )


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


def test_grid_is_the_integer_action_space() -> None:
    g = game()
    assert g.num_actions == 4 * (1 + 3 * 6) * 13 + 2
    for i in (0, 17, 500, g.num_actions - 1):
        assert g.action_index(g.action_at(i)) == i
    near = g.action_at(20)
    assert isinstance(near, Drop)
    assert g.action_index(Drop(near.piece + "-1", near.x + 0.01, near.angle)) == 20
    assert g.action_index(Joker(True)) == g.num_actions - 2


def test_D13_after_release_the_dropper_cannot_touch_the_pile() -> None:
    """The only decision left after a drop is the joker choice, which moves nothing."""
    s = corner_violation(game(jokers=True))
    before = s.poses
    assert all(isinstance(a, Joker) for a in s.actions(0))
    s.act(0, SPEND)
    assert s.poses == before


def find_push(seed: int = 0) -> tuple[gamenight.State, int, str]:
    """A random game in which a drop moved an earlier piece by more than 1 mm."""
    s = game().start(seed)
    rng = random.Random(seed)
    while not s.over:
        seat = s.actors[0]
        s.act(seat, rng.choice(s.actions(seat)))
        if len(s.records) < 2:
            continue
        before = {p: (x, y) for p, x, y, _ in s.records[-2]["poses"]}
        for p, x, y, _ in s.records[-1]["poses"]:
            if p in before and abs(x - before[p][0]) + abs(y - before[p][1]) > 1.0:
                return s, len(s.records) - 1, p
    raise AssertionError("no drop pushed another piece")


def test_D18_D27_pushed_piece_keeps_its_score_and_is_judged_at_its_new_pose() -> None:
    from gamenight.games.drop_it.scoring import assess

    s, index, pushed = find_push()
    g = s.game
    rec = s.records[index]
    now = {p: (x, y, a) for p, x, y, a in rec["poses"]}
    found = assess(g.board, g.shapes, now, rec["piece"], "color", g.tolerances)
    assert list(found.touching) == rec["touching"]  # D18: the pushed piece's new pose
    earlier = next(r for r in s.records if r["piece"] == pushed)
    total = sum(r["awarded"] for r in s.records if r["side"] == earlier["side"])
    assert s.scores[earlier["side"]] == total  # D27: the earlier award never changes


def test_D30_final_total_is_the_sum_of_drop_points_tokens_only_display() -> None:
    s = game(players=4).start(0)
    rng = random.Random(4)
    while not s.over:
        s.act(s.actors[0], rng.choice(s.actions(s.actors[0])))
    for side in range(4):
        assert s.final_totals()[side] == sum(r["awarded"] for r in s.records if r["side"] == side)
    view = s.view(None)
    assert all(v["total"] == s.final_totals()[v["side"]] for v in view["sides"])


def test_N2_outlines_from_the_board_sizes() -> None:
    import math

    shapes = game().shapes
    tri = shapes["triangle"].vertices
    assert tri[2] == (0.0, 44 / math.sqrt(3)) and tri[0] == (-22.0, -22 / math.sqrt(3))
    assert shapes["diamond"].vertices == ((0.0, -27.0), (17.0, 0.0), (0.0, 27.0), (-17.0, 0.0))
    assert shapes["circle"].radius == 20.0 and shapes["square"].vertices[2] == (18.0, 18.0)


def test_N9_raw_points_are_computed_even_when_a_rule_is_broken() -> None:
    a = judge(("red-square-0", 150.0, 18.0, 0.0))
    assert a.violations and a.raw_points == 3 and a.bonus == ("B1",)
