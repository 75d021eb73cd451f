"""Spec 4.7, the end of the game: final round, cleanup, the winner, no reshuffle (A41-A44)."""

from __future__ import annotations

import gamenight
from gamenight.engine.driver import RandomBot, play
from gamenight.games.arne import actions as A
from tests.arne.helpers import act, to_final


def test_A41_final_round_one_black_action_each_no_stop_reverse(table):
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


def test_A41_chameleon_in_final_round_minus200_only_by_default(table):
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


def test_A42_cleanup_puts_hands_face_up_on_the_pile(table):
    state = table(hands={1: ["STOP"], 2: ["green P50"]}, deck_size=0)
    to_final(state)
    while not state.over:
        act(state, A.PASS)
    assert state.view(None)["discard"][-2:] == ["STOP", "green P50"]
    cleanup = next(e for e in state.events(0) if e.kind == "cleanup")
    assert cleanup.data["hands"][2] == ["green P50"]


def test_A43_normal_highest_wins_losing_lowest_ties_share(table):
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


def test_A43_estimate_ranks_the_table_so_far(table):
    state = table(displays={0: ["red P100"], 1: ["green P500"]})
    payoff = state.estimate()
    assert payoff == (0.5, 1.0, 0.0)
