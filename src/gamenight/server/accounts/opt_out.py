"""An account's choice to keep its games out of the open archive (`gamenight export`,
server/archive.py): a column of the account (migration 0009), read and set here."""

from __future__ import annotations

from sqlalchemy import Engine, select, update

from gamenight.server.accounts.schema import accounts


def opted_out(engine: Engine, account_id: int) -> bool:
    """Does this account keep its games out of the open archive?"""
    with engine.connect() as conn:
        found = conn.execute(
            select(accounts.c.archive_opt_out).where(accounts.c.id == account_id)
        ).scalar()
    return bool(found)


def set_opted_out(engine: Engine, account_id: int, out: bool) -> bool:
    """Keep this account's games out of the open archive (True) or let them in, from the
    next export on (an archive already written stays as it is). Returns the choice."""
    with engine.begin() as conn:
        conn.execute(
            update(accounts).where(accounts.c.id == account_id).values(archive_opt_out=out)
        )
    return out
