"""One table over HTTP: read it, take a seat, start it, arrange its seats, and after the
game decline or ask for the rematch. The owner and each seat are known by their cookies;
a signed-in person's seat is also linked to the account, which can move it to another
device (reclaim)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from gamenight.i18n import N_
from gamenight.server import rights, series
from gamenight.server.accounts import (
    account_seat,
    link_seat,
    refresh_account_seats,
    unlink_seat,
)
from gamenight.server.live_table import LiveTable
from gamenight.server.operations import JOIN, RECLAIM, REMATCH, SEAT, START
from gamenight.server.routes import thinking
from gamenight.server.routes.common import (
    Server,
    ServerDep,
    body,
    is_owner,
    owner_cookie,
    seat_cookie,
    seat_name,
    set_cookie,
)
from gamenight.server.routes.models import Join, SeatChange, posted
from gamenight.server.seats import CHOICES, bot_text
from gamenight.server.tables import Refused

router = APIRouter()


async def held(server: Server, table: LiveTable, request: Request) -> tuple[Any, int | None]:
    """The request's signed-in account (None: a guest) and the seat it holds here."""
    people = {s.seat for s in table.row.seats if s.kind == "person"}
    return await account_seat(request, server.people(), table.row.id, people)


@router.get("/api/tables/{table_id}")
async def get_table(table_id: str, request: Request, server: ServerDep) -> dict[str, Any]:
    """The table, with `account_seat`: the seat the signed-in account holds here, so
    another device of theirs can offer to play it."""
    table = await server.hub().get(table_id)
    await refresh_account_seats(server.people(), table)  # the seats' account marks
    data = server.summary(table, request)
    account, data["account_seat"] = await held(server, table, request)
    data["account_name"] = None if account is None else account["name"]  # as a watcher
    return data


@router.post("/api/tables/{table_id}/reclaim")
async def reclaim(table_id: str, request: Request, server: ServerDep) -> JSONResponse:
    """A signed-in person plays their seat from this device (another one, or after
    cookies were cleared): the seat's token is renewed and set here."""
    await body(request)  # JSON only, as every request that changes something
    hub = server.hub()
    table = await hub.get(table_id)
    account, seat = await held(server, table, request)
    if account is None:
        raise Refused(N_("sign in to play your seat here"), 403)
    if seat is None:
        raise Refused(N_("your account has no seat at this table"), 403)
    token = await hub.run(RECLAIM, table, seat)
    data = server.summary(table, request)
    data["you"] = data["account_seat"] = seat
    response = JSONResponse(data)
    set_cookie(response, request, seat_cookie(table_id), token)
    return response


@router.post("/api/tables/{table_id}/join")
async def join(table_id: str, request: Request, server: ServerDep) -> JSONResponse:
    hub = server.hub()
    table = await hub.get(table_id)
    sitting = await posted(request, Join)
    rights.may_sit(table, is_owner(request, table.row.owner_hash, table_id))
    seat, name = sitting.seat, await seat_name(request, sitting.name)
    token = await hub.run(JOIN, table, seat, name, request.cookies.get(seat_cookie(table_id)))
    await link_seat(request, server.people(), table_id, seat, table)
    data = server.summary(table, request)
    data["you"] = seat
    response = JSONResponse(data)
    set_cookie(response, request, seat_cookie(table_id), token)
    return response


@router.post("/api/tables/{table_id}/start")
async def start(table_id: str, request: Request, server: ServerDep) -> dict[str, Any]:
    table = await server.hub().get(table_id)
    if not is_owner(request, table.row.owner_hash, table_id):
        raise Refused(N_("only the creator of the table can start it"), 403)
    await server.hub().run(START, table)
    return server.summary(table, request)


@router.post("/api/tables/{table_id}/decline")
async def decline(table_id: str, request: Request, server: ServerDep) -> dict[str, Any]:
    """A player of a finished table will not play its rematch."""
    hub = server.hub()
    old = await hub.get(table_id)
    you = hub.seat_of(old, request.cookies.get(seat_cookie(table_id)))
    if you is None:
        raise Refused(N_("only a player of this table can decline its rematch"), 403)
    table = await series.decline(hub, old, you)
    return server.summary(table)


@router.post("/api/tables/{table_id}/seats/{seat}")
async def arrange_seat(
    table_id: str, seat: int, request: Request, server: ServerDep
) -> dict[str, Any]:
    """The owner makes a seat open or a bot (before the start), or hands a person's
    seat to a bot (while running); {"to": "open" | "bot" | "easy" | ...}."""
    table = await server.hub().get(table_id)
    if not is_owner(request, table.row.owner_hash, table_id):
        raise Refused(N_("only the creator of the table can change its seats"), 403)
    change = await posted(request, SeatChange)
    hub = server.hub()
    text = bot_text(change.to, table.row.status) if change.to in CHOICES else None
    # a searching bot handed a seat after the table was made counts as one made with it
    searching = text is not None and thinking.searches(table.game, [text])
    claimed = searching and await thinking.claim(request, server, table)
    try:
        await hub.run(SEAT, table, seat, change.to)
    except BaseException:
        if claimed:  # the change was refused: so is its place in the budget
            await hub.db(hub.store.unclaim_thinking, table_id)
        raise
    if table.seat_row(seat).kind != "person":  # the person was removed before the start
        await unlink_seat(server.people(), table_id, seat, table)
    return server.summary(table, request)


@router.post("/api/tables/{table_id}/rematch")
async def rematch(table_id: str, request: Request, server: ServerDep) -> JSONResponse:
    hub = server.hub()
    old = await hub.get(table_id)
    if old.row.status not in ("finished", "abandoned"):
        raise Refused(N_("a rematch is possible when the game is over"))
    you = hub.seat_of(old, request.cookies.get(seat_cookie(table_id)))
    same_owner = is_owner(request, old.row.owner_hash, table_id)
    if you is None and not same_owner:
        raise Refused(N_("only a player of this table can ask for a rematch"), 403)
    # One rematch per table (the series' next game); each player accepts once.
    table, token = await hub.run(REMATCH, old, you)
    response = JSONResponse(server.summary(table), status_code=201)
    if same_owner:
        owner = request.cookies[owner_cookie(table_id)]
        set_cookie(response, request, owner_cookie(table.row.id), owner)
    if token is not None:
        set_cookie(response, request, seat_cookie(table.row.id), token)
        if you is not None:  # their seat in the next game is linked as a joined one
            new_seat = series.new_seat(old, you)
            await link_seat(request, server.people(), table.row.id, new_seat, table)
    who = old.seat_row(you).name if you is not None else "the owner"
    await hub.notify(old, {"type": "rematch", "table": table.row.id, "by": who})
    response.body = response.render(server.summary(table))  # after the notification
    response.headers["content-length"] = str(len(response.body))
    return response
