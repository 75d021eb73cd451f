"""the open archive of played games (issue 48, item 3): an account may keep its games out
(accounts.archive_opt_out), each rated table keeps its seats' ratings at the time
(table_ratings), and the secret the archive's pseudonyms are made with (archive_secret,
one row, made on the first export; never exported)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(
            sa.Column("archive_opt_out", sa.Boolean, nullable=False, server_default=sa.false())
        )
    op.create_table(
        "table_ratings",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),  # before the game
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
    )
    op.create_table(
        "archive_secret",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("secret", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("archive_secret")
    op.drop_table("table_ratings")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("archive_opt_out")
