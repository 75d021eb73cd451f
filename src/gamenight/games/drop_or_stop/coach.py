"""The coach: what the hard bot (solver.py) thinks of the seat's options, in numbers.

`advice(state, seat)` reads only what the seat sees (its view and its own event stream), so
the coach knows no more than the player; the server computes it in its worker pool.

The numbers are the exact count where it is cheap (every 2-player position, and later in a
round at 3-4 players): up to EXACT_POSITIONS positions, a fifth of a second on a quiet
machine. Past that (a round's start at 3 players is about 300,000 positions, at 4 players
millions) they are estimated from SAMPLES sampled rounds of the same model, about a third of
a second, and each comes with its 95% margin (`margin`), which the page shows beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamenight.engine.core import State
from gamenight.games.drop_or_stop.solver import (
    TooCostly,
    exact_count,
    round_from_view,
    sampled_chances,
)

EXACT_POSITIONS = 30_000  # the exact count's budget (2 players at most about 40,000)
SAMPLES = 6_000  # sampled rounds past it: a margin of about 1.3 points at 50%
SEED = 13  # fixed: the same position always gets the same advice
EXACT = "the hard bot's exact count"


def advice(state: State, seat: int) -> dict[str, Any]:
    """The chance to win this round if the seat drops now or stops now."""
    return advice_from_view(state.view(seat), state.events(seat))


def advice_from_view(view: dict[str, Any], events: Sequence[Any]) -> dict[str, Any]:
    """`advice` from the seat's own view and event stream."""
    situation = round_from_view(view, events)
    try:
        drop, stop, positions = exact_count(situation, EXACT_POSITIONS)
    except TooCostly:
        found = sampled_chances(situation, SAMPLES, SEED)
        drop, stop = found.drop, found.stop
        margins: tuple[float | None, float | None] = (found.drop_margin, found.stop_margin)
        how = f"estimated from {found.samples:,} sampled deals, ± its 95% margin"
        work = {"method": "sampled", "samples": found.samples, "steps": found.steps}
    else:
        margins = (None, None)
        how = EXACT
        work = {"method": "exact", "positions": positions}
    return {
        "measure": "chance to win this round",
        "how": how,
        **work,
        "options": [
            {"action": {"type": "drop"}, "label": "Drop", "value": drop, "margin": margins[0]},
            {"action": {"type": "stop"}, "label": "Stop", "value": stop, "margin": margins[1]},
        ],
        "best": "drop" if drop > stop else "stop",
    }
