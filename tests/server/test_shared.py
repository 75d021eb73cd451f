"""One shared screen over the socket (issue 14, item 7): one browser holds several seats
and a seat's view is sent only after the page says that person is looking."""

from __future__ import annotations

from fastapi.testclient import TestClient

from gamenight.server.shared import cookie_name
from tests.server.conftest import new_table, receive_state


def test_a_seat_is_shown_only_after_its_person_looks(client: TestClient) -> None:
    t = new_table(client, seats=["open", "open"], settings={"shared_screen": True})
    tid = t["id"]
    for seat, name in ((0, "Ann"), (1, "Bob")):
        r = client.post(f"/api/tables/{tid}/shared/join", json={"seat": seat, "name": name})
        assert r.status_code == 200, r.text
    assert r.json()["seats"] == [0, 1]
    assert client.get(f"/api/tables/{tid}/shared").json() == {
        "shared_screen": True,
        "seats": [0, 1],
    }
    assert client.post(f"/api/tables/{tid}/start").status_code == 200
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        first = receive_state(ws)
        assert first["seat"] is None and "actions" not in first  # nobody looks yet
        ws.send_json({"type": "look", "seat": 1})
        mine = receive_state(ws)
        assert mine["seat"] == 1 and mine["view"]["hand"] is not None
        ws.send_json({"type": "look", "seat": 5})
        msg = ws.receive_json()
        assert msg["type"] == "refused" and "holds seats 1, 2;" in msg["reason"]  # from 1
        ws.send_json({"type": "look", "seat": None})
        assert receive_state(ws)["seat"] is None
    # another browser holds nothing and cannot look as anyone
    other = TestClient(client.app)
    with other.websocket_connect(f"/ws/tables/{tid}") as ws:
        receive_state(ws)
        ws.send_json({"type": "look", "seat": 0})
        msg = ws.receive_json()
        assert msg["type"] == "refused" and "shared screen's device" in msg["reason"]


def test_an_ordinary_table_takes_one_seat_per_browser(client: TestClient) -> None:
    t = new_table(client, seats=["open", "open"])
    r = client.post(f"/api/tables/{t['id']}/shared/join", json={"seat": 0, "name": "Ann"})
    assert r.status_code == 409 and "shared screen" in r.json()["error"]
    assert cookie_name(t["id"]) not in client.cookies
    bad = client.post(
        "/api/tables",
        json={
            "game": "drop-or-stop",
            "seats": ["open", "open"],
            "options": {"players": 2},
            "settings": {"shared_screen": "yes"},
        },
    )
    assert bad.status_code == 400 and "true or false" in bad.json()["error"]
