"""What happened at each step of a finished game, as the events a seat saw then.

The replay page tells the game in the same sentences as the table's log; the sentences are
made in the browser from these events (one list per step, the first list is the set-up).
Served by routes/replay.py beside the replay's views (same checks, same cache).
"""

from __future__ import annotations

from typing import Any


def step_events(
    game: Any, seed: Any, history: list[tuple[int, dict[str, Any]]], seat: int | None
) -> list[list[dict[str, Any]]]:
    """The events `seat` could see, grouped by the step that made them (set-up first)."""
    state = game.start(seed)
    seen = state.events(seat)
    out = [[e.to_json() for e in seen]]
    count = len(seen)
    for s, obj in history:
        state.act(s, game.action_from_json(obj))
        events = state.events(seat)
        out.append([e.to_json() for e in events[count:]])
        count = len(events)
    return out
