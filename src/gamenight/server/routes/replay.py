"""A finished game, step by step: every view of a seat (or the public view) with the
actions between them, and the events each step made (the replay page's sentences). Both
are built off the event loop and cached; both refuse the same way (one check, `finished`)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter

from gamenight.engine.core import BadInput
from gamenight.server.review import step_events
from gamenight.server.routes.common import Server
from gamenight.server.tables import LiveTable, Refused

CACHE_SIZE = 32


def _snap(view: dict[str, Any]) -> Any:
    """A snapshot: a view may share lists with the live state."""
    return json.loads(json.dumps(view))


def step_views(
    table: LiveTable,
    history: list[tuple[int, dict[str, Any]]],
    seat: int | None,
    seats: list[dict[str, Any]],
) -> dict[str, Any]:
    """The replay of `table`: its actions and what `seat` saw before and after each."""
    game = table.game
    state = game.start(table.row.seed)
    views = [_snap(state.view(seat))]
    steps = []
    for s, obj in history:
        state.act(s, game.action_from_json(obj))
        steps.append({"seat": s, "action": obj})
        views.append(_snap(state.view(seat)))
    return {
        "id": table.row.id,
        "game": game.name,
        "options": table.row.options,
        "seed": table.row.seed,
        "seat": seat,
        "seats": seats,
        "steps": steps,
        "views": views,
        "outcome": state.outcome().to_json() if state.over else None,
    }


class _Cache(dict[tuple[str, int | None], Any]):
    def keep(self, key: tuple[str, int | None], value: Any) -> Any:
        self[key] = value
        while len(self) > CACHE_SIZE:
            self.pop(next(iter(self)))
        return value


def router(server: Server) -> APIRouter:
    api = APIRouter()
    views_cache = _Cache()
    events_cache = _Cache()

    async def finished(table_id: str, seat: int | None) -> LiveTable:
        """The table, if its game is finished and `seat` is one of its seats (or None)."""
        table = await server.hub().get(table_id)
        if table.row.status != "finished":
            raise Refused("only a finished game can be replayed")
        if seat is not None and not 0 <= seat < table.game.players:
            raise BadInput(f"seat must be 0..{table.game.players - 1}")
        return table

    async def history(table_id: str) -> list[tuple[int, dict[str, Any]]]:
        hub = server.hub()
        found: list[tuple[int, dict[str, Any]]] = await hub.db(hub.store.history, table_id)
        return found

    @api.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, seat: int | None = None) -> dict[str, Any]:
        table = await finished(table_id, seat)
        key = (table_id, seat)
        if key not in views_cache:
            steps = await history(table_id)
            loop = asyncio.get_running_loop()
            seats = server.hub().public_table(table)["seats"]
            views_cache.keep(
                key, await loop.run_in_executor(None, step_views, table, steps, seat, seats)
            )
        found: dict[str, Any] = views_cache[key]
        return found

    @api.get("/api/tables/{table_id}/replay/events")
    async def replay_events(table_id: str, seat: int | None = None) -> dict[str, Any]:
        table = await finished(table_id, seat)
        key = (table_id, seat)
        if key not in events_cache:
            steps = await history(table_id)
            loop = asyncio.get_running_loop()
            events_cache.keep(
                key,
                await loop.run_in_executor(
                    None, step_events, table.game, table.row.seed, steps, seat
                ),
            )
        return {"seat": seat, "events": events_cache[key]}

    return api
