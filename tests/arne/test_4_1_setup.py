"""Spec 4.1, setup: players, deck, colours, deal, first seat (A1-A5); player numbers (A56)."""

from __future__ import annotations

import pytest

import gamenight
from gamenight.engine.core import BadInput
from gamenight.games.arne import actions as A
from gamenight.games.arne.phases import Phase
from tests.arne.helpers import act, hand, pass_round


def test_A1_modes_variants_and_player_counts():
    for mode in ("normal", "losing"):
        for variant, players in (("standard", 2), ("standard", 6), ("dummy", 5), ("team", 12)):
            game = gamenight.load("arne", players=players, mode=mode, variant=variant)
            assert game.players == players
    with pytest.raises(BadInput, match="2-6 players"):
        gamenight.load("arne", players=7)
    with pytest.raises(BadInput, match="2-5 players"):
        gamenight.load("arne", players=6, variant="dummy")
    with pytest.raises(BadInput, match="even"):
        gamenight.load("arne", players=5, variant="team")
    with pytest.raises(BadInput, match="mode"):
        gamenight.load("arne", mode="winning")


def test_A2_deck_for_the_player_count():
    assert gamenight.load("arne", players=2).deck_colours == ("c5", "c6")
    assert gamenight.load("arne", players=3).deck_colours == ("red", "green", "yellow", "blue")
    assert len(gamenight.load("arne", players=5).deck_colours) == 6


def test_A3_colours_chosen_in_seat_order_from_free_colours():
    game = gamenight.load("arne", players=3, first_seat=1)
    state = game.start(5)
    assert state.actors[0] == 1
    choices = [a.colour for a in state.actions(1)]
    assert choices == ["red", "green", "yellow", "blue"]
    state.act(1, A.ChooseColour("blue"))
    assert state.actors[0] == 2
    assert "blue" not in [a.colour for a in state.actions(2)]
    state.act(2, A.ChooseColour("red"))
    state.act(0, A.ChooseColour("green"))
    view = state.view(None)
    assert [s["colour"] for s in view["seats"]] == ["green", "blue", "red"]


def test_A3_random_colour_assignment_is_seeded():
    game = gamenight.load("arne", players=4, colour_assignment="random")
    a, b = game.start(9), game.start(9)
    assert a.seat_colour == b.seat_colour
    assert sorted(a.seat_colour) == [0, 1, 2, 3]


def test_A4_deal_eight_secret_cards(table):
    state = table(players=3, seed=1)
    game = gamenight.load("arne", players=3)
    fresh = game.start(1)
    for _ in range(3):
        fresh.act(fresh.actors[0], fresh.actions(fresh.actors[0])[0])
    sizes = [len(h) for h in fresh.hands]
    assert sorted(sizes) == [8, 8, 9]  # the first player has drawn (A7)
    assert len(fresh.deck) == 92 - 24 - 1
    hand_events = [e for e in fresh.log if e.kind == "hand"]
    assert all(e.to == frozenset({e.data["player"]}) for e in hand_events)
    assert state.view(1)["hand"] == [] and state.view(None)["hand"] is None


def test_A4_hand_size_option_and_its_limit():
    game = gamenight.load("arne", players=2, hand_size=5)
    state = game.start(0)
    while state.phase == Phase.COLOUR:
        state.act(state.actors[0], state.actions(state.actors[0])[0])
    assert sorted(len(h) for h in state.hands) == [5, 6]
    with pytest.raises(BadInput, match="hand_size"):
        gamenight.load("arne", players=2, hand_size=21)


def test_A5_first_seat_and_direction(table):
    state = table(players=4, turn_seat=2)
    assert state.turn_seat == 2 and state.active == 2 and state.direction == 1
    with pytest.raises(BadInput, match="first_seat"):
        gamenight.load("arne", players=3, first_seat=3)
    game = gamenight.load("arne", players=3, first_seat="random")
    assert game.start(4).first_seat == game.start(4).first_seat


def test_A56_player_numbers_survive_a_swap(table):
    state = table(hands={0: ["SWAP_PLACES"], 1: ["red P100"]})
    act(state, A.SwapPlaces(1))
    pass_round(state)  # PRE window
    assert state.seat_of == [1, 0, 2]
    assert hand(state, 1) == ["red P100"]  # the hand stays with the person
    assert state.view(1)["hand"] == ["red P100"]
