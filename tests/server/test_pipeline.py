"""The act pipeline (server/pipeline.py): an action is checked, stored, then applied to the
live state; a refused or unstored action changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from gamenight.server.app import create_app
from tests.server.conftest import (
    TEST_RATES,
    cookie,
    hub_of,
    play_to_the_end,
    receive_state,
    two_people,
)


def app_client(db: Path) -> TestClient:
    app = create_app(f"sqlite:///{db}", pool="thread", workers_n=2, rates=TEST_RATES)
    return TestClient(app)


def test_an_action_that_could_not_be_stored_changes_nothing(tmp_path: Path) -> None:
    with app_client(tmp_path / "t.sqlite3") as client:
        tid, a, b = two_people(client, options={"players": 2, "wins_to_win": 1}, seed=3)
        hub = hub_of(client)
        store = hub.store
        real_now, real = store.append_action_now, store.append_action
        failures = [1]  # the first store fails, in the event loop or the database thread

        def failing_now(*args: Any) -> bool:
            if failures:
                failures.pop()
                raise OSError("disk full")
            return bool(real_now(*args))

        def failing(*args: Any) -> None:
            if failures:
                failures.pop()
                raise OSError("disk full")
            real(*args)

        store.append_action_now, store.append_action = failing_now, failing
        table = hub.live[tid]
        before = (len(table.state.history), len(table.state.log), table.state.view(None))
        seat = table.state.actors[0]
        token = a if seat == 0 else b
        with client.websocket_connect(f"/ws/tables/{tid}", headers=cookie(tid, token)) as ws:
            msg = receive_state(ws)
            act = {"type": "act", "version": msg["version"], "action": msg["actions"][0]}
            ws.send_json(act)
            error = ws.receive_json()
            while error["type"] != "refused":
                error = ws.receive_json()
            assert "could not be stored" in error["reason"]
            assert (len(table.state.history), len(table.state.log)) == before[:2]
            assert table.state.view(None) == before[2]
            assert store.history(tid) == []
            ws.send_json(act)  # the same action again, now stored and applied
            assert receive_state(ws, msg["version"] + 1)["version"] == msg["version"] + 1
        assert len(store.history(tid)) == 1 and len(table.state.history) == 1


def test_the_last_action_stores_the_table_as_finished(tmp_path: Path) -> None:
    with app_client(tmp_path / "t.sqlite3") as client:
        tid, a, b = two_people(client, options={"players": 2, "wins_to_win": 1}, seed=3)
        end = play_to_the_end(client, tid, a, b)[0]
        row = hub_of(client).store.table(tid)
        assert end["outcome"] and row.status == "finished"
        assert row.version == len(hub_of(client).store.history(tid))


def test_a_table_stored_as_running_after_its_last_action_loads_as_finished(
    tmp_path: Path,
) -> None:
    """A crash between storing the last action and its status (pipeline._store_finished)."""
    db = tmp_path / "t.sqlite3"
    with app_client(db) as client:
        tid, a, b = two_people(client, options={"players": 2, "wins_to_win": 1}, seed=3)
        play_to_the_end(client, tid, a, b)
        hub_of(client).store.set_status(tid, "running")
    with app_client(db) as client:
        r = client.get(f"/api/tables/{tid}")
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "finished"
        assert hub_of(client).store.table(tid).status == "finished"
