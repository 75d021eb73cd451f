"""The tidy lobby (issue 14, item 6), like Board Game Arena's: your own tables first (marked
"your turn" when you must act), then tables to join or watch (a full table says "watch"),
while tables that never started leave the list after a while; finished games move to
"recent games" with their replay.

Which tables are yours comes from the seat and owner cookies the browser sends (one per
table, HttpOnly): nothing else identifies a guest. A signed-in person's tables also come
from their account, so another device of theirs lists them too ("play here").
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from gamenight.server.db import Store, tables, token_hash

if TYPE_CHECKING:
    from gamenight.server.tables import Hub, LiveTable

SEAT_PREFIX = "gn_seat_"
OWNER_PREFIX = "gn_owner_"
YOURS_MAX = 20  # of your own tables shown (the newest cookies' tables)
RECENT_MAX = 12


def open_seconds() -> float:
    """How long a table that never started stays in the list (GAMENIGHT_LOBBY_OPEN_SECONDS)."""
    try:
        return float(os.environ.get("GAMENIGHT_LOBBY_OPEN_SECONDS", "900"))
    except ValueError:
        return 900.0


def left_seconds() -> float:
    """How long a table stays listed after its last page closed
    (GAMENIGHT_LOBBY_LEFT_SECONDS): its creator or its people left."""
    try:
        return float(os.environ.get("GAMENIGHT_LOBBY_LEFT_SECONDS", "180"))
    except ValueError:
        return 180.0


def listable(table: LiveTable, now: float) -> bool:
    """Someone can join or watch it now (issue 45, item 5: a table whose people had all
    left stayed listed until the idle sweep, 30 minutes): someone's page is at it (here or,
    in a cluster, on another process), it is a bots' game to watch, or its last page
    closed only a few minutes ago."""
    if table.conns or any(table.elsewhere.values()) or table.all_bots:
        return True
    return now - table.idle_since < left_seconds()  # (a page reloading is not leaving)


def recent(store: Store, limit: int = RECENT_MAX) -> list[dict[str, Any]]:
    """The newest finished games (one query): game, when, and the replay's address."""
    query = (
        select(tables.c.id, tables.c.game, tables.c.updated)
        .where(tables.c.status == "finished")
        .order_by(tables.c.updated.desc(), tables.c.id)
        .limit(limit)
    )
    with store.engine.connect() as conn:
        return [
            {"id": r.id, "game": r.game, "ended": r.updated, "replay": f"/tables/{r.id}/replay"}
            for r in conn.execute(query)
        ]


def playing(store: Store, ids: list[str]) -> list[str]:
    """Which of `ids` are open or running (one query)."""
    if not ids:
        return []
    query = select(tables.c.id).where(
        tables.c.id.in_(ids), tables.c.status.in_(("open", "running"))
    )
    with store.engine.connect() as conn:
        return [r.id for r in conn.execute(query)]


def your_ids(cookies: Mapping[str, str]) -> list[str]:
    ids = []
    for key in cookies:
        for prefix in (SEAT_PREFIX, OWNER_PREFIX):
            if key.startswith(prefix) and key[len(prefix) :].isalnum():
                ids.append(key[len(prefix) :])
    return list(dict.fromkeys(ids))[-YOURS_MAX:]


def mark(
    hub: Hub,
    table: LiveTable,
    cookies: Mapping[str, str],
    info: dict[str, Any],
    elsewhere: bool = False,
) -> dict[str, Any]:
    """The lobby's words for one table: yours / your turn / join / watch / play here
    (`elsewhere`: the account's seat, played from another device)."""
    row = table.row
    seat = hub.seat_of(table, cookies.get(SEAT_PREFIX + row.id))
    owner = cookies.get(OWNER_PREFIX + row.id)
    mine = seat is not None or (owner is not None and token_hash(owner) == row.owner_hash)
    if elsewhere and seat is None:
        info.update({"mine": True, "your_turn": False, "action": "play here", "full": True})
        return info
    state = table.state
    your_turn = (
        seat is not None
        and row.status == "running"
        and state is not None
        and not state.over
        and seat in state.actors
    )
    full = all(s.kind != "open" for s in row.seats)
    if mine:
        action = "your turn" if your_turn else "play"
    elif row.status == "open" and not full:
        action = "join"
    else:
        action = "watch"
    info.update({"mine": mine, "your_turn": your_turn, "action": action, "full": full})
    return info


async def view(
    hub: Hub,
    cookies: Mapping[str, str],
    summary: Callable[[LiveTable], dict[str, Any]],
    account_seats: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """{"yours": [...], "tables": [...], "recent": [...]} for the lobby page;
    `account_seats`: table id -> the seat a signed-in person's account holds there."""
    now = time.time()
    stale = now - open_seconds()
    linked = dict(account_seats or {})
    yours = []
    ids = list(dict.fromkeys([*your_ids(cookies), *linked]))
    for tid in await hub.db(playing, hub.store, ids):
        try:
            table = await hub.get(tid)
        except Exception:
            continue  # an old cookie of a table gone or broken
        seat = linked.get(tid)
        elsewhere = seat is not None and table.seat_row(seat).kind == "person"
        if table.row.status in ("open", "running"):
            yours.append(mark(hub, table, cookies, summary(table), elsewhere))
    yours = [t for t in yours if t["mine"]]
    yours.sort(key=lambda t: (not t["your_turn"], t["status"] != "running"))
    mine = {t["id"] for t in yours}
    rows = await hub.db(hub.store.lobby, 50, 0)
    others = []
    for row in rows:
        if row.id in mine or (row.status == "open" and row.created < stale):
            continue  # yours are above; a table that never started leaves after a while
        live = hub.live.get(row.id)
        if live is None or not listable(live, now):
            continue  # not in play on this server (left before a restart), or nobody's
        others.append(mark(hub, live, cookies, summary(live)))
    return {"yours": yours, "tables": others, "recent": await hub.db(recent, hub.store)}
