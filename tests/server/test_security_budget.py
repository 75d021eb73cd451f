"""One budget per person for costly work (issue 43, item 3): people's requests to the worker
pool (coach, reviews, replays) get a bounded, fair share, and table work (a Drop It drop, a
thinking bot's move) never waits for them.

The flood test fails on the old code: 30 coach requests in flight from one guest queued
ahead of every table's work in the pool, and the other tables stopped (0.0 moves/s in the
flooded windows against 3.0 and 3.2 without the flood; with the scheduler 0.91-0.95 of
the calm pace)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamenight.server.app import create_app
from gamenight.server.budget import Asker, Budget, Shares, Superseded
from gamenight.server.live_table import Limits, Refused
from gamenight.server.routes import replay
from tests.server.conftest import (
    TEST_RATES,
    cookie,
    hub_of,
    join,
    new_table,
    play_to_the_end,
    two_people,
    wait_for,
)

# -- the scheduler alone --------------------------------------------------------------------


def ann(address: str = "10.0.0.1") -> Asker:
    return Asker("seat:ann", address)


def bob(address: str = "10.0.0.2") -> Asker:
    return Asker("seat:bob", address)


class Gate:
    """A job that runs until opened; `ran` lists the names of the jobs that started."""

    def __init__(self, ran: list[str]) -> None:
        self.ran = ran
        self.open = asyncio.Event()

    def job(self, name: str) -> Any:
        async def work() -> str:
            self.ran.append(name)
            await self.open.wait()
            return name

        return work


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_second_coach_request_is_refused_while_the_first_runs() -> None:
    async def main() -> None:
        budget = Budget(workers=2)
        gate = Gate([])
        first = asyncio.ensure_future(budget.person(ann(), "coach", gate.job("first")))
        await settle()
        assert gate.ran == ["first"]
        with pytest.raises(Refused) as refused:
            await budget.person(ann(), "coach", gate.job("second"), supersede=True)
        assert refused.value.status == 429
        assert "still being computed" in refused.value.reason
        # someone else's coach request is not refused for it: it waits its turn
        other = asyncio.ensure_future(budget.person(bob(), "coach", gate.job("bob")))
        gate.open.set()
        assert await first == "first" and await other == "bob"
        assert budget.snapshot()["people_running"] == 0 and not budget.held

    asyncio.run(main())


def test_a_waiting_coach_request_is_replaced_by_the_newer_one() -> None:
    async def main() -> None:
        budget = Budget(workers=1)  # one worker: a table job keeps every person waiting
        table_gate, gate = Gate([]), Gate([])
        table_job = asyncio.ensure_future(budget.table(table_gate.job("drop")))
        await settle()
        old = asyncio.ensure_future(budget.person(ann(), "coach", gate.job("old")))
        await settle()
        new = asyncio.ensure_future(budget.person(ann(), "coach", gate.job("new"), supersede=True))
        await settle()
        with pytest.raises(Superseded):
            await old
        assert budget.snapshot()["people_waiting"] == 1  # one coach request per person
        table_gate.open.set()
        gate.open.set()
        assert await table_job == "drop" and await new == "new"
        assert gate.ran == ["new"]

    asyncio.run(main())


def test_a_queue_over_its_bound_refuses_with_429() -> None:
    async def main() -> None:
        budget = Budget(workers=1, shares=Shares(queue=2))
        table_gate, gate = Gate([]), Gate([])
        table_job = asyncio.ensure_future(budget.table(table_gate.job("drop")))
        await settle()
        waiting = [
            asyncio.ensure_future(
                budget.person(Asker(f"p{i}", f"10.0.0.{i}"), "coach", gate.job(f"p{i}"))
            )
            for i in range(2)
        ]
        await settle()
        with pytest.raises(Refused) as refused:
            await budget.person(Asker("p9", "10.0.0.9"), "coach", gate.job("p9"))
        assert refused.value.status == 429 and "busy" in refused.value.reason
        # per person and per address too
        tight = Budget(workers=1, shares=Shares(per_person=1, per_address=2))
        blocker = asyncio.ensure_future(tight.table(table_gate.job("drop2")))
        await settle()
        mine = asyncio.ensure_future(tight.person(ann(), "replay", gate.job("a1")))
        await settle()
        with pytest.raises(Refused, match="costly requests in progress"):
            await tight.person(ann(), "review", gate.job("a2"))
        carol = asyncio.ensure_future(
            tight.person(Asker("seat:carol", "10.0.0.1"), "x", gate.job("c"))
        )
        await settle()
        with pytest.raises(Refused, match="from your address"):
            await tight.person(Asker("seat:dan", "10.0.0.1"), "x", gate.job("d"))
        table_gate.open.set()
        gate.open.set()
        await asyncio.gather(table_job, blocker, mine, carol, *waiting)

    asyncio.run(main())


def test_nothing_waits_forever() -> None:
    async def main() -> None:
        budget = Budget(workers=1, shares=Shares(wait_seconds=0.2))
        table_gate, gate = Gate([]), Gate([])
        table_job = asyncio.ensure_future(budget.table(table_gate.job("drop")))
        await settle()
        started = time.monotonic()
        with pytest.raises(Refused, match="did not start within") as refused:
            await budget.person(ann(), "coach", gate.job("late"))
        assert refused.value.status == 429 and time.monotonic() - started < 2
        assert gate.ran == [] and not budget.held and budget.snapshot()["people_waiting"] == 0
        # a client that goes away while waiting leaves nothing behind either
        gone = asyncio.ensure_future(budget.person(bob(), "coach", gate.job("gone")))
        await settle()
        gone.cancel()
        await settle()
        assert not budget.held and budget.snapshot()["people_waiting"] == 0
        table_gate.open.set()
        await table_job

    asyncio.run(main())


def test_people_are_served_in_turn() -> None:
    async def main() -> None:
        budget = Budget(workers=2)  # one worker for people's jobs
        table_gate, gate = Gate([]), Gate([])
        tables = [asyncio.ensure_future(budget.table(table_gate.job(f"t{i}"))) for i in range(2)]
        await settle()
        jobs = [
            asyncio.ensure_future(
                budget.person(ann(), "replay" if i < 2 else "x", gate.job(f"ann{i}"))
            )
            for i in range(3)
        ]
        await settle()
        jobs += [
            asyncio.ensure_future(
                budget.person(bob(), "replay" if i < 2 else "x", gate.job(f"bob{i}"))
            )
            for i in range(3)
        ]
        await settle()
        assert gate.ran == []  # both workers busy with table work
        gate.open.set()
        table_gate.open.set()
        await asyncio.gather(*tables, *jobs)
        # Ann asked three times before Bob asked at all, yet they alternate
        assert gate.ran == ["ann0", "bob0", "ann1", "bob1", "ann2", "bob2"]

    asyncio.run(main())


def test_table_work_goes_first_and_keeps_a_worker() -> None:
    async def main() -> None:
        budget = Budget(workers=3)  # people's share: 2 of 3 workers
        gate, table_gate = Gate([]), Gate([])
        people = [
            asyncio.ensure_future(
                budget.person(Asker(f"p{i}", f"10.0.1.{i}"), "coach", gate.job(f"p{i}"))
            )
            for i in range(4)
        ]
        await settle()
        assert gate.ran == ["p0", "p1"]  # never every worker: one stays for the tables
        drops = [asyncio.ensure_future(budget.table(table_gate.job(f"drop{i}"))) for i in range(3)]
        await settle()
        assert table_gate.ran == ["drop0", "drop1", "drop2"]  # at once, whatever waits
        gate.open.set()
        await asyncio.gather(*people[:2])
        await settle()
        # the people's next jobs wait while the tables use every worker
        assert gate.ran == ["p0", "p1"] and budget.snapshot()["people_waiting"] == 2
        table_gate.open.set()
        await asyncio.gather(*drops, *people)
        assert gate.ran == ["p0", "p1", "p2", "p3"]

    asyncio.run(main())


# -- replays ---------------------------------------------------------------------------------


def test_one_persons_replays_evict_their_own_cache_entries_first() -> None:
    cache = replay._Cache()
    for i in range(replay.PER_PERSON_CACHED):
        cache.keep((f"bob{i}", None), i, "bob")
    for i in range(replay.CACHE_SIZE * 2):  # someone cycling many replays
        cache.keep((f"eve{i}", None), i, "eve")
    assert all(cache.get((f"bob{i}", None)) == i for i in range(replay.PER_PERSON_CACHED))
    eve = [k for k, (who, _) in cache.entries.items() if who == "eve"]
    assert len(eve) == replay.PER_PERSON_CACHED  # only their latest
    # least recently used out: an entry read is kept over one not read
    full = replay._Cache()
    for i in range(replay.CACHE_SIZE):
        full.keep((f"t{i}", None), i, f"p{i}")
    assert full.get(("t0", None)) == 0
    full.keep(("new", None), -1, "someone")
    assert full.get(("t0", None)) == 0 and full.get(("t1", None)) is None


def test_replays_are_computed_within_a_per_person_rate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(replay, "COMPUTED_BURST", 3)
    monkeypatch.setattr(replay, "COMPUTED_PER_MINUTE", 0.001)  # nothing comes back in a test
    app = create_app(
        f"sqlite:///{tmp_path / 'r.sqlite3'}", pool="thread", workers_n=2, rates=TEST_RATES
    )
    with TestClient(app) as client:
        tid, _ann, bob_token = two_people(client)
        play_to_the_end(client, tid, _ann, bob_token)
        for seat in ("", "?seat=0", "?seat=1"):
            assert client.get(f"/api/tables/{tid}/replay{seat}").status_code == 200
        refused = client.get(f"/api/tables/{tid}/replay/events")
        assert refused.status_code == 429
        assert refused.json() == {
            "error": "too many replays computed for you lately; wait a minute"
        }
        assert client.get(f"/api/tables/{tid}/replay?seat=1").status_code == 200  # cached: free
        # Bob, at the same address, is another person (the address may compute twice as many)
        bob = client.get(f"/api/tables/{tid}/replay/events", headers=cookie(tid, bob_token))
        assert bob.status_code == 200 and bob.json()["events"]
        # a made-up seat token is nobody: still this address's budget
        fake = client.get(f"/api/tables/{tid}/replay/events?seat=0", headers=cookie(tid, "made-up"))
        assert fake.status_code == 429


def test_a_coach_review_runs_its_decisions_as_the_askers_jobs(client: TestClient) -> None:
    tid, ann_token, bob_token = two_people(client)
    play_to_the_end(client, tid, ann_token, bob_token)
    url = f"/api/tables/{tid}/coach/review"
    assert client.post(url, headers=cookie(tid, ann_token)).status_code == 200
    review = wait_for(
        lambda: (r := client.get(url, headers=cookie(tid, ann_token)).json())["finished"] and r
    )
    assert review["error"] is None and review["done"] == review["total"]
    assert hub_of(client).pool.budget.snapshot()["people_running"] == 0


# -- one guest flooding the coach, two other tables playing --------------------------------

WINDOW = 6.0  # seconds of play counted at each other table
FLOODERS = 30


def table_version(client: TestClient, tid: str) -> int:
    live = hub_of(client).live.get(tid)
    return int(live.version) if live is not None else 0


def other_tables(client: TestClient) -> list[str]:
    """Two tables of only bots that use the worker pool: Drop It (each drop's physics) and
    Arne with searching bots. Same seeds each time: the same games, move for move."""
    drops = new_table(
        client, "drop-it", ["easy", "easy"], {"players": 2}, seed=11, settings={"bot_delay": 0.3}
    )
    search = "bot:ismcts?iterations=50"
    cards = new_table(
        client, "arne", [search, search], {"players": 2}, seed=11, settings={"bot_delay": 0.3}
    )
    return [drops["id"], cards["id"]]


def pace(client: TestClient, window: float = WINDOW) -> list[float]:
    """Moves per second of each of the other tables over `window` seconds from their start;
    then the tables are stopped (abandoned), so they add nothing to the next measure."""
    tids = other_tables(client)
    start = time.monotonic()
    for tid in tids:
        assert client.post(f"/api/tables/{tid}/start").status_code == 200
    time.sleep(max(0.0, start + window - time.monotonic()))
    counts = [table_version(client, tid) for tid in tids]
    rates = [n / window for n in counts]
    hub = hub_of(client)
    limits = hub.limits
    hub.limits = dataclasses.replace(limits, bot_table_moves=0)  # the all-bot tables' cap
    # a table stopped at its cap may already have left `live` (CI: KeyError)
    wait_for(
        lambda: all(t not in hub.live or hub.live[t].row.status != "running" for t in tids), 30
    )
    hub.limits = limits
    return rates


@contextlib.contextmanager
def coach_flood(client: TestClient, tid: str, token: str, statuses: list[int]) -> Iterator[None]:
    """FLOODERS threads asking the coach for one seat, each again as soon as answered
    (after a 429: a short pause, as a script that keeps its requests in flight would);
    the status codes seen go to `statuses`."""
    stop = threading.Event()

    def flood() -> None:
        while not stop.is_set():
            r = client.get(f"/api/tables/{tid}/coach", headers=cookie(tid, token))
            statuses.append(r.status_code)
            if r.status_code != 200:
                stop.wait(1.0)

    threads = [threading.Thread(target=flood, daemon=True) for _ in range(FLOODERS)]
    for t in threads:
        t.start()
    time.sleep(0.5)  # every request in flight
    try:
        yield
    finally:
        stop.set()
        for t in threads:
            t.join(60)


def test_a_coach_flood_leaves_other_tables_their_pace(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite:///{tmp_path / 'flood.sqlite3'}",
        pool="process",
        workers_n=2,
        rates=TEST_RATES,
        limits=Limits(),
    )
    with TestClient(app) as client:
        # The flooder: a guest alone with a bot at an Arne table, on their turn (Arne's coach:
        # about a second of search per request).
        t = new_table(client, "arne", ["open", "bot:random"], {"players": 2}, seed=3)
        tid = t["id"]
        token = join(client, tid, 0, "Guest")
        assert client.post(f"/api/tables/{tid}/start").status_code == 200
        wait_for(lambda: 0 in hub_of(client).live[tid].state.actors)
        assert client.get(f"/api/tables/{tid}/coach", headers=cookie(tid, token)).json()["advice"]
        pace(client, 2.0)  # both workers started, every game's tables built in each
        # in the order calm, flooded, flooded, calm: a load that drifts during the test (a
        # shared machine) weighs on both sides alike
        # A pace measured on a shared two-core machine (CI runs another test beside this
        # one) is noisy: up to three measurements, the first that meets the goal counts.
        # The old scheduling gave 0.0 every time, so no retry lets it through.
        statuses: list[int] = []
        for _attempt in range(3):
            calm, flooded = [0.0, 0.0], [0.0, 0.0]
            for flood in (False, True, True, False):
                flooding = coach_flood(client, tid, token, statuses)
                with flooding if flood else contextlib.nullcontext():
                    rates = pace(client)
                for i, rate in enumerate(rates):
                    (flooded if flood else calm)[i] += rate / 2
            ratio = sum(flooded) / sum(calm)
            each = [f / c for f, c in zip(flooded, calm, strict=True)]
            print(f"moves/s without the flood {calm}, with it {flooded}: {ratio:.2f} ({each})")
            if ratio >= 0.8 and min(each) >= 0.6:
                break
        assert ratio >= 0.8, (calm, flooded)  # the old code: 0.0
        assert min(each) >= 0.6, (calm, flooded)  # neither table starves (one timing: noisier)
        assert statuses.count(200) >= 4  # the flooder got its advice, one request at a time
        assert 429 in statuses  # and a refusal for every request beyond it


SEARCHING = {"game": "drop-or-stop", "options": {"players": 2}, "seats": ["open", "hard"]}


def budget_app(db: Path, **rates: int) -> Any:
    """An app of its own whose searching-bot budget is `rates` (the test rates otherwise)."""
    return create_app(
        f"sqlite:///{db}", pool="thread", rates=dataclasses.replace(TEST_RATES, **rates)
    )


def finish_in_store(client: TestClient, table_id: str) -> None:
    """The table's row says its game is over (as a finished game leaves it)."""
    from sqlalchemy import update

    from gamenight.server.db import tables

    store = client.app.state.holder["hub"].store  # type: ignore[attr-defined]
    with store.engine.begin() as conn:
        conn.execute(update(tables).where(tables.c.id == table_id).values(status="finished"))


def test_one_address_opens_only_so_many_tables_with_thinking_bots(tmp_path: Path) -> None:
    """Table work is costly work too (issue 44 leftover): one address may have at most
    `thinking_tables_per_address` open or running tables whose bots search in the workers;
    tables of quick bots (in the event loop) are not counted."""
    app = budget_app(tmp_path / "t.sqlite3", thinking_tables_per_address=2)
    body = SEARCHING
    quick = {**body, "seats": ["open", "easy"]}
    with TestClient(app) as client:
        made = [client.post("/api/tables", json=body).status_code for _ in range(2)]
        assert made == [201, 201]
        third = client.post("/api/tables", json=body)
        assert third.status_code == 429
        assert third.json()["error"] == (
            "2 open tables from your network address have bots that think on the server (the "
            "stronger levels), the most at once; finish one, choose easy bots, or wait: a table "
            "nobody is at closes after 30 minutes"
        )
        assert client.post("/api/tables", json=quick).status_code == 201


def test_a_person_has_their_own_share_of_searching_tables_and_an_address_a_larger_one(
    tmp_path: Path,
) -> None:
    """The budget of searching-bot tables per person (a household behind one address
    shared 6): a signed-in account has its own share, a guest's share is their address's,
    and the address's people together have a larger one. (One test client: one address.)"""
    from tests.server.test_accounts import sign_up

    rates = {"thinking_tables_per_person": 2, "thinking_tables_per_address": 3}
    body = SEARCHING
    with TestClient(budget_app(tmp_path / "t.sqlite3", **rates)) as client:
        sign_up(client, "Ann")
        made = [client.post("/api/tables", json=body) for _ in range(2)]
        assert [r.status_code for r in made] == [201, 201]
        third = client.post("/api/tables", json=body)
        assert third.status_code == 429
        assert third.json()["error"] == (
            "you have 2 open tables with bots that think on the server (the stronger levels), "
            "the most at once; finish one, choose easy bots, or wait: a table nobody is at "
            "closes after 30 minutes"
        )
        # Bob, at the same address, has his own share: one more fills the address's 3
        client.cookies.clear()
        sign_up(client, "Bob")
        assert client.post("/api/tables", json=body).status_code == 201
        full = client.post("/api/tables", json=body)
        assert full.status_code == 429 and full.json()["error"].startswith(
            "3 open tables from your network address have bots that think on the server (the "
            "stronger levels), the most at once;"
        )
        # a finished table frees its place (counted in the database: open or running ones)
        finish_in_store(client, made[0].json()["id"])
        assert client.post("/api/tables", json=body).status_code == 201
        # A guest is their address: the guests there share one person's share (none left)
        client.cookies.clear()
        guest = client.post("/api/tables", json=body)
        assert guest.status_code == 429
        assert guest.json()["error"] == (
            "3 open tables from your network address have bots that think on the server (the "
            "stronger levels), the most at once; finish one, choose easy bots, or wait: a table "
            "nobody is at closes after 30 minutes"
        )
    with TestClient(budget_app(tmp_path / "u.sqlite3", **rates)) as guest:
        assert [guest.post("/api/tables", json=body).status_code for _ in range(2)] == [201, 201]
        third = guest.post("/api/tables", json=body)
        assert third.status_code == 429
        assert third.json()["error"] == (
            "2 open tables from your network address have bots that think on the server (the "
            "stronger levels), the most guests may have at once; sign in to have your own 2, "
            "finish one, choose easy bots, or wait: a table nobody is at closes after 30 minutes"
        )
        assert len(guest.get("/api/tables").json()) == 2  # nothing stored for the refused one


def test_a_seat_handed_to_a_searching_bot_after_the_table_is_made_counts_too(
    tmp_path: Path,
) -> None:
    """Made with open seats (not counted), then a seat handed to a `hard` bot: it was a way
    around the budget. It counts as a table made with it; past the budget the seat stays
    as it was, and an easy bot is still welcome."""
    app = budget_app(tmp_path / "t.sqlite3", thinking_tables_per_person=1)
    body = {**SEARCHING, "seats": ["open", "open"]}
    with TestClient(app) as client:
        first, second = (client.post("/api/tables", json=body).json()["id"] for _ in range(2))
        assert client.post(f"/api/tables/{first}/seats/1", json={"to": "hard"}).status_code == 200
        again = client.post(f"/api/tables/{first}/seats/1", json={"to": "hard"})
        assert again.status_code == 200  # the same table is counted once
        refused = client.post(f"/api/tables/{second}/seats/1", json={"to": "hard"})
        assert refused.status_code == 429
        assert refused.json()["error"].startswith(
            "1 open tables from your network address have bots that think on the server (the "
        )
        assert client.get(f"/api/tables/{second}").json()["seats"][1]["kind"] == "open"
        easy = client.post(f"/api/tables/{second}/seats/1", json={"to": "easy"})
        assert easy.status_code == 200 and easy.json()["seats"][1]["kind"] == "bot"
        # the first game over, a change refused for another reason keeps no place
        finish_in_store(client, first)
        third = client.post("/api/tables", json=body).json()["id"]
        assert client.post(f"/api/tables/{third}/seats/7", json={"to": "hard"}).status_code == 400
        assert client.post(f"/api/tables/{third}/seats/1", json={"to": "hard"}).status_code == 200


def test_the_rematch_of_a_searching_bots_table_takes_its_place_in_the_budget(
    tmp_path: Path,
) -> None:
    """The next game of a series counts where the one that ended did (it counted nowhere:
    a chain of rematches ran beside a full budget)."""
    from sqlalchemy import select

    from gamenight.server.db import tables, token_hash

    app = budget_app(tmp_path / "t.sqlite3", thinking_tables_per_person=1)
    body = {
        **SEARCHING,
        "options": {"players": 2, "wins_to_win": 1},
        "seats": ["easy", "hard"],
        "settings": {"bot_delay": 0},
        "seed": 5,
    }
    with TestClient(app) as client:
        tid = client.post("/api/tables", json=body).json()["id"]
        assert client.post("/api/tables", json=body).status_code == 429
        client.post(f"/api/tables/{tid}/start")
        deadline = time.time() + 30
        while client.get(f"/api/tables/{tid}").json()["status"] != "finished":
            assert time.time() < deadline, "the bots did not finish"
            time.sleep(0.05)
        rematch = client.post(f"/api/tables/{tid}/rematch")
        assert rematch.status_code == 201
        # (a game of bots: the rematch may be over already, so the row itself is read)
        store = client.app.state.holder["hub"].store  # type: ignore[attr-defined]
        keys = select(tables.c.thinking_person, tables.c.thinking_address)
        with store.engine.connect() as conn:
            first = conn.execute(keys.where(tables.c.id == tid)).one()
            second = conn.execute(keys.where(tables.c.id == rematch.json()["id"])).one()
        assert first.thinking_person is not None and tuple(second) == tuple(first)
        # keyed with the database's secret: a plain hash of an address is undone by trying
        # every address
        assert first.thinking_address != token_hash("address:testclient")
