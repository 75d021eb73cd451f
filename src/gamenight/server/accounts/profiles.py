"""What accounts show: a person's profile, a game's leaderboard, and an account's own data
to download. A profile shows others only finished games."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, func, not_, or_, select

from gamenight.engine.registry import spec
from gamenight.i18n import N_
from gamenight.server import db
from gamenight.server.accounts.schema import accounts, rated_tables, ratings, seat_accounts
from gamenight.server.live_table import Refused

EXPORT_GAMES = 10_000  # the most games one export lists
# Below this many rated games a person's rating is provisional, as lichess marks it: the
# conservative mu - 3 sigma of a newcomer is near zero or negative, which reads as a
# verdict; pages show the estimate mu with a "?" instead.
PROVISIONAL_GAMES = 5


def _rating(r: Any) -> dict[str, Any]:
    """One of a person's own ratings, as their profile shows it."""
    return {
        "game": r.game,
        "title": spec(r.game).title,
        "mu": round(r.mu, 2),
        "sigma": round(r.sigma, 2),
        "rating": round(r.mu - 3 * r.sigma, 2),
        "games": r.games,
        "provisional": r.games < PROVISIONAL_GAMES,
    }


def _recent(r: Any, players: int) -> dict[str, Any]:
    """One of a person's recent tables, as their profile shows it."""
    return {
        "table": r.id,
        "game": r.game,
        "title": spec(r.game).title,
        "status": r.status,
        "at": r.updated,
        "seat": r.seat,
        "players": players,
        "rated": bool(r.rated),
        "replay": f"/tables/{r.id}/replay" if r.status == "finished" else None,
    }


class Profiles:
    """Reads for profiles, leaderboards and exports (blocking; run in a thread)."""

    engine: Engine

    def profile(self, name: str, viewer: int | None = None) -> dict[str, Any]:
        """A person's profile as `viewer` (an account id; None: a guest) may see it: only
        the person themself sees their open and running tables (others would learn where
        to find them, and at which seat); everyone sees finished games."""
        tables = db.tables
        with self.engine.connect() as conn:
            account = conn.execute(
                select(accounts).where(accounts.c.name_key == name.lower())
            ).first()
            if account is None:
                raise Refused(N_("no player named {name}"), 404, name=name)
            rows = self._recent_tables(conn, account.id, own=viewer == account.id)
            played = conn.execute(
                select(func.count())
                .select_from(seat_accounts)
                .join(tables, tables.c.id == seat_accounts.c.table_id)
                .where(seat_accounts.c.account_id == account.id, tables.c.status == "finished")
            ).scalar_one()
            own = conn.execute(select(ratings).where(ratings.c.player == f"account:{account.id}"))
            mine = [_rating(r) for r in own]
            players = {
                r.table_id: r.n
                for r in conn.execute(
                    select(db.seats.c.table_id, func.count().label("n"))
                    .where(db.seats.c.table_id.in_([r.id for r in rows] or ["-"]))
                    .group_by(db.seats.c.table_id)
                )
            }
        return {
            "name": account.name,
            "since": account.created,
            "games_played": int(played),
            "ratings": mine,
            "recent": [_recent(r, players.get(r.id, 0)) for r in rows],
        }

    @staticmethod
    def _recent_tables(conn: Any, account_id: int, own: bool) -> list[Any]:
        """The account's 20 newest tables: finished ones only, unless `own`."""
        tables = db.tables
        return list(
            conn.execute(
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
                    seat_accounts.c.account_id == account_id,
                    tables.c.id.is_not(None)
                    if own
                    else tables.c.status.not_in(("open", "running")),
                )
                .order_by(tables.c.updated.desc())
                .limit(20)
            ).all()
        )

    def leaderboard(self, game: str, limit: int = 50) -> list[dict[str, Any]]:
        """A game's leaderboard as lichess keeps one: the settled players (bots, and people
        with PROVISIONAL_GAMES rated games or more) ranked by rating, mu - 3 sigma, best
        first (`place` 1, 2, ...); then, apart and unranked (`place` None), the provisional
        players by their estimate mu. At most `limit` of each."""
        spec(game)  # BadInput: no such game
        settled = or_(ratings.c.player.startswith("bot:"), ratings.c.games >= PROVISIONAL_GAMES)
        # programs (bot accounts) are rated apart: never on the people's leaderboard
        here = (ratings.c.game == game) & not_(ratings.c.player.startswith("program:"))
        with self.engine.connect() as conn:
            ranked = conn.execute(
                select(ratings)
                .where(here, settled)
                .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc(), ratings.c.name)
                .limit(limit)
            ).all()
            provisional = conn.execute(
                select(ratings)
                .where(here, not_(settled))
                .order_by(ratings.c.mu.desc(), ratings.c.name)
                .limit(limit)
            ).all()

        def row(r: Any, place: int | None) -> dict[str, Any]:
            return {
                "place": place,
                "name": r.name,
                "bot": r.player.startswith("bot:"),
                "rating": round(r.mu - 3 * r.sigma, 2),
                "mu": round(r.mu, 2),
                "sigma": round(r.sigma, 2),
                "games": r.games,
                "provisional": place is None,
            }

        return [row(r, i + 1) for i, r in enumerate(ranked)] + [row(r, None) for r in provisional]

    def export(self, account_id: int) -> dict[str, Any]:
        """What the server keeps about this account, as JSON: its name, when it was made,
        its games (each table, seat and result) and its ratings. No password hash."""
        tables = db.tables
        with self.engine.connect() as conn:
            account = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
            if account is None:
                raise Refused(N_("this account no longer exists"), 404)
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
