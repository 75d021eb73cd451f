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

from gamenight.server.routes.models import Join, posted
from gamenight.server.tables import Conn, Hub, LiveTable, Refused

MESSAGES = ("look",)
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
        """A new socket: at a shared-screen table it starts looking as nobody."""
        if not is_shared(table):
            return
        held = self.seats(table, cookies)
        if held:
            conn.holds = frozenset(held)
            conn.seat = None

    async def handle(self, table: LiveTable, conn: Conn, msg: dict[str, Any]) -> None:
        seat = msg.get("seat")
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or seat not in conn.holds
        ):
            raise Refused(
                f"this device holds seats {sorted(conn.holds)}; it cannot look as {seat!r}"
            )
        hub = self.hub()
        conn.seat = seat
        conn.log_pos = -1  # the new viewer's own events from the start, nobody else's
        await hub._plan(table, broadcast=True)  # a countdown waiting for this person starts


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
            raise Refused("this table is not set up for one shared screen")
        sitting = await posted(request, Join)
        token = await hub().join(table, sitting.seat, sitting.name, None)
        old = request.cookies.get(cookie_name(table_id)) or ""
        tokens = [*[t for t in old.split(SEP) if t][:15], token]
        held = shared.seats(table, {cookie_name(table_id): SEP.join(tokens)})
        response = JSONResponse({"seats": held})
        response.set_cookie(cookie_name(table_id), SEP.join(tokens), httponly=True, samesite="lax")
        return response

    return api
