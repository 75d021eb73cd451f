"""Issue 14 item 8: optional accounts (argon2), sessions in HttpOnly cookies, CSRF-safe
requests, profiles with recent games, openskill ratings with bots as fixed anchors, and a
leaderboard per game; upgrades of a database made by the previous release."""

from __future__ import annotations

import contextlib
import logging
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

import gamenight
from gamenight.server.accounts import BOT_ANCHORS, SESSION_COOKIE
from gamenight.server.db import Store, connect, disconnect
from gamenight.server.routes.common import seat_cookie
from tests.server.conftest import (
    cookie,
    hub_of,
    join,
    new_table,
    receive_state,
    two_people,
    wait_for,
)
from tests.server.test_storage import pg_url  # noqa: F401 (the throwaway PostgreSQL)


def sign_up(client: TestClient, name: str, password: str = "correct horse") -> dict[str, Any]:
    r = client.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r.json()["account"]


def play_seat(client: TestClient, tid: str, token: str, rng_seed: int = 5) -> None:
    """The person holding `token` plays random moves until the game at `tid` is over."""
    rng = random.Random(rng_seed)
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        msg = receive_state(ws)
        while not msg["view"]["over"]:
            if msg.get("asked"):
                action = rng.choice(msg["actions"])
                ws.send_json({"type": "act", "version": msg["version"], "action": action})
            msg = receive_state(ws, msg["version"] + 1)


def play_person_against_bot(client: TestClient, seed: int | None = None) -> str:
    """A signed-in person at seat 0 and an easy bot at seat 1 play Drop or Stop to the end."""
    extra = {} if seed is None else {"seed": seed}
    t = new_table(client, seats=["open", "easy"], **extra)
    tid = t["id"]
    session = client.cookies.get(SESSION_COOKIE)
    token = join(client, tid, 0, "Ann")
    assert client.cookies.get(SESSION_COOKIE) == session
    assert client.post(f"/api/tables/{tid}/start").status_code == 200
    play_seat(client, tid, token)
    return tid


def test_sign_up_sets_an_httponly_session_and_me_knows_it(client: TestClient) -> None:
    r = client.post("/api/accounts", json={"name": "Ann", "password": "correct horse"})
    assert r.status_code == 201
    header = r.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header
    assert client.get("/api/me").json()["account"]["name"] == "Ann"
    client.delete("/api/session")
    assert client.get("/api/me").json()["account"] is None


def test_password_is_stored_as_an_argon2_hash(client: TestClient) -> None:
    sign_up(client, "Ann", "correct horse")
    hub = client.app.state.holder["hub"]  # type: ignore[attr-defined]
    with hub.store.engine.connect() as conn:
        stored = conn.execute(text("select password_hash from accounts")).scalar()
    assert stored.startswith("$argon2") and "correct horse" not in stored


def test_names_and_passwords_are_checked(client: TestClient) -> None:
    sign_up(client, "Ann")
    again = client.post("/api/accounts", json={"name": "ann", "password": "another one"})
    assert again.status_code == 409 and "taken" in again.json()["error"]
    for name in ["<script>", "", "a", "x" * 25, "\x00bob", None, 7]:
        r = client.post("/api/accounts", json={"name": name, "password": "long enough"})
        assert r.status_code == 400, name
    short = client.post("/api/accounts", json={"name": "Bob", "password": "short"})
    assert short.status_code == 400 and "8" in short.json()["error"]


def test_names_that_differ_only_in_spaces_or_case_are_one_name(client: TestClient) -> None:
    """A new user made "MIRA " beside "Mira": two accounts that read alike."""
    assert sign_up(client, "  Mira   Lee ")["name"] == "Mira Lee"
    client.delete("/api/session")
    again = client.post("/api/accounts", json={"name": "MIRA LEE ", "password": "another one"})
    assert again.status_code == 409
    assert again.json()["error"] == "the name MIRA LEE is taken; choose another"
    back = client.post("/api/session", json={"name": " mira  lee", "password": "correct horse"})
    assert back.status_code == 200 and back.json()["account"]["name"] == "Mira Lee"


def test_wrong_passwords_are_refused_then_rate_limited(client: TestClient) -> None:
    sign_up(client, "Ann", "correct horse")
    client.cookies.clear()
    for _ in range(5):
        r = client.post("/api/session", json={"name": "Ann", "password": "wrong horse"})
        assert r.status_code == 401 and r.json()["error"] == "wrong name or password"
    r = client.post("/api/session", json={"name": "Ann", "password": "correct horse"})
    assert r.status_code == 429
    unknown = client.post("/api/session", json={"name": "Nobody", "password": "whatever1"})
    assert unknown.status_code == 401 and unknown.json()["error"] == "wrong name or password"


def test_state_changing_requests_are_csrf_safe(client: TestClient) -> None:
    form = client.post("/api/accounts", data={"name": "Eve", "password": "correct horse"})
    assert form.status_code == 415
    cross = client.post(
        "/api/accounts",
        json={"name": "Eve", "password": "correct horse"},
        headers={"origin": "http://evil.example"},
    )
    assert cross.status_code == 403
    assert client.get("/api/me").json()["account"] is None


def test_a_played_game_moves_the_rating_and_shows_on_the_profile(client: TestClient) -> None:
    sign_up(client, "Ann")
    tid = play_person_against_bot(client)
    profile = client.get("/api/profiles/Ann").json()
    assert profile["games_played"] == 1
    assert profile["recent"][0]["table"] == tid and profile["recent"][0]["rated"]
    assert profile["recent"][0]["replay"] == f"/tables/{tid}/replay"
    (rating,) = profile["ratings"]
    assert rating["game"] == "drop-or-stop" and rating["games"] == 1
    assert rating["mu"] != 25.0 and rating["sigma"] < 8.33
    # one game: mu - 3 sigma is about zero or below, so the rating is marked provisional
    assert rating["provisional"] and rating["rating"] < rating["mu"] - 20
    board = client.get("/api/leaderboard/drop-or-stop").json()["players"]
    bot = next(p for p in board if p["bot"])
    assert bot["mu"] == BOT_ANCHORS["easy"], "a bot is a fixed anchor"
    assert not bot["provisional"] and next(p for p in board if not p["bot"])["provisional"]
    assert {p["name"] for p in board} == {"Ann", bot["name"]}
    # asked again, nothing is rated twice
    assert client.get("/api/profiles/Ann").json()["ratings"][0]["games"] == 1


def test_a_game_is_rated_when_it_ends_not_when_a_profile_is_read(client: TestClient) -> None:
    sign_up(client, "Ann")
    tid = play_person_against_bot(client)
    accounts = client.app.state.holder["accounts"]  # type: ignore[attr-defined]

    def rated() -> Any:  # read straight from the database: no profile or leaderboard read
        with accounts.engine.connect() as conn:
            query = text("SELECT rated FROM rated_tables WHERE table_id = :t")
            return conn.execute(query, {"t": tid}).scalar_one_or_none()

    assert wait_for(rated) == 1


def test_a_chosen_seed_is_not_rated(client: TestClient) -> None:
    sign_up(client, "Ann")
    tid = play_person_against_bot(client, seed=3)
    profile = client.get("/api/profiles/Ann").json()
    assert profile["games_played"] == 1 and profile["ratings"] == []
    assert not profile["recent"][0]["rated"]
    accounts = client.app.state.holder["accounts"]  # type: ignore[attr-defined]
    with accounts.engine.connect() as conn:  # looked at once: a restart does not replay it
        query = text("SELECT rated FROM rated_tables WHERE table_id = :t")
        assert conn.execute(query, {"t": tid}).scalar_one_or_none() == 0
    assert accounts.rate_finished(client.app.state.holder["hub"].store) == 0  # type: ignore[attr-defined]


def test_guests_still_play_and_are_not_on_the_leaderboard(client: TestClient) -> None:
    play_person_against_bot(client)
    assert client.get("/api/leaderboard/drop-or-stop").json()["players"] == []
    assert client.get("/api/leaderboard/chess").status_code == 404
    assert client.get("/api/profiles/Nobody").status_code == 404


def test_pages_are_served(client: TestClient) -> None:
    for path in ("/account", "/players/Ann", "/leaderboard/arne"):
        r = client.get(path)
        assert r.status_code == 200 and "profile.js" in r.text


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database with nothing in it yet, on SQLite or on the throwaway PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'old.sqlite3'}"
    server = str(request.getfixturevalue("pg_url"))
    name = f"old_{tmp_path.name.lower().replace('-', '_')[-40:]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return server.rsplit("/", 1)[0] + "/" + name


def test_a_database_of_the_previous_release_upgrades_and_replays(empty_url: str) -> None:
    from alembic import command
    from alembic.config import Config

    import gamenight.server.db as db

    url = empty_url
    old = create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    with old.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")  # the schema the previous release made
    game = gamenight.load("drop-or-stop", players=2)
    state = game.start(9)
    rng = random.Random(1)
    while not state.over:
        seat = state.actors[0]
        state.act(seat, rng.choice(state.actions(seat)))
    with old.begin() as conn:
        conn.execute(
            text(
                "insert into tables values ('t1', 'drop-or-stop', '{\"players\": 2}', 9,"
                " 'finished', '{}', :h, :v, 0, 0, null)"
            ),
            {"h": "h" * 64, "v": len(state.history)},
        )
        for n, (seat, action) in enumerate(state.history):
            conn.execute(
                text("insert into actions values ('t1', :n, :s, :a, 0)"),
                {"n": n, "s": seat, "a": __import__("json").dumps(action.to_json())},
            )
    old.dispose()
    store = Store(connect(url))  # migrates to head
    history = [(s, game.action_from_json(a)) for s, a in store.history("t1")]
    assert game.replay(9, history).view(None) == state.view(None)
    assert store.table("t1") is not None
    disconnect(store.engine)


@pytest.mark.parametrize("hostile", ["<img src=x onerror=alert(1)>", "Ann\u202e", "'; drop"])
def test_profile_of_hostile_names_never_reaches_markup(client: TestClient, hostile: str) -> None:
    r = client.post("/api/accounts", json={"name": hostile, "password": "correct horse"})
    assert r.status_code == 400
    js = (Path(gamenight.__file__).parent / "web" / "profile.js").read_text()
    assert "innerHTML" not in js


@pytest.mark.parametrize(
    ("path", "body", "said"),
    [
        ("/api/accounts", {"name": 12, "password": "correct horse"}, "a name is 2 to 24"),
        ("/api/accounts", {"name": "Ann", "password": ["x"]}, "send a password"),
        ("/api/accounts", {"password": "correct horse"}, "a name is 2 to 24"),
        ("/api/session", {"name": None, "password": "x"}, "send a name and a password"),
        ("/api/session", {"name": "Ann", "password": {"<b>": 1}}, "send a name and a password"),
    ],
)
def test_account_bodies_are_models_with_one_line_errors(
    client: TestClient, path: str, body: dict[str, Any], said: str
) -> None:
    """The sign-up and log-in bodies are pydantic models (routes/models.py): a wrong type is
    a 400 with one plain line, never the input echoed back."""
    r = client.post(path, json=body)
    assert r.status_code == 400
    error = r.json()["error"]
    assert error.startswith(said) and "\n" not in error and "<b>" not in error


def test_games_that_end_together_are_each_rated_once_without_errors(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Eight tables play up to a move that ends their game, then all eight last moves
    arrive at once (as when a wave of tables ends on a busy server). Each finished game
    used to start a pass over every unrated table in a thread of its own: the passes raced
    to the same tables ("rating table ... failed", UNIQUE constraint failed in the log)
    and each game's last broadcast waited for them. Now each table is rated once, from its
    own end, one table at a time."""
    game = gamenight.load("drop-or-stop", players=2)
    rng = random.Random(8)
    tables = [two_people(client, seed=60 + i) for i in range(8)]
    with contextlib.ExitStack() as stack:
        last_moves = []
        for i, (tid, a, b) in enumerate(tables):
            socks = {
                s: stack.enter_context(
                    client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token))
                )
                for s, token in ((0, a), (1, b))
            }
            mirror = game.start(60 + i)  # a practice table's seed: the same deal
            last = {s: receive_state(w) for s, w in socks.items()}
            while True:
                seat = last[0]["view"]["to_act"]
                msg = last[seat]
                ending = []
                for move in msg["actions"]:
                    probe = mirror.copy()
                    probe.act(seat, game.action_from_json(move))
                    ending.append(probe.over)
                if any(ending):  # hold the move that ends this game
                    last_moves.append((socks, seat, msg, msg["actions"][ending.index(True)]))
                    break
                move = rng.choice(msg["actions"])
                mirror.act(seat, game.action_from_json(move))
                socks[seat].send_json({"type": "act", "version": msg["version"], "action": move})
                last = {s: receive_state(w, msg["version"] + 1) for s, w in socks.items()}
        accounts = client.app.state.holder["accounts"]  # type: ignore[attr-defined]

        def looked_at() -> list[str]:
            with accounts.engine.connect() as conn:
                query = text("SELECT table_id FROM rated_tables")
                return sorted(conn.execute(query).scalars().all())

        with caplog.at_level(logging.WARNING, logger="gamenight"):
            for socks, seat, msg, move in last_moves:  # all at once
                socks[seat].send_json({"type": "act", "version": msg["version"], "action": move})
            for socks, _, msg, _ in last_moves:
                for w in socks.values():
                    assert receive_state(w, msg["version"] + 1)["view"]["over"]
            wait_for(lambda: len(looked_at()) == len(tables) or None)
            client.get("/api/leaderboard/drop-or-stop")  # waits for ratings in flight
    assert not [r.getMessage() for r in caplog.records if "rating" in r.getMessage()]
    assert looked_at() == sorted(tid for tid, _, _ in tables)
    assert all(hub_of(client).store.table(tid).status == "finished" for tid, _, _ in tables)


def test_the_last_move_is_broadcast_before_the_rating_is_written(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game's end reaches the players without waiting for the rating (it queued behind
    other tables' ratings on a busy server), and a profile read waits for it instead."""
    accounts = client.app.state.holder["accounts"]  # type: ignore[attr-defined]
    release = threading.Event()
    rate_table = getattr(accounts, "rate_table", None)

    def held(*args: Any) -> int:
        release.wait(30)
        assert rate_table is not None
        return int(rate_table(*args))

    monkeypatch.setattr(accounts, "rate_table", held, raising=False)
    sign_up(client, "Ann")
    tid = play_person_against_bot(client)  # returns once Ann's page shows the end
    assert not release.is_set()
    with accounts.engine.connect() as conn:
        query = text("SELECT count(*) FROM rated_tables WHERE table_id = :t")
        assert conn.execute(query, {"t": tid}).scalar_one() == 0, "rated before the end was sent"
    release.set()
    (rating,) = client.get("/api/profiles/Ann").json()["ratings"]
    assert rating["games"] == 1


def test_a_rematch_played_while_signed_in_counts_on_the_profile(client: TestClient) -> None:
    """The rematch's seat is linked to the account as a joined seat is: its game shows on
    the profile (it did not: only the first game of a series counted)."""
    sign_up(client, "Ann")
    t = new_table(client, seats=["open", "easy"])
    tid = t["id"]
    token = join(client, tid, 0, "Ann")
    assert client.post(f"/api/tables/{tid}/start").status_code == 200
    play_seat(client, tid, token)
    r = client.post(f"/api/tables/{tid}/rematch", cookies={seat_cookie(tid): token})
    assert r.status_code == 201, r.text
    new = r.json()["id"]
    again = r.cookies.get(seat_cookie(new))
    assert again  # everyone accepted: the next game starts by itself
    play_seat(client, new, again)
    profile = client.get("/api/profiles/Ann").json()
    assert profile["games_played"] == 2
    assert {g["table"] for g in profile["recent"]} == {tid, new}


def test_a_guest_in_a_seat_an_account_left_is_not_that_account(client: TestClient) -> None:
    """Ann (signed in) sits, the creator opens her seat again, a guest takes it: the
    guest's game is not Ann's (the old link stayed and counted it on her profile)."""
    sign_up(client, "Ann")
    t = new_table(client, seats=["open", "easy"])
    tid = t["id"]
    join(client, tid, 0, "Ann")
    assert client.post(f"/api/tables/{tid}/seats/0", json={"to": "open"}).status_code == 200
    client.delete("/api/session")
    guest = join(client, tid, 0, "Guest")
    assert client.post(f"/api/tables/{tid}/start").status_code == 200
    play_seat(client, tid, guest)
    assert client.get("/api/profiles/Ann").json()["games_played"] == 0


def test_a_signed_in_player_takes_their_seat_back_on_another_device(client: TestClient) -> None:
    """Ann sits while signed in, then opens the table on another device (no seat cookie,
    the same account): the table says which seat is hers, and "play here" gives this
    device the seat. The old device's token no longer holds it."""
    sign_up(client, "Ann")
    t = new_table(client, seats=["open", "easy"])
    tid = t["id"]
    old = join(client, tid, 0, "Ann")  # the jar keeps no seat cookie: "another device"
    assert client.post(f"/api/tables/{tid}/start").status_code == 200
    seen = client.get(f"/api/tables/{tid}").json()
    assert seen["you"] is None and seen["account_seat"] == 0
    assert seen["account_name"] == "Ann"  # a watching page says who it is
    client.cookies.delete(f"gn_owner_{tid}")  # the other device did not create the table
    (listed,) = client.get("/api/lobby").json()["yours"]  # listed from the account
    assert listed["id"] == tid and listed["mine"] and listed["action"] == "play here"
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, old)) as laptop:
        assert receive_state(laptop)["seat"] == 0
        r = client.post(f"/api/tables/{tid}/reclaim", json={})
        assert r.status_code == 200, r.text
        assert receive_state(laptop)["seat"] is None  # the open page now only watches
    assert r.json()["you"] == 0 and r.json()["account_seat"] == 0
    new = r.cookies.get(seat_cookie(tid))
    assert new and new != old
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, new)) as ws:
        assert receive_state(ws)["seat"] == 0
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, old)) as ws:
        assert receive_state(ws)["seat"] is None  # the other device now only watches
    client.cookies.delete(seat_cookie(tid))
    client.delete("/api/session")  # a guest's lobby: the table is only there to watch
    assert client.get("/api/lobby").json()["yours"] == []
    play_seat(client, tid, new)
    assert client.get("/api/profiles/Ann").json()["games_played"] == 1


def test_a_guest_who_signs_in_brings_their_seat_to_the_account(client: TestClient) -> None:
    """Kai sits and plays as a guest, then signs up on the same device: the seat is the
    account's, so another device of Kai's can play it and the game counts for Kai (a new
    user found the game stuck on the first device)."""
    t = new_table(client, seats=["open", "easy"])
    tid = t["id"]
    token = join(client, tid, 0, "Kai")
    assert client.post(f"/api/tables/{tid}/start").status_code == 200
    client.cookies.set(seat_cookie(tid), token)  # the device keeps its seat cookie
    sign_up(client, "Kai")
    seen = client.get(f"/api/tables/{tid}").json()
    assert seen["you"] == 0 and seen["account_seat"] == 0
    client.cookies.delete(seat_cookie(tid))  # another device, signed in as Kai
    r = client.post(f"/api/tables/{tid}/reclaim", json={})
    assert r.status_code == 200, r.text
    new = r.cookies.get(seat_cookie(tid))
    client.cookies.delete(seat_cookie(tid))
    assert new
    play_seat(client, tid, new)
    assert client.get("/api/profiles/Kai").json()["games_played"] == 1
    client.delete("/api/session")
    other = new_table(client, seats=["open", "easy"])
    guest = join(client, other["id"], 0, "Guest")  # as a guest (not as "Kai": an account's)
    client.cookies.set(seat_cookie(tid), guest)  # another table's token under this name
    client.post("/api/session", json={"name": "Kai", "password": "correct horse"})
    assert client.get(f"/api/tables/{other['id']}").json()["account_seat"] is None


def test_taking_a_seat_back_is_refused_in_one_line_without_the_account(
    client: TestClient,
) -> None:
    t = new_table(client, seats=["open", "easy"])
    tid = t["id"]
    join(client, tid, 0, "Guest")
    r = client.post(f"/api/tables/{tid}/reclaim", json={})
    assert r.status_code == 403 and r.json()["error"] == "sign in to play your seat here"
    sign_up(client, "Bob")
    seen = client.get(f"/api/tables/{tid}").json()
    assert seen["account_seat"] is None
    r = client.post(f"/api/tables/{tid}/reclaim", json={})
    assert r.status_code == 403 and r.json()["error"] == "your account has no seat at this table"
    form = client.post(f"/api/tables/{tid}/reclaim", data={"x": "1"})
    assert form.status_code == 415
    cross = client.post(
        f"/api/tables/{tid}/reclaim", json={}, headers={"origin": "http://evil.example"}
    )
    assert cross.status_code == 403


def test_a_seat_given_to_a_bot_is_not_taken_back_from_another_device(
    client: TestClient,
) -> None:
    sign_up(client, "Ann")
    t = new_table(client, seats=["open", "easy"])
    tid = t["id"]
    join(client, tid, 0, "Ann")
    assert client.post(f"/api/tables/{tid}/seats/0", json={"to": "easy"}).status_code == 200
    assert client.get(f"/api/tables/{tid}").json()["account_seat"] is None
    r = client.post(f"/api/tables/{tid}/reclaim", json={})
    assert r.status_code == 403 and r.json()["error"] == "your account has no seat at this table"
    assert client.post(f"/api/tables/{tid}/start").status_code == 200  # two bots play it
    wait_for(lambda: client.get(f"/api/tables/{tid}").json()["status"] == "finished")
    assert client.get("/api/profiles/Ann").json()["games_played"] == 0, "not Ann's game"
