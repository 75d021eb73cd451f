"""The FastAPI app: the lobby API, live play over WebSocket, replays (pages in pages.py,
health, metrics and the echo socket in ops.py).

HTTP (JSON):
  GET  /api/games                      every game: options (for the form), bot levels
  GET  /api/tables?limit=&offset=      open and running tables, newest first, one page
  POST /api/tables                     create: {game, options, seats: ["open"|"easy"|...],
                                       settings, practice, seed (one person or practice only)}
  GET  /api/tables/{id}                the table, and which seat the caller holds
  POST /api/tables/{id}/join           {seat, name}: take an open seat (sets the seat cookie)
  POST /api/tables/{id}/start          the creator starts a full table
  POST /api/tables/{id}/rematch        a new table with the same game, options and bots
  GET  /api/tables/{id}/replay         a finished game step by step (?seat=N for a seat's view)
  GET  /api/games/{name}/page-data      what a game's page draws once (Drop It: the board)
WebSocket /ws/tables/{id}: the server sends {"type": "state", ...} with the receiver's own
view after every change; the client sends {"type": "act", "version": V, "action": {...}},
{"type": "auto_pass", "on": b}, {"type": "pass_ahead", "on": b}, {"type": "sync"} or
{"type": "ping"}. A refused message gets {"type": "refused", "reason": ...}.
WebSocket /ws/echo: a bare echo, the anchor of the load benchmark.

Every bad input is refused with a one-line reason (JSON {"error": ...}), never a 500; see
the "Security" section of README.md for the limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
from collections.abc import AsyncIterator, Iterable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from gamenight.engine.core import BadInput
from gamenight.engine.options import check_untrusted, describe_options
from gamenight.engine.registry import game_class, games, spec
from gamenight.server import (
    chat,
    coach,
    lobby,
    ops,
    pages,
    review,
    seats,
    series,
    shared,
    timers,
    workers,
)
from gamenight.server.accounts import Accounts, link_seat
from gamenight.server.accounts import router as accounts_router
from gamenight.server.db import DatabaseInUse, Store, connect, disconnect, token_hash
from gamenight.server.guard import Guard, HostCheck
from gamenight.server.limits import PerClient, Rates, TokenBucket
from gamenight.server.seats import GRACE_SECONDS
from gamenight.server.tables import REACTION_SECONDS, Conn, Hub, Limits, LiveTable, Refused

MAX_MESSAGE = 4096  # bytes of one client WebSocket message
MAX_BODY = 16384
MAX_SEED = 2**63  # seeds are stored as signed 64-bit integers
log = logging.getLogger("gamenight.server")


def _bad_text(obj: Any) -> str | None:
    """The reason to refuse parsed JSON holding a NUL or another control character in a
    text (PostgreSQL cannot store NUL; names are shown to people), else None."""
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and any(ord(ch) < 32 and ch not in "\t\n\r" for ch in item):
            return "text may not contain control characters (such as NUL)"
    return None


def _parse_json(raw: str | bytes) -> Any:
    """JSON, or Refused with a one-line reason (also for nesting too deep to parse)."""
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise Refused(f"not JSON: {err}", 400) from err
    except RecursionError as err:
        raise Refused("JSON nested too deeply", 400) from err


def _same_origin(websocket: WebSocket) -> bool:
    """A browser's Origin must be this server (scheme and host): another site's page must
    not act with this browser's seat cookie. Clients that send no Origin are not browsers."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    host = (websocket.headers.get("host") or "").lower()
    return parts.scheme == scheme and parts.netloc.lower() == host


def seat_cookie(table_id: str) -> str:
    return f"gn_seat_{table_id}"


def owner_cookie(table_id: str) -> str:
    return f"gn_owner_{table_id}"


def _error(reason: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


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
    state: dict[str, Any] = {}
    rates = rates or Rates()
    if docs is None:
        docs = os.environ.get("GAMENIGHT_DOCS") == "1"
    if hosts is None:
        hosts = os.environ.get("GAMENIGHT_HOSTS", "").split(",")
    creations = PerClient(rates.tables_per_minute / 60.0, rates.table_burst)

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
        state["hub"] = hub
        state["accounts"] = Accounts(engine)
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
    app.state.holder = state
    pages.install(app)
    app.include_router(ops.router)

    def hub() -> Hub:
        h: Hub = state["hub"]
        return h

    def people() -> Accounts:
        found: Accounts = state["accounts"]
        return found

    app.include_router(accounts_router(people, lambda: hub().store, pages.WEB))

    async def body(request: Request) -> dict[str, Any]:
        """The JSON object of a POST body: application/json, at most MAX_BODY bytes (counted
        as it streams in), text without control characters."""
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise Refused("a request body must be JSON (Content-Type: application/json)", 415)
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                raise Refused(f"request body too large (limit {MAX_BODY} bytes)", 413)
        obj = _parse_json(bytes(raw) or b"{}")
        if not isinstance(obj, dict):
            raise Refused("the request body must be a JSON object", 400)
        reason = _bad_text(obj)
        if reason:
            raise Refused(reason, 400)
        return obj

    @app.exception_handler(Refused)
    async def _refused(request: Request, err: Refused) -> JSONResponse:
        log.info("refused %s %s: %s", request.method, request.url.path, err.reason)
        return _error(err.reason, err.status)

    @app.exception_handler(BadInput)
    async def _bad(request: Request, err: BadInput) -> JSONResponse:
        log.info("refused %s %s: %s", request.method, request.url.path, err)
        return _error(str(err), 400)

    @app.exception_handler(SQLAlchemyError)
    @app.exception_handler(OSError)
    async def _storage(request: Request, err: Exception) -> JSONResponse:
        # A full or read-only disk, a lost database: one line in the log, a reason back.
        log.warning("storage failed on %s %s: %s", request.method, request.url.path, err)
        return _error("the server could not store this (its disk or database failed)", 503)

    # -- the lobby ----------------------------------------------------------------------
    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        from gamenight.bots import LEVELS, PARAMETER_CEILINGS

        out = []
        for name in games():
            options = describe_options(game_class(name).Options)
            out.append(
                {
                    **spec(name).to_json(),
                    "options": options,
                    "levels": list(LEVELS),
                    "file_options": [o["name"] for o in options if o["served"]],
                    "bot_ceilings": PARAMETER_CEILINGS,
                }
            )
        return out

    def summary(table: LiveTable, request: Request | None = None) -> dict[str, Any]:
        info = hub().public_table(table)
        info["title"] = spec(table.row.game).title
        if request is not None:
            you = hub().seat_of(table, request.cookies.get(seat_cookie(table.row.id)))
            owner = request.cookies.get(owner_cookie(table.row.id))
            info["you"] = you
            info["owner"] = owner is not None and token_hash(owner) == table.row.owner_hash
            info["version"] = table.version
        info["invite"] = f"/tables/{table.row.id}"
        return info

    @app.get("/api/lobby")
    async def lobby_view(request: Request) -> dict[str, Any]:
        """Your tables first, then tables to join or watch, then recent games (issue 14)."""
        return await lobby.view(hub(), request.cookies, summary)

    @app.get("/api/tables")
    async def list_tables(limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        if not 1 <= limit <= 200 or not 0 <= offset <= 1_000_000:
            raise BadInput("limit is 1..200 and offset 0..1000000")
        rows = await hub().db(hub().store.lobby, limit, offset)
        out = []
        for row in rows:
            table = hub().live.get(row.id)
            if table is not None:
                out.append(summary(table))
            else:
                out.append(
                    {
                        "id": row.id,
                        "game": row.game,
                        "status": row.status,
                        "options": row.options,
                        "seats": [
                            {"seat": s.seat, "kind": s.kind, "name": s.name, "connected": False}
                            for s in row.seats
                        ],
                        "invite": f"/tables/{row.id}",
                    }
                )
        return out

    def clean_options(game: str, obj: Any) -> dict[str, Any]:
        if obj is None:
            return {}
        if not isinstance(obj, dict):
            raise BadInput("'options' must be an object of option name to value")
        check_untrusted(game_class(game).Options, obj, game)  # ceilings, served values
        return obj

    def clean_settings(obj: Any) -> dict[str, Any]:
        settings: dict[str, Any] = {
            "reaction_seconds": REACTION_SECONDS,
            "turn_seconds": 0.0,
            "bot_delay": 0.6,
            "pass_dwell": 0.3,
            "grace_seconds": GRACE_SECONDS,
        }
        if obj is None:
            return settings
        if not isinstance(obj, dict):
            raise BadInput("'settings' must be an object")
        # (low, high) seconds: the reaction countdown is never off (A17: a person who does
        # nothing passes when it runs out, whatever they hold).
        ranges = {
            "reaction_seconds": (0.2, 60.0),
            "turn_seconds": (0.0, 3600.0),
            "bot_delay": (0.0, 10.0),
            "pass_dwell": (0.0, 5.0),
            "grace_seconds": (0.0, 3600.0),  # 0: a bot sits in only when the owner says so
            "clock_bank": (1.0, 7200.0),  # a turn clock's starting bank, instead of its own
            "clock_add": (0.0, 600.0),  # seconds a clock adds per finished turn
        }
        obj = dict(obj)
        if "clock" in obj:
            try:
                settings["clock"] = timers.clean_mode(obj.pop("clock"))
            except ValueError as err:
                raise BadInput(str(err)) from err
        for key, value in obj.items():
            if key == "shared_screen":  # one device, several seats (shared.py)
                if not isinstance(value, bool):
                    raise BadInput("setting 'shared_screen' must be true or false")
                settings[key] = value
                continue
            if key not in ranges:
                known = ", ".join(["clock", *ranges, "shared_screen"])
                raise BadInput(f"no table setting {key!r}; settings: {known}")
            if isinstance(value, bool) or not isinstance(value, int | float):
                try:
                    value = float(value)
                except (TypeError, ValueError) as err:
                    raise BadInput(f"setting {key!r} must be a number of seconds") from err
            low, high = ranges[key]
            if not low <= value <= high:  # (NaN fails too)
                raise BadInput(f"setting {key!r} must be from {low:g} to {high:g} seconds")
            settings[key] = float(value)
        return settings

    def clean_seed(obj: dict[str, Any], seats: list[str], practice: bool) -> int | None:
        """A chosen seed gives every hand and the draw order: only for a table of one
        person, or a practice table (shown to everyone who joins)."""
        seed = obj.get("seed")
        if seed is None:
            return None
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED:
            raise BadInput("'seed' must be a whole number from 0 to 2^63 - 1")
        people = sum(1 for s in seats if s.strip() in ("open", "", "person"))
        if people > 1 and not practice:
            raise BadInput(
                "a chosen seed is only for a table of one person or a practice table "
                "('practice': true, shown to everyone who joins)"
            )
        return seed

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        obj = await body(request)
        game = obj.get("game")
        if not isinstance(game, str):
            raise BadInput(f"'game' must be one of {', '.join(games())}")
        game_class(game)  # BadInput: no such game
        seats = obj.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise BadInput("'seats' must be a list with 'open' or a bot level per seat")
        practice = obj.get("practice", False)
        if not isinstance(practice, bool):
            raise BadInput("'practice' must be true or false")
        seed = clean_seed(obj, seats, practice)
        options = clean_options(game, obj.get("options"))
        settings = clean_settings(obj.get("settings"))
        settings["practice"] = practice
        settings["seed_chosen"] = obj.get("seed") is not None  # never rated
        client = request.client.host if request.client else "?"
        if not creations.take(client):
            raise Refused("too many new tables from your address; wait a minute", 429)
        table, owner = await hub().create(game, options, seats, settings, seed=seed)
        response = JSONResponse(summary(table), status_code=201)
        response.set_cookie(owner_cookie(table.row.id), owner, httponly=True, samesite="lax")
        name = obj.get("name")
        sit = obj.get("sit")
        if isinstance(sit, int) and not isinstance(sit, bool) and isinstance(name, str):
            token = await hub().join(table, sit, name, None)
            await link_seat(request, people(), table.row.id, sit)
            response.set_cookie(seat_cookie(table.row.id), token, httponly=True, samesite="lax")
            data = summary(table)
            data["you"] = sit
            data["owner"] = True
            response.body = response.render(data)
            response.headers["content-length"] = str(len(response.body))
        return response

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str, request: Request) -> dict[str, Any]:
        return summary(await hub().get(table_id), request)

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> JSONResponse:
        table = await hub().get(table_id)
        obj = await body(request)
        seat, name = obj.get("seat"), obj.get("name")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise BadInput("'seat' must be a seat number")
        if not isinstance(name, str):
            raise BadInput("'name' must be text")
        token = await hub().join(table, seat, name, request.cookies.get(seat_cookie(table_id)))
        await link_seat(request, people(), table_id, seat)
        data = summary(table, request)
        data["you"] = seat
        response = JSONResponse(data)
        response.set_cookie(seat_cookie(table_id), token, httponly=True, samesite="lax")
        return response

    @app.post("/api/tables/{table_id}/start")
    async def start(table_id: str, request: Request) -> dict[str, Any]:
        table = await hub().get(table_id)
        owner = request.cookies.get(owner_cookie(table_id))
        if not owner or token_hash(owner) != table.row.owner_hash:
            raise Refused("only the creator of the table can start it", 403)
        await hub().start(table)
        return summary(table, request)

    @app.post("/api/tables/{table_id}/decline")
    async def decline(table_id: str, request: Request) -> dict[str, Any]:
        """A player of a finished table will not play its rematch."""
        old = await hub().get(table_id)
        you = hub().seat_of(old, request.cookies.get(seat_cookie(table_id)))
        if you is None:
            raise Refused("only a player of this table can decline its rematch", 403)
        table = await series.decline(hub(), old, you)
        return summary(table)

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def arrange_seat(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        """The owner makes a seat open or a bot (before the start), or hands a person's
        seat to a bot (while running); {"to": "open" | "bot" | "easy" | ...}."""
        table = await hub().get(table_id)
        owner = request.cookies.get(owner_cookie(table_id))
        if not owner or token_hash(owner) != table.row.owner_hash:
            raise Refused("only the creator of the table can change its seats", 403)
        obj = await body(request)
        to = obj.get("to")
        if not isinstance(to, str):
            raise BadInput("'to' must be one of open, bot, easy, medium, hard")
        await hub().set_seat(table, seat, to)
        return summary(table, request)

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, request: Request) -> JSONResponse:
        old = await hub().get(table_id)
        if old.row.status not in ("finished", "abandoned"):
            raise Refused("a rematch is possible when the game is over")
        you = hub().seat_of(old, request.cookies.get(seat_cookie(table_id)))
        owner = request.cookies.get(owner_cookie(table_id))
        if you is None and not (owner and token_hash(owner) == old.row.owner_hash):
            raise Refused("only a player of this table can ask for a rematch", 403)
        # One rematch per table (the series' next game); each player accepts once.
        table, token = await hub().rematch(old, you)
        response = JSONResponse(summary(table), status_code=201)
        if owner and token_hash(owner) == old.row.owner_hash:  # the same owner
            response.set_cookie(owner_cookie(table.row.id), owner, httponly=True, samesite="lax")
        if token is not None:
            response.set_cookie(seat_cookie(table.row.id), token, httponly=True, samesite="lax")
        who = old.seat_row(you).name if you is not None else "the owner"
        await hub().notify(old, {"type": "rematch", "table": table.row.id, "by": who})
        response.body = response.render(summary(table))
        response.headers["content-length"] = str(len(response.body))
        return response

    replay_cache: dict[tuple[str, int | None], dict[str, Any]] = {}
    app.include_router(review.router(hub))  # /api/tables/{id}/replay/events
    table_chat = chat.Chat(hub)
    pass_play = shared.SharedScreen(hub)
    app.include_router(shared.router(hub, pass_play))  # one browser, several seats
    app.include_router(chat.router(hub, table_chat, owner_cookie))  # chat mute, replay chat

    async def coached(table_id: str) -> None:
        await asyncio.to_thread(people().exclude, table_id)

    app.include_router(coach.router(hub, seat_cookie, coached))  # /api/tables/{id}/coach

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, seat: int | None = None) -> dict[str, Any]:
        table = await hub().get(table_id)
        if table.row.status != "finished":
            raise Refused("only a finished game can be replayed")
        if seat is not None and not 0 <= seat < table.game.players:
            raise BadInput(f"seat must be 0..{table.game.players - 1}")
        key = (table_id, seat)
        if key not in replay_cache:
            history = await hub().db(hub().store.history, table_id)
            game, seed = table.game, table.row.seed

            def build() -> dict[str, Any]:
                state = game.start(seed)

                def snap(view: dict[str, Any]) -> Any:
                    # a snapshot: a view may share lists with the live state
                    return json.loads(json.dumps(view))

                views = [snap(state.view(seat))]
                steps = []
                for s, obj in history:
                    action = game.action_from_json(obj)
                    state.act(s, action)
                    steps.append({"seat": s, "action": obj})
                    views.append(snap(state.view(seat)))
                return {
                    "id": table_id,
                    "game": game.name,
                    "options": table.row.options,
                    "seed": seed,
                    "seat": seat,
                    "seats": hub().public_table(table)["seats"],
                    "steps": steps,
                    "views": views,
                    "outcome": state.outcome().to_json() if state.over else None,
                }

            replay_cache[key] = await asyncio.get_running_loop().run_in_executor(None, build)
            while len(replay_cache) > 32:
                replay_cache.pop(next(iter(replay_cache)))
        return replay_cache[key]

    board_cache: dict[str, dict[str, Any]] = {}

    @app.get("/api/games/{name}/page-data")
    async def page_data(name: str, table: str | None = None) -> dict[str, Any]:
        """What a game's page draws once (Drop It: the empty board as SVG, its geometry and
        the piece outlines), from the game's `pictures` module; 404 for games without one."""
        try:
            found = spec(name)
        except BadInput as err:
            raise Refused(str(err), 404) from err
        if found.pictures is None:
            raise Refused(f"{found.title} has no page data", 404)
        options: dict[str, Any] = {}
        if table:
            live = await hub().get(table)
            if live.row.game != name:
                raise Refused(f"table {table} does not play {found.title}", 404)
            options = live.row.options
        key = json.dumps([name, options], sort_keys=True)
        if key not in board_cache:
            build = found.module("pictures").page_data
            board_cache[key] = await asyncio.get_running_loop().run_in_executor(
                None, build, options
            )
        return board_cache[key]

    # -- live play ----------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        if not _same_origin(websocket):
            log.info("refused a socket from origin %r", websocket.headers.get("origin"))
            await websocket.close(code=4403)
            return
        await websocket.accept()
        try:
            table = await hub().get(table_id)
        except Refused as err:
            await websocket.send_json({"type": "error", "reason": err.reason})
            await websocket.close(code=4404)
            return
        seat = hub().seat_of(table, websocket.cookies.get(seat_cookie(table_id)))
        # Messages go through a bounded queue and a writer task: a slow reader delays only
        # itself; one that falls `rates.outbox` messages behind is dropped (it re-syncs on
        # reconnect) instead of holding the server's memory.
        outbox: asyncio.Queue[str] = asyncio.Queue(maxsize=rates.outbox)

        async def send(msg: dict[str, Any]) -> None:
            if conn.dropped:
                return
            try:
                outbox.put_nowait(json.dumps(msg, separators=(",", ":")))
            except asyncio.QueueFull:
                conn.dropped = True
                table.conns.discard(conn)
                log.warning("dropped a slow reader at table %s", table_id)
                writing.cancel()
                closing = asyncio.create_task(close(4408, "too slow: reconnect to catch up"))
                background.add(closing)
                closing.add_done_callback(background.discard)

        async def close(code: int, reason: str) -> None:
            with contextlib.suppress(Exception):
                await websocket.close(code=code, reason=reason)

        async def writer() -> None:
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                while True:
                    await websocket.send_text(await outbox.get())

        background: set[asyncio.Task[None]] = set()
        writing = asyncio.create_task(writer())
        conn = Conn(seat, send)
        pass_play.register(table, conn, websocket.cookies)
        bucket = TokenBucket(rates.messages_per_second, rates.message_burst)
        await hub().attach(table, conn)
        try:
            while not conn.dropped:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not bucket.take():
                    log.warning("closed a socket at table %s: too many messages", table_id)
                    await close(4429, "too many messages: slow down and reconnect")
                    break
                text = message.get("text")
                if text is None:
                    reason = "binary messages are not understood; send JSON text"
                    await conn.send({"type": "refused", "reason": reason})
                    continue
                await handle(table, conn, text)
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # receive after the socket closed
            pass
        finally:
            await hub().detach(table, conn)
            writing.cancel()

    async def handle(table: LiveTable, conn: Conn, text: str) -> None:
        def refuse(reason: str) -> dict[str, Any]:
            return {"type": "refused", "reason": reason, "version": table.version}

        if len(text.encode()) > MAX_MESSAGE:
            await conn.send(refuse(f"message too large ({len(text)} bytes; limit {MAX_MESSAGE})"))
            return
        try:
            msg = _parse_json(text)
        except Refused as err:
            await conn.send(refuse(f"the message is {err.reason}"))
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            await conn.send(refuse("a message is a JSON object with a 'type'"))
            return
        kind = msg["type"]
        if kind == "ping":
            await conn.send({"type": "pong", "t": msg.get("t")})
            return
        if kind == "sync":
            await hub().send_to(table, conn)
            return
        if kind == "hello":  # a spectator says their name, to be listed by it
            if conn.seat is None:
                conn.name = seats.spectator_name(msg.get("name"))
                await hub().broadcast(table)
            return
        if kind in chat.MESSAGES:
            try:
                await table_chat.handle(table, conn, msg)
            except Refused as err:
                await conn.send({"type": "chat_refused", "reason": err.reason})
            return
        if kind in shared.MESSAGES:
            try:
                await pass_play.handle(table, conn, msg)
            except Refused as err:
                await conn.send(refuse(err.reason))
            return
        if kind not in ("act", "auto_pass", "pass_ahead", "take_back"):
            known = (
                "act, auto_pass, pass_ahead, take_back, hello, chat, chat_share, chat_sync,"
                " look, sync, ping"
            )
            await conn.send(refuse(f"unknown message type {kind!r}; known: {known}"))
            return
        if conn.seat is None:
            await conn.send(refuse("you hold no seat at this table (a spectator cannot act)"))
            return
        try:
            if kind == "act":
                await hub().act(table, conn.seat, msg.get("version"), msg.get("action"))
            elif kind == "take_back":
                await hub().take_back(table, conn.seat)
            elif kind == "auto_pass":
                await hub().set_auto_pass(table, conn.seat, bool(msg.get("on")))
                await hub().send_to(table, conn)
            else:
                await hub().set_pass_ahead(table, conn.seat, bool(msg.get("on")))
                await hub().send_to(table, conn)
        except Refused as err:
            await conn.send(refuse(err.reason))
        except Exception:
            log.exception("message %r at table %s failed", kind, table.row.id)
            await conn.send(refuse("the server failed on this message; nothing changed"))

    return app


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
