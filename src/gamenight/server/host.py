"""What the parts of a live table's server need of their host (issue 44, item 2).

The parts (table_store, pipeline, scheduler, messages, seats, series, timers) are modules
of functions that take a `Host`: this protocol, defined below them, not the `Hub` class
above them. `tables.Hub` is the one-process host; `cluster.hub.ClusterHub` the host of a
process among several, which changes how an operation reaches the table's owner
(`run`), what a plan announces and how pages on other processes hear of a change.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from gamenight.server.db import SeatRow, Store
    from gamenight.server.live_table import Conn, Limits, LiveTable
    from gamenight.server.operations import Operation
    from gamenight.server.workers import WorkerPool

R = TypeVar("R")


class Host(Protocol):
    store: Store
    pool: WorkerPool
    limits: Limits
    idle_timeout: float
    live: dict[str, LiveTable]
    loading: dict[str, asyncio.Lock]  # a lock per table being loaded (table_store.get)
    sweeper: asyncio.Task[None] | None
    timings: collections.deque[float]  # seconds from an accepted action to its broadcast
    accepted: int
    on_finished: Callable[[LiveTable], Awaitable[None]] | None

    # the store, in the database thread (or the loop, where that is quicker)
    async def db(self, fn: Callable[..., Any], *args: Any) -> Any: ...
    async def store_action(
        self, table_id: str, n: int, seat: int, action: dict[str, Any], status: str
    ) -> None: ...
    async def store_finished(self, table_id: str) -> None: ...
    def spawn(self, job: Coroutine[Any, Any, None]) -> asyncio.Task[None]: ...

    # tables and their operations (operations.py), on the table's owner
    def owns(self, table: LiveTable) -> bool: ...  # this process runs its operations now
    async def get(self, table_id: str) -> LiveTable: ...
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
    ) -> tuple[LiveTable, str]: ...
    async def run(
        self, op: Operation[R], table: LiveTable, *args: Any, proof: str | None = None
    ) -> R: ...
    async def sweep(self) -> list[str]: ...

    # what follows a change: the next server-side step, and every page's message
    async def plan(self, table: LiveTable, broadcast: bool = False) -> None: ...
    async def broadcast(self, table: LiveTable) -> None: ...
    async def notify(self, table: LiveTable, msg: dict[str, Any]) -> None: ...
    async def send_to(self, table: LiveTable, conn: Conn) -> None: ...
    def public_table(self, table: LiveTable) -> dict[str, Any]: ...
    def message(
        self, table: LiveTable, conn: Conn, views: dict[int | None, Any]
    ) -> dict[str, Any]: ...
