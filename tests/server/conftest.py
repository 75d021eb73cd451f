"""Fixtures of the server tests: an in-process app on a fresh SQLite file per test."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamenight.server.app import create_app, seat_cookie
from gamenight.server.limits import Rates

# Scripted clients answer every message at once: far above a person's pace. The limits
# themselves are tested with their own apps (test_limits.py).
TEST_RATES = Rates(
    messages_per_second=10_000,
    message_burst=10_000,
    table_burst=1000,
    thinking_tables_per_address=10_000,
    thinking_tables_per_person=10_000,
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        f"sqlite:///{tmp_path / 'test.sqlite3'}", pool="thread", workers_n=2, rates=TEST_RATES
    )
    with TestClient(app) as c:
        yield c


def new_table(
    client: TestClient,
    game: str = "drop-or-stop",
    seats: list[str] | None = None,
    options: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    body = {
        "game": game,
        "seats": seats or ["open", "open"],
        "options": options if options is not None else {"players": len(seats or [0, 0])},
        "settings": {"bot_delay": 0},
        **extra,
    }
    if "seed" in extra:  # a chosen seed at a table of people: a practice table
        body.setdefault("practice", True)
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def join(client: TestClient, table_id: str, seat: int, name: str) -> str:
    """Take a seat; returns its token and leaves no seat cookie in the client's jar."""
    r = client.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": name})
    assert r.status_code == 200, r.text
    token = r.cookies.get(seat_cookie(table_id))
    assert token
    client.cookies.delete(seat_cookie(table_id))
    return str(token)


def cookie(table_id: str, token: str) -> dict[str, str]:
    return {"cookie": f"{seat_cookie(table_id)}={token}"}


def receive_state(ws: Any, version: int | None = None, see: bool = True) -> dict[str, Any]:
    """The next state message (at `version` if given), skipping other messages. Like a page,
    it says it has seen a round's moment (`see`), so the table does not wait for it."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if see and msg["type"] == "state" and "moment" in msg:
            ws.send_json({"type": "seen", "version": msg["version"]})
        if msg["type"] == "state" and (version is None or msg["version"] >= version):
            return msg


def wait_for(check: Any, seconds: float = 10.0) -> Any:
    """Poll `check` until it gives a true value, and return it; AssertionError past
    `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out")


def hub_of(client: TestClient) -> Any:
    """The app's Hub (the tables live in it)."""
    return client.app.state.holder["hub"]  # type: ignore[attr-defined]


def two_people(client: TestClient, **extra: Any) -> tuple[str, str, str]:
    """A started table of Ann (seat 0) and Bob (seat 1): its id and their seat tokens."""
    t = new_table(client, seats=["open", "open"], **extra)
    a = join(client, t["id"], 0, "Ann")
    b = join(client, t["id"], 1, "Bob")
    assert client.post(f"/api/tables/{t['id']}/start").status_code == 200
    return t["id"], a, b


def play_to_the_end(
    client: TestClient, tid: str, a: str, b: str, seed: int = 5
) -> dict[int, dict[str, Any]]:
    """Ann and Bob play seeded random moves over their sockets until the game is over;
    the last state each seat was sent."""
    rng = random.Random(seed)
    with (
        client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, a)) as wa,
        client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, b)) as wb,
    ):
        socks = {0: wa, 1: wb}
        last = {0: receive_state(wa), 1: receive_state(wb)}
        while not last[0]["view"]["over"]:
            seat = last[0]["view"]["to_act"]
            msg = last[seat]
            assert msg["asked"] and msg["version"] == last[0]["version"]
            action = rng.choice(msg["actions"])
            socks[seat].send_json({"type": "act", "version": msg["version"], "action": action})
            last = {s: receive_state(w, msg["version"] + 1) for s, w in socks.items()}
        return last
