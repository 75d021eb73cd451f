"""Drop It: A turn as a state machine (spec §6; D10-D18, D23, D27, D33, D35) and the action grid."""

from __future__ import annotations

import random

import pytest

import gamenight
from gamenight.engine.core import IllegalAction
from gamenight.games.drop_it import SPEND, Drop, Joker

from .helpers import corner_violation, game, rules_of


def test_D10_D33_must_drop_own_piece_colour_kind_takes_lowest_n() -> None:
    s = game().start(0)
    assert all(isinstance(a, Drop) for a in s.actions(0))
    with pytest.raises(IllegalAction, match="not one of your pieces"):
        s.act(0, Drop("blue-circle", 100.0, 0.0))
    with pytest.raises(IllegalAction, match="no such piece"):
        s.act(0, Drop("purple-blob", 100.0, 0.0))
    with pytest.raises(IllegalAction, match="must be a number"):
        s.act(0, Drop("red-circle", float("nan"), 0.0))
    s.act(0, Drop("red-circle", 100.0, 0.0))
    assert s.records[-1]["piece"] == "red-circle-0"
    s.act(1, Drop("blue-circle-2", 30.0, 0.0))
    assert s.records[-1]["piece"] == "blue-circle-2"
    with pytest.raises(IllegalAction, match="on the board already"):
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


def test_D23_D27_violation_scores_zero_and_totals_never_go_down() -> None:
    s = corner_violation(game())
    assert "EDGE" in rules_of(s.records[-1]) and s.records[-1]["awarded"] == 0
    assert s.scores == [0, 0] and s.actors == (1,)


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


def test_D35_game_seed_is_secret_and_determinize_reseeds_it() -> None:
    s = game(jitter=True).start(123)
    assert "123" not in repr(s.view(0))
    d = s.determinize(0, random.Random(1))
    assert d.game_seed != s.game_seed and d.view(0) == s.view(0)
    assert (
        d.determinize(0, random.Random(2)).game_seed == s.determinize(0, random.Random(2)).game_seed
    )


def test_grid_is_the_integer_action_space() -> None:
    g = game()
    assert g.num_actions == 4 * (1 + 3 * 6) * 13 + 2
    for i in (0, 17, 500, g.num_actions - 1):
        assert g.action_index(g.action_at(i)) == i
    near = g.action_at(20)
    assert isinstance(near, Drop)
    assert g.action_index(Drop(near.piece + "-1", near.x + 0.01, near.angle)) == 20
    assert g.action_index(Joker(True)) == g.num_actions - 2
