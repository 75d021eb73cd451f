"""Spec 4.5, black cards: legal plays and what they do (A29-A36)."""

from __future__ import annotations

import pytest

from gamenight.games.arne import actions as A
from tests.arne.helpers import act, hand, pass_round, stacks


def test_A29_thief_takes_discard_top_publicly(table):
    state = table(hands={1: ["THIEF"]}, discard=["green P1000"])
    act(state, A.PASS)
    act(state, A.ThiefDiscard())
    assert "green P1000" in hand(state, 1)
    assert state.view(None)["discard"][-1] == "THIEF"
    ev = [e for e in state.events(2) if e.kind == "black"][-1]
    assert ev.data["card"] == "green P1000"


def test_A29_thief_refused_on_a_thief_or_empty_pile(table):
    state = table(hands={1: ["THIEF"]}, discard=["THIEF"])
    act(state, A.PASS)
    assert A.ThiefDiscard() not in state.actions(1)


def test_A29_thief_steals_chameleon_stack_with_attachments(table):
    state = table(hands={1: ["THIEF"]}, displays={0: ["yellow P500+CHAMELEON+X3+CRUSH+LOCK"]})
    act(state, A.PASS)
    acts = state.actions(1)
    assert A.ThiefStack(0, 0) in acts  # a lock does not protect
    act(state, A.ThiefStack(0, 0))
    moved = stacks(state, 1)[0]
    assert moved == {
        "base": "yellow P500",
        "chameleon": True,
        "x3": True,
        "crush": True,
        "lock": True,
    }
    assert state.view(None)["displays"][1]["score"] == 1500


def test_A29_thief_own_colour_drops_the_chameleon(table):
    state = table(hands={1: ["THIEF"]}, displays={0: ["green P1000+CHAMELEON"]})
    act(state, A.PASS)
    act(state, A.ThiefStack(0, 0))
    assert stacks(state, 1)[0]["chameleon"] is False
    assert state.view(None)["discard"][-2:] == ["CHAMELEON", "THIEF"]


def test_A29_thief_not_from_own_display_and_not_plain_stacks(table):
    state = table(hands={0: ["THIEF"]}, displays={0: ["green P100+CHAMELEON"], 1: ["green P500"]})
    assert not [a for a in state.actions(0) if isinstance(a, A.ThiefStack)]


def test_A30_minus200_into_display_of_its_colour(table):
    state = table(hands={1: ["red MINUS200", "blue MINUS200"]})
    act(state, A.PASS)
    acts = state.actions(1)
    assert A.MinusTwoHundred("red", 0) in acts
    assert not [a for a in acts if isinstance(a, A.MinusTwoHundred) and a.colour == "blue"]
    act(state, A.MinusTwoHundred("red", 0))
    assert state.view(None)["displays"][0]["score"] == -200


def test_A31_chameleon_pair_out_of_turn_different_colour_only(table):
    state = table(hands={1: ["CHAMELEON", "red P1000", "green P100"]})
    act(state, A.PASS)
    acts = state.actions(1)
    assert A.Chameleon("P1000", "red", 1) in acts
    assert A.Chameleon("P1000", "red", 0) not in acts  # same colour refused
    act(state, A.Chameleon("P1000", "red", 1))
    assert stacks(state, 1)[0] == {
        "base": "red P1000",
        "chameleon": True,
        "x3": False,
        "crush": False,
        "lock": False,
    }
    assert state.scores()[1] == 1000


def test_A31_same_colour_option(table):
    state = table(hands={1: ["CHAMELEON", "green P100"]}, chameleon_same_colour_allowed=True)
    act(state, A.PASS)
    assert A.Chameleon("P100", "green", 1) in state.actions(1)


def test_A32_crush_once_per_stack_never_on_minus200(table):
    state = table(
        hands={1: ["CRUSH", "CRUSH"]},
        displays={0: ["red P500+CRUSH+LOCK", "red MINUS200", "red P100+X3"]},
    )
    act(state, A.PASS)
    crush = [a for a in state.actions(1) if isinstance(a, A.Crush)]
    assert crush == [A.Crush(0, 2)]


def test_A33_lock_only_on_crush_or_minus200_once(table):
    state = table(
        hands={1: ["LOCK"]},
        displays={0: ["red P500+CRUSH", "red MINUS200", "red P100", "red P50+CRUSH+LOCK"]},
    )
    act(state, A.PASS)
    locks = [a for a in state.actions(1) if isinstance(a, A.Lock)]
    assert locks == [A.Lock(0, 0), A.Lock(0, 1)]


def test_A34_stop_on_own_turn_gives_another_turn(table):
    state = table(hands={0: ["STOP", "red P50"]})
    act(state, A.Stop())
    act(state, A.PlayPoint("P50", "red", 0))
    pass_round(state)
    assert state.turn_seat == 0


def test_A35_reverse_by_non_active_player_takes_next_turn(table):
    state = table(players=4, hands={2: ["REVERSE"]})
    act(state, A.PASS)
    act(state, A.PASS)
    act(state, A.Reverse())
    pass_round(state)
    assert state.turn_seat == 2 and state.direction == -1


@pytest.mark.parametrize("attach", ["X3", "CRUSH", "LOCK"])
def test_A36_attachments_stay_and_move_with_the_stack(attach, table):
    spec = "yellow P200+CHAMELEON" + ("+CRUSH" if attach == "LOCK" else "") + f"+{attach}"
    state = table(hands={1: ["THIEF"]}, displays={0: [spec]})
    act(state, A.PASS)
    act(state, A.ThiefStack(0, 0))
    assert stacks(state, 1)[0][attach.lower()] is True
