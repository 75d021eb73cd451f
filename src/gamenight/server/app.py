"""The FastAPI app, assembled from its routers (one module per room of the server):

  pages.py           the lobby, table and replay pages and /static
  ops.py             /api/health, /api/metrics and the echo socket (the load anchor)
  accounts/          accounts, sessions, profiles and the leaderboard (routes.py)
  routes/lobby.py    /api/games, /api/lobby, /api/tables (list, create), page data
  routes/tables.py   /api/tables/{id}: read, join, start, seats, decline, rematch
  routes/replay.py   /api/tables/{id}/replay and .../replay/events
  routes/live.py     the table's WebSocket /ws/tables/{id}
  chat.py, shared.py, coach.py: a table's chat, shared screen and coach

Routes are module-level functions on module-level routers; they reach the running parts
through `routes.common.ServerDep` (`app.state.server`), and a room's own per-app state
through `app.state` (`lobby.Lobby`, `replay.Replays`).

Every bad input is refused with a one-line reason (JSON {"error": ...}), never a 500; see
the "Security" section of README.md for the limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, FastAPI, WebSocket
from sqlalchemy import Engine
from starlette.routing import Match, WebSocketRoute

from gamenight.engine.core import Outcome
from gamenight.server import chat, coach, language, names, ops, pages, shared, workers
from gamenight.server.accounts import Accounts
from gamenight.server.accounts.routes import router as accounts_router
from gamenight.server.db import Store, TableRow, connect, disconnect
from gamenight.server.guard import Guard, HostCheck, Receive, Scope, Send, host_header
from gamenight.server.limits import Rates
from gamenight.server.live_table import LiveTable
from gamenight.server.programs import Programs
from gamenight.server.routes import admin, bots, learn, live, lobby, replay, rules, tables
from gamenight.server.routes.common import (
    MAX_BODY,
    Server,
    owner_cookie,
    refuse_cleanly,
    seat_cookie,
)
from gamenight.server.run import serve
from gamenight.server.tables import Hub, Limits

__all__ = ["create_app", "owner_cookie", "seat_cookie", "serve"]
log = logging.getLogger("gamenight.server")


class App(FastAPI):
    """FastAPI, with its plain WebSocket routes (a table's socket, the echo) called straight
    from the ASGI entry after `Guard`'s host check. Starlette's middleware and router stay
    suspended under a socket for its whole life: they held 8.5 KB per open socket (the echo
    socket: 31.0 KB a socket through them, 22.5 KB without, 1,000 sockets under uvicorn),
    a tenth of what a live table may cost, and every message sent passed through them."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.hosts = HostCheck()
        self.sockets: list[WebSocketRoute] = []

    def include_router(self, router: APIRouter, **kwargs: Any) -> None:
        """Include `router`; its plain WebSocket routes are also served by the short way
        (only without a prefix, the one way this app includes routers)."""
        if not kwargs.get("prefix"):
            self.sockets.extend(r for r in router.routes if isinstance(r, WebSocketRoute))
        super().include_router(router, **kwargs)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            for route in self.sockets:
                match, child = route.matches(scope)
                if match is Match.FULL:
                    if not self.hosts.allows(host_header(scope)):
                        log.warning("refused a socket for host %r", host_header(scope))
                        await send({"type": "websocket.close", "code": 4400})
                        return
                    scope.update(child, app=self)
                    await route.endpoint(WebSocket(scope, receive, send))
                    return
        await super().__call__(scope, receive, send)


@dataclass(frozen=True)
class Setup:
    """How the app's server runs (the arguments of `create_app`)."""

    db_url: str | Engine | None
    pool: str
    workers_n: int | None
    idle_timeout: float
    sweep_every: float
    limits: Limits | None
    redis_url: str | None


class Rater:
    """Rates every finished game once: in the database thread, one table at a time, from
    the live game's outcome, and not before the game's last broadcast (a profile read waits
    for it). A pass over every unrated table per finish, each in a thread of its own, raced
    the others to the same tables, and the last move's broadcast waited for it."""

    def __init__(self, hub: Hub, accounts: Accounts) -> None:
        self.hub = hub
        self.accounts = accounts

    async def rate(self, table: LiveTable | None = None) -> None:
        """`table`'s game, just finished; None: the games that finished before a restart."""
        if table is None:
            await self.hub.db(self.accounts.rate_finished, self.hub.store)
            return
        state = table.state
        outcome = state.outcome() if state is not None and state.over else None
        self.accounts.rating_started(self.hub.spawn(self.rate_one(table.row, outcome)))

    async def rate_one(self, row: TableRow, outcome: Outcome | None) -> None:
        try:
            await self.hub.db(self.accounts.rate_table, self.hub.store, row.id, outcome, row)
        except Exception:  # a rating must never undo or hide the game's end
            log.exception("rating table %s failed", row.id)


async def start_hub(
    setup: Setup, engine: Engine
) -> tuple[Hub, workers.WorkerPool, ThreadPoolExecutor]:
    """The hub on `engine`, with its worker pool and database thread (a cluster's hub with
    `redis_url`: gamenight.server.cluster)."""
    n = setup.workers_n or max(1, min(4, os.cpu_count() or 1))
    work = workers.WorkerPool(lambda: workers.make_pool(setup.pool, n), workers_n=n)
    db_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gamenight-db")
    if setup.redis_url:
        from gamenight.server.cluster import make_hub

        hub = await make_hub(
            engine, work, db_pool, setup.redis_url, setup.idle_timeout, limits=setup.limits
        )
    else:
        hub = Hub(
            Store(engine), work, db_pool, idle_timeout=setup.idle_timeout, limits=setup.limits
        )
    return hub, work, db_pool


@contextlib.asynccontextmanager
async def running(server: Server, setup: Setup, table_chat: chat.Chat) -> AsyncIterator[None]:
    """The app's life: the hub and accounts on the database, the games that finished
    before a restart rated, the running tables restored, the sweeper; then all closed."""
    engine = setup.db_url if isinstance(setup.db_url, Engine) else connect(setup.db_url)
    hub, work, db_pool = await start_hub(setup, engine)
    server.holder["hub"] = hub
    server.holder["accounts"] = accounts = Accounts(engine)
    server.holder["programs"] = programs = Programs(engine)
    hub.programs_here = programs.tell  # a challenge reaches a program on any process
    rater = Rater(hub, accounts)
    hub.on_finished = rater.rate
    hub.relays["chat"] = table_chat.heard  # a line written on another process
    try:
        await rater.rate()  # games that finished before a restart
        restored = await hub.restore()
        if restored:
            log.warning("restored %d running table(s) from the database", restored)
        hub.sweeper = asyncio.create_task(hub.run_sweeper(setup.sweep_every))
        yield
    finally:
        await hub.close()
        work.shutdown()
        db_pool.shutdown(wait=True)
        disconnect(engine)


def create_app(
    db_url: str | Engine | None = None,
    *,
    pool: str = "process",
    workers_n: int | None = None,
    idle_timeout: float = 1800.0,
    sweep_every: float = 30.0,
    limits: Limits | None = None,
    rates: Rates | None = None,
    docs: bool | None = None,
    hosts: Iterable[str] | None = None,
    redis_url: str | None = None,
) -> App:
    """The app on the database `db_url` (None: the SQLite file in the data directory; or
    an engine from `connect`, which then belongs to the app).

    pool: "process" runs bots and physics in worker processes, "thread" in threads (tests).
    limits: work per table (bot move budget, all-bot tables); rates: per client.
    docs: serve /docs and /openapi.json (default: GAMENIGHT_DOCS=1).
    hosts: host names served besides localhost and IP addresses (default: GAMENIGHT_HOSTS).
    """
    setup = Setup(db_url, pool, workers_n, idle_timeout, sweep_every, limits, redis_url)
    server = Server(rates or Rates())
    if docs is None:
        docs = os.environ.get("GAMENIGHT_DOCS") == "1"
    if hosts is None:
        hosts = os.environ.get("GAMENIGHT_HOSTS", "").split(",")
    table_chat = chat.Chat(server.hub)
    names.latin_map()  # the name check's table, once per process: part of the idle server
    app = App(
        title="gamenight",
        lifespan=lambda _app: running(server, setup, table_chat),
        docs_url="/docs" if docs else None,
        redoc_url=None,
        openapi_url="/openapi.json" if docs else None,
    )
    app.hosts = HostCheck(hosts)
    app.add_middleware(Guard, hosts=app.hosts, max_body=MAX_BODY)
    app.state.holder = server.holder
    app.state.server = server
    app.state.lobby = lobby.Lobby.of(server)
    app.state.replays = replay.Replays()
    refuse_cleanly(app)
    include_routers(app, server, table_chat)
    return app


def include_routers(app: App, server: Server, table_chat: chat.Chat) -> None:
    """Every room's routes, in the order they were always matched."""
    pass_play = shared.SharedScreen(server.hub)
    pages.install(app)
    app.include_router(ops.router)
    app.include_router(accounts_router)
    app.include_router(lobby.router)
    app.include_router(bots.router)  # programs that play (programs.py)
    app.include_router(rules.router)  # /api/games/{name}/rules: the rules panel's text
    app.include_router(language.router)  # /api/i18n: the pages' language and catalogue
    app.include_router(learn.router)  # /api/learn/{name}: the guided first game
    app.include_router(admin.router)  # the open archive for the operator's admins
    app.include_router(tables.router)
    app.include_router(replay.router)
    app.include_router(shared.router(server.hub, pass_play))  # one browser, several seats
    app.include_router(chat.router(server.hub, table_chat, owner_cookie))  # mute, replay chat

    async def coached(table_id: str) -> None:  # a coach was asked: never rated
        await asyncio.to_thread(server.people().exclude, table_id)

    app.include_router(coach.router(server.hub, seat_cookie, coached))  # .../coach
    app.include_router(live.router(server, table_chat, pass_play))
