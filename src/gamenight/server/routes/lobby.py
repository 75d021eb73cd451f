"""The lobby over HTTP: the games (with their option forms), the lobby page's lists, the
list of tables, a new table, and what a game's page draws once."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from gamenight.engine.core import BadInput
from gamenight.engine.options import check_untrusted, describe_options
from gamenight.engine.registry import game_class, games, load, spec
from gamenight.i18n import N_
from gamenight.i18n.refusals import said
from gamenight.server import admission, lobby, timers
from gamenight.server.accounts import account_tables, link_seat
from gamenight.server.db import QuotaFull
from gamenight.server.limits import PerClient
from gamenight.server.live_table import REACTION_HOLD_SECONDS, REACTION_SECONDS
from gamenight.server.operations import JOIN
from gamenight.server.routes.common import (
    Server,
    ServerDep,
    owner_cookie,
    seat_cookie,
    seat_name,
    set_cookie,
)
from gamenight.server.routes.models import NewTable, posted
from gamenight.server.routes.thinking import quota_refusal, searches, thinking_quota
from gamenight.server.seats import GRACE_SECONDS
from gamenight.server.tables import Refused

# (low, high) seconds of each numeric table setting: the reaction countdown is never off
# (A17: a person who does nothing passes when it runs out, whatever they hold).
SETTING_RANGES = {
    "reaction_seconds": (0.2, 60.0),  # everyone's short window (live_table.WindowClock)
    "reaction_hold_seconds": (1.0, 120.0),  # the full time after "Wait!"
    "turn_seconds": (0.0, 3600.0),
    "bot_delay": (0.0, 10.0),
    "pass_dwell": (0.0, 5.0),
    "grace_seconds": (0.0, 3600.0),  # 0: a bot sits in only when the owner says so
    "clock_bank": (1.0, 7200.0),  # a turn clock's starting bank, instead of its own
    "clock_add": (0.0, 600.0),  # seconds a clock adds per finished turn
    "moment_seconds": (0.0, 30.0),  # the longest pause at a round's end (0: none)
}


def clean_options(game: str, obj: dict[str, Any] | None) -> dict[str, Any]:
    if obj is None:
        return {}
    check_untrusted(game_class(game).Options, obj, game)  # ceilings, served values
    return obj


def default_settings() -> dict[str, Any]:
    return {
        "reaction_seconds": REACTION_SECONDS,
        "turn_seconds": 0.0,
        "bot_delay": 0.6,
        "pass_dwell": 0.3,
        "grace_seconds": GRACE_SECONDS,
    }


def clean_settings(given: dict[str, Any] | None) -> dict[str, Any]:
    settings = default_settings()
    if given is None:
        return settings
    obj = dict(given)
    if "clock" in obj:
        try:
            settings["clock"] = timers.clean_mode(obj.pop("clock"))
        except ValueError as err:
            raise BadInput(str(err)) from err  # (its Reason)
    for key, value in obj.items():
        if key == "outside_bots":  # programs may take an open seat (programs.py)
            if not isinstance(value, bool):
                raise BadInput(said(N_("setting 'outside_bots' must be true or false")))
            settings[key] = value
            continue
        if key == "shared_screen":  # one device, several seats (shared.py)
            if not isinstance(value, bool):
                raise BadInput(said(N_("setting 'shared_screen' must be true or false")))
            settings[key] = value
            continue
        settings[key] = clean_seconds(key, value)
    return settings


def clean_seconds(key: str, value: Any) -> float:
    if key not in SETTING_RANGES:
        known = ", ".join(["clock", *SETTING_RANGES, "shared_screen", "outside_bots"])
        raise BadInput(
            said(N_("no table setting {key}; settings: {known}"), key=repr(key), known=known)
        )
    if isinstance(value, bool) or not isinstance(value, int | float):
        try:
            value = float(value)
        except (TypeError, ValueError) as err:
            raise BadInput(
                said(N_("setting {key} must be a number of seconds"), key=repr(key))
            ) from err
    low, high = SETTING_RANGES[key]
    if not low <= value <= high:  # (NaN fails too)
        raise BadInput(
            said(
                N_("setting {key} must be from {low} to {high} seconds"),
                key=repr(key),
                low=f"{low:g}",
                high=f"{high:g}",
            )
        )
    return float(value)


def clean_seed(seed: int | None, seats: list[str], practice: bool) -> int | None:
    """A chosen seed gives every hand and the draw order, so it is taken only where nobody
    but its chooser can ever see those cards (issue 43, item 2): one seat for a person
    (which only the creator may take: rights.may_sit), the others bots; a seat opened
    later draws a new seed (seats.redraw_seed). A practice table keeps its seed, shown to
    everyone who comes."""
    if seed is None or practice:
        return seed
    people = sum(1 for s in seats if s.strip() in ("open", "", "person"))
    if people > 1:
        raise BadInput(
            said(
                N_(
                    "a chosen seed is only for a table of one person with bots, or a practice "
                    "table ('practice': true, shown to everyone who joins)"
                )
            )
        )
    return seed


@dataclass
class Lobby:
    """What the lobby's routes keep per app (`app.state.lobby`): new tables per address
    and the page data already built."""

    creations: PerClient
    page_data: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def of(cls, server: Server) -> Lobby:
        rates = server.rates
        return cls(PerClient(rates.tables_per_minute / 60.0, rates.table_burst))


async def lobby_of(request: Request) -> Lobby:
    found: Lobby = request.app.state.lobby
    return found


LobbyDep = Annotated[Lobby, Depends(lobby_of)]
router = APIRouter()


@router.get("/api/table-settings")
async def table_settings() -> dict[str, dict[str, float | None]]:
    """Each numeric table setting's default and range: the lobby's form reads them here, so
    the form and the server never disagree (issue 45, item 4)."""
    # (the hold's default is read where it is used, scheduler.hold_seconds, not stored)
    defaults = {**default_settings(), "reaction_hold_seconds": REACTION_HOLD_SECONDS}
    return {
        key: {"default": defaults.get(key), "min": low, "max": high}  # None: set elsewhere
        for key, (low, high) in SETTING_RANGES.items()
    }


def _learn(name: str) -> dict[str, Any] | None:
    """How long the game's guided first game takes (None: it has none yet)."""
    try:
        tutorial = spec(name).tutorial()
    except ModuleNotFoundError:
        return None
    return {"minutes": tutorial.TUTORIAL.minutes}


@router.get("/api/games")
async def list_games(request: Request) -> list[dict[str, Any]]:
    from gamenight.bots import LEVELS, PARAMETER_CEILINGS
    from gamenight.i18n import game_text, options_in
    from gamenight.server.language import request_language

    lang = request_language(request)  # the pitch, length and options in the page's language
    out = []
    for name in games():
        package = spec(name).package
        options = options_in(describe_options(game_class(name).Options), package, lang)
        shown = spec(name).to_json()
        for word in ("pitch", "length"):
            shown[word] = game_text(package, shown[word], lang)
        out.append(
            {
                **shown,
                "options": options,
                "levels": list(LEVELS),
                "file_options": [o["name"] for o in options if o["served"]],
                "bot_ceilings": PARAMETER_CEILINGS,
                "learn": _learn(name),  # its guided first game, /learn/NAME
            }
        )
    return out


@router.get("/api/lobby")
async def lobby_view(request: Request, server: ServerDep) -> dict[str, Any]:
    """Your tables first, then tables to join or watch, then recent games (issue 14)."""
    linked = await account_tables(request, server.people())
    return await lobby.view(server.hub(), request.cookies, server.summary, linked)


@router.get("/api/tables")
async def list_tables(server: ServerDep, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
    if not 1 <= limit <= 200 or not 0 <= offset <= 1_000_000:
        raise BadInput(said(N_("limit is 1..200 and offset 0..1000000")))
    hub = server.hub()
    rows = await hub.db(hub.store.lobby, limit, offset)
    out = []
    for row in rows:
        table = hub.live.get(row.id)
        out.append(server.summary(table) if table is not None else stored_summary(row))
    return out


def stored_summary(row: Any) -> dict[str, Any]:
    """A table that is not live, as the list of tables shows it (from its stored row)."""
    return {
        "id": row.id,
        "game": row.game,
        "status": row.status,
        "options": row.options,
        "seats": [
            {"seat": s.seat, "kind": s.kind, "name": s.name, "connected": False} for s in row.seats
        ],
        "invite": f"/tables/{row.id}",
    }


@router.post("/api/tables")
async def create_table(request: Request, server: ServerDep, here: LobbyDep) -> JSONResponse:
    admission.new_table(server.hub())  # 503 past capacity (admission.py)
    new = await posted(request, NewTable)
    game_class(new.game)  # BadInput: no such game
    seed = clean_seed(new.seed, new.seats, new.practice)
    options = clean_options(new.game, new.options)
    settings = clean_settings(new.settings)
    settings["practice"] = new.practice
    settings["seed_chosen"] = new.seed is not None  # never rated
    sit_name = await creator_name(request, new)  # checked before a table is made for them
    client = request.client.host if request.client else "?"
    if not here.creations.take(client):
        raise Refused(N_("too many new tables from your address; wait a minute"), 429)
    hub = server.hub()
    quota = None
    if searches(load(new.game, **options), new.seats):
        quota = await thinking_quota(request, server)
    try:
        table, owner = await hub.create(
            new.game, options, list(new.seats), settings, seed=seed, quota=quota
        )
    except QuotaFull as full:
        raise quota_refusal(full, hub.idle_timeout) from None
    data = server.summary(table)
    token = None
    if new.sit is not None and sit_name is not None:  # the creator sits down at once
        token = await hub.run(JOIN, table, new.sit, sit_name, None)
        await link_seat(request, server.people(), table.row.id, new.sit, table)
        data = server.summary(table)
        data["you"] = new.sit
        data["owner"] = True
    response = JSONResponse(data, status_code=201)
    set_cookie(response, request, owner_cookie(table.row.id), owner)
    if token is not None:
        set_cookie(response, request, seat_cookie(table.row.id), token)
    return response


async def creator_name(request: Request, new: NewTable) -> str | None:
    """The name the creator sits down under at once (`sit` and `name`), else None; checked
    before the table is made: no table left behind without its owner."""
    if new.sit is not None and not (
        0 <= new.sit < len(new.seats) and new.seats[new.sit].strip() in ("open", "", "person")
    ):
        raise BadInput(
            said(N_("'sit' must name an open seat: 0 to {last}"), last=len(new.seats) - 1)
        )
    if new.sit is not None and new.name is not None:
        return await seat_name(request, new.name)
    return None


@router.get("/api/games/{name}/page-data")
async def page_data(
    name: str, server: ServerDep, here: LobbyDep, table: str | None = None
) -> dict[str, Any]:
    """What a game's page draws once (Drop It: the empty board as SVG, its geometry and
    the piece outlines), from the game's `pictures` module; 404 for games without one."""
    try:
        found = spec(name)
    except BadInput as err:
        raise Refused(str(err), 404) from err
    if found.pictures is None:
        raise Refused(N_("{game} has no page data"), 404, game=found.title)
    options: dict[str, Any] = {}
    if table:
        live = await server.hub().get(table)
        if live.row.game != name:
            raise Refused(
                N_("table {table} does not play {game}"), 404, table=table, game=found.title
            )
        options = live.row.options
    key = json.dumps([name, options], sort_keys=True)
    if key not in here.page_data:
        build = found.module("pictures").page_data
        here.page_data[key] = await asyncio.get_running_loop().run_in_executor(None, build, options)
    return here.page_data[key]
