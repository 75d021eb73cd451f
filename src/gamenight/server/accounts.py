"""Optional accounts, sessions, profiles and openskill ratings.

Guests play without an account, as before. A person who signs up gets a session in an
HttpOnly, SameSite=Lax cookie; a seat taken while signed in is linked to the account, so
finished games count on the profile and, when rated, on the leaderboard.

CSRF: every state-changing request here must be `application/json` (a cross-site HTML form
cannot send that without a CORS preflight, which this server never grants) and come from
this server's own pages (`guard.cross_origin`, applied by `Guard` to every POST/DELETE).

Guessing passwords and making accounts in bulk are limited in the database
(`login_limits.py`: per name and address with exponential back-off, never a lock-out a
stranger can cause); passwords must not be guessable (`passwords.py`, zxcvbn) and are
hashed in a small pool of their own with a bounded queue; names that read alike are one
name (`names.py`). A person can change their password, download their data and delete
their account; a profile shows others only finished games.

Ratings (openskill, Plackett-Luce) are computed from finished tables, each once, in the
order they finished. People and bots are rated alike, but bots are fixed anchors: a bot's
rating is set by its level and never moves, so the scale means the same over time. A table
counts only when it is fair to rate: no seed chosen by a player and no coach at the table
(`rated(row)`), and at least one signed-in person plus one other rated seat sat at it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import secrets
import time
import weakref
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse
from sqlalchemy import (
    Column,
    Engine,
    Float,
    Integer,
    String,
    Table,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from gamenight.engine.core import BadInput, Outcome
from gamenight.engine.registry import load, spec
from gamenight.server import passwords
from gamenight.server.db import TableRow, metadata
from gamenight.server.lobby import SEAT_PREFIX
from gamenight.server.login_limits import SIGNUPS_PER_HOUR, Limited, LoginLimits
from gamenight.server.names import skeleton

SESSION_COOKIE = "gn_session"
SETTLE_SECONDS = 10.0  # the longest a profile read waits for ratings in flight
SESSION_DAYS = 30
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.-]{1,23}")
PASSWORD_LENGTH = passwords.LENGTH
EXPORT_GAMES = 10_000  # the most games one export lists
# A bot's fixed rating by the level it plays at (openskill's scale: a new person is 25 +- 8.3)
BOT_ANCHORS = {"easy": 18.0, "medium": 25.0, "hard": 32.0}
BOT_SIGMA = 1.0
# Below this many rated games a person's rating is provisional, as lichess marks it: the
# conservative mu - 3 sigma of a newcomer is near zero or negative, which reads as a
# verdict; pages show the estimate mu with a "?" instead.
PROVISIONAL_GAMES = 5

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(24), nullable=False, unique=True),
    Column("name_key", String(24), nullable=False, unique=True),  # lower case: one Ann only
    Column("password_hash", String(200), nullable=False),
    Column("created", Float, nullable=False),
    # names.skeleton(name): "Mira", "M1ra" and "Mіra" are one name (unique; NULL only for
    # an old account whose name read like an older one's: migration 0007)
    Column("skeleton", String(96), nullable=True, unique=True),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, nullable=False),
    Column("expires", Float, nullable=False),
)

seat_accounts = Table(
    "seat_accounts",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, nullable=False, index=True),
)

ratings = Table(
    "ratings",
    metadata,
    Column("game", String(40), primary_key=True),
    Column("player", String(240), primary_key=True),  # "account:7" or "bot:<seat text>"
    Column("name", String(240), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
)

rated_tables = Table(
    "rated_tables",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("rated", Integer, nullable=False),  # 1 rated, 0 seen and not rateable
    Column("at", Float, nullable=False),
)


class AccountError(Exception):
    """A request about accounts that was refused; `status` is the HTTP status."""

    def __init__(self, reason: str, status: int = 400, wait: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.wait = wait  # seconds until a retry may pass (429: the Retry-After header)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def rated(row: TableRow) -> bool:
    """May this finished table change ratings? Not with a seed a player chose, nor with a
    coach switched on for anyone."""
    settings = row.settings or {}
    return (
        not settings.get("practice")
        and not settings.get("seed_chosen")
        and not (settings.get("coach"))
    )


def bot_level(bot_text: str | None, game: str | None = None, players: int | None = None) -> str:
    """The level a bot seat really plays at: its level word ("bot:easy"), else the level
    whose bot it is in this game ("bot:random" is easy's), else the level of the same bot
    with other parameters (in Arne "bot:ismcts?iterations=50" is hard's bot; the lowest
    such level when several share it: beating a bot must not earn more than it is worth),
    else: a random bot is easy, any other medium."""
    text = (bot_text or "").strip()
    level = text.removeprefix("bot:")
    if level in BOT_ANCHORS:
        return level
    from gamenight.bots import parse_seat

    try:
        name, _ = parse_seat(text if text.startswith("bot") else f"bot:{text}")
    except BadInput:
        return "medium"
    if game is not None:
        from gamenight.bots import levels

        try:
            table = levels(game, players)
        except Exception:  # a game without bots, a player count it has no levels for
            table = {}
        for found, seat_text in table.items():
            if seat_text == text:
                return found
        for found, seat_text in sorted(table.items(), key=lambda kv: BOT_ANCHORS.get(kv[0], 0)):
            try:
                if parse_seat(seat_text)[0] == name:
                    return found
            except BadInput:
                continue
    return "easy" if name == "random" else "medium"


def bot_anchor(bot_text: str | None, game: str | None = None, players: int | None = None) -> float:
    """A bot seat's fixed rating: by the level it really plays at (`bot_level`)."""
    return BOT_ANCHORS[bot_level(bot_text, game, players)]


class Accounts:
    """Blocking storage calls; the routes run them in a thread."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        per_hour = os.environ.get("GAMENIGHT_SIGNUPS_PER_HOUR")
        self.limits = LoginLimits(
            engine, signups_per_hour=int(per_hour) if per_hour else SIGNUPS_PER_HOUR
        )
        self.hashing = passwords.Hashing()
        weakref.finalize(self, self.hashing.close)
        # Ratings started when a game ended and not written yet (event-loop side): a
        # profile or leaderboard read waits for them, so it shows the game just played.
        self.rating: set[asyncio.Future[Any]] = set()

    def rating_started(self, job: asyncio.Future[Any]) -> None:
        self.rating.add(job)
        job.add_done_callback(self.rating.discard)

    async def settled(self) -> None:
        """Return once the ratings started in this process so far are written (or after
        SETTLE_SECONDS: a stuck database delays a profile, it does not hang it)."""
        if self.rating:
            await asyncio.wait(set(self.rating), timeout=SETTLE_SECONDS)

    # -- accounts and sessions ----------------------------------------------------------
    async def _hashed(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn` in the hashing pool; a full queue is a 429 at once (passwords.py)."""
        try:
            return await self.hashing.run(fn, *args)
        except passwords.Busy as err:
            raise AccountError(str(err), 429, wait=2.0) from None

    async def _limited(self, fn: Callable[..., Any], *args: Any) -> None:
        try:
            await asyncio.to_thread(fn, *args)
        except Limited as err:
            raise AccountError(err.reason, 429, wait=err.wait) from None

    async def sign_up(self, name: Any, password: Any, address: str) -> tuple[dict[str, Any], str]:
        """A new account and its session. The checks that cost nothing come first, then the
        address's sign-up is reserved (login_limits.py), then the password is hashed."""
        name = tidy_name(name)
        check_name(name)
        skel = skeleton(name)
        reason = passwords.weakness(password, name)
        if reason:
            raise AccountError(reason)
        await asyncio.to_thread(self._name_free, name, skel)
        await self._limited(self.limits.take_signup, address)
        try:
            digest = await self._hashed(passwords.make_hash, password)
            key = await asyncio.to_thread(self._create, name, skel, digest)
        except BaseException:
            await asyncio.to_thread(self.limits.give_back_signup, address)
            raise
        await asyncio.to_thread(self.limits.succeeded, skel, address)  # a known address
        return {"id": key, "name": name}, await asyncio.to_thread(self._new_session, key)

    def _name_free(self, name: str, skel: str) -> None:
        with self.engine.connect() as conn:
            taken = conn.execute(
                select(accounts.c.id).where(
                    (accounts.c.name_key == name.lower()) | (accounts.c.skeleton == skel)
                )
            ).first()
        if taken is not None:
            raise AccountError(f"the name {name} is taken; choose another", 409)

    def _create(self, name: str, skel: str, digest: str) -> int:
        try:
            with self.engine.begin() as conn:
                key = conn.execute(
                    insert(accounts).values(
                        name=name,
                        name_key=name.lower(),
                        skeleton=skel,
                        password_hash=digest,
                        created=time.time(),
                    )
                ).inserted_primary_key
        except IntegrityError:  # the same name (or one that reads alike) a moment earlier
            raise AccountError(f"the name {name} is taken; choose another", 409) from None
        assert key is not None
        return int(key[0])

    def _account_named(self, name: Any) -> Any:
        key = tidy_name(name).lower() if isinstance(name, str) else ""
        with self.engine.connect() as conn:
            return conn.execute(select(accounts).where(accounts.c.name_key == key)).first()

    def _trusted(self, skel: str, address: str, token: str | None) -> bool:
        """Strangers' guesses at this name do not slow this attempt: it holds a valid
        session of the very account, or its address signed in to it before."""
        account = self.who(token)
        if account is not None and skeleton(account["name"]) == skel:
            return True
        return self.limits.trusted(skel, address)

    async def log_in(
        self, name: Any, password: Any, address: str, token: str | None = None
    ) -> tuple[dict[str, Any], str]:
        """A session for the right name and password. The attempt is reserved in the
        database before the password is hashed (login_limits.py: of N parallel guesses only
        as many as the limits allow are checked); `token` is the request's session, if any."""
        skel = skeleton(tidy_name(name)) if isinstance(name, str) else ""
        trusted = await asyncio.to_thread(self._trusted, skel, address, token)
        await self._limited(self.limits.take_login, skel, address, trusted)
        row = await asyncio.to_thread(self._account_named, name)
        digest = None if row is None else row.password_hash
        ok = await self._hashed(passwords.verify, digest, str(password))
        if row is None or not ok:
            raise AccountError("wrong name or password", 401)
        await asyncio.to_thread(self.limits.succeeded, skel, address)
        session = await asyncio.to_thread(self._new_session, int(row.id))
        return {"id": int(row.id), "name": row.name}, session

    async def _confirm(self, account_id: int, password: Any, address: str) -> Any:
        """The account's row, if `password` is its password (limited as a log-in)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
        if row is None:
            raise AccountError("this account no longer exists", 404)
        skel = row.skeleton or skeleton(row.name)
        await self._limited(self.limits.take_login, skel, address, True)
        if not isinstance(password, str) or not await self._hashed(
            passwords.verify, row.password_hash, password
        ):
            raise AccountError("the password is not right", 403)
        await asyncio.to_thread(self.limits.succeeded, skel, address)
        return row

    async def change_password(
        self, account_id: int, old: Any, new: Any, address: str, keep: str | None
    ) -> None:
        """A new password, given the old one; every other session of the account ends
        (a thief's too), `keep` (this browser's) stays."""
        with self.engine.connect() as conn:
            name = conn.execute(
                select(accounts.c.name).where(accounts.c.id == account_id)
            ).scalar_one_or_none()
        reason = passwords.weakness(new, name)
        if reason:
            raise AccountError(reason)
        await self._confirm(account_id, old, address)
        digest = await self._hashed(passwords.make_hash, new)
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts).where(accounts.c.id == account_id).values(password_hash=digest)
            )
            conn.execute(
                delete(sessions).where(
                    sessions.c.account_id == account_id,
                    sessions.c.token_hash != _hash(keep or ""),
                )
            )

    async def delete_account(self, account_id: int, password: Any, address: str) -> None:
        """Gone for good, given the password: its seats are no longer linked (the games
        stay, as a guest's), its ratings and sessions are removed, its name is free."""
        await self._confirm(account_id, password, address)
        with self.engine.begin() as conn:
            conn.execute(delete(seat_accounts).where(seat_accounts.c.account_id == account_id))
            conn.execute(delete(ratings).where(ratings.c.player == f"account:{account_id}"))
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            conn.execute(delete(accounts).where(accounts.c.id == account_id))

    def export(self, account_id: int) -> dict[str, Any]:
        """What the server keeps about this account, as JSON: its name, when it was made,
        its games (each table, seat and result) and its ratings. No password hash."""
        from gamenight.server.db import tables

        with self.engine.connect() as conn:
            account = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
            if account is None:
                raise AccountError("this account no longer exists", 404)
            games = conn.execute(
                select(
                    tables.c.id,
                    tables.c.game,
                    tables.c.status,
                    tables.c.created,
                    tables.c.updated,
                    seat_accounts.c.seat,
                    rated_tables.c.rated,
                )
                .join(seat_accounts, seat_accounts.c.table_id == tables.c.id)
                .outerjoin(rated_tables, rated_tables.c.table_id == tables.c.id)
                .where(seat_accounts.c.account_id == account_id)
                .order_by(tables.c.updated.desc())
                .limit(EXPORT_GAMES)
            ).all()
            own = conn.execute(
                select(ratings).where(ratings.c.player == f"account:{account_id}")
            ).all()
        return {
            "name": account.name,
            "created": account.created,
            "games": [
                {
                    "table": g.id,
                    "game": g.game,
                    "status": g.status,
                    "created": g.created,
                    "updated": g.updated,
                    "seat": g.seat,
                    "rated": bool(g.rated),
                }
                for g in games
            ],
            "ratings": [
                {"game": r.game, "mu": r.mu, "sigma": r.sigma, "games": r.games} for r in own
            ],
        }

    def name_owner(self, name: str) -> dict[str, Any] | None:
        """The account whose name reads like `name` (by skeleton), or None."""
        skel = skeleton(name)
        if not skel:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts.c.id, accounts.c.name).where(
                    (accounts.c.skeleton == skel) | (accounts.c.name_key == name.lower())
                )
            ).first()
        return None if row is None else {"id": int(row.id), "name": row.name}

    def _new_session(self, account_id: int) -> str:
        token = secrets.token_urlsafe(32)
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions).values(
                    token_hash=_hash(token),
                    account_id=account_id,
                    expires=time.time() + SESSION_DAYS * 86400,
                )
            )
        return token

    def log_out(self, token: str | None) -> None:
        if token:
            with self.engine.begin() as conn:
                conn.execute(delete(sessions).where(sessions.c.token_hash == _hash(token)))

    def who(self, token: str | None) -> dict[str, Any] | None:
        """The account of a session token, or None (no, unknown or expired session)."""
        if not token:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(accounts.c.id, accounts.c.name)
                .join(sessions, sessions.c.account_id == accounts.c.id)
                .where(sessions.c.token_hash == _hash(token), sessions.c.expires > time.time())
            ).first()
        return None if row is None else {"id": int(row.id), "name": row.name}

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
        from gamenight.server.db import seats, tables, token_hash

        if not tokens:
            return []
        hashes = {token_hash(t): tid for tid, t in tokens.items()}
        with self.engine.connect() as conn:
            held = conn.execute(
                select(seats.c.table_id, seats.c.seat, seats.c.token_hash)
                .join(tables, tables.c.id == seats.c.table_id)
                .where(
                    seats.c.table_id.in_(list(tokens)),
                    seats.c.token_hash.in_(list(hashes)),
                    seats.c.kind == "person",
                    tables.c.status.in_(("open", "running")),
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
        from gamenight.server.db import tables

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

    # -- ratings ------------------------------------------------------------------------
    def rate_finished(self, store: Any) -> int:
        """Rate every finished table not rated yet, in the order they finished (the games
        that ended before a restart), replaying each. Returns how many tables changed
        ratings. Idempotent: each table is looked at once."""
        from gamenight.server.db import tables

        with self.engine.connect() as conn:
            done = select(rated_tables.c.table_id)
            todo = conn.execute(
                select(tables.c.id)
                .where(tables.c.status == "finished", tables.c.id.not_in(done))
                .order_by(tables.c.updated)
            ).all()
        changed = 0
        for (table_id,) in todo:
            changed += self.rate_table(store, table_id)
        return changed

    def rate_table(
        self,
        store: Any,
        table_id: str,
        outcome: Outcome | None = None,
        row: TableRow | None = None,
    ) -> int:
        """Rate one finished table, unless it was looked at already; `outcome` and `row` are
        the live game's (a table rated as it ends is not read back nor replayed), else the
        stored game is replayed. Returns 1 if ratings changed. Called one table at a time in
        a process (the server's database thread): many concurrent passes over every unrated
        table raced each other to the same table (a UNIQUE error in the log), and a game's
        end waited for them."""
        # a live table that cannot be rated: one write, not the five reads and a write of a
        # rateable one (at 100 practice tables, 2.6 ms of SQLAlchemy per game end that held
        # up other tables' stores)
        unrateable = row is not None and not rated(row)
        row = row or store.table(table_id)
        if row is None or (not unrateable and self._looked_at(table_id)):
            return 0
        try:
            if unrateable:
                self._mark(table_id, 0)
                return 0
            return self._rate_one(store, row, outcome)
        except IntegrityError:
            if self._looked_at(table_id):  # another process rated it first; that stands
                return 0
            raise

    def _looked_at(self, table_id: str) -> bool:
        with self.engine.connect() as conn:
            seen = select(rated_tables.c.table_id).where(rated_tables.c.table_id == table_id)
            return conn.execute(seen).first() is not None

    def _rate_one(self, store: Any, row: TableRow, outcome: Outcome | None) -> int:
        from openskill.models import PlackettLuce

        with self.engine.connect() as conn:
            linked = {
                r.seat: int(r.account_id)
                for r in conn.execute(
                    select(seat_accounts).where(seat_accounts.c.table_id == row.id)
                )
            }
            names = {
                int(r.id): r.name
                for r in conn.execute(
                    select(accounts.c.id, accounts.c.name).where(
                        accounts.c.id.in_(set(linked.values()) or {-1})
                    )
                )
            }
        players: dict[int, tuple[str, str]] = {}  # seat -> (player key, shown name)
        levels_of: dict[str, float] = {}  # a bot's player key -> its anchor
        for s in row.seats:
            if s.kind == "bot":
                players[s.seat] = (f"bot:{s.bot}", f"bot ({(s.bot or '').removeprefix('bot:')})")
                levels_of[f"bot:{s.bot}"] = bot_anchor(s.bot, row.game, len(row.seats))
            elif s.seat in linked:
                players[s.seat] = (f"account:{linked[s.seat]}", names[linked[s.seat]])
        people = [k for k, _ in players.values() if k.startswith("account:")]
        rateable = rated(row) and people and len(players) >= 2
        if not rateable:
            self._mark(row.id, 0)
            return 0
        if outcome is None:
            game = load(row.game, **row.options)
            history = [(s, game.action_from_json(a)) for s, a in store.history(row.id)]
            final = game.replay(row.seed, history)
            outcome = final.outcome() if final.over else None
        if outcome is None or outcome.truncated:
            self._mark(row.id, 0)
            return 0
        ranks = outcome.ranks
        model = PlackettLuce()
        seats = sorted(players)
        with self.engine.begin() as conn:
            current = []
            for seat in seats:
                key, shown = players[seat]
                found = conn.execute(  # locked (PostgreSQL): another process rating a game
                    select(ratings)  # of the same player waits, rather than losing ours
                    .where(ratings.c.game == row.game, ratings.c.player == key)
                    .with_for_update()
                ).first()
                if key.startswith("bot:"):  # always its anchor (a row may predate the fix)
                    current.append(model.rating(mu=levels_of[key], sigma=BOT_SIGMA, name=key))
                elif found is not None:
                    current.append(model.rating(mu=found.mu, sigma=found.sigma, name=key))
                else:
                    current.append(model.rating(name=key))
            teams = [[r] for r in current]
            new = model.rate(teams, ranks=[ranks[seat] for seat in seats])
            for seat, before, (after,) in zip(seats, current, new, strict=True):
                key, shown = players[seat]
                bot = key.startswith("bot:")
                mu, sigma = (before.mu, before.sigma) if bot else (after.mu, after.sigma)
                values = {"name": shown, "mu": mu, "sigma": sigma}
                result = conn.execute(
                    update(ratings)
                    .where(ratings.c.game == row.game, ratings.c.player == key)
                    .values(**values, games=ratings.c.games + 1)
                )
                if result.rowcount == 0:
                    conn.execute(
                        insert(ratings).values(game=row.game, player=key, games=1, **values)
                    )
            conn.execute(insert(rated_tables).values(table_id=row.id, rated=1, at=time.time()))
        return 1

    def exclude(self, table_id: str) -> None:
        """Never rate this table (a coach was asked there); a no-op if already looked at."""
        if self._looked_at(table_id):
            return
        try:
            self._mark(table_id, 0)
        except IntegrityError:  # rated (or excluded) in the meantime: looked at all the same
            if not self._looked_at(table_id):
                raise

    def _mark(self, table_id: str, value: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(rated_tables).values(table_id=table_id, rated=value, at=time.time())
            )

    def profile(self, name: str, viewer: int | None = None) -> dict[str, Any]:
        """A person's profile as `viewer` (an account id; None: a guest) may see it: only
        the person themself sees their open and running tables (others would learn where
        to find them, and at which seat); everyone sees finished games."""
        from gamenight.server.db import seats, tables

        with self.engine.connect() as conn:
            account = conn.execute(
                select(accounts).where(accounts.c.name_key == name.lower())
            ).first()
            if account is None:
                raise AccountError(f"no player named {name}", 404)
            key = f"account:{account.id}"
            rows = conn.execute(
                select(
                    tables.c.id,
                    tables.c.game,
                    tables.c.status,
                    tables.c.updated,
                    seat_accounts.c.seat,
                    rated_tables.c.rated,
                )
                .join(seat_accounts, seat_accounts.c.table_id == tables.c.id)
                .outerjoin(rated_tables, rated_tables.c.table_id == tables.c.id)
                .where(
                    seat_accounts.c.account_id == account.id,
                    tables.c.status.not_in(("open", "running"))
                    if viewer != account.id
                    else tables.c.id.is_not(None),
                )
                .order_by(tables.c.updated.desc())
                .limit(20)
            ).all()
            played = conn.execute(
                select(func.count())
                .select_from(seat_accounts)
                .join(tables, tables.c.id == seat_accounts.c.table_id)
                .where(seat_accounts.c.account_id == account.id, tables.c.status == "finished")
            ).scalar_one()
            own = conn.execute(select(ratings).where(ratings.c.player == key)).all()
            opponents = {
                r.table_id: r.n
                for r in conn.execute(
                    select(seats.c.table_id, func.count().label("n"))
                    .where(seats.c.table_id.in_([r.id for r in rows] or ["-"]))
                    .group_by(seats.c.table_id)
                )
            }
        return {
            "name": account.name,
            "since": account.created,
            "games_played": int(played),
            "ratings": [
                {
                    "game": r.game,
                    "title": spec(r.game).title,
                    "mu": round(r.mu, 2),
                    "sigma": round(r.sigma, 2),
                    "rating": round(r.mu - 3 * r.sigma, 2),
                    "games": r.games,
                    "provisional": r.games < PROVISIONAL_GAMES,
                }
                for r in own
            ],
            "recent": [
                {
                    "table": r.id,
                    "game": r.game,
                    "title": spec(r.game).title,
                    "status": r.status,
                    "at": r.updated,
                    "seat": r.seat,
                    "players": opponents.get(r.id, 0),
                    "rated": bool(r.rated),
                    "replay": f"/tables/{r.id}/replay" if r.status == "finished" else None,
                }
                for r in rows
            ],
        }

    def leaderboard(self, game: str, limit: int = 50) -> list[dict[str, Any]]:
        spec(game)  # BadInput: no such game
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ratings)
                .where(ratings.c.game == game)
                .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc())
                .limit(limit)
            ).all()
        return [
            {
                "place": i + 1,
                "name": r.name,
                "bot": r.player.startswith("bot:"),
                "rating": round(r.mu - 3 * r.sigma, 2),
                "mu": round(r.mu, 2),
                "sigma": round(r.sigma, 2),
                "games": r.games,
                "provisional": not r.player.startswith("bot:") and r.games < PROVISIONAL_GAMES,
            }
            for i, r in enumerate(rows)
        ]


NAME_RULE = (
    "a name is 2 to 24 letters, digits, spaces, '.', '_' or '-', starting with a letter or digit"
)


def tidy_name(name: Any) -> Any:
    """A name as typed, without spaces around it or doubled inside ("MIRA " is "MIRA", and
    so taken when "Mira" is): names that look alike are one name."""
    return " ".join(name.split()) if isinstance(name, str) else name


def check_name(name: Any) -> None:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise AccountError(NAME_RULE)


def check_password(password: Any, name: str | None = None) -> None:
    """AccountError with one line if `password` is too short, too long or guessable."""
    reason = passwords.weakness(password, name)
    if reason:
        raise AccountError(reason)


def session_of(request: Request) -> str | None:
    return request.cookies.get(SESSION_COOKIE)


def address_of(request: Request) -> str:
    """The client's address (behind a trusted proxy, the one it forwarded for)."""
    return request.client.host if request.client else "?"


def router(get_accounts: Callable[[], Accounts], web: Any) -> APIRouter:
    """The account, profile and leaderboard routes and pages."""
    from gamenight.server.routes.common import set_cookie  # it imports us
    from gamenight.server.routes.models import LogIn, SignUp, validate

    api = APIRouter()

    def fail(err: AccountError) -> JSONResponse:
        response = JSONResponse({"error": err.reason}, status_code=err.status)
        if err.wait is not None:
            response.headers["retry-after"] = str(max(1, round(err.wait)))
        return response

    async def json_body(request: Request) -> dict[str, Any]:
        # (the origin of every POST and DELETE was checked by guard.Guard)
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise AccountError("send this request as application/json", 415)
        raw = await request.body()
        if len(raw) > 4096:
            raise AccountError("request body too large", 413)
        try:
            obj = json.loads(raw or b"{}")
        except (ValueError, RecursionError) as err:
            raise AccountError("the request body is not JSON") from err
        if not isinstance(obj, dict):
            raise AccountError("the request body must be a JSON object")
        return obj

    async def adopt(request: Request, account: dict[str, Any]) -> None:
        """The seats this browser took as a guest follow the account from now on."""
        tokens = {
            key.removeprefix(SEAT_PREFIX): value
            for key, value in request.cookies.items()
            if key.startswith(SEAT_PREFIX)
        }
        await asyncio.to_thread(get_accounts().adopt_seats, account["id"], tokens)

    def signed_in(request: Request, account: dict[str, Any], token: str) -> JSONResponse:
        response = JSONResponse({"account": account})
        set_cookie(response, request, SESSION_COOKIE, token, max_age=SESSION_DAYS * 86400)
        return response

    async def signed_in_account(request: Request) -> dict[str, Any]:
        account = await account_of(request, get_accounts())
        if account is None:
            raise AccountError("sign in first", 401)
        return account

    @api.post("/api/accounts")
    async def sign_up(request: Request) -> JSONResponse:
        try:
            new = validate(SignUp, await json_body(request))
            account, token = await get_accounts().sign_up(
                new.name, new.password, address_of(request)
            )
        except BadInput as err:
            return fail(AccountError(str(err)))
        except AccountError as err:
            return fail(err)
        await adopt(request, account)
        response = signed_in(request, account, token)
        response.status_code = 201
        return response

    @api.post("/api/session")
    async def log_in(request: Request) -> JSONResponse:
        try:
            who = validate(LogIn, await json_body(request))
            account, token = await get_accounts().log_in(
                who.name, who.password, address_of(request), session_of(request)
            )
        except BadInput as err:
            return fail(AccountError(str(err)))
        except AccountError as err:
            return fail(err)
        await adopt(request, account)
        return signed_in(request, account, token)

    @api.delete("/api/session")
    async def log_out(request: Request) -> JSONResponse:
        await asyncio.to_thread(get_accounts().log_out, session_of(request))
        response = JSONResponse({"account": None})
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    @api.post("/api/account/password")
    async def change_password(request: Request) -> JSONResponse:
        """{"old": ..., "new": ...}: a new password; other devices are signed out."""
        try:
            obj = await json_body(request)
            account = await signed_in_account(request)
            await get_accounts().change_password(
                account["id"],
                obj.get("old"),
                obj.get("new"),
                address_of(request),
                session_of(request),
            )
        except AccountError as err:
            return fail(err)
        return JSONResponse({"account": account, "changed": True})

    @api.delete("/api/account")
    async def delete_account(request: Request) -> JSONResponse:
        """{"password": ...}: the account is deleted (its games stay, as a guest's)."""
        try:
            obj = await json_body(request)
            account = await signed_in_account(request)
            await get_accounts().delete_account(
                account["id"], obj.get("password"), address_of(request)
            )
        except AccountError as err:
            return fail(err)
        response = JSONResponse({"account": None, "deleted": True})
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    @api.get("/api/account/export")
    async def export(request: Request) -> JSONResponse:
        """The signed-in account's own data, as a JSON file to keep."""
        try:
            account = await signed_in_account(request)
            data = await asyncio.to_thread(get_accounts().export, account["id"])
        except AccountError as err:
            return fail(err)
        filename = f"gamenight-{re.sub(r'[^A-Za-z0-9_.-]', '_', account['name'])}.json"
        return JSONResponse(
            data,
            headers={
                "content-disposition": f'attachment; filename="{filename}"',
                "cache-control": "no-store",
            },
        )

    @api.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        return {"account": await asyncio.to_thread(get_accounts().who, session_of(request))}

    @api.get("/api/profiles/{name}")
    async def profile(name: str, request: Request) -> JSONResponse:
        try:
            await get_accounts().settled()
            viewer = await account_of(request, get_accounts())
            viewer_id = None if viewer is None else viewer["id"]
            return JSONResponse(await asyncio.to_thread(get_accounts().profile, name, viewer_id))
        except AccountError as err:
            return fail(err)

    @api.get("/api/leaderboard/{game}")
    async def leaderboard(game: str) -> JSONResponse:
        try:
            await get_accounts().settled()
            rows = await asyncio.to_thread(get_accounts().leaderboard, game)
        except BadInput as err:
            return JSONResponse({"error": str(err)}, status_code=404)
        return JSONResponse({"game": game, "title": spec(game).title, "players": rows})

    for path in ("/account", "/players/{name}", "/leaderboard/{game}"):
        api.add_api_route(
            path,
            lambda: FileResponse(web / "profile.html"),
            include_in_schema=False,
            methods=["GET"],
        )
    return api


def account_seats(table: Any) -> set[int]:
    """The seats of a live table taken while signed in (kept on the table: public_table
    marks them, so a guest cannot pass for an account's person)."""
    found: set[int] = table.__dict__.setdefault("account_seats", set())
    return found


async def link_seat(
    request: Request, accounts_: Accounts, table_id: str, seat: int, table: Any = None
) -> None:
    """After a person took `seat`: link it to their account if they are signed in, and
    unlink any earlier account if not (and mark the live `table`'s seat as such)."""
    account = await account_of(request, accounts_)
    account_id = None if account is None else account["id"]
    if table is not None:
        (account_seats(table).add if account_id is not None else account_seats(table).discard)(seat)
    await asyncio.to_thread(accounts_.link_seat, table_id, seat, account_id)


async def unlink_seat(accounts_: Accounts, table_id: str, seat: int, table: Any = None) -> None:
    """A person's seat became open or a bot's before the start: its game is not theirs."""
    if table is not None:
        account_seats(table).discard(seat)
    await asyncio.to_thread(accounts_.link_seat, table_id, seat, None)


async def refresh_account_seats(accounts_: Accounts, table: Any) -> None:
    """Mark a live table's seats from the database (after a restart, or a seat taken on
    another process)."""
    linked = await asyncio.to_thread(accounts_.linked_seats, table.row.id)
    held = account_seats(table)
    held.clear()
    held.update(s for s in linked if table.row.seats[s].kind == "person")


async def account_of(request: Request, accounts_: Accounts) -> dict[str, Any] | None:
    """The request's signed-in account, or None (a guest: no database trip without a
    session cookie)."""
    token = session_of(request)
    return None if not token else await asyncio.to_thread(accounts_.who, token)


async def account_tables(request: Request, accounts_: Accounts) -> dict[str, int]:
    """Table id -> seat, for the signed-in account's open and running tables ({}: a guest)."""
    account = await account_of(request, accounts_)
    if account is None:
        return {}
    return await asyncio.to_thread(accounts_.tables_of, account["id"])


async def account_seat(
    request: Request, accounts_: Accounts, table_id: str, person_seats: set[int]
) -> tuple[dict[str, Any] | None, int | None]:
    """The signed-in account of the request (None: a guest) and the seat it holds among
    `person_seats`, the table's seats people sit in (None: no such seat)."""
    account = await account_of(request, accounts_)
    if account is None:
        return None, None
    held = await asyncio.to_thread(accounts_.seats_of, table_id, account["id"])
    return account, next((s for s in held if s in person_seats), None)
