"""Applying stored actions to a state: how a process that does not own a table follows it.

A top-level function, so a heavy game's steps (Drop It physics) can run in the worker pool.
"""

from __future__ import annotations

from typing import Any

from gamenight.engine.core import State


def apply_steps(state: State, steps: list[tuple[int, dict[str, Any]]]) -> State:
    """`state` after each stored (seat, action JSON), in order."""
    for seat, obj in steps:
        state.act(seat, state.game.action_from_json(obj))
    return state
