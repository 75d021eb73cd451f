"""Two people ask for the rematch of a finished table at once, on two server processes:
each process checks for a rematch under its own lock, finds none, and makes one. The
series must stay one table (issue 14's rematch, with issue 12's several processes)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import hub_of, play_to_the_end, two_people


def finished_table(client: TestClient) -> tuple[str, str, str]:
    tid, ann, bob = two_people(client, options={"players": 2, "wins_to_win": 1}, seed=3)
    play_to_the_end(client, tid, ann, bob)
    return tid, ann, bob


def rematch(client: TestClient, tid: str, token: str) -> str:
    r = client.post(f"/api/tables/{tid}/rematch", cookies={f"gn_seat_{tid}": token})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def test_a_rematch_asked_twice_at_once_makes_one_table(client: TestClient) -> None:
    tid, ann, bob = finished_table(client)
    store = hub_of(client).store
    real = store.rematch_of
    looks: list[str] = []

    def stale(table_id: str) -> str | None:
        """Bob's process looked before Ann's made the rematch: its first look finds none."""
        looks.append(table_id)
        return None if len(looks) == 1 else real(table_id)

    made = rematch(client, tid, ann)
    store.rematch_of = stale
    try:
        assert rematch(client, tid, bob) == made  # the same next table, not a second one
    finally:
        store.rematch_of = real
    assert len(looks) > 1  # it found none, failed to make a second table, looked again
    new = client.get(f"/api/tables/{made}").json()
    assert [s["name"] for s in new["seats"]] == ["Bob", "Ann"]  # seats rotated by one
    assert new["status"] == "running"  # both accepted: the next game started


def test_the_rematch_is_stored_with_its_people_seated(client: TestClient) -> None:
    """The next table and its seats are one store: a process that reads it at once (the
    other process, in a race) sees the people seated and pending, not open seats."""
    tid, ann, _bob = finished_table(client)
    made = rematch(client, tid, ann)
    row = hub_of(client).store.table(made)
    assert [(s.kind, s.name) for s in row.seats] == [("person", "Bob"), ("person", "Ann")]
