"""The FastAPI app: pages, the lobby API, live play over WebSocket, replays.

HTTP (JSON):
  GET  /api/games                      every game: options (for the form), bot levels
  GET  /api/tables                     open and running tables
  POST /api/tables                     create: {game, options, seats: ["open"|"easy"|...], settings}
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
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
from collections.abc import AsyncIterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from gamenight.engine.core import BadInput
from gamenight.engine.options import describe_options
from gamenight.engine.registry import game_class, games, spec
from gamenight.server import workers
from gamenight.server.db import Store, connect, token_hash
from gamenight.server.tables import Conn, Hub, LiveTable, Refused

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_MESSAGE = 4096  # bytes of one client WebSocket message
MAX_BODY = 16384
FILE_OPTIONS = ("deck", "board")  # options that may name a file: only presets from the web
log = logging.getLogger("gamenight.server")


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
    db_url: str | None = None,
    *,
    pool: str = "process",
    workers_n: int | None = None,
    idle_timeout: float = 1800.0,
    sweep_every: float = 30.0,
    redis_url: str | None = None,
) -> FastAPI:
    """The app on the database `db_url` (None: the SQLite file in the data directory).

    pool: "process" runs bots and physics in worker processes, "thread" in threads (tests).
    """
    state: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        engine = connect(db_url)
        work = _make_pool(pool, workers_n or max(1, min(4, os.cpu_count() or 1)))
        db_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gamenight-db")
        if redis_url:  # several processes (gamenight.server.cluster)
            from gamenight.server.cluster import make_hub

            hub = await make_hub(engine, work, db_pool, redis_url, idle_timeout)
        else:
            hub = Hub(Store(engine), work, db_pool, idle_timeout=idle_timeout)
        state["hub"] = hub
        if pool == "process":
            await asyncio.get_running_loop().run_in_executor(work, workers.warm)
        restored = await hub.restore()
        if restored:
            log.warning("restored %d running table(s) from the database", restored)
        hub.sweeper = asyncio.create_task(hub.run_sweeper(sweep_every))
        try:
            yield
        finally:
            await hub.close()
            work.shutdown(wait=False, cancel_futures=True)
            db_pool.shutdown(wait=True)
            engine.dispose()

    app = FastAPI(title="gamenight", lifespan=lifespan)
    app.state.holder = state

    def hub() -> Hub:
        h: Hub = state["hub"]
        return h

    async def body(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise Refused(f"request body too large ({len(raw)} bytes; limit {MAX_BODY})", 413)
        try:
            obj = json.loads(raw or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise Refused(f"the request body is not JSON: {err}", 400) from err
        if not isinstance(obj, dict):
            raise Refused("the request body must be a JSON object", 400)
        return obj

    @app.exception_handler(Refused)
    async def _refused(_request: Request, err: Refused) -> JSONResponse:
        return _error(err.reason, err.status)

    @app.exception_handler(BadInput)
    async def _bad(_request: Request, err: BadInput) -> JSONResponse:
        return _error(str(err), 400)

    # -- pages ------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/tables/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "table.html")

    @app.get("/tables/{table_id}/replay", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(WEB / "replay.html")

    app.mount("/static", StaticFiles(directory=WEB), name="static")

    # -- the lobby ----------------------------------------------------------------------
    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        from gamenight.bots import LEVELS

        out = []
        for name in games():
            cls = game_class(name)
            out.append(
                {
                    **spec(name).to_json(),
                    "options": describe_options(cls.Options),
                    "levels": list(LEVELS),
                    "file_options": [o for o in FILE_OPTIONS],
                }
            )
        return out

    def summary(table: LiveTable, request: Request | None = None) -> dict[str, Any]:
        info = hub().public_table(table)
        if request is not None:
            you = hub().seat_of(table, request.cookies.get(seat_cookie(table.row.id)))
            owner = request.cookies.get(owner_cookie(table.row.id))
            info["you"] = you
            info["owner"] = owner is not None and token_hash(owner) == table.row.owner_hash
            info["version"] = table.version
        info["invite"] = f"/tables/{table.row.id}"
        return info

    @app.get("/api/tables")
    async def list_tables() -> list[dict[str, Any]]:
        rows = await hub().db(hub().store.tables_with_status, "open", "running")
        out = []
        for row in rows[-200:]:
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

    def clean_options(obj: Any) -> dict[str, Any]:
        if obj is None:
            return {}
        if not isinstance(obj, dict):
            raise BadInput("'options' must be an object of option name to value")
        for name in FILE_OPTIONS:
            value = obj.get(name)
            if isinstance(value, str) and ("/" in value or value.endswith(".json")):
                raise BadInput(f"option '{name}' may name only a built-in preset here, not a file")
        return obj

    def clean_settings(obj: Any) -> dict[str, Any]:
        settings = {
            "reaction_seconds": 20.0,
            "turn_seconds": 0.0,
            "bot_delay": 0.6,
            "pass_dwell": 0.3,
        }
        if obj is None:
            return settings
        if not isinstance(obj, dict):
            raise BadInput("'settings' must be an object")
        limits = {
            "reaction_seconds": 600.0,
            "turn_seconds": 3600.0,
            "bot_delay": 10.0,
            "pass_dwell": 5.0,
        }
        for key, value in obj.items():
            if key not in limits:
                raise BadInput(f"no table setting {key!r}; settings: {', '.join(limits)}")
            if isinstance(value, bool) or not isinstance(value, int | float):
                try:
                    value = float(value)
                except (TypeError, ValueError) as err:
                    raise BadInput(f"setting {key!r} must be a number of seconds") from err
            if not 0 <= value <= limits[key]:
                raise BadInput(f"setting {key!r} must be from 0 to {limits[key]:g} seconds")
            settings[key] = float(value)
        return settings

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
        seed = obj.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise BadInput("'seed' must be a whole number")
        table, owner = await hub().create(
            game,
            clean_options(obj.get("options")),
            seats,
            clean_settings(obj.get("settings")),
            seed=seed,
        )
        response = JSONResponse(summary(table), status_code=201)
        response.set_cookie(owner_cookie(table.row.id), owner, httponly=True, samesite="lax")
        name = obj.get("name")
        sit = obj.get("sit")
        if isinstance(sit, int) and not isinstance(sit, bool) and isinstance(name, str):
            token = await hub().join(table, sit, name, None)
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

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, request: Request) -> JSONResponse:
        old = await hub().get(table_id)
        if old.row.status not in ("finished", "abandoned"):
            raise Refused("a rematch is possible when the game is over")
        you = hub().seat_of(old, request.cookies.get(seat_cookie(table_id)))
        owner = request.cookies.get(owner_cookie(table_id))
        if you is None and not (owner and token_hash(owner) == old.row.owner_hash):
            raise Refused("only a player of this table can ask for a rematch", 403)
        specs = [s.bot or "bot" if s.kind == "bot" else "open" for s in old.row.seats]
        table, new_owner = await hub().create(
            old.row.game, old.row.options, specs, old.row.settings, rematch_of=old.row.id
        )
        response = JSONResponse(summary(table), status_code=201)
        response.set_cookie(owner_cookie(table.row.id), new_owner, httponly=True, samesite="lax")
        if you is not None:
            name = old.seat_row(you).name or f"player {you}"
            token = await hub().join(table, you, name, None)
            response.set_cookie(seat_cookie(table.row.id), token, httponly=True, samesite="lax")
        await hub().notify(old, {"type": "rematch", "table": table.row.id})
        return response

    replay_cache: dict[tuple[str, int | None], dict[str, Any]] = {}

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
            raise HTTPException(404, str(err)) from err
        if found.pictures is None:
            raise HTTPException(404, f"{found.title} has no page data")
        options: dict[str, Any] = {}
        if table:
            live = await hub().get(table)
            if live.row.game != name:
                raise HTTPException(404, f"table {table} does not play {found.title}")
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
        origin = websocket.headers.get("origin")
        host = websocket.headers.get("host")
        if origin and host and urlsplit(origin).netloc != host:
            # Another site's page must not act with this browser's seat cookie.
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
        # Messages go through a queue and a writer task: a slow reader delays only itself,
        # never the table's other players or the action that caused the message.
        outbox: asyncio.Queue[str] = asyncio.Queue()

        async def send(msg: dict[str, Any]) -> None:
            outbox.put_nowait(json.dumps(msg, separators=(",", ":")))

        async def writer() -> None:
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                while True:
                    await websocket.send_text(await outbox.get())

        writing = asyncio.create_task(writer())
        conn = Conn(seat, send)
        await hub().attach(table, conn)
        try:
            while True:
                text = await websocket.receive_text()
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
            msg = json.loads(text)
        except json.JSONDecodeError as err:
            await conn.send(refuse(f"the message is not JSON: {err}"))
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
        if kind not in ("act", "auto_pass", "pass_ahead"):
            await conn.send(
                refuse(
                    f"unknown message type {kind!r}; known: act, auto_pass, pass_ahead, sync, ping"
                )
            )
            return
        if conn.seat is None:
            await conn.send(refuse("you hold no seat at this table (a spectator cannot act)"))
            return
        try:
            if kind == "act":
                await hub().act(table, conn.seat, msg.get("version"), msg.get("action"))
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

    @app.websocket("/ws/echo")
    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while True:
                await websocket.send_text(await websocket.receive_text())

    @app.get("/api/metrics")
    async def metrics() -> dict[str, Any]:
        """Server-side time per accepted action (taking it to having sent its broadcast)."""
        times = sorted(hub().timings)
        if not times:
            return {"actions": 0}

        def q(x: float) -> float:
            return round(1000 * times[min(len(times) - 1, int(x * len(times)))], 3)

        return {"actions": len(times), "median_ms": q(0.5), "p99_ms": q(0.99), "max_ms": q(1.0)}

    @app.get("/api/health")
    async def health() -> Response:
        return Response("ok", media_type="text/plain")

    return app


def serve(host: str, port: int, db: str | None, redis: str | None = None) -> None:
    """Run the app with uvicorn until interrupted; prints the address to open."""
    import uvicorn

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    import sys

    # Threads (the database thread) get the GIL back from the event loop within 1 ms.
    sys.setswitchinterval(float(os.environ.get("GAMENIGHT_SWITCH_INTERVAL", "0.001")))
    app = create_app(db, redis_url=redis)
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
