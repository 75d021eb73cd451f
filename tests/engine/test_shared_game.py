"""A Game is fixed configuration: one per (class, options) in a process, and pickled as its
class and options (engine/core.py shared_game)."""

from __future__ import annotations

import pickle

import pytest

import gamenight
from gamenight.engine.registry import games


@pytest.mark.parametrize("name", games())
def test_games_with_the_same_options_are_one_object(name: str) -> None:
    assert gamenight.load(name) is gamenight.load(name)
    other = gamenight.load(name, players=3)
    assert other is not gamenight.load(name, players=2)
    assert other.players == 3


@pytest.mark.parametrize("name", games())
def test_a_pickled_state_carries_its_games_options_not_its_tables(name: str) -> None:
    game = gamenight.load(name, players=2)
    state = game.start(7)
    for _ in range(3):
        seat = state.actors[0]
        state.act(seat, state.actions(seat)[0])
    assert len(pickle.dumps(game)) < 2_000  # a game's lookup tables are tens of KB
    again = pickle.loads(pickle.dumps(state))
    assert again.game is game
    assert again.history == state.history and again.view(0) == state.view(0)
