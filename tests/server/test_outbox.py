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
    """Seats 0..3 held by people; each page claims its seat by its token's hash (a page's
    seat is derived from those at every broadcast: rights.py)."""

    def __init__(self, conns: set[Conn]) -> None:
        self.conns = conns
        self.state = None
        person = [
            types.SimpleNamespace(seat=s, kind="person", token_hash=f"h{s}") for s in range(4)
        ]
        self.row = types.SimpleNamespace(seats=person)
        for conn in conns:
            conn.token_hash = None if conn.seat is None else f"h{conn.seat}"


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
                got.append(json.loads(quick.outbox.popleft())["version"])
        assert got == list(range(10)), "in order, none lost"
        assert dropped == [stalled] and stalled.dropped and not quick.dropped
        assert len(stalled.outbox) == 3  # what it was sent before falling behind

    asyncio.run(run())


def test_a_waiting_writer_wakes_for_each_message_in_order() -> None:
    async def run() -> None:
        conn = Conn(0, limit=8)
        got: list[int] = []

        async def send(text: str) -> None:
            got.append(json.loads(text)["n"])

        async def writer() -> None:  # as routes/live.py's
            while True:
                await conn.queued()
                await conn.drain(send)

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
        await conn.drain(send)
        assert got == [0, 1, 2, 3] and not conn.outbox

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


def test_an_actions_answer_is_written_before_the_socket_is_read_again(tmp_path: Any) -> None:
    """The page's own answer leaves in the same turn of the loop as its action: through the
    writer task alone it waited behind whatever was ready first (another table's action
    that arrived in the same turn: bench/capacity.py's slowest 1%). Driven through the app
    over ASGI, so the socket is read again exactly when the route asks."""
    import httpx

    from gamenight.engine.registry import load
    from gamenight.server.app import create_app, seat_cookie
    from tests.server.conftest import TEST_RATES

    app = create_app(f"sqlite:///{tmp_path / 'answer.sqlite3'}", pool="thread", rates=TEST_RATES)
    game = load("drop-or-stop").from_options(players=2)
    seed = next(s for s in range(100) if game.start(s).actors[0] == 0)

    async def run() -> None:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
                body = {
                    "game": "drop-or-stop",
                    "seed": seed,  # Ann (seat 0) decides first
                    "practice": True,
                    "options": {"players": 2},
                    "seats": ["open", "open"],
                    "name": "Ann",
                    "sit": 0,
                }
                r = await http.post("/api/tables", json=body)
                assert r.status_code == 201, r.text
                tid = r.json()["id"]
                token = r.cookies[seat_cookie(tid)]
                owner = f"gn_owner_{tid}={r.cookies[f'gn_owner_{tid}']}"
                http.cookies.clear()
                r = await http.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "Bob"})
                assert r.status_code == 200, r.text
                http.cookies.clear()
                r = await http.post(f"/api/tables/{tid}/start", headers={"cookie": owner})
                assert r.status_code == 200, r.text
            sent: list[dict[str, Any]] = []
            asked = asyncio.Event()
            acted_on: list[int] = []  # the version the action was made on
            answered_before_next_read: list[bool] = []

            async def send(message: dict[str, Any]) -> None:
                if message["type"] == "websocket.send":
                    msg = json.loads(message["text"])
                    sent.append(msg)
                    if msg.get("asked"):
                        asked.set()

            reads = 0

            async def receive() -> dict[str, Any]:
                nonlocal reads
                reads += 1
                if reads == 1:
                    return {"type": "websocket.connect"}
                if reads == 2:  # the first state, then this seat's action
                    await asyncio.wait_for(asked.wait(), 10)
                    last = sent[-1]
                    acted_on.append(last["version"])
                    act = {"type": "act", "version": last["version"], "action": last["actions"][0]}
                    return {"type": "websocket.receive", "text": json.dumps(act)}
                answered_before_next_read.append(any(m["version"] > acted_on[0] for m in sent))
                return {"type": "websocket.disconnect", "code": 1000}

            scope = {
                "type": "websocket",
                "path": f"/ws/tables/{tid}",
                "raw_path": f"/ws/tables/{tid}".encode(),
                "query_string": b"",
                "headers": [
                    (b"host", b"localhost"),
                    (b"cookie", f"{seat_cookie(tid)}={token}".encode()),
                ],
                "scheme": "ws",
                "server": ("localhost", 80),
                "client": ("127.0.0.1", 50000),
                "subprotocols": [],
                "root_path": "",
                "asgi": {"version": "3.0"},
            }
            await asyncio.wait_for(app(scope, receive, send), 20)
            assert answered_before_next_read == [True], sent

    asyncio.run(run())
