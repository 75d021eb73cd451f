"""The open archive for a server's admins (issue 48, item 3): the same Parquet file
`gamenight export` writes (server/archive.py), downloaded from the profile page.

Who is an admin is the operator's word, not a person's: the account names listed in
GAMENIGHT_ADMINS (comma-separated), read at each request, so an operator grants and takes
back without a migration or a restart. An export replays every game it writes: costly
work, so it runs in a thread within the asker's share of the server's budget
(budget.py) and at most EXPORTS_PER_HOUR times an hour per admin.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import tempfile
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from starlette.background import BackgroundTask

from gamenight.engine.core import BadInput
from gamenight.engine.registry import spec
from gamenight.i18n import N_
from gamenight.server.accounts.links import account_of
from gamenight.server.accounts.routes import signed_in_account
from gamenight.server.budget import asker_of
from gamenight.server.limits import PerClient
from gamenight.server.routes.common import ServerDep
from gamenight.server.tables import Refused

router = APIRouter()

ADMINS_VARIABLE = "GAMENIGHT_ADMINS"
EXPORTS_PER_HOUR = 6
_exports = PerClient(EXPORTS_PER_HOUR / 3600, EXPORTS_PER_HOUR)


def admins() -> frozenset[str]:
    """The account names the operator made admins (GAMENIGHT_ADMINS)."""
    listed = os.environ.get(ADMINS_VARIABLE, "")
    return frozenset(name.strip() for name in listed.split(",") if name.strip())


def is_admin(account: dict[str, Any] | None) -> bool:
    return account is not None and account["name"] in admins()


async def _admin(request: Request, server: ServerDep) -> dict[str, Any]:
    account = await signed_in_account(request, server.people())
    if not is_admin(account):
        raise Refused(N_("only an admin of this server may export the archive"), 403)
    return account


@router.get("/api/admin")
async def admin_rights(request: Request, server: ServerDep) -> dict[str, Any]:
    """{"admin": bool}: may the signed-in account (if any) export the archive here?"""
    account = await account_of(request, server.people())
    return {"admin": is_admin(account)}


@router.get("/api/admin/archive")
async def archive_file(
    request: Request, server: ServerDep, since: str = "", game: str = ""
) -> FileResponse:
    """The archive of the games finished on or after `since` (a day or an ISO time; every
    game when empty), of `game` if given, as games.parquet (docs/archive.md)."""
    account = await _admin(request, server)
    # here, not at the top: the archive needs pyarrow, 34 MB the server need not hold
    from gamenight.server.archive import export, parse_since

    try:
        after = parse_since(since, "since") if since.strip() else None
        name = spec(game).name if game.strip() else None
    except BadInput as err:
        raise Refused(str(err), 400) from None  # (its Reason: translated)
    if not _exports.take(f"account:{account['id']}"):
        raise Refused(
            N_("at most {count} exports an hour; try again later"), 429, count=EXPORTS_PER_HOUR
        )
    folder = Path(tempfile.mkdtemp(prefix="gamenight-export-"))
    out = folder / "games.parquet"
    engine = server.people().engine

    def cleanup() -> None:
        with contextlib.suppress(OSError):
            out.unlink()
        with contextlib.suppress(OSError):
            folder.rmdir()

    try:
        done = await server.hub().pool.budget.person(
            asker_of(request),
            "archive",
            lambda: asyncio.to_thread(export, engine, out, after, name),
        )
    except BaseException:
        cleanup()
        raise
    day = dt.datetime.now(dt.UTC).date().isoformat()
    return FileResponse(
        out,
        media_type="application/vnd.apache.parquet",
        filename=f"gamenight-archive-{day}.parquet",
        headers={"cache-control": "no-store", "x-games": str(done.games)},
        background=BackgroundTask(cleanup),
    )
