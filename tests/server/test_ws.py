"""Live play over WebSocket: every message kind, every refusal, and what each seat is sent."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import gamenight
from gamenight.server.db import Store
from tests.server.conftest import (
    cookie,
    hub_of,
    join,
    new_table,
    play_to_the_end,
    receive_state,
    two_people,
)


def store(client: TestClient) -> Store:
    return hub_of(client).store  # type: ignore[no-any-return]


def test_two_people_play_a_whole_game_and_the_log_replays(client: TestClient) -> None:
    tid, a, b = two_people(client, seed=11)
    last = play_to_the_end(client, tid, a, b, seed=3)
    assert last[0]["outcome"] == last[1]["outcome"]
    history = store(client).history(tid)
    row = store(client).table(tid)
    assert row is not None and row.status == "finished" and row.version == len(history)
    game = gamenight.load("drop-or-stop", players=2)
    final = game.replay(row.seed, [(s, game.action_from_json(x)) for s, x in history])
    assert final.view(0) == last[0]["view"] and final.view(1) == last[1]["view"]


def test_each_seat_is_sent_only_its_own_hand(client: TestClient) -> None:
    tid, a, _b = two_people(client, seed=4)
    with (
        client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, a)) as wa,
        client.websocket_connect(f"/ws/tables/{tid}") as spectator,
    ):
        mine = receive_state(wa)
        seen = receive_state(spectator)
        assert mine["seat"] == 0 and seen["seat"] is None
        assert seen["view"]["hand"] is None and "actions" not in seen
        hub = client.app.state.holder["hub"]  # type: ignore[attr-defined]
        state = hub.live[tid].state
        other = state.view(1)["hand"]
        assert mine["view"]["hand"] == state.view(0)["hand"]
        text = json.dumps(mine["events"])
        assert json.dumps({"seat": 1, "cards": other})[1:-1] not in text
        assert all(e.get("seat") != 1 for e in mine["events"] if e["kind"] == "hand")
        assert all(e["kind"] != "hand" for e in seen["events"])


def test_refusals_change_nothing(client: TestClient) -> None:
    tid, a, b = two_people(client, seed=2)
    with (
        client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, a)) as wa,
        client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, b)) as wb,
    ):
        sa, _sb = receive_state(wa), receive_state(wb)
        receive_state(wa)  # the broadcast when b connected
        to_act = sa["view"]["to_act"]
        mover, waiter = (wa, wb) if to_act == 0 else (wb, wa)
        version = sa["version"]

        def refused(ws: Any, payload: Any, words: str) -> None:
            ws.send_text(payload if isinstance(payload, str) else json.dumps(payload))
            msg = ws.receive_json()
            assert msg["type"] == "refused", msg
            assert words in msg["reason"], msg["reason"]
            # a refused act names the version it was made on: a page with two acts in
            # flight (after a reconnection) tells which one was refused
            act = isinstance(payload, dict) and payload.get("type") == "act"
            if act and type(payload.get("version")) is int:
                assert msg["made_on"] == payload["version"], msg
            else:
                assert "made_on" not in msg, msg

        refused(mover, "{not json", "not JSON")
        refused(mover, "[1, 2]", "JSON object with a 'type'")
        refused(mover, {"type": "dance"}, "unknown message type 'dance'")
        refused(
            mover,
            {"type": "act", "version": version, "action": {"type": "fly"}},
            "unknown action type 'fly'",
        )
        refused(mover, {"type": "act", "version": version, "action": "drop"}, "JSON object")
        refused(
            mover,
            {"type": "act", "version": version, "action": {"type": "drop", "x": 1}},
            "has no field",
        )
        refused(
            mover,
            {"type": "act", "version": version - 1, "action": {"type": "drop"}},
            "stale action",
        )
        refused(
            mover,
            {"type": "act", "version": version + 5, "action": {"type": "drop"}},
            "stale action",
        )
        refused(mover, {"type": "act", "action": {"type": "drop"}}, "integer 'version'")
        refused(
            mover, {"type": "act", "version": "1", "action": {"type": "drop"}}, "integer 'version'"
        )
        refused(mover, "x" * 5000, "too large")
        refused(
            waiter,
            {"type": "act", "version": version, "action": {"type": "stop"}},
            "it is not your turn",
        )
        refused(mover, {"type": "pass_ahead", "on": True}, "no reaction window")
        mover.send_json({"type": "ping", "t": 7})
        assert mover.receive_json() == {"type": "pong", "t": 7}
        hub = client.app.state.holder["hub"]  # type: ignore[attr-defined]
        assert len(hub.live[tid].state.history) == 0
        assert store(client).history(tid) == []
        mover.send_json({"type": "sync"})
        assert receive_state(mover)["version"] == version


def test_wrong_tokens_cannot_act(client: TestClient) -> None:
    tid, _a, _b = two_people(client)
    other = new_table(client, seats=["open", "open"])
    c = join(client, other["id"], 0, "Cy")
    for headers in (
        {"cookie": f"gn_seat_{tid}=forged"},
        cookie(other["id"], c),
        cookie(tid, c),
        {},
    ):
        with client.websocket_connect(f"/ws/tables/{tid}", headers=headers) as ws:
            msg = receive_state(ws)
            assert msg["seat"] is None and msg["view"]["hand"] is None
            ws.send_json({"type": "act", "version": 0, "action": {"type": "drop"}})
            reply = ws.receive_json()
            assert reply["type"] == "refused" and "spectator" in reply["reason"]
    assert store(client).history(tid) == []


def test_unknown_table_socket(client: TestClient) -> None:
    with client.websocket_connect("/ws/tables/nope") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and "no table" in msg["reason"]


def test_echo_socket(client: TestClient) -> None:
    with client.websocket_connect("/ws/echo") as ws:
        ws.send_text("hello")
        assert ws.receive_text() == "hello"


def test_acting_before_the_start_is_refused(client: TestClient) -> None:
    t = new_table(client, seats=["open", "open"])
    a = join(client, t["id"], 0, "Ann")
    with client.websocket_connect(f"/ws/tables/{t['id']}", headers=cookie(t["id"], a)) as ws:
        msg = receive_state(ws)
        assert msg["table"]["status"] == "open" and "view" not in msg
        ws.send_json({"type": "act", "version": 0, "action": {"type": "drop"}})
        reply = ws.receive_json()
        assert reply["type"] == "refused" and "not started" in reply["reason"]


def test_bots_play_server_side_against_a_person(client: TestClient) -> None:
    t = new_table(client, seats=["open", "easy", "medium"], options={"players": 3}, seed=9)
    a = join(client, t["id"], 0, "Ann")
    client.post(f"/api/tables/{t['id']}/start")
    with client.websocket_connect(f"/ws/tables/{t['id']}", headers=cookie(t["id"], a)) as ws:
        msg = receive_state(ws)
        while not msg["view"]["over"]:
            if msg.get("asked"):
                ws.send_json({"type": "act", "version": msg["version"], "action": {"type": "stop"}})
            msg = receive_state(ws)
        assert msg["outcome"]["winners"]
    history = store(client).history(t["id"])
    assert {s for s, _ in history} == {0, 1, 2}


def test_drop_it_drop_runs_in_the_pool_and_explains_the_result(client: TestClient) -> None:
    t = new_table(client, game="drop-it", seats=["open", "easy"], options={"players": 2}, seed=1)
    a = join(client, t["id"], 0, "Ann")
    client.post(f"/api/tables/{t['id']}/start")
    with client.websocket_connect(f"/ws/tables/{t['id']}", headers=cookie(t["id"], a)) as ws:
        msg = receive_state(ws)
        while not msg.get("asked"):
            msg = receive_state(ws)
        assert msg["actions"] is None  # the grid is too long to send; any point is allowed
        piece = msg["view"]["sides"][0]["supply"][0].rsplit("-", 1)[0]
        ws.send_json(
            {
                "type": "act",
                "version": msg["version"],
                "action": {
                    "type": "drop",
                    "piece": "purple-blob",
                    "x": 1.0,
                    "angle": 0.0,
                    "depth": 0.0,
                },
            }
        )
        reply = ws.receive_json()
        assert reply["type"] == "refused" and "there is no such piece" in reply["reason"]
        ws.send_json(
            {
                "type": "act",
                "version": msg["version"],
                "action": {"type": "drop", "piece": piece, "x": 120.0, "angle": 0.3, "depth": 0.0},
            }
        )
        after = receive_state(ws, msg["version"] + 1)
        last = after["view"]["last"]
        assert last["piece"].startswith(piece) and "level" in last and "violations" in last
        assert after["view"]["frames"]["steps"]


def arne_table(client: TestClient, seed: int, **settings: Any) -> tuple[str, str]:
    r = client.post(
        "/api/tables",
        json={
            "game": "arne",
            "options": {"players": 3},
            "seats": ["open", "easy", "easy"],
            "settings": {"bot_delay": 0, "pass_dwell": 0, **settings},
            "seed": seed,
        },
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    token = join(client, tid, 0, "Ann")
    client.post(f"/api/tables/{tid}/start")
    return tid, token


def test_arne_windows_no_leak_and_automatic_passes(client: TestClient) -> None:
    """A17: a person with no legal black action is passed for when the countdown ends;
    every message to the person carries the same fields whoever could answer; no other
    hand is ever sent."""
    tid, token = arne_table(client, seed=21, reaction_seconds=0.2)
    hub = client.app.state.holder["hub"]  # type: ignore[attr-defined]
    rng = random.Random(5)
    windows_seen = auto_passes = 0
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        msg = receive_state(ws)
        for _ in range(3000):
            if msg["view"]["over"]:
                break
            state = hub.live[tid].state
            assert set(msg) >= {"deadline", "deadline_seat", "view", "events", "actions"}
            text = json.dumps(msg)
            for p in (1, 2):
                hand = state.view(p)["hand"]
                # (the same cards as my own hand, e.g. both hold just LOCK, tell nothing)
                mine = hand == msg["view"].get("hand")
                assert f'"hand": {json.dumps(hand)}' not in text or not hand or mine
            if msg["view"]["window"]:
                windows_seen += 1
                if msg["deadline_seat"] == 0:
                    assert msg["deadline"] is not None
            if msg.get("asked"):
                acts = msg["actions"]
                blacks = [x for x in acts if x["type"] != "pass"]
                if msg["view"]["window"] and not blacks:
                    # Nothing to answer: the server passes for me when the countdown ends.
                    version = msg["version"]
                    msg = receive_state(ws, version + 1)
                    assert store(client).history(tid)[version] == (0, {"type": "pass"})
                    auto_passes += 1
                    continue
                choice = rng.choice(acts)
                ws.send_json({"type": "act", "version": msg["version"], "action": choice})
            msg = receive_state(ws)
        assert msg["view"]["over"], "the game did not finish"
    assert windows_seen > 10 and auto_passes > 0
    history = store(client).history(tid)
    row = store(client).table(tid)
    assert row is not None
    game = gamenight.load("arne", players=3)
    final = game.replay(row.seed, [(s, game.action_from_json(x)) for s, x in history])
    assert final.view(0) == msg["view"]


def test_arne_always_pass_and_pass_in_advance(client: TestClient) -> None:
    tid, token = arne_table(client, seed=8, reaction_seconds=30)
    hub = client.app.state.holder["hub"]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        msg = receive_state(ws)
        ws.send_json({"type": "auto_pass", "on": True})
        msg = receive_state(ws)
        assert msg["you"]["auto_pass"] is True
        for _ in range(2000):
            if msg["view"]["over"]:
                break
            if msg.get("asked") and msg["view"]["window"]:
                # With "always pass" on, the server passes for the person at once.
                version = msg["version"]
                msg = receive_state(ws, version + 1)
                assert store(client).history(tid)[version] == (0, {"type": "pass"})
                continue
            if msg.get("asked"):
                ws.send_json(
                    {"type": "act", "version": msg["version"], "action": msg["actions"][0]}
                )
            elif (
                msg["view"]["window"]
                and not msg["you"]["pass_ahead"]
                and msg["view"]["window"]["holder"] != 0
            ):
                ws.send_json({"type": "pass_ahead", "on": True})
            msg = receive_state(ws)
        assert msg["view"]["over"]
    assert hub.live[tid].state.over


def test_reaction_timer_passes_for_a_slow_person(client: TestClient) -> None:
    tid, token = arne_table(client, seed=3, reaction_seconds=0.2)
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        msg = receive_state(ws)
        timed_out = False
        for _ in range(3000):
            if msg["view"]["over"]:
                break
            if msg.get("asked") and msg["view"]["window"] and msg["deadline_seat"] == 0:
                # Do nothing: the timer must pass for us.
                version = msg["version"]
                msg = receive_state(ws, version + 1)
                timed_out = True
                break
            if msg.get("asked"):
                ws.send_json(
                    {"type": "act", "version": msg["version"], "action": msg["actions"][0]}
                )
            msg = receive_state(ws)
        assert timed_out
    history = store(client).history(tid)
    assert history[msg["version"] - 1] == (0, {"type": "pass"})


def test_every_pass_in_a_window_takes_the_same_minimum_time(client: TestClient) -> None:
    """A17: a pass the server makes for a person with nothing to play comes when the whole
    countdown has run out, as for a person who could answer, so the pace of a window does
    not tell who could answer."""
    tid, token = arne_table(client, seed=21, reaction_seconds=0.5, pass_dwell=0.25)
    timed = 0
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        msg = receive_state(ws)
        while timed < 2 and not msg["view"]["over"]:
            if msg.get("asked") and msg["view"]["window"]:
                if all(a["type"] == "pass" for a in msg["actions"]):
                    start = time.monotonic()
                    version = msg["version"]
                    msg = receive_state(ws, version + 1)
                    assert time.monotonic() - start >= 0.4
                    assert store(client).history(tid)[version] == (0, {"type": "pass"})
                    timed += 1
                    continue
                ws.send_json({"type": "act", "version": msg["version"], "action": {"type": "pass"}})
            elif msg.get("asked"):
                ws.send_json(
                    {"type": "act", "version": msg["version"], "action": msg["actions"][0]}
                )
            msg = receive_state(ws)
    assert timed == 2


def test_another_sites_page_cannot_open_a_seat_socket(client: TestClient) -> None:
    tid, a, _b = two_people(client)
    headers = {**cookie(tid, a), "origin": "http://evil.example"}
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect),
        client.websocket_connect(f"/ws/tables/{tid}", headers=headers) as ws,
    ):
        ws.receive_json()
