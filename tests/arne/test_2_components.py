"""Spec section 2: the cards as data, with the sanity totals of 2.5 and 11."""

import pytest

import gamenight
from gamenight.games.arne.components import (
    BOX_TOTAL,
    GROUP_TOTALS,
    deck,
    group_cards,
    groups_for,
)


@pytest.mark.parametrize("group", ["S", "S1", "N", "N1"])
def test_group_totals(group):
    assert sum(group_cards(group).values()) == GROUP_TOTALS[group]


def test_box_and_decks():
    assert sum(deck(6, False).values()) == BOX_TOTAL == 134
    no_star = deck(4, False)
    assert sum(no_star.values()) == 92
    star = deck(2, False)
    assert sum(star.values()) == 42
    white = sum(
        n
        for (t, _), n in no_star.items()
        if t not in {"MINUS200", "STOP", "CRUSH", "REVERSE", "CHAMELEON", "THIEF", "LOCK"}
    )
    assert (white, 92 - white) == (60, 32)


@pytest.mark.parametrize(
    ("players", "learning", "cards"),
    [
        (2, False, 42),
        (3, False, 92),
        (4, False, 92),
        (5, False, 134),
        (6, False, 134),
        (2, True, 30),
        (3, True, 52),
        (4, True, 52),
        (5, True, 82),
        (6, True, 82),
    ],
)
def test_A2_cards_per_player_count(players, learning, cards):
    game = gamenight.load("arne", players=players, learning=learning)
    assert game.num_cards == cards
    assert sum(deck(players, learning).values()) == cards


def test_colour_has_eleven_cards_and_learning_columns():
    full = deck(6, False)
    learn = deck(6, True)
    for colour, per_full, per_learn in [("red", 11, 8), ("c5", 11, 7)]:
        assert sum(n for (_, c), n in full.items() if c == colour) == per_full
        assert sum(n for (_, c), n in learn.items() if c == colour) == per_learn
    assert full[("X2", "red")] == 1 and learn[("X2", "red")] == 0


def test_A2_groups_by_player_count():
    assert groups_for(2, False) == ("S", "S1")
    assert groups_for(4, True) == ("N1",)
    assert groups_for(6, True) == ("S1", "N1")
