"""Programs that play (issue 48, item 2), on the model of lichess's Bot API.

A signed-in person makes an API token for their account (`POST /api/account/tokens`, the
token shown once, kept hashed) and may turn the account into a bot account
(`POST /api/bot/account/upgrade`, with the token): only an account that has played no rated
game as a person, and for good, as on lichess. A bot account is rated apart from people
(ratings under "program:<id>", never on the people's leaderboard).

With the token (`Authorization: Bearer ...`) a program
- listens to its events (`GET /api/bot/stream`, NDJSON: a `challenge` when a table's owner
  asks it to play, a keep-alive empty line every few seconds);
- takes a seat (`POST /api/bot/tables/{id}/join {"seat": N}`) at an open table whose owner
  welcomes programs (table setting `outside_bots`) or challenged it; the answer carries the
  seat's token, as a person's browser gets it in a cookie;
- plays as a page does: the table's WebSocket (`/ws/tables/{id}`) with that seat token in a
  `gn_seat_<id>` cookie, so it sees exactly its seat's view and is refused like any page
  (rights.may at every message, the socket's rates, the person work budget for costly work).
Every call is rate limited per account (`Programs.calls`).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from sqlalchemy import Column, Float, Integer, String, Table, delete, func, insert, select
from sqlalchemy.engine import Engine

from gamenight.i18n import N_
from gamenight.server.db import metadata, token_hash
from gamenight.server.limits import PerClient
from gamenight.server.live_table import Refused

TOKEN_PREFIX = "gnb_"  # so a token pasted in the wrong place is recognised
TOKENS_PER_ACCOUNT = 5
CALLS_PER_SECOND = 5.0  # a program's HTTP calls (its moves go over the WebSocket)
CALL_BURST = 20.0
KEEP_ALIVE_SECONDS = 5.0

# (made by migration 0010)
api_tokens = Table(
    "api_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, nullable=False, index=True),
    Column("created", Float, nullable=False),
)
bot_accounts = Table(
    "bot_accounts",
    metadata,
    Column("account_id", Integer, primary_key=True),
    Column("since", Float, nullable=False),
)


class Programs:
    """Tokens and bot accounts (blocking calls: the routes run them in a thread), the
    programs' rate limits and their event queues (this process's listeners)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.calls = PerClient(CALLS_PER_SECOND, CALL_BURST)
        self.listeners: dict[int, set[asyncio.Queue[dict[str, Any]]]] = {}

    # -- tokens -------------------------------------------------------------------------
    def new_token(self, account_id: int) -> str:
        with self.engine.begin() as conn:
            held = conn.execute(
                select(func.count()).where(api_tokens.c.account_id == account_id)
            ).scalar_one()
            if held >= TOKENS_PER_ACCOUNT:
                raise Refused(
                    N_("an account has at most {count} API tokens; revoke one first"),
                    409,
                    count=TOKENS_PER_ACCOUNT,
                )
            token = TOKEN_PREFIX + secrets.token_urlsafe(32)
            conn.execute(
                insert(api_tokens).values(
                    token_hash=token_hash(token), account_id=account_id, created=time.time()
                )
            )
        return token

    def revoke_tokens(self, account_id: int) -> int:
        with self.engine.begin() as conn:
            gone = conn.execute(delete(api_tokens).where(api_tokens.c.account_id == account_id))
        return int(gone.rowcount or 0)

    def account_of_token(self, token: str) -> dict[str, Any] | None:
        """{"id", "name", "bot"} of the token's account, or None."""
        from gamenight.server.accounts.schema import accounts

        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts.c.id, accounts.c.name, bot_accounts.c.since)
                .select_from(
                    api_tokens.join(accounts, accounts.c.id == api_tokens.c.account_id).outerjoin(
                        bot_accounts, bot_accounts.c.account_id == accounts.c.id
                    )
                )
                .where(api_tokens.c.token_hash == token_hash(token))
            ).first()
        if row is None:
            return None
        return {"id": int(row.id), "name": row.name, "bot": row.since is not None}

    # -- bot accounts -------------------------------------------------------------------
    def upgrade(self, account_id: int) -> None:
        """Make the account a bot account; refused once it has rated games as a person."""
        from gamenight.server.accounts.schema import ratings

        with self.engine.begin() as conn:
            played = conn.execute(
                select(func.coalesce(func.sum(ratings.c.games), 0)).where(
                    ratings.c.player == f"account:{account_id}"
                )
            ).scalar_one()
            if played:
                raise Refused(
                    N_(
                        "an account with rated games as a person cannot become a bot account; "
                        "make a new account for your program"
                    ),
                    409,
                )
            known = select(bot_accounts.c.account_id).where(bot_accounts.c.account_id == account_id)
            if conn.execute(known).first() is None:
                conn.execute(insert(bot_accounts).values(account_id=account_id, since=time.time()))

    def bot_ids(self, ids: set[int]) -> set[int]:
        """Which of these accounts are bot accounts."""
        if not ids:
            return set()
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(bot_accounts.c.account_id).where(bot_accounts.c.account_id.in_(ids))
            )
            return {int(r.account_id) for r in rows}

    def bot_named(self, name: str) -> int | None:
        from gamenight.server.accounts.schema import accounts

        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts.c.id)
                .join(bot_accounts, bot_accounts.c.account_id == accounts.c.id)
                .where(accounts.c.name_key == name.strip().lower())
            ).first()
        return None if row is None else int(row.id)

    # -- events -------------------------------------------------------------------------
    def listen(self, account_id: int) -> asyncio.Queue[dict[str, Any]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=64)
        self.listeners.setdefault(account_id, set()).add(queue)
        return queue

    def forget(self, account_id: int, queue: asyncio.Queue[dict[str, Any]]) -> None:
        queues = self.listeners.get(account_id)
        if queues is not None:
            queues.discard(queue)
            if not queues:
                del self.listeners[account_id]

    def tell(self, account_id: int, event: dict[str, Any]) -> bool:
        """Queue `event` for the account's listening programs; False: none listens here."""
        told = False
        for queue in self.listeners.get(account_id, ()):
            if queue.full():
                continue  # a program that does not read loses events, never the server
            queue.put_nowait(event)
            told = True
        return told
