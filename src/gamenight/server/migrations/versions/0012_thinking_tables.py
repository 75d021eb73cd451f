"""who made a table whose bots search in the workers (a per-person and per-address budget
counted over every process): tables.thinking_person, tables.thinking_address (hashes)

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("thinking_person", sa.String(64), nullable=True))
        batch.add_column(sa.Column("thinking_address", sa.String(64), nullable=True))
    op.create_index("ix_tables_thinking_person", "tables", ["thinking_person"])
    op.create_index("ix_tables_thinking_address", "tables", ["thinking_address"])


def downgrade() -> None:
    op.drop_index("ix_tables_thinking_address", "tables")
    op.drop_index("ix_tables_thinking_person", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("thinking_address")
        batch.drop_column("thinking_person")
