"""Spec 6 in the learning tensor (`game.encode(view)`): what a seat knows beyond its own hand
and the table reaches the tensor (A47, A57, A58, A24/A25); what it cannot know does not."""

from __future__ import annotations

import random

import numpy as np

from gamenight.games.arne import actions as A
from gamenight.games.arne.phases import Phase
from tests.arne.helpers import act, pass_round


def _encode(state, view):
    return state.game.encode(view)


def _without(view, key):
    return {k: v for k, v in view.items() if k != key}


def test_A58_a_card_known_in_another_hand_is_in_the_tensor(table):
    state = table(hands={1: ["THIEF", "CRUSH"], 2: ["STOP"]}, discard=["green P1000"])
    act(state, A.PASS)
    act(state, A.ThiefDiscard())
    view = state.view(2)
    assert view["known"] == {"1": ["green P1000"]}
    assert not np.array_equal(_encode(state, view), _encode(state, _without(view, "known")))
    for r in range(10):  # and it survives every determinization of seat 2
        twin = state.determinize(2, random.Random(r))
        assert np.array_equal(_encode(state, twin.view(2)), _encode(state, view))


def test_A58_the_known_card_is_placed_at_its_holder(table):
    state = table(hands={1: ["THIEF", "CRUSH"], 2: ["STOP"]}, discard=["green P1000"])
    act(state, A.PASS)
    act(state, A.ThiefDiscard())
    view = state.view(2)
    moved = dict(view, known={"0": ["green P1000"]})
    assert not np.array_equal(_encode(state, view), _encode(state, moved))


def test_A47_open_team_hands_are_in_the_tensor(table):
    options = {"players": 4, "variant": "team", "colours": ("c5", "c6")}
    shut = table(hands={2: ["c5 P100"]}, **options)
    a = table(hands={2: ["c5 P100"]}, team_open_hands=True, **options)
    b = table(hands={2: ["c5 P1000"]}, team_open_hands=True, **options)
    assert not np.array_equal(_encode(a, a.view(0)), _encode(b, b.view(0)))
    twin = shut.copy()  # closed hands: the mate's card is not in seat 0's tensor
    twin.hands[2] = sorted(b.hands[2])
    assert np.array_equal(_encode(shut, shut.view(0)), _encode(twin, twin.view(0)))


def test_A57_the_card_in_play_and_its_declared_action_are_in_the_tensor(table):
    state = table(hands={0: ["DEMAND_POINTS", "DEMAND_POINTS"], 1: ["red P50"], 2: ["STOP"]})
    before = state.copy()
    act(state, A.DemandPoints(1, "red", 0))
    view = state.view(2)
    assert view["in_play"] is not None
    other = dict(
        view,
        in_play={"card": view["in_play"]["card"], "action": A.DemandPoints(2, "red", 0).to_json()},
    )
    assert not np.array_equal(_encode(state, view), _encode(state, other))
    other = dict(
        view, in_play={**view["in_play"], "action": A.DemandPoints(1, "green", 0).to_json()}
    )
    assert not np.array_equal(_encode(state, view), _encode(state, other))
    assert not np.array_equal(_encode(state, view), _encode(before, before.view(2)))


def test_A24_A25_a_demands_details_are_in_the_tensor(table):
    state = table(
        players=3, hands={0: ["DEMAND_BLACK"], 1: ["STOP", "CRUSH", "red P50"], 2: ["green P100"]}
    )
    act(state, A.DemandBlack(1))
    pass_round(state)
    assert state.phase == Phase.GIVE
    view = state.view(2)
    give = view["give"]
    for change in ({"left": give["left"] - 1}, {"cards": "red"}, {"target": 2}, {"to": 2}):
        other = dict(view, give={**give, **change})
        assert not np.array_equal(_encode(state, view), _encode(state, other)), change
