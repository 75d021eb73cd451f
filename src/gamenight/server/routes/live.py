"""Live play: the table's WebSocket /ws/tables/{id}.

The server sends {"type": "state", ...} with the receiver's own view after every change;
the client sends {"type": "act", "version": V, "action": {...}}, {"type": "auto_pass",
"on": b}, {"type": "pass_ahead", "on": b}, {"type": "take_back"}, {"type": "hello",
"name": N} (a spectator), chat and shared-screen messages, {"type": "sync"} or
{"type": "ping"}. A refused message gets {"type": "refused", "reason": ...}.
{"type": "seen", "version": V} says the page has shown version V: it ends a round's
moment (moments.py) once every person's page has seen it.

One way in: a text frame is parsed (size, JSON), its rights asked (`rights.may`, from the
seat rows as they are now), read into its pydantic model (routes/models.py) and handed to
that model's handler below, a short named function each.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from gamenight.engine.core import BadInput
from gamenight.i18n import N_
from gamenight.i18n.refusals import message_of, said, translate
from gamenight.server import admission, chat, rights, seats, shared
from gamenight.server.accounts import SESSION_COOKIE
from gamenight.server.db import token_hash
from gamenight.server.language import socket_language
from gamenight.server.limits import TokenBucket
from gamenight.server.operations import ACT, AUTO_PASS, HOLD, PASS_AHEAD, TAKE_BACK
from gamenight.server.routes import models
from gamenight.server.routes.common import (
    MAX_MESSAGE,
    Server,
    parse_json,
    request_language,
    same_origin,
    seat_cookie,
)
from gamenight.server.tables import Conn, LiveTable, Refused

log = logging.getLogger("gamenight.server")
KNOWN = ", ".join(models.KINDS)


@dataclass(frozen=True)
class Live:
    """What the handlers need: the server, the chat rooms and the shared screens."""

    server: Server
    chat: chat.Chat
    shared: shared.SharedScreen


# -- the handlers, one per message model ----------------------------------------------------
async def on_ping(live: Live, table: LiveTable, conn: Conn, msg: models.Ping) -> None:
    await conn.send({"type": "pong", "t": msg.t})


async def on_sync(live: Live, table: LiveTable, conn: Conn, msg: models.Sync) -> None:
    await live.server.hub().sync(table, conn)


async def on_seen(live: Live, table: LiveTable, conn: Conn, msg: models.Seen) -> None:
    await live.server.hub().seen(table, conn, msg.version)  # the page shows it: moments.py


async def on_hello(live: Live, table: LiveTable, conn: Conn, msg: models.Hello) -> None:
    """A watcher's name: listed at the next change, never a message to the others."""
    if conn.seat is None and not conn.holds:
        conn.name = await watcher_name(live, conn, msg.name)
        await live.server.hub().send_to(table, conn)


async def on_act(live: Live, table: LiveTable, conn: Conn, msg: models.Act) -> None:
    hub, seat = live.server.hub(), _seat(conn)
    await hub.run(ACT, table, seat, msg.version, msg.action, proof=rights.proof(table, conn))


async def on_take_back(live: Live, table: LiveTable, conn: Conn, msg: models.TakeBack) -> None:
    hub, seat = live.server.hub(), _seat(conn)
    await hub.run(TAKE_BACK, table, seat, proof=rights.proof(table, conn))


async def on_switch(live: Live, table: LiveTable, conn: Conn, msg: models.Switch) -> None:
    """ "always pass" or a pass in advance, on or off; the page is sent its own state."""
    hub, seat = live.server.hub(), _seat(conn)
    proof = rights.proof(table, conn)
    if msg.type == "auto_pass":
        await hub.run(AUTO_PASS, table, seat, msg.on, proof=proof)
    else:
        await hub.run(PASS_AHEAD, table, seat, msg.on, msg.turn, proof=proof)
    await hub.send_to(table, conn)


async def on_wait(live: Live, table: LiveTable, conn: Conn, msg: models.Wait) -> None:
    hub, seat = live.server.hub(), _seat(conn)
    await hub.run(HOLD, table, seat, proof=rights.proof(table, conn))


async def on_chat(live: Live, table: LiveTable, conn: Conn, msg: models.Say) -> None:
    await live.chat.say(table, _seat(conn), msg.text, msg.phrase)


async def on_chat_share(live: Live, table: LiveTable, conn: Conn, msg: models.Share) -> None:
    await live.chat.share(table, _seat(conn), msg.on)


async def on_chat_sync(live: Live, table: LiveTable, conn: Conn, msg: models.ChatSync) -> None:
    await live.chat.attach(table, conn)  # the page asks once it is connected


async def on_look(live: Live, table: LiveTable, conn: Conn, msg: models.Look) -> None:
    await live.shared.look(table, conn, msg.seat)


Handler = Callable[[Live, LiveTable, Conn, Any], Awaitable[None]]
HANDLERS: dict[type[models.Message], Handler] = {
    models.Ping: on_ping,
    models.Sync: on_sync,
    models.Seen: on_seen,
    models.Hello: on_hello,
    models.Act: on_act,
    models.TakeBack: on_take_back,
    models.Switch: on_switch,
    models.Wait: on_wait,
    models.Say: on_chat,
    models.Share: on_chat_share,
    models.ChatSync: on_chat_sync,
    models.Look: on_look,
}


def _seat(conn: Conn) -> int:
    assert conn.seat is not None  # rights.may refused a seat's message without one
    return conn.seat


async def watcher_name(live: Live, conn: Conn, raw: Any) -> str | None:
    """The name a watcher gave, as listed: plain text, and never a name that reads like an
    account's (names.skeleton) unless the page is signed in as that account (else None:
    listed as "a guest")."""
    name = seats.spectator_name(raw)
    if name is None:
        return None
    people = live.server.people()
    owner = await asyncio.to_thread(people.name_owner, name)
    if owner is None:
        return name
    me = await asyncio.to_thread(people.who, conn.session) if conn.session else None
    return name if me is not None and me["id"] == owner["id"] else None


# -- one message: parsed, allowed, read into its model, handled -------------------------------
async def handle(live: Live, table: LiveTable, conn: Conn, text: str) -> None:
    def refuse(reason: str, kind: str = "") -> dict[str, Any]:
        refused = "chat_refused" if kind in chat.MESSAGES else "refused"
        return {"type": refused, "reason": translate(reason, conn.lang), "version": table.version}

    if len(text.encode()) > MAX_MESSAGE:
        await conn.send(
            refuse(
                said(
                    N_("message too large ({size} bytes; limit {limit})"),
                    size=len(text),
                    limit=MAX_MESSAGE,
                )
            )
        )
        return
    try:
        msg = parse_json(text)
    except Refused as err:
        await conn.send(refuse(said(N_("the message is {problem}"), problem=err.reason)))
        return
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        await conn.send(refuse(said(N_("a message is a JSON object with a 'type'"))))
        return
    kind = msg["type"]
    if kind not in models.KINDS:
        await conn.send(
            refuse(
                said(
                    N_("unknown message type {kind}; known: {known}"), kind=repr(kind), known=KNOWN
                )
            )
        )
        return
    try:
        await allowed(live, table, conn, kind, msg)
        parsed = models.message(kind, msg)
        await HANDLERS[type(parsed)](live, table, conn, parsed)
    except (Refused, BadInput) as err:
        refusal = refuse(err.reason if isinstance(err, Refused) else message_of(err), kind)
        if kind == "act" and isinstance(msg.get("version"), int):  # which act, for a page
            refusal["made_on"] = msg["version"]  # with two in flight
        await conn.send(refusal)
    except Exception:
        log.exception("message %r at table %s failed", kind, table.row.id)
        await conn.send(
            refuse(said(N_("the server failed on this message; nothing changed")), kind)
        )


async def allowed(live: Live, table: LiveTable, conn: Conn, kind: str, msg: Any) -> None:
    """The one question every message asks (rights.may), from the seats as they are now;
    a page whose seat changed hands is sent a watcher's state at once."""
    before = conn.seat
    try:
        rights.may(table, conn, kind, msg.get("seat"))
    finally:
        if conn.seat != before:
            await live.server.hub().send_to(table, conn)


# -- one socket: its connection, its writer, its reader ---------------------------------------
class Socket:
    """A page's WebSocket at a table. Its connection (`Conn`) has a bounded queue and this
    writer task: a slow reader delays only itself, and one `rates.outbox` messages behind
    is dropped (it re-syncs on reconnect) instead of holding the server's memory."""

    # slots: one of these per open page, and a page's memory is what 1,000 tables cost
    __slots__ = ("background", "conn", "live", "table", "websocket", "writing")

    def __init__(self, live: Live, websocket: WebSocket, table: LiveTable, address: str) -> None:
        self.live, self.websocket, self.table = live, websocket, table
        self.background: set[asyncio.Task[None]] = set()
        # The socket keeps only its claims (the seat cookie's hash, a shared screen's
        # tokens); its seat is derived from the seat rows at every message (rights.py).
        conn = Conn(None, live.server.rates.outbox, self.too_slow, address=address)
        token = websocket.cookies.get(seat_cookie(table.row.id))
        conn.token_hash = token_hash(token) if token else None
        conn.session = websocket.cookies.get(SESSION_COOKIE)
        self.conn = conn
        self.writing: asyncio.Task[None] | None = None

    def too_slow(self, conn: Conn) -> None:
        self.table.conns.discard(conn)
        log.warning("dropped a slow reader at table %s", self.table.row.id)
        if self.writing is not None:
            self.writing.cancel()
        closing = asyncio.create_task(self.close(4408, "too slow: reconnect to catch up"))
        self.background.add(closing)
        closing.add_done_callback(self.background.discard)

    async def close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.websocket.close(code=code, reason=reason)

    async def writer(self) -> None:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            while True:
                await self.conn.queued()
                await self.conn.drain(self.websocket.send_text)

    async def answer_now(self) -> None:
        """The page's own answer (its action's new state, a refusal), sent before this
        task gives the loop back: through the writer task it waited behind whatever was
        ready first, such as another table's action that arrived in the same turn of the
        loop (most of bench/capacity.py's slowest 1%)."""
        if self.conn.outbox and not self.conn.sending():
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                await self.conn.drain(self.websocket.send_text)

    async def serve(self) -> None:
        """The page's whole life at the table. Its reading loop is here, not in a method
        of its own: a waiting coroutine's frame per open page is memory at 1,000 tables."""
        hub, table, conn = self.live.server.hub(), self.table, self.conn
        self.live.shared.register(table, conn, self.websocket.cookies)
        if rights.unmatched(table, conn):  # a seat this process has not heard of yet
            await hub.reread_seats(table)  # (joined through another process a moment ago)
        rights.derive(table, conn)
        self.writing = asyncio.create_task(self.writer())
        await hub.attach(table, conn)
        rates = self.live.server.rates
        bucket = TokenBucket(rates.messages_per_second, rates.message_burst)
        try:
            while not conn.dropped:
                message = await self.websocket.receive()
                if message["type"] == "websocket.disconnect" or not await self.take(
                    bucket, message
                ):
                    return
        except (WebSocketDisconnect, RuntimeError):  # (receive after the socket closed)
            pass
        finally:
            await hub.detach(table, conn)
            self.writing.cancel()

    async def take(self, bucket: TokenBucket, message: Mapping[str, Any]) -> bool:
        """One frame from the page; False when the socket is closed for a flood."""
        if not bucket.take():
            log.warning("closed a socket at table %s: too many messages", self.table.row.id)
            await self.close(4429, "too many messages: slow down and reconnect")
            return False
        text = message.get("text")
        if text is None:
            reason = "binary messages are not understood; send JSON text"
            await self.conn.send({"type": "refused", "reason": reason})
            return True
        await handle(self.live, self.table, self.conn, text)
        await self.answer_now()
        return True


def router(server: Server, table_chat: chat.Chat, pass_play: shared.SharedScreen) -> APIRouter:
    api = APIRouter()
    live = Live(server, table_chat, pass_play)
    sockets: dict[str, int] = {}  # open WebSockets per client address (this process)

    async def play(websocket: WebSocket) -> None:
        table_id = str(websocket.path_params["table_id"])
        if not same_origin(websocket):
            log.info("refused a socket from origin %r", websocket.headers.get("origin"))
            await websocket.close(code=4403)
            return
        address = websocket.client.host if websocket.client else "?"
        if sockets.get(address, 0) >= server.rates.sockets_per_address:
            log.warning("refused a socket from %s: %d open", address, sockets[address])
            await websocket.close(code=4429, reason="too many open pages from your address")
            return
        if await admission.refuse_socket(server.hub(), websocket, seat_cookie(table_id)):
            return  # past capacity: code 1013 unless the page has a seat here
        sockets[address] = sockets.get(address, 0) + 1
        try:
            page = await opened(websocket, table_id, address)
            if page is not None:  # (awaited here: one frame less per open page)
                await page.serve()
        finally:
            sockets[address] -= 1
            if not sockets[address]:
                del sockets[address]

    async def opened(websocket: WebSocket, table_id: str, address: str) -> Socket | None:
        await websocket.accept()
        try:
            table = await server.hub().get(table_id)
        except Refused as err:
            reason = translate(err.reason, request_language(websocket))
            await websocket.send_json({"type": "error", "reason": reason})
            await websocket.close(code=4404)
            return None
        page = Socket(live, websocket, table, address)
        page.conn.lang = await socket_language(websocket, live.server.people(), page.conn.session)
        return page

    # A plain Starlette route: FastAPI's own (dependency injection, its exit stacks) held
    # about 4 KB and 18 objects more per open socket, for a parameter read here directly.
    api.add_websocket_route("/ws/tables/{table_id}", play)
    return api
