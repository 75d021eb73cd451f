"""The open archive of played games (issue 48, item 3): every finished game at a table with
people, anonymised, in one Parquet file (`gamenight export`, `cli/archive.py`; every column
is documented in docs/archive.md and in the file's own schema). It is over 400 lines because
the export is one pipeline read top to bottom (choose the tables, pseudonymise, replay,
check, write the columns with their meanings), whose parts are read together.

A game is exported with what rebuilds it (game, options, seed, every decision in order) and
what it came to (the outcome, each seat's rating at the time), so that
`gamenight.load(game, **options).replay(seed, history)` is the final state, bit for bit.

Anonymised:
- accounts are pseudonyms, HMAC-SHA256 of the account id under the server's archive secret
  (32 random bytes made on the first export and kept in the database, `archive_secret`,
  never exported): the same account is the same pseudonym in every export of this server,
  and without the secret nobody can tell whose it is, nor try ids until one fits. A guest
  is a pseudonym per table seat (nothing links a guest's games);
- the table's id (its address on the server, whose replay page names the players) is a
  pseudonym too, and so is the table it was the rematch of;
- nothing else of a table is read: not its chat, its seat names, its seat tokens, its
  settings (but whether it was rated or a practice table) nor its moves' times; the finish
  is a date. Bots are named by their level (public facts).

Left out: tables of only bots (no person ever sat; a bot account's program is a bot, its
seats of kind `program`), tables where an account that keeps its
games out of the archive sat (`accounts.archive_opt_out`, `POST /api/account/archive`), tables
whose options hold a seated person's name (a colour named after a player), and tables whose
log does not replay to a finished game with this version of the rules.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import hmac
import json
import os
import secrets
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from sqlalchemy import Column, Engine, Integer, String, Table, func, insert, select
from sqlalchemy.exc import IntegrityError

from gamenight.engine.core import BadInput, said
from gamenight.engine.options import options_to_json
from gamenight.engine.registry import load
from gamenight.i18n import N_
from gamenight.server import db
from gamenight.server.accounts.ratings import BOT_ANCHORS, bot_level
from gamenight.server.accounts.schema import accounts, rated_tables, seat_accounts, table_ratings
from gamenight.server.programs import bot_accounts

FORMAT = "gamenight-archive/1"  # the file's schema version (its metadata key b"format")
BATCH = 100  # tables read, replayed and written at a time
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)

archive_secret = Table(
    "archive_secret",  # one row (id 1), made by the first export (migration 0009)
    db.metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("secret", String(64), nullable=False),
)

# Why a finished table is not in the archive (the counts `export` returns)
BOTS_ONLY = "only bots sat there"  # (programs of bot accounts are bots)
OPTED_OUT = "someone there keeps their games out"
NAME_IN_OPTIONS = "a player's name is in its options"
NO_REPLAY = "its log does not replay to a finished game"


def _field(name: str, kind: pa.DataType, doc: str, nullable: bool = False) -> pa.Field:
    return pa.field(name, kind, nullable=nullable, metadata={"doc": doc})


SEAT = pa.struct(
    [
        _field("seat", pa.int16(), "the seat number (the engine's, for the whole game)"),
        _field(
            "kind",
            pa.string(),
            "account, guest, program (a bot account), bot or open (nobody at the end)",
        ),
        _field(
            "player",
            pa.string(),
            "a-<20 hex> an account's pseudonym (the same in every export of this server), "
            "g-<20 hex> a guest's (this table seat only), bot:<level> a bot "
            "(a program: its bot account's a- pseudonym)",
            nullable=True,
        ),
        _field("bot", pa.string(), "the bot's name (random, ismcts, ...), else null", True),
        _field(
            "stand_in",
            pa.bool_(),
            "a bot sat in for this person at the end: some of the seat's last moves are the bot's",
        ),
        _field("rating_mu", pa.float64(), "openskill mu before this game (rated only)", True),
        _field("rating_sigma", pa.float64(), "openskill sigma before this game", True),
        _field("rating_mu_after", pa.float64(), "openskill mu after this game", True),
        _field("rating_sigma_after", pa.float64(), "openskill sigma after this game", True),
    ]
)
MOVE = pa.struct(
    [
        _field("seat", pa.int16(), "the seat that decided"),
        _field("action", pa.string(), "the action's JSON form (game.action_from_json)"),
    ]
)
SCHEMA = pa.schema(
    [
        _field("game_id", pa.string(), "t-<20 hex>: this game's pseudonym"),
        _field("rematch_of", pa.string(), "the game_id this game was the rematch of", True),
        _field("game", pa.string(), "the game's name (gamenight.games())"),
        _field("options", pa.string(), "JSON object: gamenight.load(game, **options)"),
        _field("players", pa.int16(), "the number of seats"),
        _field("seed", pa.int64(), "the seed: game.replay(seed, history)"),
        _field("history", pa.list_(MOVE), "every decision in order, hidden ones included"),
        _field("moves", pa.int32(), "len(history)"),
        _field("seats", pa.list_(SEAT), "who sat where, seat by seat"),
        _field("scores", pa.list_(pa.float64()), "outcome: the game's points per seat"),
        _field("winners", pa.list_(pa.int16()), "outcome: the seats that won (ties share)"),
        _field("ranks", pa.list_(pa.int16()), "outcome: 1 first, equal scores share a rank"),
        _field("payoff", pa.list_(pa.float64()), "outcome: per seat in [0, 1], 1 first"),
        _field("truncated", pa.bool_(), "outcome: ended by an engine cap, with no result"),
        _field("finished", pa.date32(), "the day of the last move (UTC)"),
        _field("rated", pa.bool_(), "the game changed ratings"),
        _field("practice", pa.bool_(), "a practice table or a seed a player chose"),
    ],
    metadata={"format": FORMAT},
)


@dataclass
class Exported:
    """What an export wrote: how many games, and how many finished tables it left out, by
    reason."""

    path: Path
    games: int = 0
    left_out: Counter[str] = field(default_factory=Counter)


def parse_since(text: str, flag: str = "--since") -> float:
    """`--since`: a day (2026-12-01) or an ISO time (2026-12-01T18:00, +01:00 or Z; UTC when
    no zone is given), as epoch seconds; BadInput with one line otherwise (naming `flag`:
    the command's option, or the export route's parameter)."""
    shown = text if len(text) <= 40 and text.isprintable() else repr(text[:40])
    try:
        when = dt.datetime.fromisoformat(text.strip())
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.UTC)
        seconds = when.timestamp()
        EPOCH + dt.timedelta(seconds=seconds)  # a day in UTC too (not past year 9999)
        return seconds
    except (ValueError, OverflowError, OSError):
        raise BadInput(
            said(
                N_(
                    "{flag} {date} is not a date: write a day as 2026-12-01, or a time as "
                    "2026-12-01T18:00 (UTC unless a zone such as +01:00 is given)"
                ),
                flag=flag,
                date=shown,
            )
        ) from None


class Pseudonyms:
    """Stable names under the server's secret: HMAC-SHA256, 80 bits shown."""

    def __init__(self, secret: bytes) -> None:
        self.secret = secret

    def _mac(self, *parts: str) -> str:
        message = "\x1f".join(parts).encode()
        return hmac.new(self.secret, message, hashlib.sha256).hexdigest()[:20]

    def account(self, account_id: int) -> str:
        return "a-" + self._mac("account", str(account_id))

    def guest(self, table_id: str, seat: int) -> str:
        return "g-" + self._mac("guest", table_id, str(seat))

    def table(self, table_id: str) -> str:
        return "t-" + self._mac("table", table_id)


def server_secret(engine: Engine) -> bytes:
    """The archive secret of this database, made on first use (two exports at once agree:
    the second insert fails and reads the first's)."""
    query = select(archive_secret.c.secret).where(archive_secret.c.id == 1)
    with engine.connect() as conn:
        found = conn.execute(query).scalar()
    if found is None:
        try:
            with engine.begin() as conn:
                conn.execute(insert(archive_secret).values(id=1, secret=secrets.token_hex(32)))
        except IntegrityError:
            pass
        with engine.connect() as conn:
            found = conn.execute(query).scalar_one()
    return bytes.fromhex(found)


def finished_tables(
    engine: Engine, since: float | None = None, game: str | None = None
) -> list[tuple[str, float]]:
    """(table id, time of its last move) of every finished table, oldest first: those that
    ended at `since` or later, of `game` if given."""
    t, a = db.tables, db.actions
    chosen = select(t.c.id).where(t.c.status == "finished")
    if since is not None:  # a table's `updated` is never before its last move
        chosen = chosen.where(t.c.updated >= since)
    if game is not None:
        chosen = chosen.where(t.c.game == game)
    last = (
        select(a.c.table_id, func.max(a.c.at).label("at"))
        .where(a.c.table_id.in_(chosen))
        .group_by(a.c.table_id)
        .subquery()
    )
    query = select(last.c.table_id, last.c.at).order_by(last.c.at, last.c.table_id)
    if since is not None:
        query = query.where(last.c.at >= since)
    with engine.connect() as conn:
        return [(r.table_id, float(r.at)) for r in conn.execute(query)]


@dataclass
class _Batch:
    """What a batch of tables needs, read in a few queries. Names (of seats and accounts)
    are read only to look for them in the options; chat and tokens are never read."""

    rows: dict[str, db.TableRow]
    linked: dict[str, dict[int, Any]]  # table -> seat -> its account (id, name, opt-out)
    ratings: dict[str, dict[int, Any]]  # table -> seat -> its ratings at the time
    rated: set[str]
    history: dict[str, list[tuple[int, dict[str, Any]]]]


def _read_batch(engine: Engine, ids: Sequence[str]) -> _Batch:
    t, s, a = db.tables, db.seats, db.actions
    out = _Batch({}, {i: {} for i in ids}, {i: {} for i in ids}, set(), {i: [] for i in ids})
    with engine.connect() as conn:
        for r in conn.execute(select(t).where(t.c.id.in_(ids))):
            out.rows[r.id] = db.Store._row(r)
        seat_columns = (s.c.table_id, s.c.seat, s.c.kind, s.c.name, s.c.bot)
        for r in conn.execute(
            select(*seat_columns).where(s.c.table_id.in_(ids)).order_by(s.c.seat)
        ):
            out.rows[r.table_id].seats.append(db.SeatRow(r.seat, r.kind, r.name, r.bot))
        for r in conn.execute(
            select(
                seat_accounts.c.table_id,
                seat_accounts.c.seat,
                accounts.c.id,
                accounts.c.name,
                accounts.c.archive_opt_out,
                bot_accounts.c.since.is_not(None).label("program"),
            )
            .join(accounts, accounts.c.id == seat_accounts.c.account_id)
            .outerjoin(bot_accounts, bot_accounts.c.account_id == accounts.c.id)
            .where(seat_accounts.c.table_id.in_(ids))
        ):
            out.linked[r.table_id][r.seat] = r
        for r in conn.execute(select(table_ratings).where(table_ratings.c.table_id.in_(ids))):
            out.ratings[r.table_id][r.seat] = r
        out.rated = set(
            conn.execute(
                select(rated_tables.c.table_id).where(
                    rated_tables.c.table_id.in_(ids), rated_tables.c.rated == 1
                )
            ).scalars()
        )
        for r in conn.execute(
            select(a.c.table_id, a.c.seat, a.c.action)
            .where(a.c.table_id.in_(ids))
            .order_by(a.c.table_id, a.c.n)
        ):
            out.history[r.table_id].append((r.seat, json.loads(r.action)))
    return out


def _texts(value: Any) -> Iterator[str]:
    """Every text inside an option value (lists and objects included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)


def _left_out(row: db.TableRow, batch: _Batch) -> str | None:
    """Why this finished table stays out of the archive, or None."""
    linked = batch.linked[row.id].values()
    programs = {seat for seat, r in batch.linked[row.id].items() if r.program}
    if not any(s.kind == "person" and s.seat not in programs for s in row.seats):
        return BOTS_ONLY  # (a program's seat is a person's seat taken by a bot account)
    if any(r.archive_opt_out for r in linked):
        return OPTED_OUT
    names = {r.name for r in linked} | {s.name for s in row.seats if s.kind == "person"}
    if any(_names_in(text, names) for text in _texts(row.options)):
        return NAME_IN_OPTIONS
    return None


def _names_in(text: str, names: set[str | None]) -> bool:
    """Does `text` hold one of `names` (a name of three letters or more anywhere in it,
    a shorter one as the whole text), whatever the case?"""
    folded = text.casefold()
    for given in names:
        name = (given or "").strip().casefold()
        if name and (name == folded or (len(name) >= 3 and name in folded)):
            return True
    return False


def _bot_name(text: str, game: str, players: int) -> str:
    """The bot a seat's text names ("bot:ismcts?iterations=50": ismcts); a level word
    ("bot:easy", or "bot", the stand-in) names the bot of that level in this version."""
    from gamenight.bots import levels, parse_seat

    try:
        name = parse_seat(text if text.startswith("bot") else f"bot:{text}")[0]
        if name in ("", *BOT_ANCHORS):
            name = parse_seat(levels(game, players)[bot_level(text, game, players)])[0]
    except (BadInput, LookupError):
        pass
    return name or "bot"


def _seat(row: db.TableRow, s: db.SeatRow, batch: _Batch, names: Pseudonyms) -> dict[str, Any]:
    account = batch.linked[row.id].get(s.seat)
    rating = batch.ratings[row.id].get(s.seat)
    players = len(row.seats)
    if s.kind == "bot":
        kind, player = "bot", f"bot:{bot_level(s.bot, row.game, players)}"
    elif account is not None and account.program:  # a bot account's program
        kind, player = "program", names.account(int(account.id))
    elif account is not None:
        kind, player = "account", names.account(int(account.id))
    elif s.kind == "person":
        kind, player = "guest", names.guest(row.id, s.seat)
    else:
        kind, player = "open", None
    return {
        "seat": s.seat,
        "kind": kind,
        "player": player,
        "bot": _bot_name(s.bot, row.game, players) if s.bot else None,
        "stand_in": s.kind == "person" and bool(s.bot),
        "rating_mu": None if rating is None else rating.mu,
        "rating_sigma": None if rating is None else rating.sigma,
        "rating_mu_after": None if rating is None else rating.mu_after,
        "rating_sigma_after": None if rating is None else rating.sigma_after,
    }


def _record(row: db.TableRow, at: float, batch: _Batch, names: Pseudonyms) -> dict[str, Any] | None:
    """One game of the archive, replayed from its log; None if it does not replay to a
    finished game (a log of an older version of the rules)."""
    try:
        game = load(row.game, **row.options)
        history = [(seat, game.action_from_json(obj)) for seat, obj in batch.history[row.id]]
        state = game.replay(row.seed, history)
    except Exception:  # the rules or options changed since: BadInput, IllegalAction, ...
        return None
    if not state.over:
        return None
    outcome = state.outcome()
    settings = row.settings or {}
    return {
        "game_id": names.table(row.id),
        "rematch_of": None if row.rematch_of is None else names.table(row.rematch_of),
        "game": row.game,
        "options": json.dumps(
            options_to_json(game.options) | {"players": game.players}, sort_keys=True
        ),
        "players": game.players,
        "seed": row.seed,
        "history": [
            {"seat": seat, "action": json.dumps(action.to_json(), separators=(",", ":"))}
            for seat, action in history
        ],
        "moves": len(history),
        "seats": [_seat(row, s, batch, names) for s in row.seats],
        "scores": [float(x) for x in outcome.scores],
        "winners": list(outcome.winners),
        "ranks": list(outcome.ranks),
        "payoff": list(outcome.payoff),
        "truncated": outcome.truncated,
        "finished": (EPOCH + dt.timedelta(seconds=at)).date(),
        "rated": row.id in batch.rated,
        "practice": bool(settings.get("practice") or settings.get("seed_chosen")),
    }


def export(
    engine: Engine, out: str | Path, since: float | None = None, game: str | None = None
) -> Exported:
    """Write the archive of the games that finished at `since` or later (of `game`, if
    given) to the Parquet file `out`: written beside it and moved into place once whole, so
    a failed export leaves no half file (nor replaces an older one)."""
    out = Path(out)
    done = Exported(out)
    names = Pseudonyms(server_secret(engine))
    found = finished_tables(engine, since, game)
    temporary = out.with_name(f".{out.name}.{os.getpid()}.part")
    shown = "" if since is None else (EPOCH + dt.timedelta(seconds=since)).isoformat()
    metadata = {b"format": FORMAT.encode(), b"since": shown.encode()}
    try:
        with pq.ParquetWriter(
            temporary, SCHEMA.with_metadata(metadata), compression="zstd"
        ) as writer:
            for start in range(0, len(found), BATCH):
                chunk = found[start : start + BATCH]
                batch = _read_batch(engine, [table_id for table_id, _ in chunk])
                records = []
                for table_id, at in chunk:
                    row = batch.rows[table_id]
                    reason = _left_out(row, batch)
                    record = None if reason else _record(row, at, batch, names)
                    if record is None:
                        done.left_out[reason or NO_REPLAY] += 1
                    else:
                        records.append(record)
                if records:
                    writer.write_table(pa.Table.from_pylist(records, schema=writer.schema))
                    done.games += len(records)
        os.replace(temporary, out)
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
    return done
