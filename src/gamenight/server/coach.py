"""The coach: a game's own view of the seat's options, for a seat that plays only bots.

A game offers a coach by naming a module with `advice(state, seat)` in its GameSpec
(`coach`). The coach gets the live state but reads only what the seat knows: its view and
events, or determinizations (`state.determinize(seat, rng)`), so its advice is equal on any
two states the seat cannot tell apart (each game's coach test checks this). Never for a seat
while other people play at the table (it would be help against a person), never for
spectators. Computed in the worker pool within the asker's share (budget.py): one coach
request per person at a time; asked again while the first still waits, the first is answered
`"superseded": true` (no advice: its position is gone) and the new one waits in its place;
asked again while the first runs, 429. A table where the coach was asked is never rated
(`on_use`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import Any

from fastapi import APIRouter, Request

from gamenight.engine.core import State
from gamenight.engine.registry import spec
from gamenight.i18n import N_
from gamenight.server.budget import Superseded, asker_of
from gamenight.server.tables import Hub, Refused


def coach_module(game: str) -> ModuleType | None:
    found = spec(game)
    return found.module("coach") if found.coach else None


def run_advice(game: str, state: State, seat: int, review: bool = False) -> dict[str, Any]:
    """In a worker: the game's coach on `state` for `seat`. A review (review_coach.py) asks
    the coach's `review_advice` where it has one: the same advice on a smaller budget, since
    a review asks it for every decision of a game."""
    module = coach_module(game)
    assert module is not None
    ask = getattr(module, "review_advice", module.advice) if review else module.advice
    result: dict[str, Any] = ask(state, seat)
    return result


def router(
    hub: Callable[[], Hub],
    seat_cookie: Callable[[str], str],
    on_use: Callable[[str], Awaitable[None]] | None = None,
) -> APIRouter:
    api = APIRouter()

    @api.get("/api/tables/{table_id}/coach")
    async def coach(table_id: str, request: Request) -> dict[str, Any]:
        table = await hub().get(table_id)
        token = request.cookies.get(seat_cookie(table_id))
        seat = hub().seat_of(table, token)
        if seat is None:
            raise Refused(N_("the coach helps a seated player; you are watching"))
        if any(s.kind != "bot" for s in table.row.seats if s.seat != seat):
            raise Refused(N_("no coach while other people play at this table"))
        if coach_module(table.row.game) is None:
            raise Refused(N_("{game} has no coach yet"), game=spec(table.row.game).title)
        state = table.state
        if state is None or seat not in state.actors:
            return {"version": table.version, "advice": None}
        version = table.version
        asker = asker_of(request, token)
        try:
            advice = await hub().pool.run_for(
                asker, "coach", run_advice, table.row.game, state.copy(), seat, supersede=True
            )
        except Superseded:  # the same seat asked again (a newer position) while this waited
            return {"version": version, "advice": None, "superseded": True}
        if on_use is not None:  # before any advice is shown; a refused request costs nothing
            await on_use(table_id)
        return {"version": version, "advice": advice}

    from gamenight.server import review_coach  # it uses this module's run_advice

    api.include_router(review_coach.router(hub, seat_cookie))  # .../coach/review
    return api
