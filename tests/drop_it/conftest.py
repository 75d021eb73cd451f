"""Shared fixtures of the Drop It tests (loaders and static-pose helpers are in helpers.py)."""

from __future__ import annotations

import pytest

from gamenight.games.drop_it import DropItState

from .helpers import corner_violation, game


@pytest.fixture
def joker_pending() -> DropItState:
    """2 players, jokers on (V3): seat 0 has just broken D21 in the left corner, so its
    joker decision is pending."""
    state = corner_violation(game(jokers=True))
    assert isinstance(state, DropItState)
    return state
