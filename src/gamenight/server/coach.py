"""The coach: a game's own view of the seat's options, for a seat that plays only bots.

A game offers a coach by a `coach` module in its package with `advice(view, events)`, which
sees only what the seat sees. Never for a seat while other people play at the table (it
would be help against a person), never for spectators. Computed in the worker pool.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from fastapi import APIRouter, Request

from gamenight.engine.registry import spec
from gamenight.server.tables import Hub, Refused


def coach_module(game: str) -> ModuleType | None:
    package = spec(game).bots.rpartition(".")[0]  # the game's package holds its bots module
    try:
        return importlib.import_module(f"{package}.coach")
    except ModuleNotFoundError:
        return None


def run_advice(game: str, view: dict[str, Any], events: list[Any]) -> dict[str, Any]:
    module = coach_module(game)
    assert module is not None
    result: dict[str, Any] = module.advice(view, events)
    return result


def router(hub: Callable[[], Hub], seat_cookie: Callable[[str], str]) -> APIRouter:
    api = APIRouter()

    @api.get("/api/tables/{table_id}/coach")
    async def coach(table_id: str, request: Request) -> dict[str, Any]:
        table = await hub().get(table_id)
        seat = hub().seat_of(table, request.cookies.get(seat_cookie(table_id)))
        if seat is None:
            raise Refused("the coach helps a seated player; you are watching")
        if any(s.kind != "bot" for s in table.row.seats if s.seat != seat):
            raise Refused("no coach while other people play at this table")
        if coach_module(table.row.game) is None:
            raise Refused(f"{spec(table.row.game).title} has no coach yet")
        state = table.state
        if state is None or seat not in state.actors:
            return {"version": table.version, "advice": None}
        version = table.version
        view, events = state.view(seat), list(state.events(seat))
        advice = await asyncio.get_running_loop().run_in_executor(
            hub().pool, run_advice, table.row.game, view, events
        )
        return {"version": version, "advice": advice}

    return api
