"""Leases and the fence, on a real PostgreSQL: one owner at a time, no store by another."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from gamenight.server.cluster.lease import ClusterStore, NotOwner
from gamenight.server.db import TableRow, connect


def new_table(store: ClusterStore, table_id: str) -> None:
    now = time.time()
    row = TableRow(table_id, "drop-or-stop", {"players": 2}, 1, "running", {}, "x", 0, now, now)
    store.create_table(row)


@pytest.fixture
def stores(pg_url: str) -> tuple[ClusterStore, ClusterStore]:
    engine = connect(pg_url)
    return ClusterStore(engine, "proc-a"), ClusterStore(engine, "proc-b")


def test_one_owner_and_the_fence(stores: tuple[ClusterStore, ClusterStore]) -> None:
    a, b = stores
    new_table(a, "lease1")
    assert a.acquire("lease1", 30)
    assert not b.acquire("lease1", 30)  # held and running
    assert b.holder("lease1") == ("proc-a", True)
    a.append_action("lease1", 0, 0, {"type": "roll"}, "running")
    with pytest.raises(NotOwner):  # b does not own it: its store is refused
        b.append_action("lease1", 1, 1, {"type": "roll"}, "running")
    assert a.renew(["lease1"], 0.0) == {"lease1"}  # (a lease that runs out right now)
    time.sleep(0.05)
    assert "lease1" in b.free_running()
    assert b.acquire("lease1", 30)  # expired: b takes it
    with pytest.raises(NotOwner):  # the old owner, waking up, cannot store any more
        a.append_action("lease1", 1, 0, {"type": "roll"}, "running")
    assert a.renew(["lease1"], 30) == set()
    b.append_action("lease1", 1, 1, {"type": "stop"}, "running")
    with pytest.raises(NotOwner):  # nothing applied twice: version 1 is taken
        b.append_action("lease1", 1, 1, {"type": "stop"}, "running")
    assert [(n, s) for n, s, _ in b.history_from("lease1", 0)] == [(0, 0), (1, 1)]
    b.release("lease1")
    assert b.holder("lease1") == (None, False)


def test_of_many_takers_exactly_one_wins(pg_url: str) -> None:
    engine = connect(pg_url)
    takers = [ClusterStore(engine, f"proc-{i}") for i in range(8)]
    new_table(takers[0], "lease2")
    with ThreadPoolExecutor(8) as pool:
        won = list(pool.map(lambda s: s.acquire("lease2", 30), takers))
    assert sum(won) == 1


def test_deadline_is_stored_with_its_version(stores: tuple[ClusterStore, ClusterStore]) -> None:
    a, b = stores
    new_table(a, "lease3")
    assert a.acquire("lease3", 30)
    a.save_deadline("lease3", 7, 1, 1234.5)
    assert b.stored_deadline("lease3") == (1234.5, 1, 7)
    b.save_deadline("lease3", 8, 0, 99.0)  # not the owner: ignored
    assert a.stored_deadline("lease3") == (1234.5, 1, 7)
