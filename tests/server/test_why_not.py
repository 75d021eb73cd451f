"""A refused move says why in words (issue 45, item 5): whose turn it is, or the rules'
own reason, to the seat that asked."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import cookie, receive_state, two_people


def test_a_move_out_of_turn_is_told_whose_turn_it_is(client: TestClient) -> None:
    tid, ann, bob = two_people(client)
    tokens = {0: ann, 1: bob}
    names = {0: "Ann", 1: "Bob"}
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, ann)) as ws:
        msg = receive_state(ws)
        to_act = msg["view"]["to_act"]
    waiting = 1 - to_act
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, tokens[waiting])) as ws:
        msg = receive_state(ws)
        ws.send_json({"type": "act", "version": msg["version"], "action": {"type": "stop"}})
        answer = ws.receive_json()
        while answer["type"] != "refused":
            answer = ws.receive_json()
    assert answer["reason"] == f"it is not your turn: waiting for {names[to_act]}"
