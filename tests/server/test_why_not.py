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
    assert refused(0, "ru", lock) == "Вы пока не можете играть карты: сначала все выбирают цвет"
    assert refused(0, "", lock) == "you can't play cards yet: first everybody chooses a colour"


def test_a_move_out_of_turn_is_told_in_german_with_the_name_kept(client: TestClient) -> None:
    """Issue 46 item 4: the server's own refusal ("it is not your turn: waiting for X") on
    a socket whose page chose German is German; the waiting person's name is a word, kept."""
    tid, ann, bob = two_people(client)
    tokens = {0: ann, 1: bob}
    names = {0: "Ann", 1: "Bob"}
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, ann)) as ws:
        to_act = receive_state(ws)["view"]["to_act"]
    headers = cookie(tid, tokens[1 - to_act])
    headers["cookie"] += "; gamenight_lang=de"
    with client.websocket_connect(f"/ws/tables/{tid}", headers=headers) as ws:
        msg = receive_state(ws)
        ws.send_json({"type": "act", "version": msg["version"], "action": {"type": "stop"}})
        answer = ws.receive_json()
        while answer["type"] != "refused":
            answer = ws.receive_json()
        assert answer["reason"] == f"Du bist nicht am Zug: es wird auf {names[to_act]} gewartet"
        ws.send_text("[1]")  # a message that is no object: the socket's own refusal, German
        answer = ws.receive_json()
        while answer["type"] != "refused":
            answer = ws.receive_json()
        assert answer["reason"] == "Eine Nachricht ist ein JSON-Objekt mit einem 'type'"


def test_an_http_refusal_is_said_in_the_request_language(client: TestClient) -> None:
    """Issue 46 item 4: a refused request answers its `error` in the language of its
    Accept-Language header or its page's `gamenight_lang` cookie (a name inside kept);
    without either, the English sentence as before. The log keeps English."""
    from tests.server.conftest import join, new_table

    tid = new_table(client, seats=["open", "open"])["id"]
    join(client, tid, 0, "Ann")
    url = f"/api/tables/{tid}/join"
    taken = {"seat": 0, "name": "Bob"}
    r = client.post(url, json=taken, headers={"accept-language": "de-DE,de;q=0.9"})
    assert r.status_code == 409 and r.json() == {"error": "Platz 1 ist besetzt (Ann)"}
    client.cookies.set("gamenight_lang", "ru")
    r = client.post(url, json=taken)
    assert r.json() == {"error": "Место 1 занято (Ann)"}
    client.cookies.delete("gamenight_lang")
    r = client.post(
        url, content=b"x", headers={"accept-language": "nl", "content-type": "text/plain"}
    )
    assert r.status_code == 415
    assert r.json() == {
        "error": "De inhoud van een verzoek moet JSON zijn (Content-Type: application/json)"
    }
    r = client.post(url, json=taken)
    assert r.json() == {"error": "seat 1 is taken (Ann)"}


def test_the_engine_fallbacks_are_said_in_a_language() -> None:
    """The engine's own refusals (a finished game, a seat not asked) carry their words:
    a person reads them in their language, a program the English as before."""
    import pytest

    import gamenight
    from gamenight.engine.core import IllegalAction
    from gamenight.i18n.refusals import translate

    state = gamenight.load("drop-or-stop", players=2).start(seed=1)
    other = 1 - state.actors[0]
    action = state.actions(state.actors[0])[0]
    with pytest.raises(IllegalAction) as err:
        state.act(other, action)
    first = state.actors[0]
    # seats as the pages number them, from 1
    said = f"seat {other + 1} owes no decision now; waiting for seat {first + 1}"
    assert err.value.reason == said
    assert translate(err.value.reason, "de") == (
        f"Platz {other + 1} ist gerade nicht am Zug; es wird auf Platz {first + 1} gewartet"
    )


def test_seats_in_refusals_are_numbered_from_1_as_the_pages_number_them(
    client: TestClient,
) -> None:
    """The API's seat fields count from 0; the sentences people read count from 1, as the
    pages do ("seat 1" is the first seat), in every language."""
    from tests.server.conftest import join, new_table

    tid = new_table(client, seats=["open", "open", "open"])["id"]
    join(client, tid, 0, "Ann")
    r = client.post(f"/api/tables/{tid}/join", json={"seat": 0, "name": "Bob"})
    assert r.json() == {"error": "seat 1 is taken (Ann)"}
    r = client.post(f"/api/tables/{tid}/join", json={"seat": 3, "name": "Bob"})
    assert r.json() == {"error": "seat 4 does not exist; seats 1..3"}
    r = client.post(f"/api/tables/{tid}/seats/7", json={"to": "bot"})
    assert r.json() == {"error": "seat 8 does not exist; seats 1..3"}
    r = client.post(f"/api/tables/{tid}/start")
    assert r.json() == {"error": "seat(s) 2, 3 are still open: fill them with people or bots"}
    r = client.post(f"/api/tables/{tid}/start", headers={"accept-language": "ru"})
    assert r.json()["error"].startswith("Места 2, 3 ")
