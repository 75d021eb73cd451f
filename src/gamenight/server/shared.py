"""One shared screen, pass and play (issue 14, item 7): several people at one device.

A table with the setting `shared_screen` lets one browser take several seats: each seat's
secret token goes into one cookie (`gn_shared_<table>`, tokens joined by "."). A socket
from that browser starts as a spectator and acts for a seat only after the page says that
seat's person is looking ({"type": "look", "seat": B}); only then is B's view sent, so a
hand is never on screen for the wrong person. {"type": "look", "seat": null} hides it
again. The hub does not start a person's reaction countdown at such a table while nobody
looks as them (the countdown waits while the device changes hands).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from gamenight.i18n import N_
from gamenight.server import rights
from gamenight.server.db import token_hash
from gamenight.server.operations import JOIN
from gamenight.server.routes.common import is_owner, seat_name, set_cookie
from gamenight.server.routes.models import Join, posted
from gamenight.server.tables import Conn, Hub, LiveTable, Refused

SEP = "."  # token_urlsafe never makes a "."


def cookie_name(table_id: str) -> str:
    return f"gn_shared_{table_id}"


def is_shared(table: LiveTable) -> bool:
    return bool(table.row.settings.get("shared_screen"))


class SharedScreen:
    """Which seats each socket of a shared screen may look as (kept on the socket's
    `Conn.holds`, which also shows those people present)."""

    def __init__(self, hub: Callable[[], Hub]) -> None:
        self.hub = hub

    def seats(self, table: LiveTable, cookies: Mapping[str, str]) -> list[int]:
        raw = cookies.get(cookie_name(table.row.id)) or ""
        found = {self.hub().seat_of(table, t) for t in raw.split(SEP)[:16] if t}
        return sorted(s for s in found if s is not None)

    def register(self, table: LiveTable, conn: Conn, cookies: Mapping[str, str]) -> None:
        """A new socket: at a shared-screen table it keeps the hashes of the seat tokens
        its cookie carries (claims only: rights.derive turns them into the seats it holds
        at every message) and starts looking as nobody."""
        if not is_shared(table):
            return
        raw = cookies.get(cookie_name(table.row.id)) or ""
        conn.shared_hashes = frozenset(token_hash(t) for t in raw.split(SEP)[:16] if t)
        conn.looking = None
        rights.derive(table, conn)

    async def look(self, table: LiveTable, conn: Conn, seat: int | None) -> None:
        """The device says who looks at it now (checked: rights.may)."""
        if seat == conn.looking:  # nothing changes: nobody is sent anything
            await self.hub().send_to(table, conn)
            return
        conn.looking = seat
        rights.derive(table, conn)
        await self.hub().plan(table, broadcast=True)  # a countdown waiting for them starts


def router(hub: Callable[[], Hub], shared: SharedScreen) -> APIRouter:
    api = APIRouter()

    @api.get("/api/tables/{table_id}/shared")
    async def mine(table_id: str, request: Request) -> dict[str, Any]:
        table = await hub().get(table_id)
        return {"shared_screen": is_shared(table), "seats": shared.seats(table, request.cookies)}

    @api.post("/api/tables/{table_id}/shared/join")
    async def join(table_id: str, request: Request) -> JSONResponse:
        """One more person at this device takes a seat."""
        table = await hub().get(table_id)
        if not is_shared(table):
            raise Refused(N_("this table is not set up for one shared screen"))
        sitting = await posted(request, Join)
        rights.may_sit(table, is_owner(request, table.row.owner_hash, table_id))
        name = await seat_name(request, sitting.name)  # no zero-width, no account's name
        token = await hub().run(JOIN, table, sitting.seat, name, None)
        old = request.cookies.get(cookie_name(table_id)) or ""
        tokens = [*[t for t in old.split(SEP) if t][:15], token]
        held = shared.seats(table, {cookie_name(table_id): SEP.join(tokens)})
        response = JSONResponse({"seats": held})
        set_cookie(response, request, cookie_name(table_id), SEP.join(tokens))
        return response

    return api
