"""Arne's pace (issue 45, item 4): a reaction window's clock is one for everyone
(live_table.WindowClock), "Wait!" gives the one who pressed it the full time, and a pass in
advance may last the whole turn. The A17 timing test itself is in test_security.py."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import cookie, join, receive_state

HOLD = 4.0


def ann_and_two_bots(client: TestClient, **settings: Any) -> tuple[str, str]:
    body = {
        "game": "arne",
        "options": {"players": 3},
        "seats": ["open", "easy", "easy"],
        "settings": {"bot_delay": 0, "pass_dwell": 0.05, "reaction_hold_seconds": HOLD, **settings},
    }
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    token = join(client, tid, 0, "Ann")
    assert client.post(f"/api/tables/{tid}/start").status_code == 200
    return tid, token


def answering(msg: dict[str, Any]) -> bool:
    """Ann holds priority in a window and may pass (a reaction, or her own main window)."""
    return bool(
        msg.get("asked")
        and msg["view"]["window"]
        and any(a["type"] == "pass" for a in msg["actions"] or [])
    )


def play_on(ws: Any, msg: dict[str, Any]) -> dict[str, Any]:
    """Ann's decision outside windows (her white card, a colour, a card to give): the first."""
    ws.send_json({"type": "act", "version": msg["version"], "action": msg["actions"][0]})
    return receive_state(ws, msg["version"] + 1)


def until(ws: Any, msg: dict[str, Any], want: Any, seconds: float = 60) -> dict[str, Any]:
    """Play on (touching nothing in windows) until `want(msg)`."""
    end = time.monotonic() + seconds
    while not want(msg):
        assert time.monotonic() < end and not msg["view"]["over"], "never happened"
        if msg.get("asked") and not msg["view"]["window"]:
            msg = play_on(ws, msg)
        else:
            msg = receive_state(ws)
    return msg


def test_wait_gives_the_full_time_once_and_everyone_sees_who_asked(client: TestClient) -> None:
    tid, token = ann_and_two_bots(client, reaction_seconds=0.5)
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        msg = until(ws, receive_state(ws), answering)
        left = msg["deadline"] - msg["now"]
        assert left <= 0.6, left  # the short clock, for everyone
        ws.send_json({"type": "wait"})
        held = receive_state(ws)
        assert held["holds"] == [0] and held["deadline_seat"] == 0
        assert held["deadline"] - held["now"] >= HOLD - 0.5  # the full time, from now
        ws.send_json({"type": "wait"})
        refused = ws.receive_json()
        while refused["type"] != "refused":
            refused = ws.receive_json()
        assert refused["reason"] == "you have already asked to wait in this window"
        # Nothing touched: she passes when the hold runs out, not before.
        start = time.monotonic()
        after = receive_state(ws, held["version"] + 1)
        assert time.monotonic() - start >= HOLD - 1.0
        assert "holds" not in after or after["view"]["window"]


def test_wait_is_refused_outside_a_window_and_to_a_watcher(client: TestClient) -> None:
    tid, token = ann_and_two_bots(client, reaction_seconds=0.5)
    with client.websocket_connect(f"/ws/tables/{tid}") as watcher:
        receive_state(watcher)
        watcher.send_json({"type": "wait"})
        answer = watcher.receive_json()
        while answer["type"] != "refused":
            answer = watcher.receive_json()
        assert "seat" in answer["reason"]
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        msg = until(ws, receive_state(ws), lambda m: m.get("asked") and not m["view"]["window"])
        ws.send_json({"type": "wait"})
        answer = ws.receive_json()
        while answer["type"] != "refused":
            answer = ws.receive_json()
        assert answer["reason"] == "you can ask to wait only while a window waits for your answer"
        assert msg["view"]["over"] is False


def test_a_pass_for_the_turn_passes_every_window_until_the_turn_ends(
    client: TestClient,
) -> None:
    tid, token = ann_and_two_bots(client, reaction_seconds=5.0)
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        # a window on a bot's turn (not her own main window, where she plays her card)
        msg = until(ws, receive_state(ws), lambda m: answering(m) and m["view"]["active"] != 0)
        ws.send_json({"type": "pass_ahead", "on": True, "turn": True})
        start = time.monotonic()
        msg = receive_state(ws, msg["version"] + 1)
        assert time.monotonic() - start < 2.5  # not the 5 s clock: she passed at once
        # Every window she is asked in for the rest of this turn passes without her, until
        # the next turn begins (its "turn" event).
        while not new_turn(msg):
            assert msg["you"].get("pass_turn") is True, msg["you"]
            if msg.get("asked") and not msg["view"]["window"]:
                msg = play_on(ws, msg)
                continue
            start = time.monotonic()
            msg = receive_state(ws)
            assert time.monotonic() - start < 2.5
        assert not msg["you"].get("pass_turn")


def new_turn(msg: dict[str, Any]) -> bool:
    return msg["view"]["over"] or any(e["kind"] == "turn" for e in msg.get("events") or [])


def test_the_lobby_form_and_the_server_share_one_default_and_range(client: TestClient) -> None:
    """Issue 45, item 4: the form reads GET /api/table-settings; the server refuses what the
    same table refuses, and a table made without the setting gets the same default."""
    known = client.get("/api/table-settings").json()
    reaction = known["reaction_seconds"]
    assert reaction["default"] <= 1.5 and reaction["min"] > 0  # never off (A17)
    too_long = {"reaction_seconds": reaction["max"] + 1}
    r = client.post(
        "/api/tables",
        json={
            "game": "arne",
            "options": {"players": 3},
            "seats": ["open"] * 3,
            "settings": too_long,
        },
    )
    assert r.status_code == 400
    low, high = reaction["min"], reaction["max"]
    assert r.json()["error"] == (
        f"setting 'reaction_seconds' must be from {low:g} to {high:g} seconds"
    )
    made = client.post(
        "/api/tables", json={"game": "arne", "options": {"players": 3}, "seats": ["open"] * 3}
    ).json()
    table = client.get(f"/api/tables/{made['id']}").json()
    assert table["settings"]["reaction_seconds"] == reaction["default"]
    assert known["reaction_hold_seconds"]["default"] > reaction["default"]
