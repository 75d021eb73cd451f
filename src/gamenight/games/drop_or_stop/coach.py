"""The coach: what the hard bot (solver.py) thinks of the seat's options, in numbers.

`advice(state, seat)` reads only what the seat sees (its view and its own event stream), so
the coach knows no more than the player; the server computes it in its worker pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamenight.engine.core import State
from gamenight.games.drop_or_stop.solver import round_from_view, win_chances


def advice(state: State, seat: int) -> dict[str, Any]:
    """The exact chance to win this round if the seat drops now or stops now."""
    return advice_from_view(state.view(seat), state.events(seat))


def advice_from_view(view: dict[str, Any], events: Sequence[Any]) -> dict[str, Any]:
    """`advice` from the seat's own view and event stream."""
    drop, stop = win_chances(round_from_view(view, events))
    return {
        "measure": "chance to win this round",
        "options": [
            {"action": {"type": "drop"}, "label": "Drop", "value": drop},
            {"action": {"type": "stop"}, "label": "Stop", "value": stop},
        ],
        "best": "drop" if drop > stop else "stop",
    }
