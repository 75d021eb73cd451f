"""Leases: which server process owns a live table, kept in PostgreSQL (the one truth).

A lease is a row of `table_leases` (migration 0004): the owner's process id and the moment
(database clock) it runs out. Taking a free or expired lease is one `INSERT ... ON CONFLICT
DO UPDATE ... WHERE` statement: PostgreSQL locks the row it conflicts with, so of two
processes taking the same lease at once exactly one gets a row back. The owner renews its
leases every third of the lease time; a process that stops (kill -9, a lost machine) stops
renewing, and another process takes the table once the lease has run out.

Every accepted action is stored with a fence: the version bump only happens while the
lease row says this process owns the table, and that row is read `FOR SHARE`, so a taker's
`UPDATE` of the lease waits for the store to commit (and the taker then reads the action)
or the store sees the new owner and refuses. With the version check (`version = n`) this
makes "applied twice" and "acknowledged but lost" impossible, whatever the clocks say.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import text

from gamenight.server.db import Store

NOW = "extract(epoch from clock_timestamp())"  # the database's clock, one for every host

_ACQUIRE = text(
    f"INSERT INTO table_leases (table_id, owner, expires) VALUES (:id, :me, {NOW} + :s) "
    f"ON CONFLICT (table_id) DO UPDATE SET owner = :me, expires = {NOW} + :s "
    "WHERE table_leases.owner IS NULL OR table_leases.owner = :me "
    f"OR table_leases.expires < {NOW} RETURNING owner"
)
_RENEW = text(
    f"UPDATE table_leases SET expires = {NOW} + :s "
    "WHERE owner = :me AND table_id = ANY(:ids) RETURNING table_id"
)
_HOLDER = text(f"SELECT owner, expires > {NOW} AS alive FROM table_leases WHERE table_id = :id")
_RELEASE = text("UPDATE table_leases SET owner = NULL WHERE table_id = :id AND owner = :me")
_FREE_RUNNING = text(
    "SELECT t.id FROM tables t LEFT JOIN table_leases l ON l.table_id = t.id "
    "WHERE t.status = 'running' "
    f"AND (l.table_id IS NULL OR l.owner IS NULL OR l.expires < {NOW}) "
    "ORDER BY t.created LIMIT 500"
)
_SAVE_DEADLINE = text(
    "UPDATE table_leases SET deadline = :d, deadline_seat = :ds, deadline_version = :v "
    "WHERE table_id = :id AND owner = :me"
)
_DEADLINE = text(
    "SELECT deadline, deadline_seat, deadline_version FROM table_leases WHERE table_id = :id"
)
_FENCED_BUMP = text(
    "UPDATE tables SET version = :n1, status = :st, updated = :now "
    "WHERE id = :id AND version = :n AND EXISTS ("
    "SELECT 1 FROM table_leases WHERE table_id = :id AND owner = :me FOR SHARE)"
)
_INSERT_ACTION = text(
    "INSERT INTO actions (table_id, n, seat, action, at) VALUES (:id, :n, :seat, :action, :at)"
)
_VERSIONS = text("SELECT id, version, status FROM tables WHERE id = ANY(:ids)")
_HISTORY_FROM = text(
    "SELECT n, seat, action FROM actions WHERE table_id = :id AND n >= :n ORDER BY n"
)


class NotOwner(RuntimeError):
    """The store was refused because another process owns the table now."""


class ClusterStore(Store):
    """The app's store plus leases, stored deadlines and the fenced action write.

    Blocking like Store; the hub calls it from its database thread."""

    def __init__(self, engine: Any, me: str) -> None:
        super().__init__(engine)
        self.me = me
        self.fenced_out: set[str] = set()  # tables whose last store met another owner

    # -- leases -----------------------------------------------------------------------
    def acquire(self, table_id: str, seconds: float) -> bool:
        with self.engine.begin() as conn:
            got = conn.execute(_ACQUIRE, {"id": table_id, "me": self.me, "s": seconds}).first()
        return got is not None

    def renew(self, table_ids: list[str], seconds: float) -> set[str]:
        if not table_ids:
            return set()
        with self.engine.begin() as conn:
            rows = conn.execute(_RENEW, {"ids": table_ids, "me": self.me, "s": seconds})
            return {r.table_id for r in rows}

    def holder(self, table_id: str) -> tuple[str | None, bool]:
        """(owner process id or None, whether the lease is still running)."""
        with self.engine.connect() as conn:
            r = conn.execute(_HOLDER, {"id": table_id}).first()
        if r is None:
            return None, False
        return r.owner, bool(r.alive) and r.owner is not None

    def release(self, table_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(_RELEASE, {"id": table_id, "me": self.me})

    def free_running(self) -> list[str]:
        """Running tables nobody holds a live lease on (their owner stopped)."""
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(_FREE_RUNNING)]

    # -- deadlines ---------------------------------------------------------------------
    def save_deadline(
        self, table_id: str, version: int, seat: int | None, deadline: float | None
    ) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                _SAVE_DEADLINE,
                {"id": table_id, "me": self.me, "d": deadline, "ds": seat, "v": version},
            )

    def stored_deadline(self, table_id: str) -> tuple[float | None, int | None, int | None]:
        """(deadline, seat, the version it was set at), or Nones."""
        with self.engine.connect() as conn:
            r = conn.execute(_DEADLINE, {"id": table_id}).first()
        if r is None:
            return None, None, None
        return r.deadline, r.deadline_seat, r.deadline_version

    # -- actions -----------------------------------------------------------------------
    def append_action(
        self, table_id: str, n: int, seat: int, action: dict[str, Any], status: str
    ) -> None:
        """Store.append_action, fenced by the lease (see the module docstring)."""
        now = time.time()
        with self.engine.begin() as conn:
            result = conn.execute(
                _FENCED_BUMP,
                {"id": table_id, "n": n, "n1": n + 1, "st": status, "now": now, "me": self.me},
            )
            if result.rowcount != 1:
                self.fenced_out.add(table_id)
                raise NotOwner(f"table {table_id}: not the owner, or stored version is not {n}")
            conn.execute(
                _INSERT_ACTION,
                {"id": table_id, "n": n, "seat": seat, "action": json.dumps(action), "at": now},
            )

    def append_action_now(
        self, table_id: str, n: int, seat: int, action: dict[str, Any], status: str
    ) -> bool:
        """Never: a fenced store goes through append_action, in the database thread."""
        return False

    def versions(self, table_ids: list[str]) -> dict[str, tuple[int, str]]:
        """The stored (version, status) of each of these tables."""
        with self.engine.connect() as conn:
            rows = conn.execute(_VERSIONS, {"ids": table_ids})
            return {r.id: (r.version, r.status) for r in rows}

    def history_from(self, table_id: str, n: int) -> list[tuple[int, int, dict[str, Any]]]:
        """Stored actions number n and later: (n, seat, action JSON)."""
        with self.engine.connect() as conn:
            rows = conn.execute(_HISTORY_FROM, {"id": table_id, "n": n}).all()
        return [(r.n, r.seat, json.loads(r.action)) for r in rows]
