"""Ratings (openskill, Plackett-Luce) of finished tables, each rated once, in the order
they finished.

People and bots are rated alike, but bots are fixed anchors: a bot's rating is set by the
level it plays at and never moves, so the scale means the same over time. A table counts
only when it is fair to rate: no seed chosen by a player and no coach at the table
(`rated(row)`), and at least one signed-in person plus one other rated seat sat at it.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from gamenight.engine.core import BadInput, Outcome
from gamenight.engine.registry import load
from gamenight.server import db
from gamenight.server.accounts.schema import (
    accounts,
    rated_tables,
    ratings,
    seat_accounts,
    table_ratings,
)
from gamenight.server.db import TableRow
from gamenight.server.programs import bot_accounts

SETTLE_SECONDS = 10.0  # the longest a profile read waits for ratings in flight
# A bot's fixed rating by the level it plays at (openskill's scale: a new person is 25 +- 8.3)
BOT_ANCHORS = {"easy": 18.0, "medium": 25.0, "hard": 32.0}
BOT_SIGMA = 1.0

Players = dict[int, tuple[str, str]]  # seat -> (player key, shown name)


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
    found = None if game is None else _game_level(text, name, game, players)
    if found is not None:
        return found
    return "easy" if name == "random" else "medium"


def _game_level(text: str, name: str, game: str, players: int | None) -> str | None:
    """The level of `game` whose bot is `text`, else whose bot is the bot `name`."""
    from gamenight.bots import levels, parse_seat

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
    return None


def bot_anchor(bot_text: str | None, game: str | None = None, players: int | None = None) -> float:
    """A bot seat's fixed rating: by the level it really plays at (`bot_level`)."""
    return BOT_ANCHORS[bot_level(bot_text, game, players)]


def _replayed(store: Any, row: TableRow) -> Outcome | None:
    """The outcome of a stored finished game, replayed from its log (None: not over)."""
    game = load(row.game, **row.options)
    history = [(s, game.action_from_json(a)) for s, a in store.history(row.id)]
    final = game.replay(row.seed, history)
    return final.outcome() if final.over else None


class Ratings:
    """Rating finished tables (in the database thread) and waiting for ratings in flight
    (on the event loop)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
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

    def rate_finished(self, store: Any) -> int:
        """Rate every finished table not rated yet, in the order they finished (the games
        that ended before a restart), replaying each. Returns how many tables changed
        ratings. Idempotent: each table is looked at once."""
        with self.engine.connect() as conn:
            done = select(rated_tables.c.table_id)
            todo = conn.execute(
                select(db.tables.c.id)
                .where(db.tables.c.status == "finished", db.tables.c.id.not_in(done))
                .order_by(db.tables.c.updated)
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
        players, anchors = self._players(row)
        people = [k for k, _ in players.values() if k.startswith("account:")]
        if not (rated(row) and people and len(players) >= 2):
            outcome = None  # not rateable
        elif outcome is None:
            outcome = _replayed(store, row)
        if outcome is None or outcome.truncated:
            self._mark(row.id, 0)
            return 0
        self._write(row, players, anchors, outcome.ranks)
        return 1

    def _players(self, row: TableRow) -> tuple[Players, dict[str, float]]:
        """The rated seats of a table (bots, and people signed in when they sat) and each
        bot's anchor by its player key."""
        with self.engine.connect() as conn:
            linked = {
                r.seat: int(r.account_id)
                for r in conn.execute(
                    select(seat_accounts).where(seat_accounts.c.table_id == row.id)
                )
            }
            programs = {  # bot accounts (programs.py): rated apart from people
                int(r.account_id)
                for r in conn.execute(
                    select(bot_accounts.c.account_id).where(
                        bot_accounts.c.account_id.in_(set(linked.values()) or {-1})
                    )
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
        players: Players = {}
        anchors: dict[str, float] = {}
        for s in row.seats:
            if s.kind == "bot":
                players[s.seat] = (f"bot:{s.bot}", f"bot ({(s.bot or '').removeprefix('bot:')})")
                anchors[f"bot:{s.bot}"] = bot_anchor(s.bot, row.game, len(row.seats))
            elif s.seat in linked:
                kind = "program" if linked[s.seat] in programs else "account"
                players[s.seat] = (f"{kind}:{linked[s.seat]}", names[linked[s.seat]])
        return players, anchors

    def _write(
        self, row: TableRow, players: Players, anchors: dict[str, float], ranks: Any
    ) -> None:
        """The new ratings of the table's players (bots keep their anchors), each seat's
        rating before and after (`table_ratings`: the open archive's ratings at the time),
        and the table marked rated, in one transaction."""
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        seats = sorted(players)
        with self.engine.begin() as conn:
            current = []
            for seat in seats:
                key, _ = players[seat]
                found = conn.execute(  # locked (PostgreSQL): another process rating a game
                    select(ratings)  # of the same player waits, rather than losing ours
                    .where(ratings.c.game == row.game, ratings.c.player == key)
                    .with_for_update()
                ).first()
                if key.startswith("bot:"):  # always its anchor (a row may predate the fix)
                    current.append(model.rating(mu=anchors[key], sigma=BOT_SIGMA, name=key))
                elif found is not None:
                    current.append(model.rating(mu=found.mu, sigma=found.sigma, name=key))
                else:
                    current.append(model.rating(name=key))
            new = model.rate([[r] for r in current], ranks=[ranks[seat] for seat in seats])
            at_the_time = []
            for seat, before, (after,) in zip(seats, current, new, strict=True):
                key, shown = players[seat]
                bot = key.startswith("bot:")
                mu, sigma = (before.mu, before.sigma) if bot else (after.mu, after.sigma)
                at_the_time.append(
                    {
                        "table_id": row.id,
                        "seat": seat,
                        "mu": before.mu,
                        "sigma": before.sigma,
                        "mu_after": mu,
                        "sigma_after": sigma,
                    }
                )
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
            conn.execute(insert(table_ratings), at_the_time)
            conn.execute(insert(rated_tables).values(table_id=row.id, rated=1, at=time.time()))

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
