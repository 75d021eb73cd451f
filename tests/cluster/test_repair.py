"""Redis pub/sub delivers each announcement at most once: a process that missed one (a
Redis hiccup, a publish that failed) must still bring its pages to the stored version.

Seen in CI: after a Redis restart, Bob's page (on the process that did not own the table)
stayed two versions behind Ann's for 45 s and the game stalled. Two hubs run here in one
event loop on one PostgreSQL and one Redis, and the follower is made deaf to the owner's
announcements, so only the database can tell it."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

import pytest

from gamenight.server.cluster.hub import ClusterHub
from gamenight.server.cluster.lease import ClusterStore
from gamenight.server.db import connect, disconnect
from gamenight.server.live_table import Conn, LiveTable
from gamenight.server.operations import ACT, JOIN, START
from gamenight.server.workers import WorkerPool, make_pool
from tests.cluster.helpers import Redis

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
LEASE = 1.5  # seconds: the follower compares versions every third of it


@asynccontextmanager
async def hub(engine: Any, redis_url: str, name: str) -> AsyncIterator[ClusterHub]:
    db_pool = ThreadPoolExecutor(max_workers=1)
    work = WorkerPool(lambda: make_pool("thread", 1))
    made = ClusterHub(
        ClusterStore(engine, name), work, db_pool, redis_url=redis_url, lease_seconds=LEASE
    )
    await made.start_cluster()
    try:
        yield made
    finally:
        await made.close()
        work.shutdown()
        db_pool.shutdown(wait=True)


def deafen(follower: ClusterHub) -> list[dict[str, Any]]:
    """From now on the follower loses every version announcement (kept in the list)."""
    lost: list[dict[str, Any]] = []
    hear = follower.bus.on_message

    def on_message(channel: str, msg: dict[str, Any]) -> Any:
        if channel.startswith("gn:t:") and "v" in msg:
            lost.append(msg)
            return None
        return hear(channel, msg)

    follower.bus.on_message = on_message
    return lost


async def newest_version(conn: Conn, at_least: int, seconds: float) -> int:
    """The newest state version the page was sent, waiting until it is `at_least`."""
    newest = -1
    end = asyncio.get_running_loop().time() + seconds
    while True:
        while conn.outbox:
            msg = json.loads(conn.outbox.popleft())
            if msg.get("type") == "state":
                newest = max(newest, int(msg["version"]))
        if newest >= at_least or asyncio.get_running_loop().time() > end:
            return newest
        await asyncio.sleep(0.05)


async def act_once(owner: ClusterHub, table: LiveTable) -> int:
    """The first seat asked makes its first legal move; the new version."""
    assert table.state is not None
    seat = table.state.actors[0]
    action = table.state.actions(seat)[0]
    await owner.run(ACT, table, seat, table.version, action.to_json())
    return table.version


@contextlib.asynccontextmanager
async def started(
    pg_url: str, redis_url: str
) -> AsyncIterator[tuple[ClusterHub, ClusterHub, LiveTable, LiveTable]]:
    """An owner and a follower on one database; Ann and Bob's Drop or Stop table started on
    the owner; the table as each of them holds it."""
    engine = connect(pg_url)
    try:
        async with hub(engine, redis_url, "owner") as a, hub(engine, redis_url, "follower") as b:
            table, _ = await a.create("drop-or-stop", {"players": 2}, ["open", "open"], {})
            for seat, name in enumerate(("Ann", "Bob")):
                await a.run(JOIN, table, seat, name, None)
            await a.run(START, table)
            followed = await b.get(table.row.id)
            assert not b.owns(followed) and a.owns(table)
            yield a, b, table, followed
    finally:
        disconnect(engine)


async def scenario(pg_url: str, redis_url: str, do: str) -> tuple[int, int, int]:
    async with started(pg_url, redis_url) as (a, b, table, followed):
        page = Conn(1)  # Bob's page, on the follower
        await b.attach(followed, page)
        assert await newest_version(page, table.version, 5) == table.version
        lost = deafen(b)
        version = await act_once(a, table)
        if do == "sync":  # the page asks (as table.js does after a raced refusal)
            await b.sync(followed, page)
            return version, await newest_version(page, version, 0), len(lost)
        return version, await newest_version(page, version, 4 * LEASE), len(lost)


def test_a_lost_announcement_is_caught_up_from_the_database(pg_url: str, redis: Redis) -> None:
    version, seen, lost = asyncio.run(scenario(pg_url, redis.url, "wait"))
    assert lost >= 1, "the owner announced the new version (and the follower lost it)"
    assert seen == version, f"Bob's page stayed at version {seen}, the table is at {version}"


def test_a_sync_on_a_follower_reads_the_database(pg_url: str, redis: Redis) -> None:
    version, seen, _ = asyncio.run(scenario(pg_url, redis.url, "sync"))
    assert seen == version, f"the sync answered version {seen}, the table is at {version}"


async def moment_scenario(pg_url: str, redis_url: str) -> tuple[int, dict[str, Any] | None]:
    """Bob's page is on the follower, deaf to the owner's announcements, when a round ends:
    the version it is shown from the database, and that message's "moment"."""
    async with started(pg_url, redis_url) as (a, b, table, followed):
        page = Conn(1, token_hash=table.seat_row(1).token_hash)  # Bob's own page
        await b.attach(followed, page)
        for _ in range(100):  # the owner hears that Bob's page is open there
            if table.elsewhere:
                break
            await asyncio.sleep(0.05)
        assert table.elsewhere, "the owner never heard of Bob's page"
        deafen(b)
        assert table.state is not None
        while not any(e.kind == "revealed" for e in table.state.log):  # both stop
            seat = table.state.actors[0]
            await a.run(ACT, table, seat, table.version, {"type": "stop"})
        assert table.moment is not None, "the owner holds the round's moment"
        version = table.version
        assert await newest_version(page, version, 4 * LEASE) == version
        return version, followed.moment.to_json() if followed.moment else None


def test_a_round_end_caught_up_from_the_database_still_shows_its_moment(
    pg_url: str, redis: Redis
) -> None:
    """Seen in CI: the owner's announcement of a round's end came late (its database was
    slow), the follower caught up from the database and showed the reveal without the
    round's moment; Bob acted on it, and his page was shown the moment one version late."""
    version, moment = asyncio.run(moment_scenario(pg_url, redis.url))
    assert moment is not None and moment["version"] == version, (version, moment)
