"""A finished game, step by step: every view of a seat (or the public view) with the
actions between them, and the events each step made (the replay page's sentences). Both
refuse the same way (one check, `finished`).

Both are computed in the worker pool as the asker's job (budget.py: after table work, in
turn with other people's requests), at most COMPUTED_PER_MINUTE a person (burst
COMPUTED_BURST; an address twice that), and cached, least recently used first out. One
person's computations hold at most PER_PERSON_CACHED entries of a cache: past that their own
oldest goes, so someone cycling many replays neither evicts everyone else's entries nor
takes the workers' time (40 replays cycled took others' action p99 from 13 to 115 ms)."""

from __future__ import annotations

import collections
import json
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from gamenight.engine.core import BadInput, Game, said
from gamenight.i18n import N_
from gamenight.server.budget import Asker, asker_of
from gamenight.server.limits import PerClient
from gamenight.server.review import step_events
from gamenight.server.routes.common import Server, ServerDep, seat_cookie
from gamenight.server.tables import LiveTable, Refused

CACHE_SIZE = 32
PER_PERSON_CACHED = 8  # entries of one cache one person's computations may hold
COMPUTED_PER_MINUTE = 10  # replays (views or events) one person may compute...
COMPUTED_BURST = 20  # ...after a burst of this many; an address twice as many


def _snap(view: dict[str, Any]) -> Any:
    """A snapshot: a view may share lists with the live state."""
    return json.loads(json.dumps(view))


def step_views(
    game: Game,
    head: dict[str, Any],
    history: list[tuple[int, dict[str, Any]]],
    seat: int | None,
) -> dict[str, Any]:
    """In a worker: the replay of a table (`head`: its id, options, seed and seats), its
    actions and what `seat` saw before and after each."""
    state = game.start(head["seed"])
    views = [_snap(state.view(seat))]
    steps = []
    for s, obj in history:
        state.act(s, game.action_from_json(obj))
        steps.append({"seat": s, "action": obj})
        views.append(_snap(state.view(seat)))
    return {
        "id": head["id"],
        "game": game.name,
        "options": head["options"],
        "seed": head["seed"],
        "seat": seat,
        "seats": head["seats"],
        "steps": steps,
        "views": views,
        "outcome": state.outcome().to_json() if state.over else None,
    }


Key = tuple[str, int | None]  # (table, seat)


class _Cache:
    """Least recently used out, and each person's computations at most PER_PERSON_CACHED."""

    def __init__(self) -> None:
        self.entries: collections.OrderedDict[Key, tuple[str, Any]] = collections.OrderedDict()

    def get(self, key: Key) -> Any | None:
        found = self.entries.get(key)
        if found is None:
            return None
        self.entries.move_to_end(key)  # read: kept longer
        return found[1]

    def keep(self, key: Key, value: Any, person: str) -> Any:
        self.entries.pop(key, None)
        mine = [k for k, (who, _) in self.entries.items() if who == person]
        if len(mine) >= PER_PERSON_CACHED:
            del self.entries[mine[0]]  # their own oldest, not someone else's
        self.entries[key] = (person, value)
        while len(self.entries) > CACHE_SIZE:
            self.entries.popitem(last=False)
        return value


@dataclass
class Replays:
    """What the replay routes keep per app (`app.state.replays`): the two caches and the
    rates of computations per person and per address."""

    views: _Cache = field(default_factory=_Cache)
    events: _Cache = field(default_factory=_Cache)
    by_person: PerClient = field(
        default_factory=lambda: PerClient(COMPUTED_PER_MINUTE / 60, COMPUTED_BURST)
    )
    by_address: PerClient = field(
        default_factory=lambda: PerClient(2 * COMPUTED_PER_MINUTE / 60, 2 * COMPUTED_BURST)
    )

    def asker(self, server: Server, request: Request, table: LiveTable) -> Asker:
        """Who asks for a computation (a seat's token only if it is one: made-up tokens
        would be new people), refused (429) past their rate."""
        token = request.cookies.get(seat_cookie(table.row.id))
        if server.hub().seat_of(table, token) is None:
            token = None
        found = asker_of(request, token)
        if not (self.by_address.take(found.address) and self.by_person.take(found.person)):
            raise Refused(N_("too many replays computed for you lately; wait a minute"), 429)
        return found


async def replays_of(request: Request) -> Replays:
    found: Replays = request.app.state.replays
    return found


ReplaysDep = Annotated[Replays, Depends(replays_of)]
router = APIRouter()


async def finished(server: Server, table_id: str, seat: int | None) -> LiveTable:
    """The table, if its game is finished and `seat` is one of its seats (or None)."""
    table = await server.hub().get(table_id)
    if table.row.status != "finished":
        raise Refused(N_("only a finished game can be replayed"))
    if seat is not None and not 0 <= seat < table.game.players:
        raise BadInput(said(N_("seat must be 0..{last}"), last=table.game.players - 1))
    return table


async def history(server: Server, table_id: str) -> list[tuple[int, dict[str, Any]]]:
    hub = server.hub()
    found: list[tuple[int, dict[str, Any]]] = await hub.db(hub.store.history, table_id)
    return found


async def worked(
    server: Server,
    request: Request,
    here: Replays,
    table: LiveTable,
    cache: Any,
    seat: int | None,
    job: Any,
    *head: Any,
) -> Any:
    """`job(game, *head, steps, seat)` run in the asker's share of the workers (a replay is
    costly work), kept per (table, seat) in `cache`."""
    key = (table.row.id, seat)
    found = cache.get(key)
    if found is None:
        who = here.asker(server, request, table)
        steps = await history(server, table.row.id)
        found = await server.hub().pool.run_for(who, "replay", job, table.game, *head, steps, seat)
        cache.keep(key, found, who.person)
    return found


@router.get("/api/tables/{table_id}/replay")
async def replay(
    table_id: str, request: Request, server: ServerDep, here: ReplaysDep, seat: int | None = None
) -> dict[str, Any]:
    table = await finished(server, table_id, seat)
    head = {
        "id": table.row.id,
        "options": table.row.options,
        "seed": table.row.seed,
        "seats": server.hub().public_table(table)["seats"],
    }
    found: dict[str, Any] = await worked(
        server, request, here, table, here.views, seat, step_views, head
    )
    return found


@router.get("/api/tables/{table_id}/replay/events")
async def replay_events(
    table_id: str, request: Request, server: ServerDep, here: ReplaysDep, seat: int | None = None
) -> dict[str, Any]:
    table = await finished(server, table_id, seat)
    events = await worked(
        server, request, here, table, here.events, seat, step_events, table.row.seed
    )
    return {"seat": seat, "events": events}
