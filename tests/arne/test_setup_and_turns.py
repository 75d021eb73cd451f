"""Setup (A1-A5, A56) and the turn structure (A6-A14, A57)."""

import pytest

import gamenight
from gamenight.engine.core import BadInput, IllegalAction
from gamenight.games.arne import actions as A
from tests.arne.helpers import act, hand, pass_round, stack_names, table


# -- 4.1 setup ------------------------------------------------------------------------------
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


def test_A4_deal_eight_secret_cards():
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
    while state.phase == 0:
        state.act(state.actors[0], state.actions(state.actors[0])[0])
    assert sorted(len(h) for h in state.hands) == [5, 6]
    with pytest.raises(BadInput, match="hand_size"):
        gamenight.load("arne", players=2, hand_size=21)


def test_A5_first_seat_and_direction():
    state = table(players=4, turn_seat=2)
    assert state.turn_seat == 2 and state.active == 2 and state.direction == 1
    with pytest.raises(BadInput, match="first_seat"):
        gamenight.load("arne", players=3, first_seat=3)
    game = gamenight.load("arne", players=3, first_seat="random")
    assert game.start(4).first_seat == game.start(4).first_seat


def test_A56_player_numbers_survive_a_swap():
    state = table(hands={0: ["SWAP_PLACES"], 1: ["red P100"]})
    act(state, A.SwapPlaces(1))
    pass_round(state)  # PRE window
    assert state.seat_of == [1, 0, 2]
    assert hand(state, 1) == ["red P100"]  # the hand stays with the person
    assert state.view(1)["hand"] == ["red P100"]


# -- 4.2 turn structure ---------------------------------------------------------------------
def test_A6_A7_turn_start_clears_pending_and_draws():
    state = table(hands={0: ["STOP"]}, deck=["green P50"])
    act(state, A.Stop())
    pass_round(state)  # main window closes: no white card (A9)
    assert state.turn_seat == 0 and state.pending is None  # STOP(0): seat 0 again
    assert hand(state, 0) == ["green P50"]  # drew the top card


def test_A7_empty_hand_still_takes_turns():
    state = table(hands={})
    assert state.actions(0) == [A.PASS]
    pass_round(state)
    assert state.turn_seat == 1


def test_A8_main_window_starts_with_active_and_declaring_closes_it():
    state = table(hands={0: ["red P100"], 1: ["CRUSH"]})
    assert state.actors[0] == 0 and state.window == 0
    assert A.PlayPoint("P100", "red", 0) in state.actions(0)
    act(state, A.PlayPoint("P100", "red", 0))
    assert state.window == 2 and state.holder == 1  # END window at the next seat
    assert A.Crush(0, 0) in state.actions(1)


def test_A9_white_step_forces_a_playable_white_card():
    state = table(hands={0: ["red P100", "CRUSH"]})
    pass_round(state)
    assert state.phase == 2 and state.actors[0] == 0
    assert A.PASS not in state.actions(0)
    assert set(state.actions(0)) == {A.PlayPoint("P100", "red", 0), A.PlayPoint("P100", "red", -1)}


def test_A9_no_white_card_no_duty_to_play_black():
    state = table(hands={0: ["CRUSH", "STOP"]})
    pass_round(state)
    assert state.turn_seat == 1
    assert any(e.kind == "no_white" for e in state.log)
    assert sorted(hand(state, 0)) == ["CRUSH", "STOP"]


def test_A10_declared_card_is_in_play_visible_to_all():
    state = table(hands={0: ["TAKE_RANDOM"], 1: ["green P50"]})
    act(state, A.TakeRandom(1))
    view = state.view(2)
    assert view["in_play"]["card"] == "TAKE_RANDOM"
    assert view["in_play"]["action"] == {"type": "take_random", "target": 1}
    assert "TAKE_RANDOM" not in hand(state, 0) and "TAKE_RANDOM" not in view["discard"]


def test_A11_pre_window_starts_at_next_seat_for_take_random():
    state = table(hands={0: ["TAKE_RANDOM"]})
    act(state, A.TakeRandom(2))
    assert state.window == 1 and state.holder == 1


@pytest.mark.parametrize("card", ["red P100", "PASS_HANDS", "X3"])
def test_A11_no_pre_window_for_points_pass_hands_and_x3(card):
    state = table(hands={0: [card]}, displays={0: ["red P50"]})
    act(state, state.actions(0)[1])
    assert state.window == 2  # straight to the END window


def test_A11_pre_windows_can_be_switched_off():
    state = table(hands={0: ["DRAW_THREE"]}, pre_resolution_windows=False)
    act(state, A.DrawThree())
    assert state.window == 2 and len(state.hands[0]) == 3


def test_A12_resolve_then_end_window_at_next_seat():
    state = table(hands={0: ["DRAW_THREE"]}, turn_seat=0)
    act(state, A.DrawThree())
    pass_round(state)
    assert len(state.hands[0]) == 3
    assert state.window == 2 and state.holder == 1
    assert state.view(None)["discard"][-1] == "DRAW_THREE"


def test_A13_empty_draw_pile_leads_to_the_final_round():
    state = table(hands={0: ["red P100"]}, deck_size=0)
    act(state, A.PlayPoint("P100", "red", 0))
    pass_round(state)
    assert state.phase == 4  # FINAL


def test_A13_draw_three_empties_the_pile_and_the_turn_finishes():
    state = table(hands={0: ["DRAW_THREE"], 1: ["CRUSH"]}, deck_size=2)
    act(state, A.DrawThree())
    pass_round(state)
    assert len(state.hands[0]) == 2 and not state.deck
    assert state.window == 2  # the END window still happens
    pass_round(state)
    assert state.phase == 4


def test_A14_next_seat_plain_stop_and_reverse():
    state = table(players=4, hands={0: ["red P50"]})
    act(state, A.PlayPoint("P50", "red", 0))
    pass_round(state)
    assert state.turn_seat == 1
    state = table(players=4, hands={2: ["STOP"]})
    pass_round(state, times=2)
    act(state, A.Stop())
    pass_round(state)
    assert state.turn_seat == 2 and state.direction == 1
    state = table(players=4, hands={2: ["REVERSE"]})
    pass_round(state, times=2)
    act(state, A.Reverse())
    pass_round(state)
    assert state.turn_seat == 2 and state.direction == -1  # flip_and_take


def test_A14_reverse_mode_flip():
    state = table(players=4, hands={2: ["REVERSE"]}, reverse_mode="flip")
    pass_round(state, times=2)
    act(state, A.Reverse())
    pass_round(state)
    assert state.direction == -1 and state.turn_seat == 3  # the player before the active one


def test_A14_two_players_reverse_as_stop_in_flip_mode():
    state = table(players=2, hands={1: ["REVERSE"]}, reverse_mode="flip")
    pass_round(state, times=1)
    act(state, A.Reverse())
    pass_round(state)
    assert state.turn_seat == 1
    state = table(
        players=2, hands={0: ["REVERSE"]}, reverse_mode="flip", two_player_reverse_as_stop=False
    )
    act(state, A.Reverse())
    pass_round(state)
    assert state.turn_seat == 1  # next(turn seat) after the flip


def test_A57_thief_cannot_take_the_card_in_play_but_can_after():
    state = table(hands={0: ["DRAW_THREE"], 1: ["THIEF"]}, discard=[])
    act(state, A.DrawThree())
    assert state.holder == 1
    assert A.ThiefDiscard() not in state.actions(1)  # the pile is empty: card is in play
    pass_round(state)
    assert state.window == 2 and state.holder == 1
    assert A.ThiefDiscard() in state.actions(1)
    act(state, A.ThiefDiscard())
    assert "DRAW_THREE" in hand(state, 1)


def test_A57_point_card_joins_its_display_x3_its_stack():
    state = table(hands={0: ["X3"]}, displays={1: ["green P500"]})
    act(state, A.Triple(1, 0))
    assert state.view(None)["displays"][1]["stacks"][0]["x3"]
    assert stack_names(state, 1) == ["green P500"]


def test_illegal_action_is_refused_and_changes_nothing():
    state = table(hands={0: ["red P100"]})
    with pytest.raises(IllegalAction):
        state.act(0, A.PlayPoint("P100", "red", 1))
    with pytest.raises(IllegalAction):
        state.act(1, A.Stop())  # player 1 may only pass (in advance) now
    assert hand(state, 0) == ["red P100"]
