"""Arne: a take-that card game with black cards out of turn (spec rules/arne.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamenight.engine.registry import register
from gamenight.engine.spec import GameSpec
from gamenight.games import lazy_names

if TYPE_CHECKING:
    from gamenight.games.arne.game import Arne
    from gamenight.games.arne.options import Options
    from gamenight.games.arne.state import ArneState

SPEC = GameSpec(
    name="arne",
    title="Arne",
    pitch="Build your colours' stacks, wreck your rivals' and strike back out of turn.",
    players=(2, 12),
    default_players=4,
    length="30 min",
    difficulty="hard",
    game="gamenight.games.arne:Arne",
    bots="gamenight.games.arne.bots",
    terminal="gamenight.games.arne.terminal",
    web="arne.js",
    windows=True,
    rules="rules/arne.md",
    coach="gamenight.games.arne.coach",
    moments=("scored",),  # each game of a series scored
    chance="gamenight.games.arne.chance",
)

# Listing the games imports only this file; the game's modules load on first use.
__getattr__ = lazy_names(__name__, game=("Arne",), state=("ArneState",), options=("Options",))

__all__ = ["Arne", "ArneState", "Options"]

register(SPEC)
