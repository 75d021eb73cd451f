"""End of the game (A41-A46) and the variants (A49-A55)."""

import pytest

import gamenight
from gamenight.engine.core import BadInput
from gamenight.engine.driver import RandomBot, play
from gamenight.games.arne import actions as A
from tests.arne.helpers import act, pass_round, table


def to_final(state):
    """Finish the current (last) turn: pass everything, play any forced white card."""
    while state.phase != 4:
        seat = state.actors[0]
        if state.phase == 2:
            act(state, state.actions(seat)[0])
        else:
            act(state, A.PASS)


# -- 4.7 end of the game ----------------------------------------------------------------
def test_A41_final_round_one_black_action_each_no_stop_reverse():
    state = table(
        hands={1: ["STOP", "REVERSE", "CRUSH", "CRUSH"], 2: ["LOCK"]},
        displays={0: ["red P1000", "red P500"]},
        deck_size=0,
    )
    to_final(state)
    assert state.final_order == (1, 2, 0)
    acts = state.actions(1)
    assert A.Stop() not in acts and A.Reverse() not in acts
    act(state, A.Crush(0, 0))
    assert state.actors[0] == 2  # one action only
    act(state, A.Lock(0, 0))
    assert state.actors[0] == 0 and state.actions(0) == [A.PASS]  # asked with nothing (A17)
    act(state, A.PASS)
    assert state.over
    assert state.outcome().scores[0] == 1500


def test_A41_chameleon_in_final_round_minus200_only_by_default():
    hands = {1: ["CHAMELEON", "red P100", "green MINUS200"]}
    state = table(hands=hands, deck_size=0)
    to_final(state)
    cham = [a for a in state.actions(1) if isinstance(a, A.Chameleon)]
    assert cham and all(a.card == "MINUS200" for a in cham)
    state = table(hands=hands, deck_size=0, chameleon_in_final_round="all")
    to_final(state)
    assert A.Chameleon("P100", "red", 1) in state.actions(1)
    state = table(hands=hands, deck_size=0, chameleon_in_final_round="none")
    to_final(state)
    assert not [a for a in state.actions(1) if isinstance(a, A.Chameleon)]


def test_A42_cleanup_puts_hands_face_up_on_the_pile():
    state = table(hands={1: ["STOP"], 2: ["green P50"]}, deck_size=0)
    to_final(state)
    while not state.over:
        act(state, A.PASS)
    assert state.view(None)["discard"][-2:] == ["STOP", "green P50"]
    cleanup = next(e for e in state.events(0) if e.kind == "cleanup")
    assert cleanup.data["hands"][2] == ["green P50"]


def test_A43_normal_highest_wins_losing_lowest_ties_share():
    state = table(displays={0: ["red P100"], 1: ["green P500"]}, deck_size=0)
    to_final(state)
    while not state.over:
        act(state, A.PASS)
    assert state.outcome().winners == (1,)
    state = table(displays={0: ["red P100"], 1: ["green P500"]}, deck_size=0, mode="losing")
    to_final(state)
    while not state.over:
        act(state, A.PASS)
    assert state.outcome().winners == (2,)  # 0 points
    state = table(displays={0: ["red P100"], 1: ["green P100"]}, deck_size=0)
    to_final(state)
    while not state.over:
        act(state, A.PASS)
    assert state.outcome().winners == (0, 1)


def test_A44_no_reshuffle():
    game = gamenight.load("arne", players=3)
    state = play(game, [RandomBot(i) for i in range(3)], 2)
    assert not state.deck and not [e for e in state.log if "shuffle" in e.kind]


def test_A45_live_preview_in_every_view():
    state = table(displays={0: ["red P200", "red P100", "red X2+X3"]})
    view = state.view(2)
    assert view["displays"][0]["score"] == 1800 and view["scores"][0] == 1800


def test_A46_score_by_the_seat_held_at_the_end():
    state = table(hands={0: ["SWAP_PLACES"]}, displays={1: ["green P1000"]}, deck_size=0)
    act(state, A.SwapPlaces(1))
    to_final(state)
    while not state.over:
        act(state, A.PASS)
    assert state.outcome().scores[0] == 1000 and state.outcome().winners == (0,)


# -- 7.3 dummy game ---------------------------------------------------------------------
def test_A49_dummy_colour_unowned_deck_for_players_plus_one():
    game = gamenight.load("arne", players=2, variant="dummy")
    assert game.num_cards == 92  # the deck for 3 owners
    state = table(players=2, variant="dummy")
    assert state.display_colour[2] not in state.seat_colour[:2] and state.display_colour[2] >= 0
    with pytest.raises(BadInput, match="dummy"):
        gamenight.load("arne", players=2, variant="dummy", dummy_deck_player_count="players")


def dummy_table(**kw):
    state = table(players=2, variant="dummy", colours=("red", "green"), **kw)
    return state


def test_A50_dummy_display_targets():
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


def test_A51_reverse_takes_the_dummy():
    state = dummy_table(hands={0: ["REVERSE"], 1: ["REVERSE"]})
    act(state, A.Reverse())
    assert state.dummy_controller == 0 and state.pending is None
    act(state, A.PASS)
    act(state, A.Reverse())
    assert state.dummy_controller == 1
    pass_round(state)
    assert state.turn_seat == 1 and state.direction == 1  # no direction change, no extra turn


def test_A52_dummy_scores_for_controller_and_stays_with_seat():
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


def test_A52_reverse_in_final_round_has_no_effect_by_default():
    state = dummy_table(hands={1: ["REVERSE"]}, deck_size=0)
    to_final(state)
    assert A.Reverse() not in state.actions(1)
    state = dummy_table(hands={1: ["REVERSE"]}, deck_size=0, dummy_reverse_in_final_round=True)
    to_final(state)
    act(state, A.Reverse())
    assert state.dummy_controller == 1


def test_A38_dummy_reverse_in_last_turn_still_takes_the_dummy():
    state = dummy_table(hands={1: ["REVERSE"]}, deck_size=0)
    act(state, A.PASS)
    act(state, A.Reverse())
    assert state.dummy_controller == 1


# -- 7.4 team game ----------------------------------------------------------------------
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


def test_A54_team_score_is_the_sum_and_swap_changes_team():
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


def test_A47_team_hands_secret_unless_open():
    state = table(players=4, variant="team", colours=("c5", "c6"), hands={2: ["c5 P100"]})
    assert "team_hands" not in state.view(0)
    state = table(
        players=4,
        variant="team",
        colours=("c5", "c6"),
        hands={2: ["c5 P100"]},
        team_open_hands=True,
    )
    assert state.view(0)["team_hands"] == {"2": ["c5 P100"]}


# -- 7.5 / 7.6 --------------------------------------------------------------------------
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


def test_A43_estimate_ranks_the_table_so_far():
    state = table(displays={0: ["red P100"], 1: ["green P500"]})
    payoff = state.estimate()
    assert payoff == (0.5, 1.0, 0.0)
