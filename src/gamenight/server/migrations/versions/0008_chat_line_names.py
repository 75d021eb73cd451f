"""chat lines keep the name they were written under (a seat changes hands: the line
stays its writer's, also after a restart)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat_lines") as batch:
        batch.add_column(sa.Column("name", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chat_lines") as batch:
        batch.drop_column("name")
