"""White cards (A20-A28) and black cards (A29-A36)."""

import pytest

from gamenight.games.arne import actions as A
from tests.arne.helpers import act, hand, pass_round, stack_names, table


def stacks(state, j):
    return state.view(None)["displays"][j]["stacks"]


# -- white cards ------------------------------------------------------------------------
def test_A20_x3_without_target_is_not_playable():
    state = table(hands={0: ["X3"]})
    assert state.actions(0) == [A.PASS]
    pass_round(state)
    assert state.turn_seat == 1  # no white card this turn
    events = [e.kind for e in state.events(1)]
    assert "no_white" in events


def test_A21_point_cards_normal_game():
    state = table(hands={0: ["red P100", "green P200", "red X2"]})
    acts = set(state.actions(0))
    assert A.PlayPoint("P100", "red", 0) in acts and A.PlayPoint("P100", "red", -1) in acts
    assert A.PlayPoint("X2", "red", 0) in acts
    assert A.PlayPoint("P200", "green", 1) not in acts  # not own colour
    assert A.PlayPoint("P200", "green", -1) in acts  # any point card may be discarded


def test_A21_point_cards_losing_game():
    state = table(hands={0: ["red P100", "green P200"]}, mode="losing")
    acts = set(state.actions(0))
    assert A.PlayPoint("P200", "green", 1) in acts
    assert A.PlayPoint("P100", "red", 0) not in acts
    assert A.PlayPoint("P100", "red", -1) in acts


def test_A21_unowned_colour_can_only_be_discarded():
    state = table(hands={0: ["blue P100"]}, mode="losing")  # blue has no display (3 players)
    assert [a for a in state.actions(0) if isinstance(a, A.PlayPoint)] == [
        A.PlayPoint("P100", "blue", -1)
    ]


def test_A22_x3_targets():
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


def test_A23_take_random():
    state = table(hands={0: ["TAKE_RANDOM"], 1: ["green P50"]})
    act(state, A.TakeRandom(1))
    pass_round(state)
    assert hand(state, 0) == ["green P50"] and hand(state, 1) == []
    seen = [e for e in state.events(1) if e.kind == "card_taken"]
    assert seen and seen[-1].data["cards"] == ["green P50"]  # the victim knows
    assert not [e for e in state.events(2) if e.kind == "card_taken"]  # nobody else
    assert [e for e in state.events(2) if e.kind == "took_random"][-1].data["moved"]


def test_A23_take_random_from_empty_hand():
    state = table(hands={0: ["TAKE_RANDOM"]})
    act(state, A.TakeRandom(2))
    pass_round(state)
    assert hand(state, 0) == [] and state.window == 2


def test_A24_demand_points_normal_target_chooses():
    state = table(hands={0: ["DEMAND_POINTS"], 1: ["red P50", "red P1000", "red X2", "CRUSH"]})
    act(state, A.DemandPoints(1, "red", 0))
    pass_round(state)
    assert state.phase == 3 and state.actors[0] == 1  # GIVE: the target decides
    assert set(state.actions(1)) == {
        A.Give("P50", "red"),
        A.Give("P1000", "red"),
        A.Give("X2", "red"),
    }
    act(state, A.Give("P50", "red"))
    act(state, A.Give("X2", "red"))
    assert stack_names(state, 0) == ["red P50", "red X2"]
    assert hand(state, 1) == ["red P1000", "CRUSH"]
    assert state.window == 2


def test_A24_demand_points_fewer_than_two_and_none():
    state = table(hands={0: ["DEMAND_POINTS"], 1: ["red P100", "green P100"]})
    act(state, A.DemandPoints(1, "red", 0))
    pass_round(state)
    assert stack_names(state, 0) == ["red P100"] and state.window == 2
    state = table(hands={0: ["DEMAND_POINTS"], 1: ["green P100"]})
    act(state, A.DemandPoints(1, "red", 0))
    pass_round(state)
    assert stack_names(state, 0) == [] and hand(state, 1) == ["green P100"]


def test_A24_demand_points_losing_game_colour_and_destination():
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


def test_A24_random_selection_option():
    state = table(
        hands={0: ["DEMAND_POINTS"], 1: ["red P50", "red P100", "red P200"]},
        demand_selection="random",
    )
    act(state, A.DemandPoints(1, "red", 0))
    pass_round(state)
    assert len(stack_names(state, 0)) == 2 and state.window == 2


def test_A25_demand_black_secret_choice():
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


def test_A25_target_may_dump_black_cards_in_the_pre_window():
    state = table(hands={0: ["DEMAND_BLACK"], 1: ["CRUSH"]}, displays={0: ["red P100"]})
    act(state, A.DemandBlack(1))
    act(state, A.Crush(0, 0))
    pass_round(state)
    assert hand(state, 0) == [] and state.window == 2


def test_A26_draw_three_fewer_left():
    state = table(hands={0: ["DRAW_THREE"]}, deck_size=1)
    act(state, A.DrawThree())
    pass_round(state)
    assert len(state.hands[0]) == 1


def test_A27_swap_with_next_player_gives_two_turns_in_a_row():
    state = table(hands={0: ["SWAP_PLACES"]}, displays={1: ["green P1000"]})
    act(state, A.SwapPlaces(1))
    pass_round(state)
    pass_round(state)
    assert state.turn_seat == 1 and state.active == 0  # player 0 again
    assert stack_names(state, 1) == ["green P1000"]  # displays stay with the seats
    assert state.scores()[0] == 1000
    assert state.view(0)["seats"][1]["colour"] == "green"


def test_A27_own_colour_follows_the_new_seat():
    state = table(hands={0: ["SWAP_PLACES", "CHAMELEON", "green P100"], 1: []})
    act(state, A.SwapPlaces(1))
    pass_round(state)
    assert A.Chameleon("P100", "green", 1) not in state.actions(state.actors[0])


def test_A28_pass_hands_in_direction_no_window_card_not_passed():
    state = table(hands={0: ["PASS_HANDS", "red P50"], 1: ["CRUSH"], 2: ["STOP"]})
    act(state, A.PassHands())
    assert state.window == 2  # no window before passing
    assert hand(state, 1) == ["red P50"] and hand(state, 2) == ["CRUSH"]
    assert hand(state, 0) == ["STOP"]
    assert state.view(None)["discard"][-1] == "PASS_HANDS"


def test_A28_pending_reverse_does_not_change_passing_direction():
    state = table(hands={0: ["PASS_HANDS", "REVERSE", "red P50"], 1: ["CRUSH"]})
    act(state, A.Reverse())
    act(state, A.PassHands())
    assert hand(state, 1) == ["red P50"]  # still clockwise
    state = table(hands={0: ["PASS_HANDS", "red P50"], 2: ["CRUSH"]})
    state.direction = -1
    act(state, A.PassHands())
    assert hand(state, 2) == ["red P50"] and hand(state, 0) == []


def test_A28_two_players_exchange_hands():
    state = table(players=2, hands={0: ["PASS_HANDS", "c5 P50"], 1: ["CRUSH"]})
    act(state, A.PassHands())
    assert hand(state, 0) == ["CRUSH"] and hand(state, 1) == ["c5 P50"]


# -- black cards ------------------------------------------------------------------------
def test_A29_thief_takes_discard_top_publicly():
    state = table(hands={1: ["THIEF"]}, discard=["green P1000"])
    act(state, A.PASS)
    act(state, A.ThiefDiscard())
    assert "green P1000" in hand(state, 1)
    assert state.view(None)["discard"][-1] == "THIEF"
    ev = [e for e in state.events(2) if e.kind == "black"][-1]
    assert ev.data["card"] == "green P1000"


def test_A29_thief_refused_on_a_thief_or_empty_pile():
    state = table(hands={1: ["THIEF"]}, discard=["THIEF"])
    act(state, A.PASS)
    assert A.ThiefDiscard() not in state.actions(1)


def test_A29_thief_steals_chameleon_stack_with_attachments():
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


def test_A29_thief_own_colour_drops_the_chameleon():
    state = table(hands={1: ["THIEF"]}, displays={0: ["green P1000+CHAMELEON"]})
    act(state, A.PASS)
    act(state, A.ThiefStack(0, 0))
    assert stacks(state, 1)[0]["chameleon"] is False
    assert state.view(None)["discard"][-2:] == ["CHAMELEON", "THIEF"]


def test_A29_thief_not_from_own_display_and_not_plain_stacks():
    state = table(hands={0: ["THIEF"]}, displays={0: ["green P100+CHAMELEON"], 1: ["green P500"]})
    assert not [a for a in state.actions(0) if isinstance(a, A.ThiefStack)]


def test_A30_minus200_into_display_of_its_colour():
    state = table(hands={1: ["red MINUS200", "blue MINUS200"]})
    act(state, A.PASS)
    acts = state.actions(1)
    assert A.MinusTwoHundred("red", 0) in acts
    assert not [a for a in acts if isinstance(a, A.MinusTwoHundred) and a.colour == "blue"]
    act(state, A.MinusTwoHundred("red", 0))
    assert state.view(None)["displays"][0]["score"] == -200


def test_A31_chameleon_pair_out_of_turn_different_colour_only():
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


def test_A31_same_colour_option():
    state = table(hands={1: ["CHAMELEON", "green P100"]}, chameleon_same_colour_allowed=True)
    act(state, A.PASS)
    assert A.Chameleon("P100", "green", 1) in state.actions(1)


def test_A32_crush_once_per_stack_never_on_minus200():
    state = table(
        hands={1: ["CRUSH", "CRUSH"]},
        displays={0: ["red P500+CRUSH+LOCK", "red MINUS200", "red P100+X3"]},
    )
    act(state, A.PASS)
    crush = [a for a in state.actions(1) if isinstance(a, A.Crush)]
    assert crush == [A.Crush(0, 2)]


def test_A33_lock_only_on_crush_or_minus200_once():
    state = table(
        hands={1: ["LOCK"]},
        displays={0: ["red P500+CRUSH", "red MINUS200", "red P100", "red P50+CRUSH+LOCK"]},
    )
    act(state, A.PASS)
    locks = [a for a in state.actions(1) if isinstance(a, A.Lock)]
    assert locks == [A.Lock(0, 0), A.Lock(0, 1)]


def test_A34_stop_on_own_turn_gives_another_turn():
    state = table(hands={0: ["STOP", "red P50"]})
    act(state, A.Stop())
    act(state, A.PlayPoint("P50", "red", 0))
    pass_round(state)
    assert state.turn_seat == 0


def test_A35_reverse_by_non_active_player_takes_next_turn():
    state = table(players=4, hands={2: ["REVERSE"]})
    act(state, A.PASS)
    act(state, A.PASS)
    act(state, A.Reverse())
    pass_round(state)
    assert state.turn_seat == 2 and state.direction == -1


@pytest.mark.parametrize("attach", ["X3", "CRUSH", "LOCK"])
def test_A36_attachments_stay_and_move_with_the_stack(attach):
    spec = "yellow P200+CHAMELEON" + ("+CRUSH" if attach == "LOCK" else "") + f"+{attach}"
    state = table(hands={1: ["THIEF"]}, displays={0: [spec]})
    act(state, A.PASS)
    act(state, A.ThiefStack(0, 0))
    assert stacks(state, 1)[0][attach.lower()] is True
