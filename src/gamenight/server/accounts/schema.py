"""The tables accounts keep (made by the Alembic migrations): accounts, their sessions,
the seats linked to them, the ratings (and each rated table's ratings at the time) and which
finished tables were looked at."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Integer, String, Table, false

from gamenight.server.db import metadata

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
    # "keep my games out of the open archive" (migration 0009; server/archive.py)
    Column("archive_opt_out", Boolean, nullable=False, default=False, server_default=false()),
    # the pages' language ("de"; NULL: the browser's), migration 0011 (server/language.py)
    Column("language", String(8), nullable=True),
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

# Each seat's rating before and after a rated table (migration 0009), written with the new
# ratings: the open archive's "ratings at the time" (server/archive.py)
table_ratings = Table(
    "table_ratings",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
)
