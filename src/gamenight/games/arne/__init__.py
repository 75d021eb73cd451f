"""Arne: a take-that card game with black cards out of turn (spec rules/arne.md)."""

from gamenight.games.arne.game import Arne
from gamenight.games.arne.options import Options
from gamenight.games.arne.state import ArneState

__all__ = ["Arne", "ArneState", "Options"]
