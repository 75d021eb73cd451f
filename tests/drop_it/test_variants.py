"""Drop It: variants (spec §10), jokers (V3) and teams (V4); V1/V2 edges are in test_scoring.py."""

from __future__ import annotations

import pytest

import gamenight
from gamenight.engine.core import BadInput, IllegalAction
from gamenight.games.drop_it import KEEP, SPEND, Drop, DropItState

from .helpers import game


def test_V3_joker_decision_after_a_violation_spend_scores_raw_points(
    joker_pending: DropItState,
) -> None:
    s = joker_pending
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


def test_V3_keep_the_joker_and_no_decision_without_jokers_left(
    joker_pending: DropItState,
) -> None:
    s = joker_pending
    s.act(0, KEEP)
    assert s.scores == [0, 0] and s.jokers == [2, 2]


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
