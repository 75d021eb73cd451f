"""indexes for the paged lobby, the sweep of stale tables and rematch look-ups

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_tables_status_created", "tables", ["status", "created"])
    op.create_index("ix_tables_status_updated", "tables", ["status", "updated"])
    op.create_index("ix_tables_rematch_of", "tables", ["rematch_of"])


def downgrade() -> None:
    op.drop_index("ix_tables_rematch_of", "tables")
    op.drop_index("ix_tables_status_updated", "tables")
    op.drop_index("ix_tables_status_created", "tables")
