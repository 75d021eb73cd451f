"""Drop or Stop: Scoring a round (spec §5 SCORE, §7 valuation; R16-R20)."""

from __future__ import annotations

import pytest

from gamenight.games.drop_or_stop import DROP, STOP
from gamenight.games.drop_or_stop.scoring import round_winners, value_cards
from tests.drop_or_stop.helpers import arrange, kinds


def test_R16_reveal_shows_every_hand_including_silent_stoppers(game):
    g = game(players=2)
    state = arrange(g, [["D2", "D3"], ["D4", "FLEX"]], draw_next=["D1"])
    state.act(0, STOP)
    state.act(1, DROP)
    events = state.act(1, STOP)
    reveal = next(e for e in events if e.kind == "revealed")
    assert reveal.to is None
    assert reveal.data["hands"] == [["D2", "D3"], ["D4", "FLEX"]]
    assert reveal.data["tableaux"] == [[], ["D1"]]


SPEC_VECTORS = [
    ("5,5", 10),
    ("5,5,2", None),
    ("F,F,1", 11),
    ("F,5", 10),
    ("F,5,1", 11),
    ("F,F,5", 11),
    ("F,4,3", 8),
    ("F,F,F", 11),
    ("F,2,3", 10),
    ("F,F,5,5", None),
    ("F,F,F,F", 8),
    ("F,F,F,F,4", 8),
    ("F,5,5", 11),
    ("1,1", 2),
    ("6,5", 11),
]


@pytest.mark.parametrize(("cards", "expected"), SPEC_VECTORS)
def test_R17_valuation_test_vectors(cards, expected):
    assert value_cards(kinds(cards)) == expected


def test_R17_closed_form_equals_brute_force():
    from itertools import product

    for fixed in range(0, 15):
        for flex in range(0, 6):
            totals = [fixed + sum(choice) for choice in product((1, 5), repeat=flex)]
            best = max((t for t in totals if t <= 11), default=None)
            assert value_cards([(False, fixed)] * (fixed > 0) + [(True, 1)] * flex) == best


def test_R17_flex_values_shown_at_reveal(game):
    g = game(players=2)
    state = arrange(g, [["FLEX", "FLEX"], ["D1", "D1"]], draw_next=["D1"])
    state.act(0, DROP)
    state.act(1, STOP)
    state.act(0, STOP)
    assert state.results[0]["flex"][0] == [5, 5]
    assert state.results[0]["totals"][0] == 11


def test_R18_overflow_never_wins():
    assert round_winners([None, 2]) == [1]


def test_R19_rulebook_example_ties_share_the_round():
    # A = 10, B = 10, C = 12 (OVERFLOW), D = 9.
    assert round_winners([10, 10, None, 9]) == [0, 1]


def test_R19_everyone_over_nobody_wins(game):
    g = game(players=2)
    state = arrange(g, [["D5", "D5"], ["D5", "D4"]], draw_next=["D5", "D5"])
    state.act(0, DROP)
    state.act(1, DROP)
    state.act(0, STOP)
    state.act(1, STOP)
    assert state.results[0]["winners"] == []
    assert state.wins == [0, 0]


def test_R20_one_win_per_round_win_and_no_bonus_for_11(game):
    g = game(players=3)
    state = arrange(g, [["D5", "D5"], ["D5", "D5"], ["D1", "D1"]], draw_next=["D1", "D1"])
    state.act(0, DROP)  # 11
    state.act(1, DROP)  # 11
    for seat in (2, 0, 1):
        state.act(seat, STOP)
    assert state.wins == [1, 1, 0]
