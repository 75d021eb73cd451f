"""one rematch per table: rematch_of is unique, so two processes asked for the rematch of
the same finished table at the same moment cannot both make one

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A race before this index may have left two rematches of one table: the earliest
    # stays the series' next table, the later ones stay as tables of their own.
    op.execute(
        "UPDATE tables SET rematch_of = NULL WHERE rematch_of IS NOT NULL AND created > "
        "(SELECT MIN(t.created) FROM tables t WHERE t.rematch_of = tables.rematch_of)"
    )
    op.drop_index("ix_tables_rematch_of", "tables")
    op.create_index("ux_tables_rematch_of", "tables", ["rematch_of"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_tables_rematch_of", "tables")
    op.create_index("ix_tables_rematch_of", "tables", ["rematch_of"])
