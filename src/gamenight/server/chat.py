"""Table chat (issue 14, item 4): plain-text lines per table, stored with it.

People with a seat write; everyone at the table (seats and spectators) reads while the game
is open or running. Lines are plain text (the page puts them in text nodes), at most
`MAX_CHARS` characters, rate-limited per seat. The owner can mute a seat. A finished table's
chat stays out of its replay unless every person seated there chose to keep it in ("share").

Everything that happens to a table's chat is one row of `chat_lines` (a line, a mute, an
unmute, a share vote), so a room is rebuilt by reading its rows in order.
"""

from __future__ import annotations

import logging
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, Text, insert, select

from gamenight.engine.core import BadInput
from gamenight.i18n import N_
from gamenight.i18n.refusals import said
from gamenight.server.db import Store, metadata, token_hash
from gamenight.server.limits import TokenBucket
from gamenight.server.names import invisible
from gamenight.server.routes.models import Mute, posted
from gamenight.server.tables import Conn, Hub, LiveTable, Refused

log = logging.getLogger("gamenight.server")

MAX_CHARS = 300
RATE = 0.5  # chat lines per second of one seat...
BURST = 5  # ...after a burst of this many
ROOMS_KEPT = 2000  # rooms held in memory (the rest are read again when needed)
# Quick phrases: one tap, the same words for everyone.
PHRASES = {  # (N_: the pages show each in their language, web/chat.js)
    "gg": N_("good game"),
    "nice": N_("nice drop"),
    "wp": N_("well played"),
    "hi": N_("hello!"),
    "think": N_("thinking…"),
    "oops": N_("oops"),
}
MESSAGES = ("chat", "chat_share", "chat_sync")  # their refusals are "chat_refused"

chat_lines = Table(
    "chat_lines",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # say, mute, unmute, share
    Column("seat", Integer, nullable=True),  # who wrote or voted (None: the owner)
    Column("subject", Integer, nullable=True),  # the seat muted or unmuted
    Column("text", Text, nullable=True),  # the line; "yes"/"no" for a share vote
    Column("name", String(64), nullable=True),  # the writer's name then (None: before 0008)
    Column("at", Float, nullable=False),
)


def clean_text(text: Any) -> str:
    """One chat line as plain text: control and format characters dropped, runs of blank
    space made one space. BadInput says what is wrong (empty, too long, not text), its
    argument a `Reason` of the platform's catalogue (said in the reader's language)."""
    if not isinstance(text, str):
        raise BadInput(said(N_("a chat line must be text")))
    kept = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch.isspace():
            kept.append(" ")
        elif cat[0] != "C" and not invisible(ch):  # Cc, Cf (bidi overrides), fillers
            kept.append(ch)
    line = " ".join("".join(kept).split())
    if not line:
        raise BadInput(said(N_("a chat line needs some words")))
    if len(line) > MAX_CHARS:
        raise BadInput(
            said(
                N_("a chat line is at most {most} characters (this one has {count})"),
                most=MAX_CHARS,
                count=len(line),
            )
        )
    return line


@dataclass
class Room:
    """One table's chat as it is now."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    muted: set[int] = field(default_factory=set)
    share: dict[int, bool] = field(default_factory=dict)  # seat: keep the chat in the replay
    rows: int = 0  # rows stored so far (the next row's n)
    buckets: dict[int, TokenBucket] = field(default_factory=dict)

    def apply(self, r: dict[str, Any]) -> None:
        kind = r["kind"]
        if kind == "say":
            self.lines.append(
                {
                    "n": r["n"],
                    "seat": r["seat"],
                    "name": r["name"],
                    "text": r["text"],
                    "at": r["at"],
                }
            )
        elif kind == "mute" and r["subject"] is not None:
            self.muted.add(r["subject"])
        elif kind == "unmute":
            self.muted.discard(r["subject"])
        elif kind == "share" and r["seat"] is not None:
            self.share[r["seat"]] = r["text"] == "yes"
        self.rows = max(self.rows, r["n"] + 1)


def shared(room: Room, table: LiveTable) -> bool:
    """Whether the chat belongs in the replay: every person seated chose so."""
    people = [s.seat for s in table.row.seats if s.kind == "person"]
    return bool(people) and all(room.share.get(s, False) for s in people)


class ChatStore:
    """The chat rows of the database (blocking; called in the hub's database thread)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def rows(self, table_id: str) -> list[dict[str, Any]]:
        q = select(chat_lines).where(chat_lines.c.table_id == table_id).order_by(chat_lines.c.n)
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(q)]

    def add(self, row: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(chat_lines).values(**row))


class Chat:
    """Every table's chat room of one server."""

    def __init__(self, hub: Callable[[], Hub]) -> None:
        self.hub = hub
        self.rooms: OrderedDict[str, Room] = OrderedDict()

    async def room(self, table: LiveTable) -> Room:
        tid = table.row.id
        room = self.rooms.get(tid)
        if room is None:
            hub = self.hub()
            rows = await hub.db(ChatStore(hub.store).rows, tid)
            room = self.rooms.get(tid) or Room()
            if not room.rows:
                names = {s.seat: s.name for s in table.row.seats}  # (lines from before 0008)
                for r in rows:
                    seat_no = "" if r["seat"] is None else r["seat"] + 1  # from 1
                    name = r.get("name") or names.get(r["seat"]) or f"seat {seat_no}"
                    room.apply({**r, "name": name})
            self.rooms[tid] = room
            while len(self.rooms) > ROOMS_KEPT:
                self.rooms.popitem(last=False)
        self.rooms.move_to_end(tid)
        return room

    async def _store(self, table: LiveTable, room: Room, **row: Any) -> dict[str, Any]:
        full = {"table_id": table.row.id, "n": room.rows, "at": time.time(), **row}
        room.rows += 1  # taken before the write: two lines never get one number
        hub = self.hub()
        try:
            await hub.db(ChatStore(hub.store).add, full)
        except Exception as err:  # e.g. another process wrote this number: read the room again
            log.warning("storing chat of table %s failed: %s", table.row.id, err)
            self.rooms.pop(table.row.id, None)
            raise Refused(
                N_("the chat could not be stored just now; nothing changed, try again")
            ) from err
        return full

    @staticmethod
    def readable(table: LiveTable, room: Room, conn: Conn) -> bool:
        """Everyone reads while the game is on; afterwards the seats, or all when shared."""
        if table.row.status in ("open", "running") or conn.seat is not None:
            return True
        return shared(room, table)

    def snapshot(self, table: LiveTable, room: Room) -> dict[str, Any]:
        return {
            "type": "chat",
            "full": True,
            "lines": room.lines[-200:],
            "muted": sorted(room.muted),
            "share": {str(k): v for k, v in room.share.items()},
            "shared": shared(room, table),
            "phrases": PHRASES,
            "max": MAX_CHARS,
        }

    async def _tell(self, table: LiveTable, room: Room, msg: dict[str, Any]) -> None:
        hub = self.hub()
        for conn in list(table.conns):
            if self.readable(table, room, conn):
                conn.post(msg)
        await hub.relay(table, "chat")  # pages on other processes (the cluster)

    async def heard(self, table: LiveTable) -> None:
        """Another process stored a change of this table's chat: read the room again and
        send every page here that may read it the whole chat (the text never travels
        between processes, only the news that there is some)."""
        self.rooms.pop(table.row.id, None)
        room = await self.room(table)
        for conn in list(table.conns):
            if self.readable(table, room, conn):
                conn.post(self.snapshot(table, room))

    async def attach(self, table: LiveTable, conn: Conn) -> None:
        """A new connection gets the chat so far (when it may read it)."""
        room = await self.room(table)
        if self.readable(table, room, conn):
            conn.post(self.snapshot(table, room))

    async def share(self, table: LiveTable, seat: int, on: bool) -> None:
        """`seat` votes to keep the chat in the replay (or not)."""
        room = await self.room(table)
        await self._store(table, room, kind="share", seat=seat, text="yes" if on else "no")
        room.share[seat] = on
        await self._tell(table, room, self.snapshot(table, room))

    async def say(self, table: LiveTable, seat: int, text: Any, phrase: str | None) -> None:
        """`seat` writes a line (or a quick phrase); Refused says why it was not taken."""
        if phrase is not None:
            if phrase not in PHRASES:
                raise Refused(
                    N_("no quick phrase {phrase}; phrases: {phrases}"),
                    phrase=repr(phrase),
                    phrases=", ".join(PHRASES),
                )
            text = PHRASES[phrase]
        else:
            try:
                text = clean_text(text)
            except BadInput as err:
                raise Refused(err.args[0]) from err  # its Reason: translated where said
        room = await self.room(table)
        if seat in room.muted:
            raise Refused(N_("the table's owner has muted you in the chat"))
        bucket = room.buckets.setdefault(seat, TokenBucket(RATE, BURST))
        if not bucket.take():
            raise Refused(N_("you are writing in the chat too fast; wait a few seconds"))
        name = table.seat_row(seat).name or f"seat {seat + 1}"
        # stored with the line: after a restart it is still its writer's, not whoever
        # holds the seat by then (issue 43)
        row = await self._store(table, room, kind="say", seat=seat, text=text, name=name)
        line = {"n": row["n"], "seat": seat, "name": name, "text": text, "at": row["at"]}
        room.lines.append(line)
        await self._tell(table, room, {"type": "chat", "lines": [line]})

    async def mute(self, table: LiveTable, seat: int, on: bool) -> None:
        room = await self.room(table)
        if not 0 <= seat < len(table.row.seats):
            raise Refused(N_("seat {seat} does not exist"), 400, seat=seat + 1)  # from 1
        await self._store(table, room, kind="mute" if on else "unmute", seat=None, subject=seat)
        (room.muted.add if on else room.muted.discard)(seat)
        await self._tell(table, room, {"type": "chat_mute", "muted": sorted(room.muted)})


def router(
    hub: Callable[[], Hub],
    chat: Chat,
    owner_cookie: Callable[[str], str],
) -> APIRouter:
    api = APIRouter()

    @api.post("/api/tables/{table_id}/chat/mute")
    async def mute(table_id: str, request: Request) -> dict[str, Any]:
        table = await hub().get(table_id)
        owner = request.cookies.get(owner_cookie(table_id))
        if not owner or token_hash(owner) != table.row.owner_hash:
            raise Refused(N_("only the creator of the table can mute someone"), 403)
        change = await posted(request, Mute)
        await chat.mute(table, change.seat, change.on)
        return {"muted": sorted((await chat.room(table)).muted)}

    @api.get("/api/tables/{table_id}/replay/chat")
    async def replay_chat(table_id: str) -> dict[str, Any]:
        """The chat of a finished game, only when its people chose to keep it in."""
        table = await hub().get(table_id)
        if table.row.status != "finished":
            raise Refused(N_("only a finished game can be replayed"))
        room = await chat.room(table)
        if not shared(room, table):
            return {"shared": False, "lines": []}
        return {"shared": True, "lines": room.lines}

    return api
