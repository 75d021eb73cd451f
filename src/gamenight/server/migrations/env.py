"""Alembic environment: migrations run on the connection the app passes in (db.migrate)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from gamenight.server.db import metadata

config = context.config
connection = config.attributes.get("connection")

if connection is not None:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()
else:  # `alembic` on the command line with sqlalchemy.url set
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite://")
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
