"""Shared fixtures of the Drop or Stop tests (rigging helpers are in helpers.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import gamenight
from gamenight.games.drop_or_stop import DropOrStop


@pytest.fixture
def game() -> Callable[..., DropOrStop]:
    """Load Drop or Stop with these options, validated as a user's would be (BadInput)."""

    def load(**options: Any) -> DropOrStop:
        loaded = gamenight.load("drop-or-stop", **options)
        assert isinstance(loaded, DropOrStop)
        return loaded

    return load
