"""Storage against SQLite and a real PostgreSQL (a throwaway cluster started here)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text

import gamenight
from gamenight.server.app import create_app
from gamenight.server.db import SeatRow, Store, TableRow, connect, disconnect
from tests.server.conftest import cookie, join, new_table, receive_state
from tests.server.helpers import pg_tools, postgres_cluster


@pytest.fixture(scope="session")
def pg_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if pg_tools() is None:
        pytest.skip(
            "PostgreSQL is not installed (no pg_ctl); install the Debian package "
            "postgresql to run the PostgreSQL storage tests"
        )
    with postgres_cluster(tmp_path_factory.mktemp("pg")) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    return str(request.getfixturevalue("pg_url"))


def head_revision() -> str:
    """The newest migration in the package (one head: the chain has no branches)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    import gamenight.server.db as db

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    heads = ScriptDirectory.from_config(cfg).get_heads()
    assert len(heads) == 1, f"migrations have several heads: {heads}"
    return str(heads[0])


def a_table(table_id: str) -> TableRow:
    now = time.time()
    return TableRow(
        id=table_id,
        game="drop-or-stop",
        options={"players": 2},
        seed=2**52 + 7,
        status="open",
        settings={"reaction_seconds": 5.0},
        owner_hash="h" * 64,
        version=0,
        created=now,
        updated=now,
        seats=[SeatRow(0, "open"), SeatRow(1, "bot", "Bot", "bot:easy")],
    )


def test_a_broken_sqlite_action_connection_is_replaced(tmp_path: Path) -> None:
    """SQLite stores actions on a driver connection the store keeps (issue 17): when it
    breaks, that one store fails (the table refuses the action) and the next one works."""
    import gamenight.server.db as db

    engine = connect(f"sqlite:///{tmp_path / 'hot.sqlite3'}")
    store = Store(engine)
    store.create_table(a_table("hot"))
    store.set_status("hot", "running")
    store.append_action("hot", 0, 0, {"type": "drop"}, "running")
    db._WAITING.held[engine].dbapi_connection.close()  # the kept connection breaks
    with pytest.raises(Exception, match="closed"):
        store.append_action("hot", 1, 1, {"type": "stop"}, "running")
    store.append_action("hot", 1, 1, {"type": "stop"}, "running")
    assert store.history("hot") == [(0, {"type": "drop"}), (1, {"type": "stop"})]
    disconnect(engine)
    assert engine not in db._WAITING.held  # closed with the engine


def test_migrations_create_the_schema_once(db_url: str) -> None:
    disconnect(connect(db_url))
    engine = connect(db_url)  # a second start migrates nothing
    names = set(inspect(engine).get_table_names())
    assert {"tables", "seats", "actions", "alembic_version"} <= names
    with engine.connect() as conn:
        stored = conn.execute(text("select version_num from alembic_version")).scalar()
    assert stored == head_revision()
    disconnect(engine)


def test_tables_seats_and_the_action_log(db_url: str) -> None:
    engine = connect(db_url)
    store = Store(engine)
    tid = f"t{time.time_ns() % 10**9}"
    store.create_table(a_table(tid))
    row = store.table(tid)
    assert row is not None and row.seed == 2**52 + 7 and row.options == {"players": 2}
    assert [s.kind for s in row.seats] == ["open", "bot"]
    store.update_seat(tid, SeatRow(0, "person", "Ann", None, "x" * 64, True))
    store.set_status(tid, "running")
    store.append_action(tid, 0, 0, {"type": "drop"}, "running")
    store.append_action(tid, 1, 1, {"type": "stop"}, "running")
    with pytest.raises(RuntimeError, match="version"):
        store.append_action(tid, 1, 0, {"type": "drop"}, "running")  # the version moved on
    with pytest.raises(RuntimeError, match="version"):
        store.append_action(tid, 0, 0, {"type": "drop"}, "running")
    assert store.history(tid) == [(0, {"type": "drop"}), (1, {"type": "stop"})]
    row = store.table(tid)
    assert row is not None and row.version == 2 and row.status == "running"
    assert row.seats[0].name == "Ann" and row.seats[0].auto_pass is True
    assert tid in [r.id for r in store.tables_with_status("running")]
    assert store.table("missing") is None
    disconnect(engine)


def test_a_game_is_stored_and_restored_by_a_new_app(db_url: str) -> None:
    app = create_app(db_url, pool="thread")
    with TestClient(app) as client:
        t = new_table(client, seats=["open", "easy"], seed=12)
        token = join(client, t["id"], 0, "Ann")
        client.post(f"/api/tables/{t['id']}/start")
        with client.websocket_connect(
            f"/ws/tables/{t['id']}", headers=cookie(t["id"], token)
        ) as ws:
            msg = receive_state(ws)
            moves = 0
            while moves < 3 and not msg["view"]["over"]:
                if msg.get("asked"):
                    ws.send_json(
                        {"type": "act", "version": msg["version"], "action": {"type": "drop"}}
                    )
                    moves += 1
                msg = receive_state(ws)
            before = msg
    # A new app on the same database (a restart) replays the table to the same state.
    app2 = create_app(db_url, pool="thread")
    with (
        TestClient(app2) as client2,
        client2.websocket_connect(f"/ws/tables/{t['id']}", headers=cookie(t["id"], token)) as ws,
    ):
        again = receive_state(ws, before["version"])
        if again["version"] == before["version"]:
            assert again["view"] == before["view"]
        history = app2.state.holder["hub"].store.history(t["id"])
    game = gamenight.load("drop-or-stop", players=2)
    replayed = game.replay(12, [(s, game.action_from_json(a)) for s, a in history])
    assert len(history) >= before["version"]
    assert (
        replayed.history[: before["version"]]
        == game.replay(
            12, [(s, game.action_from_json(a)) for s, a in history[: before["version"]]]
        ).history
    )


def test_a_table_has_one_rematch_however_many_processes_ask(db_url: str) -> None:
    """Two processes asked at once for the rematch of one finished table each found none
    and made one (the table's lock is per process): the store now refuses the second."""
    from gamenight.server.db import RematchTaken

    engine = connect(db_url)
    store = Store(engine)
    tid = f"r{time.time_ns() % 10**9}"
    store.create_table(a_table(tid))
    first, second = a_table(f"{tid}a"), a_table(f"{tid}b")
    first.rematch_of = second.rematch_of = tid
    store.create_table(first)
    with pytest.raises(RematchTaken):
        store.create_table(second)
    assert store.rematch_of(tid) == f"{tid}a" and store.table(f"{tid}b") is None
    disconnect(engine)


def test_the_migration_keeps_the_earliest_of_two_rematches(tmp_path: Path) -> None:
    """A database where the race happened before migration 0006 still upgrades."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    import gamenight.server.db as db

    url = f"sqlite:///{tmp_path / 'raced.sqlite3'}"
    old = create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    with old.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0005")
        for tid, created, of in (("t0", 1, None), ("t1", 2, "t0"), ("t2", 3, "t0")):
            conn.execute(
                text(
                    "insert into tables (id, game, options, seed, status, settings, owner_hash,"
                    " version, created, updated, rematch_of) values (:id, 'drop-or-stop',"
                    " '{}', 1, 'open', '{}', 'h', 0, :c, :c, :of)"
                ),
                {"id": tid, "c": created, "of": of},
            )
    old.dispose()
    store = Store(connect(url))  # migrates to head
    assert store.rematch_of("t0") == "t1"
    later = store.table("t2")
    assert later is not None and later.rematch_of is None
    disconnect(store.engine)


@contextlib.contextmanager
def another_writer(path: Path) -> Iterator[None]:
    """SQLite's write lock held by another connection (as the database thread's) inside."""
    import sqlite3

    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


def gives_up_at_once(write: Callable[[], bool]) -> None:
    start = time.monotonic()
    assert write() is False
    assert time.monotonic() - start < 0.5  # the driver's own wait is 5 s


def test_storing_without_waiting_gives_up_at_once_while_another_connection_writes(
    tmp_path: Path,
) -> None:
    """append_action_now (the event loop's store): False, nothing written and no wait while
    SQLite's write lock is held elsewhere; the same row as append_action once it is free."""
    path = tmp_path / "now.sqlite3"
    store = Store(connect(f"sqlite:///{path}"))
    store.create_table(a_table("now"))
    with another_writer(path):
        gives_up_at_once(lambda: store.append_action_now("now", 0, 0, {"type": "drop"}, "running"))
    assert store.history("now") == []
    assert store.append_action_now("now", 0, 0, {"type": "drop"}, "running") is True
    store.append_action("now", 1, 1, {"type": "stop"}, "finished")
    assert store.history("now") == [(0, {"type": "drop"}), (1, {"type": "stop"})]
    assert store.table("now").version == 2 and store.table("now").status == "finished"
    with pytest.raises(RuntimeError, match="stored version is not 1"):
        store.append_action_now("now", 1, 0, {"type": "drop"}, "running")
    disconnect(store.engine)


def test_a_games_end_is_stored_without_waiting_or_not_at_all(tmp_path: Path) -> None:
    """set_status_now (the event loop's store of a game's end): False and nothing written
    while SQLite's write lock is held elsewhere, the status written once it is free."""
    path = tmp_path / "end.sqlite3"
    store = Store(connect(f"sqlite:///{path}"))
    store.create_table(a_table("end"))
    with another_writer(path):
        gives_up_at_once(lambda: store.set_status_now("end", "finished"))
    assert store.table("end").status == "open"
    assert store.set_status_now("end", "finished") is True
    assert store.table("end").status == "finished"
    disconnect(store.engine)


def test_an_unknown_inline_setting_is_named_and_the_default_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from gamenight.server.tables import Hub

    monkeypatch.setenv("GAMENIGHT_INLINE_DB", "<b>yes</b>")
    engine = connect(f"sqlite:///{tmp_path / 'inline.sqlite3'}")
    with ThreadPoolExecutor(1) as db_pool:
        hub = Hub(Store(engine), None, db_pool)  # type: ignore[arg-type]
    assert hub.inline_actions and not hub.inline_db
    assert "GAMENIGHT_INLINE_DB='<b>yes</b>' is not actions, none or all" in caplog.text
    disconnect(engine)


def test_the_sweep_keeps_its_own_pace_beside_the_checkpoints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Checkpoints every CHECKPOINT_EVERY seconds; the sweep (a query in the database
    thread) only every `every` seconds. It used to run at every checkpoint, every 2 s."""
    from gamenight.server import table_store

    monkeypatch.setattr(table_store, "CHECKPOINT_EVERY", 0.01)
    counts = {"checkpoint": 0, "sweep": 0}

    class FakeHub:
        class store:  # stands in for the hub's Store
            @staticmethod
            def checkpoint() -> None:
                counts["checkpoint"] += 1

        class pool:  # stands in for the hub's worker pool
            @staticmethod
            def heal() -> None:
                pass

        async def sweep(self) -> list[str]:
            counts["sweep"] += 1
            return []

    async def run() -> None:
        task = asyncio.create_task(table_store.run_sweeper(FakeHub(), every=60.0))  # type: ignore[arg-type]
        await asyncio.sleep(0.3)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    asyncio.run(run())
    assert counts["checkpoint"] >= 5
    assert counts["sweep"] == 0
