"""Drop or Stop: hidden information and the public record (spec §6; R25-R34).

More invariants over random games are in test_invariants.py.
"""

from __future__ import annotations

import pytest

from gamenight.engine import IllegalAction
from gamenight.games.drop_or_stop import DROP, STOP
from gamenight.games.drop_or_stop.scoring import terminal_reward
from tests.drop_or_stop.helpers import all_cards, arrange


def test_R25_view_shows_own_hand_only(game):
    state = game().start(8)
    for seat in range(3):
        view = state.view(seat)
        assert view["hand"] == [state.game.card_id[c] for c in state.hands[seat]]
        assert all("hand" not in s for s in view["seats"])
        assert all(s["hand_size"] == 2 for s in view["seats"])
    assert state.view(None)["hand"] is None


def test_R26_cards_conserved_through_a_game(game):
    g = game(players=4)
    state = g.start(2)
    while not state.over:
        assert all_cards(state) == list(range(39))
        seat = state.actors[0]
        state.act(
            seat, DROP if (state.total(seat) or 99) < 8 and DROP in state.actions(seat) else STOP
        )
    assert all_cards(state) == list(range(39))


def test_R27_same_seed_same_game(game):
    g = game()
    a, b = g.start(21), g.start(21)
    assert a.draw == b.draw and a.hands == b.hands and a.start_seat == b.start_seat


def test_R28_suggested_rewards():
    assert terminal_reward([0, 2], 3) == [1.0, 0.0, 1.0]
    assert terminal_reward([0, 2], 3, constant_sum=True) == [0.5, 0.0, 0.5]


def test_R29_reveal_record_stays_public(game):
    g = game(players=2)
    state = arrange(g, [["D2", "D3"], ["D4", "D4"]])
    state.act(0, STOP)
    state.act(1, STOP)
    for seat in (0, 1, None):
        record = state.view(seat)["rounds"]
        assert record[0]["hands"] == [["D2", "D3"], ["D4", "D4"]]
        assert record[0]["totals"] == [5, 8] and record[0]["winners"] == [1]


def test_R30_reshuffle_is_public_with_its_multiset(game):
    g = game(players=2)
    state = arrange(g, [["D1", "D1"], ["D1", "D1"]], discard=["D3", "D3", "FLEX"], rest="discard")
    state.draw = []
    state.discard = state.discard[:3]
    events = state.act(0, DROP)
    assert events[0].kind == "reshuffled" and events[0].to is None
    assert events[0].data["cards"] == {"D3": 2, "FLEX": 1}


def test_R31_own_total_visible_even_after_stopping(game):
    g = game(players=2)
    state = arrange(g, [["FLEX", "D5"], ["D1", "D1"]])
    state.act(0, STOP)
    assert state.view(0)["hand"] == ["FLEX", "D5"]
    assert state.view(0)["own_total"] == 10
    assert state.view(1)["own_total"] == 2


def test_R32_public_display_and_unseen_multiset(game):
    g = game(players=2)
    state = arrange(
        g, [["D1", "D1"], ["D2", "D2"]], tableaux=[["D5", "D5"], []], draw_next=["FLEX"]
    )
    state.act(0, DROP)
    seat0 = state.view(1)["seats"][0]
    assert seat0["tableau"] == ["D5", "D5", "FLEX"]
    assert seat0["visible_min"] == 11 and seat0["flex_count"] == 1
    assert seat0["certainly_over"] is True  # 11 + smallest hand 2 > 11
    view = state.view(1)
    assert "draw" not in view and "draw_pile" not in view
    unseen = view["unseen"]
    assert sum(unseen.values()) == 39 - 3 - 2  # deck - tableaux - own hand
    assert unseen["D5"] == 5 and unseen["D2"] == 5 and unseen["FLEX"] == 3


def test_R33_no_undo_a_stop_is_final(game):
    g = game(players=2)
    state = arrange(g, [["D1", "D1"], ["D1", "D1"]])
    state.act(0, STOP)
    state.act(1, DROP)
    assert state.actors == (1,)
    with pytest.raises(IllegalAction, match="owes no decision"):
        state.act(0, DROP)


def test_R34_round_cap_truncates_without_winners(game):
    g = game(players=2, max_rounds=1)
    state = arrange(g, [["D1", "D1"], ["D1", "D2"]])
    state.act(0, STOP)
    state.act(1, STOP)
    assert state.over and state.truncated
    out = state.outcome()
    assert out.truncated and out.winners == () and out.payoff == (0.5, 0.5)
    assert g.max_decisions == 37
    assert game().max_decisions is None
