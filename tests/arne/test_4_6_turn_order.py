"""Spec 4.6, STOP and REVERSE in detail (A37-A40)."""

from __future__ import annotations

from gamenight.games.arne import actions as A
from gamenight.games.arne.phases import Phase
from tests.arne.helpers import act, pass_round


def test_A38_dummy_reverse_in_last_turn_still_takes_the_dummy(dummy_table):
    state = dummy_table(hands={1: ["REVERSE"]}, deck_size=0)
    act(state, A.PASS)
    act(state, A.Reverse())
    assert state.dummy_controller == 1


def test_A37_last_stop_or_reverse_wins_and_two_reverses_flip_once(table):
    state = table(players=4, hands={1: ["REVERSE"], 2: ["REVERSE"]})
    act(state, A.PASS)
    act(state, A.Reverse())
    act(state, A.PASS)
    act(state, A.Reverse())
    pass_round(state)
    assert state.turn_seat == 2 and state.direction == -1


def test_A38_stop_in_the_last_turn_has_no_effect(table):
    state = table(hands={0: ["red P50"], 2: ["STOP"]}, deck_size=0)
    act(state, A.PASS)
    act(state, A.PASS)
    act(state, A.Stop())
    pass_round(state)
    act(state, A.PlayPoint("P50", "red", 0))
    pass_round(state)
    assert state.phase == Phase.FINAL  # final round, no turn for seat 2
    assert state.final_order == (1, 2, 0)


def test_A39_stop_follows_the_person_after_a_swap(table):
    state = table(hands={0: ["SWAP_PLACES"], 2: ["STOP"]})
    act(state, A.SwapPlaces(2))
    act(state, A.PASS)  # PRE window: seat 1
    act(state, A.Stop())  # player 2 (seat 2)
    pass_round(state)
    assert state.seat_of[2] == 0
    pass_round(state)  # END window
    assert state.turn_seat == 0 and state.active == 2


def test_A40_example_stop_then_reverse(table):
    # A B C D = seats 0..3; A's turn; C plays STOP, then B plays REVERSE.
    state = table(players=4, hands={1: ["REVERSE"], 2: ["STOP"]})
    act(state, A.PASS)
    act(state, A.PASS)  # B
    act(state, A.Stop())  # C
    act(state, A.PASS)
    act(state, A.PASS)  # D
    act(state, A.PASS)  # A
    act(state, A.Reverse())  # B
    pass_round(state)
    assert state.turn_seat == 1 and state.direction == -1  # B, then A, D, C


def test_A40_example_reverse_then_stop_and_flip_mode(table):
    state = table(players=4, hands={1: ["REVERSE"], 2: ["STOP"]})
    act(state, A.PASS)
    act(state, A.Reverse())  # B
    act(state, A.PASS)
    act(state, A.Stop())  # C
    pass_round(state)
    assert state.turn_seat == 2 and state.direction == 1
    state = table(players=4, hands={1: ["REVERSE"], 2: ["STOP"]}, reverse_mode="flip")
    act(state, A.PASS)
    act(state, A.PASS)
    act(state, A.Stop())
    act(state, A.PASS)
    act(state, A.PASS)
    act(state, A.PASS)
    act(state, A.Reverse())
    pass_round(state)
    assert state.turn_seat == 3 and state.direction == -1  # D moves next


def test_A40_active_reverse_and_two_players(table):
    state = table(players=4, hands={0: ["REVERSE"]})
    act(state, A.Reverse())
    pass_round(state)
    assert state.turn_seat == 0 and state.direction == -1
    for mode in ("flip_and_take", "flip"):
        state = table(players=2, hands={0: ["STOP", "REVERSE"]}, reverse_mode=mode)
        act(state, A.Reverse())
        pass_round(state)
        assert state.turn_seat == 0
