"""Spec 7, the variants: losing, dummy (A49-A52), team (A53, A54), learning, series (A55)."""

from __future__ import annotations

import pytest

import gamenight
from gamenight.engine.core import BadInput
from gamenight.engine.driver import RandomBot, play
from gamenight.games.arne import actions as A
from tests.arne.helpers import act, pass_round, to_final


def test_A49_dummy_colour_unowned_deck_for_players_plus_one(table):
    game = gamenight.load("arne", players=2, variant="dummy")
    assert game.num_cards == 92  # the deck for 3 owners
    state = table(players=2, variant="dummy")
    assert state.display_colour[2] not in state.seat_colour[:2] and state.display_colour[2] >= 0
    with pytest.raises(BadInput, match="dummy"):
        gamenight.load("arne", players=2, variant="dummy", dummy_deck_player_count="players")


def test_A50_dummy_display_targets(table):
    state = table(players=2, variant="dummy", colours=("red", "green"), seed=0)
    dummy = state.game.colours[state.display_colour[2]]
    state = table(
        players=2,
        variant="dummy",
        colours=("red", "green"),
        seed=0,
        hands={0: [f"{dummy} P100", "CRUSH", "X3"], 1: ["THIEF"]},
        displays={2: [f"{dummy} P500", "red P50+CHAMELEON"]},
    )
    acts = state.actions(0)
    assert A.PlayPoint("P100", dummy, 2) in acts  # A21 both modes
    assert A.Crush(2, 0) in acts and A.Triple(2, 0) in acts
    act(state, A.PASS)
    assert A.ThiefStack(2, 1) in state.actions(1)


def test_A51_reverse_takes_the_dummy(dummy_table):
    state = dummy_table(hands={0: ["REVERSE"], 1: ["REVERSE"]})
    act(state, A.Reverse())
    assert state.dummy_controller == 0 and state.pending is None
    act(state, A.PASS)
    act(state, A.Reverse())
    assert state.dummy_controller == 1
    pass_round(state)
    assert state.turn_seat == 1 and state.direction == 1  # no direction change, no extra turn


def test_A52_dummy_scores_for_controller_and_stays_with_seat(table):
    state = table(players=3, variant="dummy", colours=("red", "green", "yellow"), seed=0)
    dummy = state.game.colours[state.display_colour[3]]
    state = table(
        players=3,
        variant="dummy",
        colours=("red", "green", "yellow"),
        seed=0,
        hands={0: ["REVERSE", "SWAP_PLACES"]},
        displays={0: ["red P500"], 3: [f"{dummy} P1000", f"{dummy} P200"]},
        deck_size=0,
    )
    act(state, A.Reverse())
    act(state, A.SwapPlaces(1))
    to_final(state)
    while not state.over:
        act(state, A.PASS)
    assert state.dummy_controller == 0  # the card stays with seat 0, now player 1's
    assert state.outcome().scores[1] == 1700 and state.outcome().scores[0] == 0


def test_A52_reverse_in_final_round_has_no_effect_by_default(dummy_table):
    state = dummy_table(hands={1: ["REVERSE"]}, deck_size=0)
    to_final(state)
    assert A.Reverse() not in state.actions(1)
    state = dummy_table(hands={1: ["REVERSE"]}, deck_size=0, dummy_reverse_in_final_round=True)
    to_final(state)
    act(state, A.Reverse())
    assert state.dummy_controller == 1


def test_A53_team_seating_colours_and_two_boxes():
    game = gamenight.load("arne", players=4, variant="team")
    assert game.num_cards == 84
    assert gamenight.load("arne", players=6, variant="team").num_cards == 184
    assert gamenight.load("arne", players=12, variant="team").num_cards == 268
    state = game.start(0)
    assert state.actors[0] == 0
    state.act(0, A.ChooseColour("c6"))
    state.act(1, A.ChooseColour("c5"))
    assert [game.colours[c] for c in state.seat_colour] == ["c6", "c5", "c6", "c5"]


def test_A54_team_score_is_the_sum_and_swap_changes_team(table):
    state = table(
        players=4,
        variant="team",
        colours=("c5", "c6"),
        hands={0: ["SWAP_PLACES", "c5 P100"]},
        displays={0: ["c5 P100"], 2: ["c5 P500"], 1: ["c6 P1000"]},
    )
    assert state.scores() == [600, 1000, 600, 1000]
    acts = state.actions(0)
    assert A.PlayPoint("P100", "c5", 2) in acts  # a team-mate's display (A21)
    act(state, A.SwapPlaces(1))
    pass_round(state)
    assert state.scores()[0] == 1000 and state.scores()[1] == 600


def test_learning_game_cards():
    game = gamenight.load("arne", players=3, learning=True)
    types = {game.kind_type[k] for k in game.card_kind}
    assert "X2" not in types and "PASS_HANDS" not in types and game.num_cards == 52


def test_A55_series_rotates_first_seat_and_sums():
    game = gamenight.load("arne", players=3, series_games=3)
    state = play(game, [RandomBot(i) for i in range(3)], 4)
    firsts = [e.data["first_seat"] for e in state.log if e.kind == "game"]
    assert firsts == [0, 1, 2]
    assert [sum(r[p] for r in state.results) for p in range(3)] == state.totals
    assert state.outcome().scores == tuple(state.totals)


def test_A55_series_target_score_stops_early():
    game = gamenight.load("arne", players=2, series_games=20, series_target_score=1)
    state = play(game, [RandomBot(i) for i in range(2)], 1)
    assert state.game_no < 20 and max(state.totals) >= 1
    with pytest.raises(BadInput, match="series"):
        gamenight.load("arne", series_target_score=100)
