"""Spec 4.4, white cards: legal declarations and what they do (A20-A28)."""

from __future__ import annotations

from gamenight.games.arne import actions as A
from gamenight.games.arne.phases import Phase, Window
from tests.arne.helpers import act, hand, pass_round, stack_names


def test_A20_x3_without_target_is_not_playable(table):
    state = table(hands={0: ["X3"]})
    assert state.actions(0) == [A.PASS]
    pass_round(state)
    assert state.turn_seat == 1  # no white card this turn
    events = [e.kind for e in state.events(1)]
    assert "no_white" in events


def test_A21_point_cards_normal_game(table):
    state = table(hands={0: ["red P100", "green P200", "red X2"]})
    acts = set(state.actions(0))
    assert A.PlayPoint("P100", "red", 0) in acts and A.PlayPoint("P100", "red", -1) in acts
    assert A.PlayPoint("X2", "red", 0) in acts
    assert A.PlayPoint("P200", "green", 1) not in acts  # not own colour
    assert A.PlayPoint("P200", "green", -1) in acts  # any point card may be discarded


def test_A21_point_cards_losing_game(table):
    state = table(hands={0: ["red P100", "green P200"]}, mode="losing")
    acts = set(state.actions(0))
    assert A.PlayPoint("P200", "green", 1) in acts
    assert A.PlayPoint("P100", "red", 0) not in acts
    assert A.PlayPoint("P100", "red", -1) in acts


def test_A21_unowned_colour_can_only_be_discarded(table):
    state = table(hands={0: ["blue P100"]}, mode="losing")  # blue has no display (3 players)
    assert [a for a in state.actions(0) if isinstance(a, A.PlayPoint)] == [
        A.PlayPoint("P100", "blue", -1)
    ]


def test_A22_x3_targets(table):
    state = table(
        hands={0: ["X3"]},
        displays={
            1: ["green P500+CRUSH+LOCK", "green MINUS200", "green P100+X3", "red P50+CHAMELEON"]
        },
    )
    acts = set(state.actions(0))
    assert {A.Triple(1, 0), A.Triple(1, 1), A.Triple(1, 3)} <= acts
    assert A.Triple(1, 2) not in acts  # never on another X3
    act(state, A.Triple(1, 1))
    assert state.view(None)["displays"][1]["score"] == 500 - 600 + 300 + 50


def test_A23_take_random(table):
    state = table(hands={0: ["TAKE_RANDOM"], 1: ["green P50"]})
    act(state, A.TakeRandom(1))
    pass_round(state)
    assert hand(state, 0) == ["green P50"] and hand(state, 1) == []
    seen = [e for e in state.events(1) if e.kind == "card_taken"]
    assert seen and seen[-1].data["cards"] == ["green P50"]  # the victim knows
    assert not [e for e in state.events(2) if e.kind == "card_taken"]  # nobody else
    assert [e for e in state.events(2) if e.kind == "took_random"][-1].data["moved"]


def test_A23_take_random_from_empty_hand(table):
    state = table(hands={0: ["TAKE_RANDOM"]})
    act(state, A.TakeRandom(2))
    pass_round(state)
    assert hand(state, 0) == [] and state.window == Window.END


def test_A24_demand_points_normal_target_chooses(table):
    state = table(hands={0: ["DEMAND_POINTS"], 1: ["red P50", "red P1000", "red X2", "CRUSH"]})
    act(state, A.DemandPoints(1, "red", 0))
    pass_round(state)
    assert state.phase == Phase.GIVE and state.actors[0] == 1  # GIVE: the target decides
    assert set(state.actions(1)) == {
        A.Give("P50", "red"),
        A.Give("P1000", "red"),
        A.Give("X2", "red"),
    }
    act(state, A.Give("P50", "red"))
    act(state, A.Give("X2", "red"))
    assert stack_names(state, 0) == ["red P50", "red X2"]
    assert hand(state, 1) == ["red P1000", "CRUSH"]
    assert state.window == Window.END


def test_A24_demand_points_fewer_than_two_and_none(table):
    state = table(hands={0: ["DEMAND_POINTS"], 1: ["red P100", "green P100"]})
    act(state, A.DemandPoints(1, "red", 0))
    pass_round(state)
    assert stack_names(state, 0) == ["red P100"] and state.window == Window.END
    state = table(hands={0: ["DEMAND_POINTS"], 1: ["green P100"]})
    act(state, A.DemandPoints(1, "red", 0))
    pass_round(state)
    assert stack_names(state, 0) == [] and hand(state, 1) == ["green P100"]


def test_A24_demand_points_losing_game_colour_and_destination(table):
    state = table(hands={0: ["DEMAND_POINTS"], 1: ["green P500", "green P50"]}, mode="losing")
    acts = set(state.actions(0))
    assert A.DemandPoints(1, "green", 1) in acts  # the target's own colour is allowed
    assert A.DemandPoints(1, "red", 0) not in acts  # never the demander's own colour
    assert A.DemandPoints(2, "yellow", 2) in acts
    act(state, A.DemandPoints(1, "green", 1))
    pass_round(state)
    # two fitting cards: the target still decides, so decisions never depend on the hand
    assert state.actors[0] == 1
    act(state, A.Give("P500", "green"))
    assert state.actions(1) == [A.Give("P50", "green")]
    act(state, A.Give("P50", "green"))
    assert sorted(stack_names(state, 1)) == ["green P50", "green P500"]


def test_A24_random_selection_option(table):
    state = table(
        hands={0: ["DEMAND_POINTS"], 1: ["red P50", "red P100", "red P200"]},
        demand_selection="random",
    )
    act(state, A.DemandPoints(1, "red", 0))
    pass_round(state)
    assert len(stack_names(state, 0)) == 2 and state.window == Window.END


def test_A25_demand_black_secret_choice(table):
    state = table(hands={0: ["DEMAND_BLACK"], 1: ["STOP", "CRUSH", "green MINUS200", "red P50"]})
    act(state, A.DemandBlack(1))
    pass_round(state)
    assert state.actors[0] == 1
    assert set(state.actions(1)) == {
        A.Give("STOP", ""),
        A.Give("CRUSH", ""),
        A.Give("MINUS200", "green"),
    }  # -200 counts as black
    act(state, A.Give("STOP", ""))
    act(state, A.Give("MINUS200", "green"))
    assert sorted(hand(state, 0)) == ["STOP", "green MINUS200"]
    public = [e for e in state.events(2) if e.kind in ("demand", "gave_black", "gave_card")]
    assert [e.kind for e in public] == ["demand", "gave_black", "gave_black"]
    assert public[0].data["count"] == 2
    assert [e for e in state.events(0) if e.kind == "gave_card"]


def test_A25_target_may_dump_black_cards_in_the_pre_window(table):
    state = table(hands={0: ["DEMAND_BLACK"], 1: ["CRUSH"]}, displays={0: ["red P100"]})
    act(state, A.DemandBlack(1))
    act(state, A.Crush(0, 0))
    pass_round(state)
    assert hand(state, 0) == [] and state.window == Window.END


def test_A26_draw_three_fewer_left(table):
    state = table(hands={0: ["DRAW_THREE"]}, deck_size=1)
    act(state, A.DrawThree())
    pass_round(state)
    assert len(state.hands[0]) == 1


def test_A27_swap_with_next_player_gives_two_turns_in_a_row(table):
    state = table(hands={0: ["SWAP_PLACES"]}, displays={1: ["green P1000"]})
    act(state, A.SwapPlaces(1))
    pass_round(state)
    pass_round(state)
    assert state.turn_seat == 1 and state.active == 0  # player 0 again
    assert stack_names(state, 1) == ["green P1000"]  # displays stay with the seats
    assert state.scores()[0] == 1000
    assert state.view(0)["seats"][1]["colour"] == "green"


def test_A27_own_colour_follows_the_new_seat(table):
    state = table(hands={0: ["SWAP_PLACES", "CHAMELEON", "green P100"], 1: []})
    act(state, A.SwapPlaces(1))
    pass_round(state)
    assert A.Chameleon("P100", "green", 1) not in state.actions(state.actors[0])


def test_A28_pass_hands_in_direction_no_window_card_not_passed(table):
    state = table(hands={0: ["PASS_HANDS", "red P50"], 1: ["CRUSH"], 2: ["STOP"]})
    act(state, A.PassHands())
    assert state.window == Window.END  # no window before passing
    assert hand(state, 1) == ["red P50"] and hand(state, 2) == ["CRUSH"]
    assert hand(state, 0) == ["STOP"]
    assert state.view(None)["discard"][-1] == "PASS_HANDS"


def test_A28_pending_reverse_does_not_change_passing_direction(table):
    state = table(hands={0: ["PASS_HANDS", "REVERSE", "red P50"], 1: ["CRUSH"]})
    act(state, A.Reverse())
    act(state, A.PassHands())
    assert hand(state, 1) == ["red P50"]  # still clockwise
    state = table(hands={0: ["PASS_HANDS", "red P50"], 2: ["CRUSH"]})
    state.direction = -1
    act(state, A.PassHands())
    assert hand(state, 2) == ["red P50"] and hand(state, 0) == []


def test_A28_two_players_exchange_hands(table):
    state = table(players=2, hands={0: ["PASS_HANDS", "c5 P50"], 1: ["CRUSH"]})
    act(state, A.PassHands())
    assert hand(state, 0) == ["CRUSH"] and hand(state, 1) == ["c5 P50"]
