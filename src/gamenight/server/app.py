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
import multiprocessing
import os
from collections.abc import AsyncIterator, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from gamenight.engine.core import BadInput
from gamenight.server import chat, coach, ops, pages, shared, workers
from gamenight.server.accounts import Accounts
from gamenight.server.accounts import router as accounts_router
from gamenight.server.db import DatabaseInUse, Store, connect, disconnect
from gamenight.server.guard import Guard, HostCheck
from gamenight.server.limits import Rates
from gamenight.server.routes import live, lobby, replay, tables
from gamenight.server.routes.common import MAX_BODY, Server, error, owner_cookie, seat_cookie
from gamenight.server.tables import Hub, Limits, Refused

__all__ = ["create_app", "owner_cookie", "seat_cookie", "serve"]
log = logging.getLogger("gamenight.server")


def _make_pool(kind: str, workers_n: int) -> Executor:
    if kind == "thread":
        return ThreadPoolExecutor(max_workers=workers_n, thread_name_prefix="gamenight-work")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["gamenight.server.workers"])
    return ProcessPoolExecutor(max_workers=workers_n, mp_context=ctx)


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
) -> FastAPI:
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

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        engine = db_url if isinstance(db_url, Engine) else connect(db_url)
        n = workers_n or max(1, min(4, os.cpu_count() or 1))
        work = workers.WorkerPool(lambda: _make_pool(pool, n))
        db_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gamenight-db")
        if redis_url:  # several processes (gamenight.server.cluster)
            from gamenight.server.cluster import make_hub

            hub = await make_hub(engine, work, db_pool, redis_url, idle_timeout, limits=limits)
        else:
            hub = Hub(Store(engine), work, db_pool, idle_timeout=idle_timeout, limits=limits)
        server.holder["hub"] = hub
        server.holder["accounts"] = Accounts(engine)
        try:
            if pool == "process":
                await work.run(workers.warm)
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

    app = FastAPI(
        title="gamenight",
        lifespan=lifespan,
        docs_url="/docs" if docs else None,
        redoc_url=None,
        openapi_url="/openapi.json" if docs else None,
    )
    app.add_middleware(Guard, hosts=HostCheck(hosts), max_body=MAX_BODY)
    app.state.holder = server.holder
    _refuse_cleanly(app)
    pages.install(app)
    app.include_router(ops.router)
    app.include_router(accounts_router(server.people, lambda: server.hub().store, pages.WEB))
    app.include_router(lobby.router(server))
    app.include_router(tables.router(server))
    app.include_router(replay.router(server))
    table_chat = chat.Chat(server.hub)
    pass_play = shared.SharedScreen(server.hub)
    app.include_router(shared.router(server.hub, pass_play))  # one browser, several seats
    app.include_router(chat.router(server.hub, table_chat, owner_cookie))  # mute, replay chat

    async def coached(table_id: str) -> None:
        await asyncio.to_thread(server.people().exclude, table_id)

    app.include_router(coach.router(server.hub, seat_cookie, coached))  # .../coach
    app.include_router(live.router(server, table_chat, pass_play))
    return app


def _refuse_cleanly(app: FastAPI) -> None:
    """Refusals and storage failures become {"error": reason} with their status."""

    @app.exception_handler(Refused)
    async def _refused(request: Request, err: Refused) -> JSONResponse:
        log.info("refused %s %s: %s", request.method, request.url.path, err.reason)
        return error(err.reason, err.status)

    @app.exception_handler(BadInput)
    async def _bad(request: Request, err: BadInput) -> JSONResponse:
        log.info("refused %s %s: %s", request.method, request.url.path, err)
        return error(str(err), 400)

    @app.exception_handler(SQLAlchemyError)
    @app.exception_handler(OSError)
    async def _storage(request: Request, err: Exception) -> JSONResponse:
        # A full or read-only disk, a lost database: one line in the log, a reason back.
        log.warning("storage failed on %s %s: %s", request.method, request.url.path, err)
        return error("the server could not store this (its disk or database failed)", 503)


def serve(host: str, port: int, db: str | None, redis: str | None = None) -> None:
    """Run the app with uvicorn until interrupted; prints the address to open."""
    import uvicorn

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    import sys

    # Threads (the database thread) get the GIL back from the event loop within 1 ms.
    sys.setswitchinterval(float(os.environ.get("GAMENIGHT_SWITCH_INTERVAL", "0.001")))
    try:
        engine = connect(db)  # one server per SQLite file: refuse before serving
    except DatabaseInUse as err:
        print(f"gamenight: {err}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
    names = [n for n in os.environ.get("GAMENIGHT_HOSTS", "").split(",") if n]
    if host not in ("0.0.0.0", "::", ""):
        names.append(host)
    rates = Rates()
    per_minute = os.environ.get("GAMENIGHT_TABLES_PER_MINUTE")
    if per_minute:  # tables one address may create per minute (and at once)
        rates = Rates(tables_per_minute=float(per_minute), table_burst=int(float(per_minute)))
    app = create_app(engine, hosts=names, rates=rates, redis_url=redis)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"gamenight is serving at http://{shown}:{port}/  (Ctrl+C stops it)", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=1 << 16,
        ws_per_message_deflate=False,  # views are small; compression costs more than it saves
    )
