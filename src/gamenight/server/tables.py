"""Live tables: the server-side state of every table and the `Hub` that runs them.

The hub is a facade over four parts, each a module of functions that take the hub:
  table_store.py  load, restore, create and save live tables (seats, start, sweeping)
  pipeline.py     the one place an action is accepted: check, store, apply in place (a
                  heavy game: applied on a copy in the worker pool, stored, swapped in), then
                  plan and broadcast
  scheduler.py    what happens without a person after every change: a bot move, a pass
                  asked for, the reaction countdown, a turn timer, the hold of a round's
                  moment (moments.py), the cap of a table of only bots
  messages.py     each connection's own view, queued per connection (never awaited)
Subclasses (the cluster's ClusterHub) override the hub's methods; the parts always call
back through the hub, so an override applies wherever the step is used.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

from gamenight.server import messages, rights, scheduler, table_store
from gamenight.server.db import Quota, SeatRow, Store
from gamenight.server.live_table import (
    CHECKPOINT_EVERY,
    EVENTS_ON_CONNECT,
    MAX_ACTIONS_SENT,
    PASS_DWELL,
    REACTION_SECONDS,
    Conn,
    Limits,
    LiveTable,
    Refused,
)
from gamenight.server.operations import SEAT_OPERATIONS, Operation
from gamenight.server.workers import WorkerPool

log = logging.getLogger("gamenight.server")
R = TypeVar("R")

INLINE_MODES = {"actions": "actions", "none": "none", "all": "all", "0": "none", "1": "all"}
INLINE_SLOW = 0.010  # seconds: INLINE_SLOW_TIMES stores in the event loop slower than this
INLINE_SLOW_TIMES = 3  # within INLINE_SLOW_WINDOW seconds (one alone is the machine taking
INLINE_SLOW_WINDOW = 30.0  # the core away, not the disk) ...
INLINE_PAUSE = 60.0  # ... send every store to the database thread for this long

__all__ = [
    "CHECKPOINT_EVERY",
    "EVENTS_ON_CONNECT",
    "MAX_ACTIONS_SENT",
    "PASS_DWELL",
    "REACTION_SECONDS",
    "Conn",
    "Hub",
    "Limits",
    "LiveTable",
    "Refused",
]


class Hub:
    """Every live table of one server, the store and the worker pools."""

    def __init__(
        self,
        store: Store,
        pool: WorkerPool,
        db_pool: Executor,
        *,
        idle_timeout: float = 1800.0,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.pool = pool
        self.db_pool = db_pool
        self.idle_timeout = idle_timeout
        self.limits = limits or Limits()
        # Database work runs in the database thread: a stalled disk must not freeze the
        # event loop. An action is stored in the loop when SQLite can take it at once (see
        # store_action). GAMENIGHT_INLINE_DB: "actions" (default), "none" (every call in
        # the thread) or "all" (every SQLite call in the loop, for measurements).
        asked = os.environ.get("GAMENIGHT_INLINE_DB", "actions")
        mode = INLINE_MODES.get(asked, "actions")
        if asked not in INLINE_MODES:
            log.warning("GAMENIGHT_INLINE_DB=%r is not actions, none or all: using actions", asked)
        sqlite = store.engine.dialect.name == "sqlite"
        self.inline_db = sqlite and mode == "all"
        self.inline_actions = sqlite and mode != "none"
        self.inline_paused_until = 0.0  # monotonic; see store_action
        self.inline_slow: collections.deque[float] = collections.deque()  # when, monotonic
        if self.inline_actions:  # connected now, so the first store times the write alone
            store.open_now()
        self.live: dict[str, LiveTable] = {}
        self.loading: dict[str, asyncio.Lock] = {}
        self.sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        # Seconds from taking an accepted action to having queued its broadcast (metrics),
        # of the last 10,000 actions: enough for a p99, and 0.3 MB, not 3 MB, when full;
        # and how many actions were accepted since the start.
        self.timings: collections.deque[float] = collections.deque(maxlen=10_000)
        self.accepted = 0
        # Awaited with a table whose game has just finished, before its last broadcast
        # (the accounts start rating it in the database thread; a profile read in this
        # process waits for ratings in flight, so it shows the game just played).
        self.on_finished: Callable[[LiveTable], Awaitable[None]] | None = None
        # What to do when another process says a table's chat (or the like) changed.
        self.relays: dict[str, Callable[[LiveTable], Awaitable[None]]] = {}
        # Queue an event for a bot account's programs listening here (programs.Programs.tell,
        # set by the app); False: none listens on this process.
        self.programs_here: Callable[[int, dict[str, Any]], bool] | None = None

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a store call in the database thread (inline only when asked for)."""
        if self.inline_db:
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, fn, *args)

    async def store_action(
        self, table_id: str, n: int, seat: int, action: dict[str, Any], status: str
    ) -> None:
        """Store one accepted action (Store.append_action). In the event loop when SQLite
        can take it without waiting: the trip to the database thread and back cost more
        than the write (0.3 ms at the median, 1-4 ms at p99 on an idle two-core VM, where
        each hop wakes a sleeping core; the write is ~30 us into the page cache). When
        another connection holds the write lock it goes to the thread; when a write in the
        loop was slow anyway (a disk so busy the page cache blocks), every write goes to
        the thread for INLINE_PAUSE seconds."""
        if self._stored_now(self.store.append_action_now, table_id, n, seat, action, status):
            return
        await self.db(self.store.append_action, table_id, n, seat, action, status)

    async def store_finished(self, table_id: str) -> None:
        """Store that the table's game is over, in the event loop as store_action does (its
        last action was stored as running; see pipeline.act)."""
        if self._stored_now(self.store.set_status_now, table_id, "finished"):
            return
        await self.db(self.store.set_status, table_id, "finished")

    def _stored_now(self, write_now: Callable[..., bool], *args: Any) -> bool:
        """A store in the event loop, unless it would wait or writes there are paused."""
        if not self.inline_actions or time.monotonic() < self.inline_paused_until:
            return False
        start = time.perf_counter()
        stored = write_now(*args)
        took = time.perf_counter() - start
        if took > INLINE_SLOW:
            self._slow_store(took)
        return stored

    def _slow_store(self, took: float) -> None:
        now = time.monotonic()
        slow = self.inline_slow
        slow.append(now)
        while slow and slow[0] < now - INLINE_SLOW_WINDOW:
            slow.popleft()
        if len(slow) >= INLINE_SLOW_TIMES:
            slow.clear()
            self.inline_paused_until = now + INLINE_PAUSE
            log.warning(
                "%d stores of an action in the event loop took over %.0f ms within %.0f s "
                "(the last %.0f ms); storing in the database thread for %.0f s",
                INLINE_SLOW_TIMES,
                INLINE_SLOW * 1000,
                INLINE_SLOW_WINDOW,
                took * 1000,
                INLINE_PAUSE,
            )

    def spawn(self, job: Any) -> asyncio.Task[None]:
        """Run a coroutine in the background, kept until it ends."""
        task: asyncio.Task[None] = asyncio.create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- the table store (table_store.py) -------------------------------------------------
    async def restore(self) -> int:
        return await table_store.restore(self)

    async def get(self, table_id: str) -> LiveTable:
        return await table_store.get(self, table_id)

    async def create(
        self,
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
        return await table_store.create(
            self,
            game_name,
            options,
            seat_specs,
            settings,
            seed=seed,
            rematch_of=rematch_of,
            owner_hash=owner_hash,
            seated=seated,
            quota=quota,
        )

    # -- table operations (operations.py) ----------------------------------------------------
    async def run(
        self, op: Operation[R], table: LiveTable, *args: Any, proof: str | None = None
    ) -> R:
        """Run a table operation here, as the table's owner. `proof`: the hash of the
        seat token of the page that asks for a seat's operation (None: the server's own
        bots and timers), checked against the seat rows here."""
        if op in SEAT_OPERATIONS:
            rights.vouch(table, args[0], proof)
        return await op.implementation()(self, table, *args)

    def owns(self, table: LiveTable) -> bool:
        """Does this process run the table's operations now? (One process: always.)"""
        return True

    async def reread_seats(self, table: LiveTable) -> None:
        """Read the table's seat rows from the store again (one process: its rows are the
        store's own, so nothing to do; the cluster reads them on a follower)."""

    def seat_of(self, table: LiveTable, token: str | None) -> int | None:
        return table_store.seat_of(table, token)

    async def sweep(self) -> list[str]:
        return await table_store.sweep(self)

    async def run_sweeper(self, every: float) -> None:
        await table_store.run_sweeper(self, every)

    async def close(self) -> None:
        table_store.close(self)

    # -- the scheduler (scheduler.py) ---------------------------------------------------------
    async def plan(self, table: LiveTable, broadcast: bool = False) -> None:
        """Schedule the next server-side move (bot, automatic pass, timer)."""
        await scheduler.plan(self, table, broadcast)

    async def seen(self, table: LiveTable, conn: Conn, version: Any) -> None:
        """A page has shown the table at `version` (it may release a round's moment)."""
        await scheduler.seen(self, table, conn, version)

    # -- messages (messages.py) -------------------------------------------------------------
    def public_table(self, table: LiveTable) -> dict[str, Any]:
        return messages.public_table(table)

    def message(self, table: LiveTable, conn: Conn, views: dict[int | None, Any]) -> dict[str, Any]:
        return messages.message(self, table, conn, views)

    async def send_to(self, table: LiveTable, conn: Conn) -> None:
        rights.derive(table, conn)  # a view only of the seat it holds now
        conn.post(self.message(table, conn, {}))

    async def sync(self, table: LiveTable, conn: Conn) -> None:
        """A page asks for the table as it is now (after a refused, raced action)."""
        await self.send_to(table, conn)

    async def broadcast(self, table: LiveTable) -> None:
        messages.broadcast(self, table)

    async def notify(self, table: LiveTable, msg: dict[str, Any]) -> None:
        messages.notify(table, msg)

    async def attach(self, table: LiveTable, conn: Conn) -> None:
        await messages.attach(self, table, conn)

    async def detach(self, table: LiveTable, conn: Conn) -> None:
        await messages.detach(self, table, conn)

    async def tell_program(self, account_id: int, event: dict[str, Any]) -> bool:
        """Queue `event` (a challenge) for the bot account's listening programs, wherever
        they listen; False: none listens. One process: only its own listeners."""
        return self.programs_here is not None and self.programs_here(account_id, event)

    async def relay(self, table: LiveTable, kind: str) -> None:
        """Tell the other processes that share tables that `kind` (a key of their
        `relays`) changed at `table`; one process has nobody to tell."""
