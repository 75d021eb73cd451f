"""Spec 4.2, the turn as a state machine (A6-A14) and the card in play (A57)."""

from __future__ import annotations

import pytest

from gamenight.engine.core import IllegalAction
from gamenight.games.arne import actions as A
from gamenight.games.arne.phases import Phase, Window
from tests.arne.helpers import act, hand, pass_round, stack_names


def test_A6_A7_turn_start_clears_pending_and_draws(table):
    state = table(hands={0: ["STOP"]}, deck=["green P50"])
    act(state, A.Stop())
    pass_round(state)  # main window closes: no white card (A9)
    assert state.turn_seat == 0 and state.pending is None  # STOP(0): seat 0 again
    assert hand(state, 0) == ["green P50"]  # drew the top card


def test_A7_empty_hand_still_takes_turns(table):
    state = table(hands={})
    assert state.actions(0) == [A.PASS]
    pass_round(state)
    assert state.turn_seat == 1


def test_A8_main_window_starts_with_active_and_declaring_closes_it(table):
    state = table(hands={0: ["red P100"], 1: ["CRUSH"]})
    assert state.actors[0] == 0 and state.window == Window.MAIN
    assert A.PlayPoint("P100", "red", 0) in state.actions(0)
    act(state, A.PlayPoint("P100", "red", 0))
    assert state.window == Window.END and state.holder == 1  # END window at the next seat
    assert A.Crush(0, 0) in state.actions(1)


def test_A9_white_step_forces_a_playable_white_card(table):
    state = table(hands={0: ["red P100", "CRUSH"]})
    pass_round(state)
    assert state.phase == Phase.WHITE and state.actors[0] == 0
    assert A.PASS not in state.actions(0)
    assert set(state.actions(0)) == {A.PlayPoint("P100", "red", 0), A.PlayPoint("P100", "red", -1)}


def test_A9_no_white_card_no_duty_to_play_black(table):
    state = table(hands={0: ["CRUSH", "STOP"]})
    pass_round(state)
    assert state.turn_seat == 1
    assert any(e.kind == "no_white" for e in state.log)
    assert sorted(hand(state, 0)) == ["CRUSH", "STOP"]


def test_A10_declared_card_is_in_play_visible_to_all(table):
    state = table(hands={0: ["TAKE_RANDOM"], 1: ["green P50"]})
    act(state, A.TakeRandom(1))
    view = state.view(2)
    assert view["in_play"]["card"] == "TAKE_RANDOM"
    assert view["in_play"]["action"] == {"type": "take_random", "target": 1}
    assert "TAKE_RANDOM" not in hand(state, 0) and "TAKE_RANDOM" not in view["discard"]


def test_A11_pre_window_starts_at_next_seat_for_take_random(table):
    state = table(hands={0: ["TAKE_RANDOM"]})
    act(state, A.TakeRandom(2))
    assert state.window == Window.PRE and state.holder == 1


@pytest.mark.parametrize("card", ["red P100", "PASS_HANDS", "X3"])
def test_A11_no_pre_window_for_points_pass_hands_and_x3(card, table):
    state = table(hands={0: [card]}, displays={0: ["red P50"]})
    act(state, state.actions(0)[1])
    assert state.window == Window.END  # straight to the END window


def test_A11_pre_windows_can_be_switched_off(table):
    state = table(hands={0: ["DRAW_THREE"]}, pre_resolution_windows=False)
    act(state, A.DrawThree())
    assert state.window == Window.END and len(state.hands[0]) == 3


def test_A12_resolve_then_end_window_at_next_seat(table):
    state = table(hands={0: ["DRAW_THREE"]}, turn_seat=0)
    act(state, A.DrawThree())
    pass_round(state)
    assert len(state.hands[0]) == 3
    assert state.window == Window.END and state.holder == 1
    assert state.view(None)["discard"][-1] == "DRAW_THREE"


def test_A13_empty_draw_pile_leads_to_the_final_round(table):
    state = table(hands={0: ["red P100"]}, deck_size=0)
    act(state, A.PlayPoint("P100", "red", 0))
    pass_round(state)
    assert state.phase == Phase.FINAL  # FINAL


def test_A13_draw_three_empties_the_pile_and_the_turn_finishes(table):
    state = table(hands={0: ["DRAW_THREE"], 1: ["CRUSH"]}, deck_size=2)
    act(state, A.DrawThree())
    pass_round(state)
    assert len(state.hands[0]) == 2 and not state.deck
    assert state.window == Window.END  # the END window still happens
    pass_round(state)
    assert state.phase == Phase.FINAL


def test_A14_next_seat_plain_stop_and_reverse(table):
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


def test_A14_reverse_mode_flip(table):
    state = table(players=4, hands={2: ["REVERSE"]}, reverse_mode="flip")
    pass_round(state, times=2)
    act(state, A.Reverse())
    pass_round(state)
    assert state.direction == -1 and state.turn_seat == 3  # the player before the active one


def test_A14_two_players_reverse_as_stop_in_flip_mode(table):
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


def test_A57_thief_cannot_take_the_card_in_play_but_can_after(table):
    state = table(hands={0: ["DRAW_THREE"], 1: ["THIEF"]}, discard=[])
    act(state, A.DrawThree())
    assert state.holder == 1
    assert A.ThiefDiscard() not in state.actions(1)  # the pile is empty: card is in play
    pass_round(state)
    assert state.window == Window.END and state.holder == 1
    assert A.ThiefDiscard() in state.actions(1)
    act(state, A.ThiefDiscard())
    assert "DRAW_THREE" in hand(state, 1)


def test_A57_point_card_joins_its_display_x3_its_stack(table):
    state = table(hands={0: ["X3"]}, displays={1: ["green P500"]})
    act(state, A.Triple(1, 0))
    assert state.view(None)["displays"][1]["stacks"][0]["x3"]
    assert stack_names(state, 1) == ["green P500"]


def test_illegal_action_is_refused_and_changes_nothing(table):
    state = table(hands={0: ["red P100"]})
    with pytest.raises(IllegalAction):
        state.act(0, A.PlayPoint("P100", "red", 1))
    with pytest.raises(IllegalAction):
        state.act(1, A.Stop())  # player 1 may only pass (in advance) now
    assert hand(state, 0) == ["red P100"]
