"""Arne's phases and window kinds (spec 4.2) as IntEnums.

A leaf module so that the state machine (state.py), the card effects (cards.py) and the view
(observation.py) all name them without importing each other in a circle.
"""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    """Where the state machine of spec 4.2 stands."""

    COLOUR = 0  # A3: players choose colours in seat order
    WINDOW = 1  # A15-A17: a reaction window (see `Window`)
    WHITE = 2  # A9: the active player declares a white card
    GIVE = 3  # A24/A25: a demand's target picks the cards it hands over
    FINAL = 4  # A41: the final round, one black action each
    OVER = 5  # A55: the game (or series) is over


class Window(IntEnum):
    """Which reaction window is open (A8, A11, A12)."""

    MAIN = 0  # A8: after the draw, before the white step
    PRE = 1  # A11: a declared white card waits to resolve
    END = 2  # A12: after a white card resolved


COLOUR, WINDOW, WHITE, GIVE, FINAL, OVER = Phase
MAIN, PRE, END = Window
