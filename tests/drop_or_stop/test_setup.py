"""Drop or Stop: Setup and dealing (spec §4, §5 DEAL; R5-R8)."""

from __future__ import annotations

import pytest

from gamenight.engine import BadInput
from gamenight.games.drop_or_stop import DROP, STOP
from tests.drop_or_stop.helpers import arrange


def test_R5_fresh_game_draws_from_all_39_cards_shuffled(game):
    g = game(players=2)
    a, b = g.start(1), g.start(2)
    assert a.discard == []
    assert len(a.draw) == 39 - 4
    assert sorted(a.draw + a.hands[0] + a.hands[1]) == list(range(39))
    assert a.draw != b.draw


def test_R6_first_start_seat_fixed_or_seeded(game):
    assert game(first_start_seat=2).start(5).start_seat == 2
    seats = {game(players=4).start(seed).start_seat for seed in range(40)}
    assert seats == {0, 1, 2, 3}
    assert game().start(9).start_seat == game().start(9).start_seat
    with pytest.raises(BadInput, match="first_start_seat"):
        game(first_start_seat=3)


def test_R7_deal_two_each_from_start_seat_clockwise(game):
    g = game(players=3)
    # Round 1 ends at once; round 2 deals from seat 1 (R23) in order 1, 2, 0.
    state = arrange(
        g,
        [["D1", "D1"], ["D1", "D1"], ["D1", "D1"]],
        draw_next=["D2", "D2", "D3", "D3", "D4", "D4"],
    )
    for seat in (0, 1, 2):
        state.act(seat, STOP)
    assert state.round == 2
    got = [[g.card_id[c] for c in h] for h in state.hands]
    assert got == [["D4", "D4"], ["D2", "D2"], ["D3", "D3"]]


def test_R7_private_hand_event_only_to_its_seat(game):
    state = game().start(3)
    for seat in range(3):
        hands = [e for e in state.events(seat) if e.kind == "hand"]
        assert len(hands) == 1 and hands[0].data["seat"] == seat
    assert not [e for e in state.events(None) if e.kind == "hand"]


def test_R8_new_round_everyone_active_tableaux_empty(game):
    g = game(players=2)
    state = arrange(g, [["D1", "D2"], ["D1", "D3"]])
    state.act(0, DROP)
    state.act(1, STOP)
    state.act(0, STOP)
    assert state.round == 2
    assert state.active == [True, True]
    assert state.tableaux == [[], []]
