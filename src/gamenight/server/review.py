"""What happened at each step of a finished game, as the events a seat saw then.

The replay page tells the game in the same sentences as the table's log; the sentences are
made in the browser from these events (one list per step, the first list is the set-up).
Mounted by app.py as one route; computed off the event loop and cached like the replay.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter

from gamenight.engine.core import BadInput
from gamenight.server.tables import Hub, Refused

CACHE_SIZE = 32


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


def router(hub: Callable[[], Hub]) -> APIRouter:
    api = APIRouter()
    cache: dict[tuple[str, int | None], list[list[dict[str, Any]]]] = {}

    @api.get("/api/tables/{table_id}/replay/events")
    async def replay_events(table_id: str, seat: int | None = None) -> dict[str, Any]:
        table = await hub().get(table_id)
        if table.row.status != "finished":
            raise Refused("only a finished game can be replayed")
        if seat is not None and not 0 <= seat < table.game.players:
            raise BadInput(f"seat must be 0..{table.game.players - 1}")
        key = (table_id, seat)
        if key not in cache:
            history = await hub().db(hub().store.history, table_id)
            cache[key] = await asyncio.get_running_loop().run_in_executor(
                None, step_events, table.game, table.row.seed, history, seat
            )
            while len(cache) > CACHE_SIZE:
                cache.pop(next(iter(cache)))
        return {"seat": seat, "events": cache[key]}

    return api
