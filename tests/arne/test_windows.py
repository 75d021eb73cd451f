"""Reaction windows (A15-A19), STOP/REVERSE in detail (A37-A40)."""

from gamenight.games.arne import actions as A
from tests.arne.helpers import act, pass_round, table


def test_A15_black_action_keeps_priority_several_in_a_row():
    state = table(hands={1: ["CRUSH", "CRUSH"]}, displays={0: ["red P500", "red P1000"]})
    act(state, A.PASS)
    assert state.actors[0] == 1
    act(state, A.Crush(0, 0))
    assert state.actors[0] == 1
    act(state, A.Crush(0, 1))
    assert state.actors[0] == 1
    assert state.view(None)["displays"][0]["score"] == 0


def test_A15_priority_goes_round_in_direction_d():
    state = table(players=4, hands={})
    state.direction = -1
    state.holder = 0
    act(state, A.PASS)
    assert state.holder == 3


def test_A16_quiet_counter_closes_after_every_player_answered():
    state = table(hands={1: ["STOP"], 0: ["red P50"]})
    act(state, A.PASS)  # 0 quiet: 1
    act(state, A.Stop())  # 1 plays
    act(state, A.PASS)  # 1 passes after playing: counter 1
    assert state.quiet == 1 and state.holder == 2
    act(state, A.PASS)  # 2
    assert state.holder == 0  # the active player gets a fresh chance
    act(state, A.PASS)  # 0: counter 3 = n -> closed, white step
    assert state.phase == 2


def test_A17_holder_with_no_black_card_is_still_asked():
    state = table(hands={0: ["red P50"], 1: [], 2: ["red P100"]})
    act(state, A.PASS)
    assert state.actors[0] == 1 and state.actions(1) == [A.PASS]
    act(state, A.PASS)
    assert state.actors[0] == 2 and state.actions(2) == [A.PASS]


def test_A18_black_cards_reach_the_pile_in_order():
    state = table(hands={1: ["STOP", "REVERSE"]})
    act(state, A.PASS)
    act(state, A.Reverse())
    act(state, A.Stop())
    assert state.view(None)["discard"][-2:] == ["REVERSE", "STOP"]


def test_A19_every_window_terminates_within_max_decisions():
    import gamenight
    from gamenight.engine.driver import RandomBot, play

    for players in (2, 5):
        game = gamenight.load("arne", players=players)
        for seed in range(3):
            state = play(game, [RandomBot(seed + p) for p in range(players)], seed)
            assert state.over and len(state.history) <= game.max_decisions


def test_A19_thief_may_take_thief_guard():
    state = table(hands={1: ["THIEF", "THIEF"]}, discard=["THIEF"], thief_may_take_thief=True)
    act(state, A.PASS)
    assert A.ThiefDiscard() in state.actions(1)
    act(state, A.ThiefDiscard())  # takes the thief from the pile; 2 thieves, 1 fetched
    assert A.ThiefDiscard() in state.actions(1)
    act(state, A.ThiefDiscard())  # takes the thief just played; 2 held, 2 fetched
    assert A.ThiefDiscard() not in state.actions(1)


# -- 4.6 turn-order cards ---------------------------------------------------------------
def test_A37_last_stop_or_reverse_wins_and_two_reverses_flip_once():
    state = table(players=4, hands={1: ["REVERSE"], 2: ["REVERSE"]})
    act(state, A.PASS)
    act(state, A.Reverse())
    act(state, A.PASS)
    act(state, A.Reverse())
    pass_round(state)
    assert state.turn_seat == 2 and state.direction == -1


def test_A38_stop_in_the_last_turn_has_no_effect():
    state = table(hands={0: ["red P50"], 2: ["STOP"]}, deck_size=0)
    act(state, A.PASS)
    act(state, A.PASS)
    act(state, A.Stop())
    pass_round(state)
    act(state, A.PlayPoint("P50", "red", 0))
    pass_round(state)
    assert state.phase == 4  # final round, no turn for seat 2
    assert state.final_order == (1, 2, 0)


def test_A39_stop_follows_the_person_after_a_swap():
    state = table(hands={0: ["SWAP_PLACES"], 2: ["STOP"]})
    act(state, A.SwapPlaces(2))
    act(state, A.PASS)  # PRE window: seat 1
    act(state, A.Stop())  # player 2 (seat 2)
    pass_round(state)
    assert state.seat_of[2] == 0
    pass_round(state)  # END window
    assert state.turn_seat == 0 and state.active == 2


def test_A40_example_stop_then_reverse():
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


def test_A40_example_reverse_then_stop_and_flip_mode():
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


def test_A40_active_reverse_and_two_players():
    state = table(players=4, hands={0: ["REVERSE"]})
    act(state, A.Reverse())
    pass_round(state)
    assert state.turn_seat == 0 and state.direction == -1
    for mode in ("flip_and_take", "flip"):
        state = table(players=2, hands={0: ["STOP", "REVERSE"]}, reverse_mode=mode)
        act(state, A.Reverse())
        pass_round(state)
        assert state.turn_seat == 0


def test_A17_pass_in_advance_is_played_as_a_normal_pass_and_cancelled_by_black():
    state = table(hands={0: ["red P50", "STOP"], 1: ["CRUSH"]})
    assert state.actors == (0, 1, 2) and state.actions(2) == [A.PASS]
    state.act(2, A.PASS)  # player 2 passes in advance
    assert state.actors == (0, 1)
    state.act(0, A.PASS)
    state.act(1, A.PASS)  # player 2's pass now happens by itself
    assert state.phase == 2  # three quiet players: the MAIN window closed (A16)
    kinds = [e.kind for e in state.events(0)][-3:]
    assert kinds == ["pass", "pass", "pass"]
    state = table(hands={0: ["red P50", "STOP"], 1: ["CRUSH"]})
    state.act(2, A.PASS)
    state.act(0, A.Stop())  # a new black card cancels it
    assert state.actors == (0, 1, 2)
