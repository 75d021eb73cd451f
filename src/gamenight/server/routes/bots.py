"""The routes of programs that play (issue 48, item 2; what they are: programs.py).

Who may do what, checked here at every call: a signed-in person makes tokens for their own
account; a token's account (any) may read itself and upgrade to a bot account; only a bot
account listens to challenges and takes seats, and only at an open table whose owner
welcomes programs (`outside_bots`); only a table's owner challenges a bot to it. Every call
with a token is rate limited per account, like a person's; a refusal is one line."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse

from gamenight.i18n import N_
from gamenight.server import rights
from gamenight.server.accounts import account_of, account_seats
from gamenight.server.live_table import Refused, status_word
from gamenight.server.operations import JOIN
from gamenight.server.programs import KEEP_ALIVE_SECONDS, TOKEN_PREFIX
from gamenight.server.routes.common import ServerDep, is_owner
from gamenight.server.routes.models import Challenge, ProgramJoin, posted

router = APIRouter()


async def program_of(request: Request, server: ServerDep, bot: bool = True) -> dict[str, Any]:
    """The account whose API token the request carries (a bot account, when `bot`)."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token.startswith(TOKEN_PREFIX):
        raise Refused(N_("send your API token: 'Authorization: Bearer gnb_...'"), 401)
    programs = server.programs()
    account = await asyncio.to_thread(programs.account_of_token, token)
    if account is None:
        raise Refused(N_("this API token is not known (revoked, or never made)"), 401)
    if not programs.calls.take(f"account:{account['id']}"):
        raise Refused(N_("too many calls from your program; slow down"), 429)
    if bot and not account["bot"]:
        raise Refused(N_("this is for bot accounts: POST /api/bot/account/upgrade first"), 403)
    return account


@router.post("/api/account/tokens", status_code=201)
async def new_token(request: Request, server: ServerDep) -> dict[str, str]:
    """A new API token for the signed-in person's account, shown this once."""
    account = await account_of(request, server.people())
    if account is None:
        raise Refused(N_("sign in first"), 401)
    token = await asyncio.to_thread(server.programs().new_token, account["id"])
    return {"token": token, "note": "shown once: keep it secret; it plays as your account"}


@router.delete("/api/account/tokens")
async def revoke_tokens(request: Request, server: ServerDep) -> dict[str, int]:
    account = await account_of(request, server.people())
    if account is None:
        raise Refused(N_("sign in first"), 401)
    return {"revoked": await asyncio.to_thread(server.programs().revoke_tokens, account["id"])}


@router.get("/api/bot/account")
async def bot_account(request: Request, server: ServerDep) -> dict[str, Any]:
    return await program_of(request, server, bot=False)


@router.post("/api/bot/account/upgrade")
async def upgrade(request: Request, server: ServerDep) -> dict[str, Any]:
    account = await program_of(request, server, bot=False)
    await asyncio.to_thread(server.programs().upgrade, account["id"])
    return {**account, "bot": True}


@router.get("/api/bot/stream")
async def stream(request: Request, server: ServerDep) -> StreamingResponse:
    """The bot account's events, one JSON object a line (NDJSON); an empty line every few
    seconds keeps the connection alive."""
    account = await program_of(request, server)
    programs = server.programs()
    queue = programs.listen(account["id"])

    async def lines() -> AsyncIterator[bytes]:
        try:
            yield (json.dumps({"type": "hello", "name": account["name"]}) + "\n").encode()
            while True:
                try:
                    event = await asyncio.wait_for(queue.get(), KEEP_ALIVE_SECONDS)
                except TimeoutError:
                    if await request.is_disconnected():
                        return
                    yield b"\n"
                    continue
                yield (json.dumps(event) + "\n").encode()
        finally:
            programs.forget(account["id"], queue)

    return StreamingResponse(lines(), media_type="application/x-ndjson")


@router.post("/api/tables/{table_id}/challenge")
async def challenge(table_id: str, request: Request, server: ServerDep) -> dict[str, Any]:
    """The table's owner asks a bot account (by name) to take a seat."""
    table = await server.hub().get(table_id)
    if not is_owner(request, table.row.owner_hash, table_id):
        raise Refused(N_("only the creator of the table can challenge a bot to it"), 403)
    asked = await posted(request, Challenge)
    _welcomes_programs(table)
    open_seats = [s.seat for s in table.row.seats if s.kind == "open"]
    if not open_seats:  # a program would be told of no seat to take: never sent
        raise Refused(
            N_("this table has no open seat for {name}; open a seat first"),
            409,
            name=asked.bot,
        )
    programs = server.programs()
    bot = await asyncio.to_thread(programs.bot_named, asked.bot)
    if bot is None:
        raise Refused(N_("no bot account is called {name}"), 404, name=repr(asked.bot))
    event = {"type": "challenge", "table": table_id, "game": table.row.game, "seats": open_seats}
    if not await server.hub().tell_program(bot, event):
        raise Refused(N_("{name} is not listening now; try again later"), 409, name=asked.bot)
    return {"challenged": asked.bot, "table": table_id}


@router.post("/api/bot/tables/{table_id}/join")
async def join(table_id: str, request: Request, server: ServerDep) -> JSONResponse:
    """A bot account takes an open seat; the answer carries the seat's token, which the
    program sends as the `gn_seat_<id>` cookie on the table's WebSocket."""
    account = await program_of(request, server)
    hub = server.hub()
    table = await hub.get(table_id)
    sitting = await posted(request, ProgramJoin)
    _welcomes_programs(table)
    rights.may_sit(table, False)  # a deal its creator chose is theirs alone
    token = await hub.run(JOIN, table, sitting.seat, account["name"], None)
    people = server.people()
    await asyncio.to_thread(people.link_seat, table_id, sitting.seat, account["id"])
    account_seats(table).add(sitting.seat)
    return JSONResponse({"table": table_id, "seat": sitting.seat, "token": token})


def _welcomes_programs(table: Any) -> None:
    if not table.row.settings.get("outside_bots"):
        raise Refused(
            N_("this table's owner does not welcome programs (setting outside_bots)"), 403
        )
    if table.row.status != "open":
        raise Refused(
            N_("the table is {state}; seats can be taken only before"),
            state=status_word(table.row.status),
        )
