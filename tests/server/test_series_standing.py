"""Issue 45, item 3: the series totals after every game, as a second server process reads
them. The finished game counts in its own table's series (the panel stopped at the game
before it), and a process that starts on the same store reads the same standing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from gamenight.server.app import create_app, seat_cookie
from tests.server.conftest import TEST_RATES, join, new_table, play_to_the_end


def app_on(db: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{db}", pool="thread", workers_n=2, rates=TEST_RATES))


def accept_rematch(client: TestClient, tid: str, token: str) -> tuple[str, str]:
    """Ask for (or accept) the rematch of `tid`: the next table and the new seat token."""
    r = client.post(f"/api/tables/{tid}/rematch", cookies={seat_cookie(tid): token})
    assert r.status_code == 201, r.text
    made = str(r.json()["id"])
    new = r.cookies.get(seat_cookie(made))
    assert new
    client.cookies.clear()
    return made, str(new)


def series_of(client: TestClient, tid: str) -> dict[str, Any]:
    series: dict[str, Any] = client.get(f"/api/tables/{tid}").json()["series"]
    return series


def test_the_series_counts_every_finished_game_in_every_process(tmp_path: Path) -> None:
    db = tmp_path / "series.sqlite3"
    with app_on(db) as client:
        first = new_table(client, options={"players": 2, "wins_to_win": 1}, seed=3)["id"]
        ann, bob = join(client, first, 0, "Ann"), join(client, first, 1, "Bob")
        assert client.post(f"/api/tables/{first}/start").status_code == 200
        play_to_the_end(client, first, ann, bob)
        second, ann2 = accept_rematch(client, first, ann)
        again, bob2 = accept_rematch(client, first, bob)
        assert again == second
        assert client.get(f"/api/tables/{second}").json()["status"] == "running"
        during = series_of(client, second)
        assert [g["id"] for g in during["games"]] == [first] and during["now"] == 2
        last = play_to_the_end(client, second, bob2, ann2)  # seats rotated: Bob is seat 0
        after = series_of(client, second)
        assert [g["id"] for g in after["games"]] == [first, second]  # game 2 counts too
        assert last[0]["table"]["series"] == after  # the page's message says the same
        wins = sum(after["wins"].values())
        assert wins >= 2 and set(after["wins"]) == {"Ann", "Bob"}
        for name in ("Ann", "Bob"):
            assert after["totals"][name] == sum(g["scores"][name] for g in after["games"])
    with app_on(db) as other:  # another server process on the same store
        assert series_of(other, second) == after
