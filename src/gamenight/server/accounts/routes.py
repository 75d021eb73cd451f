"""The account, profile and leaderboard routes and pages. Each body is read by the one
reader (`routes.models.posted`) and every refusal is a `Refused` (answered by
`routes.common.refuse_cleanly`: one line, its status, Retry-After when it says a wait)."""

from __future__ import annotations

import asyncio
import re
from typing import Any, ClassVar

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse

from gamenight.engine.core import BadInput
from gamenight.engine.registry import spec
from gamenight.i18n import N_
from gamenight.server.accounts.links import account_of
from gamenight.server.accounts.opt_out import opted_out, set_opted_out
from gamenight.server.accounts.profiles import PROVISIONAL_GAMES
from gamenight.server.accounts.sessions import (
    SESSION_COOKIE,
    SESSION_DAYS,
    address_of,
    session_of,
)
from gamenight.server.accounts.store import Accounts
from gamenight.server.live_table import Refused
from gamenight.server.lobby import SEAT_PREFIX
from gamenight.server.pages import WEB
from gamenight.server.routes.common import ServerDep, set_cookie
from gamenight.server.routes.models import (
    ChangePassword,
    DeleteAccount,
    LogIn,
    Shape,
    SignUp,
    posted,
)

router = APIRouter()


async def adopt(request: Request, people: Accounts, account: dict[str, Any]) -> None:
    """The seats this browser took as a guest follow the account from now on."""
    tokens = {
        key.removeprefix(SEAT_PREFIX): value
        for key, value in request.cookies.items()
        if key.startswith(SEAT_PREFIX)
    }
    await asyncio.to_thread(people.adopt_seats, account["id"], tokens)


def signed_in(request: Request, account: dict[str, Any], token: str) -> JSONResponse:
    response = JSONResponse({"account": account})
    set_cookie(response, request, SESSION_COOKIE, token, max_age=SESSION_DAYS * 86400)
    return response


async def signed_in_account(request: Request, people: Accounts) -> dict[str, Any]:
    account = await account_of(request, people)
    if account is None:
        raise Refused(N_("sign in first"), 401)
    return account


@router.post("/api/accounts")
async def sign_up(request: Request, server: ServerDep) -> JSONResponse:
    new = await posted(request, SignUp)
    people = server.people()
    account, token = await people.sign_up(new.name, new.password, address_of(request))
    await adopt(request, people, account)
    response = signed_in(request, account, token)
    response.status_code = 201
    return response


@router.post("/api/session")
async def log_in(request: Request, server: ServerDep) -> JSONResponse:
    who = await posted(request, LogIn)
    people = server.people()
    account, token = await people.log_in(
        who.name, who.password, address_of(request), session_of(request)
    )
    await adopt(request, people, account)
    return signed_in(request, account, token)


@router.delete("/api/session")
async def log_out(request: Request, server: ServerDep) -> JSONResponse:
    await asyncio.to_thread(server.people().log_out, session_of(request))
    response = JSONResponse({"account": None})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.post("/api/account/password")
async def change_password(request: Request, server: ServerDep) -> JSONResponse:
    """{"old": ..., "new": ...}: a new password; other devices are signed out."""
    change = await posted(request, ChangePassword)
    people = server.people()
    account = await signed_in_account(request, people)
    await people.change_password(
        account["id"], change.old, change.new, address_of(request), session_of(request)
    )
    return JSONResponse({"account": account, "changed": True})


@router.delete("/api/account")
async def delete_account(request: Request, server: ServerDep) -> JSONResponse:
    """{"password": ...}: the account is deleted (its games stay, as a guest's)."""
    given = await posted(request, DeleteAccount)
    people = server.people()
    account = await signed_in_account(request, people)
    await people.delete_account(account["id"], given.password, address_of(request))
    response = JSONResponse({"account": None, "deleted": True})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.get("/api/account/export")
async def export(request: Request, server: ServerDep) -> JSONResponse:
    """The signed-in account's own data, as a JSON file to keep."""
    people = server.people()
    account = await signed_in_account(request, people)
    data = await asyncio.to_thread(people.export, account["id"])
    filename = f"gamenight-{re.sub(r'[^A-Za-z0-9_.-]', '_', account['name'])}.json"
    return JSONResponse(
        data,
        headers={
            "content-disposition": f'attachment; filename="{filename}"',
            "cache-control": "no-store",
        },
    )


class ArchiveChoice(Shape):
    """POST /api/account/archive."""

    opt_out: bool

    wrong: ClassVar[dict[str, str]] = {"opt_out": "'opt_out' must be true or false"}


@router.get("/api/account/archive")
async def archive_choice(request: Request, server: ServerDep) -> dict[str, Any]:
    """{"opt_out": ...}: does the account keep its games out of the open archive?"""
    people = server.people()
    account = await signed_in_account(request, people)
    return {"opt_out": await asyncio.to_thread(opted_out, people.engine, account["id"])}


@router.post("/api/account/archive")
async def choose_archive(request: Request, server: ServerDep) -> dict[str, Any]:
    """{"opt_out": true}: keep the account's games out of the open archive (`gamenight
    export` leaves out every table it sat at) from the next export on; false lets them in."""
    choice = await posted(request, ArchiveChoice)
    people = server.people()
    account = await signed_in_account(request, people)
    out = await asyncio.to_thread(set_opted_out, people.engine, account["id"], choice.opt_out)
    return {"opt_out": out}


@router.get("/api/me")
async def me(request: Request, server: ServerDep) -> dict[str, Any]:
    return {"account": await asyncio.to_thread(server.people().who, session_of(request))}


@router.get("/api/profiles/{name}")
async def profile(name: str, request: Request, server: ServerDep) -> JSONResponse:
    people = server.people()
    await people.settled()
    viewer = await account_of(request, people)
    viewer_id = None if viewer is None else viewer["id"]
    return JSONResponse(await asyncio.to_thread(people.profile, name, viewer_id))


@router.get("/api/leaderboard/{game}")
async def leaderboard(game: str, server: ServerDep) -> JSONResponse:
    people = server.people()
    try:
        await people.settled()
        rows = await asyncio.to_thread(people.leaderboard, game)
    except BadInput as err:  # no such game
        raise Refused(str(err), 404) from None
    # ranked rows first (by rating, mu - 3 sigma), then the provisional ones (fewer than
    # `provisional_games` rated games), unranked, by their estimate mu
    return JSONResponse(
        {
            "game": game,
            "title": spec(game).title,
            "provisional_games": PROVISIONAL_GAMES,
            "players": rows,
        }
    )


async def profile_page() -> FileResponse:
    return FileResponse(WEB / "profile.html")


for _path in ("/account", "/players/{name}", "/leaderboard/{game}"):
    router.add_api_route(_path, profile_page, include_in_schema=False, methods=["GET"])
