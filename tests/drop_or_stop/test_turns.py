"""Drop or Stop: Turns (spec §5 TURN; R9-R15)."""

from __future__ import annotations

import pytest

from gamenight.engine import IllegalAction
from gamenight.games.drop_or_stop import DROP, STOP
from tests.drop_or_stop.helpers import arrange


def test_R9_passed_players_are_skipped_and_last_player_goes_again(game):
    g = game(players=3)
    state = arrange(g, [["D1", "D1"]] * 3, start=1)
    assert state.actors == (1,)
    state.act(1, STOP)
    assert state.actors == (2,)
    state.act(2, STOP)
    assert state.actors == (0,)
    state.act(0, DROP)
    assert state.actors == (0,)  # the only active player takes turns in a row


def test_R10_legal_set_is_drop_and_stop(game):
    state = game().start(4)
    seat = state.actors[0]
    assert state.actions(seat) == [DROP, STOP]
    for other in range(3):
        if other != seat:
            assert state.actions(other) == []


def test_R11_drop_draws_exactly_one_card_face_up(game):
    g = game(players=2)
    state = arrange(g, [["D1", "D1"], ["D1", "D1"]], draw_next=["D4", "D5"])
    events = state.act(0, DROP)
    assert [g.card_id[c] for c in state.tableaux[0]] == ["D4"]
    assert [(e.kind, e.data) for e in events] == [("dropped", {"seat": 0, "card": "D4"})]
    assert events[0].to is None
    assert state.actors == (1,)


def test_R12_stop_on_first_turn_keeps_hand_for_scoring(game):
    g = game(players=2)
    state = arrange(g, [["D5", "D4"], ["D1", "D1"]], draw_next=["D2"])
    state.act(0, STOP)
    state.act(1, DROP)
    state.act(1, STOP)
    assert state.results[0]["totals"] == [9, 4]
    assert state.results[0]["winners"] == [0]


def test_R12a_overflow_not_announced_and_drop_still_allowed(game):
    g = game(players=2)
    state = arrange(g, [["D5", "D5"], ["D1", "D1"]], draw_next=["D5", "D1"])
    events = state.act(0, DROP)  # seat 0 is now at 15
    assert state.total(0) is None
    assert [e.kind for e in events] == ["dropped"]
    state.act(1, DROP)
    assert state.actions(0) == [DROP, STOP]
    assert state.view(1)["seats"][0]["active"] is True


def test_R12a_flag_off_forces_a_stop_that_looks_voluntary(game):
    g = game(players=2, allow_drop_when_overflowed=False)
    state = arrange(g, [["D5", "D5"], ["D1", "D1"]], draw_next=["D5", "D1"])
    state.act(0, DROP)
    state.act(1, DROP)
    assert state.actions(0) == [STOP]
    assert state.actors == (0,)  # asked like any turn, no automatic move
    with pytest.raises(IllegalAction, match=r"^you can't drop: your cards are already over"):
        state.act(0, DROP)  # why, in words, to that seat only (issue 45, item 5)
    events = state.act(0, STOP)
    assert [(e.kind, e.data) for e in events] == [("stopped", {"seat": 0})]


def test_R13_reshuffle_only_when_drawing_from_an_empty_pile(game):
    g = game(players=2)
    state = arrange(
        g,
        [["D1", "D1"], ["D1", "D1"]],
        draw_next=["D2"],
        discard=["D3", "D3", "D4"],
        rest="discard",
    )
    discard_before = sorted(state.discard)
    state.act(0, DROP)  # takes the last draw card, no reshuffle yet
    assert not [e for e in state.events(None) if e.kind == "reshuffled"]
    assert state.draw == []
    events = state.act(1, DROP)
    assert events[0].kind == "reshuffled"
    assert sorted(state.draw + state.tableaux[1]) == discard_before
    assert state.discard == []
    assert [g.card_id[c] for c in state.hands[0]] == ["D1", "D1"]  # hands never reshuffled


def test_R14_both_piles_empty_only_stop(game):
    g = game(players=2)
    state = arrange(g, [["D1", "D1"], ["D1", "D1"]], draw_next=["D2"], rest="discard")
    state.discard = []
    state.draw = state.draw[-1:]
    state.act(0, DROP)
    assert state.actions(1) == [STOP]
    with pytest.raises(IllegalAction, match=r"^you can't drop: no card is left to draw, so"):
        state.act(1, DROP)  # the reason in player words (issue 45, item 5)


def test_R15_round_ends_when_nobody_is_active(game):
    g = game(players=2)
    state = arrange(g, [["D1", "D1"], ["D1", "D1"]])
    state.act(0, STOP)
    assert state.round == 1
    state.act(1, STOP)
    assert state.round == 2 and state.results[-1]["round"] == 1


def test_R15_round_length_is_bounded(game):
    g = game(players=2)
    state = g.start(11)
    turns = 0
    while state.round == 1:
        state.act(state.actors[0], DROP if state.actions(state.actors[0])[0] == DROP else STOP)
        turns += 1
    assert turns <= 39 - 2
