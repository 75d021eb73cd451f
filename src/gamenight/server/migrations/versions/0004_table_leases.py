"""table leases: which server process owns a live table, until when, and its stored deadline

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # One row per table that has (or had) an owner when several processes share one
    # database (gamenight.server.cluster). A single-process server never writes here.
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("owner", sa.String(120), nullable=True),  # process id; NULL: released
        sa.Column("expires", sa.Float, nullable=False),  # database clock, epoch seconds
        # The reaction/turn timer of the current decision, so a new owner rebuilds it.
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("deadline_seat", sa.Integer, nullable=True),
        sa.Column("deadline_version", sa.Integer, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("table_leases")
