"""Live play: the table's WebSocket /ws/tables/{id}.

The server sends {"type": "state", ...} with the receiver's own view after every change;
the client sends {"type": "act", "version": V, "action": {...}}, {"type": "auto_pass",
"on": b}, {"type": "pass_ahead", "on": b}, {"type": "take_back"}, {"type": "hello",
"name": N} (a spectator), chat and shared-screen messages, {"type": "sync"} or
{"type": "ping"}. A refused message gets {"type": "refused", "reason": ...}.
{"type": "seen", "version": V} says the page has shown version V: it ends a round's
moment (moments.py) once every person's page has seen it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from gamenight.engine.core import BadInput
from gamenight.server import chat, rights, seats, shared
from gamenight.server.accounts import SESSION_COOKIE
from gamenight.server.db import token_hash
from gamenight.server.limits import TokenBucket
from gamenight.server.routes import models
from gamenight.server.routes.common import (
    MAX_MESSAGE,
    Server,
    parse_json,
    same_origin,
    seat_cookie,
)
from gamenight.server.tables import Conn, LiveTable, Refused

log = logging.getLogger("gamenight.server")
KNOWN = (
    "act, auto_pass, pass_ahead, take_back, seen, hello, chat, chat_share, chat_sync, look,"
    " sync, ping"
)


def router(server: Server, table_chat: chat.Chat, pass_play: shared.SharedScreen) -> APIRouter:
    api = APIRouter()
    rates = server.rates
    sockets: dict[str, int] = {}  # open WebSockets per client address (this process)

    async def play(websocket: WebSocket) -> None:
        table_id = str(websocket.path_params["table_id"])
        if not same_origin(websocket):
            log.info("refused a socket from origin %r", websocket.headers.get("origin"))
            await websocket.close(code=4403)
            return
        address = websocket.client.host if websocket.client else "?"
        if sockets.get(address, 0) >= rates.sockets_per_address:
            log.warning("refused a socket from %s: %d open", address, sockets[address])
            await websocket.close(code=4429, reason="too many open pages from your address")
            return
        sockets[address] = sockets.get(address, 0) + 1
        try:
            await connected(websocket, table_id, address)
        finally:
            sockets[address] -= 1
            if not sockets[address]:
                del sockets[address]

    async def connected(websocket: WebSocket, table_id: str, address: str) -> None:
        await websocket.accept()
        hub = server.hub()
        try:
            table = await hub.get(table_id)
        except Refused as err:
            await websocket.send_json({"type": "error", "reason": err.reason})
            await websocket.close(code=4404)
            return
        # The connection's own bounded queue and writer task: a slow reader delays only
        # itself; one that falls `rates.outbox` messages behind is dropped (it re-syncs on
        # reconnect) instead of holding the server's memory.
        background: set[asyncio.Task[None]] = set()

        def too_slow(conn: Conn) -> None:
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
                    await conn.queued()
                    await conn.drain(websocket.send_text)

        async def answer_now() -> None:
            """The page's own answer (its action's new state, a refusal), sent before
            this task gives the loop back: through the writer task it waited behind
            whatever was ready first, such as another table's action that arrived in
            the same turn of the loop (most of bench/capacity.py's slowest 1%)."""
            if conn.outbox and not conn.sending():
                with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                    await conn.drain(websocket.send_text)

        # The socket keeps only its claims (the seat cookie's hash, a shared screen's
        # tokens); its seat is derived from the seat rows at every message (rights.py).
        conn = Conn(None, rates.outbox, too_slow, address=address)
        token = websocket.cookies.get(seat_cookie(table_id))
        conn.token_hash = token_hash(token) if token else None
        conn.session = websocket.cookies.get(SESSION_COOKIE)
        pass_play.register(table, conn, websocket.cookies)
        if rights.unmatched(table, conn):  # a seat this process has not heard of yet
            await hub.reread_seats(table)  # (joined through another process a moment ago)
        rights.derive(table, conn)
        writing = asyncio.create_task(writer())
        bucket = TokenBucket(rates.messages_per_second, rates.message_burst)
        await hub.attach(table, conn)
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
                await answer_now()
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # receive after the socket closed
            pass
        finally:
            await hub.detach(table, conn)
            writing.cancel()

    # A plain Starlette route: FastAPI's own (dependency injection, its exit stacks) held
    # about 4 KB and 18 objects more per open socket, for a parameter read here directly.
    api.add_websocket_route("/ws/tables/{table_id}", play)

    async def handle(table: LiveTable, conn: Conn, text: str) -> None:
        def refuse(reason: str) -> dict[str, Any]:
            return {"type": "refused", "reason": reason, "version": table.version}

        if len(text.encode()) > MAX_MESSAGE:
            await conn.send(refuse(f"message too large ({len(text)} bytes; limit {MAX_MESSAGE})"))
            return
        try:
            msg = parse_json(text)
        except Refused as err:
            await conn.send(refuse(f"the message is {err.reason}"))
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            await conn.send(refuse("a message is a JSON object with a 'type'"))
            return
        kind = msg["type"]
        if kind not in rights.KINDS:
            await conn.send(refuse(f"unknown message type {kind!r}; known: {KNOWN}"))
            return
        seat_before = conn.seat
        try:  # the one question every message asks, answered from the seats as they are now
            rights.may(table, conn, kind, msg.get("seat"))
        except Refused as err:
            refused = "chat_refused" if kind in chat.MESSAGES else "refused"
            await conn.send({**refuse(err.reason), "type": refused})
            if conn.seat != seat_before:  # its seat changed hands: it watches from now on
                await server.hub().send_to(table, conn)
            return
        if conn.seat != seat_before:
            await server.hub().send_to(table, conn)
        if kind in chat.MESSAGES:  # chat and shared-screen messages check their own fields
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
        try:
            parsed = models.message(kind, msg)
        except BadInput as err:
            await conn.send(refuse(str(err)))
            return
        try:
            await answer(table, conn, parsed)
        except Refused as err:
            refusal = refuse(err.reason)
            if isinstance(parsed, models.Act):  # which act, for a page with two in flight
                refusal["made_on"] = parsed.version
            await conn.send(refusal)
        except Exception:
            log.exception("message %r at table %s failed", kind, table.row.id)
            await conn.send(refuse("the server failed on this message; nothing changed"))

    async def watcher_name(conn: Conn, raw: Any) -> str | None:
        """The name a watcher gave, as listed: plain text, and never a name that reads like
        an account's (names.skeleton) unless the page is signed in as that account (then
        None: listed as "a guest")."""
        name = seats.spectator_name(raw)
        if name is None:
            return None
        people = server.people()
        owner = await asyncio.to_thread(people.name_owner, name)
        if owner is None:
            return name
        me = await asyncio.to_thread(people.who, conn.session) if conn.session else None
        return name if me is not None and me["id"] == owner["id"] else None

    async def answer(table: LiveTable, conn: Conn, msg: models.Message) -> None:
        """Do what a (valid, allowed: rights.may) table message asks. A request for a
        seat carries the seat token's hash, checked again where it runs (rights.vouch)."""
        hub = server.hub()
        seat = conn.seat
        if isinstance(msg, models.Ping):
            await conn.send({"type": "pong", "t": msg.t})
        elif isinstance(msg, models.Sync):
            await hub.sync(table, conn)
        elif isinstance(msg, models.Seen):  # the page shows this version: moments.py
            await hub.seen(table, conn, msg.version)
        elif isinstance(msg, models.Hello):  # a watcher's name: listed at the next change,
            if seat is None and not conn.holds:  # never a message to the others (item 5)
                conn.name = await watcher_name(conn, msg.name)
                await hub.send_to(table, conn)
        elif seat is None:
            return
        elif isinstance(msg, models.Act):
            await hub.act(table, seat, msg.version, msg.action, proof=rights.proof(table, conn))
        elif isinstance(msg, models.TakeBack):
            await hub.take_back(table, seat, proof=rights.proof(table, conn))
        elif msg.type == "auto_pass":
            await hub.set_auto_pass(table, seat, msg.on, proof=rights.proof(table, conn))
            await hub.send_to(table, conn)
        else:
            await hub.set_pass_ahead(table, seat, msg.on, proof=rights.proof(table, conn))
            await hub.send_to(table, conn)

    return api
