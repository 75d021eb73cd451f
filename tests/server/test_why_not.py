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


def test_a_refused_move_is_said_in_the_language_the_page_chose(client: TestClient) -> None:
    """Issue 46 items 3 and 4: the page chose German (its `gamenight_lang` cookie), so the
    rules' reason for a refused Arne move reaches it in German, the colour's name too; a
    page with no choice and an English browser reads English."""
    from tests.server.conftest import join, new_table

    t = new_table(client, game="arne", seats=["open", "open"])
    tid = t["id"]
    ann, bob = join(client, tid, 0, "Ann"), join(client, tid, 1, "Bob")
    assert client.post(f"/api/tables/{tid}/start").status_code == 200
    tokens = {0: ann, 1: bob}

    def refused(seat: int, lang: str, action: dict[str, str]) -> str:
        headers = cookie(tid, tokens[seat])
        headers["cookie"] += f"; gamenight_lang={lang}" if lang else ""
        headers["accept-language"] = "en-GB,en;q=0.9"
        with client.websocket_connect(f"/ws/tables/{tid}", headers=headers) as ws:
            msg = receive_state(ws)
            ws.send_json({"type": "act", "version": msg["version"], "action": action})
            answer = ws.receive_json()
            while answer["type"] != "refused":
                answer = ws.receive_json()
        return str(answer["reason"])

    lock = {"type": "lock", "display": 0, "stack": 0}
    assert refused(0, "de", lock) == (
        "Du kannst noch keine Karten spielen: zuerst wählt jeder eine Farbe"
    )
    assert refused(0, "ru", lock) == "Ты пока не можешь играть карты: сначала все выбирают цвет"
    assert refused(0, "", lock) == "you can't play cards yet: first everybody chooses a colour"
