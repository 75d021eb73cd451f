"""Fixtures of the server tests: an in-process app on a fresh SQLite file per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamenight.server.app import create_app, seat_cookie
from gamenight.server.limits import Rates

# Scripted clients answer every message at once: far above a person's pace. The limits
# themselves are tested with their own apps (test_limits.py).
TEST_RATES = Rates(messages_per_second=10_000, message_burst=10_000, table_burst=1000)


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
