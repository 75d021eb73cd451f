"""A leaver through the API alone (server/seats.py): the others' state messages say when a
bot will sit in (`bot_at`, epoch seconds), the bot takes the seat after the grace period,
and the person's page coming back clears `bot_at` (before) or sends the bot away (after)."""

from __future__ import annotations

import threading
import time
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import cookie, hub_of, join, new_table, receive_state, wait_for

GRACE = 1.5


def two_people(client: TestClient) -> tuple[str, str, str]:
    settings = {"bot_delay": 0, "grace_seconds": GRACE, "moment_seconds": 0}
    t = new_table(client, seats=["open", "open"], settings=settings, seed=3)
    ann, bob = join(client, t["id"], 0, "Ann"), join(client, t["id"], 1, "Bob")
    assert client.post(f"/api/tables/{t['id']}/start").status_code == 200
    return t["id"], ann, bob


def seat_until(ws: Any, seat: int, check: Any) -> dict[str, Any]:
    """Ann's state messages until seat `seat` in the table part passes `check` (Ann's own
    seat 0 never shows a countdown: she is here)."""
    for _ in range(50):
        seats = receive_state(ws)["table"]["seats"]
        assert seats[0]["bot_at"] is None and seats[0]["connected"] is True
        if check(seats[seat]):
            return dict(seats[seat])
    raise AssertionError(f"seat {seat} never passed the check")


def test_bob_leaves_the_bot_is_announced_then_sits_in_then_leaves_when_he_is_back(
    client: TestClient,
) -> None:
    tid, ann, bob = two_people(client)
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, ann)) as ws:
        with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, bob)) as bws:
            receive_state(bws)
            here = seat_until(ws, 1, lambda s: s["connected"])
            assert here["bot_at"] is None and here["stand_in"] is False
        left = time.time()
        away = seat_until(ws, 1, lambda s: s["bot_at"] is not None)
        assert left - 0.5 <= away["bot_at"] - GRACE <= left + 1.0  # "a bot plays in 1.5 s"
        assert away["stand_in"] is False and away["connected"] is False
        sitting = seat_until(ws, 1, lambda s: s["stand_in"])
        assert time.time() >= away["bot_at"] - 0.1
        assert sitting["bot_at"] is None  # the bot is in: nothing left to count down
        with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, bob)):
            back = seat_until(ws, 1, lambda s: not s["stand_in"])
            assert back["bot_at"] is None and back["connected"] is True


def test_bob_back_within_the_grace_period_keeps_his_seat(client: TestClient) -> None:
    tid, ann, bob = two_people(client)
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, ann)) as ws:
        with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, bob)):
            seat_until(ws, 1, lambda s: s["connected"])
        seat_until(ws, 1, lambda s: s["bot_at"] is not None)
        with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, bob)):
            back = seat_until(ws, 1, lambda s: s["connected"])
            assert back["bot_at"] is None
            time.sleep(GRACE + 0.5)  # past the first wait: it must not seat a bot now
            client.get(f"/api/tables/{tid}")  # let the server's loop run
            seat = client.get(f"/api/tables/{tid}").json()["seats"][1]
            assert seat["stand_in"] is False and seat["kind"] == "person"


def test_bob_back_after_the_game_ended_without_him_takes_his_seat_back(
    client: TestClient,
) -> None:
    """Seen in CI: the game can end while a bot plays for Bob; when he comes back the seat
    is his again (the old code kept "bot playing for Bob" on the finished table)."""
    tid, _ann, bob = two_people(client)
    for seat in (0, 1):  # the owner hands both away seats to bots, which play to the end
        r = client.post(f"/api/tables/{tid}/seats/{seat}", json={"to": "bot"})
        assert r.status_code == 200, r.text
    ended = wait_for(lambda: client.get(f"/api/tables/{tid}").json()["status"] == "finished")
    assert ended
    seats = client.get(f"/api/tables/{tid}").json()["seats"]
    assert [s["stand_in"] for s in seats] == [True, True]
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, bob)) as bws:
        state = receive_state(bws)
        assert state["table"]["status"] == "finished"
        seats = client.get(f"/api/tables/{tid}").json()["seats"]
        assert seats[1]["stand_in"] is False and seats[1]["kind"] == "person"
        assert seats[0]["stand_in"] is True  # Ann is not back yet


def test_bob_back_while_the_bot_is_being_seated_keeps_his_seat(client: TestClient) -> None:
    """Bob's page comes back while the grace period's bot is being stored (the database
    write in flight): once it is stored, Bob's return sends it away again."""
    tid, ann, bob = two_people(client)
    store = hub_of(client).store
    slow_seating = threading.Event()
    update_seat = store.update_seat

    def slow_update_seat(table_id: str, seat: Any) -> None:
        if seat.bot:  # the bot's seating: Bob comes back during it
            slow_seating.set()
            time.sleep(0.6)
        update_seat(table_id, seat)

    store.update_seat = slow_update_seat
    try:
        with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, ann)) as ws:
            with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, bob)):
                seat_until(ws, 1, lambda s: s["connected"])
            assert slow_seating.wait(GRACE + 5)
            with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, bob)):
                time.sleep(1.0)  # past the slow write
                seat = client.get(f"/api/tables/{tid}").json()["seats"][1]
                assert seat["stand_in"] is False and seat["connected"] is True
    finally:
        store.update_seat = update_seat
