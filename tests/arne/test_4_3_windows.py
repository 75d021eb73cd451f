"""Spec 4.3, reaction windows: priority, the quiet counter, passes in advance (A15-A19)."""

from __future__ import annotations

import random

import gamenight
from gamenight.engine.driver import RandomBot, play
from gamenight.games.arne import actions as A
from gamenight.games.arne.phases import Phase, Window
from tests.arne.helpers import act


def test_A15_black_action_keeps_priority_several_in_a_row(table):
    state = table(hands={1: ["CRUSH", "CRUSH"]}, displays={0: ["red P500", "red P1000"]})
    act(state, A.PASS)
    assert state.actors[0] == 1
    act(state, A.Crush(0, 0))
    assert state.actors[0] == 1
    act(state, A.Crush(0, 1))
    assert state.actors[0] == 1
    assert state.view(None)["displays"][0]["score"] == 0


def test_A15_priority_goes_round_in_direction_d(table):
    state = table(players=4, hands={})
    state.direction = -1
    state.holder = 0
    act(state, A.PASS)
    assert state.holder == 3


def test_A16_quiet_counter_closes_after_every_player_answered(table):
    state = table(hands={1: ["STOP"], 0: ["red P50"]})
    act(state, A.PASS)  # 0 quiet: 1
    act(state, A.Stop())  # 1 plays
    act(state, A.PASS)  # 1 passes after playing: counter 1
    assert state.quiet == 1 and state.holder == 2
    act(state, A.PASS)  # 2
    assert state.holder == 0  # the active player gets a fresh chance
    act(state, A.PASS)  # 0: counter 3 = n -> closed, white step
    assert state.phase == Phase.WHITE


def test_A17_holder_with_no_black_card_is_still_asked(table):
    state = table(hands={0: ["red P50"], 1: [], 2: ["red P100"]})
    act(state, A.PASS)
    assert state.actors[0] == 1 and state.actions(1) == [A.PASS]
    act(state, A.PASS)
    assert state.actors[0] == 2 and state.actions(2) == [A.PASS]


def test_A18_black_cards_reach_the_pile_in_order(table):
    state = table(hands={1: ["STOP", "REVERSE"]})
    act(state, A.PASS)
    act(state, A.Reverse())
    act(state, A.Stop())
    assert state.view(None)["discard"][-2:] == ["REVERSE", "STOP"]


def test_A19_every_window_terminates_within_max_decisions():

    for players in (2, 5):
        game = gamenight.load("arne", players=players)
        for seed in range(3):
            state = play(game, [RandomBot(seed + p) for p in range(players)], seed)
            assert state.over and len(state.history) <= game.max_decisions


def test_A19_thief_may_take_thief_guard(table):
    state = table(hands={1: ["THIEF", "THIEF"]}, discard=["THIEF"], thief_may_take_thief=True)
    act(state, A.PASS)
    assert A.ThiefDiscard() in state.actions(1)
    act(state, A.ThiefDiscard())  # takes the thief from the pile; 2 thieves, 1 fetched
    assert A.ThiefDiscard() in state.actions(1)
    act(state, A.ThiefDiscard())  # takes the thief just played; 2 held, 2 fetched
    assert A.ThiefDiscard() not in state.actions(1)


def test_A17_pass_in_advance_is_played_as_a_normal_pass_and_cancelled_by_black(table):
    state = table(hands={0: ["red P50", "STOP"], 1: ["CRUSH"]})
    assert state.actors == (0, 1, 2) and state.actions(2) == [A.PASS]
    state.act(2, A.PASS)  # player 2 passes in advance
    assert state.actors == (0, 1)
    state.act(0, A.PASS)
    state.act(1, A.PASS)  # player 2's pass now happens by itself
    assert state.phase == Phase.WHITE  # three quiet players: the MAIN window closed (A16)
    kinds = [e.kind for e in state.events(0)][-3:]
    assert kinds == ["pass", "pass", "pass"]
    state = table(hands={0: ["red P50", "STOP"], 1: ["CRUSH"]})
    state.act(2, A.PASS)
    state.act(0, A.Stop())  # a new black card cancels it
    assert state.actors == (0, 1, 2)


def test_A15_A17_window_seats_name_the_seats_asked_in_a_window(table):
    """The engine hook `window_seats()`: the seats asked in an open window, holder first
    and less those who passed in advance; () outside windows (white step, demand, final
    round, colour choice, the end)."""
    state = table(hands={0: ["red P50", "STOP"], 1: ["CRUSH"]})
    assert state.window_seats() == (0, 1, 2)
    state.act(2, A.PASS)  # a pass in advance leaves the seats asked
    assert state.window_seats() == (0, 1)
    state.act(0, A.PASS)
    state.act(1, A.PASS)
    assert state.phase == Phase.WHITE and state.window_seats() == ()
    state.act(0, A.PlayPoint("P50", "red", 0))  # no PRE window for a point card (A11)
    assert state.window == Window.END and state.window_seats() == (1, 2, 0)
    fresh = gamenight.load("arne", players=3).start(0)
    assert fresh.phase == Phase.COLOUR and fresh.window_seats() == ()
    over = play(fresh.game, [RandomBot(1)] * 3, seed=2)
    assert over.over and over.window_seats() == ()


def test_window_seats_match_the_public_view_in_random_games():
    """`window_seats()` is () exactly when the view shows no window, and is then `actors`
    (the server reads the hook instead of the view)."""
    game = gamenight.load("arne", players=4)
    rng = random.Random(5)
    for seed in range(5):
        state = game.start(seed)
        while not state.over:
            view = state.view(None)
            seats = state.window_seats()
            assert bool(seats) == (view["window"] is not None)
            assert seats in ((), state.actors)
            seat = state.actors[0]
            state.act(seat, rng.choice(state.actions(seat)))
