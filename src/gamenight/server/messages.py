"""Messages: what each connection is sent, built per seat and queued per connection.

A broadcast builds every connection's message (one view per seat, shared by its pages)
and posts it to the connection's own queue; each connection's writer task sends its queue
in order. Nothing here waits on a socket, so the slowest page never sets the pace of the
others, and no message is lost or reordered for a page that keeps up (one that falls far
behind is dropped and re-syncs on reconnect: see `Conn`).
"""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Any

from gamenight.server import moments, rights, seats, series
from gamenight.server.live_table import (
    EVENTS_ON_CONNECT,
    MAX_ACTIONS_SENT,
    Conn,
    LiveTable,
    Refused,
)
from gamenight.server.operations import START, TAKE_BACK

if TYPE_CHECKING:
    from gamenight.engine.core import State
    from gamenight.server.host import Host


def public_table(table: LiveTable) -> dict[str, Any]:
    """The table as everyone may see it: game, status, settings, seats and spectators."""
    row = table.row
    standing = series.standing(table)
    return {
        **({"series": standing} if standing else {}),  # a rematch's tables only
        "id": row.id,
        "game": row.game,
        "options": row.options,
        "status": row.status,
        "settings": row.settings,
        "players": table.game.players,
        "rematch_of": row.rematch_of,
        # a practice table's seed is everyone's to know (every hand follows from it)
        "practice": {"seed": row.seed} if row.settings.get("practice") else None,
        "spectators": seats.spectators(table.conns),
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                # taken while signed in (accounts.account_seats): not a guest's name
                "account": s.seat in getattr(table, "account_seats", ()),
                "connected": s.kind == "bot" or table.present(s.seat),
                "stand_in": seats.stand_in(s),  # "bot playing for Bob"
                # away: when a bot takes over for them (epoch seconds), else None
                "bot_at": None
                if seats.stand_in(s) or table.present(s.seat)
                else table.bot_at.get(s.seat),
            }
            for s in row.seats
        ],
    }


PUBLIC_TABLE = -1  # the key of the table's public part in a broadcast's cache of views


def message(
    hub: Host, table: LiveTable, conn: Conn, views: dict[int | None, Any]
) -> dict[str, Any]:
    """The "state" message for `conn`: its seat's view, the events since its last message,
    its legal actions; `views` caches one view per seat across a broadcast."""
    state = table.state
    seat = conn.seat
    if PUBLIC_TABLE not in views:  # built once per broadcast, not once per connection
        views[PUBLIC_TABLE] = hub.public_table(table)
    msg: dict[str, Any] = {
        "type": "state",
        "version": table.version,
        "seat": seat,
        "table": views[PUBLIC_TABLE],
        "deadline": table.deadline,
        "deadline_seat": table.deadline_seat,
        "now": time.time(),
    }
    moment = moments.to_json(table)
    if moment is not None:
        msg["moment"] = moment
    if table.window is not None and table.window.holds:  # who asked to wait (public)
        msg["holds"] = sorted(table.window.holds)
    if state is None:
        return msg
    if seat not in views:
        views[seat] = state.view(seat)
    msg["view"] = views[seat]
    msg["events"], msg["events_from"] = _fresh_events(state, conn)
    if seat is not None:
        legal = state.actions(seat) if seat in state.actors else []
        msg["actions"] = [a.to_json() for a in legal] if len(legal) <= MAX_ACTIONS_SENT else None
        msg["asked"] = seat in state.actors and seat == state.actors[0]
        row = table.seat_row(seat)
        msg["you"] = {"auto_pass": row.auto_pass, "pass_ahead": seat in table.pass_ahead}
        turn = (table.pass_turn or {}).get(seat)
        if turn is not None and turn == state.turn_key():
            msg["you"]["pass_turn"] = True
    if state.over:
        msg["outcome"] = state.outcome().to_json()
    return msg


def _fresh_events(state: State, conn: Conn) -> tuple[list[dict[str, Any]], int]:
    """The events of the connection's seat it has not been sent (the last few on a first
    message), and the index of the first in the seat's stream."""
    seat = conn.seat
    log = state.log  # the events since the last message, without re-filtering all
    if conn.log_pos < 0 or conn.log_pos > len(log):
        events = state.events(seat)
        start = max(0, len(events) - EVENTS_ON_CONNECT)
        fresh = events[start:]
        conn.events_sent = len(events)
    else:
        fresh = [e for e in log[conn.log_pos :] if e.visible_to(seat)]
        start = conn.events_sent
        conn.events_sent += len(fresh)
    conn.log_pos = len(log)
    return [e.to_json() for e in fresh], start


def broadcast(hub: Host, table: LiveTable) -> None:
    """Every connection its own message, queued (never awaited). The seat that made the
    last move is sent its answer first: each socket write wakes a reader (on a two-core
    machine, another process), and the one who acted is the one waiting."""
    rights.refresh(table)  # no page is sent a view of a seat it no longer holds
    views: dict[int | None, Any] = {}
    state = table.state
    last = state.history[-1][0] if state is not None and state.history else None
    for conn in sorted(table.conns, key=lambda c: c.seat != last):
        msg = hub.message(table, conn, views)
        with contextlib.suppress(Exception):
            conn.post(msg)


def notify(table: LiveTable, msg: dict[str, Any]) -> None:
    """The same message to every connection, queued."""
    for conn in list(table.conns):
        with contextlib.suppress(Exception):
            conn.post(msg)


async def attach(hub: Host, table: LiveTable, conn: Conn) -> None:

    table.conns.add(conn)
    table.idle_since = time.time()
    if conn.seat is not None:
        # back before the bot took over; or while it is being seated (its countdown ran
        # out and the seat is being stored): take_back waits for the table's lock, so it
        # sees that bot and sends it away
        counting = table.bot_at.pop(conn.seat, None) is not None
        if counting or seats.stand_in(table.seat_row(conn.seat)):
            back = _take_back(hub, table, conn.seat)  # back: the bot leaves the seat
            if hub.owns(table):
                await back
            else:  # on the owner, which may be dead (after a restart): the page is not
                hub.spawn(back)  # kept waiting for its lease to run out
    if watcher(conn):  # a watcher's arrival is sent to the watcher only (issue 43, item 5):
        await hub.send_to(table, conn)  # the others see the list at the next change
        return
    await hub.broadcast(table)
    if alone_with_bots(table, conn.seat):
        hub.spawn(_start(hub, table))


def alone_with_bots(table: LiveTable, seat: int | None) -> bool:
    """`seat` is the only person at an open table whose other seats are all bots: their
    page's arrival starts the game (issue 45, item 5), as a game against bots starts on
    Board Game Arena; there is nobody else to wait for."""
    if seat is None or table.row.status != "open":
        return False
    kinds = [s.kind for s in table.row.seats]
    return (
        kinds.count("person") == 1
        and kinds.count("bot") == len(kinds) - 1
        and (table.seat_row(seat).kind == "person")
    )


async def _start(hub: Host, table: LiveTable) -> None:
    with contextlib.suppress(Refused):  # (started meanwhile, a series still waiting, ...)
        await hub.run(START, table)


async def detach(hub: Host, table: LiveTable, conn: Conn) -> None:
    table.conns.discard(conn)
    if not any(c.seat is not None for c in table.conns):
        table.idle_since = time.time()
    if conn.seat is not None and not table.connected(conn.seat):
        seats.watch_leaver(hub, table, conn.seat)
    if table.moment is not None and not moments.holding(table):
        await hub.plan(table, broadcast=True)  # the one who left no longer holds it
        return
    if not watcher(conn):  # nobody is sent a message because a watcher left
        await hub.broadcast(table)


async def _take_back(hub: Host, table: LiveTable, seat: int) -> None:
    with contextlib.suppress(Refused):
        await hub.run(TAKE_BACK, table, seat)


def watcher(conn: Conn) -> bool:
    """A page that holds no seat, not even a shared screen's: its coming and going is
    nobody else's message."""
    return conn.seat is None and not conn.holds
