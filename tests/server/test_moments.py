"""A round's moment (issue 13, item 5; server/moments.py): after Drop or Stop's reveal the
server holds its own next step (here a bot's move) until every person's page says it has
seen the reveal, or the table's moment_seconds pass; a person who leaves stops blocking;
a table with no person never waits."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import cookie, hub_of, join, new_table, receive_state, wait_for


def person_and_bot(client: TestClient, moment_seconds: float) -> tuple[str, str]:
    settings = {"bot_delay": 0, "moment_seconds": moment_seconds}
    t = new_table(client, seats=["open", "easy"], settings=settings, seed=5)
    token = join(client, t["id"], 0, "Ann")
    assert client.post(f"/api/tables/{t['id']}/start").status_code == 200
    return t["id"], token


def play_to_moment(ws: Any) -> dict[str, Any]:
    """Stop whenever asked until a state message carries a round's moment."""
    while True:
        msg = receive_state(ws, see=False)
        if "moment" in msg:
            return msg
        assert "outcome" not in msg, "the game ended without a round's moment"
        if msg.get("asked"):
            ws.send_json({"type": "act", "version": msg["version"], "action": {"type": "stop"}})


def bot_is_held(client: TestClient, tid: str, ws: Any) -> int:
    """With the moment on: the person moves if it is their turn (people are never held),
    then the bot's turn stays where it is. Returns the version it is held at."""
    table = hub_of(client).live[tid]
    if table.state.actors[0] == 0:
        ws.send_json({"type": "act", "version": table.version, "action": {"type": "stop"}})
        assert wait_for(lambda: table.state.actors[0] == 1)
    held = int(table.version)
    time.sleep(0.8)
    assert table.version == held and table.moment is not None
    return held


def test_the_reveal_holds_the_bot_until_the_person_has_seen_it(client: TestClient) -> None:
    tid, token = person_and_bot(client, moment_seconds=30)
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        msg = play_to_moment(ws)
        moment = msg["moment"]
        assert moment == {"version": msg["version"], "seconds": 30.0}
        revealed = [e for e in msg["events"] if e["kind"] == "revealed"]
        assert revealed and msg["version"] == moment["version"]
        held = bot_is_held(client, tid, ws)
        ws.send_json({"type": "seen", "version": moment["version"]})
        table = hub_of(client).live[tid]
        assert wait_for(lambda: table.version > held, 5)  # released at once, not after 30 s
        after = receive_state(ws, held + 1, see=False)
        assert "moment" not in after


def test_an_older_version_seen_does_not_release_it(client: TestClient) -> None:
    tid, token = person_and_bot(client, moment_seconds=30)
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        moment = play_to_moment(ws)["moment"]
        held = bot_is_held(client, tid, ws)
        ws.send_json({"type": "seen", "version": moment["version"] - 1})
        time.sleep(0.5)
        assert hub_of(client).live[tid].version == held


def test_the_moment_ends_by_itself_after_its_seconds(client: TestClient) -> None:
    tid, token = person_and_bot(client, moment_seconds=1.5)
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        msg = play_to_moment(ws)
        assert msg["moment"]["seconds"] == 1.5
        table = hub_of(client).live[tid]
        held = table.version
        assert wait_for(lambda: table.version > held or table.moment is None, 10)
        assert table.moment is None  # no "seen" was sent: the time ran out
        later = receive_state(ws, held, see=False)
        while "moment" in later:
            later = receive_state(ws, held, see=False)
        assert "moment" not in later


def test_a_person_who_leaves_does_not_hold_the_table(client: TestClient) -> None:
    tid, token = person_and_bot(client, moment_seconds=30)
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        play_to_moment(ws)
        held = bot_is_held(client, tid, ws)
    table = hub_of(client).live[tid]
    assert wait_for(lambda: table.version > held, 5)
    assert table.moment is None


def test_a_spectator_does_not_hold_it_and_seen_is_checked(client: TestClient) -> None:
    tid, token = person_and_bot(client, moment_seconds=30)
    with (
        client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws,
        client.websocket_connect(f"/ws/tables/{tid}") as spectator,
    ):
        moment = play_to_moment(ws)["moment"]
        held = bot_is_held(client, tid, ws)
        spectator.send_json({"type": "seen", "version": "soon"})
        while (reply := spectator.receive_json())["type"] != "refused":
            pass
        assert reply["reason"] == "'seen' needs the integer 'version' the page shows"
        ws.send_json({"type": "seen", "version": moment["version"]})  # only people count
        table = hub_of(client).live[tid]
        assert wait_for(lambda: table.version > held, 5)


def test_a_table_of_only_bots_never_waits(client: TestClient) -> None:
    settings = {"bot_delay": 0, "moment_seconds": 30}
    t = new_table(client, seats=["easy", "easy"], settings=settings, seed=5)
    assert client.post(f"/api/tables/{t['id']}/start").status_code == 200
    table = hub_of(client).live[t["id"]]
    with client.websocket_connect(f"/ws/tables/{t['id']}"):  # a spectator watches
        assert wait_for(lambda: table.state is not None and table.state.over, 20)
    assert table.moment is None


def test_arnes_scoring_between_games_of_a_series_is_a_moment(client: TestClient) -> None:
    """Arne declares `scored` (each game of a series scored) as a moment: the next game's
    first step waits for the person's page, here while a bot plays their seat for them."""
    options = {"players": 2, "learning": True, "hand_size": 4, "series_games": 2}
    settings = {"bot_delay": 0, "pass_dwell": 0, "moment_seconds": 30}
    t = new_table(client, game="arne", seats=["open", "easy"], options=options, settings=settings)
    tid = t["id"]
    token = join(client, tid, 0, "Ann")
    assert client.post(f"/api/tables/{tid}/start").status_code == 200
    with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
        receive_state(ws, see=False)
        r = client.post(f"/api/tables/{tid}/seats/0", json={"to": "easy"})  # a bot plays for Ann
        assert r.status_code == 200, r.text
        msg = receive_state(ws, see=False)
        while "moment" not in msg:
            assert "outcome" not in msg, "the series ended without a moment"
            msg = receive_state(ws, see=False)
        assert any(e["kind"] == "scored" for e in msg["events"])
        table = hub_of(client).live[tid]
        held = table.version
        time.sleep(0.8)
        assert table.version == held and not table.state.over  # the next game waits
        ws.send_json({"type": "seen", "version": msg["moment"]["version"]})
        assert wait_for(lambda: table.version > held, 10)
