"""Programs that play (issue 48, item 2) at the server's level: tokens, bot accounts, who
may do what, and a program's games rated apart from people's."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from gamenight.server.programs import TOKENS_PER_ACCOUNT
from gamenight.server.routes.common import seat_cookie
from tests.server.conftest import play_to_the_end


def account(client: TestClient, name: str) -> dict[str, str]:
    """A signed-in person's session cookie."""
    r = client.post("/api/accounts", json={"name": name, "password": "quiet-lantern-47"})
    assert r.status_code == 201, r.text
    session = r.cookies.get("gn_session")
    client.cookies.clear()
    return {"gn_session": str(session)}


def program(client: TestClient, name: str) -> dict[str, str]:
    """A bot account's Authorization header."""
    session = account(client, name)
    token = client.post("/api/account/tokens", cookies=session).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post("/api/bot/account/upgrade", headers=auth).json()["bot"] is True
    return auth


def welcoming_table(client: TestClient, seats: list[str]) -> tuple[str, dict[str, str]]:
    """Ann makes a 2-player Drop or Stop table that welcomes programs: its id and the
    owner's cookie."""
    r = client.post(
        "/api/tables",
        json={
            "game": "drop-or-stop",
            "options": {"players": 2},
            "seats": seats,
            "settings": {"bot_delay": 0, "outside_bots": True},
            "sit": 0,
            "name": "Ann",
        },
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    owner = {f"gn_owner_{tid}": str(r.cookies.get(f"gn_owner_{tid}"))}
    client.cookies.clear()
    return tid, owner


def test_tokens_are_an_accounts_own_and_bounded(client: TestClient) -> None:
    assert client.post("/api/account/tokens").status_code == 401  # not signed in
    session = account(client, "Tess")
    tokens = [
        client.post("/api/account/tokens", cookies=session) for _ in range(TOKENS_PER_ACCOUNT + 1)
    ]
    assert [r.status_code for r in tokens] == [201] * TOKENS_PER_ACCOUNT + [409]
    first = tokens[0].json()["token"]
    me = client.get("/api/bot/account", headers={"Authorization": f"Bearer {first}"}).json()
    assert me == {"id": me["id"], "name": "Tess", "bot": False}
    assert client.delete("/api/account/tokens", cookies=session).json() == {"revoked": 5}
    gone = client.get("/api/bot/account", headers={"Authorization": f"Bearer {first}"})
    assert gone.status_code == 401


def test_a_program_plays_and_is_rated_apart_from_people(client: TestClient) -> None:
    auth = program(client, "Robo")
    ann = account(client, "Ann")
    r = client.post(
        "/api/tables",
        json={
            "game": "drop-or-stop",
            "options": {"players": 2},
            "seats": ["open", "open"],
            "settings": {"bot_delay": 0, "outside_bots": True},
            "sit": 0,
            "name": "Ann",
        },
        cookies=ann,
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    ann_token = str(r.cookies.get(seat_cookie(tid)))
    client.cookies.clear()
    joined = client.post(f"/api/bot/tables/{tid}/join", json={"seat": 1}, headers=auth)
    assert joined.status_code == 200, joined.text
    robo_token = joined.json()["token"]
    again = client.post(f"/api/bot/tables/{tid}/join", json={"seat": 1}, headers=auth)
    assert again.status_code == 409  # a seat is taken once
    owner = {f"gn_owner_{tid}": str(r.cookies.get(f"gn_owner_{tid}"))}
    assert client.post(f"/api/tables/{tid}/start", cookies=owner).status_code == 200
    last = play_to_the_end(client, tid, ann_token, robo_token)
    assert last[1]["view"]["over"]
    board = wait_for_rating(client)
    names = [row["name"] for row in board]
    assert "Ann" in names and "Robo" not in names  # the program is rated apart
    from sqlalchemy import select

    from gamenight.server.accounts.schema import ratings

    engine = client.app.state.holder["accounts"].engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        keys = {r.player.split(":")[0] for r in conn.execute(select(ratings.c.player))}
    assert keys == {"account", "program"}


def wait_for_rating(client: TestClient) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        board = client.get("/api/leaderboard/drop-or-stop").json()["players"]
        if board:
            return list(board)
        time.sleep(0.1)
    raise AssertionError("the game was never rated")


def test_an_account_with_rated_games_cannot_become_a_program(client: TestClient) -> None:
    from sqlalchemy import insert

    from gamenight.server.accounts.schema import ratings

    session = account(client, "Vera")
    token = client.post("/api/account/tokens", cookies=session).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    me = client.get("/api/bot/account", headers=auth).json()
    engine = client.app.state.holder["accounts"].engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        conn.execute(
            insert(ratings).values(
                game="drop-or-stop",
                player=f"account:{me['id']}",
                name="Vera",
                mu=25.0,
                sigma=8.0,
                games=3,
            )
        )
    r = client.post("/api/bot/account/upgrade", headers=auth)
    assert r.status_code == 409 and "rated games as a person" in r.json()["error"]


def test_a_challenge_to_a_table_with_no_open_seat_is_refused_and_never_sent(
    client: TestClient,
) -> None:
    """A program told of a table with no seat to take would get `"seats": []` (and the
    documented client, `event["seats"][0]`, would crash): the owner reads one line instead,
    and the program hears nothing."""
    me = client.get("/api/bot/account", headers=program(client, "Robo")).json()
    programs = client.app.state.holder["programs"]  # type: ignore[attr-defined]
    heard = programs.listen(me["id"])  # as GET /api/bot/stream listens

    full, owner = welcoming_table(client, ["open", "bot:random"])
    r = client.post(f"/api/tables/{full}/challenge", json={"bot": "Robo"}, cookies=owner)
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert error == "this table has no open seat for Robo; open a seat first"
    assert "\n" not in error
    assert heard.empty()  # never sent
    roomy, owner = welcoming_table(client, ["open", "open"])
    r = client.post(f"/api/tables/{roomy}/challenge", json={"bot": "Robo"}, cookies=owner)
    assert r.status_code == 200, r.text
    assert heard.get_nowait() == {
        "type": "challenge",
        "table": roomy,
        "game": "drop-or-stop",
        "seats": [1],
    }


def test_a_challenge_from_a_stranger_or_of_any_json_is_one_line_never_a_crash(
    client: TestClient,
) -> None:
    """Attacked as a stranger: only the table's creator challenges (403 for anyone else),
    and any JSON body is a 4xx with one line, never a 500, never sent to a program."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    me = client.get("/api/bot/account", headers=program(client, "Hexa")).json()
    heard = client.app.state.holder["programs"].listen(me["id"])  # type: ignore[attr-defined]
    tid, owner = welcoming_table(client, ["open", "open"])
    r = client.post(f"/api/tables/{tid}/challenge", json={"bot": "Hexa"})
    assert r.status_code == 403 and "\n" not in r.json()["error"], r.text
    json_values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
        max_leaves=12,
    )

    @settings(
        max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(body=json_values | st.dictionaries(st.just("bot"), json_values))
    def any_body(body: Any) -> None:
        if body == {"bot": "Hexa"}:
            return
        r = client.post(f"/api/tables/{tid}/challenge", json=body, cookies=owner)
        assert 400 <= r.status_code < 500, (body, r.status_code, r.text)
        error = r.json()["error"]
        assert isinstance(error, str) and "\n" not in error and "Traceback" not in error

    any_body()
    assert heard.empty()
