"""The table store: live tables loaded, restored, created and saved.

A table lives in memory (`hub.live`) while it is open, running or watched, and in the
database always. This module loads it (replaying its stored actions), restores every
running table after a restart, creates new ones, saves changes of its seats and status
(join, start, seat changes, "always pass"), and sweeps tables nobody is at.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gamenight.bots import is_quick
from gamenight.engine.core import BadInput, said
from gamenight.engine.registry import load
from gamenight.engine.registry import spec as game_spec
from gamenight.i18n import N_
from gamenight.server import rights, seats, series
from gamenight.server.db import Quota, SeatRow, TableRow, token_hash
from gamenight.server.live_table import CHECKPOINT_EVERY, LiveTable, Refused, status_word

if TYPE_CHECKING:
    from gamenight.server.host import Host

log = logging.getLogger("gamenight.server")


# -- loading and restoring ------------------------------------------------------------------
async def restore(hub: Host) -> int:
    """Replay every running table from the database (after a restart)."""
    rows = await hub.db(hub.store.tables_with_status, "running")
    for row in rows:
        try:
            await hub.get(row.id)
        except Exception:  # one broken table must not stop the server
            log.exception("could not restore table %s", row.id)
    return len(rows)


async def get(hub: Host, table_id: str) -> LiveTable:
    """The live table, loaded from the database the first time (once, however many ask)."""
    table = hub.live.get(table_id)
    if table is not None:
        return table
    lock = hub.loading.setdefault(table_id, asyncio.Lock())
    async with lock:
        table = hub.live.get(table_id)
        if table is not None:
            return table
        table = await _load(hub, table_id)
        hub.live[table_id] = table
        if table.row.status == "running":
            _prepare_workers(hub, table)
            await hub.plan(table)
            seats.watch_all(hub, table)
        return table


def _prepare_workers(hub: Host, table: LiveTable) -> None:
    """Warm the worker processes for a table that will use them: a heavy game, or a bot
    that thinks (a quick bot moves in the event loop, scheduler.bot_move)."""
    game = table.game
    if game_spec(game.name).heavy or any(
        s.kind == "bot" and not is_quick(s.bot or "bot", game) for s in table.row.seats
    ):
        hub.pool.prepare()


async def _load(hub: Host, table_id: str) -> LiveTable:
    row = await hub.db(hub.store.table, table_id)
    if row is None:
        raise Refused(N_("no table {table}"), 404, table=repr(table_id))
    game = load(row.game, **row.options)
    table = LiveTable(row, game)
    if row.status in ("running", "finished", "abandoned") and row.version >= 0:
        history = await hub.db(hub.store.history, table_id)
        if history or row.status != "abandoned":
            steps = [(seat, game.action_from_json(a)) for seat, a in history]
            if game_spec(row.game).heavy:
                table.state = await hub.pool.run(game.replay, row.seed, steps)
            else:
                table.state = game.replay(row.seed, steps)
    if row.status == "running" and table.state is not None and table.state.over:
        # the last action was stored but not yet the status (pipeline: a crash between)
        row.status = "finished"
        await hub.db(hub.store.set_status, row.id, "finished")
    return table


# -- creating and seating -------------------------------------------------------------------
def _seat_rows(game: Any, seat_specs: list[str]) -> list[SeatRow]:
    """A seat per spec: "open" (or "" / "person") or a bot ("easy", "bot:hard", ...)."""
    from gamenight.bots import LEVELS

    rows = []
    for i, text in enumerate(seat_specs):
        text = str(text).strip()
        if text in ("open", "", "person"):
            rows.append(SeatRow(i, "open"))
            continue
        bot = text if text.startswith("bot") else f"bot:{text}"
        level = bot.removeprefix("bot:")
        if level not in LEVELS and bot != "bot":
            from gamenight.bots import make_seat

            make_seat(bot, game, 0, bounded=True)  # BadInput: a bad bot or parameter
        rows.append(SeatRow(i, "bot", name=f"Bot {i + 1} ({level})", bot=bot))
    return rows


async def create(
    hub: Host,
    game_name: str,
    options: dict[str, Any],
    seat_specs: list[str],
    settings: dict[str, Any],
    *,
    seed: int | None = None,
    rematch_of: str | None = None,
    owner_hash: str | None = None,
    seated: dict[int, SeatRow] | None = None,
    quota: Quota | None = None,
) -> tuple[LiveTable, str]:
    """A new open table; returns it and the owner's secret token ("" when the owner of an
    earlier table of the series, `owner_hash`, owns it). `seated` replaces the rows of
    those seats (a rematch's people and bots), stored with the table in one transaction;
    `quota`: its bots search, and its maker may have only so many such tables (QuotaFull)."""
    game = load(game_name, **options)  # BadInput names a bad option
    if len(seat_specs) != game.players:
        raise BadInput(
            said(
                N_("{game} with these options has {seats} seats; {given} seat settings were given"),
                game=game_name,
                seats=game.players,
                given=len(seat_specs),
            )
        )
    rows = [(seated or {}).get(i, r) for i, r in enumerate(_seat_rows(game, seat_specs))]
    owner = secrets.token_urlsafe(24)
    now = time.time()
    row = TableRow(
        id=secrets.token_urlsafe(6).replace("-", "x").replace("_", "y"),
        game=game_name,
        options=dict(options),
        seed=seed if seed is not None else secrets.randbelow(2**53),
        status="open",
        settings=settings,
        owner_hash=owner_hash or token_hash(owner),
        version=0,
        created=now,
        updated=now,
        rematch_of=rematch_of,
        seats=rows,
    )
    await hub.db(hub.store.create_table, row, quota)
    table = LiveTable(row, game)
    hub.live[row.id] = table
    return table, "" if owner_hash else owner


async def join(hub: Host, table: LiveTable, seat: int, name: str, token: str | None) -> str:
    """Sit a person at an open seat; returns the seat's secret token."""
    name = " ".join(name.split())[:40]
    if not name:
        raise Refused(N_("a display name is needed to take a seat"), 400)
    async with table.lock:
        if not 0 <= seat < len(table.row.seats):
            raise Refused(  # seats as the pages number them, from 1
                N_("seat {seat} does not exist; seats 1..{last}"),
                seat=seat + 1,
                last=len(table.row.seats),
            )
        if table.row.status != "open":
            raise Refused(
                N_("the table is {state}; seats can be taken only before"),
                state=status_word(table.row.status),
            )
        s = table.seat_row(seat)
        if s.kind != "open":
            raise Refused(N_("seat {seat} is taken ({name})"), seat=seat + 1, name=s.name)
        if token and any(x.token_hash == token_hash(token) for x in table.row.seats):
            raise Refused(N_("you already have a seat at this table"))
        token = secrets.token_urlsafe(24)
        new = SeatRow(seat, "person", name, None, token_hash(token), False)
        await hub.db(hub.store.update_seat, table.row.id, new)
        table.row.seats[seat] = new
    await hub.broadcast(table)
    return token


async def reclaim(hub: Host, table: LiveTable, seat: int) -> str:
    """The person of `seat` plays it from another device: a new secret token for the seat.
    The old one no longer holds it: its open pages only watch from now on."""
    async with table.lock:
        s = table.seat_row(seat)
        if s.kind != "person":
            raise Refused(N_("your seat at this table is played by a bot now"))
        token = secrets.token_urlsafe(24)
        new = replace(s, token_hash=token_hash(token))
        await hub.db(hub.store.update_seat, table.row.id, new)
        table.row.seats[seat] = new
        rights.refresh(table)  # the old device's pages here now watch
    await hub.broadcast(table)
    return token


async def start(hub: Host, table: LiveTable) -> None:
    async with table.lock:
        if table.row.status != "open":
            raise Refused(N_("the table is already {state}"), state=status_word(table.row.status))
        empty = [s.seat for s in table.row.seats if s.kind == "open"]
        if empty:
            raise Refused(
                N_("seat(s) {seats} are still open: fill them with people or bots"),
                seats=", ".join(str(s + 1) for s in empty),
            )
        waiting = series.start_refusal(table)
        if waiting is not None:
            raise waiting
        if table.all_bots:
            running = sum(1 for t in hub.live.values() if t.all_bots and t.row.status == "running")
            if running >= hub.limits.bot_tables:
                raise Refused(
                    N_(
                        "this server runs at most {tables} tables of only bots at once; try "
                        "again when one has finished"
                    ),
                    429,
                    tables=hub.limits.bot_tables,
                )
        table.started_at = time.monotonic()
        table.state = table.game.start(table.row.seed)
        await hub.db(hub.store.set_status, table.row.id, "running")
        table.row.status = "running"
    _prepare_workers(hub, table)
    await hub.plan(table, broadcast=True)  # one message: the game and its first clock


async def set_seat(hub: Host, table: LiveTable, seat: int, to: str) -> None:
    """The owner's change of a seat (see seats.arrange), then the table plans and shows it."""
    async with table.lock:
        await seats.arrange(hub, table, seat, to)
    await hub.plan(table, broadcast=True)


async def take_back(hub: Host, table: LiveTable, seat: int) -> None:
    """The person of `seat` is back: the bot sitting in for them leaves."""
    async with table.lock:
        changed = await seats.take_back(hub, table, seat)
    if changed:
        await hub.plan(table, broadcast=True)


def seat_of(table: LiveTable, token: str | None) -> int | None:
    """The seat whose secret `token` is, or None."""
    if not token:
        return None
    h = token_hash(token)
    for s in table.row.seats:
        if (
            s.kind == "person"
            and s.token_hash is not None
            and secrets.compare_digest(s.token_hash, h)
        ):
            return s.seat
    return None


async def set_auto_pass(hub: Host, table: LiveTable, seat: int, on: bool) -> None:
    async with table.lock:
        if table.row.status != "running":
            raise Refused(
                N_("the table is {state}; nothing can be changed"),
                state=status_word(table.row.status),
            )
        s = table.seat_row(seat)
        new = SeatRow(s.seat, s.kind, s.name, s.bot, s.token_hash, bool(on))
        await hub.db(hub.store.update_seat, table.row.id, new)
        table.row.seats[seat] = new
    await hub.plan(table)


# -- idle tables ----------------------------------------------------------------------------
async def sweep(hub: Host) -> list[str]:
    """Abandon tables nobody has been at for `idle_timeout` seconds; forget old ones."""
    now = time.time()
    gone = []
    for table in list(hub.live.values()):
        people = any(c.seat is not None for c in table.conns)
        status = table.row.status
        idle = now - max(table.idle_since, table.row.updated) > hub.idle_timeout
        if status in ("open", "running") and not people and idle:
            async with table.lock:
                await hub.db(hub.store.set_status, table.row.id, "abandoned")
                table.row.status = "abandoned"
            if table.timer:
                table.timer.cancel()
            await hub.notify(table, {"type": "closed", "reason": "the table timed out"})
            await hub.broadcast(table)
            gone.append(table.row.id)
        if table.row.status in ("finished", "abandoned") and not table.conns:
            hub.live.pop(table.row.id, None)
    # Tables left open before a restart are in the database only.
    stale = await hub.db(hub.store.stale_open, now - hub.idle_timeout)
    stale = [t for t in stale if t not in hub.live]
    if stale:
        await hub.db(hub.store.abandon, stale)
        gone.extend(stale)
    return gone


async def run_sweeper(hub: Host, every: float) -> None:
    # Checkpoints run in a thread of their own, not the database thread: a checkpoint syncs
    # the file (milliseconds), and actions stored meanwhile would queue behind it (at 100
    # live tables about one action in fifty did). SQLite's write-ahead log lets a writer
    # and a passive checkpoint run at once.
    # The sweep runs every `every` seconds, not at every checkpoint: its query goes to the
    # database thread, whose Python can hold the GIL while an action is being stored.
    checkpoints = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gamenight-checkpoint")
    last_checkpoint = last_sweep = time.monotonic()
    try:
        while True:
            await asyncio.sleep(min(every, CHECKPOINT_EVERY))
            try:
                if time.monotonic() - last_checkpoint >= CHECKPOINT_EVERY:
                    last_checkpoint = time.monotonic()
                    loop = asyncio.get_running_loop()
                    await loop.run_in_executor(checkpoints, hub.store.checkpoint)
                hub.pool.heal()
                if time.monotonic() - last_sweep >= every:
                    last_sweep = time.monotonic()
                    await hub.sweep()
            except Exception:
                log.exception("sweeping tables failed")
    finally:
        checkpoints.shutdown(wait=False)


def close(hub: Host) -> None:
    for table in hub.live.values():
        for task in (table.timer, table.bot_task):
            if task is not None:
                task.cancel()
        if table.moment is not None and table.moment.timer is not None:
            table.moment.timer.cancel()
    if hub.sweeper is not None:
        hub.sweeper.cancel()
