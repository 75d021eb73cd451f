"""Storage: tables, seats and the action log, with SQLAlchemy 2 Core and Alembic. It is over
400 lines because the schema, the SQLite connection set-up and every query of the Store sit
together, so a change of a column is one read.

A table is stored as its game, options and seed plus the ordered log of accepted actions;
the state is never stored, it is replayed (`game.replay(seed, history)`), so a restart
restores every running table exactly. One accepted action is one transaction: the action
row and the table's new version (and status, when the game ends) are written together.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),  # open, running, finished, abandoned
    Column("settings", JSON, nullable=False),  # table settings: reaction timer, ...
    Column("owner_hash", String(64), nullable=False),
    Column("version", Integer, nullable=False, default=0),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("rematch_of", String(32), nullable=True),  # unique (migration 0006)
    # who made it, if a bot of it searches in the workers (keyed hashes, routes/thinking.py;
    # migration 0012): the budget of such tables per person and per address, counted here
    # for every process
    Column("thinking_person", String(64), nullable=True),
    Column("thinking_address", String(64), nullable=True),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # open, person, bot
    Column("name", String(64), nullable=True),
    Column("bot", String(200), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("auto_pass", Boolean, nullable=False, default=False),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),  # the action's JSON form
    Column("at", Float, nullable=False),
)


# The hot path (one accepted action) as plain SQL built once: building Core statements costs
# more than the commit itself.
_BUMP_VERSION = text(
    "UPDATE tables SET version = :n1, status = :st, updated = :now WHERE id = :id AND version = :n"
)
_INSERT_ACTION = text(
    "INSERT INTO actions (table_id, n, seat, action, at) VALUES (:id, :n, :seat, :action, :at)"
)
# The same two statements for SQLite's own driver, on a connection the store keeps open:
# through SQLAlchemy (pool checkout, execution context, reset on checkin) one stored action
# cost 67 us, the same SQL on the driver 28 us.
_SQLITE_BUMP = "UPDATE tables SET version = ?, status = ?, updated = ? WHERE id = ? AND version = ?"
_SQLITE_STATUS = "UPDATE tables SET status = ?, updated = ? WHERE id = ?"
_SQLITE_INSERT = "INSERT INTO actions (table_id, n, seat, action, at) VALUES (?, ?, ?, ?, ?)"


WAL_LIMIT = 1 << 20  # bytes of SQLite write-ahead log kept after a checkpoint


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def data_dir() -> Path:
    """`GAMENIGHT_DATA`, or ./data; created on first use."""
    path = Path(os.environ.get("GAMENIGHT_DATA") or "data")
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_url() -> str:
    return f"sqlite:///{(data_dir() / 'gamenight.sqlite3').resolve()}"


class DatabaseInUse(RuntimeError):
    """Another server holds this SQLite file."""


class RematchTaken(RuntimeError):
    """The table already has its rematch (made meanwhile, maybe by another process)."""


@dataclass(frozen=True)
class Quota:
    """A new table's bots search in the workers: its maker's keys (hashes of a person and
    of an address) and how many open or running such tables each may have."""

    person: str
    address: str
    per_person: int
    per_address: int


class QuotaFull(RuntimeError):
    """The maker has `count` such tables already (`kind`: "person" or "address"), all that
    `quota` allows."""

    def __init__(self, kind: str, count: int, quota: Quota) -> None:
        super().__init__(f"{count} tables with searching bots for this {kind}")
        self.kind, self.count, self.quota = kind, count, quota


_LOCKS: dict[int, IO[bytes]] = {}  # id(engine) -> the open, exclusively locked lock file


class _Kept:
    """The SQLite driver connection each engine keeps for storing actions, made on first
    use and anew after an error. Two of them: one that waits for SQLite's write lock (the
    database thread) and one that never waits (the event loop, busy_timeout 0)."""

    def __init__(self, busy_timeout_ms: int | None) -> None:
        self.busy_timeout_ms = busy_timeout_ms
        self.held: weakref.WeakKeyDictionary[Engine, Any] = weakref.WeakKeyDictionary()
        self.lock = threading.Lock()

    def get(self, engine: Engine) -> Any:
        held: Any = self.held.get(engine)
        if held is None:
            held = self.held[engine] = engine.raw_connection()
            if self.busy_timeout_ms is not None:
                held.dbapi_connection.execute(f"PRAGMA busy_timeout={self.busy_timeout_ms}")
        return held

    def drop(self, engine: Engine) -> None:
        held = self.held.pop(engine, None)
        if held is not None:
            with contextlib.suppress(Exception):
                held.invalidate()


_WAITING = _Kept(None)  # the driver's default timeout (5 s) for SQLite's write lock
_NOW = _Kept(0)


def _busy(err: BaseException) -> bool:
    """SQLite said another connection holds the lock (SQLITE_BUSY or one of its kinds)."""
    code = getattr(err, "sqlite_errorcode", None)
    return (
        isinstance(err, sqlite3.OperationalError)
        and code is not None
        and code & 0xFF == sqlite3.SQLITE_BUSY
    )


def _sqlite_path(url: str) -> Path | None:
    path = url.split("///", 1)[1] if "///" in url else ""
    if not path or path == ":memory:":
        return None
    return Path(path).resolve()


def _lock(path: Path) -> IO[bytes]:
    """An exclusive lock beside the SQLite file: two servers on one file would each keep
    their own copy of the live tables and freeze each other's games."""
    lock_path = path.with_name(path.name + ".lock")
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    file = open(lock_path, "a+b")  # noqa: SIM115 (held open for the server's lifetime)
    try:
        fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as err:
        file.close()
        raise DatabaseInUse(
            f"another gamenight server is already using {path} (it holds {lock_path}); "
            "stop that server first, or give this one another database"
        ) from err
    return file


def disconnect(engine: Engine) -> None:
    """Close the engine (and the connection kept for storing actions) and release the
    SQLite file lock."""
    for kept in (_WAITING, _NOW):
        with kept.lock:
            hot = kept.held.pop(engine, None)
        if hot is not None:
            with contextlib.suppress(Exception):
                hot.close()
    engine.dispose()
    file = _LOCKS.pop(id(engine), None)
    if file is not None:
        file.close()


def connect(url: str | None, *, lock: bool = True) -> Engine:
    """An engine for `url` (default: the SQLite file in the data directory), migrated.
    A SQLite file is locked for this process (DatabaseInUse if another server has it);
    lock=False only to inspect a file a server is using (tests, benchmarks)."""
    url = url or default_url()
    if url.startswith("sqlite"):
        path = _sqlite_path(url) if lock else None
        held = _lock(path) if path is not None else None
        engine = create_engine(url, connect_args={"check_same_thread": False})
        if held is not None:
            _LOCKS[id(engine)] = held

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            # No checkpoint inside a commit (it syncs the file and would stall the action
            # being stored): the app checkpoints in a thread of its own (Store.checkpoint).
            cur.execute("PRAGMA wal_autocheckpoint=0")
            # A checkpoint then cuts the WAL file back to this size, so it cannot grow
            # without bound beside the database.
            cur.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
    else:
        engine = create_engine(url, pool_pre_ping=True)
    migrate(engine)
    return engine


def migrate(engine: Engine) -> None:
    """Run the Alembic migrations in this package up to head."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":  # several processes may start at once
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7244751)")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    auto_pass: bool = False


@dataclass
class TableRow:
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    status: str
    settings: dict[str, Any]
    owner_hash: str
    version: int
    created: float
    updated: float
    rematch_of: str | None = None
    seats: list[SeatRow] = field(default_factory=list)


class Store:
    """Every read and write of the app. Methods are blocking; the app calls them from one
    worker thread so the event loop never waits on the database (append_action_now, which
    gives up rather than wait, is the one the loop calls itself)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def checkpoint(self) -> None:
        """Copy the SQLite write-ahead log into the database file (no-op elsewhere).
        PASSIVE: it neither waits for nor blocks the writer. Once it has copied the whole
        log, the next write starts the log over, cuts the file to WAL_LIMIT and syncs the
        log's new header (an fsync even at synchronous=NORMAL, about 1 ms here). That
        write is made here, in the checkpoint's thread, so no action pays for it: before,
        the first action stored after every checkpoint did, in the event loop (one action
        in fifty at 100 tables, most of the slowest 1% in bench/capacity.py)."""
        if self.engine.dialect.name != "sqlite":
            return
        with self.engine.connect() as conn:
            busy, frames, copied = conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
            # more than the one frame of our own restart: an idle server writes nothing
            if busy == 0 and frames == copied > 1:
                version = conn.exec_driver_sql("PRAGMA user_version").scalar()
                # rewriting its own value changes nothing but starts the log over
                conn.exec_driver_sql(f"PRAGMA user_version = {int(version or 0)}")
                conn.commit()

    def create_table(self, row: TableRow, quota: Quota | None = None) -> None:
        """The table and its seats, in one transaction. RematchTaken if it is the rematch of
        a table that has one already (`rematch_of` is unique: migration 0006); QuotaFull
        (and nothing stored) if its maker has all the searching-bot tables `quota` allows."""
        try:
            self._insert_table(row, quota)
        except IntegrityError:
            if row.rematch_of is not None and self.rematch_of(row.rematch_of) is not None:
                raise RematchTaken(row.rematch_of) from None
            raise

    def _insert_table(self, row: TableRow, quota: Quota | None) -> None:
        with self.engine.begin() as conn:
            if quota is not None:
                _serialize_makers(conn, quota)
                makers: tuple[str | None, str | None] = (quota.person, quota.address)
            else:  # the next game of a series takes the place of the one that ended, in
                # the same budget (a rematch counted nowhere)
                makers = _makers_of(conn, row.rematch_of)
            conn.execute(
                insert(tables).values(
                    id=row.id,
                    game=row.game,
                    options=row.options,
                    seed=row.seed,
                    status=row.status,
                    settings=row.settings,
                    owner_hash=row.owner_hash,
                    version=0,
                    created=row.created,
                    updated=row.updated,
                    rematch_of=row.rematch_of,
                    thinking_person=makers[0],
                    thinking_address=makers[1],
                )
            )
            if quota is not None:  # counted with this one, which the refusal takes back
                _within(conn, quota)
            for s in row.seats:
                conn.execute(
                    insert(seats).values(
                        table_id=row.id,
                        seat=s.seat,
                        kind=s.kind,
                        name=s.name,
                        bot=s.bot,
                        token_hash=s.token_hash,
                        auto_pass=s.auto_pass,
                    )
                )

    def claim_thinking(self, table_id: str, quota: Quota) -> bool:
        """Count the table in `quota`'s budget (a seat of it was handed to a searching bot)
        unless it is counted already; QuotaFull (and nothing changed) past the budget. True
        if it was counted now."""
        with self.engine.begin() as conn:
            _serialize_makers(conn, quota)
            counted = conn.execute(
                update(tables)
                .where(tables.c.id == table_id, tables.c.thinking_person.is_(None))
                .values(thinking_person=quota.person, thinking_address=quota.address)
            ).rowcount
            if counted:
                _within(conn, quota)
            return bool(counted)

    def unclaim_thinking(self, table_id: str) -> None:
        """Take back `claim_thinking` (the seat change it was for was refused)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(tables)
                .where(tables.c.id == table_id)
                .values(thinking_person=None, thinking_address=None)
            )

    def update_seat(self, table_id: str, s: SeatRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.seat == s.seat)
                .values(
                    kind=s.kind,
                    name=s.name,
                    bot=s.bot,
                    token_hash=s.token_hash,
                    auto_pass=s.auto_pass,
                )
            )
            conn.execute(update(tables).where(tables.c.id == table_id).values(updated=time.time()))

    def set_settings(self, table_id: str, settings: dict[str, Any]) -> None:
        """The table's settings, with the state kept in them (turn clocks' time banks)."""
        with self.engine.begin() as conn:
            conn.execute(update(tables).where(tables.c.id == table_id).values(settings=settings))

    def set_seed(self, table_id: str, seed: int, settings: dict[str, Any]) -> None:
        """A new seed (drawn before the start) with the settings that say so, in one write."""
        with self.engine.begin() as conn:
            conn.execute(
                update(tables)
                .where(tables.c.id == table_id, tables.c.status == "open")
                .values(seed=seed, settings=settings)
            )

    def set_status(self, table_id: str, status: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(tables)
                .where(tables.c.id == table_id)
                .values(status=status, updated=time.time())
            )

    def append_action(
        self, table_id: str, n: int, seat: int, action: dict[str, Any], status: str
    ) -> None:
        """One transaction: the action row, the table's version and status. Committed before
        it returns (SQLite: WAL, synchronous=NORMAL; a killed process loses nothing)."""
        now = time.time()
        if self.engine.dialect.name == "sqlite":
            self._append_sqlite(table_id, n, seat, json.dumps(action), status, now)
            return
        with self.engine.begin() as conn:
            result = conn.execute(
                _BUMP_VERSION, {"id": table_id, "n": n, "n1": n + 1, "st": status, "now": now}
            )
            if result.rowcount != 1:
                raise RuntimeError(f"table {table_id}: stored version is not {n}")
            conn.execute(
                _INSERT_ACTION,
                {"id": table_id, "n": n, "seat": seat, "action": json.dumps(action), "at": now},
            )

    def open_now(self) -> None:
        """Open the connection append_action_now writes on (it is opened on first use)."""
        with _NOW.lock:
            _NOW.get(self.engine)

    def append_action_now(
        self, table_id: str, n: int, seat: int, action: dict[str, Any], status: str
    ) -> bool:
        """append_action without waiting, for the event loop: False (nothing written) when
        SQLite's write lock is held by another connection, or on any other database.
        Without a wait it is one write to the operating system's cache (WAL with
        synchronous=NORMAL, checkpoints in a thread of their own): microseconds."""
        if self.engine.dialect.name != "sqlite":
            return False
        return self._append_sqlite(table_id, n, seat, json.dumps(action), status, time.time(), _NOW)

    def set_status_now(self, table_id: str, status: str) -> bool:
        """set_status without waiting, for the event loop (as append_action_now): a game's
        end in one statement on SQLite's driver instead of a trip to the database thread and
        SQLAlchemy's 1.6 ms of Python there, which held up the last broadcast and queued
        other tables' stores behind it. False (nothing written) when it would wait."""
        if self.engine.dialect.name != "sqlite":
            return False

        def write(conn: Any) -> None:
            conn.execute(_SQLITE_STATUS, (status, time.time(), table_id))

        return self._sqlite_write(write, _NOW)

    def _append_sqlite(
        self,
        table_id: str,
        n: int,
        seat: int,
        action: str,
        status: str,
        now: float,
        kept: _Kept = _WAITING,
    ) -> bool:
        """append_action on SQLite's driver directly, on the connection `kept` for it.
        False if it does not wait and the write lock (or the connection) is in use."""

        def write(conn: Any) -> None:
            if conn.execute(_SQLITE_BUMP, (n + 1, status, now, table_id, n)).rowcount != 1:
                raise RuntimeError(f"table {table_id}: stored version is not {n}")
            conn.execute(_SQLITE_INSERT, (table_id, n, seat, action, now))

        return self._sqlite_write(write, kept)

    def _sqlite_write(self, write: Callable[[Any], None], kept: _Kept) -> bool:
        """One transaction of `write` on the SQLite connection `kept`, committed. False if
        it does not wait and the write lock (or the connection) is in use; nothing written."""
        waits = kept is _WAITING
        if not kept.lock.acquire(blocking=waits):
            return False
        try:
            conn: Any = kept.get(self.engine).dbapi_connection
            try:
                write(conn)
                conn.commit()
                return True
            except BaseException as err:
                try:
                    conn.rollback()
                except Exception:
                    kept.drop(self.engine)  # broken: the next store opens another
                if not waits and _busy(err):
                    return False
                raise
        finally:
            kept.lock.release()

    @staticmethod
    def _row(r: Any) -> TableRow:
        """A `tables` row as a TableRow, without its seats."""
        return TableRow(
            id=r.id,
            game=r.game,
            options=dict(r.options),
            seed=int(r.seed),
            status=r.status,
            settings=dict(r.settings),
            owner_hash=r.owner_hash,
            version=r.version,
            created=r.created,
            updated=r.updated,
            rematch_of=r.rematch_of,
        )

    def _table(self, conn: Connection, r: Any) -> TableRow:
        row = self._row(r)
        for s in conn.execute(select(seats).where(seats.c.table_id == r.id).order_by(seats.c.seat)):
            row.seats.append(SeatRow(s.seat, s.kind, s.name, s.bot, s.token_hash, s.auto_pass))
        return row

    def table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(tables).where(tables.c.id == table_id)).first()
            return None if r is None else self._table(conn, r)

    def tables_with_status(self, *status: str) -> list[TableRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables).where(tables.c.status.in_(status)).order_by(tables.c.created)
            ).all()
            return [self._table(conn, r) for r in rows]

    def lobby(self, limit: int, offset: int = 0) -> list[TableRow]:
        """One page of open and running tables (newest first) with their seats, in one
        query (the lobby must not cost one query per table)."""
        page = (
            select(tables.c.id)
            .where(tables.c.status.in_(("open", "running")))
            .order_by(tables.c.created.desc(), tables.c.id)
            .limit(limit)
            .offset(offset)
            .scalar_subquery()
        )
        query = (
            select(tables, seats.c.seat, seats.c.kind, seats.c.name)
            .join(seats, seats.c.table_id == tables.c.id)
            .where(tables.c.id.in_(page))
            .order_by(tables.c.created.desc(), tables.c.id, seats.c.seat)
        )
        out: dict[str, TableRow] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(query):
                row = out.get(r.id)
                if row is None:
                    row = out[r.id] = self._row(r)
                row.seats.append(SeatRow(r.seat, r.kind, r.name))
        return list(out.values())

    def stale_open(self, before: float, limit: int = 1000) -> list[str]:
        """Ids of open or running tables not touched since `before` (epoch seconds)."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(tables.c.id)
                    .where(tables.c.status.in_(("open", "running")), tables.c.updated < before)
                    .limit(limit)
                ).scalars()
            )

    def abandon(self, ids: Iterable[str]) -> None:
        ids = list(ids)
        if not ids:
            return
        with self.engine.begin() as conn:
            conn.execute(
                update(tables)
                .where(tables.c.id.in_(ids), tables.c.status.in_(("open", "running")))
                .values(status="abandoned", updated=time.time())
            )

    def rematch_of(self, table_id: str) -> str | None:
        """The id of the rematch of `table_id`, if one was made."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(tables.c.id).where(tables.c.rematch_of == table_id).limit(1)
            ).scalar()
            return None if found is None else str(found)

    def history(self, table_id: str) -> list[tuple[int, dict[str, Any]]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions.c.seat, actions.c.action)
                .where(actions.c.table_id == table_id)
                .order_by(actions.c.n)
            ).all()
            return [(r.seat, json.loads(r.action)) for r in rows]


def _serialize_makers(conn: Connection, quota: Quota) -> None:
    """Makers on two processes at once: on PostgreSQL the second counts after the first's
    change is committed (SQLite: the first write takes the database's one write lock)."""
    if conn.dialect.name == "postgresql":
        for key in (quota.person, quota.address):
            conn.execute(text("select pg_advisory_xact_lock(hashtext(:k))"), {"k": key})


def _makers_of(conn: Connection, table_id: str | None) -> tuple[str | None, str | None]:
    """The budget keys (person, address) a table is counted under; (None, None) for none."""
    if table_id is None:
        return None, None
    query = select(tables.c.thinking_person, tables.c.thinking_address)
    found = conn.execute(query.where(tables.c.id == table_id)).one_or_none()
    return (None, None) if found is None else (found.thinking_person, found.thinking_address)


def _within(conn: Connection, quota: Quota) -> None:
    """QuotaFull if the maker's open or running searching-bot tables, the new one counted,
    are more than `quota` allows (the transaction then stores nothing)."""
    live = tables.c.status.in_(("open", "running"))
    for kind, column, key, most in (
        ("person", tables.c.thinking_person, quota.person, quota.per_person),
        ("address", tables.c.thinking_address, quota.address, quota.per_address),
    ):
        count = conn.execute(select(func.count()).where(column == key, live)).scalar_one()
        if count > most:
            raise QuotaFull(kind, count - 1, quota)
