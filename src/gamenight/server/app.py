"""The FastAPI app, assembled from its routers (one module per room of the server):

  pages.py           the lobby, table and replay pages and /static
  ops.py             /api/health, /api/metrics and the echo socket (the load anchor)
  accounts.py        accounts, sessions, profiles and the leaderboard
  routes/lobby.py    /api/games, /api/lobby, /api/tables (list, create), page data
  routes/tables.py   /api/tables/{id}: read, join, start, seats, decline, rematch
  routes/replay.py   /api/tables/{id}/replay and .../replay/events
  routes/live.py     the table's WebSocket /ws/tables/{id}
  chat.py, shared.py, coach.py: a table's chat, shared screen and coach

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
from typing import Any

from fastapi import APIRouter, FastAPI, WebSocket
from sqlalchemy import Engine
from starlette.routing import Match, WebSocketRoute

from gamenight.engine.core import Outcome
from gamenight.server import chat, coach, ops, pages, shared, workers
from gamenight.server.accounts import Accounts
from gamenight.server.accounts import router as accounts_router
from gamenight.server.db import Store, TableRow, connect, disconnect
from gamenight.server.guard import Guard, HostCheck, Receive, Scope, Send, host_header
from gamenight.server.limits import Rates
from gamenight.server.live_table import LiveTable
from gamenight.server.routes import live, lobby, replay, tables
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
    server = Server(rates or Rates())
    if docs is None:
        docs = os.environ.get("GAMENIGHT_DOCS") == "1"
    if hosts is None:
        hosts = os.environ.get("GAMENIGHT_HOSTS", "").split(",")
    table_chat = chat.Chat(server.hub)
    pass_play = shared.SharedScreen(server.hub)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        engine = db_url if isinstance(db_url, Engine) else connect(db_url)
        n = workers_n or max(1, min(4, os.cpu_count() or 1))
        work = workers.WorkerPool(lambda: workers.make_pool(pool, n), workers_n=n)
        db_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gamenight-db")
        if redis_url:  # several processes (gamenight.server.cluster)
            from gamenight.server.cluster import make_hub

            hub = await make_hub(engine, work, db_pool, redis_url, idle_timeout, limits=limits)
        else:
            hub = Hub(Store(engine), work, db_pool, idle_timeout=idle_timeout, limits=limits)
        server.holder["hub"] = hub
        server.holder["accounts"] = accounts = Accounts(engine)

        async def rate(table: LiveTable | None = None) -> None:  # every finished game, once
            # In the database thread, one table at a time, from the live game's outcome,
            # and not before the game's last broadcast (a profile read waits for it): a
            # pass over every unrated table per finish, each in a thread of its own, raced
            # the others to the same tables, and the last move's broadcast waited for it.
            if table is None:  # the games that finished before a restart
                await hub.db(accounts.rate_finished, hub.store)
                return
            state = table.state
            outcome = state.outcome() if state is not None and state.over else None
            accounts.rating_started(hub.spawn(rate_one(table.row, outcome)))

        async def rate_one(row: TableRow, outcome: Outcome | None) -> None:
            try:
                await hub.db(accounts.rate_table, hub.store, row.id, outcome, row)
            except Exception:  # a rating must never undo or hide the game's end
                log.exception("rating table %s failed", row.id)

        hub.on_finished = rate
        hub.relays["chat"] = table_chat.heard  # a line written on another process
        try:
            await rate()  # games that finished before a restart
            restored = await hub.restore()
            if restored:
                log.warning("restored %d running table(s) from the database", restored)
            hub.sweeper = asyncio.create_task(hub.run_sweeper(sweep_every))
            yield
        finally:
            await hub.close()
            work.shutdown()
            db_pool.shutdown(wait=True)
            disconnect(engine)

    app = App(
        title="gamenight",
        lifespan=lifespan,
        docs_url="/docs" if docs else None,
        redoc_url=None,
        openapi_url="/openapi.json" if docs else None,
    )
    app.hosts = HostCheck(hosts)
    app.add_middleware(Guard, hosts=app.hosts, max_body=MAX_BODY)
    app.state.holder = server.holder
    refuse_cleanly(app)
    pages.install(app)
    app.include_router(ops.router)
    app.include_router(accounts_router(server.people, pages.WEB))
    app.include_router(lobby.router(server))
    app.include_router(tables.router(server))
    app.include_router(replay.router(server))
    app.include_router(shared.router(server.hub, pass_play))  # one browser, several seats
    app.include_router(chat.router(server.hub, table_chat, owner_cookie))  # mute, replay chat

    async def coached(table_id: str) -> None:
        await asyncio.to_thread(server.people().exclude, table_id)

    app.include_router(coach.router(server.hub, seat_cookie, coached))  # .../coach
    app.include_router(live.router(server, table_chat, pass_play))
    return app
