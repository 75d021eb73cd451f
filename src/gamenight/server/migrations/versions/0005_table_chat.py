"""table chat: one row per chat line, mute and replay-sharing vote of a table

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),  # say, mute, unmute, share
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("subject", sa.Integer, nullable=True),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_lines")
