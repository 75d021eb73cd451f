"""Every HTTP endpoint, with the errors a person or a bad client can cause."""

from __future__ import annotations

import collections
import urllib.parse

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamenight.server.app import owner_cookie
from tests.server.conftest import hub_of, join, new_table


def test_pages_and_static_files(client: TestClient) -> None:
    assert "New table" in client.get("/").text
    assert client.get("/tables/abc").status_code == 200
    assert client.get("/tables/abc/replay").status_code == 200
    for name in ("app.css", "common.js", "lobby.js", "table.js", "replay.js"):
        assert client.get(f"/static/{name}").status_code == 200, name
    for game in ("drop-or-stop", "arne", "drop-it"):
        assert client.get(f"/static/games/{game}.js").status_code == 200
    assert client.get("/api/health").text == "ok"


def test_games_list_the_option_forms(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert set(games) == {"arne", "drop-it", "drop-or-stop"}
    names = {o["name"] for o in games["drop-or-stop"]["options"]}
    assert {"players", "target", "deck"} <= names
    assert games["arne"]["levels"] == ["easy", "medium", "hard"]


def test_create_join_start_and_list(client: TestClient) -> None:
    t = new_table(client, seats=["open", "easy", "open"], options={"players": 3})
    assert t["status"] == "open" and t["invite"] == f"/tables/{t['id']}"
    assert [s["kind"] for s in t["seats"]] == ["open", "bot", "open"]
    listed = {x["id"] for x in client.get("/api/tables").json()}
    assert t["id"] in listed
    join(client, t["id"], 0, "Ann")
    r = client.post(f"/api/tables/{t['id']}/start")
    assert r.status_code == 409 and "still open" in r.json()["error"]
    join(client, t["id"], 2, "Bob")
    assert client.post(f"/api/tables/{t['id']}/start").json()["status"] == "running"
    r = client.post(f"/api/tables/{t['id']}/start")
    assert r.status_code == 409 and "already running" in r.json()["error"]
    info = client.get(f"/api/tables/{t['id']}").json()
    assert info["owner"] is True and info["you"] is None
    assert [s["name"] for s in info["seats"]] == ["Ann", "Bot 2 (easy)", "Bob"]


def test_create_and_sit_in_one_request(client: TestClient) -> None:
    r = client.post(
        "/api/tables",
        json={
            "game": "drop-or-stop",
            "seats": ["open", "hard"],
            "options": {"players": 2},
            "sit": 0,
            "name": "Ann",
        },
    )
    assert r.status_code == 201
    assert r.json()["you"] == 0 and r.json()["seats"][0]["name"] == "Ann"
    assert client.get(f"/api/tables/{r.json()['id']}").json()["you"] == 0


def test_bad_create_requests_are_refused_clearly(client: TestClient) -> None:
    def refused(body: object, status: int = 400) -> str:
        r = client.post("/api/tables", json=body)
        assert r.status_code == status, r.text
        return str(r.json()["error"])

    assert "no game 'chess'" in refused({"game": "chess", "seats": []})
    assert "'game' must be" in refused({"seats": ["open"]})
    assert "players" in refused(
        {"game": "drop-or-stop", "options": {"players": 9}, "seats": ["open"] * 9}
    )
    assert "3 seats" in refused({"game": "drop-or-stop", "seats": ["open"]})
    assert "'seats' must be a list" in refused({"game": "drop-or-stop", "seats": "open"})
    assert "no bot" in refused({"game": "drop-or-stop", "seats": ["open", "bot:nope", "open"]})
    assert "no option 'colour'" in refused(
        {"game": "drop-or-stop", "options": {"colour": 1}, "seats": ["open"] * 3}
    )
    assert "preset" in refused(
        {"game": "drop-or-stop", "options": {"deck": "/etc/passwd"}, "seats": ["open"] * 3}
    )
    assert "no table setting" in refused(
        {"game": "drop-or-stop", "seats": ["open"] * 3, "settings": {"speed": 1}}
    )
    assert "'seed' must be" in refused({"game": "drop-or-stop", "seats": ["open"] * 3, "seed": "x"})
    r = client.post(
        "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    r = client.post("/api/tables", content=b"[1]", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON object" in r.json()["error"]
    r = client.post("/api/tables", content=b"{" + b" " * 20000 + b"}")
    assert r.status_code == 413 and "too large" in r.json()["error"]


def test_join_errors(client: TestClient) -> None:
    t = new_table(client)
    tid = t["id"]
    assert client.post(f"/api/tables/{tid}/join", json={"seat": 5, "name": "A"}).status_code == 409
    r = client.post(f"/api/tables/{tid}/join", json={"seat": 0, "name": "   "})
    assert r.status_code == 400 and "name" in r.json()["error"]
    r = client.post(f"/api/tables/{tid}/join", json={"seat": "0", "name": "A"})
    assert r.status_code == 400
    join(client, tid, 0, "Ann")
    r = client.post(f"/api/tables/{tid}/join", json={"seat": 0, "name": "Bob"})
    assert r.status_code == 409 and "taken" in r.json()["error"]
    r = client.post("/api/tables/nope/join", json={"seat": 0, "name": "Bob"})
    assert r.status_code == 404 and "no table" in r.json()["error"]
    # The same browser cannot take two seats.
    r = client.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "Bob"})
    assert r.status_code == 200
    r = client.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "Cy"})
    assert r.status_code == 409


def test_only_the_creator_starts(client: TestClient) -> None:
    t = new_table(client, seats=["easy", "easy"])
    client.cookies.delete(owner_cookie(t["id"]))
    r = client.post(f"/api/tables/{t['id']}/start")
    assert r.status_code == 403 and "creator" in r.json()["error"]
    client.cookies.set(owner_cookie(t["id"]), "forged")
    assert client.post(f"/api/tables/{t['id']}/start").status_code == 403


def test_replay_and_rematch(client: TestClient) -> None:
    t = new_table(client, seats=["easy", "medium"], seed=5)
    tid = t["id"]
    r = client.get(f"/api/tables/{tid}/replay")
    assert r.status_code == 409 and "finished" in r.json()["error"]
    assert client.post(f"/api/tables/{tid}/rematch").status_code == 409
    client.post(f"/api/tables/{tid}/start")
    import time

    for _ in range(200):
        if client.get(f"/api/tables/{tid}").json()["status"] == "finished":
            break
        time.sleep(0.05)
    replay = client.get(f"/api/tables/{tid}/replay").json()
    assert len(replay["views"]) == len(replay["steps"]) + 1
    assert replay["views"][-1]["over"] and replay["outcome"]["winners"]
    assert replay["views"][0]["hand"] is None  # the spectator's view
    assert replay["views"][0]["rounds"] == [] and replay["views"][-1]["rounds"]  # snapshots
    seat0 = client.get(f"/api/tables/{tid}/replay?seat=0").json()
    assert seat0["views"][0]["hand"] is not None
    assert client.get(f"/api/tables/{tid}/replay?seat=7").status_code == 400
    r = client.post(f"/api/tables/{tid}/rematch")
    assert r.status_code == 201
    new = r.json()
    assert new["id"] != tid and new["rematch_of"] == tid and new["game"] == "drop-or-stop"
    assert [s["kind"] for s in new["seats"]] == ["bot", "bot"]


def test_drop_it_board_picture(client: TestClient) -> None:
    board = client.get("/api/games/drop-it/page-data").json()
    assert board["svg"].startswith("<svg") and board["board"]["levels"] == 8
    assert set(board["outlines"]) == {"circle", "square", "triangle", "diamond"}


def test_metrics_count_accepted_actions(client: TestClient) -> None:
    assert client.get("/api/metrics").json() == {"actions": 0}
    hub = hub_of(client)
    hub.timings = collections.deque(maxlen=5)  # the times kept are a window; the count is not
    t = new_table(client, seats=["easy", "easy"], seed=3)
    client.post(f"/api/tables/{t['id']}/start")
    import time

    for _ in range(200):
        if client.get(f"/api/tables/{t['id']}").json()["status"] == "finished":
            break
        time.sleep(0.05)
    m = client.get("/api/metrics").json()
    played = len(client.get(f"/api/tables/{t['id']}/replay").json()["steps"])
    assert m["actions"] == played > 5 and len(hub.timings) == 5
    assert 0 <= m["median_ms"] <= m["p99_ms"] <= m["max_ms"]


def test_games_list_carries_each_games_spec(client: TestClient) -> None:
    from gamenight.engine.registry import spec

    listed = {g["name"]: g for g in client.get("/api/games").json()}
    for name, entry in listed.items():
        assert entry["title"] == spec(name).title and entry["players"] == list(spec(name).players)


def test_page_data_refused_for_games_without_pictures(client: TestClient) -> None:
    from gamenight.engine.registry import specs

    plain = next(s for s in specs() if s.pictures is None)
    r = client.get(f"/api/games/{plain.name}/page-data")
    assert r.status_code == 404 and plain.title in r.json()["error"]
    assert client.get("/api/games/chess/page-data").status_code == 404


def test_an_address_that_leads_nowhere(client: TestClient) -> None:
    """A browser gets a page with a way back to the lobby (status 404), in its language
    through the page's catalogue; a program gets one line of JSON in its language, as every
    other refusal ({"error": ...}; it was Starlette's {"detail": "Not Found"})."""
    page = client.get("/no/such/page", headers={"accept": "text/html,application/xhtml+xml"})
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    assert "There is no page here" in page.text and 'href="/"' in page.text
    assert "/no/such/page" not in page.text  # nothing of the address is echoed
    for path in ("/no/such/page", "/api/nope", "/static/nope.js"):
        answer = client.get(path, headers={"accept-language": "de"})
        assert answer.status_code == 404
        assert answer.json() == {"error": "unter dieser Adresse gibt es nichts"}, path
    api = client.get("/api/nope", headers={"accept": "text/html"})  # an API address: JSON
    assert api.json() == {"error": "there is nothing at this address"}
    wrong = client.delete("/", headers={"accept-language": "ru"})
    assert wrong.status_code == 405 and wrong.json() == {
        "error": "этот адрес не принимает такой метод"
    }
    assert client.get("/static/missing.js").status_code == 200


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_any_address_is_answered_in_one_line_or_a_page(client: TestClient, tail: str) -> None:
    path = "/x/" + urllib.parse.quote(tail, safe="")
    for accept in ("text/html", "application/json"):
        r = client.get(path, headers={"accept": accept})
        assert r.status_code < 500
        if r.status_code == 404 and accept == "application/json":
            assert list(r.json()) == ["error"]
