"""Each connection has its own outgoing queue (server/messages.py): a broadcast queues and
never waits for a socket; a page keeps its messages in order; one that falls `limit`
messages behind is dropped alone."""

from __future__ import annotations

import asyncio
import json
import types
from typing import Any

from gamenight.server import messages
from gamenight.server.tables import Conn


class FakeHub:
    """Just what a broadcast asks of the hub: each connection's message."""

    def __init__(self) -> None:
        self.n = 0

    def message(self, table: Any, conn: Conn, views: dict[Any, Any]) -> dict[str, Any]:
        return {"type": "state", "version": self.n, "seat": conn.seat}


class FakeTable:
    def __init__(self, conns: set[Conn]) -> None:
        self.conns = conns
        self.state = None


def test_a_stalled_page_does_not_hold_the_others_and_is_dropped_alone() -> None:
    async def run() -> None:
        dropped: list[Conn] = []
        stalled = Conn(0, limit=3, on_overflow=dropped.append)  # its writer never runs
        quick = Conn(1, limit=3)
        table = FakeTable({stalled, quick})
        hub = FakeHub()
        got: list[int] = []
        for n in range(10):
            hub.n = n
            messages.broadcast(hub, table)  # type: ignore[arg-type]  # returns at once
            while quick.outbox:  # the quick page's writer keeps up
                got.append(json.loads(await quick.next_text())["version"])
        assert got == list(range(10)), "in order, none lost"
        assert dropped == [stalled] and stalled.dropped and not quick.dropped
        assert len(stalled.outbox) == 3  # what it was sent before falling behind

    asyncio.run(run())


def test_a_waiting_writer_wakes_for_each_message_in_order() -> None:
    async def run() -> None:
        conn = Conn(0, limit=8)
        got: list[int] = []

        async def writer() -> None:
            while True:
                got.append(json.loads(await conn.next_text())["n"])

        task = asyncio.create_task(writer())
        await asyncio.sleep(0)  # the writer now waits on an empty outbox
        conn.post({"n": 0})
        await asyncio.sleep(0)
        conn.post({"n": 1})
        conn.post({"n": 2})  # two before the writer runs again
        for _ in range(5):
            await asyncio.sleep(0)
        assert got == [0, 1, 2] and not conn.outbox
        task.cancel()  # a cancelled writer (the socket closed) leaves the queue usable
        conn.post({"n": 3})
        assert await conn.next_text() == '{"n":3}'

    asyncio.run(run())


def test_the_seat_that_just_moved_is_sent_its_answer_first() -> None:
    """Each socket write wakes a reader; the one who acted is the one waiting."""
    order: list[int | None] = []

    class Recorded(Conn):
        def post(self, msg: dict[str, Any]) -> None:
            order.append(self.seat)

    moved = types.SimpleNamespace(history=[(0, "draw"), (2, "stop")])  # seat 2 moved last
    for seats in [[0, 1, 2, None], [2, None, 1, 0], [None, 2, 0, 1]] * 10:
        order.clear()
        table = FakeTable({Recorded(s) for s in seats})  # a set: in no particular order
        table.state = moved
        messages.broadcast(FakeHub(), table)  # type: ignore[arg-type]
        assert order[0] == 2 and sorted(order, key=str) == sorted(seats, key=str)
