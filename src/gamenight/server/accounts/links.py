"""Seats linked to accounts: a seat taken while signed in is the account's, so its games
count on the profile and another device of the person's can play it (reclaim).

`Links` stores the links; the functions below are what the routes call with a request.
A live table keeps the set of its seats taken while signed in (`account_seats`), which
`public_table` marks so a guest cannot pass for an account's person.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import Request
from sqlalchemy import delete, func, insert, select

from gamenight.server import db
from gamenight.server.accounts.schema import seat_accounts
from gamenight.server.accounts.sessions import Sessions, account_of


class Links(Sessions):
    """Which account sits at which seat (blocking calls; the routes run them in a thread)."""

    def link_seat(self, table_id: str, seat: int, account_id: int | None) -> None:
        """Record that this account sits at this seat, or (None) that no account does: a
        guest or a bot sits there now, and the game is not the earlier person's."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(seat_accounts).where(
                    seat_accounts.c.table_id == table_id, seat_accounts.c.seat == seat
                )
            )
            if account_id is not None:
                conn.execute(
                    insert(seat_accounts).values(
                        table_id=table_id, seat=seat, account_id=account_id
                    )
                )

    def adopt_seats(self, account_id: int, tokens: dict[str, str]) -> list[str]:
        """A guest signs in: the seats this browser holds (table id -> its seat token) at
        tables not yet finished become the account's, as if taken signed in. Returns the
        tables adopted."""
        if not tokens:
            return []
        hashes = {db.token_hash(t): tid for tid, t in tokens.items()}
        with self.engine.connect() as conn:
            held = conn.execute(
                select(db.seats.c.table_id, db.seats.c.seat, db.seats.c.token_hash)
                .join(db.tables, db.tables.c.id == db.seats.c.table_id)
                .where(
                    db.seats.c.table_id.in_(list(tokens)),
                    db.seats.c.token_hash.in_(list(hashes)),
                    db.seats.c.kind == "person",
                    db.tables.c.status.in_(("open", "running")),
                )
            ).all()
        adopted = []
        for row in held:
            if hashes.get(row.token_hash) == row.table_id:  # the token of this very table
                self.link_seat(row.table_id, int(row.seat), account_id)
                adopted.append(row.table_id)
        return adopted

    def tables_of(self, account_id: int, limit: int = 20) -> dict[str, int]:
        """The open or running tables where this account holds a seat (the newest first):
        table id -> its lowest seat."""
        tables = db.tables
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(seat_accounts.c.table_id, func.min(seat_accounts.c.seat).label("seat"))
                .join(tables, tables.c.id == seat_accounts.c.table_id)
                .where(
                    seat_accounts.c.account_id == account_id,
                    tables.c.status.in_(("open", "running")),
                )
                .group_by(seat_accounts.c.table_id, tables.c.updated)
                .order_by(tables.c.updated.desc())
                .limit(limit)
            ).all()
        return {r.table_id: int(r.seat) for r in rows}

    def linked_seats(self, table_id: str) -> list[int]:
        """The seats of this table linked to some account."""
        with self.engine.connect() as conn:
            query = select(seat_accounts.c.seat).where(seat_accounts.c.table_id == table_id)
            return [int(x) for x in conn.execute(query).scalars()]

    def seats_of(self, table_id: str, account_id: int) -> list[int]:
        """The seats this account holds at this table, lowest first."""
        with self.engine.connect() as conn:
            query = (
                select(seat_accounts.c.seat)
                .where(
                    seat_accounts.c.table_id == table_id,
                    seat_accounts.c.account_id == account_id,
                )
                .order_by(seat_accounts.c.seat)
            )
            return [int(x) for x in conn.execute(query).scalars()]


def account_seats(table: Any) -> set[int]:
    """The seats of a live table taken while signed in (kept on the table: public_table
    marks them, so a guest cannot pass for an account's person)."""
    found: set[int] = table.__dict__.setdefault("account_seats", set())
    return found


async def link_seat(
    request: Request, accounts_: Links, table_id: str, seat: int, table: Any = None
) -> None:
    """After a person took `seat`: link it to their account if they are signed in, and
    unlink any earlier account if not (and mark the live `table`'s seat as such)."""
    account = await account_of(request, accounts_)
    account_id = None if account is None else account["id"]
    if table is not None:
        (account_seats(table).add if account_id is not None else account_seats(table).discard)(seat)
    await asyncio.to_thread(accounts_.link_seat, table_id, seat, account_id)


async def unlink_seat(accounts_: Links, table_id: str, seat: int, table: Any = None) -> None:
    """A person's seat became open or a bot's before the start: its game is not theirs."""
    if table is not None:
        account_seats(table).discard(seat)
    await asyncio.to_thread(accounts_.link_seat, table_id, seat, None)


async def refresh_account_seats(accounts_: Links, table: Any) -> None:
    """Mark a live table's seats from the database (after a restart, or a seat taken on
    another process)."""
    linked = await asyncio.to_thread(accounts_.linked_seats, table.row.id)
    held = account_seats(table)
    held.clear()
    held.update(s for s in linked if table.row.seats[s].kind == "person")


async def account_tables(request: Request, accounts_: Links) -> dict[str, int]:
    """Table id -> seat, for the signed-in account's open and running tables ({}: a guest)."""
    account = await account_of(request, accounts_)
    if account is None:
        return {}
    return await asyncio.to_thread(accounts_.tables_of, account["id"])


async def account_seat(
    request: Request, accounts_: Links, table_id: str, person_seats: set[int]
) -> tuple[dict[str, Any] | None, int | None]:
    """The signed-in account of the request (None: a guest) and the seat it holds among
    `person_seats`, the table's seats people sit in (None: no such seat)."""
    account = await account_of(request, accounts_)
    if account is None:
        return None, None
    held = await asyncio.to_thread(accounts_.seats_of, table_id, account["id"])
    return account, next((s for s in held if s in person_seats), None)
