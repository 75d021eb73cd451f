"""Drop or Stop: End of round and end of game (spec §5 CHECK_END, CLEANUP; R21-R24)."""

from __future__ import annotations

from gamenight.games.drop_or_stop import DROP, STOP
from tests.drop_or_stop.helpers import arrange


def test_R21_game_ends_at_three_wins_shared(game):
    g = game(players=2)
    state = arrange(g, [["D5", "D5"], ["D5", "D5"]])
    state.wins = [2, 2]
    state.act(0, STOP)
    state.act(1, STOP)
    assert state.over
    assert state.outcome().winners == (0, 1)
    assert state.view(None)["winners"] == [0, 1]


def test_R22_round_cards_to_discard_draw_pile_keeps_order(game):
    g = game(players=2)
    state = arrange(g, [["D5", "D5"], ["D4", "D4"]], draw_next=["D1"])
    state.act(0, DROP)
    state.act(1, STOP)
    draw_before = list(state.draw)
    state.act(0, STOP)
    assert sorted(g.card_id[c] for c in state.discard) == ["D1", "D4", "D4", "D5", "D5"]
    dealt = 4
    assert state.draw == draw_before[: len(draw_before) - dealt]


def test_R23_start_card_moves_left(game):
    g = game(players=3)
    state = arrange(g, [["D1", "D1"]] * 3, start=2)
    for seat in (2, 0, 1):
        state.act(seat, STOP)
    assert state.start_seat == 0 and state.actors == (0,)


def test_R24_next_round_is_dealt(game):
    g = game(players=2)
    state = arrange(g, [["D1", "D1"], ["D1", "D1"]])
    state.act(0, STOP)
    state.act(1, STOP)
    assert state.round == 2
    assert [len(h) for h in state.hands] == [2, 2]
    assert sum(1 for e in state.events(None) if e.kind == "dealt") == 2
